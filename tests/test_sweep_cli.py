"""`cardbalance sweep` on the command line: bad input, progress modes, the report hook."""

import pytest

from sim.cli import main
from sim.sweep import runfolder

GRID = """game = "toy"
pairings = ["red_vs_red", "red_vs_blue"]
life = [8, 12]
strategies = ["greedy:greedy"]
matches = 300
chunk_size = 100
"""


@pytest.fixture
def grid_file(tmp_path, toy_game):
    path = tmp_path / "grid.toml"
    path.write_text(GRID)
    return path


def test_sweep_writes_a_run_folder_and_prints_a_summary(tmp_path, grid_file, capsys):
    out = tmp_path / "run"
    assert main(["sweep", str(grid_file), "--out", str(out), "--jobs", "1", "--no-report", "--seed", "5"]) == 0
    captured = capsys.readouterr()
    assert "run folder: %s" % out in captured.out and "(8 cells, 2400 matches" in captured.out
    # not a terminal: plain progress lines on stderr, no carriage returns
    assert "sweep: cells 8/8" in captured.err and "\r" not in captured.err
    meta = runfolder.load_meta(out)
    assert meta["complete"] and meta["seed"] == 5 and meta["sweep"]["seed"] == 5
    # .lock: the run lock (sim/sweep/runlock.py); the grid uses presets only, so no rules/ copies
    assert sorted(p.name for p in out.iterdir()) == [".lock", "chunks", "lengths.parquet", "meta.json", "results.parquet"]
    assert len(list((out / "chunks").iterdir())) == 8 * 3


def test_quiet_prints_nothing(tmp_path, grid_file, capsys):
    assert main(["sweep", str(grid_file), "--out", str(tmp_path / "q"), "--jobs", "1", "--quiet", "--no-report"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


@pytest.mark.parametrize("grid_change, words", [
    ('pairings = ["red_vs_green"]', "pairing 'red_vs_green' is unknown"),
    ('strategies = ["greedy:psychic"]', "strategy 'psychic' is unknown"),
    ("life = [0]", "'life' values must be integers from 1"),
    ("pairings = []", "the grid is empty"),
])
def test_bad_grid_is_one_line_exit_2_and_no_run_folder(tmp_path, capsys, toy_game, grid_change, words):
    key = grid_change.split(" =")[0]
    text = "\n".join(line for line in GRID.splitlines() if not line.startswith(key + " ")) + "\n" + grid_change + "\n"
    (tmp_path / "bad.toml").write_text(text)
    out = tmp_path / "never"
    assert main(["sweep", str(tmp_path / "bad.toml"), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and err.startswith("cardbalance sweep: error:")
    assert not out.exists()


def test_unreachable_scheduler_is_one_line_exit_2_and_no_run_folder(tmp_path, grid_file, capsys, monkeypatch):
    from sim import executor
    monkeypatch.setattr(executor, "CONNECT_TIMEOUT_S", 1)
    out = tmp_path / "never"
    assert main(["sweep", str(grid_file), "--out", str(out), "--backend", "dask", "--scheduler", "tcp://127.0.0.1:9"]) == 2
    err = capsys.readouterr().err
    assert "no dask scheduler answered at 'tcp://127.0.0.1:9'" in err and err.count("\n") == 1
    assert not out.exists()


def test_resume_of_a_folder_that_is_not_a_run(tmp_path, capsys):
    (tmp_path / "junk").mkdir()
    assert main(["sweep", "--resume", str(tmp_path / "junk")]) == 2
    assert "is not a run folder" in capsys.readouterr().err
    assert list((tmp_path / "junk").iterdir()) == []


def test_existing_output_and_conflicting_options_are_refused(tmp_path, grid_file, capsys):
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "something").write_text("x")
    assert main(["sweep", str(grid_file), "--out", str(tmp_path / "full")]) == 2
    assert "already exists and is not empty" in capsys.readouterr().err
    assert main(["sweep", "--resume", str(tmp_path / "full"), "--matches", "5"]) == 2
    assert "drop --matches" in capsys.readouterr().err
    assert main(["sweep", str(grid_file), "--max-matches", "500"]) == 2
    assert "--max-matches only applies with a precision target" in capsys.readouterr().err
    assert main(["sweep", str(grid_file), "--jobs", "0"]) == 2
    assert "--jobs must be" in capsys.readouterr().err
    assert main(["sweep", str(grid_file), "--scheduler", "tcp://x:1"]) == 2
    assert "--scheduler needs --backend dask" in capsys.readouterr().err


def test_default_run_folder_name_is_timestamp_and_a_safe_sweep_name(tmp_path, monkeypatch):
    from sim.cli.sweep_cmd import default_run_dir
    monkeypatch.chdir(tmp_path)
    path = default_run_dir("my grid/../x")
    assert str(path.parent) == "runs" and path.name.endswith("-my-grid-..-x")
    assert "/" not in path.name and path.name[:8].isdigit()


def test_report_hook_falls_back_to_a_plain_table(tmp_path, grid_file, monkeypatch):
    from sim.cli import sweep_cmd
    out = tmp_path / "run"
    assert main(["sweep", str(grid_file), "--out", str(out), "--jobs", "1", "--quiet", "--no-report"]) == 0
    text = sweep_cmd.fallback_summary(out)
    assert text.splitlines()[0].split()[:3] == ["cell", "pairing", "life"] and len(text.splitlines()) == 9
    _, summary = sweep_cmd.report_hook(out, write_report=False)
    assert "red_vs_blue" in summary


def test_default_sweep_runs_on_faction_war(tmp_path, capsys):
    from sim.errors import CardbalanceError
    from sim.registry import get_game
    try:
        get_game("faction_war")
    except (CardbalanceError, ImportError) as error:
        pytest.skip("Faction War's GameSpec has not landed: %s" % error)
    out = tmp_path / "default"
    assert main(["sweep", "--matches", "20", "--out", str(out), "--quiet", "--no-report"]) == 0
    meta = runfolder.load_meta(out)
    # 3 pairings x (8 equal lives + 2 handicap pairs) x 2 first players
    assert meta["counts"]["cells"] == 3 * 10 * 2 and meta["counts"]["matches"] == 60 * 20
