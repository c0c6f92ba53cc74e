"""The decorator of the engine's non-inlined kernels: numba without reference counting.

numba counts the references to every array a compiled function receives: an
atomic increment when the function takes an array argument, a decrement when it
lets go (`NRT_incref` / `NRT_decref`), a pair per array per call. The kernels call
each other with the state, rules and legal-list arrays many times per action;
`perf` on random rollouts put about a third of the compiled time in those two
functions (docs/performance.md, "Random rollouts without reference counts").

The kernels neither allocate nor return arrays: every array they touch belongs
to a caller that holds it for the whole call, so the counts protect nothing.
`kernel_jit` compiles them with numba's runtime reference counting off
(`_nrt=False`, numba's flag for code without allocations). A plain `nb.njit`
function called from such a kernel inherits the setting, and an allocation
does not compile without counting: `_combo_pool`, the one kernel that
allocates, says `_nrt=True`, which wins over the inherited setting. A function
that returned an array must keep counting (its counting caller would release a
reference it never got): `KERNELS` lists every function made here, and
tests/test_kernel_jit.py checks that no kernel compiled without counting
returns an array. Results cannot move: only reference counts changed.
"""

import numba as nb

KERNELS = []  # every dispatcher made by kernel_jit (the test reads their signatures)


def kernel_jit(function):
    """`nb.njit(cache=True)` without reference counting (module docstring)."""
    dispatcher = nb.njit(cache=True, _nrt=False)(function)
    KERNELS.append(dispatcher)
    return dispatcher
