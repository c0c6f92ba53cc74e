"""Worker processes exit when the process that started them dies.

loky workers wait for their next task for up to `idle_worker_timeout`
(300 s) and finish the tasks already queued, so a parent killed with
SIGKILL left them running for minutes. `loky_config()` is a joblib
`parallel_config` whose initializer starts, in each worker, a daemon
thread that polls the worker's parent pid and calls `os._exit` as soon as
it changes (the worker was re-parented: its parent is gone). Polling
rather than PR_SET_PDEATHSIG: it is portable and does not depend on which
parent *thread* spawned the worker. The trade-off: a worker inside a
numba kernel holds the GIL, so it exits after its current chunk (seconds),
not mid-chunk.
"""

from __future__ import annotations

import os
import threading
import time

POLL_S = 0.5


def exit_when_parent_dies(parent_pid: int, poll_s: float = POLL_S) -> None:
    """Worker initializer: leave as soon as `parent_pid` is no longer our parent."""
    if os.getppid() != parent_pid:
        os._exit(1)

    def watch():
        while os.getppid() == parent_pid:
            time.sleep(poll_s)
        os._exit(1)  # no cleanup: the parent that would collect our results is gone

    threading.Thread(target=watch, name="cardbalance-parent-watch", daemon=True).start()


def loky_config(n_jobs=None):
    """`with loky_config(): joblib.Parallel(...)` runs loky workers that die with this process."""
    import joblib
    extra = {} if n_jobs is None else {"n_jobs": n_jobs}
    return joblib.parallel_config(backend="loky", initializer=exit_when_parent_dies,
                                  initargs=(os.getpid(),), **extra)
