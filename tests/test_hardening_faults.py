"""Faults of issue 18: a full disk, a failed start, two sweeps on one folder, a moved
run folder, the umask, workers outliving a killed parent, and injection into what
others read (Markdown rendered by a real CommonMark parser, CSV opened in a spreadsheet)."""

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from sim.cli import main
from sim.errors import EXIT_ENVIRONMENT
from sim.sweep import runfolder
from sim.sweep.runlock import hold_run_lock

TESTS = Path(__file__).resolve().parent
GRID = """game = "toy"
pairings = ["red_vs_red", "red_vs_blue"]
life = [8]
strategies = ["greedy:greedy"]
rules = ["mine.toml", "default"]
matches = 300
chunk_size = 100
seed = 4
"""


@pytest.fixture
def grid_file(tmp_path, toy_game):
    folder = tmp_path / "design"
    folder.mkdir()
    (folder / "mine.toml").write_text("die_sides = 8\n")
    (folder / "grid.toml").write_text(GRID)
    return folder / "grid.toml"


def _sweep(grid_file, out, *extra):
    return main(["sweep", str(grid_file), "--out", str(out), "--jobs", "1", "--quiet", "--no-report", *extra])


def _disk_full(path="x"):
    return OSError(errno.ENOSPC, "No space left on device", str(path))


def _hidden_leftovers(folder):
    return [p.name for p in Path(folder).iterdir() if p.name.startswith(".") and ("building" in p.name or "old" in p.name)]


# ---- a full disk ----------------------------------------------------------------------------------------

def test_disk_full_mid_sweep_is_one_line_exit_74_and_resumes_to_the_same_result(tmp_path, grid_file, capsys,
                                                                                  monkeypatch):
    assert _sweep(grid_file, tmp_path / "whole") == 0
    from sim import executor
    real_write = executor.write_bytes_atomic
    written = []

    def write_then_fill_the_disk(path, data):
        if Path(path).parent.name == runfolder.CHUNKS:  # the executor's chunk store writes through it
            if len(written) == 5:
                raise _disk_full(path)
            written.append(path)
        real_write(path, data)
    monkeypatch.setattr(executor, "write_bytes_atomic", write_then_fill_the_disk)
    capsys.readouterr()
    assert _sweep(grid_file, tmp_path / "full") == EXIT_ENVIRONMENT
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "No space left on device" in lines[0]
    assert "continue with cardbalance sweep --resume %s" % (tmp_path / "full") in lines[0]
    assert not [p for p in (tmp_path / "full" / "chunks").iterdir() if p.name.endswith(".tmp")]
    monkeypatch.setattr(executor, "write_bytes_atomic", real_write)
    assert main(["sweep", "--resume", str(tmp_path / "full"), "--jobs", "1", "--quiet", "--no-report"]) == 0
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "whole" / runfolder.RESULTS),
                                  pd.read_parquet(tmp_path / "full" / runfolder.RESULTS))


def test_disk_full_mid_report_leaves_no_half_report(tmp_path, grid_file, capsys, monkeypatch):
    run_dir = tmp_path / "run"
    assert _sweep(grid_file, run_dir) == 0
    import reports.figures
    real = reports.figures.write_figures

    def write_figures_then_fill_the_disk(tables, folder, delta=0.02):
        real(tables, folder, delta)
        raise _disk_full(Path(folder) / "verdict_heatmap.png")
    monkeypatch.setattr(reports.figures, "write_figures", write_figures_then_fill_the_disk)
    capsys.readouterr()
    assert main(["report", str(run_dir)]) == EXIT_ENVIRONMENT
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cardbalance report: error: ") and "No space left" in lines[0]
    assert not (run_dir / "report").exists() and not _hidden_leftovers(run_dir)
    # an earlier report survives a failed rewrite whole
    monkeypatch.setattr(reports.figures, "write_figures", real)
    assert main(["report", str(run_dir), "--quiet"]) == 0
    first = sorted(p.relative_to(run_dir) for p in (run_dir / "report").rglob("*"))
    monkeypatch.setattr(reports.figures, "write_figures", write_figures_then_fill_the_disk)
    assert main(["report", str(run_dir), "--quiet"]) == EXIT_ENVIRONMENT
    assert sorted(p.relative_to(run_dir) for p in (run_dir / "report").rglob("*")) == first
    assert not _hidden_leftovers(run_dir)


def test_a_failed_start_leaves_nothing_that_blocks_out(tmp_path, grid_file, capsys, monkeypatch):
    real = runfolder.write_json_atomic

    def fail_on_meta(path, data):
        if Path(path).name == runfolder.META:
            raise _disk_full(path)
        real(path, data)
    monkeypatch.setattr(runfolder, "write_json_atomic", fail_on_meta)
    out = tmp_path / "runs" / "one"
    assert _sweep(grid_file, out) == EXIT_ENVIRONMENT
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    assert not out.exists() and not _hidden_leftovers(out.parent)
    monkeypatch.setattr(runfolder, "write_json_atomic", real)
    assert _sweep(grid_file, out) == 0 and runfolder.load_meta(out)["complete"]


# ---- one sweep per run folder ----------------------------------------------------------------------------

def test_a_second_sweep_on_a_folder_in_use_is_refused_naming_the_holder(tmp_path, grid_file, capsys):
    run_dir = tmp_path / "run"
    assert _sweep(grid_file, run_dir) == 0
    with hold_run_lock(run_dir, "cardbalance sweep grid.toml"):
        assert main(["sweep", "--resume", str(run_dir), "--quiet", "--no-report"]) == 2
        line = capsys.readouterr().err.strip()
        assert line.count("\n") == 0
        assert "is in use by pid %d on " % os.getpid() in line and "(cardbalance sweep grid.toml, since " in line
    # the holder is gone (the kernel drops the lock with the process): the resume goes ahead
    assert main(["sweep", "--resume", str(run_dir), "--jobs", "1", "--quiet", "--no-report"]) == 0


def test_a_lock_is_released_when_its_holder_is_killed(tmp_path):
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time; from sim.sweep.runlock import hold_run_lock\n"
                               "with hold_run_lock(sys.argv[1]):\n    print('held', flush=True); time.sleep(60)",
                               str(run_dir)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(Exception, match="is in use by pid %d" % holder.pid):
            with hold_run_lock(run_dir):
                pass
    finally:
        holder.kill()
        holder.wait()
    with hold_run_lock(run_dir):  # SIGKILL left a stale lock file, not a held lock
        pass


# ---- a run folder is self-contained ------------------------------------------------------------------------

def test_a_moved_run_resumes_from_another_directory_with_its_own_rules_copy(tmp_path, grid_file, monkeypatch):
    monkeypatch.chdir(grid_file.parent)
    assert _sweep(Path("grid.toml"), "run") == 0  # rules named relative to the working directory
    meta = runfolder.load_meta(Path("run"))
    assert meta["rules"]["mine.toml"]["copy"] == "rules/00-mine.toml" and "copy" not in meta["rules"]["default"]
    before = pd.read_parquet(Path("run") / runfolder.RESULTS)
    for chunk in list((Path("run") / "chunks").iterdir())[:3]:
        chunk.unlink()  # three chunks to recompute after the move
    shutil.move(str(grid_file.parent / "run"), str(tmp_path / "moved"))
    shutil.rmtree(grid_file.parent)  # the original rules file is gone too
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert main(["sweep", "--resume", "../moved", "--jobs", "1", "--quiet", "--no-report"]) == 0
    pd.testing.assert_frame_equal(before, pd.read_parquet(tmp_path / "moved" / runfolder.RESULTS))


def test_a_file_named_like_a_preset_is_not_taken_for_the_presets_copy(tmp_path, grid_file, monkeypatch):
    monkeypatch.chdir(grid_file.parent)
    Path("default").write_text("die_sides = 3\n")  # the preset "default" wins when loading
    assert _sweep(Path("grid.toml"), "run") == 0
    assert "copy" not in runfolder.load_meta(Path("run"))["rules"]["default"]
    assert sorted(p.name for p in Path("run", "rules").iterdir()) == ["00-mine.toml"]
    assert main(["sweep", "--resume", "run", "--jobs", "1", "--quiet", "--no-report"]) == 0


def test_play_from_a_moved_faction_war_run(tmp_path, monkeypatch, capsys):
    design = tmp_path / "design"
    design.mkdir()
    (design / "short.toml").write_text("turn_cap = 40\n")
    (design / "grid.toml").write_text('pairings = ["human_vs_alien"]\nlife = [30]\nstrategies = ["random:random"]\n'
                                      'rules = ["short.toml"]\nmatches = 20\nchunk_size = 10\n')
    monkeypatch.chdir(design)
    assert main(["sweep", "grid.toml", "--out", "run", "--jobs", "1", "--quiet", "--no-report"]) == 0
    assert main(["play", "--from", "run", "--cell", "1", "--match", "13"]) == 0
    here = capsys.readouterr().out.splitlines()
    shutil.move(str(design / "run"), str(tmp_path / "moved"))
    (design / "short.toml").unlink()
    monkeypatch.chdir(tmp_path)
    assert main(["play", "--from", "moved", "--cell", "1", "--match", "13"]) == 0
    there = capsys.readouterr().out.splitlines()
    assert there[1:] == here[1:] and len(there) > 5  # the same match, turn by turn (line 0 names the folder)


# ---- permissions ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("umask, file_mode, folder_mode", [(0o022, 0o644, 0o755), (0o027, 0o640, 0o750)])
def test_run_and_report_files_follow_the_umask(tmp_path, grid_file, umask, file_mode, folder_mode):
    previous = os.umask(umask)
    try:
        run_dir = tmp_path / "run"
        assert _sweep(grid_file, run_dir) == 0
        assert main(["report", str(run_dir), "--quiet"]) == 0
    finally:
        os.umask(previous)
    files = [run_dir / name for name in ("meta.json", "results.parquet", "lengths.parquet", ".lock",
                                         "rules/00-mine.toml", "report/report.html", "report/tables/cells.csv")]
    files.append(next((run_dir / "chunks").iterdir()))
    for path in files:
        assert oct(path.stat().st_mode & 0o777) == oct(file_mode), path
    for path in (run_dir, run_dir / "chunks", run_dir / "rules", run_dir / "report"):
        assert oct(path.stat().st_mode & 0o777) == oct(folder_mode), path


# ---- workers die with their parent --------------------------------------------------------------------------

LAUNCHER = ("import sys; sys.path.insert(0, %r); import toygame; toygame.register_toy_game(); "
            "from sim.cli import main; sys.exit(main(sys.argv[1:]))" % str(TESTS))
LONG_GRID = """game = "toy"
pairings = ["red_vs_red", "red_vs_blue"]
life = [2000]
strategies = ["greedy:greedy"]
rules = ["long.toml"]
matches = 20000
chunk_size = 200
"""


def test_workers_exit_when_the_sweep_is_killed(tmp_path):
    psutil = pytest.importorskip("psutil")  # installed with dask.distributed
    (tmp_path / "long.toml").write_text("turn_cap = 10000\n")
    (tmp_path / "grid.toml").write_text(LONG_GRID)
    run_dir = tmp_path / "run"
    workers = []
    sweep = subprocess.Popen([sys.executable, "-c", LAUNCHER, "sweep", str(tmp_path / "grid.toml"), "--out",
                              str(run_dir), "--jobs", "2", "--no-report", "--quiet"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and sweep.poll() is None:
            chunks = list((run_dir / "chunks").glob("*.npy")) if (run_dir / "chunks").is_dir() else []
            if len(chunks) >= 4:
                break
            time.sleep(0.05)
        assert sweep.poll() is None, "the sweep ended before it could be killed: make LONG_GRID longer"
        workers = psutil.Process(sweep.pid).children(recursive=True)
        assert len(workers) >= 2
        os.kill(sweep.pid, signal.SIGKILL)  # the parent only: its workers must notice by themselves
        sweep.wait()

        def alive(process):
            try:
                return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
            except psutil.NoSuchProcess:
                return False
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(alive(w) for w in workers):
            time.sleep(0.2)
        assert not [w.pid for w in workers if alive(w)], "workers outlived their killed parent"
    finally:
        if sweep.poll() is None:
            os.killpg(sweep.pid, signal.SIGKILL)
        for worker in workers:  # on failure: do not leave them running for minutes
            try:
                worker.kill()
            except psutil.NoSuchProcess:
                pass


# ---- injection into what others read ------------------------------------------------------------------------

EVIL = "x`<img src=x onerror=alert(1)>`y.toml"


def test_markdown_summary_cannot_be_broken_by_a_rules_file_name(tmp_path, capsys, toy_game):
    from markdown_it import MarkdownIt

    (tmp_path / EVIL).write_text("die_sides = 8\n")
    (tmp_path / "a|b*c*.toml").write_text("die_sides = 8\n")
    summary = tmp_path / "summary.md"
    for tweak in (EVIL, "a|b*c*.toml"):
        assert main(["compare", "default", str(tmp_path / tweak), "--game", "toy", "--quiet", "--batch", "200",
                     "--fail-if", "all.draws.delta > 0.5", "--summary-md", str(summary)]) in (0, 1, 3)
        text = summary.read_text(encoding="utf-8")
        parser = MarkdownIt("commonmark").enable("table")  # html=True: raw HTML would pass through
        html = parser.render(text)
        assert "<img" not in html and "onerror" not in html.replace("onerror=alert(1)&gt;", "")
        tokens = [child for token in parser.parse(text) if token.children for child in token.children]
        assert not [t for t in tokens if t.type == "html_inline" and "img" in t.content]
        codes = [t.content for t in tokens if t.type == "code_inline"]
        assert str(tmp_path / tweak) in codes  # shown whole, as code, exactly as typed ('*' and '|' included)


def test_markdown_helpers_round_trip_through_commonmark():
    from markdown_it import MarkdownIt

    from reports.markdown_text import code, link_target, text
    parser = MarkdownIt("commonmark").enable("table")
    for value in (EVIL, "``", "`a`", " lead", "a|b", "<script>alert(1)</script>", "*x* _y_ [l](u) ![i](j) &amp;"):
        inline = parser.parseInline(code(value))[0].children
        assert [t.type for t in inline] == ["code_inline"] and inline[0].content == value, value
        literal = parser.parseInline(text(value))[0].children
        assert [t.type for t in literal] == ["text"] and literal[0].content == value, value
        cell = parser.render("| h |\n|---|\n| %s |\n" % code(value, in_table=True))
        assert cell.count("<td>") == 1 and "<script>" not in cell
    assert link_target("../my figs/(1)/a.png") == "../my%20figs/%281%29/a.png"


def test_csv_cells_cannot_start_a_spreadsheet_formula(tmp_path):
    from analysis.synthetic import write_synthetic_run
    from reports import build_report

    names = ["=HYPERLINK(\"http://x\",\"y\")", "+1+2", "-2+3", "@SUM(A1)", "plain"]
    cells = [dict(rules=name, first=first, seat0_knockout=3, seat1_knockout=2) for name in names for first in (0, 1)]
    run = write_synthetic_run(tmp_path / "run", cells)
    build_report(run, out=tmp_path / "report")
    csv_text = (tmp_path / "report" / "tables" / "cells.csv").read_text(encoding="utf-8")
    table = pd.read_csv(tmp_path / "report" / "tables" / "cells.csv")
    assert sorted(set(table["rules"])) == sorted(["'" + name for name in names[:4]] + ["plain"])
    assert not [line for line in csv_text.splitlines() for cell in line.split(",") if cell[:1] in "=+@"]
    assert (table["axis0"] > 0).all()  # numbers stay numbers
