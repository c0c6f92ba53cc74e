"""The engine's kernels compiled without reference counting (sim/faction_war/kernel_jit.py).

`kernel_jit` turns numba's reference counting off, and a plain `nb.njit`
function called from such a kernel inherits that. It is safe only where a
function neither allocates (numba refuses to compile those: `_combo_pool`
keeps counting on explicitly) nor returns an array (its counting caller would
release a reference it never got). After batches of every kind of agent and
random rollouts have compiled the kernels, no compiled kernel-module function
without counting returns an array. That the results did not move is the
fingerprint's job (scripts/faction_war/fingerprint.py) and the search agents'
record's (scripts/faction_war/search_decisions.py).
"""

import importlib
import pkgutil

import numpy as np
from numba.core import types
from numba.core.registry import CPUDispatcher

import sim.faction_war
from sim.faction_war import kernel_jit
from sim.faction_war.rules import Rules
from strategies.faction_war import batch as B
from strategies.faction_war import speed, strategy_id


def _returns_an_array(signature) -> bool:
    kind = signature.return_type
    parts = kind.types if isinstance(kind, types.BaseTuple) else (kind,)
    return any(isinstance(part, types.Array) for part in parts)


def test_no_kernel_without_reference_counts_returns_an_array():
    rules = Rules().with_changes(ambiguities={"FA-4": "choice", "FA-6": "choice"}).to_array()
    for agents in (("greedy", "tuned"), ("random", "random"), ("pimc-random:2", "ismcts:3")):
        cell = B.cell_array(0, 1, 50, 50, 0, *map(strategy_id, agents))
        assert np.array_equal(B.play_batch(rules, cell, 7, 0, 3), B.play_batch(rules, cell, 7, 0, 3))
    speed._rollout_batch(rules, B.cell_array(1, 0, 50, 50, 1, 0, 0), np.uint64(3), 2)
    assert sum(len(d.nopython_signatures) for d in kernel_jit.KERNELS) > 60  # the match loop's kernels compiled
    modules = [importlib.import_module("sim.faction_war." + m.name) for m in pkgutil.iter_modules(sim.faction_war.__path__)
               if m.name.startswith("kernel")]
    offenders = []
    for module in modules:
        for name, value in vars(module).items():
            if isinstance(value, CPUDispatcher) and value.targetoptions.get("_nrt", False) is not True:
                offenders += [name for sig in value.nopython_signatures if _returns_an_array(sig)]
    assert offenders == []
