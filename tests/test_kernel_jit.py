"""The engine's kernels compiled without reference counting (sim/faction_war/kernel_jit.py).

`kernel_jit` turns numba's reference counting off, and a plain `nb.njit`
function called from such a kernel inherits that. It is safe only where a
function neither allocates (numba refuses to compile those: `_combo_pool`
keeps counting on explicitly) nor returns an array (its counting caller would
release a reference it never got). Two checks of the second point:
- in the source, no `kernel_jit` function returns one of its array arguments
  (a parameter it indexes), a slice of one, or a tuple holding either (the
  kernels take arrays only as arguments and allocate none, so that is every
  way one could return an array);
- after batches of every kind of agent and random rollouts, no compiled
  kernel-module function without counting has an array return type (with a
  warm cache only the entry points are compiled in-process, so the first
  check is the one that always covers every kernel).
That the results did not move is the fingerprint's job
(scripts/faction_war/fingerprint.py) and the search agents' record's
(scripts/faction_war/search_decisions.py).
"""

import ast
import importlib
import pkgutil
from pathlib import Path

import numpy as np
from numba.core import types
from numba.core.registry import CPUDispatcher

import sim.faction_war
from sim.faction_war import kernel_jit
from sim.faction_war import layout as L
from sim.faction_war.rules import Rules
from strategies.faction_war import batch as B
from strategies.faction_war import speed, strategy_id


def _returns_an_array(signature) -> bool:
    kind = signature.return_type
    parts = kind.types if isinstance(kind, types.BaseTuple) else (kind,)
    return any(isinstance(part, types.Array) for part in parts)


def _kernel_modules():
    return [importlib.import_module("sim.faction_war." + m.name) for m in pkgutil.iter_modules(sim.faction_war.__path__)
            if m.name.startswith("kernel")]


def _array_returns(function: ast.FunctionDef) -> list[str]:
    """Return statements of `function` that hand back an array argument or a slice of one."""
    parameters = {arg.arg for arg in function.args.args}
    indexed = {node.value.id for node in ast.walk(function)
               if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)}
    arrays = parameters & indexed
    sliced = {target.id for node in ast.walk(function) if isinstance(node, ast.Assign)
              and isinstance(node.value, ast.Subscript) and isinstance(node.value.slice, ast.Slice)
              for target in node.targets if isinstance(target, ast.Name)}

    def is_array(node) -> bool:
        if isinstance(node, ast.Name):
            return node.id in arrays or node.id in sliced
        if isinstance(node, ast.Subscript):
            return isinstance(node.slice, ast.Slice)
        if isinstance(node, ast.Tuple):
            return any(is_array(element) for element in node.elts)
        return False
    return sorted("%s line %d" % (function.name, node.lineno) for node in ast.walk(function)
                  if isinstance(node, ast.Return) and node.value is not None and is_array(node.value))


def test_no_kernel_jit_function_returns_an_array_argument():
    checked, offenders = 0, []
    for module in _kernel_modules():
        tree = ast.parse(Path(module.__file__).read_text())
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and any(
                    isinstance(d, ast.Name) and d.id == "kernel_jit" for d in node.decorator_list):
                checked += 1
                offenders += _array_returns(node)
    assert checked == len([d for d in kernel_jit.KERNELS if d.py_func.__module__.startswith("sim.faction_war.kernel")])
    assert checked > 100 and offenders == []
    # the check itself finds what it is for
    probe = ast.parse("def f(state, rules, n):\n    state[0] = n\n    if n:\n        return state\n"
                      "    view = rules[1:]\n    return n, view\n").body[0]
    assert _array_returns(probe) == ["f line 4", "f line 6"]


def test_no_compiled_kernel_without_reference_counts_returns_an_array():
    rules = Rules().with_changes(ambiguities={"FA-4": "choice", "FA-6": "choice"}).to_array()
    for agents in (("greedy", "tuned"), ("random", "random"), ("pimc-random:2", "ismcts:3")):
        cell = B.cell_array(0, 1, 50, 50, 0, *map(strategy_id, agents))
        assert np.array_equal(B.play_batch(rules, cell, 7, 0, 3), B.play_batch(rules, cell, 7, 0, 3))
    speed._rollout_batch(rules, B.cell_array(1, 0, 50, 50, 1, 0, 0), np.uint64(3), 2)
    # the entry points called from Python, compiled or loaded here whatever the cache
    from sim.faction_war import kernel as K
    state, legal, policy_rng = (np.zeros(size, dtype=np.int64) for size in (L.STATE_SIZE, B.LEGAL_CAPACITY, B.SEATS))
    rules, cell = B.check_arrays(rules, B.cell_array(0, 1, 50, 50, 0, 0, 0))
    B.start_match(rules, cell, np.uint64(5), state, policy_rng)
    K.apply_action(state, rules, legal[K.legal_actions(state, rules, legal) - 1])
    assert K.legal_actions.nopython_signatures and K.apply_action.nopython_signatures
    offenders = []
    for module in _kernel_modules():
        for name, value in vars(module).items():
            if isinstance(value, CPUDispatcher) and value.targetoptions.get("_nrt", False) is not True:
                offenders += [name for sig in value.nopython_signatures if _returns_an_array(sig)]
    assert offenders == []
