"""Prepare each `inline="always"` function's numba IR once per process, not once per call site.

numba inlines an `inline="always"` function by running its whole untyped
front end (bytecode translation, closure inlining, and its own inline calls,
recursively) again at every call site, then copying that IR into the caller
(`numba.core.inline_closurecall.InlineWorker.inline_function`). Faction War's
kernels call small helpers like `mask_slot` or `row_stats` from dozens of
places; the front end was 12.7 of the engine's 75 s CPU cold compile, 8.9
with this module (docs/performance.md, "Cold compile (issue 29)").

The front end's result depends only on the function and the compile's flags
and locals, and the inliner deep-copies it before changing anything
(`InlineWorker.inline_ir`, "Always copy the callee IR, it gets mutated"), so
this module keeps it, keyed by those, and hands the same IR to every site.
Each site still gets its own copy and its own variable names (numba renames
clashing names in the caller's scope), so the caller's IR is the same program.

`CARDBALANCE_INLINE_ONCE=0` restores numba's behaviour (for comparing).
"""

from __future__ import annotations

import os

ENV_SWITCH = "CARDBALANCE_INLINE_ONCE"

_front_ends: dict = {}  # (function, flags, locals) -> its untyped numba IR (never changed: copied at each site)
_installed = False


def install() -> bool:
    """Memoise the inliner's front end (idempotent); False when switched off or
    numba's hook is missing (numba's default then applies)."""
    global _installed
    if _installed:
        return True
    if os.environ.get(ENV_SWITCH, "1") == "0":
        return False
    try:
        from numba.core.inline_closurecall import InlineWorker
        original = InlineWorker.inline_function
    except (ImportError, AttributeError):
        return False

    def inline_function(self, caller_ir, block, i, function, arg_typs=None):
        # run_untyped_passes sets this on the caller's flags first thing: keep that side effect
        self.flags.enable_ssa = False
        key = (function, repr(sorted(self.flags.values().items())), repr(self.locals))
        callee_ir = _front_ends.get(key)
        if callee_ir is None:
            callee_ir = _front_ends[key] = self.run_untyped_passes(function)
        return self.inline_ir(caller_ir, block, i, callee_ir, function.__code__.co_freevars, arg_typs=arg_typs)

    if getattr(original, "_cardbalance_inline_once", False):
        return True
    inline_function._cardbalance_inline_once = True
    InlineWorker.inline_function = inline_function
    _installed = True
    return True
