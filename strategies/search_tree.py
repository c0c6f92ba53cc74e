"""Game-independent pieces of the search agents (PIMC and SO-ISMCTS).

A game's search agents (`strategies/<game>/search.py`) own the loop that
samples worlds, lists legal actions and plays rollouts with that game's
engine; everything that does not depend on the game lives here, compiled
with numba, allocation-free:

- the **workspace**: one int64 array per match loop holding a sampled world,
  a legal-action list, a scratch view, the per-action statistics and the
  ISMCTS tree, sized by the game (`new_workspace(state_size, legal_capacity,
  nodes)`) and read through the accessors below (its sizes live in its
  header, so one compiled accessor serves every game);
- **results**: a rollout scores WIN_POINTS for the decider's win, DRAW_POINTS
  for a draw, 0 for a loss (`points_for`);
- **PIMC's per-action statistics**: N rollouts (at least one per action)
  round-robin over the actions (`pimc_action_index`), best mean with a
  default index kept on ties (`pimc_best`);
- the **ISMCTS tree**: node layout (N_*) and ops — reset, children marked
  by availability in the current world (`mark_children`: the availability
  count of each child legal here rises by one), expansion of an untried
  action (`expand`), UCB with availability counts (`ucb_child`),
  back-propagation (`backpropagate`), the root's statistics per legal
  action (`root_statistics`) and the final move by visit count
  (`most_visited`).

Workspace layout (slots W_*, regions from the header):
    [W_N_STATS]         legal actions with statistics from the last search decision
                        (0 after a decision that did not search)
    [W_DECISIONS + s]   decisions asked of seat s (the match loop counts them; bench)
    [W_LEGAL_CAPACITY] [W_STATE_SIZE] [W_NODES]   the sizes this workspace was made for
    visits[legal capacity]  rollouts / iterations through legal action i
    points[legal capacity]  their points for the decider
    world[state size]       one sampled world
    legal[legal capacity]   its legal actions
    scratch[state size]     a view for greedy rollouts
    mark[legal capacity]    per legal index: the tree child for it, or NO_NODE
    path[nodes]             the nodes of one ISMCTS descent
    tree[nodes x NODE_FIELDS]
"""

import math

import numba as nb
import numpy as np

from strategies import BASE_MASK, ISMCTS_DEFAULT_BUDGET, PARAM_SHIFT

WIN_POINTS = 2
DRAW_POINTS = 1

# ---- workspace header ----------------------------------------------------------------
W_N_STATS = 0
W_DECISIONS = 1  # + seat
W_LEGAL_CAPACITY = 3
W_STATE_SIZE = 4
W_NODES = 5
W_HEADER = 8
SPARE_NODES = 2  # the root, and one spare

# ---- tree node fields ----------------------------------------------------------------
N_ACTION = 0
N_MOVER = 1
N_FIRST_CHILD = 2
N_NEXT_SIBLING = 3
N_VISITS = 4
N_POINTS = 5
N_AVAIL = 6
NODE_FIELDS = 7
NO_NODE = -1


@nb.njit(cache=True)
def nodes_for(strategy, ismcts_id):
    """Tree nodes a strategy id needs, the game's ISMCTS base id given: an ISMCTS iteration
    adds at most one node (its budget in the id's upper bits, 0: the default); 0 for any
    other agent."""
    if strategy & BASE_MASK != ismcts_id:
        return 0
    budget = strategy >> PARAM_SHIFT
    return (budget if budget else ISMCTS_DEFAULT_BUDGET) + SPARE_NODES


@nb.njit(cache=True)
def new_workspace(state_size, legal_capacity, nodes):
    """A zeroed workspace (allocated once per match loop)."""
    size = W_HEADER + 4 * legal_capacity + 2 * state_size + nodes * (1 + NODE_FIELDS)
    workspace = np.zeros(size, dtype=np.int64)
    workspace[W_LEGAL_CAPACITY] = legal_capacity
    workspace[W_STATE_SIZE] = state_size
    workspace[W_NODES] = nodes
    return workspace


@nb.njit(cache=True, inline="always")
def visits_of(workspace):
    cap = workspace[W_LEGAL_CAPACITY]
    return workspace[W_HEADER:W_HEADER + cap]


@nb.njit(cache=True, inline="always")
def points_of(workspace):
    cap = workspace[W_LEGAL_CAPACITY]
    return workspace[W_HEADER + cap:W_HEADER + 2 * cap]


@nb.njit(cache=True, inline="always")
def world_of(workspace):
    cap, size = workspace[W_LEGAL_CAPACITY], workspace[W_STATE_SIZE]
    start = W_HEADER + 2 * cap
    return workspace[start:start + size]


@nb.njit(cache=True, inline="always")
def legal_of(workspace):
    cap, size = workspace[W_LEGAL_CAPACITY], workspace[W_STATE_SIZE]
    start = W_HEADER + 2 * cap + size
    return workspace[start:start + cap]


@nb.njit(cache=True, inline="always")
def scratch_of(workspace):
    cap, size = workspace[W_LEGAL_CAPACITY], workspace[W_STATE_SIZE]
    start = W_HEADER + 3 * cap + size
    return workspace[start:start + size]


@nb.njit(cache=True, inline="always")
def mark_of(workspace):
    cap, size = workspace[W_LEGAL_CAPACITY], workspace[W_STATE_SIZE]
    start = W_HEADER + 3 * cap + 2 * size
    return workspace[start:start + cap]


@nb.njit(cache=True, inline="always")
def path_of(workspace):
    cap, size, nodes = workspace[W_LEGAL_CAPACITY], workspace[W_STATE_SIZE], workspace[W_NODES]
    start = W_HEADER + 4 * cap + 2 * size
    return workspace[start:start + nodes]


@nb.njit(cache=True, inline="always")
def tree_of(workspace):
    """The tree region as a (nodes, NODE_FIELDS) view (no copy)."""
    cap, size, nodes = workspace[W_LEGAL_CAPACITY], workspace[W_STATE_SIZE], workspace[W_NODES]
    start = W_HEADER + 4 * cap + 2 * size + nodes
    return workspace[start:start + nodes * NODE_FIELDS].reshape((nodes, NODE_FIELDS))


def last_statistics(workspace) -> list[tuple[int, int, int]]:
    """(legal index, visits, points) of the last search decision, for the play log."""
    n = int(workspace[W_N_STATS])
    cap = int(workspace[W_LEGAL_CAPACITY])
    return [(i, int(workspace[W_HEADER + i]), int(workspace[W_HEADER + cap + i])) for i in range(n)]


# ---- results ---------------------------------------------------------------------------
@nb.njit(cache=True, inline="always")
def points_for(winner, seat, is_draw):
    """A rollout's points for `seat`: 2 win, 1 draw, 0 loss."""
    if is_draw:
        return DRAW_POINTS
    return WIN_POINTS if winner == seat else 0


# ---- PIMC --------------------------------------------------------------------------------
@nb.njit(cache=True)
def pimc_reset(workspace, n_legal):
    visits, points = visits_of(workspace), points_of(workspace)
    for i in range(n_legal):
        visits[i] = 0
        points[i] = 0
    workspace[W_N_STATS] = n_legal


@nb.njit(cache=True, inline="always")
def pimc_rollouts(budget, n_legal):
    """Rollouts of a decision: the budget, at least one per action."""
    return max(budget, n_legal)


@nb.njit(cache=True, inline="always")
def pimc_action_index(r, n_legal):
    """The legal index rollout r evaluates (round-robin in list order)."""
    return r % n_legal


@nb.njit(cache=True, inline="always")
def pimc_add(workspace, i, points):
    visits_of(workspace)[i] += 1
    points_of(workspace)[i] += points


@nb.njit(cache=True)
def pimc_best(workspace, n_legal, default):
    """The index with a strictly better mean than `default` (the best such), else `default`:
    with few rollouts many actions tie, and a tie must not go to the list's first action."""
    visits, points = visits_of(workspace), points_of(workspace)
    best = default
    for i in range(n_legal):
        if points[i] * visits[best] > points[best] * visits[i]:
            best = i
    return best


# ---- ISMCTS tree ---------------------------------------------------------------------------
@nb.njit(cache=True, inline="always")
def reset_node(tree, node, action, mover):
    tree[node, N_ACTION] = action
    tree[node, N_MOVER] = mover
    tree[node, N_FIRST_CHILD] = NO_NODE
    tree[node, N_NEXT_SIBLING] = NO_NODE
    tree[node, N_VISITS] = 0
    tree[node, N_POINTS] = 0
    tree[node, N_AVAIL] = 0


@nb.njit(cache=True)
def index_of(legal, n, action):
    """Index of `action` in the ascending list legal[:n], or -1."""
    low, high = 0, n - 1
    while low <= high:
        middle = (low + high) // 2
        value = legal[middle]
        if value == action:
            return middle
        if value < action:
            low = middle + 1
        else:
            high = middle - 1
    return -1


@nb.njit(cache=True)
def mark_children(tree, node, mover, legal, n, mark):
    """mark[i] = the child of `node` for (mover, legal[i]) or NO_NODE; each child found is
    available once more. Returns how many legal actions have no child yet."""
    for i in range(n):
        mark[i] = NO_NODE
    child = tree[node, N_FIRST_CHILD]
    while child != NO_NODE:
        if tree[child, N_MOVER] == mover:
            i = index_of(legal, n, tree[child, N_ACTION])
            if i >= 0:
                mark[i] = child
                tree[child, N_AVAIL] += 1
        child = tree[child, N_NEXT_SIBLING]
    untried = 0
    for i in range(n):
        if mark[i] == NO_NODE:
            untried += 1
    return untried


@nb.njit(cache=True)
def nth_untried(mark, n, k):
    """The legal index of the k-th action without a child."""
    for i in range(n):
        if mark[i] == NO_NODE:
            if k == 0:
                return i
            k -= 1
    return -1


@nb.njit(cache=True)
def expand(tree, node, new_node, action, mover):
    """Add `new_node` as a child of `node` for (mover, action), available once."""
    reset_node(tree, new_node, action, mover)
    tree[new_node, N_AVAIL] = 1
    tree[new_node, N_NEXT_SIBLING] = tree[node, N_FIRST_CHILD]
    tree[node, N_FIRST_CHILD] = new_node


@nb.njit(cache=True)
def ucb_child(tree, mark, n, exploration):
    """The marked child with the highest points / (2 visits) + C sqrt(ln(availability) / visits)."""
    best, best_score = NO_NODE, -1.0
    for i in range(n):
        child = mark[i]
        if child == NO_NODE:
            continue
        visits = tree[child, N_VISITS]
        if visits == 0:
            return child
        score = tree[child, N_POINTS] / (2.0 * visits) + exploration * math.sqrt(
            math.log(tree[child, N_AVAIL]) / visits)
        if score > best_score:
            best, best_score = child, score
    return best


@nb.njit(cache=True)
def backpropagate(tree, path, depth, winner, is_draw):
    """One visit and the result for each node's mover along path[1..depth]."""
    for d in range(1, depth + 1):
        node = path[d]
        tree[node, N_VISITS] += 1
        tree[node, N_POINTS] += points_for(winner, tree[node, N_MOVER], is_draw)


@nb.njit(cache=True)
def root_statistics(workspace, legal, n_legal):
    """Copy the root children's visits / points to the workspace's per-action statistics."""
    tree = tree_of(workspace)
    visits, points = visits_of(workspace), points_of(workspace)
    for i in range(n_legal):
        visits[i] = 0
        points[i] = 0
    child = tree[0, N_FIRST_CHILD]
    while child != NO_NODE:  # the root's children are the decider's actions, legal in every world
        i = index_of(legal, n_legal, tree[child, N_ACTION])
        if i >= 0:
            visits[i] = tree[child, N_VISITS]
            points[i] = tree[child, N_POINTS]
        child = tree[child, N_NEXT_SIBLING]
    workspace[W_N_STATS] = n_legal


@nb.njit(cache=True)
def most_visited(workspace, n_legal):
    """The final move: most visits, ties by more points, then the smaller index."""
    visits, points = visits_of(workspace), points_of(workspace)
    best = 0
    for i in range(1, n_legal):
        if visits[i] > visits[best] or (visits[i] == visits[best] and points[i] > points[best]):
            best = i
    return best
