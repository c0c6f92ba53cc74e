"""What `cardbalance bench --game novel_tcg` measures of the agents.

- `agent_rows`: each agent as seat 0 against greedy, rank 10, Curve vs
  Curve, seat 0 first: matches per CPU second on this core and the agent's
  decisions per second (times the loop asked it: two or more legal actions).
- `rollout_row`: random play (both seats random) from fresh matches: actions
  per CPU second, the mean and the fastest repeat (`bench_timing.rollout_rates`).
Compile and cache load are excluded by a first call.
"""

import numba as nb
import numpy as np

from sim import rng
from sim.bench_timing import rollout_rates, timed
from sim.novel_tcg import kernel as K
from sim.novel_tcg import layout as L
from strategies.novel_tcg import strategy_id
from strategies.novel_tcg.batch import cell_of, checked_rules, decide, decks_of, start_match

BENCH_AGENTS = ("random", "greedy", "defensive")
OPPONENT = "greedy"
SEED = 2024


@nb.njit(cache=True)
def _agent_batch(rules, cell, deck0, deck1, chunk_seed, start_index, n_matches, count_seat):
    """The batch loop of `batch.play_match_in`; returns the decisions of `count_seat`
    (-1: every action applied, the rollout count)."""
    state = np.zeros(L.STATE_SIZE, dtype=np.int64)
    legal = np.zeros(K.MAX_LEGAL, dtype=np.int64)
    view = np.zeros(L.STATE_SIZE, dtype=np.int64)
    policy = np.zeros(2, dtype=np.int64)
    counted = 0
    for i in range(n_matches):
        start_match(rules, cell, deck0, deck1, rng.nb_match_seed(chunk_seed, start_index + i), state, policy)
        while state[L.S_PHASE] != L.PH_OVER:
            n = K.legal_actions(state, rules, legal)
            if n > 1 and state[L.S_ACTIVE] == count_seat:
                counted += 1
            K.apply_action(state, rules, legal[decide(rules, cell, state, legal, n, view, policy)])
            if count_seat < 0:
                counted += 1
    return counted


def _cell(agent: str, opponent: str) -> np.ndarray:
    return cell_of({"rank": (10, 10), "deck": "curve", "first": 0}, strategy_id(agent), strategy_id(opponent))


def agent_rows(rules_array, seconds: float) -> list[dict]:
    rules_array = checked_rules(rules_array)
    rows = []
    for name in BENCH_AGENTS:
        cell = _cell(name, OPPONENT)
        deck0, deck1 = decks_of(rules_array, cell)
        _agent_batch(rules_array, cell, deck0, deck1, np.uint64(SEED), 10**6, 1, 0)
        matches, decisions, elapsed = timed(
            lambda start, n: _agent_batch(rules_array, cell, deck0, deck1, np.uint64(SEED), start, n, 0), seconds)
        rows.append({"agent": name, "opponent": OPPONENT, "matches": matches, "decisions": decisions,
                     "matches_per_s": matches / elapsed, "decisions_per_s": decisions / elapsed,
                     "s_per_match": elapsed / matches})
    return rows


def rollout_row(rules_array, seconds: float) -> dict:
    rules_array = checked_rules(rules_array)
    cell = _cell("random", "random")
    deck0, deck1 = decks_of(rules_array, cell)
    _agent_batch(rules_array, cell, deck0, deck1, np.uint64(SEED), 0, 1, -1)
    return rollout_rates(lambda seed, n: _agent_batch(rules_array, cell, deck0, deck1, np.uint64(seed), 0, n, -1),
                         SEED, seconds)


def bench_agents(rules_array, seconds: float) -> dict:
    """`GameSpec.extra["bench_agents"]`: {"agents": agent_rows, "rollout": rollout_row}."""
    return {"agents": agent_rows(rules_array, seconds), "rollout": rollout_row(rules_array, seconds)}
