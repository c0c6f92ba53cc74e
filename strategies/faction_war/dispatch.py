"""The kernel-side strategy switch: strategy id -> policy call.

numba cannot cheaply call through a table of compiled functions, so the
match loop calls `choose`, an if/elif chain over the ids of
`strategies/__init__.py`. Adding a strategy: write its module, give it an id
there, add a branch here. Ids are validated before a batch starts
(`batch.cell_array`), so an unknown id never reaches this switch.

Two switches, so that a command compiles only the agents it plays: numba
compiles a function with everything it calls, and the search agents (with
their sampler, tree and rollouts) cost more compile time than the whole
engine. `choose_scripted` holds the agents that need nothing but the view
(random, greedy and its variants, tuned): the scripted match loop
(`batch.play_match_scripted`) calls only it. `choose_in_loop` adds the search
agents and their workspace: the search loop (`batch.play_match_search`), used
only for a cell with a search agent. `choose` (any agent, outside a loop)
serves tests and scripts.
"""

import numba as nb

from strategies.faction_war import (BASE_MASK, ISMCTS_DEFAULT_BUDGET, PARAM_SHIFT, PIMC_DEFAULT_BUDGET,
                                    STRATEGY_DESTINY, STRATEGY_EXILE, STRATEGY_GREEDY, STRATEGY_ISMCTS, STRATEGY_PIMC,
                                    STRATEGY_PIMC_RANDOM, STRATEGY_RANDOM, STRATEGY_TUNED)
from strategies.faction_war.destiny import choose_destiny
from strategies.faction_war.exile import choose_exile
from strategies.faction_war.greedy import choose_greedy, choose_tuned
from strategies.faction_war.ismcts import choose_ismcts
from strategies.faction_war.pimc import ROLLOUT_GREEDY, ROLLOUT_RANDOM, choose_pimc
from strategies.faction_war.random_policy import choose_random
from strategies.faction_war.workspace import new_workspace
from strategies.search_tree import W_N_STATS


@nb.njit(cache=True, inline="always")
def reads_view(strategy):
    """False for policies that never look at the view (the loop skips building it)."""
    return strategy != STRATEGY_RANDOM


@nb.njit(cache=True)
def choose(strategy, view, rules, legal, n_legal, policy_rng, seat):
    """Index into `legal` chosen by strategy `strategy` for seat `seat` (any agent)."""
    if is_search(strategy):  # outside a match loop (tests, scripts): a workspace of its own
        return choose_search(strategy, view, rules, legal, n_legal, policy_rng, seat, new_workspace(strategy, strategy))
    return choose_scripted(strategy, view, rules, legal, n_legal, policy_rng, seat)


@nb.njit(cache=True)
def choose_scripted(strategy, view, rules, legal, n_legal, policy_rng, seat):
    """`choose` for the scripted agents (no search): the scripted match loop's switch."""
    if strategy == STRATEGY_GREEDY:
        return choose_greedy(view, rules, legal, n_legal, policy_rng, seat)
    if strategy == STRATEGY_RANDOM:
        return choose_random(view, rules, legal, n_legal, policy_rng, seat)
    if strategy == STRATEGY_DESTINY:
        return choose_destiny(view, rules, legal, n_legal, policy_rng, seat)
    if strategy == STRATEGY_EXILE:
        return choose_exile(view, rules, legal, n_legal, policy_rng, seat)
    if strategy == STRATEGY_TUNED:  # weights from the rules array's policy block (weights.py)
        return choose_tuned(view, rules, legal, n_legal, policy_rng, seat)
    return 0  # unreachable: ids are validated before a batch, and search ids take the search loop


@nb.njit(cache=True, inline="always")
def is_search(strategy):
    """The search agents, which need the match loop's workspace (workspace.py)."""
    base = strategy & BASE_MASK
    return base == STRATEGY_PIMC or base == STRATEGY_PIMC_RANDOM or base == STRATEGY_ISMCTS


@nb.njit(cache=True)
def choose_search(strategy, view, rules, legal, n_legal, policy_rng, seat, workspace):
    """A search agent's choice; its per-action statistics stay in `workspace`."""
    base = strategy & BASE_MASK  # a budget rides in the id's upper bits
    budget = strategy >> PARAM_SHIFT
    if base == STRATEGY_ISMCTS:
        return choose_ismcts(view, rules, legal, n_legal, policy_rng, seat,
                             budget if budget else ISMCTS_DEFAULT_BUDGET, ROLLOUT_GREEDY, workspace)
    rollout = ROLLOUT_RANDOM if base == STRATEGY_PIMC_RANDOM else ROLLOUT_GREEDY
    return choose_pimc(view, rules, legal, n_legal, policy_rng, seat,
                       budget if budget else PIMC_DEFAULT_BUDGET, rollout, workspace)


@nb.njit(cache=True)
def choose_in_loop(strategy, view, rules, legal, n_legal, policy_rng, seat, workspace):
    """`choose` for a match loop that holds a preallocated workspace (no allocation per decision);
    after a search decision the workspace holds its statistics, after any other W_N_STATS is 0."""
    if is_search(strategy):
        return choose_search(strategy, view, rules, legal, n_legal, policy_rng, seat, workspace)
    workspace[W_N_STATS] = 0
    return choose_scripted(strategy, view, rules, legal, n_legal, policy_rng, seat)


def uses_search(strategy0: int, strategy1: int) -> bool:
    """True when a cell with these strategy ids needs the search loop (Python side)."""
    return any(int(s) & BASE_MASK in (STRATEGY_PIMC, STRATEGY_PIMC_RANDOM, STRATEGY_ISMCTS)
               for s in (strategy0, strategy1))
