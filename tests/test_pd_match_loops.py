"""Poker Duel's two match loops (issue 25: compile only what a command plays, decided once for
both games): a scripted-only command compiles no search agent, and both loops play a
scripted cell identically (strategies/poker_duel/dispatch.py)."""

import json
import subprocess
import sys

import numpy as np

from sim.poker_duel.rules import load_rules
from strategies.poker_duel import STRATEGY_GREEDY, STRATEGY_RANDOM, STRATEGY_TUNED, strategy_id
from strategies.poker_duel import kernel_batch as KB
from strategies.poker_duel.batch import cell_of

PROBE = """
import json
from sim.poker_duel.rules import load_rules
from strategies.poker_duel import kernel_batch as KB, dispatch, search
from strategies.poker_duel.batch import cell_of
cell = cell_of({"hp": (40, 40), "first": 0}, 0, 5)  # greedy against tuned
KB.play_batch(load_rules("core").to_array(), cell, 5, 0, 3)
print(json.dumps({"scripted": len(KB._play_batch_scripted.signatures),
                  "search": len(KB._play_batch_search.signatures),
                  "choose": len(dispatch.choose.signatures),
                  "ismcts": len(search.choose_ismcts.signatures), "pimc": len(search.choose_pimc.signatures)}))
"""


def _cell(strategy0, strategy1, first=0, hp=(40, 40)):
    return cell_of({"hp": hp, "first": first}, strategy0, strategy1)


def test_a_scripted_batch_compiles_or_loads_no_search_agent():
    """A fresh interpreter playing greedy against tuned never compiles (or loads) the search loop."""
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    counts = json.loads(out.stdout.strip().splitlines()[-1])
    assert counts == {"scripted": 1, "search": 0, "choose": 0, "ismcts": 0, "pimc": 0}, counts


def test_the_search_loop_plays_scripted_cells_like_the_scripted_loop():
    """Same loop, two compiled copies: a cell without a search agent gives the same aggregate
    in both (so which one a batch picks cannot move a result)."""
    rules = KB.checked_rules(load_rules("core").to_array())
    for s0, s1, first in ((STRATEGY_GREEDY, STRATEGY_TUNED, 0), (STRATEGY_RANDOM, STRATEGY_GREEDY, 1)):
        cell = _cell(s0, s1, first, (30, 50))
        scripted = KB.play_batch(rules, cell, 77, 0, 60)
        search = np.zeros_like(scripted)
        KB._play_batch_search(rules, cell, np.uint64(77), np.int64(0), np.int64(60), search, KB.cell_workspace(cell))
        assert scripted.sum() > 0 and np.array_equal(scripted, search)


def test_a_batch_picks_its_loop_from_the_strategy_ids():
    assert not KB.searches(_cell(STRATEGY_GREEDY, STRATEGY_TUNED))
    assert not KB.searches(_cell(STRATEGY_RANDOM, STRATEGY_RANDOM))
    for name in ("pimc", "pimc-random:8", "ismcts:20"):
        assert KB.searches(_cell(STRATEGY_GREEDY, strategy_id(name)))
        assert KB.searches(_cell(strategy_id(name), STRATEGY_RANDOM))
