"""Faction War match loop and batches: many matches, one aggregate vector.

`play_match_scripted` is the loop of the engine contract (last section): list
the legal actions; a single one is taken without asking; otherwise the
decider's strategy chooses from its player view. `play_match_search` is the
same loop for a cell with a search agent (a separate compiled function, so a
scripted-only command never compiles the search agents: dispatch.py);
`play_batch` picks the loop from the cell's strategy ids and plays matches
start_index .. start_index + n - 1 of a chunk seed and folds each record into
an aggregate vector (`sim/aggregate.py`); `play_paired_batch` plays every
seed under two rule sets (common random numbers) for `cardbalance compare`.

Trade-off: the numba batch functions allocate the state, legal-action list,
view, record and policy generators once per batch and reuse them for every
match, so the loop itself never allocates (the search agents' trees and
buffers too: one workspace per batch, `workspace.py`); the thin Python wrappers validate
inputs and convert seeds (chunk seeds are unsigned 64-bit) before entering
numba.

Rules array: the game's slots, then the policy block `tuned` reads
(strategies/faction_war/weights.py); the wrappers append the shipped tuned
weights to a plain rules array.

Cell array (what `cell_array` returns and the kernels read):
    [faction0, faction1, life0, life1, first, strategy0, strategy1]
The cell's lives are the match's starting lives (F-SET-1), their one source
(the grid's `life` dimension; the rules array holds no life).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from sim import aggregate as agg
from sim.errors import CardbalanceError
from sim.faction_war import kernel as K
from sim.faction_war.layout import (FACTION_NAMES, N_COUNTERS, N_END_TYPES, S_COUNTERS,
                                    S_DECIDER, S_END_TYPE, S_FIRST, S_LIFE, S_TURN, S_WINNER,
                                    STATE_SIZE)
from sim.faction_war.game import GAME_SPEC, LIFE, PAIRINGS
from sim.faction_war.rules import RULES_ARRAY_SIZE
from sim.rng import MASK64, nb_match_seed
from strategies.faction_war import TABLE, is_strategy_id
from strategies.faction_war.dispatch import choose_in_loop, choose_scripted, reads_view, uses_search
from strategies.faction_war.workspace import new_workspace
from strategies.search_tree import W_DECISIONS
from strategies.faction_war.view import build_view
from strategies.faction_war.weights import POLICY_RULES_SIZE, with_policy

# ---- cell array slots -----------------------------------------------------------------
CELL_FACTION0 = 0
CELL_FACTION1 = 1
CELL_LIFE0 = 2
CELL_LIFE1 = 3
CELL_FIRST = 4
CELL_STRATEGY0 = 5
CELL_STRATEGY1 = 6
CELL_SIZE = 7

LENGTH_BINS = 512  # turns histogram; the last bin holds every longer match
assert LENGTH_BINS == GAME_SPEC.length_bins
RECORD_SIZE = agg.REC_COUNTERS + N_COUNTERS
AGGREGATE_SIZE = agg.agg_size(N_END_TYPES, N_COUNTERS, LENGTH_BINS)
PAIRED_METRICS = agg.paired_metric_count(N_END_TYPES)
PAIRED_STATS = agg.PAIRED_STATS
# Longest legal list: END + every hand card in two rows (♥) + face cards with
# displacement choices; a hand holds at most every card of two packs.
LEGAL_CAPACITY = 1024
SEATS = 2


# ---- numba ---------------------------------------------------------------------------

@nb.njit(cache=True)
def start_match(rules, cell, seed, state, policy_rng):
    """New match of `cell` with `seed` (uint64) in `state`; each seat's policy generator
    seeded from the match seed (so a match replays alone, whatever its batch)."""
    K.new_match(state, rules, cell[CELL_FACTION0], cell[CELL_FACTION1], cell[CELL_LIFE0],
                cell[CELL_LIFE1], cell[CELL_FIRST], seed)
    for seat in range(SEATS):
        policy_rng[seat] = np.int64(nb_match_seed(seed, seat + 1))


@nb.njit(cache=True, inline="always")
def play_match_scripted(rules, cell, seed, state, record, legal, view, policy_rng, workspace):
    """Play one match of scripted agents (no search) with `seed` (uint64) and fill `record`;
    buffers are reused, the workspace only counts decisions (W_DECISIONS). Inlined into the
    batches (numba IR): as a function of its own it was compiled to machine code that no
    batch runs (LLVM inlines it anyway), 1 s of the cold compile's serial end."""
    start_match(rules, cell, seed, state, policy_rng)
    while not K.is_over(state):
        n_legal = K.legal_actions(state, rules, legal)
        if n_legal == 0:  # cannot happen for a consistent state (invariant test)
            break
        index = 0
        if n_legal > 1:
            decider = state[S_DECIDER]
            strategy = cell[CELL_STRATEGY0 + decider]
            if reads_view(strategy):
                build_view(state, rules, decider, view)
            index = choose_scripted(strategy, view, rules, legal, n_legal, policy_rng, decider)
            workspace[W_DECISIONS + decider] += 1
        K.apply_action(state, rules, legal[index])
    fill_record(state, record)


@nb.njit(cache=True)
def play_match_search(rules, cell, seed, state, record, legal, view, policy_rng, workspace):
    """`play_match_scripted` for a cell with a search agent: the same loop, whose switch
    also holds the search agents and their `workspace` (workspace.py). A separate function
    so that a scripted cell never compiles the search agents (dispatch.py)."""
    start_match(rules, cell, seed, state, policy_rng)
    while not K.is_over(state):
        n_legal = K.legal_actions(state, rules, legal)
        if n_legal == 0:
            break
        index = 0
        if n_legal > 1:
            decider = state[S_DECIDER]
            strategy = cell[CELL_STRATEGY0 + decider]
            if reads_view(strategy):
                build_view(state, rules, decider, view)
            index = choose_in_loop(strategy, view, rules, legal, n_legal, policy_rng, decider, workspace)
            workspace[W_DECISIONS + decider] += 1
        K.apply_action(state, rules, legal[index])
    fill_record(state, record)


@nb.njit(cache=True)
def fill_record(state, record):
    """The finished match's record (sim/aggregate.py)."""
    record[agg.REC_WINNER] = state[S_WINNER]
    record[agg.REC_END_TYPE] = state[S_END_TYPE]
    record[agg.REC_TURNS] = state[S_TURN]
    record[agg.REC_LIFE0] = state[S_LIFE]
    record[agg.REC_LIFE1] = state[S_LIFE + 1]
    record[agg.REC_FIRST] = state[S_FIRST]
    for k in range(N_COUNTERS):
        record[agg.REC_COUNTERS + k] = state[S_COUNTERS + k]


# The batches, one per loop (numba compiles only the one a cell uses). The caller passes
# the workspace (`new_workspace`), so it can read the decision counts afterwards (the bench).
@nb.njit(cache=True)
def _loop_buffers():
    """The buffers a batch reuses for every match: state, legal list, policy generators."""
    return (np.zeros(STATE_SIZE, dtype=np.int64), np.zeros(LEGAL_CAPACITY, dtype=np.int64),
            np.zeros(SEATS, dtype=np.int64))


@nb.njit(cache=True)
def _arm_buffers():
    """One rule set's record and view (a paired batch has two: one view per arm, see
    build_view on packs)."""
    return np.zeros(RECORD_SIZE, dtype=np.int64), np.zeros(STATE_SIZE, dtype=np.int64)


@nb.njit(cache=True)
def _play_batch_scripted(rules, cell, chunk_seed, start_index, n_matches, workspace):
    aggregate = np.zeros(AGGREGATE_SIZE, dtype=np.int64)
    state, legal, policy_rng = _loop_buffers()
    record, view = _arm_buffers()
    for i in range(n_matches):
        seed = nb_match_seed(chunk_seed, start_index + i)
        play_match_scripted(rules, cell, seed, state, record, legal, view, policy_rng, workspace)
        agg.accumulate(aggregate, record, N_END_TYPES, N_COUNTERS, LENGTH_BINS)
    return aggregate


@nb.njit(cache=True)
def _play_batch_search(rules, cell, chunk_seed, start_index, n_matches, workspace):
    aggregate = np.zeros(AGGREGATE_SIZE, dtype=np.int64)
    state, legal, policy_rng = _loop_buffers()
    record, view = _arm_buffers()
    for i in range(n_matches):
        seed = nb_match_seed(chunk_seed, start_index + i)
        play_match_search(rules, cell, seed, state, record, legal, view, policy_rng, workspace)
        agg.accumulate(aggregate, record, N_END_TYPES, N_COUNTERS, LENGTH_BINS)
    return aggregate


@nb.njit(cache=True)
def _play_paired_scripted(rules_a, rules_b, cell, chunk_seed, start_index, n_matches, workspace):
    paired = np.zeros((PAIRED_METRICS, PAIRED_STATS), dtype=np.int64)
    state, legal, policy_rng = _loop_buffers()
    record_a, view_a = _arm_buffers()
    record_b, view_b = _arm_buffers()
    for i in range(n_matches):
        seed = nb_match_seed(chunk_seed, start_index + i)
        play_match_scripted(rules_a, cell, seed, state, record_a, legal, view_a, policy_rng, workspace)
        play_match_scripted(rules_b, cell, seed, state, record_b, legal, view_b, policy_rng, workspace)
        agg.accumulate_paired(paired, record_a, record_b, N_END_TYPES)
    return paired


@nb.njit(cache=True)
def _play_paired_search(rules_a, rules_b, cell, chunk_seed, start_index, n_matches, workspace):
    paired = np.zeros((PAIRED_METRICS, PAIRED_STATS), dtype=np.int64)
    state, legal, policy_rng = _loop_buffers()
    record_a, view_a = _arm_buffers()
    record_b, view_b = _arm_buffers()
    for i in range(n_matches):
        seed = nb_match_seed(chunk_seed, start_index + i)
        play_match_search(rules_a, cell, seed, state, record_a, legal, view_a, policy_rng, workspace)
        play_match_search(rules_b, cell, seed, state, record_b, legal, view_b, policy_rng, workspace)
        agg.accumulate_paired(paired, record_a, record_b, N_END_TYPES)
    return paired


# ---- Python API ------------------------------------------------------------------------

def cell_array(faction0: int, faction1: int, life0: int, life1: int, first: int,
               strategy0: int, strategy1: int) -> np.ndarray:
    """Validated int64 cell array (slot constants CELL_*)."""
    for name, value in (("faction0", faction0), ("faction1", faction1)):
        if value not in range(len(FACTION_NAMES)):
            raise CardbalanceError("cell: %s must be 0 (human) or 1 (alien) (got %r)." % (name, value))
    for name, value in (("life0", life0), ("life1", life1)):
        if not LIFE.low <= int(value) <= LIFE.high:  # the range the game declares (game.LIFE)
            raise CardbalanceError("cell: %s must be from %d to %d (got %r)." % (name, LIFE.low, LIFE.high, value))
    if first not in (0, 1):
        raise CardbalanceError("cell: first must be 0 or 1 (got %r)." % (first,))
    for name, value in (("strategy0", strategy0), ("strategy1", strategy1)):
        if not is_strategy_id(value):
            raise CardbalanceError("cell: %s must be a strategy id %s (got %r)." % (
                name, TABLE.listing(), value))
    return np.array([faction0, faction1, life0, life1, first, strategy0, strategy1], dtype=np.int64)


def cell_of(values: dict, strategy0: int, strategy1: int) -> np.ndarray:
    """`GameSpec.cell_array`: {"pairing", "life", "first"} and two strategy ids -> the cell array."""
    faction0, faction1 = PAIRINGS[values["pairing"]]
    life0, life1 = values["life"]
    return cell_array(faction0, faction1, life0, life1, values["first"], strategy0, strategy1)


def check_arrays(rules_array, cell) -> tuple[np.ndarray, np.ndarray]:
    """Contiguous int64 arrays a batch accepts (a plain rules array gets the shipped tuned weights)."""
    rules_array = np.ascontiguousarray(rules_array, dtype=np.int64)
    cell = np.ascontiguousarray(cell, dtype=np.int64)
    if rules_array.shape == (RULES_ARRAY_SIZE,):  # a plain rules array: `tuned` gets the shipped weights
        rules_array = with_policy(rules_array)
    if rules_array.shape != (POLICY_RULES_SIZE,):
        raise CardbalanceError("rules array must have %d entries, or %d with a policy block (got shape %s)." % (
            RULES_ARRAY_SIZE, POLICY_RULES_SIZE, rules_array.shape))
    if cell.shape != (CELL_SIZE,):
        raise CardbalanceError("cell array must have %d entries (got shape %s)." % (CELL_SIZE, cell.shape))
    return rules_array, cell


def _check_counts(start_index: int, n_matches: int) -> None:
    if int(start_index) < 0 or int(n_matches) < 0:
        raise CardbalanceError("start_index and n_matches must be non-negative (got %r, %r)." % (start_index, n_matches))


def searches(cell) -> bool:
    """True when the cell's strategies need the search loop (a search agent in a seat)."""
    return uses_search(cell[CELL_STRATEGY0], cell[CELL_STRATEGY1])


def ahead_plan():
    """How a cold compile splits over two processes (sim/compile_ahead.py), with the
    loop's argument types. The parent types, in source order, `start_match` (the effects
    engine, ~9 s), `legal_actions` (~7 s), the agent (greedy ~10 s), then `apply_action`
    (~14 s more, sharing the effects engine). The second process compiles greedy
    meanwhile, then `apply_action`, loading the effects engine the parent has cached by
    then. When the parent reaches `apply_action` first, it compiles the actions that
    `apply_action` types last, from its end backwards, until it meets the second
    process (docs/performance.md, "Cold compile (issue 29)")."""
    from sim.compile_ahead import AheadPart, AheadPlan
    from sim.faction_war import kernel_alien as KA
    from sim.faction_war import kernel_jokers as KJ
    from strategies.faction_war.greedy import choose_greedy
    array, integer = nb.typeof(np.zeros(1, dtype=np.int64)), nb.types.int64

    def action(name, function, n_fields):  # (state, rules, the action's first n fields)
        return AheadPart(name, function, (array, array) + (integer,) * n_fields)
    return AheadPlan(
        second=(AheadPart("choose_greedy", choose_greedy, (array, array, array, integer, array, integer)),
                AheadPart("legal_actions", K.legal_actions, (array, array, array)),
                action("apply_action", K.apply_action, 1)),
        parent_help=(action("_attack", K._attack, 2), action("end_turn", K.end_turn, 0),
                     action("apply_tie", K.apply_tie, 1), action("apply_timing", K.apply_timing, 1),
                     action("duel_choice", KJ.duel_choice, 1), action("respond", KJ.respond, 1),
                     action("use_small_joker", KJ.use_small_joker, 1),
                     action("place_big_joker", KJ.place_big_joker, 2), action("k_answer", KA.k_answer, 1),
                     action("k_activate", KA.k_activate, 3)))


def cell_workspace(cell) -> np.ndarray:
    """A fresh workspace for the cell's match loop (workspace.py)."""
    return new_workspace(cell[CELL_STRATEGY0], cell[CELL_STRATEGY1])


def run_batch(rules_array, cell, chunk_seed, start_index, n_matches, workspace) -> np.ndarray:
    """The cell's batch (scripted or search loop) on checked arrays, with `workspace`;
    the bench reads the decisions counted in it afterwards."""
    batch = _play_batch_search if searches(cell) else _play_batch_scripted
    return batch(rules_array, cell, np.uint64(int(chunk_seed) & MASK64), np.int64(start_index), np.int64(n_matches),
                 workspace)


def play_batch(rules_array, cell, chunk_seed, start_index: int, n_matches: int) -> np.ndarray:
    """Aggregate vector of matches start_index .. start_index+n_matches-1 of `chunk_seed`."""
    rules_array, cell = check_arrays(rules_array, cell)
    _check_counts(start_index, n_matches)
    return run_batch(rules_array, cell, chunk_seed, start_index, n_matches, cell_workspace(cell))


def play_paired_batch(rules_a, rules_b, cell, chunk_seed, start_index: int, n_matches: int) -> np.ndarray:
    """Paired sums (sim/aggregate.py) of the same matches under two rule sets."""
    rules_a, cell = check_arrays(rules_a, cell)
    rules_b, _ = check_arrays(rules_b, cell)
    _check_counts(start_index, n_matches)
    paired = _play_paired_search if searches(cell) else _play_paired_scripted
    return paired(rules_a, rules_b, cell, np.uint64(int(chunk_seed) & MASK64), np.int64(start_index),
                  np.int64(n_matches), cell_workspace(cell))


def play_one(rules_array, cell, match_seed) -> tuple[np.ndarray, np.ndarray]:
    """(final state, record) of one match with `match_seed` (e.g. for replay)."""
    rules_array, cell = check_arrays(rules_array, cell)
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    record = np.zeros(RECORD_SIZE, dtype=np.int64)
    play_match = play_match_search if searches(cell) else play_match_scripted
    play_match(rules_array, cell, np.uint64(int(match_seed) & MASK64), state, record,
               np.zeros(LEGAL_CAPACITY, dtype=np.int64), np.zeros(STATE_SIZE, dtype=np.int64),
               np.zeros(SEATS, dtype=np.int64), cell_workspace(cell))
    return state, record


def chooser(strategy0: int, strategy1: int):
    """The compiled switch a match between these strategies needs, called as
    f(strategy, view, rules, legal, n_legal, policy_rng, seat, workspace): the search
    loop's, or for scripted agents only theirs (so tracing a greedy match compiles no search)."""
    if uses_search(strategy0, strategy1):
        return choose_in_loop

    def choose(strategy, view, rules, legal, n_legal, policy_rng, seat, workspace):
        return choose_scripted(strategy, view, rules, legal, n_legal, policy_rng, seat)
    return choose


def trace_match(rules_array, cell, match_seed) -> list[tuple[int, int, list[int]]]:
    """Every step of one match as (decider, action, legal list), for tests and replay.

    Runs the same compiled pieces as `play_match` one action at a time from
    Python, so it makes the same choices.
    """
    rules_array, cell = check_arrays(rules_array, cell)
    seed = np.uint64(int(match_seed) & MASK64)
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    legal = np.zeros(LEGAL_CAPACITY, dtype=np.int64)
    view = np.zeros(STATE_SIZE, dtype=np.int64)
    policy_rng = np.zeros(SEATS, dtype=np.int64)
    workspace = cell_workspace(cell)
    choose = chooser(cell[CELL_STRATEGY0], cell[CELL_STRATEGY1])
    start_match(rules_array, cell, seed, state, policy_rng)
    steps = []
    while not K.is_over(state):
        n_legal = K.legal_actions(state, rules_array, legal)
        decider = int(state[S_DECIDER])
        index = 0
        if n_legal > 1:
            build_view(state, rules_array, decider, view)
            index = choose(cell[CELL_STRATEGY0 + decider], view, rules_array, legal, n_legal, policy_rng,
                           decider, workspace)
        steps.append((decider, int(legal[index]), [int(a) for a in legal[:n_legal]]))
        K.apply_action(state, rules_array, legal[index])
    return steps
