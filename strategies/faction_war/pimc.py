"""The "pimc:N" and "pimc-random:N" strategies: determinized flat Monte Carlo.

At each decision with several legal actions, N rollouts (at least one per
action) are spread round-robin over the actions in list order. Each rollout
samples a fresh determinization of everything the decider cannot see from
its view (`sim.faction_war.sampler.sample_world`: the opponent's hand a
uniform subset of the unseen cards, uniform deck orders, a fresh rule
generator word), applies the action there and plays the match to the end with a
fast policy for both seats: greedy (`strategies/faction_war/greedy.py`, each seat
from its own view of the sampled world; "pimc", alias "pimc-greedy") or uniformly
random ("pimc-random": cheaper, but a poor evaluator in this game). A rollout
scores 2 for a win of the decider, 1 for a draw, 0 for a loss. Greedy's own
choice (from the same view) is kept unless another action has a strictly
better mean: with few rollouts many actions tie (every one won, or every one
lost), and a tie must not go to whatever comes first in the list (END, in the
placement phase). N is a budget in rollouts, never in time, so a result does
not depend on the machine.

No peeking: the policy reads only its view (never the true state) and draws
only from its seat's own policy generator (`policy_rng[seat]`, started from
the match seed like every strategy's), so the decision is a function of the
view and that generator; the real match's rule generator is never touched.
Everything runs compiled inside the match loop; the buffers (one world
state, one legal-action list, a scratch view, the per-action sums) live in
the loop's workspace (`workspace.py`), allocated once per batch, and the
per-action sums stay there for the play log. The game-independent pieces (the
workspace layout, a rollout's points, the round-robin and the best-mean rule)
are `strategies/search_tree.py`'s, shared with Poker Duel.
"""

import numba as nb

from sim.faction_war import kernel as K
from sim.faction_war.layout import S_DECIDER, S_WINNER
from sim.faction_war.sampler import sample_world
from sim.rng import nb_below
from strategies import search_tree as T
from strategies.faction_war.greedy import choose_greedy
from strategies.faction_war.view import build_view

DRAW = 2  # S_WINNER of a drawn match
ROLLOUT_RANDOM = 0
ROLLOUT_GREEDY = 1


@nb.njit(cache=True)
def random_rollout(world, rules, legal, rng, slot):
    """Play `world` to the end, every decision uniform from rng[slot]; returns the number
    of actions played (the bench's rollout speed); the result is world[S_WINNER]."""
    actions = 0
    while True:
        n = K.legal_actions(world, rules, legal)
        if n == 0:
            return actions
        index = 0 if n == 1 else nb_below(rng, slot, n)
        K.apply_action(world, rules, legal[index])
        actions += 1


@nb.njit(cache=True)
def greedy_rollout(world, rules, legal, rng, scratch_view):
    """Play `world` to the end, every decision greedy from the decider's view; returns S_WINNER."""
    while True:
        n = K.legal_actions(world, rules, legal)
        if n == 0:
            return world[S_WINNER]
        index = 0
        if n > 1:
            decider = world[S_DECIDER]
            build_view(world, rules, decider, scratch_view)
            index = choose_greedy(scratch_view, rules, legal, n, rng, decider)
        K.apply_action(world, rules, legal[index])


@nb.njit(cache=True)
def rollout_points(view, rules, seat, action, world, legal, rng, slot, policy, scratch_view):
    """One rollout of `action`: a fresh determinization, the action, play to the end."""
    sample_world(view, rules, seat, rng, slot, world)
    K.apply_action(world, rules, action)
    if policy == ROLLOUT_GREEDY:
        greedy_rollout(world, rules, legal, rng, scratch_view)
    else:
        random_rollout(world, rules, legal, rng, slot)
    winner = world[S_WINNER]
    return T.points_for(winner, seat, winner == DRAW)


@nb.njit(cache=True)
def action_values(view, rules, legal, n_legal, policy_rng, seat, budget, policy, workspace):
    """Fill the workspace's per-action rollout sums and counts (`search_tree.points_of` / `visits_of`)."""
    world, buffer, scratch_view = T.world_of(workspace), T.legal_of(workspace), T.scratch_of(workspace)
    T.pimc_reset(workspace, n_legal)
    for r in range(T.pimc_rollouts(budget, n_legal)):
        i = T.pimc_action_index(r, n_legal)
        T.pimc_add(workspace, i, rollout_points(view, rules, seat, legal[i], world, buffer, policy_rng, seat,
                                                policy, scratch_view))


@nb.njit(cache=True)
def choose_pimc(view, rules, legal, n_legal, policy_rng, seat, budget, policy, workspace):
    """Index of the legal action with the best mean rollout result (ties: greedy's pick)."""
    action_values(view, rules, legal, n_legal, policy_rng, seat, budget, policy, workspace)
    greedy = choose_greedy(view, rules, legal, n_legal, policy_rng, seat)  # writes only view scratch
    return T.pimc_best(workspace, n_legal, greedy)
