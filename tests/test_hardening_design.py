"""Issue 39, hardening round 3: the design commands (`fair`, `sensitivity`, `map`).

One test (or one parametrised test) per class of the issue: `--jobs` (3), the design
commands' inputs (4), their run folders — lock, a folder another run creates meanwhile,
stale temporaries, Ctrl-C while the report is written (6), Markdown escaping of the rules
file name in summary.md (7), and the minor ones: error lines over 5,000 characters, a
300-character `--out`, the misleading "outside the range" of an empty range (8); and designs
too large to build (more than 100,000 points or 1,000,000 chunks), found trying the options.
Every refusal is one stderr line, exit 2, before any run folder exists or any match is played.
The runs that write a folder are toy-game maps of 2 x 2 points and 10 matches; the race is two
real processes (about 3 s). Whole file: about 8 s.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil

import pytest

from sim.cli import main
from tests.cli_errors import one_error_line as _one_line
from sim.fair.runner import PointRunner

TOY = ["--game", "toy", "--pairing", "red_vs_blue", "--skill", "greedy", "--chunk-size", "10", "--quiet"]
SMALL_MAP = ["map", "--x", "life0=4:8:4", "--y", "life1=4:8:4", "--matches", "10", "--jobs", "1"] + TOY


class _WouldPlay(Exception):
    """Raised where a design command would start playing: its input was accepted."""


@pytest.fixture
def no_matches(monkeypatch):
    def refuse(*args, **kwargs):
        raise _WouldPlay
    monkeypatch.setattr(PointRunner, "play", refuse)




def _chunk_stamps(folder) -> dict:
    return {entry.name: entry.stat().st_mtime_ns for entry in (folder / "chunks").iterdir()}


def _result(folder) -> dict:
    data = json.loads((folder / "result.json").read_text(encoding="utf-8"))
    return {key: value for key, value in data.items() if key != "cost"}


@pytest.fixture(scope="module")
def finished_map(tmp_path_factory):
    """A finished toy map run (copied by each test that changes it)."""
    folder = tmp_path_factory.mktemp("design") / "map"
    assert main(SMALL_MAP + ["--out", str(folder)]) == 0
    return folder


def _copy(finished_map, tmp_path):
    folder = tmp_path / "map"
    shutil.copytree(finished_map, folder)
    return folder


# ---- 3. --jobs ------------------------------------------------------------------------------------------

DESIGNS = {"fair": ["fair", "--param", "life0=2:40"],
           "sensitivity": ["sensitivity", "--param", "life0=4:16", "--param", "heal=0:4", "--method", "morris",
                           "--n", "4", "--matches", "10"],
           "map": ["map", "--x", "life0=4:8:4", "--y", "life1=4:8:4", "--matches", "10"]}


@pytest.mark.parametrize("jobs", ["0", "-5", "-2", "5000"])
@pytest.mark.parametrize("command", sorted(DESIGNS))
def test_jobs_outside_1_to_1024_or_minus_1_is_refused_before_the_run_folder(tmp_path, capsys, no_matches,
                                                                             command, jobs):
    # was: --jobs 0 crashed in joblib after the run folder existed; --jobs -5 ran on "all cores but four"
    line = _one_line(capsys, DESIGNS[command] + TOY + ["--jobs", jobs, "--out", str(tmp_path / "run")])
    assert "--jobs must be a number of worker processes from 1 to 1024, or -1 for all cores (got %s)" % jobs in line
    assert not (tmp_path / "run").exists()


# ---- 4. the design commands' inputs ---------------------------------------------------------------------

PD = ["--game", "poker_duel", "--skill", "greedy"]


@pytest.mark.parametrize("argv, message", [
    # a switch written as TOML writes it, one reading only: was a TypeError joining True
    (["sensitivity", "--param", "hp0", "--param", "p1_first_battle=true"] + PD,
     "parameter 'p1_first_battle' needs at least two readings (got True)"),
    # a reading twice would weigh it double in the design: was accepted
    (["sensitivity", "--param", "hp0", "--param", "D-AMB-42=nothing,nothing"] + PD,
     "parameter 'D-AMB-42': reading 'nothing' is given twice"),
    # readings for a number, a range for a factor: were silently ignored (the declared range was used)
    (["sensitivity", "--param", "hp0=40", "--param", "D-AMB-42"] + PD, "parameter 'hp0' is a number; give NAME or"),
    (["sensitivity", "--param", "hp0", "--param", "D-AMB-42=1:3"] + PD, "parameter 'D-AMB-42' is categorical; give"),
    (["fair", "--param", "life0=40"] + TOY, "parameter 'life0' is a number; give NAME or NAME=LOW:HIGH"),
    # an axis of ten trillion values: was a MemoryError allocating them before the budget check
    (["map", "--x", "life0=1:10000000000000:1", "--y", "life1=4:8:4"] + TOY,
     "--x: 10,000,000,000,000 values from 1 to 10000000000000 in steps of 1; an axis takes at most 200"),
    # a target no mean length reaches: was refused only after the search had played its matches
    (["fair", "--param", "life0=2:40", "--metric", "length", "--target", "inf"] + TOY,
     "--target: a mean length is a finite number of turns above 0; no value reaches inf"),
    (["map", "--x", "life0=4:8:4", "--y", "life1=4:8:4", "--metric", "length", "--target", "inf"] + TOY,
     "no value reaches inf"),
    # a design SALib cannot allocate (found trying the options by hand): was a 32 GiB MemoryError traceback
    (["sensitivity", "--param", "hp0", "--param", "hp1", "--method", "sobol", "--n", str(2**30),
      "--max-matches", str(10**18)] + PD, "the sobol design would have 4,294,967,296 points; at most 100,000"),
    # budgets too large to plan (found by hand): was a MemoryError building the chunk list, after the folder existed
    (["map", "--x", "life0=4:8:4", "--y", "life1=4:8:4", "--matches", str(10**12), "--max-matches", str(10**18)]
     + TOY, "the map: 8,000,000,000,000 matches in chunks of 10 would be 800,000,000,000 chunks; at most 1,000,000"),
    (["fair", "--param", "life0=2:40", "--max-matches", str(10**18)] + TOY, "would be 100,000,000,000,000,000 chunks"),
    (["sensitivity", "--param", "life0=4:16", "--param", "heal=0:4", "--method", "morris", "--n", "4",
      "--matches", str(10**9), "--max-matches", str(10**18)] + TOY, "the design: "),
    # two parameters setting seat 0's life: the later overwrote the earlier at every point
    (["map", "--x", "life0=4:8:4", "--y", "life=4:8:4"] + TOY, "parameters 'life0' and 'life' both set seat 0's life"),
    (["sensitivity", "--param", "life1=4:16", "--param", "life=4:16"] + TOY,
     "parameters 'life1' and 'life' both set seat 1's life"),
])
def test_design_inputs_are_refused_in_one_line_before_any_match(tmp_path, capsys, no_matches, argv, message):
    line = _one_line(capsys, argv + ["--jobs", "1", "--out", str(tmp_path / "run")])
    assert message in line, line
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("game, factor", [("poker_duel", "p1_first_battle=true,false"),
                                          ("poker_duel", "p1_first_battle=False,True"),  # as describe() prints it
                                          ("novel_tcg", "T-AMB-31=true,false")])        # as `rules` prints it
def test_readings_spelled_as_the_commands_print_them_are_accepted(tmp_path, capsys, no_matches, game, factor):
    # was: "true" became the switch value True, so T-AMB-31 (readings "true"/"false") refused its own readings;
    # --max-matches 1: the budget check comes after the parameters, so reaching it proves them accepted
    line = _one_line(capsys, ["sensitivity", "--game", game, "--param", "hp0" if game == "poker_duel" else "rank0",
                              "--param", factor, "--method", "morris", "--n", "4", "--max-matches", "1",
                              "--out", str(tmp_path / "run")])
    assert "the morris design needs" in line and "above --max-matches 1" in line, line


@pytest.mark.parametrize("content", [b"[1, 2]\n", b"\"text\"\n", b"{not json\n", b"\xff\xfe\n"])
def test_a_settings_json_that_is_not_an_object_is_one_line(tmp_path, capsys, no_matches, content):
    # was: a list gave an AttributeError traceback; bytes that are not JSON "holds a run with other settings"
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "settings.json").write_bytes(content)
    line = _one_line(capsys, SMALL_MAP + ["--out", str(folder)])
    assert "is not the settings of a cardbalance run (not a JSON object); give a new folder" in line
    assert sorted(os.listdir(folder)) in (["settings.json"], [".lock", "settings.json"])  # nothing played


def test_a_folder_of_another_design_command_names_that_command(tmp_path, capsys, no_matches, finished_map):
    line = _one_line(capsys, DESIGNS["fair"] + TOY + ["--jobs", "1", "--out", str(_copy(finished_map, tmp_path))])
    assert "holds a `cardbalance map` run, not a `cardbalance fair` one" in line


# ---- 6. run folders: lock, a folder created meanwhile, stale temporaries, Ctrl-C during the report ---------

def test_a_run_folder_another_run_holds_is_refused_naming_the_holder(tmp_path, capsys, finished_map):
    from sim.sweep.runlock import hold_run_lock
    folder = _copy(finished_map, tmp_path)
    before = _chunk_stamps(folder)
    with hold_run_lock(folder, "cardbalance map --out other"):  # another open file: a second process to flock
        line = _one_line(capsys, SMALL_MAP + ["--out", str(folder)])
    assert "run folder '%s' is in use by pid %d" % (folder, os.getpid()) in line and "cardbalance map --out other" in line
    assert _chunk_stamps(folder) == before  # was: both ran, the second replaying every chunk


def test_a_folder_another_run_creates_meanwhile_is_joined_under_its_lock(tmp_path, capsys, monkeypatch):
    """The race of two new runs: B passes the "folder absent" check, A creates the folder and holds it,
    then B renames its own into place. B must be refused naming A, not fail or play beside it."""
    from sim import safe_output
    from sim.sweep.runlock import hold_run_lock
    folder = tmp_path / "run"
    checked = safe_output.check_output_folder
    with contextlib.ExitStack() as other_run:
        def another_run_starts_now(path, option):
            result = checked(path, option)
            folder.mkdir()
            (folder / "settings.json").write_text(json.dumps({"command": "map"}))
            other_run.enter_context(hold_run_lock(folder, "cardbalance map (the other run)"))
            return result
        monkeypatch.setattr(safe_output, "check_output_folder", another_run_starts_now)
        line = _one_line(capsys, SMALL_MAP + ["--out", str(folder)])  # was: exit 74 (mkdir: File exists)
    assert "is in use by pid %d" % os.getpid() in line and "(the other run)" in line
    assert sorted(os.listdir(folder)) == [".lock", "settings.json"]
    assert not [name for name in os.listdir(tmp_path) if name.startswith(".run.building-")]


def test_two_design_runs_racing_for_one_folder_play_every_chunk_once(tmp_path):
    """Two real processes start the same map on one new --out at once: one plays, the other is refused
    naming it (or, if it comes after, resumes and plays nothing). Was: both ran, every chunk twice."""
    import subprocess
    import sys
    from pathlib import Path
    tests = Path(__file__).resolve().parent
    launcher = ("import sys; sys.path.insert(0, %r); import toygame; toygame.register_toy_game(); "
                "from sim.cli import main; sys.exit(main(sys.argv[1:]))" % str(tests))
    folder = tmp_path / "map"
    argv = [a if a != "10" else "2000" for a in SMALL_MAP] + ["--out", str(folder)]  # 32,000 matches: a few s
    runs = [subprocess.Popen([sys.executable, "-c", launcher, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True) for _ in range(2)]
    outcomes = [(run.wait(timeout=120), run.stderr.read()) for run in runs]
    for run in runs:
        run.stdout.close()
        run.stderr.close()
    codes = sorted(code for code, _ in outcomes)
    assert codes in ([0, 0], [0, 2]), outcomes
    if codes == [0, 2]:
        refused = next(err for code, err in outcomes if code == 2)
        assert "is in use by pid" in refused and refused.count("\n") == 1, refused
    cost = json.loads((folder / "result.json").read_text())["cost"]
    assert cost["matches"] == 2 * 2 * 2 * 2000
    # result.json is the last writer's: the one that ran alone played all; one that waited for the lock to be
    # free found the run finished and played nothing
    assert cost["matches_played_now"] == (cost["matches"] if codes == [0, 2] else 0), (outcomes, cost)


def test_resume_removes_the_temporaries_a_killed_run_left(tmp_path, capsys, finished_map):
    folder = _copy(finished_map, tmp_path)
    first = _result(folder)
    # what SIGKILL during a write leaves: sim/safe_output.py's temporaries, never a half file under its name
    stale = [folder / "chunks" / ".c000000-k000000.npy.k2j4abcd.tmp", folder / ".summary.md.x8y7wxyz.tmp"]
    for path in stale:
        path.write_bytes(b"half")
    assert main(SMALL_MAP + ["--out", str(folder)]) == 0
    assert not [path for path in stale if path.exists()]  # was: they stayed forever
    assert _result(folder) == first
    assert json.loads((folder / "result.json").read_text())["cost"]["matches_played_now"] == 0


def test_ctrl_c_while_the_report_is_written_leaves_no_half_file_and_reruns_without_playing(tmp_path, capsys,
                                                                                          monkeypatch):
    folder = tmp_path / "map"
    replace = os.replace

    def interrupted(source, target, *args, **kwargs):
        if str(target).endswith("summary.md"):  # the temporary is written; Ctrl-C before its rename
            raise KeyboardInterrupt
        return replace(source, target, *args, **kwargs)
    with monkeypatch.context() as patch:
        patch.setattr(os, "replace", interrupted)
        assert main(SMALL_MAP + ["--out", str(folder)]) == 130
    assert "interrupted" in capsys.readouterr().err
    assert not (folder / "summary.md").exists() and not [n for n in os.listdir(folder) if n.endswith(".tmp")]
    assert main(SMALL_MAP + ["--out", str(folder)]) == 0  # the same command finishes the report
    assert (folder / "summary.md").is_file()
    assert json.loads((folder / "result.json").read_text())["cost"]["matches_played_now"] == 0


# ---- 7. Markdown escaping -----------------------------------------------------------------------------

EVIL = "r<img src=x onerror=alert(1)>*em* [link](javascript:x) `tick.toml"  # a file name: no slash


@pytest.mark.parametrize("command", ["map", "sensitivity"])
def test_summary_md_shows_the_rules_file_name_as_code_not_markup(tmp_path, command):
    from markdown_it import MarkdownIt
    rules = tmp_path / EVIL
    rules.write_text("die_sides = 8\n")
    argv = (SMALL_MAP if command == "map" else
            DESIGNS["sensitivity"] + TOY + ["--life", "10", "--jobs", "1"]) + ["--rules", str(rules)]
    assert main(argv + ["--out", str(tmp_path / "run")]) == 0
    text = (tmp_path / "run" / "summary.md").read_text(encoding="utf-8")
    line = next(line for line in text.splitlines() if line.startswith("- game "))
    parser = MarkdownIt("commonmark")  # raw HTML passes through it: what a careless renderer does
    tokens = parser.parseInline(line[2:])[0].children
    assert [t.content for t in tokens if t.type == "code_inline"] == [str(rules)]  # whole, exactly as typed
    assert not [t for t in tokens if t.type in ("html_inline", "link_open", "em_open", "strong_open")]
    html = parser.render(text)
    assert "<img src=x" not in html and "onerror=alert(1)>" not in html  # only the summary's own figure


def test_fair_summary_line_quotes_the_rules_name_the_same_way():
    # fair's summary needs a finished search; its line is the same function as map's and sensitivity's
    from reports.fair import setting_line
    line = setting_line({"game": "toy", "rules": EVIL, "skill": "greedy", "values": {}, "first_player_orders": "both"})
    assert "`` %s ``" % EVIL in line or "``%s``" % EVIL in line


# ---- 8. minor: long error lines, a 300-character --out, the misleading "outside the range" ---------------

@pytest.mark.parametrize("option", ["--param", "--skill", "--rules", "--x"])
def test_an_error_quoting_a_6000_character_value_is_a_short_line(tmp_path, capsys, no_matches, option):
    long = "x" * 6000
    argv = {"--param": ["fair", "--param", long] + TOY,
            "--skill": ["fair", "--param", "life0=2:40"] + TOY + ["--skill", long],
            "--rules": ["fair", "--param", "life0=2:40"] + TOY + ["--rules", long],
            "--x": ["map", "--x", long + "=1:2:1", "--y", "life1=4:8:4"] + TOY}[option]
    line = _one_line(capsys, argv + ["--out", str(tmp_path / "run")])
    assert len(line) <= 2100, len(line)  # was: 6,071 to 6,278 characters


def test_a_300_character_out_is_exit_2_naming_the_limit(tmp_path, capsys, no_matches):
    line = _one_line(capsys, DESIGNS["map"] + TOY + ["--out", str(tmp_path / ("x" * 300))])  # was: exit 74
    assert "--out: the name 'xxxx" in line and "is 300 bytes long; a file or folder name may have at most 255" in line


@pytest.mark.parametrize("argv", [["sweep", "--game", "poker_duel"],
                                  ["ladder", "--game", "poker_duel", "--agents", "greedy,random"]])
def test_a_300_character_out_is_exit_2_for_the_sweep_and_the_ladder_too(tmp_path, capsys, argv):
    line = _one_line(capsys, argv + ["--out", str(tmp_path / ("x" * 300))])  # was: exit 74
    assert "is 300 bytes long; a file or folder name may have at most 255" in line


@pytest.mark.parametrize("spec, shown", [("life0=40:2", "range 40..2"), ("life0=7:7", "range 7..7"),
                                         ("die_sides=9:3", "range 9..3")])
def test_an_empty_range_is_called_empty_not_outside(tmp_path, capsys, no_matches, spec, shown):
    # was: "range 40..2 is outside the range the game's life dimension values declare (1..1000, ...)",
    # with both ends inside; die_sides (no declared range) was accepted as a range of 9 down to 3
    line = _one_line(capsys, ["fair", "--param", spec] + TOY + ["--out", str(tmp_path / "run")])
    assert "%s is empty; LOW must be below HIGH" % shown in line, line

