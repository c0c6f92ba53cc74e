"""What `cardbalance bench --game poker_duel` measures of the agents (`sim.bench_timing.AgentBench`):
each agent against greedy, default HP, seat 0 first; the random rollouts are
`search.random_rollout` from fresh matches. Only the compiled loops are Poker Duel's own.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from sim import rng
from sim.bench_timing import AgentBench
from sim.poker_duel import layout as L
from sim.poker_duel.rules import DEFAULT_HP
from strategies import STANDARD_AGENTS
from strategies import search_tree as T
from strategies.poker_duel import strategy_id
from strategies.poker_duel.batch import cell_of
from strategies.poker_duel.kernel_batch import cell_workspace, checked_rules, run_batch, start_match
from strategies.poker_duel.search import LEGAL_CAPACITY, random_rollout


def _agent_batch(rules, cell, chunk_seed, start_index, n_matches) -> int:
    """Play the matches with the sweep's own batch (`kernel_batch.run_batch`); return seat 0's decisions."""
    workspace = cell_workspace(cell)
    run_batch(rules, cell, chunk_seed, start_index, n_matches, workspace)
    return int(workspace[T.W_DECISIONS])


@nb.njit(cache=True)
def _rollout_batch(rules, cell, chunk_seed, n_matches):
    """Actions played by random rollouts from `n_matches` fresh matches."""
    state = np.zeros(L.STATE_SIZE, dtype=np.int64)
    legal = np.zeros(LEGAL_CAPACITY, dtype=np.int64)
    policy = np.zeros(2, dtype=np.int64)
    actions = 0
    for i in range(n_matches):
        start_match(rules, cell, rng.nb_match_seed(chunk_seed, i), state, policy)
        actions += random_rollout(state, rules, legal, policy, 0)
    return actions


def _cell(agent: str, opponent: str) -> np.ndarray:
    return cell_of({"hp": DEFAULT_HP, "first": 0}, strategy_id(agent), strategy_id(opponent))


def _check(rules_array, cell):
    """With the policy block: `tuned` plays its shipped weights."""
    return checked_rules(rules_array), cell


bench_agents = AgentBench(STANDARD_AGENTS, _cell, _check, _agent_batch, _rollout_batch)
