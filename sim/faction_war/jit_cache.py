"""Sound numba caching for the engine: a cache entry is valid only for the
exact engine sources it was compiled from.

numba's `cache=True` checks only the source file of the cached function
itself. Kernel code also freezes constants and inlines code from other
modules — state slots (`layout.py`), rules slots and reading indices
(`rules.py`: reordering an FA switch's readings changes `FA8_ANY_CARD`),
action kinds, the generator (`sim/rng.py`). Without this module an edit to
one of those leaves stale machine code in `__pycache__` that silently plays
by the old layout or readings (it happened: FA-8's readings were reordered
and cached kernels kept the old indices).

Trade-off: the stamp of every engine function (`ENGINE_DIRS`, and test
modules) is extended by one fingerprint of all engine sources (`ENGINE_SOURCES`), so
editing any of them recompiles every project kernel once (~15 s cold),
instead of trusting developers to clear caches. It plugs into numba's cache
locator list (`numba.core.caching.CacheImpl._locator_classes`); should a
future numba drop that hook, `install()` does nothing and numba's own
per-file check applies.

Every engine module calls `install()` before defining a cached kernel
(kernel.py does; modules importing the kernel get it through that import).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
# Globs (relative to the project root) of every file whose constants or code
# compiled kernels may freeze in.
ENGINE_SOURCES = (
    "sim/cards.py", "sim/rng.py", "sim/aggregate.py",
    "sim/faction_war/layout.py", "sim/faction_war/rules.py", "sim/faction_war/actions.py",
    "sim/faction_war/kernel*.py", "sim/faction_war/card_tables.py", "sim/faction_war/batch.py",
    "sim/faction_war/sampler.py",
    "sim/faction_war/jit_cache.py",
    "strategies/*.py",
)

_fingerprint_cache: dict[tuple, bytes] = {}


def engine_fingerprint() -> bytes:
    """SHA-256 over the engine sources' paths and contents.

    Memoized on each file's mtime and size, as numba memoizes its own
    per-file hashes.
    """
    files = sorted({path for pattern in ENGINE_SOURCES for path in PROJECT_ROOT.glob(pattern)})
    key = tuple((str(path), path.stat().st_mtime_ns, path.stat().st_size) for path in files)
    if key not in _fingerprint_cache:
        digest = hashlib.sha256()
        for path in files:
            digest.update(str(path.relative_to(PROJECT_ROOT)).encode())
            digest.update(path.read_bytes())
        _fingerprint_cache.clear()
        _fingerprint_cache[key] = digest.digest()
    return _fingerprint_cache[key]


# Functions whose cache entries get the engine stamp: the engine's own
# modules and the test modules that compile checkers over the engine. Other
# cached code (sim/rng.py, sim/aggregate.py, the toy game) is self-contained
# and keeps numba's per-file stamp. The choice depends only on the file, never
# on import order, so two processes never fight over one cache entry.
ENGINE_DIRS = ("sim/faction_war", "strategies")
TEST_DIR = "tests"
TEST_PREFIX = "test_"


def _is_engine_file(py_file: str) -> bool:
    try:
        relative = Path(os.path.abspath(py_file)).relative_to(PROJECT_ROOT)
    except (OSError, ValueError):
        return False
    folder = relative.parent.as_posix()
    if folder in ENGINE_DIRS:
        return True
    return folder == TEST_DIR and relative.name.startswith(TEST_PREFIX)


def _make_locators():
    from numba.core import caching

    class _EngineStamp:
        """Mixin: the function's own stamp plus the engine fingerprint."""

        def get_source_stamp(self):
            return (super().get_source_stamp(), engine_fingerprint())

        @classmethod
        def from_function(cls, py_func, py_file):
            if not _is_engine_file(py_file):
                return None
            return super().from_function(py_func, py_file)

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


def install() -> bool:
    """Put the engine-aware locators first in numba's list (idempotent), and
    compile calls without literal specialisation."""
    global _installed
    if _installed:
        return True
    compile_calls_without_literals()
    try:
        caching, locators = _make_locators()
        impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl  # renamed in numba 0.6x
        classes = impl._locator_classes
    except (ImportError, AttributeError):
        return False
    classes[:0] = list(locators)
    _installed = True
    return True
