"""Sound numba caching for game engines: a cache entry is valid only for the
exact engine sources it was compiled from.

numba's `cache=True` checks only the source file of the cached function
itself. Kernel code also freezes constants and inlines code from other
modules — state slots, rules slots and reading indices (reordering a rules
switch's readings changes its constants), action kinds, the generator
(`sim/rng.py`). Without this module an edit to one of those leaves stale
machine code in `__pycache__` that silently plays by the old layout or
readings (it happened: a switch's readings were reordered and cached kernels
kept the old indices).

Each game declares its engine once (`Engine`: the folders whose functions get
the stamp, and the globs of every file their kernels may freeze in), in its
own package, and its engine modules call `install(ENGINE)` before defining a
cached kernel. This module names no game.

Trade-off: the stamp of every engine function is extended by one fingerprint
of all that engine's sources, so editing any of them recompiles every kernel
of that game once (~15 s cold), instead of trusting developers to clear
caches. It plugs into numba's cache locator list
(`numba.core.caching.CacheImpl._locator_classes`); should a future numba drop
that hook, `install()` does nothing and numba's own per-file check applies.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from sim import compile_progress, inline_once, optimise_once

PROJECT_ROOT = Path(__file__).resolve().parents[1]
COMMON_SOURCES = ("sim/cards.py", "sim/rng.py", "sim/aggregate.py", "sim/jit_cache.py")


@dataclass(frozen=True)
class Engine:
    """One game's compiled engine.

    - `dirs`: folders (relative to the project root) whose cached functions get
      the engine stamp; a file belongs to the first registered engine naming
      its folder, so the choice depends only on the file.
    - `sources`: globs of every file whose constants or code its kernels may
      freeze in (`COMMON_SOURCES` are added).
    - `test_prefix`: test modules `tests/<prefix>*.py` that compile checkers over
      this engine get its stamp too (other cached test code keeps numba's own).
    """

    name: str
    dirs: tuple[str, ...]
    sources: tuple[str, ...]
    test_prefix: str | None = None


TEST_DIR = "tests"
_ENGINES: dict[str, Engine] = {}
_fingerprint_cache: dict[tuple, bytes] = {}


def engine_fingerprint(engine: Engine | None = None) -> bytes:
    """SHA-256 over an engine's sources' paths and contents (default: the only
    registered engine).

    Memoized on each file's mtime and size, as numba memoizes its own
    per-file hashes.
    """
    if engine is None:
        (engine,) = _ENGINES.values()
    patterns = COMMON_SOURCES + tuple(engine.sources)
    files = sorted({path for pattern in patterns for path in PROJECT_ROOT.glob(pattern)})
    key = (engine.name,) + tuple((str(path), path.stat().st_mtime_ns, path.stat().st_size) for path in files)
    if key not in _fingerprint_cache:
        digest = hashlib.sha256()
        for path in files:
            digest.update(str(path.relative_to(PROJECT_ROOT)).encode())
            digest.update(path.read_bytes())
        _fingerprint_cache[key] = digest.digest()
    return _fingerprint_cache[key]


def engine_of_file(py_file: str) -> Engine | None:
    """The registered engine a source file belongs to, or None (numba's own stamp)."""
    try:
        relative = Path(os.path.abspath(py_file)).relative_to(PROJECT_ROOT)
    except (OSError, ValueError):
        return None
    folder = relative.parent.as_posix()
    for engine in _ENGINES.values():
        if folder in engine.dirs:
            return engine
        if folder == TEST_DIR and engine.test_prefix and relative.name.startswith(engine.test_prefix):
            return engine
    return None


def _make_locators():
    from numba.core import caching

    class _EngineStamp:
        """Mixin: the function's own stamp plus the engine fingerprint."""

        def get_source_stamp(self):
            return (super().get_source_stamp(), engine_fingerprint(self._cardbalance_engine))

        @classmethod
        def from_function(cls, py_func, py_file):
            engine = engine_of_file(py_file)
            if engine is None:
                return None
            locator = super().from_function(py_func, py_file)
            if locator is not None:
                locator._cardbalance_engine = engine
            return locator

    # numba >= 0.61 names them without the leading underscore
    user_provided = getattr(caching, "UserProvidedCacheLocator", None) or caching._UserProvidedCacheLocator
    in_tree = getattr(caching, "InTreeCacheLocator", None) or caching._InTreeCacheLocator

    class EngineUserProvidedCacheLocator(_EngineStamp, user_provided):
        pass

    class EngineInTreeCacheLocator(_EngineStamp, in_tree):
        pass

    return caching, (EngineUserProvidedCacheLocator, EngineInTreeCacheLocator)


_installed = False


def compile_calls_without_literals() -> bool:
    """Compile each kernel once per argument *type*, not once per constant value.

    numba types a constant argument of a call between jitted functions as a
    literal (`Literal[int](2)`) and compiles a separate copy of the callee for
    every distinct constant: `end_match(state, DRAW, END_TURN_CAP)` and
    `end_match(state, winner, END_LIFE)` were two machine-code copies, and the
    greedy policy, called with three style constants, was compiled three
    times. No engine function needs a literal argument, so erasing literal
    types at dispatcher calls cut the cold compile of the engine by about 40 %
    with identical results. Returns False (numba's default) if the hook is gone.
    """
    try:
        from numba.core import dispatcher, types
        original = dispatcher.Dispatcher.get_call_template
    except (ImportError, AttributeError):
        return False
    if getattr(original, "_cardbalance_unliteral", False):
        return True

    def get_call_template(self, args, kws):
        args = tuple(types.unliteral(arg) for arg in args)
        kws = {key: types.unliteral(value) for key, value in kws.items()}
        return original(self, args, kws)

    get_call_template._cardbalance_unliteral = True
    dispatcher.Dispatcher.get_call_template = get_call_template
    return True


def install(engine: Engine) -> bool:
    """Register `engine`, put the engine-aware locators first in numba's list
    (idempotent), compile calls without literal specialisation, let LLVM optimise
    callees once, in their caller (sim/optimise_once.py), prepare each inlined
    function once (sim/inline_once.py), and say on stderr while a compile runs
    (sim/compile_progress.py)."""
    global _installed
    _ENGINES.setdefault(engine.name, engine)
    if _installed:
        return True
    compile_calls_without_literals()
    optimise_once.install()
    inline_once.install()
    compile_progress.install()
    try:
        caching, locators = _make_locators()
        impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl  # renamed in numba 0.6x
        classes = impl._locator_classes
    except (ImportError, AttributeError):
        return False
    classes[:0] = list(locators)
    _installed = True
    return True
