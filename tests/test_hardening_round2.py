"""Issue 30: every reproduction of the second hardening round ends in one line.

One test (or one parametrised test) per class of the issue's "Why" list:
budgets in Unicode digits or too long, integers past Python's 4,300-digit
limit, Poker Duel positions, file names that are not UTF-8, late validation,
tune-agent's run folder, options a mode cannot use, names the product prints,
and library warnings next to an error line. Each case exits 2 (or the
documented code) with one stderr line, no traceback, and leaves no file
behind; all are refused before any match is played, so the file runs in
seconds once the kernels are cached.
"""

from __future__ import annotations

import errno
import json
import os
import warnings
from pathlib import Path

import pytest

from sim.cli import main
from tests.cli_errors import one_error_line as _one_line

HUGE = "9" * 5000  # past Python's integer-string limit (4,300 digits)
NOT_UTF8 = os.fsdecode(b"bad-\xff-name")  # a file name that is not valid UTF-8




def _entries(folder) -> list[str]:
    return sorted(os.listdir(folder))


# ---- budgets in Unicode digits or longer than the integer-string limit ----------------------------------

@pytest.mark.parametrize("budget", ["²", "١٢", HUGE, "0", "-3", " 7"])
@pytest.mark.parametrize("command", ["play", "ladder", "compare"])
def test_a_budget_is_ascii_digits_in_range(tmp_path, capsys, monkeypatch, budget, command):
    monkeypatch.chdir(tmp_path)
    agent = "pimc:" + budget
    argv = {"play": ["play", "--game", "poker_duel", "--p0", agent, "--p1", "greedy"],
            "ladder": ["ladder", "--game", "poker_duel", "--agents", "greedy," + agent, "--out", "lad"],
            "compare": ["compare", "--game", "poker_duel", "core", "advanced", "--skill", agent]}[command]
    line = _one_line(capsys, argv)
    assert "digits 0-9" in line or "integer from 1" in line, line
    assert _entries(tmp_path) == []


def test_a_sweep_skill_budget_in_unicode_digits(tmp_path, capsys):
    sweep = tmp_path / "s.toml"
    sweep.write_text('game = "poker_duel"\nrules = ["core"]\nskills = ["pimc:²"]\nmatches = 10\n')
    line = _one_line(capsys, ["sweep", str(sweep), "--out", str(tmp_path / "run")])
    assert "pimc:²" in line and "digits 0-9" in line
    assert _entries(tmp_path) == ["s.toml"]


# ---- integers longer than 4,300 digits ------------------------------------------------------------------

@pytest.mark.parametrize("game, key", [("poker_duel", "club_multiplier"), ("faction_war", "opening_hand")])
def test_a_rules_file_with_a_huge_integer(tmp_path, capsys, game, key):
    path = tmp_path / "r.toml"
    path.write_text("%s = %s\n" % (key, HUGE))
    line = _one_line(capsys, ["rules", "--game", game, str(path)])
    assert "a number is too long" in line and "5000 digits" in line


def test_a_sweep_file_with_a_huge_matches(tmp_path, capsys):
    path = tmp_path / "s.toml"
    path.write_text('game = "poker_duel"\nmatches = %s\n' % HUGE)
    line = _one_line(capsys, ["sweep", str(path), "--out", str(tmp_path / "run")])
    assert "a number is too long" in line
    assert _entries(tmp_path) == ["s.toml"]


@pytest.mark.parametrize("game", ["faction_war", "poker_duel"])
def test_a_position_with_a_huge_turn(tmp_path, capsys, game):
    path = tmp_path / "p.json"
    path.write_text('{"turn": %s}' % HUGE)
    line = _one_line(capsys, ["scenario", "--game", game, str(path)])
    assert "a number is too long" in line


@pytest.mark.parametrize("argv", [["compare", "--baseline", "{tmp}/run/meta.json", "default"],
                                  ["sweep", "--resume", "{tmp}/run"], ["ladder", "--resume", "{tmp}/run"],
                                  ["report", "{tmp}/run"], ["play", "--from", "{tmp}/run", "--cell", "0", "--match", "0"]])
def test_json_files_with_a_huge_integer(tmp_path, capsys, argv):
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "meta.json").write_text('{"format": %s}' % HUGE)
    line = _one_line(capsys, [word.format(tmp=tmp_path) for word in argv])
    assert "not valid JSON" in line or "too long" in line, line


# ---- Poker Duel positions -------------------------------------------------------------------------------

PD_BAD_POSITIONS = {
    "new names no card": ({"players": [{"monsters": ["S7"], "new": ["XX"]}, {}]}, "'players[0].new'"),
    "new names a number": ({"players": [{"monsters": ["S7"], "new": [7]}, {}]}, "'players[0].new'"),
    "ambiguities a string": ({"rules": {"ambiguities": "x"}}, "'rules.ambiguities' must be an object"),
    "ambiguities null": ({"rules": {"ambiguities": None}}, "'rules.ambiguities' must be an object"),
    "ambiguities a list": ({"rules": {"ambiguities": ["D-AMB-06"]}}, "'rules.ambiguities' must be an object"),
    "negative hp": ({"players": [{"hp": -5}, {}]}, "'players[0].hp' must be an integer from 1"),
    "zero hp": ({"players": [{}, {"hp": 0}]}, "'players[1].hp' must be an integer from 1"),
    "turn-1 battle": ({"turn": 1, "active": 0, "first": 0, "phase": "declare"}, "no battle phase on turn 1"),
}


@pytest.mark.parametrize("case", PD_BAD_POSITIONS)
def test_poker_duel_positions_are_refused_not_crashed_on(tmp_path, capsys, case):
    data, words = PD_BAD_POSITIONS[case]
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    line = _one_line(capsys, ["scenario", "--game", "poker_duel", str(path)])
    assert words in line, line


def test_poker_duel_position_nested_100000_deep(tmp_path, capsys):
    path = tmp_path / "p.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    assert "nested too deeply" in _one_line(capsys, ["scenario", "--game", "poker_duel", str(path)])


def test_turn_1_battle_is_accepted_where_the_rules_allow_it():
    """Both readings of p1_first_battle (D-BP-1): refused above with false, loaded with true."""
    from sim.poker_duel.position import load_position
    match = load_position({"turn": 1, "phase": "declare", "rules": {"p1_first_battle": True}})
    assert match.turn == 1


# ---- file names that are not UTF-8 ----------------------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["ladder", "--game", "poker_duel", "--agents", "random,greedy", "--rules", "{bad}.toml", "--out", "{tmp}/l"],
    ["compare", "--game", "poker_duel", "core", "{bad}.toml"],
    ["sweep", "{bad}.toml", "--out", "{tmp}/run"],
    ["sweep", "--game", "poker_duel", "--out", "{tmp}/{bad}"],
    ["tune-agent", "--out", "{tmp}/{bad}"],
])
def test_file_names_that_are_not_utf8_are_refused_up_front(tmp_path, capsys, argv):
    (tmp_path / (NOT_UTF8 + ".toml")).write_text('game = "poker_duel"\n')
    before = _entries(tmp_path)
    line = _one_line(capsys, [word.format(bad=NOT_UTF8, tmp=tmp_path) for word in argv])
    assert "is not valid UTF-8" in line
    assert _entries(tmp_path) == before


# ---- late validation ------------------------------------------------------------------------------------

def test_ladder_bootstrap_past_its_bound_is_refused_before_any_match(tmp_path, capsys):
    line = _one_line(capsys, ["ladder", "--game", "poker_duel", "--agents", "random,greedy", "--bootstrap",
                              "1000000000000", "--out", str(tmp_path / "l")])
    assert "--bootstrap must be an integer from 0 to 10000" in line
    assert _entries(tmp_path) == []


def test_a_long_sweep_name_gets_a_short_run_folder(tmp_path, capsys, monkeypatch, toy_game):
    from sim.cli.sweep_cmd import RUN_NAME_CHARACTERS, default_run_dir
    monkeypatch.chdir(tmp_path)
    folder = default_run_dir("x" * 300)
    assert len(folder.name) <= len("20260101-000000-") + RUN_NAME_CHARACTERS
    assert not (tmp_path / "runs").exists()  # naming creates nothing


@pytest.mark.parametrize("option, bound", [("--trials", "at most 100000"), ("--matches", "at most 10000000000"),
                                           ("--recheck", "at most 10000000000")])
def test_tune_agent_counts_have_declared_upper_bounds(tmp_path, capsys, option, bound):
    line = _one_line(capsys, ["tune-agent", "--game", "poker_duel", option, "1" + "0" * 12, "--out", str(tmp_path / "t")])
    assert option in line and bound in line
    assert _entries(tmp_path) == []


# ---- tune-agent's run folder ----------------------------------------------------------------------------

TUNE = ["tune-agent", "--game", "poker_duel", "--trials", "1", "--matches", "4", "--recheck", "4"]


@pytest.mark.parametrize("out, words", [("{tmp}/afile/sub", "is a file, not a folder"),
                                        ("/proc/cardbalance-x", "cannot write to"),
                                        ("", "--out must name a folder"),
                                        ("  ", "--out must name a folder")])
def test_tune_agent_out_paths_exit_2(tmp_path, capsys, out, words):
    (tmp_path / "afile").write_text("x")
    line = _one_line(capsys, TUNE + ["--out", out.format(tmp=tmp_path)])
    assert words in line
    assert _entries(tmp_path) == ["afile"]


@pytest.mark.parametrize("kind", ["sweep run", "other folder"])
def test_tune_agent_refuses_a_folder_that_is_not_its_own(tmp_path, capsys, kind):
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / ("meta.json" if kind == "sweep run" else "notes.txt")).write_text("{}")
    line = _one_line(capsys, TUNE + ["--out", str(folder)])
    assert ("a sweep or ladder run folder" if kind == "sweep run" else "not a tune-agent run folder") in line
    assert len(_entries(folder)) == 1


def _started_tuning_folder(tmp_path, log: bytes) -> Path:
    from strategies.poker_duel import tuning
    folder = tmp_path / "tune"
    folder.mkdir()
    settings = {"game": "poker_duel", "seed": 1, "matches": 4, "rules": tuning.TUNING_RULES,
                "hp": list(tuning.DEFAULT_HP), "weights": list(tuning.W.WEIGHT_NAMES),
                "ranges": {k: list(v) for k, v in tuning.W.RANGES.items()}}
    (folder / tuning.SETTINGS_NAME).write_text(json.dumps(settings))
    (folder / tuning.LOG_NAME).write_bytes(log)
    return folder


@pytest.mark.parametrize("log", [b"\xff\xfe binary\n", b"[1, 2]\n", b'"text"\n', b'{"trial": "x"}\n'])
def test_tune_agent_resume_refuses_a_log_line_that_is_not_a_trial(tmp_path, capsys, log):
    folder = _started_tuning_folder(tmp_path, log)
    line = _one_line(capsys, TUNE + ["--out", str(folder)])
    assert "trials.jsonl" in line and ("not a trial" in line)


def test_tune_agent_holds_a_lock(tmp_path, capsys):
    from sim.sweep.runlock import hold_run_lock
    folder = _started_tuning_folder(tmp_path, b"")
    with hold_run_lock(folder, "cardbalance tune-agent --out elsewhere"):
        line = _one_line(capsys, TUNE + ["--out", str(folder)])
    assert "is in use by pid %d" % os.getpid() in line


def test_tune_agent_full_disk_at_the_start_leaves_nothing_and_names_the_file(tmp_path, capsys, monkeypatch):
    def full(_descriptor):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr("sim.safe_output.os.fsync", full)
    line = _one_line(capsys, TUNE + ["--out", str(tmp_path / "tune")], code=74)
    assert "settings.json" in line and "No space left on device" in line
    assert _entries(tmp_path) == []


# ---- options a mode cannot use --------------------------------------------------------------------------

@pytest.mark.parametrize("extra", [["--p0", "greedy"], ["--p1", "random"], ["--seed", "3"], ["--rules", "core"],
                                   ["--hp", "30"]])
def test_play_from_a_run_refuses_options_of_a_new_match(tmp_path, capsys, extra):
    line = _one_line(capsys, ["play", "--from", str(tmp_path / "run"), "--cell", "0", "--match", "0", *extra])
    assert "drop %s" % extra[0] in line


# ---- a name the product prints can be used --------------------------------------------------------------

def test_every_variant_name_a_vary_sweep_prints_loads_as_that_variant():
    from sim.poker_duel.rules import load_rules
    from sim.sweep.vary import load_named, parse_vary, variants
    vary = parse_vary({"D-AMB-06": ["1", "14"], "club_multiplier": [2, 3]}, "test")
    rules, _ = variants(["core", "advanced"], vary, load_rules, "test")
    assert len(rules) == 8
    for name, expected in rules.items():
        assert load_named(load_rules, name) == expected, name


def test_play_takes_the_variant_name_a_sweep_prints(capsys):
    assert main(["play", "--game", "poker_duel", "--rules", "core+D-AMB-06=14", "--seed", "3"]) == 0
    assert capsys.readouterr().out.startswith("# p0 = ")


def test_every_agent_name_the_table_prints_parses_back():
    from sim.registry import game_names, get_game
    for name in game_names():
        game = get_game(name)
        for agent in game.strategy_names():
            assert game.strategy_id(agent) >= 0


# ---- library warnings next to an error line -------------------------------------------------------------

def test_a_library_warning_does_not_reach_stderr_next_to_an_error(capsys, monkeypatch):
    from sim.cli import rules_cmd
    from sim.errors import CardbalanceError

    def warn_then_fail(args):
        warnings.warn("A worker stopped while some jobs were given to the executor.", UserWarning)
        raise CardbalanceError("the one line.")
    monkeypatch.delenv("PYTHONWARNINGS", raising=False)
    monkeypatch.setattr(rules_cmd, "run", warn_then_fail)
    assert _one_line(capsys, ["rules"]).endswith("the one line.")


# ---- did you mean ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("argv, suggestion", [
    (["play", "--game", "poker_dul"], "did you mean 'poker_duel'?"),
    (["rules", "defualt"], "did you mean 'default'?"),
    (["play", "--p0", "human:gredy"], "did you mean 'greedy'?"),
    (["play", "--game", "poker_duel", "--p0", "gredy"], "did you mean 'greedy'?"),
    (["rules", "--game", "poker_duel", "cor"], "did you mean 'core'?"),
    (["play", "--pairing", "human_vs_alein"], "did you mean 'human_vs_alien'?"),
])
def test_unknown_names_suggest_the_closest(capsys, argv, suggestion):
    assert suggestion in _one_line(capsys, argv)


@pytest.mark.parametrize("argv, suggestion", [(["swep"], "did you mean 'sweep'?"),
                                               (["sweep", "--backend", "lokyy"], "did you mean 'loky'?")])
def test_unknown_command_and_option_values_suggest_the_closest(capsys, argv, suggestion):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].endswith(suggestion), lines


def test_unknown_rules_key_switch_and_reading_suggest_the_closest(tmp_path, capsys):
    path = tmp_path / "r.toml"
    for text, suggestion in [("club_multiplyer = 2\n", "'club_multiplier'"),
                             ('[ambiguities]\n"DAMB-06" = "1"\n', "'D-AMB-06'"),
                             ('[ambiguities]\n"D-AMB-06" = "14x"\n', "'14'")]:
        path.write_text(text)
        line = _one_line(capsys, ["rules", "--game", "poker_duel", str(path)])
        assert "did you mean %s?" % suggestion in line, line


# ---- workers check their parent between matches ---------------------------------------------------------

def test_a_chunk_played_in_slices_sums_to_the_whole_chunk(monkeypatch, toy_game):
    """Slicing a chunk moves no result: the slices' vectors add up to the one-call vector."""
    import numpy as np

    from sim import worker_lifetime
    from sim.sweep.grid import build_plan, parse_sweep
    plan = build_plan(parse_sweep({"game": "toy", "pairings": ["red_vs_blue"], "life": [8],
                                   "strategies": ["greedy:random"], "matches": 300}, "test"))
    cell = plan.cells[0]
    rules_array, cell_array = plan.rules_array(cell), plan.cell_array(cell)
    calls = []

    def play(start, count):
        calls.append(count)
        return np.asarray(toy_game.play_batch(rules_array, cell_array, 12345, start, count), dtype=np.int64)
    whole = play(0, 300)
    monkeypatch.setattr(worker_lifetime, "_parent_pid", os.getppid())  # as in a worker whose parent lives
    calls.clear()
    sliced = worker_lifetime.play_in_slices(play, 300, slice_s=1e-9)
    assert len(calls) > 10 and sum(calls) == 300
    assert np.array_equal(sliced, whole)


def test_a_worker_whose_parent_died_leaves_after_the_current_slice():
    import subprocess
    import sys
    code = ("import time\nfrom sim import worker_lifetime as w\nw._parent_pid = -1\n"  # never our parent
            "def play(start, count):\n    print(start, count, flush=True)\n    time.sleep(0.05)\n    return 0\n"
            "w.play_in_slices(play, 1000)\nprint('finished the chunk')\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                            env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])})
    assert result.returncode == 1
    assert result.stdout.split() == ["0", "1"]  # one slice of one match, then out


def test_compare_tasks_play_in_slices_with_the_same_sums(monkeypatch, toy_game):
    """Issue 30 item 5: compare's paired and single-arm tasks check their parent between
    slices like sweep chunks (slices of 1, 8, 64, … matches), and slicing leaves the
    paired sums unchanged."""
    import numpy as np

    from sim import worker_lifetime
    from sim.compare import runner
    from sim.sweep.grid import build_plan, parse_sweep
    plan = build_plan(parse_sweep({"game": "toy", "pairings": ["red_vs_blue"], "life": [8],
                                   "strategies": ["greedy:random"], "matches": 300}, "test"))
    cell = plan.cells[0]
    rules_a, cell_array = plan.rules_array(cell), plan.cell_array(cell)
    rules_b = rules_a.copy()
    whole_paired = runner._paired_task(toy_game.play_paired_batch, rules_a, rules_b, cell_array, 77, 300)
    whole_single = runner._single_task(toy_game.play_batch, rules_a, cell_array, 77, 300, len(toy_game.end_types))
    calls = []

    def counted(function):
        def play(*args):
            calls.append(args[-1])
            return function(*args)
        return play
    monkeypatch.setattr(worker_lifetime, "_parent_pid", os.getppid())  # as in a worker whose parent lives
    sliced_paired = runner._paired_task(counted(toy_game.play_paired_batch), rules_a, rules_b, cell_array, 77, 300)
    assert len(calls) > 3 and sum(calls) == 300
    calls.clear()
    sliced_single = runner._single_task(counted(toy_game.play_batch), rules_a, cell_array, 77, 300,
                                        len(toy_game.end_types))
    assert len(calls) > 3 and sum(calls) == 300
    assert np.array_equal(np.asarray(sliced_paired), np.asarray(whole_paired))
    assert np.array_equal(np.asarray(sliced_single), np.asarray(whole_single))
