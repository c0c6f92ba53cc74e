"""The Novel TCG's search agents: "pimc:N", "pimc-random:N" and "ismcts:N".

They work as Faction War's and Poker Duel's (docs/strategies.md), on the TCG's
kernel and its compiled sampler (`sim.novel_tcg.kernel_sampler`), with the
game-independent pieces from `strategies/search_tree.py` (workspace,
per-action statistics, tree, UCB with availability counts, final move by
visits):

- **pimc / pimc-random** (determinized flat Monte Carlo): N rollouts (at
  least one per action) round-robin over the legal actions; each samples a
  fresh world from the decider's view, applies the action and plays to the
  end with both seats greedy from their own views of the sampled world
  ("pimc"; "pimc-greedy" is an alias) or random ("pimc-random"). Greedy's
  own choice is kept unless another action has a strictly better mean.
- **ismcts** (single-observer information-set MCTS, Cowling, Powley and
  Whitehouse 2012): one tree over the decider's information sets, a node
  being the sequence of (mover, action) pairs since the decision; each of
  the N iterations samples a fresh world, descends with UCB over the
  children legal in that world (availability counts), adds one node (an
  untried legal action drawn uniformly), plays to the end with greedy
  rollouts and adds the result for each node's mover. Forced moves (one
  legal action) take no node. C = EXPLORATION; no cut-off (the turn cap
  ends every match). Final move: the most visited root child.

Only the turn player decides in this game, so a node's mover is the sampled
world's S_ACTIVE. Greedy rollouts decide on the field view (`nb_field_view`,
what greedy reads; the match loops give it the same), and greedy is the
shipped greedy (default weights), never the tuned one.

N counts rollouts / iterations, never time. No peeking: an agent reads only
its view (the full `nb_view`, whose unseen-card lists the sampler redeals)
and draws only from its seat's policy generator (samples, expansions, random
rollout moves; the sampled world's rule generator), so its decision is a
function of the view and that generator, and a sweep is bit-identical
across --jobs. Buffers and the tree live in the match loop's workspace
(allocated once per batch, `new_workspace`).
"""

import numba as nb

from sim import rng
from sim.novel_tcg import engine_cache
from sim.novel_tcg import kernel as K
from sim.novel_tcg import layout as L
from sim.novel_tcg.kernel_sampler import sample_world
from strategies import search_tree as T
from strategies.novel_tcg.policies import DEFAULT_WEIGHTS, nb_field_view, scripted_index

engine_cache.install()

LEGAL_CAPACITY = K.MAX_LEGAL  # as the match loop's buffer
EXPLORATION = 0.7     # UCB constant C for rewards in [0, 1] (as the other games')
ROLLOUT_RANDOM = 0
ROLLOUT_GREEDY = 1
MAX_ROLLOUT_STEPS = 200_000  # a safety net as the match loop's; the turn cap always ends a match first


@nb.njit(cache=True)
def new_workspace(nodes):
    """A workspace for the TCG's states, with room for `nodes` tree nodes."""
    return T.new_workspace(L.STATE_SIZE, LEGAL_CAPACITY, nodes)


@nb.njit(cache=True, inline="always")
def is_draw(world):
    """A drawn match, or one the safety net stopped (no winner)."""
    return world[L.S_WINNER] != 0 and world[L.S_WINNER] != 1


@nb.njit(cache=True)
def greedy_index(view, rules, legal, n, seat):
    """Greedy's pick (the shipped greedy, default weights) from `seat`'s view."""
    return scripted_index(view, rules, legal, n, seat, False, DEFAULT_WEIGHTS)


@nb.njit(cache=True)
def random_rollout(world, rules, legal, policy_rng, seat):
    """Play `world` to the end, every decision uniform from policy_rng[seat]; returns the actions played."""
    actions = 0
    while world[L.S_PHASE] != L.PH_OVER and actions < MAX_ROLLOUT_STEPS:
        n = K.legal_actions(world, rules, legal)
        index = 0 if n == 1 else rng.nb_below(policy_rng, seat, n)
        K.apply_action(world, rules, legal[index])
        actions += 1
    return actions


@nb.njit(cache=True)
def greedy_rollout(world, rules, legal, scratch_view):
    """Play `world` to the end, each decision greedy from the turn player's own view of it."""
    steps = 0
    while world[L.S_PHASE] != L.PH_OVER and steps < MAX_ROLLOUT_STEPS:
        n = K.legal_actions(world, rules, legal)
        index = 0
        if n > 1:
            mover = world[L.S_ACTIVE]
            nb_field_view(world, mover, scratch_view)
            index = greedy_index(scratch_view, rules, legal, n, mover)
        K.apply_action(world, rules, legal[index])
        steps += 1


@nb.njit(cache=True)
def roll_out(world, rules, legal, policy_rng, seat, rollout, scratch_view):
    if rollout == ROLLOUT_GREEDY:
        greedy_rollout(world, rules, legal, scratch_view)
    else:
        random_rollout(world, rules, legal, policy_rng, seat)


@nb.njit(cache=True)
def pimc_statistics(view, rules, legal, n_legal, policy_rng, seat, budget, rollout, workspace):
    """Fill the workspace's per-action rollout sums and counts."""
    world, buffer, scratch = T.world_of(workspace), T.legal_of(workspace), T.scratch_of(workspace)
    T.pimc_reset(workspace, n_legal)
    for r in range(T.pimc_rollouts(budget, n_legal)):
        i = T.pimc_action_index(r, n_legal)
        sample_world(view, rules, seat, policy_rng, seat, world)
        K.apply_action(world, rules, legal[i])
        roll_out(world, rules, buffer, policy_rng, seat, rollout, scratch)
        T.pimc_add(workspace, i, T.points_for(world[L.S_WINNER], seat, is_draw(world)))


@nb.njit(cache=True)
def choose_pimc(view, rules, legal, n_legal, policy_rng, seat, budget, rollout, workspace):
    """Index of the legal action with the best mean rollout result (ties: greedy's pick)."""
    pimc_statistics(view, rules, legal, n_legal, policy_rng, seat, budget, rollout, workspace)
    return T.pimc_best(workspace, n_legal, greedy_index(view, rules, legal, n_legal, seat))


@nb.njit(cache=True)
def ismcts_search(view, rules, seat, policy_rng, budget, rollout, exploration, workspace):
    """`budget` iterations; node 0's children hold the root statistics."""
    tree, capacity = T.tree_of(workspace), workspace[T.W_NODES]
    world, legal, scratch = T.world_of(workspace), T.legal_of(workspace), T.scratch_of(workspace)
    mark, path = T.mark_of(workspace), T.path_of(workspace)
    T.reset_node(tree, 0, -1, -1)
    n_nodes = 1
    for _ in range(budget):
        sample_world(view, rules, seat, policy_rng, seat, world)
        node, depth, expanded = 0, 0, False
        while world[L.S_PHASE] != L.PH_OVER:
            n = K.legal_actions(world, rules, legal)
            if n == 1:
                K.apply_action(world, rules, legal[0])
                continue
            if expanded:
                break  # one new node per iteration; the rollout takes over
            mover = world[L.S_ACTIVE]
            untried = T.mark_children(tree, node, mover, legal, n, mark)
            if untried > 0 and n_nodes < capacity:
                i = T.nth_untried(mark, n, rng.nb_below(policy_rng, seat, untried))
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
        if world[L.S_PHASE] != L.PH_OVER:
            roll_out(world, rules, legal, policy_rng, seat, rollout, scratch)
        T.backpropagate(tree, path, depth, world[L.S_WINNER], is_draw(world))


@nb.njit(cache=True)
def choose_ismcts(view, rules, legal, n_legal, policy_rng, seat, budget, rollout, workspace):
    """Index of the most visited root child; the statistics stay in the workspace."""
    ismcts_search(view, rules, seat, policy_rng, budget, rollout, EXPLORATION, workspace)
    T.root_statistics(workspace, legal, n_legal)
    return T.most_visited(workspace, n_legal)
