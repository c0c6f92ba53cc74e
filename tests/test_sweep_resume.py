"""A real `cardbalance sweep` killed with SIGKILL mid-run continues with --resume,
without redoing or double-counting finished chunks."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from sim.sweep import runfolder
from sim.sweep.grid import build_plan, load_sweep
from sim.sweep.runner import run_sweep

TESTS = Path(__file__).resolve().parent
# The CLI in a subprocess, with the toy game registered (it is not a package game).
LAUNCHER = ("import sys; sys.path.insert(0, %r); import toygame; toygame.register_toy_game(); "
            "from sim.cli import main; sys.exit(main(sys.argv[1:]))" % str(TESTS))
# Long matches (life 2000, ~1000 turns) so that 80 chunks take a few seconds: time to kill it.
GRID = """game = "toy"
pairings = ["red_vs_red", "red_vs_blue"]
life = [2000]
strategies = ["greedy:greedy"]
rules = ["long.toml"]
matches = 4000
chunk_size = 200
seed = 3
"""
KILL_AFTER_CHUNKS = 12


def _cli(*args, **kwargs):
    return subprocess.Popen([sys.executable, "-c", LAUNCHER, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True, **kwargs)


def _finished_chunks(run_dir):
    folder = run_dir / "chunks"
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".npy")) if folder.is_dir() else []


def test_killed_sweep_resumes_to_the_uninterrupted_result(tmp_path, toy_game):
    (tmp_path / "long.toml").write_text("turn_cap = 10000\n")
    (tmp_path / "grid.toml").write_text(GRID)
    run_dir = tmp_path / "killed"
    process = _cli("sweep", str(tmp_path / "grid.toml"), "--out", str(run_dir), "--jobs", "2", "--no-report")
    deadline = time.monotonic() + 120
    while len(_finished_chunks(run_dir)) < KILL_AFTER_CHUNKS and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert process.poll() is None, "the sweep finished before it could be killed: make GRID longer"
    os.killpg(process.pid, signal.SIGKILL)  # the CLI and its loky workers, nothing else
    process.wait()
    before = _finished_chunks(run_dir)
    assert KILL_AFTER_CHUNKS <= len(before) < 80
    assert not runfolder.load_meta(run_dir)["complete"] and not (run_dir / "results.parquet").exists()
    stamps = {name: (run_dir / "chunks" / name).stat().st_mtime_ns for name in before}
    # what a kill during a write leaves: a temporary file, never a half chunk under its real name
    (run_dir / "chunks" / ".c000000-k000099.npy.123.tmp").write_bytes(b"half")

    resumed = _cli("sweep", "--resume", str(run_dir), "--jobs", "2", "--no-report")
    out, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, err.decode()
    assert "%d chunks resumed" % len(before) in out.decode()
    meta = runfolder.load_meta(run_dir)
    assert meta["complete"] and meta["counts"]["chunks_resumed"] == len(before) and meta["counts"]["chunks"] == 80
    assert meta["timings"]["sessions"] == 1 and meta["counts"]["matches"] == 4 * 4000
    # finished chunks were not redone
    assert all((run_dir / "chunks" / name).stat().st_mtime_ns == stamp for name, stamp in stamps.items())
    assert len(_finished_chunks(run_dir)) == 80 and not list((run_dir / "chunks").glob("*.tmp"))

    # the same sweep, uninterrupted, in this process
    plan = build_plan(load_sweep(tmp_path / "grid.toml"))
    clean = tmp_path / "clean"
    runfolder.create_run_folder(clean, runfolder.build_meta(plan, "loky", 1))
    run_sweep(plan, clean, jobs=1, progress="quiet")
    for name in ("results.parquet", "lengths.parquet"):
        pd.testing.assert_frame_equal(pd.read_parquet(run_dir / name), pd.read_parquet(clean / name), check_exact=True)
    for name in _finished_chunks(clean):
        assert np.array_equal(np.load(clean / "chunks" / name), np.load(run_dir / "chunks" / name))
