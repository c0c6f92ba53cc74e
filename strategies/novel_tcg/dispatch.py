"""The compiled strategy switch of the Novel TCG with the search agents: strategy id -> policy call.

numba cannot cheaply call through a table of compiled functions, so the
search match loop calls an if/elif chain over the ids of
`strategies/novel_tcg/__init__.py`. A search agent's budget rides in the id's
upper bits (0: its default); its buffers and tree are the loop's workspace
(`search.new_workspace`, sized by `node_capacity`).

Two switches, as in the other games, so that a command compiles only the
agents it plays (numba compiles a function with everything it calls):
`policies.choose` holds the scripted agents (random, greedy, defensive, tuned)
and is all the scripted match loop (`batch.play_match_in`) calls; `choose`
here adds the search agents and their workspace, for the search loop
(`search_batch.py`) and for callers outside a batch.
"""

import numba as nb

from sim.novel_tcg import engine_cache
from strategies import search_tree as T
from strategies.novel_tcg import (BASE_MASK, ISMCTS_DEFAULT_BUDGET, PARAM_SHIFT, PIMC_DEFAULT_BUDGET,
                                  STRATEGY_ISMCTS, STRATEGY_PIMC, STRATEGY_PIMC_RANDOM)
from strategies.novel_tcg import policies
from strategies.novel_tcg.search import ROLLOUT_GREEDY, ROLLOUT_RANDOM, choose_ismcts, choose_pimc, new_workspace

engine_cache.install()


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
    """The search agents, which need the full view (its unseen-card lists) and the workspace."""
    base = strategy & BASE_MASK
    return base == STRATEGY_PIMC or base == STRATEGY_PIMC_RANDOM or base == STRATEGY_ISMCTS


@nb.njit(cache=True)
def choose(strategy, view, rules, legal, n_legal, policy_rng, seat, workspace):
    """Index into `legal` chosen by `strategy` for `seat`. A search agent needs `view` to be the
    full `nb_view`; a scripted one reads only the field (either view). After a search decision
    the workspace holds its per-action statistics, else W_N_STATS is 0."""
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
    return policies.choose(strategy, view, rules, legal, n_legal, policy_rng, seat)
