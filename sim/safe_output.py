"""Writing what users keep: files and folders that appear whole or not at all.

Every output of cardbalance (run folders, reports, baselines, summaries) is
written through these helpers:

- `write_bytes_atomic` / `write_text_atomic`: a temporary file in the same
  folder, fsync'd, then renamed over the target, so a reader or a process
  killed at any instant sees the old file or the new one, never half of one.
- `atomic_folder`: a folder is built under a hidden sibling name and renamed
  into place when complete; on any failure the partial folder is removed.
- `check_output_file` / `check_output_folder`: the up-front check that an
  output path can be written (no name too long for the file system —
  sim/user_input.py —, nothing on the way is a file, the folder is
  writable), done before any simulation so a bad path costs nothing.
- `remove_stale_temporaries`: what a process killed mid-write (SIGKILL, power
  loss) left of a temporary file, removed when a run folder is reopened.

Files and folders get the permissions the user's umask gives any other
tool (`mkstemp`/`mkdtemp` alone would make them private, 0600/0700). The
trade-off: a write costs an fsync and a rename, which is nothing next to
the simulation that produced the data.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path

from sim.errors import CardbalanceError
from sim.user_input import check_name_lengths


def current_umask() -> int:
    """The process umask, read without changing it where the OS allows."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:  # Linux: no race with other threads
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def file_mode() -> int:
    return 0o666 & ~current_umask()


def folder_mode() -> int:
    return 0o777 & ~current_umask()


def _reason(error: OSError) -> str:
    return error.strerror or type(error).__name__


# ---- files ------------------------------------------------------------------------

def write_bytes_atomic(path, data: bytes) -> None:
    """Write `data` to `path` through a temporary sibling and a rename (mode from the umask)."""
    path = Path(path)
    handle, temporary = tempfile.mkstemp(prefix="." + path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(handle, file_mode())
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise naming(error, path) from None
        raise


def naming(error: OSError, path) -> OSError:
    """`error` with `path` as its file name when it names none (a failed write(2), e.g. ENOSPC)."""
    if error.filename is None and error.errno is not None:
        return OSError(error.errno, error.strerror, str(path))
    return error


def write_text_atomic(path, text: str) -> None:
    write_bytes_atomic(path, text.encode("utf-8"))


def is_temporary_name(name: str) -> bool:
    """A name `write_bytes_atomic` gives its temporary file (".NAME.XXXXXXXX.tmp")."""
    return name.startswith(".") and name.endswith(".tmp")


def remove_stale_temporaries(folder) -> int:
    """Delete the temporary files left in `folder` by writes killed before their rename; the
    number removed. Call it only while holding the folder's run lock: a live writer's
    temporary is not stale."""
    folder = Path(folder)
    removed = 0
    if not folder.is_dir():
        return removed
    for entry in folder.iterdir():
        if is_temporary_name(entry.name) and entry.is_file():
            entry.unlink(missing_ok=True)
            removed += 1
    return removed


# ---- up-front checks ----------------------------------------------------------------

def _nearest_existing(path: Path) -> Path:
    candidate = path
    while not candidate.exists() and candidate != candidate.parent:
        candidate = candidate.parent
    return candidate


def _probe_folder(folder: Path, option: str, shown: Path) -> None:
    """Create and delete a file in `folder` (os.access is wrong for root and for /proc)."""
    try:
        handle, probe = tempfile.mkstemp(prefix=".cardbalance-write-test-", dir=folder)
        os.close(handle)
        os.unlink(probe)
    except OSError as error:
        raise CardbalanceError("%s: cannot write to '%s' (%s in '%s'); choose a writable location."
                               % (option, shown, _reason(error), folder)) from None


def _check_ancestors(path: Path, option: str) -> Path:
    """The nearest existing ancestor of `path`, refused when it is not a folder."""
    existing = _nearest_existing(path.parent if path.parent != path else path)
    if not existing.is_dir():
        raise CardbalanceError("%s: cannot write '%s': '%s' is a file, not a folder." % (option, path, existing))
    return existing


def check_output_file(path, option: str) -> Path:
    """Refuse an output file path that cannot be written; creates nothing that stays."""
    path = check_name_lengths(path, option)
    if path.is_dir():
        raise CardbalanceError("%s: '%s' is a folder; give a file name." % (option, path))
    if path.exists() and not path.is_file():
        raise CardbalanceError("%s: '%s' is not a regular file; give a file name." % (option, path))
    _probe_folder(_check_ancestors(path, option), option, path)
    return path


def check_output_folder(path, option: str) -> Path:
    """Refuse an output folder path that cannot be created or written; creates nothing that stays."""
    path = check_name_lengths(path, option)
    if path.exists() and not path.is_dir():
        raise CardbalanceError("%s: '%s' is a file, not a folder; choose another path." % (option, path))
    folder = path if path.is_dir() else _check_ancestors(path, option)
    _probe_folder(folder, option, path)
    return path


# ---- folders ----------------------------------------------------------------------

def is_empty_folder(path: Path) -> bool:
    return path.is_dir() and not any(path.iterdir())


@contextlib.contextmanager
def atomic_folder(path, replace_existing: bool = False):
    """Yield a hidden sibling folder to fill; rename it to `path` when the block succeeds.

    `path` may be absent or an empty folder; with `replace_existing` a
    non-empty one is replaced whole (the old one moved aside, then deleted).
    On any failure, including Ctrl-C, the partial folder is removed and
    `path` is left as it was.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix="." + path.name + ".building-", dir=path.parent))
    try:
        os.chmod(building, folder_mode())
        yield building
        _move_into_place(building, path, replace_existing)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise


def _move_into_place(building: Path, path: Path, replace_existing: bool) -> None:
    try:
        os.rename(building, path)  # POSIX: replaces an empty folder, fails on a non-empty one
        return
    except OSError:
        if not (replace_existing and path.is_dir()):
            raise
    old = Path(tempfile.mkdtemp(prefix="." + path.name + ".old-", dir=path.parent))
    os.rename(path, old / path.name)
    try:
        os.rename(building, path)
    except BaseException:
        os.rename(old / path.name, path)  # put the previous one back
        raise
    finally:
        shutil.rmtree(old, ignore_errors=True)
