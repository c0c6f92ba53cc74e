"""The search agents' preallocated memory: one int64 array per match loop.

A search decision needs a sampled world, a legal-action list for it, a
scratch view for greedy rollouts, per-action statistics and (ISMCTS) a tree.
Allocating them per decision would put the allocator inside the match loop,
so the loop (`batch.py`, `playlog.py`) allocates one workspace per batch,
sized for the larger budget of the cell's two strategies (`new_workspace`),
and every search decision resets only what it uses.

Layout (slot constants W_*):
    [W_N_STATS]                 legal actions with statistics from the last search
                                decision (0 after a decision that did not search)
    [W_DECISIONS + seat]        decisions asked of each seat (the match loop counts them)
    [W_VISITS + i]              rollouts / iterations through legal action i
    [W_POINTS + i]              their points for the decider (2 win, 1 draw, 0 loss)
    [W_WORLD ..]                one sampled world (STATE_SIZE)
    [W_LEGAL ..]                its legal actions (LEGAL_CAPACITY)
    [W_SCRATCH_VIEW ..]         a view for greedy rollouts (STATE_SIZE)
    [W_MARK ..]                 per legal index: the tree child for it, or -1
    [W_PATH ..]                 the nodes of one ISMCTS descent (node capacity)
    [W_TREE ..]                 node capacity x NODE_FIELDS (ismcts.py)
The statistics stay after the decision, so the play log can narrate them.
"""

import numba as nb
import numpy as np

from sim.faction_war.layout import STATE_SIZE
from strategies.faction_war import BASE_MASK, PARAM_SHIFT, STRATEGY_ISMCTS, ISMCTS_DEFAULT_BUDGET

LEGAL_CAPACITY = 1024  # as the match loop's buffer (batch.LEGAL_CAPACITY)
W_N_STATS = 0
W_DECISIONS = 1  # + seat: decisions asked of each seat since the workspace was made (the bench reads them)
W_VISITS = 3
W_POINTS = W_VISITS + LEGAL_CAPACITY
W_WORLD = W_POINTS + LEGAL_CAPACITY
W_LEGAL = W_WORLD + STATE_SIZE
W_SCRATCH_VIEW = W_LEGAL + LEGAL_CAPACITY
W_MARK = W_SCRATCH_VIEW + STATE_SIZE
W_PATH = W_MARK + LEGAL_CAPACITY
NODE_FIELDS = 7  # see ismcts.py (N_*)
SPARE_NODES = 2  # the root, and one spare


@nb.njit(cache=True)
def node_capacity(strategy):
    """Tree nodes a strategy needs: an ISMCTS iteration adds at most one node."""
    if strategy & BASE_MASK != STRATEGY_ISMCTS:
        return 0
    budget = strategy >> PARAM_SHIFT
    return (budget if budget else ISMCTS_DEFAULT_BUDGET) + SPARE_NODES


@nb.njit(cache=True)
def new_workspace(strategy0, strategy1):
    """A zeroed workspace for a match between these two strategy ids (allocated once per loop)."""
    nodes = max(node_capacity(strategy0), node_capacity(strategy1))
    return np.zeros(W_PATH + nodes * (1 + NODE_FIELDS), dtype=np.int64)


@nb.njit(cache=True, inline="always")
def capacity_of(workspace):
    """Tree nodes this workspace holds."""
    return (workspace.shape[0] - W_PATH) // (1 + NODE_FIELDS)


@nb.njit(cache=True, inline="always")
def tree_of(workspace):
    """The tree region as a (capacity, NODE_FIELDS) view (no copy)."""
    nodes = capacity_of(workspace)
    start = W_PATH + nodes
    return workspace[start:start + nodes * NODE_FIELDS].reshape((nodes, NODE_FIELDS))


def last_statistics(workspace) -> list[tuple[int, int, int]]:
    """(legal index, visits, points) of the last search decision, for the play log."""
    n = int(workspace[W_N_STATS])
    return [(i, int(workspace[W_VISITS + i]), int(workspace[W_POINTS + i])) for i in range(n)]
