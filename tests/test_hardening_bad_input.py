"""Every bad input of issue 18 ends in one line on stderr, exit code 2, and nothing left behind.

One test per class of input: output paths that cannot be written (sweep
--out, compare --write-baseline / --figures / --summary-md), gate
expressions too deep or with an infinite threshold, scenario files that are
not text, nested too deeply or folders, out-of-range numbers (play --life,
--seed, a scenario's rng and life), and run folders whose meta.json lacks
what a resume or a replay needs or cannot be read. The toy game keeps them
fast; scenario and play cases use Faction War's reference engine.
"""

import json
import os
import pathlib

import pytest

from sim.cli import main
from sim.sweep import runfolder

GRID = """game = "toy"
pairings = ["red_vs_blue"]
life = [8]
strategies = ["greedy:greedy"]
matches = 200
chunk_size = 100
"""


def _one_error_line(capsys, argv, command=None, code=2):
    """Run the CLI; assert exit `code`, one stderr line naming the command, no traceback; return it."""
    assert main(argv) == code
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("cardbalance %s: error: " % (command or argv[0])), lines[0]
    assert "Traceback" not in captured.err
    return lines[0], captured.out


@pytest.fixture
def grid_file(tmp_path, toy_game):
    path = tmp_path / "grid.toml"
    path.write_text(GRID)
    return path


@pytest.fixture
def toy_run(tmp_path, grid_file, capsys):
    run_dir = tmp_path / "run"
    assert main(["sweep", str(grid_file), "--out", str(run_dir), "--jobs", "1", "--quiet", "--no-report"]) == 0
    capsys.readouterr()
    return run_dir


def _visible_entries(folder):
    return sorted(p.name for p in pathlib.Path(folder).iterdir())


# ---- output paths ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("case", ["under_proc", "under_a_file", "not_writable"])
def test_sweep_out_that_cannot_be_written(tmp_path, grid_file, capsys, monkeypatch, case):
    (tmp_path / "afile").write_text("x")
    out = {"under_proc": "/proc/cardbalance-x", "under_a_file": str(tmp_path / "afile" / "run"),
           "not_writable": str(tmp_path / "locked" / "run")}[case]
    if case == "not_writable":
        (tmp_path / "locked").mkdir()
        os.chmod(tmp_path / "locked", 0o555)
        if os.geteuid() == 0:  # root writes anywhere: make the write probe fail as a read-only folder would
            import tempfile
            import types

            def refuse(*args, **kwargs):
                raise PermissionError(13, "Permission denied")
            monkeypatch.setattr("sim.safe_output.tempfile", types.SimpleNamespace(mkstemp=refuse,
                                                                                 mkdtemp=tempfile.mkdtemp))
    before = _visible_entries(tmp_path)
    try:
        line, _ = _one_error_line(capsys, ["sweep", str(grid_file), "--out", out, "--jobs", "1", "--no-report"])
        assert "--out" in line and out.split("/")[-2] in line
        if case == "not_writable":
            assert "Permission denied" in line
        assert _visible_entries(tmp_path) == before
    finally:
        if case == "not_writable":
            os.chmod(tmp_path / "locked", 0o755)


@pytest.mark.parametrize("option, target", [("--write-baseline", "/proc/b.json"), ("--figures", "afile"),
                                            ("--summary-md", "afolder"), ("--json", "afile/x.json")])
def test_compare_outputs_are_checked_before_any_match_is_played(tmp_path, capsys, monkeypatch, option, target):
    import sim.compare.runner as compare_runner

    def no_simulation(*args, **kwargs):
        raise AssertionError("compare played matches before checking its outputs")
    monkeypatch.setattr(compare_runner, "run", no_simulation)
    (tmp_path / "afile").write_text("x")
    (tmp_path / "afolder").mkdir()
    monkeypatch.chdir(tmp_path)
    arms = ["default"] if option == "--write-baseline" else ["default", "short"]
    line, _ = _one_error_line(capsys, ["compare", *arms, "--game", "toy", "--quiet", option, target])
    assert option in line
    assert _visible_entries(tmp_path) == ["afile", "afolder"]


# ---- gate expressions --------------------------------------------------------------------------------------

@pytest.mark.parametrize("expression, words", [
    ("(" * 5000 + "all.draws.delta > 0.1" + ")" * 5000, "nested more than 50 deep"),
    ("all.draws.delta > 1e999", "threshold '1e999' at column 19 is out of range"),
])
def test_gate_expression_too_deep_or_infinite(capsys, expression, words):
    line, _ = _one_error_line(capsys, ["compare", "default", "short", "--game", "toy", "--quiet",
                                       "--fail-if", expression])
    assert words in line and len(line) < 300


# ---- scenario files ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("case, words", [("random_bytes", "is not UTF-8 text"),
                                         ("deep_brackets", "nested too deeply"),
                                         ("folder", "is a folder; give a position JSON file"),
                                         ("missing", "does not exist")])
def test_scenario_file_that_is_not_a_position(tmp_path, capsys, case, words):
    path = tmp_path / "position.json"
    if case == "random_bytes":
        path.write_bytes(bytes(range(128, 256)) * 20)
    elif case == "deep_brackets":
        path.write_text("[" * 100_000)
    elif case == "folder":
        path.mkdir()
    line, out = _one_error_line(capsys, ["scenario", str(path)])
    assert words in line and out == ""


@pytest.mark.parametrize("change, words", [
    ({"rng": 2**70}, "'rng' must be at most 18446744073709551615"),
    ({"rng": -1}, "'rng' must be at least 0"),
    ({"players": [{"life": -5}, {}]}, "'players[0].life' must be at least 0 (got -5)"),
    ({"players": [{}, {"life": 2_000_000}]}, "'players[1].life' must be at most 1000000"),
    ({"turn": 2**80}, "'turn' must be at most"),
])
def test_scenario_numbers_out_of_range_are_errors_not_wrapped(tmp_path, capsys, change, words):
    position = {"players": [{}, {}], **change}
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position))
    line, _ = _one_error_line(capsys, ["scenario", str(path)])
    assert words in line


def test_scenario_top_of_the_ranges_is_accepted(tmp_path, capsys):
    path = tmp_path / "position.json"
    path.write_text(json.dumps({"rng": 2**64 - 1, "players": [{"life": 1_000_000, "start_life": 1_000_000}, {"life": 0}]}))
    assert main(["scenario", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["players"][0]["life"] == 1_000_000


# ---- play ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("argv, words", [
    (["--life", "99999999999999999999"], "--life must be an integer from 1 to 1000000"),
    (["--life", "2000000"], "--life must be an integer from 1 to 1000000"),
    (["--life", "50,0"], "--life must be an integer from 1 to 1000000"),
    (["--seed", str(2**64)], "--seed must be an integer from 0 to 18446744073709551615"),
    (["--seed", "-1"], "--seed must be an integer from 0"),
])
def test_play_numbers_out_of_range_print_no_header(capsys, argv, words):
    line, out = _one_error_line(capsys, ["play", *argv])
    assert words in line
    assert out == ""  # refused before the header: no half a log


def test_play_largest_seed_and_life_are_played(capsys):
    assert main(["play", "--p0", "human:random", "--p1", "alien:random", "--seed", str(2**64 - 1),
                 "--life", "1000000,30", "--first", "0"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# p0 = human:random, p1 = alien:random, life 1000000/30, seed %d" % (2**64 - 1))


# ---- run folders -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("key", ["sweep", "rules", "chunk_size"])
def test_resume_and_replay_of_a_run_whose_meta_lacks_a_key(toy_run, capsys, key):
    meta = json.loads((toy_run / "meta.json").read_text())
    del meta[key]
    (toy_run / "meta.json").write_text(json.dumps(meta))
    line, _ = _one_error_line(capsys, ["sweep", "--resume", str(toy_run), "--no-report"])
    assert "cannot be resumed or replayed: meta.json lacks '%s'" % key in line
    line, _ = _one_error_line(capsys, ["play", "--from", str(toy_run), "--cell", "0", "--match", "0"])
    assert "lacks '%s'" % key in line


def test_unreadable_meta_is_called_unreadable_not_invalid(toy_run, capsys, monkeypatch):
    meta_path = toy_run / "meta.json"
    os.chmod(meta_path, 0)
    if os.geteuid() == 0:  # root reads anything: fail the read the way a mode-000 file would
        real_read_text = pathlib.Path.read_text

        def read_text(self, *args, **kwargs):
            if self.name == "meta.json":
                raise PermissionError(13, "Permission denied", str(self))
            return real_read_text(self, *args, **kwargs)
        monkeypatch.setattr(pathlib.Path, "read_text", read_text)
    try:
        for argv in (["sweep", "--resume", str(toy_run)], ["report", str(toy_run)]):
            line, _ = _one_error_line(capsys, argv)
            assert "cannot read '%s' (Permission denied)" % meta_path in line and "JSON" not in line
    finally:
        os.chmod(meta_path, 0o644)


def test_resume_recomputes_an_empty_chunk_file(toy_run, capsys):
    import pandas as pd
    before = pd.read_parquet(toy_run / runfolder.RESULTS)
    chunk = runfolder.chunk_path(toy_run, 0, 1)
    chunk.write_bytes(b"")  # what a full disk or a crash of another tool can leave
    assert main(["sweep", "--resume", str(toy_run), "--jobs", "1", "--no-report"]) == 0
    assert "3 chunks resumed" in capsys.readouterr().out  # of 2 cells x 2 chunks: the empty one was played again
    pd.testing.assert_frame_equal(before, pd.read_parquet(toy_run / runfolder.RESULTS))
    assert chunk.stat().st_size > 0


@pytest.mark.parametrize("argv, words", [
    (["sweep", "{path}", "--out", "{tmp}/run"], "sweep file {path} is not valid TOML: it is nested too deeply"),
    (["rules", "{path}"], "rules file {path} is not valid TOML: it is nested too deeply"),
    (["compare", "--baseline", "{path}", "default"], "baseline file {path} is not valid JSON: it is nested too deeply"),
])
def test_deeply_nested_sweep_rules_and_baseline_files(tmp_path, capsys, argv, words):
    path = tmp_path / "deep.txt"
    path.write_text("a = " + "[" * 100_000 if argv[0] != "compare" else "[" * 100_000)
    argv = [part.format(path=path, tmp=tmp_path) for part in argv]
    line, _ = _one_error_line(capsys, argv)
    assert words.format(path=path) in line
    assert not (tmp_path / "run").exists()


def test_report_refuses_an_out_folder_holding_other_files(tmp_path, toy_run, capsys):
    keep = tmp_path / "mine"
    keep.mkdir()
    (keep / "notes.txt").write_text("mine")
    line, _ = _one_error_line(capsys, ["report", str(toy_run), "--out", str(keep)])
    assert "holds other files and no report.html" in line
    assert _visible_entries(keep) == ["notes.txt"]
