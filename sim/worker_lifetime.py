"""Worker processes exit when the process that started them dies.

loky workers wait for their next task for up to `idle_worker_timeout`
(300 s) and finish the tasks already queued, so a parent killed with
SIGKILL left them running for minutes. `loky_config()` is a joblib
`parallel_config` whose initializer starts, in each worker, a daemon
thread that polls the worker's parent pid and calls `os._exit` as soon as
it changes (the worker was re-parented: its parent is gone). Polling
rather than PR_SET_PDEATHSIG: it is portable and does not depend on which
parent *thread* spawned the worker. A worker inside a numba kernel holds
the GIL, so the watcher cannot run until the kernel returns: `play_in_slices`
therefore plays a chunk as consecutive slices of matches (growing so that
each lasts about SLICE_S) and checks the parent between them, so a worker of
a slow search chunk (ismcts:200, 50 matches) leaves within about one slice,
not after the whole chunk. Slicing does not move results: a slice plays
matches start .. start+count-1 of the chunk's seed and aggregate vectors of
the same cell simply add (sim/aggregate.py).
"""

from __future__ import annotations

import os
import threading
import time

POLL_S = 0.5
SLICE_S = 0.25  # seconds a slice of a chunk aims at: how late a worker may notice its parent died

_parent_pid = None  # set in a worker by its initializer; None in the parent process


def exit_when_parent_dies(parent_pid: int, poll_s: float = POLL_S) -> None:
    """Worker initializer: leave as soon as `parent_pid` is no longer our parent."""
    global _parent_pid
    _parent_pid = parent_pid
    if os.getppid() != parent_pid:
        os._exit(1)

    def watch():
        while os.getppid() == parent_pid:
            time.sleep(poll_s)
        os._exit(1)  # no cleanup: the parent that would collect our results is gone

    threading.Thread(target=watch, name="cardbalance-parent-watch", daemon=True).start()


def play_in_slices(play, n_matches: int, slice_s: float = SLICE_S):
    """`play(start, count)` -> aggregate vector, called over consecutive slices covering
    matches 0 .. n_matches-1 and summed; in a worker the parent is checked between slices.
    Outside a worker (no parent to watch) the chunk is one call, as before."""
    n_matches = int(n_matches)
    if _parent_pid is None or n_matches <= 1:
        return play(0, n_matches)
    total, start, count = None, 0, 1
    while start < n_matches:
        count = min(count, n_matches - start)
        began = time.perf_counter()
        vector = play(start, count)
        seconds = time.perf_counter() - began
        total = vector if total is None else total + vector
        start += count
        if os.getppid() != _parent_pid:
            os._exit(1)  # the parent is gone: nobody will collect this chunk
        count = max(1, min(count * 8, int(count * slice_s / seconds) if seconds > 0 else count * 8))
    return total


def play_aggregate(play_batch, rules_array, cell_array, seed, n_matches):
    """Worker side of a sweep chunk: its aggregate vector (matches 0 .. n_matches-1 of its
    seed), played in slices between which the worker checks that its parent lives. Here,
    not in sim/sweep/runner.py, so that a worker unpickling it imports neither pandas nor
    the runner (0.4 s of each worker's start-up before its first chunk)."""
    import numpy as np
    return np.asarray(play_in_slices(lambda start, count: np.asarray(
        play_batch(rules_array, cell_array, seed, start, count), dtype=np.int64), n_matches), dtype=np.int64)


def loky_config(n_jobs=None):
    """`with loky_config(): joblib.Parallel(...)` runs loky workers that die with this process."""
    import joblib
    extra = {} if n_jobs is None else {"n_jobs": n_jobs}
    return joblib.parallel_config(backend="loky", initializer=exit_when_parent_dies,
                                  initargs=(os.getpid(),), **extra)
