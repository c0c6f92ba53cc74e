"""Issue 38 item 9: `fair`, `sensitivity`, `map` and the `compare --figures` replay print the
sweep's progress line on stderr (sim/sweep/progress.py: points, matches played / scheduled,
rate, ETA) while they run, nothing with --quiet, and never into an output file. On the toy
game: each command a second or two."""

from __future__ import annotations

import json
import re

import pytest

from sim.cli import main

TOY = ["--game", "toy", "--pairing", "red_vs_blue", "--skill", "greedy", "--chunk-size", "50", "--jobs", "1"]
LINE = re.compile(r"^\d\d:\d\d:\d\d (?P<label>[a-z ,]+): points (?P<done>\d+)(/(?P<total>\d+))?  "
                  r"matches (?P<matches>\d+)/(?P<scheduled>\d+)  \d+ matches/s  elapsed \S+  ETA \S+$")

COMMANDS = {
    "fair": (["fair", "--param", "life0=2:40", "--life", "12", "--round-matches", "50", "--max-matches", "4000",
              "--precision", "1"], None),
    "sensitivity": (["sensitivity", "--param", "life0=4:16", "--param", "heal=0:4", "--method", "morris", "--n", "4",
                     "--matches", "50", "--life", "10"], "distinct_points"),  # the cost names the count
    "map": (["map", "--x", "life0=4:16:4", "--y", "life1=4:16:4", "--matches", "50"], 16),
}


def _progress_lines(err: str, label: str) -> list[dict]:
    return [match.groupdict() for match in map(LINE.match, err.splitlines()) if match and match["label"] == label]


def _no_progress_in(folder) -> None:
    for path in folder.rglob("*"):
        if path.is_file() and path.suffix in (".md", ".json", ".html", ".txt", ".csv"):
            assert "matches/s" not in path.read_text(encoding="utf-8", errors="replace"), path


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_design_command_prints_progress_on_stderr_and_none_with_quiet(command, tmp_path, capsys):
    argv, points = COMMANDS[command]
    assert main(argv + TOY + ["--out", str(tmp_path / "run")]) == 0
    captured = capsys.readouterr()
    lines = _progress_lines(captured.err, command)
    assert lines, captured.err  # the old commands printed nothing while they ran
    last = lines[-1]  # the closing line (finish): every scheduled match played
    result = json.loads((tmp_path / "run" / "result.json").read_text())
    assert int(last["matches"]) == int(last["scheduled"]) == result["cost"]["matches"]
    if points is None:  # fair: its search picks the next points as it goes, so no total is claimed
        assert last["total"] is None and int(last["done"]) >= 2
    else:
        total = result["cost"][points] if isinstance(points, str) else points
        assert int(last["done"]) == int(last["total"]) == total
    assert "matches/s" not in captured.out  # stdout holds only the result line
    _no_progress_in(tmp_path / "run")
    assert main(argv + TOY + ["--out", str(tmp_path / "quiet"), "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_the_compare_figures_replay_prints_progress_per_arm(tmp_path, capsys):
    argv = ["compare", "default", "big-die", "--game", "toy", "--batch", "150", "--min-matches", "300",
            "--max-matches", "300", "--figures", str(tmp_path / "fig")]
    main(argv)
    err = capsys.readouterr().err
    for arm in ("base", "tweak"):
        lines = _cells_lines(err, "compare figures, %s replay" % arm)
        assert lines and lines[-1]["matches"] == lines[-1]["scheduled"], err
    _no_progress_in(tmp_path / "fig")
    main(argv + ["--quiet"])
    assert "replay" not in capsys.readouterr().err


def _cells_lines(err: str, label: str) -> list[dict]:
    pattern = re.compile(r"^\d\d:\d\d:\d\d %s: cells (\d+)/(\d+)  matches (?P<matches>\d+)/(?P<scheduled>\d+)  "
                         % re.escape(label))
    return [match.groupdict() for match in map(pattern.match, err.splitlines()) if match]


def test_a_count_without_a_known_total_is_shown_without_one():
    """fair's points: no "/total" is claimed; a sweep's cells keep theirs (the line the sweep tests read)."""
    import io
    from sim.sweep.progress import Progress
    open_ended = Progress(None, "lines", io.StringIO(), label="fair", unit="points")
    open_ended.schedule(400)
    open_ended.advance(200, 3)
    assert open_ended.status()[0].startswith("points 3  matches 200/400  ")
    sweep = Progress(8, "lines", io.StringIO())
    sweep.schedule(400)
    sweep.advance(100, 2)
    assert sweep.status()[0].startswith("cells 2/8  matches 100/400  ")


def test_a_design_stopped_by_an_error_writes_no_closing_progress_line(tmp_path):
    """The closing line says every scheduled match was played: after an error it would be false."""
    import io
    from sim.fair.runner import PointRunner
    from sim.registry import get_game
    from sim.sweep.progress import Progress
    stream = io.StringIO()
    progress = Progress(None, "lines", stream, label="fair", unit="points")
    game = get_game("toy")
    with pytest.raises(RuntimeError):
        with PointRunner(game, ("greedy", "greedy"), 1, 1, None, 50, progress=progress):
            raise RuntimeError("stopped")
    assert stream.getvalue() == ""
    with PointRunner(game, ("greedy", "greedy"), 1, 1, None, 50, progress=progress):
        pass
    assert "fair: points 0  matches 0/0" in stream.getvalue()
