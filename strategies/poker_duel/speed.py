"""What `cardbalance bench --game poker_duel` measures of the agents: cost per match
and per decision, and the speed of the random rollouts the search agents use.

- `agent_rows`: each agent (search agents at their default budgets) as seat 0
  against greedy, default HP, seat 0 first: matches per second on this core
  and the agent's decisions per second (decisions = times the loop asked it,
  i.e. with at least two legal actions), from whole matches played until a
  short time budget is spent (at least one match).
- `rollout_row`: `search.random_rollout` from fresh matches: actions per
  second on this core, the mean and the fastest repeat (`bench_timing.rollout_rates`).

Rates per second of this process's CPU time (`time.process_time`), compile
and cache load excluded by a first call (as Faction War's `speed.py`).
"""

from __future__ import annotations


import numba as nb
import numpy as np

from sim import rng
from sim.bench_timing import rollout_rates, timed
from sim.poker_duel import layout as L
from sim.poker_duel.rules import DEFAULT_HP
from strategies import search_tree as T
from strategies.poker_duel import strategy_id
from strategies.poker_duel.batch import cell_of
from strategies.poker_duel.kernel_batch import cell_workspace, checked_rules, run_batch, start_match
from strategies.poker_duel.search import LEGAL_CAPACITY, random_rollout

BENCH_AGENTS = ("random", "greedy", "tuned", "pimc-random", "pimc", "ismcts")
OPPONENT = "greedy"
SEED = 2024


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


def agent_rows(rules_array, seconds: float) -> list[dict]:
    """Per agent: matches/s/core and decisions/s against greedy (module docstring)."""
    rules_array = checked_rules(rules_array)  # with the policy block: `tuned` plays its shipped weights
    rows = []
    for name in BENCH_AGENTS:
        cell = _cell(name, OPPONENT)
        _agent_batch(rules_array, cell, np.uint64(SEED), 10**6, 1)  # compile or load the cache
        matches, decisions, elapsed = timed(
            lambda start, n: _agent_batch(rules_array, cell, np.uint64(SEED), start, n), seconds)
        rows.append({"agent": name, "opponent": OPPONENT, "matches": matches, "decisions": decisions,
                     "matches_per_s": matches / elapsed, "decisions_per_s": decisions / elapsed,
                     "s_per_match": elapsed / matches})
    return rows


def rollout_row(rules_array, seconds: float) -> dict:
    """Random-rollout speed in actions per second on this core (`bench_timing.rollout_rates`)."""
    rules_array = np.ascontiguousarray(rules_array, dtype=np.int64)
    cell = _cell("random", "random")
    _rollout_batch(rules_array, cell, np.uint64(SEED), 1)
    return rollout_rates(lambda seed, n: _rollout_batch(rules_array, cell, np.uint64(seed), n), SEED, seconds)


def bench_agents(rules_array, seconds: float) -> dict:
    """`GameSpec.extra["bench_agents"]`: {"agents": agent_rows, "rollout": rollout_row}."""
    return {"agents": agent_rows(rules_array, seconds), "rollout": rollout_row(rules_array, seconds)}

