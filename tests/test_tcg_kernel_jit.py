"""The Novel TCG kernel compiled without reference counting (sim/novel_tcg/kernel_jit.py).

Counting off is safe only for a function that neither allocates (numba would need the
counts to free it) nor returns an array (its counting caller would release a reference it
never got). In the source: every kernel function is `kernel_jit` or `counting_jit`, no
`kernel_jit` function calls an allocating numpy function or returns an array argument or
a slice of one. Compiled: after matches of every agent, no `kernel_jit` dispatcher has an
array return type. That play did not move is `scripts/novel_tcg/records.py --check`'s job
and the differential test's.
"""

import ast
from pathlib import Path

import numpy as np
from numba.core import types

from sim.novel_tcg import kernel as K
from sim.novel_tcg import kernel_jit
from sim.novel_tcg import layout as L
from sim.novel_tcg.rules import Rules
from strategies.novel_tcg import strategy_id
from strategies.novel_tcg.batch import cell_of, play_batch

ALLOCATING = {"zeros", "empty", "ones", "full", "array", "copy", "zeros_like", "empty_like", "arange"}


def _decorator_name(decorator) -> str:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")


def _unsafe_without_counts(function: ast.FunctionDef) -> list[str]:
    """Lines of `function` that allocate or return an array argument (or a slice of one)."""
    parameters = {arg.arg for arg in function.args.args}
    arrays = parameters & {node.value.id for node in ast.walk(function)
                           if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)}

    def is_array(node) -> bool:
        if isinstance(node, ast.Name):
            return node.id in arrays
        if isinstance(node, ast.Subscript):
            return isinstance(node.slice, ast.Slice)
        return isinstance(node, ast.Tuple) and any(is_array(element) for element in node.elts)

    found = []
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ALLOCATING:
            found.append("%s line %d allocates" % (function.name, node.lineno))
        if isinstance(node, ast.Return) and node.value is not None and is_array(node.value):
            found.append("%s line %d returns an array" % (function.name, node.lineno))
    return sorted(found)


def test_tcg_kernel_functions_without_counts_neither_allocate_nor_return_arrays():
    tree = ast.parse(Path(K.__file__).read_text())
    functions = [node for node in tree.body if isinstance(node, ast.FunctionDef)]
    decorators = {f.name: {_decorator_name(d) for d in f.decorator_list} for f in functions}
    assert all(names & {"kernel_jit", "counting_jit"} for names in decorators.values()), decorators
    without_counts = [f for f in functions if "kernel_jit" in decorators[f.name]]
    assert len(without_counts) == len([d for d in kernel_jit.KERNELS if d.py_func.__module__ == K.__name__])
    assert len(without_counts) > 40
    assert [line for f in without_counts for line in _unsafe_without_counts(f)] == []
    # the allocating base searches are the counting ones, and the check finds what it is for
    assert {"canonical_bases", "hand_bases"} <= {f.name for f in functions if "counting_jit" in decorators[f.name]}
    probe = ast.parse("def f(s, r, n):\n    s[0] = n\n    t = np.zeros(3)\n    if n:\n        return s\n"
                      "    return n, r[1:]\n").body[0]
    assert _unsafe_without_counts(probe) == ["f line 3 allocates", "f line 5 returns an array",
                                             "f line 6 returns an array"]


def test_tcg_kernel_without_counts_compiles_no_array_return():
    rules = Rules().to_array()
    for agents in (("random", "random"), ("greedy", "defensive")):
        cell = cell_of({"rank": (10, 10), "deck": "swarm/advance", "first": 0}, *map(strategy_id, agents))
        assert np.array_equal(play_batch(rules, cell, 7, 0, 3), play_batch(rules, cell, 7, 0, 3))
    state, legal = np.zeros(L.STATE_SIZE, dtype=np.int64), np.zeros(K.MAX_LEGAL, dtype=np.int64)
    deck = np.arange(40, dtype=np.int64) % 20
    K.new_match(state, rules, 10, 10, deck, deck, 0, 5)
    K.apply_action(state, rules, legal[K.legal_actions(state, rules, legal) - 1])
    assert K.legal_actions.nopython_signatures and K.apply_action.nopython_signatures
    offenders = [d.py_func.__name__ for d in kernel_jit.KERNELS for sig in d.nopython_signatures
                 if any(isinstance(t, types.Array) for t in
                        (sig.return_type.types if isinstance(sig.return_type, types.BaseTuple) else (sig.return_type,)))]
    assert offenders == []
