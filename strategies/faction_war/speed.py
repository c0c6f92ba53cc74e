"""What `cardbalance bench` measures of Faction War's agents (`sim.bench_timing.AgentBench`):
each agent against greedy, Human vs Alien, life 50, seat 0 first; the random rollouts
are `pimc.random_rollout`, the loop inside every random rollout, from fresh matches.
Only the compiled loops are Faction War's own.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from sim.bench_timing import AgentBench
from sim.faction_war.layout import STATE_SIZE
from sim.rng import nb_match_seed
from strategies import STANDARD_AGENTS
from strategies.faction_war import strategy_id
from strategies.faction_war.batch import (LEGAL_CAPACITY, SEATS, cell_array, cell_workspace, check_arrays, run_batch,
                                          start_match)
from strategies.faction_war.pimc import random_rollout
from strategies.search_tree import W_DECISIONS

HUMAN, ALIEN = 0, 1
LIFE = 50


def _agent_batch(rules, cell, chunk_seed, start_index, n_matches):
    """Play the matches with the sweep's own batch (`batch.run_batch`); return seat 0's decisions."""
    workspace = cell_workspace(cell)
    run_batch(rules, cell, chunk_seed, start_index, n_matches, workspace)
    return workspace[W_DECISIONS]


@nb.njit(cache=True)
def _rollout_batch(rules, cell, chunk_seed, n_matches):
    """Actions played by random rollouts from `n_matches` fresh matches."""
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    legal = np.zeros(LEGAL_CAPACITY, dtype=np.int64)
    policy_rng = np.zeros(SEATS, dtype=np.int64)
    actions = 0
    for i in range(n_matches):
        start_match(rules, cell, nb_match_seed(chunk_seed, i), state, policy_rng)
        actions += random_rollout(state, rules, legal, policy_rng, 0)
    return actions


def _cell(agent: str, opponent: str) -> np.ndarray:
    return cell_array(HUMAN, ALIEN, LIFE, LIFE, 0, strategy_id(agent), strategy_id(opponent))


bench_agents = AgentBench(STANDARD_AGENTS, _cell, check_arrays, _agent_batch, _rollout_batch)
