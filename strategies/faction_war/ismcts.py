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

The tree itself (node layout, availability marks, expansion, UCB,
back-propagation, root statistics, the final move) is the game-independent
`strategies/search_tree.py`, which Poker Duel's ISMCTS uses too; this module
holds the loop over Faction War's engine and sampler.
"""

import numba as nb

from sim.faction_war import kernel as K
from sim.faction_war.layout import S_DECIDER, S_WINNER
from sim.faction_war.sampler import sample_world
from sim.rng import nb_below
from strategies import search_tree as T
from strategies.faction_war.pimc import DRAW, ROLLOUT_GREEDY, greedy_rollout, random_rollout

EXPLORATION = 0.7  # UCB constant C for rewards in [0, 1] (measured, docs/strategies.md)


@nb.njit(cache=True)
def search(view, rules, seat, policy_rng, budget, rollout, exploration, workspace):
    """Run `budget` iterations; the tree's root (node 0) children hold the statistics."""
    tree, capacity = T.tree_of(workspace), workspace[T.W_NODES]
    world, legal, scratch_view = T.world_of(workspace), T.legal_of(workspace), T.scratch_of(workspace)
    mark, path = T.mark_of(workspace), T.path_of(workspace)
    T.reset_node(tree, 0, -1, -1)
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
            untried = T.mark_children(tree, node, mover, legal, n, mark)
            if untried > 0 and n_nodes < capacity:
                i = T.nth_untried(mark, n, nb_below(policy_rng, seat, untried))
                child = n_nodes
                n_nodes += 1
                T.expand(tree, node, child, legal[i], mover)
                expanded = True
            else:
                child = T.ucb_child(tree, mark, n, exploration)
                if child == T.NO_NODE:
                    break  # tree full and nothing here yet: roll out
            K.apply_action(world, rules, tree[child, T.N_ACTION])
            depth += 1
            path[depth] = child
            node = child
        if world[S_WINNER] < 0:
            if rollout == ROLLOUT_GREEDY:
                greedy_rollout(world, rules, legal, policy_rng, scratch_view)
            else:
                random_rollout(world, rules, legal, policy_rng, seat)
        winner = world[S_WINNER]
        T.backpropagate(tree, path, depth, winner, winner == DRAW)


@nb.njit(cache=True)
def choose_ismcts(view, rules, legal, n_legal, policy_rng, seat, budget, rollout, workspace):
    """Index of the legal action whose root child has the most visits; the per-action
    statistics stay in the workspace (`search_tree.root_statistics`)."""
    search(view, rules, seat, policy_rng, budget, rollout, EXPLORATION, workspace)
    T.root_statistics(workspace, legal, n_legal)
    return T.most_visited(workspace, n_legal)
