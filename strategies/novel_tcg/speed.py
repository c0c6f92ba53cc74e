"""What `cardbalance bench --game novel_tcg` measures of the agents (`sim.bench_timing.AgentBench`):
each agent as seat 0 against greedy, rank 10, Curve vs Curve, seat 0 first; random
play (both seats random) from fresh matches for the rollout row. Only the compiled loop
is the TCG's own: it counts seat 0's decisions, or (count_seat -1) every action applied.
A search agent's row plays the sweep's search loop (`search_batch.play_batch_search`)
and reads seat 0's decisions from its workspace.
"""

import numba as nb
import numpy as np

from sim import rng
from sim.bench_timing import AgentBench
from sim.novel_tcg import kernel as K
from sim.novel_tcg import layout as L
from sim import aggregate as agg
from strategies import search_tree as T
from strategies.novel_tcg import AGENTS, strategy_id
from strategies.novel_tcg.batch import LENGTH_BINS, _searches, cell_of, checked_rules, decide, decks_of, start_match

BENCH_AGENTS = AGENTS  # every agent offered; the search agents at their default budgets


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


def _check(rules_array, cell):
    """The rules array as a batch gets it, and the cell with both seats' deck lists (built once)."""
    rules_array = checked_rules(rules_array)
    return rules_array, (cell,) + decks_of(rules_array, cell)


def _decisions(rules, prepared, chunk_seed, start_index, n_matches):
    cell, deck0, deck1 = prepared
    if _searches(cell):
        from strategies.novel_tcg import search_batch as S
        workspace = S.cell_workspace(cell)
        out = agg.empty_aggregate(L.N_END_TYPES, L.N_COUNTERS, LENGTH_BINS, by_end=True)
        S.play_batch_search(rules, cell, deck0, deck1, np.uint64(chunk_seed), np.int64(start_index),
                            np.int64(n_matches), out, workspace)
        return int(workspace[T.W_DECISIONS])
    return _agent_batch(rules, cell, deck0, deck1, chunk_seed, start_index, n_matches, 0)


def _rollouts(rules, prepared, chunk_seed, n_matches):
    cell, deck0, deck1 = prepared
    return _agent_batch(rules, cell, deck0, deck1, chunk_seed, 0, n_matches, -1)


bench_agents = AgentBench(BENCH_AGENTS, _cell, _check, _decisions, _rollouts)
