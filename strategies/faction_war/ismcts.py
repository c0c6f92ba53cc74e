"""The "ismcts:N" strategy: single-observer information-set MCTS.

Cowling, Powley and Whitehouse (2012), SO-ISMCTS. One tree per decision,
over the decider's information sets: a node is the sequence of (mover,
action) pairs from the decision, both seats' moves included; the same
sequence in different sampled worlds is the same node. Each of the N
iterations:

1. samples a fresh determinization from the decider's view
   (`sim.faction_war.sampler.sample_world`);
2. descends from the root in that world: at a decision with several legal
   actions, every child whose action is legal *in this world* is available
   (its availability count rises by one); if some legal action has no child
   yet, one of those is drawn uniformly, added and taken (expansion), else
   the available child with the highest UCB is taken,
       points / (2 visits) + C * sqrt(ln(availability) / visits),
   its value being the result for the seat that moves there (mover). Forced
   moves (a single legal action) are played without a node;
3. plays the world to the end from the new node with the rollout policy
   (greedy for both seats, each from its own view of the sampled world:
   measured much stronger than random rollouts, see docs/strategies.md);
4. adds the result (2 win, 1 draw, 0 loss, for each node's mover) and one
   visit to every node of the descent.

The final move is the root child with the most visits (ties: the better
mean, then the smaller action). C = EXPLORATION (rewards in [0, 1]). There
is no cut-off: a rollout plays to the end (a greedy match is ~25 turns).

No peeking: the policy reads only its view and draws only from its seat's
policy generator (samples, expansions, rollouts), like `pimc.py`. Memory:
the tree and buffers live in the match loop's workspace (`workspace.py`),
allocated once per batch with room for N + 2 nodes (an iteration adds at
most one), reset per decision.
"""

import math

import numba as nb

from sim.faction_war import kernel as K
from sim.faction_war.layout import S_DECIDER, S_WINNER, STATE_SIZE
from sim.faction_war.sampler import sample_world
from sim.rng import nb_below
from strategies.faction_war.pimc import DRAW, DRAW_POINTS, WIN_POINTS, ROLLOUT_GREEDY, greedy_rollout, random_rollout
from strategies.faction_war.workspace import (LEGAL_CAPACITY, W_LEGAL, W_MARK, W_N_STATS, W_PATH, W_POINTS,
                                              W_SCRATCH_VIEW, W_VISITS, W_WORLD, capacity_of, tree_of)

EXPLORATION = 0.7  # UCB constant C for rewards in [0, 1] (measured, docs/strategies.md)
# node fields
N_ACTION = 0
N_MOVER = 1
N_FIRST_CHILD = 2
N_NEXT_SIBLING = 3
N_VISITS = 4
N_POINTS = 5
N_AVAIL = 6
NO_NODE = -1


@nb.njit(cache=True, inline="always")
def _reset_node(tree, node, action, mover):
    tree[node, N_ACTION] = action
    tree[node, N_MOVER] = mover
    tree[node, N_FIRST_CHILD] = NO_NODE
    tree[node, N_NEXT_SIBLING] = NO_NODE
    tree[node, N_VISITS] = 0
    tree[node, N_POINTS] = 0
    tree[node, N_AVAIL] = 0


@nb.njit(cache=True)
def _index_of(legal, n, action):
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
def _mark_children(tree, node, mover, legal, n, mark):
    """mark[i] = the child for legal[i] (or NO_NODE); each found child is available once more.
    Returns how many legal actions have no child yet."""
    for i in range(n):
        mark[i] = NO_NODE
    child = tree[node, N_FIRST_CHILD]
    while child != NO_NODE:
        if tree[child, N_MOVER] == mover:
            i = _index_of(legal, n, tree[child, N_ACTION])
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
def _ucb_child(tree, mark, n, exploration):
    best, best_score = NO_NODE, -1.0
    for i in range(n):
        child = mark[i]
        if child == NO_NODE:
            continue
        visits = tree[child, N_VISITS]
        score = tree[child, N_POINTS] / (2.0 * visits) + exploration * math.sqrt(
            math.log(tree[child, N_AVAIL]) / visits)
        if score > best_score:
            best, best_score = child, score
    return best


@nb.njit(cache=True)
def _nth_untried(mark, n, k):
    for i in range(n):
        if mark[i] == NO_NODE:
            if k == 0:
                return i
            k -= 1
    return -1


@nb.njit(cache=True)
def search(view, rules, seat, policy_rng, budget, rollout, exploration, workspace):
    """Run `budget` iterations; the tree's root (node 0) children hold the statistics."""
    tree = tree_of(workspace)
    capacity = capacity_of(workspace)
    world = workspace[W_WORLD:W_WORLD + STATE_SIZE]
    legal = workspace[W_LEGAL:W_LEGAL + LEGAL_CAPACITY]
    scratch_view = workspace[W_SCRATCH_VIEW:W_SCRATCH_VIEW + STATE_SIZE]
    mark = workspace[W_MARK:W_MARK + LEGAL_CAPACITY]
    path = workspace[W_PATH:W_PATH + capacity]
    _reset_node(tree, 0, -1, -1)
    n_nodes = 1
    for _ in range(budget):
        sample_world(view, rules, seat, policy_rng, seat, world)
        node, depth, expanded = 0, 0, False
        while True:
            n = K.legal_actions(world, rules, legal)
            if n == 0:
                break
            if n == 1:
                K.apply_action(world, rules, legal[0])
                continue
            if expanded:
                break  # one new node per iteration; the rollout takes over
            mover = world[S_DECIDER]
            untried = _mark_children(tree, node, mover, legal, n, mark)
            if untried > 0 and n_nodes < capacity:
                i = _nth_untried(mark, n, nb_below(policy_rng, seat, untried))
                child = n_nodes
                n_nodes += 1
                _reset_node(tree, child, legal[i], mover)
                tree[child, N_AVAIL] = 1
                tree[child, N_NEXT_SIBLING] = tree[node, N_FIRST_CHILD]
                tree[node, N_FIRST_CHILD] = child
                expanded = True
            else:
                child = _ucb_child(tree, mark, n, exploration)
                if child == NO_NODE:
                    break  # tree full and nothing here yet: roll out
            K.apply_action(world, rules, tree[child, N_ACTION])
            depth += 1
            path[depth] = child
            node = child
        if world[S_WINNER] < 0:
            if rollout == ROLLOUT_GREEDY:
                greedy_rollout(world, rules, legal, policy_rng, scratch_view)
            else:
                random_rollout(world, rules, legal, policy_rng, seat)
        winner = world[S_WINNER]
        for d in range(1, depth + 1):
            node = path[d]
            tree[node, N_VISITS] += 1
            if winner == tree[node, N_MOVER]:
                tree[node, N_POINTS] += WIN_POINTS
            elif winner == DRAW:
                tree[node, N_POINTS] += DRAW_POINTS


@nb.njit(cache=True)
def choose_ismcts(view, rules, legal, n_legal, policy_rng, seat, budget, rollout, workspace):
    """Index of the legal action whose root child has the most visits; the per-action
    statistics stay in the workspace (W_VISITS / W_POINTS, W_N_STATS)."""
    search(view, rules, seat, policy_rng, budget, rollout, EXPLORATION, workspace)
    tree = tree_of(workspace)
    for i in range(n_legal):
        workspace[W_VISITS + i] = 0
        workspace[W_POINTS + i] = 0
    child = tree[0, N_FIRST_CHILD]
    while child != NO_NODE:  # root children are the decider's actions, legal in every world
        i = _index_of(legal, n_legal, tree[child, N_ACTION])
        if i >= 0:
            workspace[W_VISITS + i] = tree[child, N_VISITS]
            workspace[W_POINTS + i] = tree[child, N_POINTS]
        child = tree[child, N_NEXT_SIBLING]
    workspace[W_N_STATS] = n_legal
    best = 0
    for i in range(1, n_legal):
        visits, points = workspace[W_VISITS + i], workspace[W_POINTS + i]
        best_visits, best_points = workspace[W_VISITS + best], workspace[W_POINTS + best]
        if visits > best_visits or (visits == best_visits and points > best_points):
            best = i
    return best
