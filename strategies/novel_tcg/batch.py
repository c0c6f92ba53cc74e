"""The Novel TCG match loops (numba kernel and reference engine) and their batches.

Contract (docs/engine-contract.md): the rule generator starts from the match
seed (it shuffles both decks, the only rule randomness), seat p's policy
generator from `match_seed(seed, p + 1)`; a single legal action is taken
without asking; otherwise the turn player's policy picks from its view.
The decks are built once per batch in Python from the rules array, the
templates and the ranks of the cell (card_pool.py), so an impossible
template is refused in one line before any match is played.
Two compiled loops: `play_match_in` here for cells of scripted agents (its
switch, `policies.choose`, compiles no search code), and
`search_batch.play_match_search` for a cell with a search agent (pimc,
pimc-random, ismcts); the batches pick one per cell (`_searches`) and import
the search loop only then. The reference loop (`play_match`) asks the same
compiled search agent for a search seat's decision.
"""

import numba as nb
import numpy as np

from sim import aggregate as agg
from sim import rng
from sim.errors import CardbalanceError
from sim.novel_tcg import engine_cache
from sim.novel_tcg import kernel as K
from sim.novel_tcg import layout as L
from sim.novel_tcg import pool_data
from sim.novel_tcg.card_pool import TEMPLATES, check_rank, deck_counts_from_array
from sim.novel_tcg.reference import Match
from sim.novel_tcg.rules import RULES_ARRAY_SIZE, Rules
from strategies.novel_tcg import TABLE, is_search_id, is_strategy_id
from strategies.novel_tcg.policies import choose, nb_view, policy_view
from strategies.novel_tcg.weights import POLICY_RULES_SIZE, with_policy

engine_cache.install()

C_RANK0, C_RANK1, C_TEMPLATE0, C_TEMPLATE1, C_FIRST, C_STRATEGY0, C_STRATEGY1 = range(7)
CELL_SIZE = 7
LENGTH_BINS = 128
N_RECORD = agg.REC_COUNTERS + L.N_COUNTERS
MAX_STEPS = 200_000  # a safety net: the turn cap ends every match long before


def cell_of(values: dict, strategy0: int, strategy1: int) -> np.ndarray:
    """`GameSpec.cell_array`: {rank: (r0, r1), deck: "swarm/advance" or "curve", first} + strategy ids
    -> cell array."""
    rank0, rank1 = (check_rank(int(v), "rank") for v in values["rank"])
    template0, template1 = split_decks(values["deck"])
    return np.array([rank0, rank1, TEMPLATES.index(template0), TEMPLATES.index(template1), int(values["first"]),
                     strategy0, strategy1], dtype=np.int64)


def split_decks(name: str) -> tuple[str, str]:
    """"swarm/advance" -> ("swarm", "advance") (seat 0, seat 1); "curve" -> ("curve", "curve")."""
    parts = str(name).split("/")
    parts = parts * 2 if len(parts) == 1 else parts
    if len(parts) != 2 or not all(p in TEMPLATES for p in parts):
        raise CardbalanceError("deck '%s' must be a template or TEMPLATE/TEMPLATE (seat 0, seat 1) with templates %s, "
                               "e.g. curve or swarm/advance." % (name, ", ".join(TEMPLATES)))
    return parts[0], parts[1]


def decks_of(rules_array, cell) -> tuple[np.ndarray, np.ndarray]:
    """Both seats' deck lists (ascending kinds) for a cell under a rules array."""
    decks = []
    for seat in (0, 1):
        counts = deck_counts_from_array(rules_array, TEMPLATES[int(cell[C_TEMPLATE0 + seat])], int(cell[C_RANK0 + seat]))
        decks.append(np.array([k for k, c in counts.items() for _ in range(c)], dtype=np.int64))
    return decks[0], decks[1]


def played_with(rules_array, cell, data=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rules array, deck 0, deck 1) a cell plays: a run's stored card pool and deck lists when
    `data` (the run's game data, pool_data.py) lists these rules, else generated from the rules."""
    stored = pool_data.stored(data, rules_array)
    if stored is None:
        return (rules_array, *decks_of(rules_array, cell))
    pool, decks = stored
    return (pool_data.rules_with_pool(rules_array, pool),
            *(pool_data.stored_deck(decks, TEMPLATES[int(cell[C_TEMPLATE0 + seat])], int(cell[C_RANK0 + seat]))
              for seat in (0, 1)))


# ---------------------------------------------------------------- the compiled loop
@nb.njit(cache=True)
def start_match(rules, cell, deck0, deck1, seed, state, policy):
    """A new match of `cell` from its match seed, and each seat's policy stream."""
    K.new_match(state, rules, cell[C_RANK0], cell[C_RANK1], deck0, deck1, cell[C_FIRST], np.int64(seed))
    policy[0] = np.int64(rng.nb_match_seed(seed, 1))
    policy[1] = np.int64(rng.nb_match_seed(seed, 2))


@nb.njit(cache=True)
def decide(rules, cell, state, legal, n, view, policy):
    """Index into `legal[:n]` of the active seat's choice (0 when there is no choice)."""
    if n <= 1:
        return 0
    seat = state[L.S_ACTIVE]
    policy_view(cell[C_STRATEGY0 + seat], state, seat, view)
    return choose(cell[C_STRATEGY0 + seat], view, rules, legal, n, policy, seat)


@nb.njit(cache=True)
def play_match_in(rules, cell, deck0, deck1, seed, record, state, legal, view, policy):
    start_match(rules, cell, deck0, deck1, seed, state, policy)
    steps = 0
    while state[L.S_PHASE] != L.PH_OVER and steps < MAX_STEPS:
        n = K.legal_actions(state, rules, legal)
        K.apply_action(state, rules, legal[decide(rules, cell, state, legal, n, view, policy)])
        steps += 1
    fill_record(state, record)
    return steps


@nb.njit(cache=True)
def fill_record(state, record):
    """The finished match's record (sim/aggregate.py)."""
    winner = state[L.S_WINNER]
    record[agg.REC_WINNER] = winner if winner >= 0 else agg.DRAW
    record[agg.REC_END_TYPE] = state[L.S_END_TYPE]
    record[agg.REC_TURNS] = state[L.S_TURN]
    record[agg.REC_LIFE0] = state[K.seat_at(0, L.P_HP)]
    record[agg.REC_LIFE1] = state[K.seat_at(1, L.P_HP)]
    record[agg.REC_FIRST] = state[L.S_FIRST]
    for k in range(L.N_COUNTERS):
        record[agg.REC_COUNTERS + k] = state[L.G_SIZE + k]


@nb.njit(cache=True)
def _play_batch(rules, cell, deck0, deck1, chunk_seed, start_index, n_matches, out):
    record = np.zeros(N_RECORD, dtype=np.int64)
    state = np.zeros(L.STATE_SIZE, dtype=np.int64)
    legal = np.zeros(K.MAX_LEGAL, dtype=np.int64)
    view = np.zeros(L.STATE_SIZE, dtype=np.int64)
    policy = np.zeros(2, dtype=np.int64)
    steps = 0
    for i in range(n_matches):
        seed = rng.nb_match_seed(chunk_seed, start_index + i)
        steps += play_match_in(rules, cell, deck0, deck1, seed, record, state, legal, view, policy)
        agg.accumulate(out, record, L.N_END_TYPES, L.N_COUNTERS, LENGTH_BINS)
    return steps


@nb.njit(cache=True)
def _play_paired_batch(rules_a, rules_b, cell, a0, a1, b0, b1, chunk_seed, start_index, n_matches, out):
    record_a = np.zeros(N_RECORD, dtype=np.int64)
    record_b = np.zeros(N_RECORD, dtype=np.int64)
    state = np.zeros(L.STATE_SIZE, dtype=np.int64)
    legal = np.zeros(K.MAX_LEGAL, dtype=np.int64)
    view = np.zeros(L.STATE_SIZE, dtype=np.int64)
    policy = np.zeros(2, dtype=np.int64)
    for i in range(n_matches):
        seed = rng.nb_match_seed(chunk_seed, start_index + i)
        play_match_in(rules_a, cell, a0, a1, seed, record_a, state, legal, view, policy)
        play_match_in(rules_b, cell, b0, b1, seed, record_b, state, legal, view, policy)
        agg.accumulate_paired(out, record_a, record_b, L.N_END_TYPES)


def checked_cell(cell) -> np.ndarray:
    cell = np.ascontiguousarray(cell, dtype=np.int64)
    if cell.shape != (CELL_SIZE,):
        raise CardbalanceError("cell array must have %d entries (got shape %s)." % (CELL_SIZE, cell.shape))
    for seat in (0, 1):
        if not is_strategy_id(int(cell[C_STRATEGY0 + seat])):
            raise CardbalanceError("cell: strategy%d must be a novel_tcg strategy id %s (got %r)." % (
                seat, TABLE.listing(), int(cell[C_STRATEGY0 + seat])))
    return cell


def _searches(cell) -> bool:
    """A search agent in a seat: the cell plays the search loop (`search_batch.py`)."""
    return is_search_id(cell[C_STRATEGY0]) or is_search_id(cell[C_STRATEGY1])


def checked_rules(rules_array) -> np.ndarray:
    """A contiguous int64 rules array with a policy block: a plain one gets the shipped tuned
    weights (`tuned` plays them wherever a strategy name is accepted; weights.py)."""
    rules_array = np.ascontiguousarray(rules_array, dtype=np.int64)
    if rules_array.shape == (RULES_ARRAY_SIZE,):
        return with_policy(rules_array)
    if rules_array.shape != (POLICY_RULES_SIZE,):
        raise CardbalanceError("rules array must have %d entries, or %d with a policy block (got shape %s)." % (
            RULES_ARRAY_SIZE, POLICY_RULES_SIZE, rules_array.shape))
    return rules_array


def play_batch(rules_array, cell, chunk_seed, start_index, n_matches, data=None) -> np.ndarray:
    """`GameSpec.play_batch` on the numba kernel (`data`: the run's game data, `played_with`)."""
    rules_array, cell = checked_rules(rules_array), checked_cell(cell)
    rules_array, deck0, deck1 = played_with(rules_array, cell, data)
    out = agg.empty_aggregate(L.N_END_TYPES, L.N_COUNTERS, LENGTH_BINS, by_end=True)  # deck-out turns by seat
    _run_batch(rules_array, cell, deck0, deck1, chunk_seed, start_index, n_matches, out)
    return out


def _run_batch(rules_array, cell, deck0, deck1, chunk_seed, start_index, n_matches, out) -> int:
    """The cell's loop (scripted, or the search loop of search_batch.py, imported only then so
    that a scripted command never compiles it) into `out`; returns the actions applied."""
    arguments = (rules_array, cell, deck0, deck1, np.uint64(chunk_seed), np.int64(start_index), np.int64(n_matches),
                 out)
    if _searches(cell):
        from strategies.novel_tcg import search_batch as S
        return S.play_batch_search(*arguments, S.cell_workspace(cell))
    return _play_batch(*arguments)


def play_paired_batch(rules_a, rules_b, cell, chunk_seed, start_index, n_matches, data=None) -> np.ndarray:
    rules_a, rules_b, cell = checked_rules(rules_a), checked_rules(rules_b), checked_cell(cell)
    rules_a, a0, a1 = played_with(rules_a, cell, data)
    rules_b, b0, b1 = played_with(rules_b, cell, data)
    out = agg.empty_paired(L.N_END_TYPES)
    if _searches(cell):
        from strategies.novel_tcg import search_batch as S
        S.play_paired_search(rules_a, rules_b, cell, a0, a1, b0, b1, np.uint64(chunk_seed), np.int64(start_index),
                             np.int64(n_matches), out, S.cell_workspace(cell))
        return out
    _play_paired_batch(rules_a, rules_b, cell, a0, a1, b0, b1, np.uint64(chunk_seed), np.int64(start_index),
                       np.int64(n_matches), out)
    return out


def play_batch_steps(rules_array, cell, chunk_seed, start_index, n_matches) -> tuple[np.ndarray, int]:
    """play_batch and the number of actions applied (the bench's actions/s)."""
    rules_array, cell = checked_rules(rules_array), checked_cell(cell)
    deck0, deck1 = decks_of(rules_array, cell)
    out = agg.empty_aggregate(L.N_END_TYPES, L.N_COUNTERS, LENGTH_BINS, by_end=True)
    steps = _run_batch(rules_array, cell, deck0, deck1, chunk_seed, start_index, n_matches, out)
    return out, int(steps)


# ---------------------------------------------------------------- the reference loop
def play_match(rules: Rules, cell, seed: int, on_step=None, after_step=None, data=None) -> Match:
    """One match on the reference engine with the same policies (compiled, called on its packed view);
    `on_step(match, action)` sees each action before it is applied, `after_step` after. With a run's
    `data` it plays the stored decks; the reference engine builds its pool from the rules, so a run
    whose stored pool differs from this code's is refused in one line."""
    cell = checked_cell(cell)
    rules_array = checked_rules(rules.to_array())  # with the shipped tuned weights, as a batch plays them
    played, deck0, deck1 = played_with(rules_array, cell, data)
    if not np.array_equal(played, rules_array):
        raise CardbalanceError("this run played a card pool other than the one this code generates from its rules "
                               "(its copy: data/%s); a single match replays only with this code's pool."
                               % pool_data.DATA_NAME)
    seed = int(seed) & rng.MASK64
    match = Match(rules, (int(cell[C_RANK0]), int(cell[C_RANK1])), [deck0.tolist(), deck1.tolist()],
                  int(cell[C_FIRST]), seed)
    policy = np.array([rng.to_signed(rng.match_seed(seed, 1)), rng.to_signed(rng.match_seed(seed, 2))], dtype=np.int64)
    view = np.zeros(L.STATE_SIZE, dtype=np.int64)
    workspace = None
    steps = 0
    while not match.over and steps < MAX_STEPS:
        legal = match.legal_actions()
        index = 0
        match.search_candidates = None
        if len(legal) > 1:
            seat = match.active
            nb_view(match.pack(), seat, view)
            strategy = int(cell[C_STRATEGY0 + seat])
            if is_search_id(strategy):  # the compiled agent, its worlds on the kernel
                from strategies import search_tree as T
                from strategies.novel_tcg import search_batch as S
                workspace = S.cell_workspace(cell) if workspace is None else workspace
                index = S.search_choice(strategy, view, rules_array, legal, policy, seat, workspace)
                match.search_candidates = [(legal[i], visits, points) for i, visits, points in
                                           T.last_statistics(workspace)]
            else:
                index = int(choose(np.int64(strategy), view, rules_array, np.array(legal, dtype=np.int64),
                                   np.int64(len(legal)), policy, np.int64(seat)))
        if on_step is not None:
            on_step(match, legal[index])
        match.apply(legal[index])
        if after_step is not None:
            after_step(match, legal[index])
        steps += 1
    return match


def record_of(match: Match) -> np.ndarray:
    record = np.zeros(N_RECORD, dtype=np.int64)
    record[:] = match.record()
    if record[agg.REC_WINNER] < 0:
        record[agg.REC_WINNER] = agg.DRAW
    return record


def reference_record(rules, cell, match_seed, data=None) -> np.ndarray:
    """`GameSpec.reference_play_match`: the record of one match on the reference engine."""
    if not hasattr(rules, "to_array"):
        raise CardbalanceError("the reference loop needs a Rules object, not a packed array.")
    return record_of(play_match(rules, cell, match_seed, data=data))


def kernel_record(rules_array, cell, match_seed) -> np.ndarray:
    """The record of one match on the kernel (tests compare it with `reference_record`)."""
    rules_array, cell = checked_rules(rules_array), checked_cell(cell)
    deck0, deck1 = decks_of(rules_array, cell)
    record = np.zeros(N_RECORD, dtype=np.int64)
    buffers = (np.zeros(L.STATE_SIZE, dtype=np.int64), np.zeros(K.MAX_LEGAL, dtype=np.int64),
               np.zeros(L.STATE_SIZE, dtype=np.int64), np.zeros(2, dtype=np.int64))
    seed = np.uint64(int(match_seed) & rng.MASK64)
    if _searches(cell):
        from strategies.novel_tcg import search_batch as S
        S.play_match_search(rules_array, cell, deck0, deck1, seed, record, *buffers, S.cell_workspace(cell))
    else:
        play_match_in(rules_array, cell, deck0, deck1, seed, record, *buffers)
    return record
