"""Faction War's search workspace: the shared layout sized for this game.

A search decision needs a sampled world, a legal-action list for it, a
scratch view for greedy rollouts, per-action statistics and (ISMCTS) a tree.
Allocating them per decision would put the allocator inside the match loop,
so the loop (`batch.py`, `playlog.py`) allocates one workspace per batch,
sized for the larger budget of the cell's two strategies (`new_workspace`),
and every search decision resets only what it uses.

The layout, its accessors (`world_of`, `visits_of`, `tree_of`, ...), the
decision counts the bench reads (W_DECISIONS) and the play log's
`last_statistics` are `strategies/search_tree.py`'s, shared with Poker Duel;
this module only sizes it: Faction War's state, its legal-list capacity and
the tree nodes a strategy needs.
"""

import numba as nb

from sim.faction_war.layout import STATE_SIZE
from strategies import search_tree as T
from strategies.faction_war import STRATEGY_ISMCTS

LEGAL_CAPACITY = 1024  # as the match loop's buffer (batch.LEGAL_CAPACITY)


@nb.njit(cache=True)
def node_capacity(strategy):
    """Tree nodes a strategy needs (`search_tree.nodes_for` with this game's ISMCTS id)."""
    return T.nodes_for(strategy, STRATEGY_ISMCTS)


@nb.njit(cache=True)
def new_workspace(strategy0, strategy1):
    """A zeroed workspace for a match between these two strategy ids (allocated once per loop)."""
    return T.new_workspace(STATE_SIZE, LEGAL_CAPACITY, max(node_capacity(strategy0), node_capacity(strategy1)))
