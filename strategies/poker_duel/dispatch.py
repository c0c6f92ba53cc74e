"""The compiled strategy switch of Poker Duel: strategy id -> policy call.

numba cannot cheaply call through a table of compiled functions, so the
match loop calls an if/elif chain over the ids of
`strategies/poker_duel/__init__.py`. A search agent's budget rides in the
id's upper bits (0: its default); its buffers and tree are the loop's
workspace (`search.new_workspace`, sized by `node_capacity`).

Two switches, as in Faction War, so that a command compiles only the agents
it plays (numba compiles a function with everything it calls, and ISMCTS
alone was 64 % of a greedy sweep's cold compile): `choose_scripted` holds the
agents that need only the view (random, greedy, tuned) and is all the
scripted match loop calls; `choose` adds the search agents and their
workspace, for the search loop and for callers outside a batch.
"""

import numba as nb

from sim import rng
from strategies import search_tree as T
from strategies.poker_duel import (BASE_MASK, ISMCTS_DEFAULT_BUDGET, PARAM_SHIFT, PIMC_DEFAULT_BUDGET,
                                   STRATEGY_ISMCTS, STRATEGY_PIMC, STRATEGY_PIMC_RANDOM,
                                   STRATEGY_RANDOM, STRATEGY_TUNED)
from strategies.poker_duel.kernel_policies import greedy_index, tuned_index
from strategies.poker_duel.search import ROLLOUT_GREEDY, ROLLOUT_RANDOM, choose_ismcts, choose_pimc, new_workspace


@nb.njit(cache=True, inline="always")
def reads_view(strategy):
    """False for random, which never looks at the view (the loop skips building it)."""
    return strategy != STRATEGY_RANDOM


@nb.njit(cache=True)
def node_capacity(strategy):
    """Tree nodes a strategy needs (`search_tree.nodes_for` with this game's ISMCTS id)."""
    return T.nodes_for(strategy, STRATEGY_ISMCTS)


@nb.njit(cache=True)
def loop_workspace(strategy0, strategy1):
    """The workspace a match loop between these two strategies allocates once."""
    return new_workspace(max(node_capacity(strategy0), node_capacity(strategy1)))


@nb.njit(cache=True, inline="always")
def is_search(strategy):
    """The search agents, which need the match loop's workspace."""
    base = strategy & BASE_MASK
    return base == STRATEGY_PIMC or base == STRATEGY_PIMC_RANDOM or base == STRATEGY_ISMCTS


def uses_search(strategy0: int, strategy1: int) -> bool:
    """True when a cell with these strategy ids needs the search loop (Python side)."""
    return any(int(s) & BASE_MASK in (STRATEGY_PIMC, STRATEGY_PIMC_RANDOM, STRATEGY_ISMCTS)
               for s in (strategy0, strategy1))


@nb.njit(cache=True)
def choose_scripted(strategy, view, rules, legal, n_legal, policy_rng, seat):
    """`choose` for the agents that need only the view: the scripted match loop's switch."""
    base = strategy & BASE_MASK
    if base == STRATEGY_RANDOM:
        return rng.nb_below(policy_rng, seat, n_legal)
    if base == STRATEGY_TUNED:
        return tuned_index(view, legal, n_legal, rules)  # weights from the rules array's policy block
    return greedy_index(view, legal, n_legal, rules)  # STRATEGY_GREEDY (ids are validated before a batch)


@nb.njit(cache=True)
def choose(strategy, view, rules, legal, n_legal, policy_rng, seat, workspace):
    """Index into `legal` chosen by `strategy` for `seat` (view: the seat's view; unread by random).
    After a search decision the workspace holds its per-action statistics, else W_N_STATS is 0."""
    base = strategy & BASE_MASK
    budget = strategy >> PARAM_SHIFT
    if base == STRATEGY_ISMCTS:
        return choose_ismcts(view, rules, legal, n_legal, policy_rng, seat,
                             budget if budget else ISMCTS_DEFAULT_BUDGET, ROLLOUT_GREEDY, workspace)
    if base == STRATEGY_PIMC or base == STRATEGY_PIMC_RANDOM:
        rollout = ROLLOUT_RANDOM if base == STRATEGY_PIMC_RANDOM else ROLLOUT_GREEDY
        return choose_pimc(view, rules, legal, n_legal, policy_rng, seat,
                           budget if budget else PIMC_DEFAULT_BUDGET, rollout, workspace)
    workspace[T.W_N_STATS] = 0
    return choose_scripted(strategy, view, rules, legal, n_legal, policy_rng, seat)
