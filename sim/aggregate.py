"""What one match leaves behind, and how chunks of matches add up.

Kernels never keep per-match rows (memory stays flat in the number of
matches). A match ends in a small *record*; `accumulate` folds records into
one flat int64 *aggregate vector* per chunk; vectors of the same cell simply
add. The layout is generic over games: a game declares how many end types,
counters and length-histogram bins it has (`sim.registry.GameSpec`).

Record (int64, REC_COUNTERS + n_counters long):
    winner (0 / 1 seat, 2 = draw), end_type, turns, life0, life1, first, counters...

Aggregate vector (int64, `agg_size(T, C, H)` long):
    [0] matches  [1] Σturns  [2] Σturns²  [3] Σ(life0-life1)  [4] Σ(life0-life1)²
    [5 ...]      outcome counts, 3 rows (seat0 wins, seat1 wins, draws) × T end types
    then         first-player wins (1) , then counters (C), then the turns histogram (H bins,
                 the last bin holds every longer match)
    optional     the turns histogram by outcome (3 rows, as above) x end type (T) x H bins:
                 when and by whom each end type happened ("life wins of seat 1 by turn").
                 A game opts in by allocating `empty_aggregate(..., by_end=True)`; `accumulate`
                 fills the block only when the vector has it, so vectors without it (and
                 their digests) are unchanged.
"""

import numba as nb
import numpy as np

REC_WINNER = 0
REC_END_TYPE = 1
REC_TURNS = 2
REC_LIFE0 = 3
REC_LIFE1 = 4
REC_FIRST = 5
REC_COUNTERS = 6
DRAW = 2

A_MATCHES = 0
A_TURNS_SUM = 1
A_TURNS_SQ = 2
A_MARGIN_SUM = 3
A_MARGIN_SQ = 4
A_OUTCOMES = 5


def agg_size(n_end_types: int, n_counters: int, n_bins: int) -> int:
    return A_OUTCOMES + 3 * n_end_types + 1 + n_counters + n_bins


def first_win_slot(n_end_types: int) -> int:
    return A_OUTCOMES + 3 * n_end_types


def counters_slot(n_end_types: int) -> int:
    return first_win_slot(n_end_types) + 1


def hist_slot(n_end_types: int, n_counters: int) -> int:
    return counters_slot(n_end_types) + n_counters


@nb.njit(cache=True)
def accumulate(agg, record, n_end_types, n_counters, n_bins):
    """Fold one match record into an aggregate vector (see module docstring)."""
    winner = record[REC_WINNER]
    turns = record[REC_TURNS]
    margin = record[REC_LIFE0] - record[REC_LIFE1]
    agg[A_MATCHES] += 1
    agg[A_TURNS_SUM] += turns
    agg[A_TURNS_SQ] += turns * turns
    agg[A_MARGIN_SUM] += margin
    agg[A_MARGIN_SQ] += margin * margin
    agg[A_OUTCOMES + winner * n_end_types + record[REC_END_TYPE]] += 1
    first_slot = A_OUTCOMES + 3 * n_end_types
    if winner == record[REC_FIRST]:
        agg[first_slot] += 1
    for k in range(n_counters):
        agg[first_slot + 1 + k] += record[REC_COUNTERS + k]
    bin_index = min(turns, n_bins - 1)
    agg[first_slot + 1 + n_counters + bin_index] += 1
    end_slot = first_slot + 1 + n_counters + n_bins
    if agg.shape[0] >= end_slot + 3 * n_end_types * n_bins:  # the optional block (empty_aggregate by_end)
        agg[end_slot + ((winner * n_end_types) + record[REC_END_TYPE]) * n_bins + bin_index] += 1


def end_hist_size(n_end_types: int, n_bins: int) -> int:
    """Slots of the optional by-outcome-and-end-type turns histogram."""
    return 3 * n_end_types * n_bins


def empty_aggregate(n_end_types: int, n_counters: int, n_bins: int, by_end: bool = False) -> np.ndarray:
    """A zero vector; `by_end` adds the turns histogram per outcome and end type."""
    size = agg_size(n_end_types, n_counters, n_bins) + (end_hist_size(n_end_types, n_bins) if by_end else 0)
    return np.zeros(size, dtype=np.int64)


# ---- paired sums for `cardbalance compare` (common random numbers) -----------------
# Per match, both arms give a metric vector
#     [seat0 win, seat1 win, draw, first-player win, turns, end type 0 .. T-1 indicators]
# and the paired kernel keeps, per metric, Σa, Σb, Σa², Σb², Σab (one row each),
# which is all a paired (or unpaired) mean-difference interval needs.
P_SUM_A, P_SUM_B, P_SQ_A, P_SQ_B, P_CROSS = 0, 1, 2, 3, 4
PAIRED_STATS = 5
METRIC_SEAT0_WIN, METRIC_SEAT1_WIN, METRIC_DRAW, METRIC_FIRST_WIN, METRIC_TURNS = 0, 1, 2, 3, 4
METRIC_END_TYPES = 5


def paired_metric_count(n_end_types: int) -> int:
    return METRIC_END_TYPES + n_end_types


def empty_paired(n_end_types: int) -> np.ndarray:
    """(metrics, 5) sums; callers keep the number of pairs alongside."""
    return np.zeros((paired_metric_count(n_end_types), PAIRED_STATS), dtype=np.int64)


@nb.njit(cache=True, inline="always")
def _metric(record, index, n_end_types):
    winner = record[REC_WINNER]
    if index == METRIC_SEAT0_WIN:
        return 1 if winner == 0 else 0
    if index == METRIC_SEAT1_WIN:
        return 1 if winner == 1 else 0
    if index == METRIC_DRAW:
        return 1 if winner == DRAW else 0
    if index == METRIC_FIRST_WIN:
        return 1 if winner == record[REC_FIRST] else 0
    if index == METRIC_TURNS:
        return record[REC_TURNS]
    return 1 if record[REC_END_TYPE] == index - METRIC_END_TYPES else 0


@nb.njit(cache=True)
def accumulate_paired(paired, record_a, record_b, n_end_types):
    """Fold one pair of matches (same seed, two rule sets) into paired sums."""
    for index in range(METRIC_END_TYPES + n_end_types):
        a = _metric(record_a, index, n_end_types)
        b = _metric(record_b, index, n_end_types)
        paired[index, P_SUM_A] += a
        paired[index, P_SUM_B] += b
        paired[index, P_SQ_A] += a * a
        paired[index, P_SQ_B] += b * b
        paired[index, P_CROSS] += a * b
