"""Faction War's two match loops: a scripted-only command compiles no search agent,
and both loops play a scripted cell identically (strategies/faction_war/dispatch.py)."""

import json
import subprocess
import sys

import numpy as np

from sim.faction_war.rules import Rules
from strategies.faction_war import STRATEGY_GREEDY, STRATEGY_RANDOM, STRATEGY_TUNED, strategy_id
from strategies.faction_war import batch as B

PROBE = """
import json
import numpy as np
from sim.faction_war.rules import Rules
from strategies.faction_war import batch as B, dispatch, ismcts, pimc
cell = B.cell_array(0, 1, 50, 50, 0, 1, 6)  # greedy against tuned
B.play_batch(Rules().to_array(), cell, 5, 0, 3)
print(json.dumps({"scripted": len(B._play_batch_scripted.signatures),
                  "search": len(B._play_batch_search.signatures),
                  "choose_in_loop": len(dispatch.choose_in_loop.signatures),
                  "ismcts": len(ismcts.choose_ismcts.signatures), "pimc": len(pimc.choose_pimc.signatures)}))
"""


def test_a_scripted_batch_compiles_or_loads_no_search_agent():
    """A fresh interpreter playing greedy against tuned never compiles (or loads) the search loop."""
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    counts = json.loads(out.stdout.strip().splitlines()[-1])
    assert counts == {"scripted": 1, "search": 0, "choose_in_loop": 0, "ismcts": 0, "pimc": 0}, counts


def test_the_search_loop_plays_scripted_cells_like_the_scripted_loop():
    """Same loop, two compiled copies: a cell without a search agent gives the same aggregate
    in both (so which one a batch picks cannot move a result)."""
    rules, _ = B.check_arrays(Rules().to_array(), B.cell_array(0, 0, 50, 50, 0, 0, 0))
    for f0, f1, s0, s1 in ((0, 1, STRATEGY_GREEDY, STRATEGY_TUNED), (1, 0, STRATEGY_RANDOM, STRATEGY_GREEDY)):
        cell = B.cell_array(f0, f1, 40, 60, 1, s0, s1)
        scripted = B._play_batch_scripted(rules, cell, np.uint64(77), 0, 60, B.cell_workspace(cell))
        search = B._play_batch_search(rules, cell, np.uint64(77), 0, 60, B.cell_workspace(cell))
        assert np.array_equal(scripted, search)
        assert np.array_equal(scripted, B.play_batch(rules, cell, 77, 0, 60))


def test_a_batch_picks_its_loop_from_the_strategy_ids():
    greedy = B.cell_array(0, 1, 50, 50, 0, STRATEGY_GREEDY, STRATEGY_TUNED)
    assert not B.searches(greedy)
    for name in ("pimc", "pimc-random:8", "pimc-greedy:8", "ismcts:20"):
        assert B.searches(B.cell_array(0, 1, 50, 50, 0, STRATEGY_GREEDY, strategy_id(name)))
        assert B.searches(B.cell_array(0, 1, 50, 50, 0, strategy_id(name), STRATEGY_RANDOM))
