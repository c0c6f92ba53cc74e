"""The Poker Duel match loop on the numba kernel and its batches for the shared
layers. The compiled policies are in `kernel_policies.py` (random, greedy:
twins of `policies.py`, same decisions from the same view) and `search.py`
(pimc, pimc-random, ismcts), chosen by `dispatch.choose_scripted` in the
scripted loop and `dispatch.choose` in the search loop.

Contract (docs/engine-contract.md): the rule generator starts from the match
seed, seat p's policy generator from `match_seed(seed, p + 1)`; a single
legal action is taken without asking; otherwise the decider's policy picks
from its view (`nb_view`, the twin of `layout.build_view`). Buffers (state,
legal list, view, policy generators, the search agents' workspace) are
allocated once per batch.
"""

import numba as nb
import numpy as np

from sim import aggregate as agg
from sim import rng
from sim.errors import CardbalanceError
from sim.poker_duel import engine_cache
from sim.poker_duel import kernel as K
from sim.poker_duel import kernel_chain as KC
from sim.poker_duel import layout as L
from sim.poker_duel.rules import RULES_ARRAY_SIZE, amb_slot
from strategies import search_tree as T
from strategies.poker_duel import TABLE, is_strategy_id
from strategies.poker_duel.dispatch import choose, choose_scripted, loop_workspace, reads_view, uses_search
from strategies.poker_duel.kernel_policies import greedy_index, nb_view  # noqa: F401  (the loop's policies)
from strategies.poker_duel.search import LEGAL_CAPACITY
from strategies.poker_duel.weights import POLICY_RULES_SIZE, with_policy

engine_cache.install()

C_HP0, C_HP1, C_FIRST, C_STRATEGY0, C_STRATEGY1 = range(5)
LENGTH_BINS = 128
N_RECORD = agg.REC_COUNTERS + L.N_COUNTERS
MAX_STEPS = 100_000
R08 = amb_slot("D-AMB-08")


# ---------------------------------------------------------------- the match loops
# Two loops, one per switch (dispatch.py): a cell without a search agent plays
# `play_match_scripted`, which never compiles the search agents; a cell with one
# plays `play_match_search`. The loops differ only in the switch they call.
@nb.njit(cache=True)
def start_match(rules, cell, seed, state, policy):
    K.new_match(rules, cell[C_HP0], cell[C_HP1], cell[C_FIRST], np.int64(seed), state)
    policy[0] = np.int64(rng.nb_match_seed(seed, 1))
    policy[1] = np.int64(rng.nb_match_seed(seed, 2))


@nb.njit(cache=True)
def play_match_scripted(rules, cell, seed, record, state, legal, view, policy, workspace):
    """One match of scripted agents with `seed` into `record`; every buffer is the caller's
    (no allocation); the workspace only counts decisions (W_DECISIONS)."""
    start_match(rules, cell, seed, state, policy)
    open_info = rules[R08] == 1
    steps = 0
    while state[L.S_PHASE] != L.PH_OVER and steps < MAX_STEPS:
        n = KC.legal_actions(state, rules, legal)
        index = 0
        if n > 1:
            seat = state[L.S_DECIDER]
            strategy = cell[C_STRATEGY0 + seat]
            if reads_view(strategy):
                nb_view(state, seat, open_info, view)
            index = choose_scripted(strategy, view, rules, legal, n, policy, seat)
            workspace[T.W_DECISIONS + seat] += 1
        KC.apply_action(state, rules, legal[index])
        steps += 1
    fill_record(state, record)


@nb.njit(cache=True)
def play_match_search(rules, cell, seed, record, state, legal, view, policy, workspace):
    """`play_match_scripted` for a cell with a search agent: the same loop, whose switch
    also holds the search agents and their `workspace`."""
    start_match(rules, cell, seed, state, policy)
    open_info = rules[R08] == 1
    steps = 0
    while state[L.S_PHASE] != L.PH_OVER and steps < MAX_STEPS:
        n = KC.legal_actions(state, rules, legal)
        index = 0
        if n > 1:
            seat = state[L.S_DECIDER]
            strategy = cell[C_STRATEGY0 + seat]
            if reads_view(strategy):
                nb_view(state, seat, open_info, view)
            index = choose(strategy, view, rules, legal, n, policy, seat, workspace)
            workspace[T.W_DECISIONS + seat] += 1
        KC.apply_action(state, rules, legal[index])
        steps += 1
    fill_record(state, record)


@nb.njit(cache=True)
def fill_record(state, record):
    """The finished match's record (sim/aggregate.py)."""
    winner = state[L.S_WINNER]
    record[agg.REC_WINNER] = winner if winner >= 0 else agg.DRAW
    record[agg.REC_END_TYPE] = state[L.S_END_TYPE]
    record[agg.REC_TURNS] = state[L.S_TURN]
    record[agg.REC_LIFE0] = state[L.S_HP]
    record[agg.REC_LIFE1] = state[L.S_HP + 1]
    record[agg.REC_FIRST] = state[L.S_FIRST]
    for k in range(L.N_COUNTERS):
        record[agg.REC_COUNTERS + k] = state[L.S_COUNTERS + k]


@nb.njit(cache=True)
def _buffers():
    """What a batch reuses for every match: state, legal list, view, policy generators."""
    return (np.zeros(L.STATE_SIZE, dtype=np.int64), np.zeros(LEGAL_CAPACITY, dtype=np.int64),
            np.zeros(L.STATE_SIZE, dtype=np.int64), np.zeros(2, dtype=np.int64))


# The batches, one per loop (numba compiles only the one a cell uses). The caller passes
# the workspace (`loop_workspace`), so it can read the decision counts afterwards (the bench).
@nb.njit(cache=True)
def _play_batch_scripted(rules, cell, chunk_seed, start_index, n_matches, out, workspace):
    record = np.zeros(N_RECORD, dtype=np.int64)
    state, legal, view, policy = _buffers()
    for i in range(n_matches):
        seed = rng.nb_match_seed(chunk_seed, start_index + i)
        play_match_scripted(rules, cell, seed, record, state, legal, view, policy, workspace)
        agg.accumulate(out, record, L.N_END_TYPES, L.N_COUNTERS, LENGTH_BINS)


@nb.njit(cache=True)
def _play_batch_search(rules, cell, chunk_seed, start_index, n_matches, out, workspace):
    record = np.zeros(N_RECORD, dtype=np.int64)
    state, legal, view, policy = _buffers()
    for i in range(n_matches):
        seed = rng.nb_match_seed(chunk_seed, start_index + i)
        play_match_search(rules, cell, seed, record, state, legal, view, policy, workspace)
        agg.accumulate(out, record, L.N_END_TYPES, L.N_COUNTERS, LENGTH_BINS)


@nb.njit(cache=True)
def _play_paired_scripted(rules_a, rules_b, cell, chunk_seed, start_index, n_matches, out, workspace):
    record_a = np.zeros(N_RECORD, dtype=np.int64)
    record_b = np.zeros(N_RECORD, dtype=np.int64)
    state, legal, view, policy = _buffers()
    for i in range(n_matches):
        seed = rng.nb_match_seed(chunk_seed, start_index + i)
        play_match_scripted(rules_a, cell, seed, record_a, state, legal, view, policy, workspace)
        play_match_scripted(rules_b, cell, seed, record_b, state, legal, view, policy, workspace)
        agg.accumulate_paired(out, record_a, record_b, L.N_END_TYPES)


@nb.njit(cache=True)
def _play_paired_search(rules_a, rules_b, cell, chunk_seed, start_index, n_matches, out, workspace):
    record_a = np.zeros(N_RECORD, dtype=np.int64)
    record_b = np.zeros(N_RECORD, dtype=np.int64)
    state, legal, view, policy = _buffers()
    for i in range(n_matches):
        seed = rng.nb_match_seed(chunk_seed, start_index + i)
        play_match_search(rules_a, cell, seed, record_a, state, legal, view, policy, workspace)
        play_match_search(rules_b, cell, seed, record_b, state, legal, view, policy, workspace)
        agg.accumulate_paired(out, record_a, record_b, L.N_END_TYPES)


def _checked_cell(cell) -> np.ndarray:
    cell = np.ascontiguousarray(cell, dtype=np.int64)
    for seat in (0, 1):
        if not is_strategy_id(int(cell[C_STRATEGY0 + seat])):
            raise CardbalanceError("cell: strategy%d must be a poker_duel strategy id %s (got %r)." % (
                seat, TABLE.listing(), int(cell[C_STRATEGY0 + seat])))
    return cell


def checked_rules(rules_array) -> np.ndarray:
    """A contiguous int64 rules array with a policy block: a plain one gets the shipped
    tuned weights (`tuned` plays them wherever a strategy name is accepted)."""
    rules_array = np.ascontiguousarray(rules_array, dtype=np.int64)
    if rules_array.shape == (RULES_ARRAY_SIZE,):
        return with_policy(rules_array)
    if rules_array.shape != (POLICY_RULES_SIZE,):
        raise CardbalanceError("rules array must have %d entries, or %d with a policy block (got shape %s)." % (
            RULES_ARRAY_SIZE, POLICY_RULES_SIZE, rules_array.shape))
    return rules_array


def searches(cell) -> bool:
    """True when the cell's strategies need the search loop (a search agent in a seat)."""
    return uses_search(cell[C_STRATEGY0], cell[C_STRATEGY1])


def cell_workspace(cell) -> np.ndarray:
    """A fresh workspace for the cell's match loop (sized for its search agents, if any)."""
    return loop_workspace(cell[C_STRATEGY0], cell[C_STRATEGY1])


def run_batch(rules_array, cell, chunk_seed, start_index, n_matches, workspace) -> np.ndarray:
    """The cell's batch (scripted or search loop) on checked arrays, with `workspace`;
    the bench reads the decisions counted in it afterwards."""
    out = agg.empty_aggregate(L.N_END_TYPES, L.N_COUNTERS, LENGTH_BINS, by_end=True)  # end turns by seat
    batch = _play_batch_search if searches(cell) else _play_batch_scripted
    batch(rules_array, cell, np.uint64(chunk_seed), np.int64(start_index), np.int64(n_matches), out, workspace)
    return out


def play_batch(rules_array, cell, chunk_seed, start_index, n_matches) -> np.ndarray:
    """`GameSpec.play_batch` on the numba kernel."""
    cell = _checked_cell(cell)
    return run_batch(checked_rules(rules_array), cell, chunk_seed, start_index, n_matches, cell_workspace(cell))


def play_paired_batch(rules_a, rules_b, cell, chunk_seed, start_index, n_matches) -> np.ndarray:
    cell = _checked_cell(cell)
    out = agg.empty_paired(L.N_END_TYPES)
    paired = _play_paired_search if searches(cell) else _play_paired_scripted
    paired(checked_rules(rules_a), checked_rules(rules_b), cell, np.uint64(chunk_seed), np.int64(start_index),
           np.int64(n_matches), out, cell_workspace(cell))
    return out


def play_match(rules_array, cell, seed, record, state) -> None:
    """One match into `record` and `state`, buffers of its own (tests, replay). The rules array
    is played as given: without a policy block `tuned` plays greedy (the batches add the block)."""
    rules_array, cell = np.ascontiguousarray(rules_array, dtype=np.int64), _checked_cell(cell)
    play = play_match_search if searches(cell) else play_match_scripted
    play(rules_array, cell, np.uint64(seed), record, state, np.zeros(LEGAL_CAPACITY, dtype=np.int64),
         np.zeros(L.STATE_SIZE, dtype=np.int64), np.zeros(2, dtype=np.int64), cell_workspace(cell))


def ahead_plan():
    """How a cold compile splits over two processes (sim/compile_ahead.py): the second
    compiles `kernel_chain.apply_action` with the loop's argument types (state, rules,
    action); `play_match_scripted` types it last, after the legal-action listing and the agent."""
    from sim.compile_ahead import AheadPart, AheadPlan
    array = nb.typeof(np.zeros(1, dtype=np.int64))
    return AheadPlan(second=(AheadPart("apply_action", KC.apply_action, (array, array, nb.types.int64)),))