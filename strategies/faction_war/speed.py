"""What `cardbalance bench` measures of the agents: cost per match and per decision,
and the speed of the random rollouts the search agents are built on.

- `agent_rows`: each agent (search agents at their default budgets) as seat 0
  against greedy, Human vs Alien, life 50: matches per second on this core and
  the agent's decisions per second (decisions = times the loop asked it, i.e.
  with at least two legal actions), each from whole matches played until a
  short time budget is spent (at least one match).
- `rollout_row`: `pimc.random_rollout`, the loop inside every random rollout,
  played from fresh matches: actions per second on this core, the mean and the
  fastest repeat (`bench_timing.rollout_rates`).

Both are rates per second of this process's CPU time (`time.process_time`;
the kernels are single-threaded), so other jobs on a shared machine lower
them less than a wall-clock rate; compile and cache load are excluded by a
first call.
"""

from __future__ import annotations


import numba as nb
import numpy as np

from sim.bench_timing import rollout_rates, timed
from sim.faction_war.layout import STATE_SIZE
from sim.rng import nb_match_seed
from strategies.faction_war import strategy_id
from strategies.faction_war.batch import (LEGAL_CAPACITY, SEATS, cell_array, cell_workspace, check_arrays, run_batch,
                                          start_match)
from strategies.faction_war.pimc import random_rollout
from strategies.search_tree import W_DECISIONS

BENCH_AGENTS = ("random", "greedy", "tuned", "pimc-random", "pimc", "ismcts")
OPPONENT = "greedy"
HUMAN, ALIEN = 0, 1
LIFE = 50
SEED = 2024


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


def agent_rows(rules_array, seconds: float) -> list[dict]:
    """Per agent: matches/s/core and decisions/s against greedy (module docstring)."""
    rows = []
    for name in BENCH_AGENTS:
        # checked as a sweep's batch is: `tuned` plays the shipped weights, not the defaults
        rules, cell = check_arrays(rules_array, cell_array(HUMAN, ALIEN, LIFE, LIFE, 0, strategy_id(name),
                                                            strategy_id(OPPONENT)))
        _agent_batch(rules, cell, np.uint64(SEED), 10**6, 1)  # compile or load the cache
        matches, decisions, elapsed = timed(
            lambda start, n: _agent_batch(rules, cell, np.uint64(SEED), start, n), seconds)
        rows.append({"agent": name, "opponent": OPPONENT, "matches": matches, "decisions": decisions,
                     "matches_per_s": matches / elapsed, "decisions_per_s": decisions / elapsed,
                     "s_per_match": elapsed / matches})
    return rows


def bench_agents(rules_array, seconds: float) -> dict:
    """`GameSpec.extra["bench_agents"]`: {"agents": agent_rows, "rollout": rollout_row}."""
    return {"agents": agent_rows(rules_array, seconds), "rollout": rollout_row(rules_array, seconds)}


def rollout_row(rules_array, seconds: float) -> dict:
    """Random-rollout speed in actions per second on this core (`bench_timing.rollout_rates`)."""
    cell = cell_array(HUMAN, ALIEN, LIFE, LIFE, 0, strategy_id("random"), strategy_id("random"))
    _rollout_batch(rules_array, cell, np.uint64(SEED), 1)
    return rollout_rates(lambda seed, n: _rollout_batch(rules_array, cell, np.uint64(seed), n), SEED, seconds)
