"""The Novel TCG kernel's decorators: numba without reference counting, as Faction War's
kernels are compiled (its own `kernel_jit` module says why that is safe and what it saves).

Every call of a compiled function with array arguments costs an atomic increment and
decrement per array (`NRT_incref` / `NRT_decref`). The kernel passes the state, the rules
and the legal list from call to call on every action, so those counts were the price of
every helper call; the speed work of issue 26 avoided it by inlining the listing's helpers
(`inline="always"`), which copies their bodies, their switch branches and any allocation
into `legal_actions` at each call site (docs/performance.md, "Novel TCG").
`kernel_jit` compiles a function with counting off (`_nrt=False`): a call is a plain call
that LLVM may inline or not. A function that allocates cannot compile without counting;
the few that do (the base searches) are compiled by `counting_jit`, return no array, and
are reached only under the switches or the apply path that need them.
"""

import numba as nb

KERNELS = []  # every dispatcher made by kernel_jit (tests/test_tcg_kernel_jit.py reads their signatures)


def kernel_jit(function=None, *, inline="never"):
    """`nb.njit(cache=True)` without reference counting; `@kernel_jit` or `@kernel_jit(inline="always")`."""
    def decorate(f):
        dispatcher = nb.njit(cache=True, _nrt=False, inline=inline)(f)
        KERNELS.append(dispatcher)
        return dispatcher
    return decorate if function is None else decorate(function)


def counting_jit(function):
    """`nb.njit(cache=True)` with reference counting, said explicitly: a function that allocates
    (a counting-off caller would pass its setting on to a plain njit callee)."""
    return nb.njit(cache=True, _nrt=True)(function)
