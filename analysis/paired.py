"""Paired differences between two rule sets, with their confidence intervals.

`cardbalance compare` plays match i of BASE and match i of TWEAK from the same
seed (common random numbers), and the paired kernel keeps, per cell and per
metric, Σa, Σb, Σa², Σb², Σab (sim/aggregate.py). That is all a paired
interval needs: the per-match difference d = b − a has Σd = Σb − Σa and
Σd² = Σb² − 2Σab + Σa², so Var(d) = Var(a) + Var(b) − 2 Cov(a, b). When the
tweak changes few matches, a and b are strongly correlated and the paired
interval is much narrower than the unpaired one (Var(a) + Var(b)) on the same
matches; both are reported so the gain is visible.

Cells are pooled into *scopes* with equal weight per cell (every cell of a
comparison gets the same number of matches, so this equals pooling the
matches): `all`, each series (a value of the game's choice dimensions, e.g. a
pairing: both first-player orders, every axis value and strategy), each
`series@<axis><V>` at one value of the per-seat axis (e.g. `@life50`, or
`@life30-60` for unequal seats), and `series@<s0>:<s1>` when several strategy
pairs are played (roles: analysis/dimensions.py). The variance is the stratified one,
(1/K²) Σ_cells Var_c / n_c, which does not count differences *between* cells
(e.g. the two first-player orders) as noise.

Intervals are normal-approximation intervals on the mean difference, which is
what a sum of thousands of matches supports; the single-arm rates use the
Wilson interval (analysis/stats.py). For rates the variances carry
pseudo-counts (Agresti-Caffo unpaired, Agresti-Min paired): with none of them
a tweak that changed no match in the sample, or an event that never happened
in either arm, would get a zero-width interval and decide a gate on luck.
Sums are combined in exact integer arithmetic, so identical rule sets give a
delta of exactly 0 (its interval about ±2/n wide, the honest uncertainty
about a difference never observed). Match length has no pseudo-count: it is
zero-width only when every match of both arms has the same difference.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analysis.stats import Z95, wilson_interval
from sim.registry import per_seat_label
from sim import aggregate as agg

RATE, MEAN = "rate", "mean"
METRIC_COLUMNS = (
    "scope", "metric", "kind", "n_base", "n_tweak",
    "base", "base_low", "base_high", "tweak", "tweak_low", "tweak_high",
    "delta", "delta_low", "delta_high", "delta_se", "unpaired_low", "unpaired_high", "unpaired_se", "paired",
    "base_se", "tweak_se", "identical",
)


@dataclass(frozen=True)
class Metric:
    name: str
    index: int  # row of the paired sums (sim/aggregate.py METRIC_*)
    kind: str  # RATE (0/1 per match) or MEAN
    description: str


def metric_catalogue(end_types, special_end_types=()) -> dict[str, Metric]:
    """Metric name (as written in gate expressions) -> Metric, for a game's end types."""
    metrics = [
        Metric("win_rate", agg.METRIC_SEAT0_WIN, RATE,
               "seat 0 wins (in a game with named sides: the first side of the series name), over ALL matches: a draw counts as not won "
               "(the sweep report's 'seat0 share' is over decided matches)"),
        Metric("seat1_win_rate", agg.METRIC_SEAT1_WIN, RATE, "seat 1 wins, over all matches"),
        Metric("draws", agg.METRIC_DRAW, RATE, "share of drawn matches"),
        Metric("first_player_win_rate", agg.METRIC_FIRST_WIN, RATE,
               "the player who moved first wins, over all matches (0.5 = no advantage only when nothing is drawn; "
               "the sweep report's first-player advantage is over decided matches)"),
        Metric("turns", agg.METRIC_TURNS, MEAN, "mean match length in turns"),
    ]
    taken = {metric.name for metric in metrics}
    for code, end_type in enumerate(end_types):
        if end_type == "none":  # a code no finished match has
            continue
        name = end_type if end_type not in taken else "end_" + end_type
        kind = "special victory" if end_type in special_end_types else "end type"
        metrics.append(Metric(name, agg.METRIC_END_TYPES + code, RATE, "share of matches ending by %s (%s)" % (end_type, kind)))
        taken.add(name)
    return {metric.name: metric for metric in metrics}


# Metric names before issue 17: "winrate" read as a win rate but counted a draw as a loss,
# while the sweep reports' shares are over decided matches. The names now say what they count.
RENAMED_METRICS = {"winrate": "win_rate", "seat1_winrate": "seat1_win_rate",
                   "first_player_advantage": "first_player_win_rate"}


def _axis_label(cell) -> str:
    """The per-seat axis in a scope name: its dimension's name and value ('life50', 'hp30-60';
    analysis/dimensions.py reads any game's axis as axis0/axis1); "" for a game without one."""
    if not cell.get("axis_name"):
        return ""
    return cell["axis_name"] + per_seat_label(cell["axis0"], cell["axis1"]).replace("/", "-")


def scope_cells(cells) -> dict[str, list[int]]:
    """Scope name -> positions of its cells in `cells` (dicts with the grid columns)."""
    scopes: dict[str, list[int]] = {"all": list(range(len(cells)))}
    strategy_pairs = {(c["strategy0"], c["strategy1"]) for c in cells}
    for position, cell in enumerate(cells):
        series = cell["series"]
        names = [series] + (["%s@%s" % (series, _axis_label(cell))] if _axis_label(cell) else [])
        if len(strategy_pairs) > 1:
            names.append("%s@%s:%s" % (series, cell["strategy0"], cell["strategy1"]))
        for name in names:
            if name == "all":  # a game without a choice dimension names its one series "all": count once
                continue
            scopes.setdefault(name, []).append(position)
    return scopes


@dataclass(frozen=True)
class ArmSums:
    """Per-cell sums of one arm for one metric: n, Σx, Σx² (int arrays, one entry per cell)."""
    n: np.ndarray
    total: np.ndarray
    squares: np.ndarray


def _mean_and_variance(n: int, total: int, squares: int):
    """Mean and variance of the mean from exact integer sums (variance inf for n < 2)."""
    if n <= 0:
        return math.nan, math.inf
    mean = total / n
    if n < 2:
        return mean, math.inf
    numerator = n * squares - total * total  # exact: Python ints
    return mean, max(numerator, 0) / (n * n * (n - 1))


def _rate_variance(n: int, successes: int) -> float:
    """Variance of a rate's mean with Agresti-Caffo pseudo-counts (one success, one
    failure added): never 0, so 0 of n events still leaves an interval."""
    if n <= 0:
        return math.inf
    adjusted = (successes + 1) / (n + 2)
    return adjusted * (1 - adjusted) / (n + 2)


def _paired_rate_variance(n: int, difference_total: int, difference_squares: int) -> float:
    """Variance of a paired rate difference with Agresti-Min pseudo-counts.

    For 0/1 metrics d = b - a is -1, 0 or +1, so the discordant counts are
    recovered from the sums: up = (Σd² + Σd) / 2, down = (Σd² - Σd) / 2. Half a
    pair is added to each discordant cell, so a tweak that changed no match
    still gets an interval of about ±2/n instead of a zero-width one.
    """
    if np.ndim(n) == 0 and n <= 0:
        return math.inf
    up = (difference_squares + difference_total) / 2 + 0.5
    down = (difference_squares - difference_total) / 2 + 0.5
    m = n + 2
    return np.maximum((up + down) - (up - down) ** 2 / m, 0.0) / (m * m)  # numpy: also over arrays


def pooled_paired_rate(n, difference_totals, difference_squares):
    """Vectorised twin of the paired rate delta (equal-weight over the last axis, the cells):
    (delta, se) arrays. For the gate's calibration (analysis/calibration.py), which
    replays thousands of comparisons at once with the same variance formula."""
    n = np.asarray(n, dtype=float)
    totals = np.asarray(difference_totals, dtype=float)
    squares = np.asarray(difference_squares, dtype=float)
    k = n.shape[-1]
    delta = np.mean(totals / n, axis=-1)
    variance = np.sum(_paired_rate_variance(n, totals, squares), axis=-1) / (k * k)
    return delta, np.sqrt(variance)


def _pooled(n, total, squares, kind: str = MEAN, paired_difference: bool = False):
    """Equal-weight mean over cells and its stratified variance."""
    means, variances = [], []
    for cell_n, cell_total, cell_squares in zip(n, total, squares):
        cell_n, cell_total, cell_squares = int(cell_n), int(cell_total), int(cell_squares)
        mean, variance = _mean_and_variance(cell_n, cell_total, cell_squares)
        if kind == RATE:
            variance = (_paired_rate_variance(cell_n, cell_total, cell_squares) if paired_difference
                        else _rate_variance(cell_n, cell_total))
        means.append(mean)
        variances.append(variance)
    k = len(means)
    return sum(means) / k, sum(variances) / (k * k)


def estimate(metric: Metric, base: ArmSums, tweak: ArmSums, cross=None, z: float = Z95) -> dict:
    """One row of the comparison table for one metric over a set of cells.

    `cross` (per-cell Σab) is given for a paired comparison (then base.n and
    tweak.n must be equal cell by cell); without it only the unpaired interval
    exists and the delta's interval is the unpaired one.
    """
    row = {"metric": metric.name, "kind": metric.kind,
           "n_base": int(np.sum(base.n)), "n_tweak": int(np.sum(tweak.n))}
    base_mean, base_var = _pooled(base.n, base.total, base.squares, metric.kind)
    tweak_mean, tweak_var = _pooled(tweak.n, tweak.total, tweak.squares, metric.kind)
    for prefix, mean, var, arm in (("base", base_mean, base_var, base), ("tweak", tweak_mean, tweak_var, tweak)):
        row[prefix] = mean
        row[prefix + "_se"] = math.sqrt(var)
        if metric.kind == RATE:
            low, high = wilson_interval(mean * row["n_" + prefix], row["n_" + prefix], z)
        else:
            half = z * math.sqrt(var)
            low, high = mean - half, mean + half
        row[prefix + "_low"], row[prefix + "_high"] = low, high
    delta = tweak_mean - base_mean
    unpaired_se = math.sqrt(base_var + tweak_var)
    row["delta"] = delta
    row["unpaired_se"] = unpaired_se
    row["unpaired_low"], row["unpaired_high"] = _around(delta, unpaired_se, z)
    if cross is not None:
        if not np.array_equal(np.asarray(base.n), np.asarray(tweak.n)):
            raise ValueError("a paired comparison needs the same matches in both arms")
        difference_totals = [int(b) - int(a) for a, b in zip(base.total, tweak.total)]
        difference_squares = [int(bb) - 2 * int(ab) + int(aa)
                              for aa, bb, ab in zip(base.squares, tweak.squares, cross)]
        _, paired_var = _pooled(base.n, difference_totals, difference_squares, metric.kind, paired_difference=True)
        row["delta_se"] = math.sqrt(paired_var)
        row["paired"] = True
        # No pair differs in this metric: the gate may read delta as exactly 0 (analysis/decisions.py).
        row["identical"] = all(square == 0 for square in difference_squares)
    else:
        row["delta_se"] = unpaired_se
        row["paired"] = False
        row["identical"] = False
    row["delta_low"], row["delta_high"] = _around(delta, row["delta_se"], z)
    if metric.kind == RATE:  # a difference of two rates lies in [-1, 1]
        for key in ("delta_low", "delta_high", "unpaired_low", "unpaired_high"):
            row[key] = min(max(row[key], -1.0), 1.0)
    return row


def _around(centre: float, se: float, z: float):
    if se == 0.0:  # exact: no spread at all (e.g. identical arms), not a rounding artefact
        return centre, centre
    return centre - z * se, centre + z * se


def paired_table(cells, n, sums, metrics: dict[str, Metric], z: float = Z95) -> pd.DataFrame:
    """Tidy table (METRIC_COLUMNS) of a paired comparison.

    `n`: matches per cell (C,); `sums`: paired sums (C, metrics, 5) in the
    sim/aggregate.py layout.
    """
    sums = np.asarray(sums)
    n = np.asarray(n)
    rows = []
    for scope, positions in scope_cells(cells).items():
        for metric in metrics.values():
            block = sums[positions, metric.index, :]
            base = ArmSums(n[positions], block[:, agg.P_SUM_A], block[:, agg.P_SQ_A])
            tweak = ArmSums(n[positions], block[:, agg.P_SUM_B], block[:, agg.P_SQ_B])
            rows.append({"scope": scope, **estimate(metric, base, tweak, block[:, agg.P_CROSS], z)})
    return pd.DataFrame(rows, columns=list(METRIC_COLUMNS))


def unpaired_table(cells, base_n, base_sums, tweak_n, tweak_sums, metrics: dict[str, Metric],
                   z: float = Z95) -> pd.DataFrame:
    """Tidy table of an unpaired comparison (e.g. TWEAK against a stored baseline).

    `*_sums`: (C, metrics, 2) arrays of Σx, Σx² per cell and metric.
    """
    base_sums, tweak_sums = np.asarray(base_sums), np.asarray(tweak_sums)
    base_n, tweak_n = np.asarray(base_n), np.asarray(tweak_n)
    rows = []
    for scope, positions in scope_cells(cells).items():
        for metric in metrics.values():
            base = ArmSums(base_n[positions], base_sums[positions, metric.index, 0], base_sums[positions, metric.index, 1])
            tweak = ArmSums(tweak_n[positions], tweak_sums[positions, metric.index, 0], tweak_sums[positions, metric.index, 1])
            rows.append({"scope": scope, **estimate(metric, base, tweak, None, z)})
    return pd.DataFrame(rows, columns=list(METRIC_COLUMNS))


def arm_sums_from_paired(sums, arm: str) -> np.ndarray:
    """(C, metrics, 2) Σx, Σx² of one arm ("base" or "tweak") taken from paired sums."""
    sums = np.asarray(sums)
    if arm == "base":
        return np.stack([sums[..., agg.P_SUM_A], sums[..., agg.P_SQ_A]], axis=-1)
    return np.stack([sums[..., agg.P_SUM_B], sums[..., agg.P_SQ_B]], axis=-1)


def arm_sums_from_aggregate(aggregate, n_end_types: int) -> np.ndarray:
    """(metrics, 2) Σx, Σx² of one arm from a chunk's aggregate vector (sim/aggregate.py).

    Lets a single arm be played with `play_batch` (half the work of a paired
    batch) when there is nothing to pair it with, e.g. against a baseline.
    """
    aggregate = np.asarray(aggregate, dtype=np.int64)
    out = np.zeros((agg.paired_metric_count(n_end_types), 2), dtype=np.int64)
    outcomes = aggregate[agg.A_OUTCOMES:agg.A_OUTCOMES + 3 * n_end_types].reshape(3, n_end_types)
    wins = outcomes.sum(axis=1)  # seat0 wins, seat1 wins, draws
    for index, value in ((agg.METRIC_SEAT0_WIN, wins[0]), (agg.METRIC_SEAT1_WIN, wins[1]), (agg.METRIC_DRAW, wins[2]),
                         (agg.METRIC_FIRST_WIN, aggregate[agg.first_win_slot(n_end_types)])):
        out[index] = value, value  # 0/1 indicators: Σx² = Σx
    out[agg.METRIC_TURNS] = aggregate[agg.A_TURNS_SUM], aggregate[agg.A_TURNS_SQ]
    end_counts = outcomes.sum(axis=0)
    for code in range(n_end_types):
        out[agg.METRIC_END_TYPES + code] = end_counts[code], end_counts[code]
    return out


def lookup_estimate(table: pd.DataFrame, scope: str, metric: str, stat: str):
    """(value, standard error, identical pairs, is a rate, matches of the scope) of a gate field;
    abs_delta reads delta's (analysis/decisions.py turns it into |delta| comparisons)."""
    row = table[(table["scope"] == scope) & (table["metric"] == metric)]
    if row.empty:
        raise KeyError("%s.%s" % (scope, metric))
    row = row.iloc[0]
    if stat in ("base", "tweak"):
        return float(row[stat]), float(row[stat + "_se"]), False, row["kind"] == RATE, int(row["n_" + stat])
    if stat in ("delta", "abs_delta"):
        return (float(row["delta"]), float(row["delta_se"]), bool(row["identical"]), row["kind"] == RATE,
                int(row["n_tweak"]))
    raise KeyError(stat)


def lookup_interval(table: pd.DataFrame, scope: str, metric: str, stat: str):
    """(value, low, high) of a gate field from a comparison table."""
    row = table[(table["scope"] == scope) & (table["metric"] == metric)]
    if row.empty:
        raise KeyError("%s.%s" % (scope, metric))
    row = row.iloc[0]
    if stat in ("base", "tweak"):
        return float(row[stat]), float(row[stat + "_low"]), float(row[stat + "_high"])
    value, low, high = float(row["delta"]), float(row["delta_low"]), float(row["delta_high"])
    if stat == "delta":
        return value, low, high
    if stat == "abs_delta":  # |d| over the interval [low, high]
        low_abs = 0.0 if low <= 0.0 <= high else min(abs(low), abs(high))
        return abs(value), low_abs, max(abs(low), abs(high))
    raise KeyError(stat)
