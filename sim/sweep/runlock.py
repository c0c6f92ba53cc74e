"""One process at a time per run folder: an advisory lock on RUN/.lock.

A sweep (new or `--resume`) holds an exclusive `flock` on the run folder's
lock file for as long as it writes there; a second sweep on the same folder
is refused with one line naming the holder (pid, host, command, start time),
which the holder wrote into the lock file. The kernel drops the lock when
the holder exits in any way, SIGKILL included, so a stale lock file never
blocks a resume: only a live holder does. The file itself stays (deleting
it would race with a process taking it). Readers (`report`, `play --from`)
take no lock: they read files that are only ever replaced whole.
"""

from __future__ import annotations

import contextlib
import json
import os
import platform
import sys
import time
from pathlib import Path

from sim.errors import CardbalanceError
from sim.safe_output import file_mode

LOCK_NAME = ".lock"

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no lock, as before
    fcntl = None


def _holder_text(path: Path) -> str:
    try:
        holder = json.loads(path.read_text(encoding="utf-8"))
        return "pid %s on %s (%s, since %s)" % (holder["pid"], holder["host"], holder["command"], holder["since"])
    except (OSError, ValueError, KeyError, TypeError):
        return "another process"


@contextlib.contextmanager
def hold_run_lock(run_dir, command: str = "cardbalance sweep"):
    """Hold the run folder's lock for the block, or raise CardbalanceError naming its holder."""
    run_dir = Path(run_dir)
    if fcntl is None:  # pragma: no cover
        yield
        return
    lock_path = run_dir / LOCK_NAME
    try:
        handle = os.open(lock_path, os.O_RDWR | os.O_CREAT, file_mode())
    except OSError as error:
        raise CardbalanceError("cannot lock run folder '%s' (%s)." % (run_dir, error.strerror or error)) from None
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise CardbalanceError("run folder '%s' is in use by %s; wait for that run to finish or stop it."
                                   % (run_dir, _holder_text(lock_path))) from None
        holder = {"pid": os.getpid(), "host": platform.node(), "command": command,
                  "since": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())}
        os.ftruncate(handle, 0)
        os.pwrite(handle, (json.dumps(holder) + "\n").encode(), 0)
        yield
    finally:
        os.close(handle)  # releases the flock


def command_line() -> str:
    return " ".join(["cardbalance", *sys.argv[1:]])[:200]
