"""Let LLVM optimise a compiled engine once, at the function Python calls, not at every level.

numba compiles every jitted callee as a library of its own and finalises it:
it links in the (already optimised) code of all the callee's own callees and
runs LLVM's whole module optimisation over the result. The caller then links
that code in and optimises all of it again, and so on up the call tree, so a
kernel five calls deep is optimised five times, and the entry point (the
batch function Python calls) optimises the whole engine once more anyway.
On Faction War's cold compile that repeated module optimisation was 22 of
75 s CPU (docs/performance.md, "Cold compile (issue 29)"); 2 s are left.

Here a library finalised inside another compile (a callee, typed while its
caller compiles) skips the module optimisation; its caller links its code
and optimises it together with everything else. A function that Python
calls compiles at the outermost level and is optimised as before, over its
whole call tree, so the machine code a sweep runs gets the same passes;
LLVM's result is the same program (no fast-math, no reordering of
floating-point operations), so results cannot move. What changes: a callee's
own machine code (used only when Python calls that callee directly, as some
tests do, or when a later compile loads it from the cache and links it) is
less optimised; its caller's optimisation makes up for that.

`CARDBALANCE_OPTIMISE_CALLEES=1` restores numba's behaviour (for comparing).
"""

from __future__ import annotations

import os

ENV_SWITCH = "CARDBALANCE_OPTIMISE_CALLEES"

_depth = [0]  # numba compiles in progress in this process (cache misses only)
_installed = False


def nested_compile() -> bool:
    """True while a compile runs inside another one (a callee typed by its caller)."""
    return _depth[0] > 1


def install() -> bool:
    """Skip the module optimisation of callee libraries (idempotent); False when
    switched off or numba's hooks are missing (numba's default then applies)."""
    global _installed
    if _installed:
        return True
    if os.environ.get(ENV_SWITCH, "0") == "1":
        return False
    try:
        from numba.core import codegen, event
        original = codegen.CPUCodeLibrary._optimize_final_module
    except (ImportError, AttributeError):
        return False

    class _Depth(event.Listener):  # numba accepts only its own Listener subclasses
        def on_start(self, ev):
            _depth[0] += 1

        def on_end(self, ev):
            _depth[0] -= 1

    def _optimize_final_module(self):
        if nested_compile():
            return  # a callee: the caller links this code and optimises it with its own
        original(self)

    event.register("numba:compile", _Depth())
    codegen.CPUCodeLibrary._optimize_final_module = _optimize_final_module
    _installed = True
    return True
