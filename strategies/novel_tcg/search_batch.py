"""The Novel TCG's search match loop: `batch.play_match_in` for a cell with a search agent.

Two loops, as in Poker Duel (`strategies/poker_duel/kernel_batch.py`): a cell
without a search agent plays the scripted loop of `batch.py`, whose switch
(`policies.choose`) never compiles the search code, so the default sweep's
cold compile does not grow; a cell with one plays `play_match_search` here,
whose switch (`dispatch.choose`) also holds the search agents and their
workspace. `batch.play_batch` and its siblings pick the loop (`batch._searches`).

The loops differ only in the switch and the view: a search agent gets the
full view (`nb_view`, with the unseen-card lists its sampler redeals), a
scripted agent the field view it reads in the scripted loop (`policy_view`),
so greedy plays the same moves in either loop. The workspace (allocated once
per batch, `dispatch.loop_workspace`) also counts each seat's decisions
(W_DECISIONS; the bench reads them).
"""

import numba as nb
import numpy as np

from sim import aggregate as agg
from sim import rng
from sim.novel_tcg import engine_cache
from sim.novel_tcg import kernel as K
from sim.novel_tcg import layout as L
from strategies import search_tree as T
from strategies.novel_tcg.batch import (C_STRATEGY0, C_STRATEGY1, LENGTH_BINS, MAX_STEPS, N_RECORD, fill_record,
                                        start_match)
from strategies.novel_tcg.dispatch import choose, is_search, loop_workspace
from strategies.novel_tcg.policies import nb_view, policy_view

engine_cache.install()


@nb.njit(cache=True)
def play_match_search(rules, cell, deck0, deck1, seed, record, state, legal, view, policy, workspace):
    """One match of `cell` with `seed` into `record` (every buffer the caller's); returns the
    actions applied."""
    start_match(rules, cell, deck0, deck1, seed, state, policy)
    steps = 0
    while state[L.S_PHASE] != L.PH_OVER and steps < MAX_STEPS:
        n = K.legal_actions(state, rules, legal)
        index = 0
        if n > 1:
            seat = state[L.S_ACTIVE]
            strategy = cell[C_STRATEGY0 + seat]
            if is_search(strategy):
                nb_view(state, seat, view)
            else:
                policy_view(strategy, state, seat, view)
            index = choose(strategy, view, rules, legal, n, policy, seat, workspace)
            workspace[T.W_DECISIONS + seat] += 1
        K.apply_action(state, rules, legal[index])
        steps += 1
    fill_record(state, record)
    return steps


@nb.njit(cache=True)
def _buffers():
    """What a batch reuses for every match: state, legal list, view, policy generators."""
    return (np.zeros(L.STATE_SIZE, dtype=np.int64), np.zeros(K.MAX_LEGAL, dtype=np.int64),
            np.zeros(L.STATE_SIZE, dtype=np.int64), np.zeros(2, dtype=np.int64))


@nb.njit(cache=True)
def play_batch_search(rules, cell, deck0, deck1, chunk_seed, start_index, n_matches, out, workspace):
    """`batch._play_batch` on the search loop; returns the actions applied."""
    record = np.zeros(N_RECORD, dtype=np.int64)
    state, legal, view, policy = _buffers()
    steps = 0
    for i in range(n_matches):
        seed = rng.nb_match_seed(chunk_seed, start_index + i)
        steps += play_match_search(rules, cell, deck0, deck1, seed, record, state, legal, view, policy, workspace)
        agg.accumulate(out, record, L.N_END_TYPES, L.N_COUNTERS, LENGTH_BINS)
    return steps


@nb.njit(cache=True)
def play_paired_search(rules_a, rules_b, cell, a0, a1, b0, b1, chunk_seed, start_index, n_matches, out, workspace):
    """`batch._play_paired_batch` on the search loop."""
    record_a = np.zeros(N_RECORD, dtype=np.int64)
    record_b = np.zeros(N_RECORD, dtype=np.int64)
    state, legal, view, policy = _buffers()
    for i in range(n_matches):
        seed = rng.nb_match_seed(chunk_seed, start_index + i)
        play_match_search(rules_a, cell, a0, a1, seed, record_a, state, legal, view, policy, workspace)
        play_match_search(rules_b, cell, b0, b1, seed, record_b, state, legal, view, policy, workspace)
        agg.accumulate_paired(out, record_a, record_b, L.N_END_TYPES)


def cell_workspace(cell) -> np.ndarray:
    """A fresh workspace for the cell's match loop (sized for its search agents)."""
    return loop_workspace(np.int64(cell[C_STRATEGY0]), np.int64(cell[C_STRATEGY1]))


def search_choice(strategy, view, rules_array, legal, policy_words, seat, workspace) -> int:
    """One decision of any agent through the search switch, outside a batch (the reference
    loop, the contract face): `view` the seat's full view; advances policy_words[seat]."""
    return int(choose(np.int64(strategy), np.ascontiguousarray(view, dtype=np.int64),
                      np.ascontiguousarray(rules_array, dtype=np.int64), np.ascontiguousarray(legal, dtype=np.int64),
                      np.int64(len(legal)), policy_words, np.int64(seat), workspace))
