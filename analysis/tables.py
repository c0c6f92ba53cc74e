"""Tidy pandas tables from a run: the numbers a designer reads.

Pure functions of a loaded `Run` (analysis/runs.py); no plotting, no
simulation. Every rate carries a 95 % Wilson interval as `<rate>_low` and
`<rate>_high`. Draws are always a column of their own.

Most tables are per *group* — a series (e.g. one pairing) at given per-seat
axis values (e.g. starting lives), strategies and rule set with both
first-player orders pooled (the verdict's unit; see
analysis/verdict.py for why pooling). Pooled *rates* weight the two
first-player orders equally (`stats.stratified_rate`): precision rounds may
give one order more matches, and a plain pooled ratio would then mix the
first-player advantage into the seats' rate. Pooled *counts* are plain
sums. `cells` keeps the raw per-cell view
(one row per first-player order). Tables carry two label columns for
display: `axis` ("50", or "30/60" when the seats start unequal) and
`variant` ("greedy:greedy default" — strategies and rules, for runs that
sweep more than one).

The code is generic over games: the grid's columns are read under the
neutral role names of analysis/dimensions.py (`series`, `seat0_name` /
`seat1_name`, `axis0` / `axis1`, `first`); end types, special end types and
counters come from the run's meta.json; only their names appear in labels.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from analysis import stats, verdict_design
from analysis.csv_cells import spreadsheet_safe
from analysis.derived_axes import derived_win_rates
from analysis.runs import GROUP_COLUMNS, OUTCOMES, Run
from analysis.verdict import (DEFAULT_ADJUST, DEFAULT_DELTA, HANDICAP, check_adjust, check_delta, decide_family,
                              normal_p_values, stratified_score_p_values)
from sim.errors import CardbalanceError
from sim.registry import per_seat_label, skill_label

GROUP = list(GROUP_COLUMNS)
LABELS = ["axis", "variant", "skill"]  # skill: the strategies dimension's name (sim.sweep.grid.skill_label)


# ---- shared building blocks ----------------------------------------------------------

def _with_outcome_totals(run: Run, frame: pd.DataFrame) -> pd.DataFrame:
    frame = frame.copy()
    for outcome, column in zip(OUTCOMES, ("seat0_wins", "seat1_wins", "draws")):
        frame[column] = frame[["%s_%s" % (outcome, end) for end in run.end_types]].sum(axis=1).astype("int64")
    frame["decisive"] = frame["seat0_wins"] + frame["seat1_wins"]
    return frame


def _labels(frame: pd.DataFrame) -> pd.DataFrame:
    frame["axis"] = [per_seat_label(a, b) for a, b in zip(frame["axis0"], frame["axis1"])]
    frame["variant"] = frame["strategy0"] + ":" + frame["strategy1"] + " " + frame["rules"]
    frame["skill"] = [skill_label(a, b) for a, b in zip(frame["strategy0"], frame["strategy1"])]
    frame["mirror"] = frame["seat0_name"] == frame["seat1_name"]
    return frame


def _series_order(run: Run) -> dict[str, int]:
    order: dict[str, int] = {}
    for series in run.results["series"]:
        order.setdefault(series, len(order))
    return order


def _sort(run: Run, frame: pd.DataFrame, extra=()) -> pd.DataFrame:
    order = _series_order(run)
    frame = frame.assign(_series_rank=frame["series"].map(order))
    keys = ["_series_rank", "strategy0", "strategy1", "rules", "axis0", "axis1", *extra]
    return frame.sort_values(keys, kind="stable").drop(columns="_series_rank").reset_index(drop=True)


def grouped_sums(run: Run) -> pd.DataFrame:
    """Per group: every summable column of results.parquet added over both first-player orders."""
    frame = _with_outcome_totals(run, run.results)
    numeric = [c for c in frame.columns if c not in GROUP and c not in ("cell", "first")
               and pd.api.types.is_numeric_dtype(frame[c]) and not pd.api.types.is_bool_dtype(frame[c])]
    sums = frame.groupby(GROUP, sort=False, dropna=False)[numeric].sum().reset_index()
    sums["first_orders"] = frame.groupby(GROUP, sort=False, dropna=False)["first"].nunique().to_numpy()
    return _sort(run, _labels(sums))


def _cell_frame(run: Run) -> pd.DataFrame:
    return _with_outcome_totals(run, run.results)


class Pooling:
    """Pooled rates of one cell frame, added to the rows of one table: the groups (a
    series × axis value, whose first-player orders are the strata) and each table row's
    group are found once; each rate is then a few array sums (`stats.stratified_rates`).
    The report pools about forty rates over the same groups; finding them per rate
    (a groupby and a merge each) was most of its table time."""

    def __init__(self, cell_frame: pd.DataFrame, table: pd.DataFrame):
        grouped = cell_frame[GROUP].groupby(GROUP, sort=False, dropna=False)
        self.cell_frame = cell_frame
        self.group_of_row = grouped.ngroup().to_numpy()
        self.keys = grouped.head(1)[GROUP].reset_index(drop=True)  # one row per group, in group order
        # where each table row's group is (NaN: none, as a left merge leaves it)
        numbered = self.keys.assign(_group=np.arange(len(self.keys)))
        self.table_rows = table[GROUP].merge(numbered, on=GROUP, how="left", validate="many_to_one")["_group"].to_numpy()

    def rates(self, successes, trials: str, name: str) -> pd.DataFrame:
        """Per group (in `keys` order): `name`, `name_low`, `name_high` — the first-player
        orders weighted equally (`stats.stratified_rate`) — `name_neff` (its effective sample
        size) and `name_warning` (non-empty when an order has no trials, so the rate is one
        order's only and the first-player advantage is not cancelled). `successes` is a
        column name or a Series aligned with the cell frame."""
        cells = self.cell_frame
        s = (cells[successes] if isinstance(successes, str) else successes).to_numpy(dtype=float)
        n = cells[trials].to_numpy(dtype=float)
        estimate, low, high, n_eff = stats.stratified_rates(self.group_of_row, s, n, len(self.keys))
        warnings = [""] * len(self.keys)
        first = cells["first"].to_numpy()
        for group in np.unique(self.group_of_row[n <= 0]):  # a group with an order without trials
            rows = self.group_of_row == group
            empty, kept = sorted(int(f) for f in first[rows & (n <= 0)]), sorted(int(f) for f in first[rows & (n > 0)])
            if empty and kept:
                warnings[group] = ("only first=%s has %s: the other order has none, so this rate does not cancel "
                                   "the first-player advantage" % (",".join(map(str, kept)), _trial_words(trials)))
        return pd.DataFrame({name: estimate, name + "_low": low, name + "_high": high, name + "_neff": n_eff,
                             name + "_warning": warnings})

    def score_p_values(self, successes: str, trials: str, delta: float):
        """(p_imbalanced, p_balanced) of the pooled rate against ½ ± delta, one per row of the
        table given at construction: the stratified score test (analysis.verdict), whose
        variance at each band edge is fitted to that edge, not the n_eff of `rates`."""
        cells = self.cell_frame
        p_imbalanced, p_balanced = stratified_score_p_values(
            self.group_of_row, cells[successes].to_numpy(dtype=float), cells[trials].to_numpy(dtype=float),
            len(self.keys), delta)
        rows = self.table_rows.astype(np.int64)  # every verdict row has its group (grouped_sums' rows)
        return p_imbalanced[rows], p_balanced[rows]

    def add(self, table: pd.DataFrame, name: str, successes, trials: str, detail: bool = False) -> pd.DataFrame:
        """`table` (the one given at construction, or a frame with the same rows) with the
        pooled rate's columns; without `detail`, not its n_eff and warning."""
        rates = self.rates(successes, trials, name)
        if not detail:
            rates = rates.drop(columns=[name + "_neff", name + "_warning"])
        aligned = rates.reindex(self.table_rows)
        aligned.index = table.index
        return pd.concat([table, aligned], axis=1)


def _trial_words(trials: str) -> str:
    return {"decisive": "decided matches", "matches": "matches"}.get(trials, trials)


def _turn_moments(frame: pd.DataFrame) -> pd.DataFrame:
    matches = frame["matches"].to_numpy(dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = np.where(matches > 0, frame["turns_sum"] / np.where(matches > 0, matches, 1), np.nan)
        variance = np.where(matches > 1, (frame["turns_sq"] - matches * mean * mean) / np.maximum(matches - 1, 1), np.nan)
    frame["mean_turns"] = mean
    frame["sd_turns"] = np.sqrt(np.maximum(variance, 0.0))
    return frame


# ---- the tables ------------------------------------------------------------------------

def cells(run: Run) -> pd.DataFrame:
    """One row per stored cell (first-player order kept apart): counts, rates, lengths."""
    frame = _labels(_with_outcome_totals(run, run.results))
    stats.add_rate_columns(frame, "seat0_win_rate", "seat0_wins", "matches")
    stats.add_rate_columns(frame, "seat1_win_rate", "seat1_wins", "matches")
    stats.add_rate_columns(frame, "draw_rate", "draws", "matches")
    stats.add_rate_columns(frame, "first_player_share", "first_player_wins", "decisive")
    frame = _turn_moments(frame)
    columns = ["cell", *GROUP, "first", *LABELS, "matches",
               "seat0_wins", "seat1_wins", "draws", "decisive", "first_player_wins"]
    rates = [c for c in frame.columns if c.endswith(("_rate", "_rate_low", "_rate_high", "_share", "_share_low", "_share_high"))]
    return _sort(run, frame[columns + rates + ["mean_turns", "sd_turns"]], extra=["first"])


def win_rates(run: Run) -> pd.DataFrame:
    """Per series and axis value: each seat's win rate, the draw rate (all over matches)
    and seat 0's decisive share (wins over decided matches), pooled over first player."""
    frame = grouped_sums(run)
    pooling = Pooling(_cell_frame(run), frame)
    frame = pooling.add(frame, "seat0_win_rate", "seat0_wins", "matches")
    frame = pooling.add(frame, "seat1_win_rate", "seat1_wins", "matches")
    frame = pooling.add(frame, "draw_rate", "draws", "matches")
    frame = pooling.add(frame, "seat0_share", "seat0_wins", "decisive")
    columns = [*GROUP, *LABELS, "mirror", "first_orders", "matches",
               "seat0_wins", "seat1_wins", "draws", "decisive"]
    rates = [c for c in frame.columns if c.startswith(("seat0_win_rate", "seat1_win_rate", "draw_rate", "seat0_share"))]
    return frame[columns + rates]


def first_player_advantage(run: Run) -> pd.DataFrame:
    """Per series and axis value: P(first player wins) − ½ over decided matches, with interval.

    `first_share` = first-player wins / decided matches; `advantage` = first_share − ½
    (interval shifted alike). `first_win_rate` is the same count over all matches,
    for reference: with draws it sits below ½ even in a fair game, which is why the
    advantage is taken over decided matches.
    """
    frame = grouped_sums(run)
    pooling = Pooling(_cell_frame(run), frame)
    frame = pooling.add(frame, "first_share", "first_player_wins", "decisive")
    frame = pooling.add(frame, "first_win_rate", "first_player_wins", "matches")
    frame = pooling.add(frame, "draw_rate", "draws", "matches")
    for suffix in ("", "_low", "_high"):
        frame["advantage" + suffix] = frame["first_share" + suffix] - 0.5
    columns = [*GROUP, *LABELS, "mirror", "first_orders", "matches",
               "decisive", "draws", "first_player_wins", "first_share", "first_share_low", "first_share_high",
               "advantage", "advantage_low", "advantage_high", "first_win_rate", "first_win_rate_low",
               "first_win_rate_high", "draw_rate", "draw_rate_low", "draw_rate_high"]
    return frame[columns]


def special_victories(run: Run) -> pd.DataFrame:
    """Per series, axis value, special end type and winning seat (with its name): frequency over all matches."""
    frame = grouped_sums(run)
    cell_frame = _cell_frame(run)
    pooling = Pooling(cell_frame, frame)  # every part below has frame's rows
    rows = []
    for end in run.special_end_types:
        for seat in (0, 1):
            part = frame[[*GROUP, *LABELS, "mirror", "matches"]].copy()
            part["end_type"] = end
            part["seat"] = seat
            part["seat_name"] = frame["seat%d_name" % seat]
            column = "seat%d_%s" % (seat, end)
            part["count"] = frame[column] if column in frame else 0
            successes = cell_frame[column] if column in cell_frame else pd.Series(0, index=cell_frame.index)
            rows.append(pooling.add(part, "rate", successes, "matches"))
    if not rows:
        columns = [*GROUP, *LABELS, "mirror", "matches", "end_type", "seat", "seat_name",
                   "count", "rate", "rate_low", "rate_high"]
        return pd.DataFrame(columns=columns)
    table = pd.concat(rows, ignore_index=True)
    ends = {end: i for i, end in enumerate(run.special_end_types)}
    table = table.assign(_end_rank=table["end_type"].map(ends))
    return _sort(run, table, extra=["_end_rank", "seat"]).drop(columns="_end_rank")


def win_types(run: Run) -> pd.DataFrame:
    """Per series and axis value: how matches ended — outcome (seat0 / seat1 / draw) × end type."""
    frame = grouped_sums(run)
    pooling = Pooling(_cell_frame(run), frame)  # every part below has frame's rows
    rows = []
    for outcome in OUTCOMES:
        for rank, end in enumerate(run.end_types):
            part = frame[[*GROUP, *LABELS, "mirror", "matches"]].copy()
            part["outcome"] = outcome
            part["end_type"] = end
            part["special"] = end in run.special_end_types
            part["count"] = frame["%s_%s" % (outcome, end)].astype("int64")
            part["_rank"] = OUTCOMES.index(outcome) * len(run.end_types) + rank
            rows.append(pooling.add(part, "rate", "%s_%s" % (outcome, end), "matches"))
    table = pd.concat(rows, ignore_index=True)
    return _sort(run, table, extra=["_rank"]).drop(columns="_rank")


def length_histogram(run: Run) -> pd.DataFrame:
    """Per series and axis value: the match-length histogram (turns, count, share), pooled over first player.
    The last bin of the game's histogram (`length_bins − 1`) counts every longer match."""
    keys = run.results[["cell", *GROUP]]
    lengths = run.lengths.merge(keys, on="cell", how="inner")
    if lengths.empty:
        table = pd.DataFrame(columns=[*GROUP, "turns", "count"])
    else:
        table = lengths.groupby([*GROUP, "turns"], sort=False)["count"].sum().reset_index()
    table = _labels(table)
    totals = table.groupby(GROUP, sort=False)["count"].transform("sum") if len(table) else table["count"]
    table["share"] = table["count"] / totals if len(table) else pd.Series(dtype=float)
    bins = run.meta.get("length_bins")
    table["overflow"] = (table["turns"] >= bins - 1) if bins else False
    return _sort(run, table, extra=["turns"])


def match_lengths(run: Run) -> pd.DataFrame:
    """Per series and axis value: mean and sd of match length (exact, from sums) and quantiles (from the histogram)."""
    frame = _turn_moments(grouped_sums(run))
    histogram = length_histogram(run)
    quantiles = {q: [] for q in ("p10", "median", "p90")}
    shares = []
    bins = run.meta.get("length_bins")
    for _, row in frame.iterrows():
        mask = np.ones(len(histogram), dtype=bool)
        for column in GROUP:
            mask &= (histogram[column] == row[column]).to_numpy()
        part = histogram[mask].sort_values("turns")
        counts = part["count"].to_numpy(dtype=float)
        turns = part["turns"].to_numpy()
        total = counts.sum()
        for q, level in zip(quantiles, (0.1, 0.5, 0.9)):
            if total <= 0:
                quantiles[q].append(np.nan)
            else:
                quantiles[q].append(float(turns[np.searchsorted(np.cumsum(counts), level * total)]))
        shares.append(float(counts[part["overflow"].to_numpy(dtype=bool)].sum() / total) if total > 0 and bins else 0.0)
    for q, values in quantiles.items():
        frame[q + "_turns"] = values
    frame["overflow_share"] = shares
    mean_margin = np.where(frame["matches"] > 0, frame["margin_sum"] / frame["matches"].where(frame["matches"] > 0, 1), np.nan)
    frame["mean_margin"] = mean_margin  # seat 0's end value minus seat 1's (the axis dimension's, e.g. life)
    columns = [*GROUP, *LABELS, "mirror", "matches", "mean_turns", "sd_turns", "p10_turns", "median_turns",
               "p90_turns", "overflow_share", "mean_margin"]
    return frame[columns]


def counters(run: Run) -> pd.DataFrame:
    """Per series and axis value: how often each effect counter fired, in total and per match."""
    frame = grouped_sums(run)
    rows = []
    for name in run.counter_names:
        column = "ct_" + name
        if column not in frame:
            continue
        part = frame[[*GROUP, *LABELS, "mirror", "matches"]].copy()
        part["counter"] = name
        part["total"] = frame[column].astype("int64")
        part["_rank"] = len(rows)
        rows.append(part)
    if not rows:
        return pd.DataFrame(columns=[*GROUP, *LABELS, "mirror", "matches", "counter", "total", "per_match"])
    table = pd.concat(rows, ignore_index=True)
    table["per_match"] = stats.rate(table["total"], table["matches"])
    return _sort(run, table, extra=["_rank"]).drop(columns="_rank")


def verdicts(run: Run, delta: float = DEFAULT_DELTA, adjust: str = DEFAULT_ADJUST) -> pd.DataFrame:
    """Per series and axis value: the balance verdict and the first-player verdict (analysis/verdict.py).

    Every verdict of the table is one family of claims, corrected with `adjust` once per kind
    of label (analysis/verdict.decide_family). Holm by default: the chance that some
    'balanced' label of the table is wrong is at most 5 %, and so is the chance that some
    'imbalanced' label is; that some label of either kind is wrong is bounded by their sum,
    10 % (measured up to about 7 %, tests/test_calibration_verdicts.py). "bh" bounds the
    share of wrong labels of each kind instead; "none" is the plain per-row interval rule.
    `family_statement(table)` says so in words.

    Unequal seats (different axis values, e.g. starting lives, or strategies): seat 0's share
    measures the handicap as much as the seats' sides. The verdict is then taken on
    `vs_mirror`, seat 0's share minus the mean of the mirror series' seat-0 shares at the
    same axis values and strategies (`reference`, e.g. A_vs_A and B_vs_B at 40/60 for
    A_vs_B), with a normal interval; when the sweep has no such mirror, and for the mirrors
    themselves, the verdict is "handicap" and no side is named as favoured.
    """
    delta = check_delta(delta)
    adjust = check_adjust(adjust)
    frame = grouped_sums(run)
    pooling = Pooling(_cell_frame(run), frame)
    frame = pooling.add(frame, "seat0_share", "seat0_wins", "decisive", detail=True)
    frame = pooling.add(frame, "first_share", "first_player_wins", "decisive", detail=True)
    frame = pooling.add(frame, "draw_rate", "draws", "matches")
    frame["delta"] = delta
    frame["handicap"] = (frame["axis0"] != frame["axis1"]) | (frame["strategy0"] != frame["strategy1"])
    share_var = _share_variance(frame["seat0_share"], frame["seat0_share_neff"])
    effect, effect_se, reference = _mirror_effects(frame, share_var)
    frame["reference"] = reference
    frame["vs_mirror"] = effect
    frame["vs_mirror_low"] = effect - stats.Z95 * effect_se
    frame["vs_mirror_high"] = effect + stats.Z95 * effect_se
    p_imbalanced, p_balanced = pooling.score_p_values("seat0_wins", "decisive", delta)
    effect_imbalanced, effect_balanced = normal_p_values(effect, effect_se, delta)
    judged_on_effect = frame["handicap"].to_numpy() & np.isfinite(effect)
    p_imbalanced = np.where(judged_on_effect, effect_imbalanced, p_imbalanced)
    p_balanced = np.where(judged_on_effect, effect_balanced, p_balanced)
    not_judged = frame["handicap"].to_numpy() & ~judged_on_effect
    first_imbalanced, first_balanced = pooling.score_p_values("first_player_wins", "decisive", delta)
    # One family: every claim this table makes (the balance verdicts and the first-player verdicts).
    judged = ~not_judged
    labels = decide_family(np.concatenate([p_imbalanced[judged], first_imbalanced]),
                           np.concatenate([p_balanced[judged], first_balanced]), adjust)
    verdict = np.full(len(frame), HANDICAP, dtype=object)
    verdict[judged] = labels[:int(judged.sum())]
    frame["verdict"] = verdict
    frame["first_player_verdict"] = labels[int(judged.sum()):]
    frame["p_imbalanced"], frame["p_balanced"] = p_imbalanced, p_balanced
    frame["basis"] = np.where(judged_on_effect, "difference from the mirror at the same seats",
                              np.where(not_judged, "handicap: unequal seats, no mirror in this sweep", "seat0 share"))
    frame.loc[frame["handicap"] & frame["mirror"], "basis"] = "handicap: mirror with unequal seats (the seat-0 share is the handicap's effect)"
    frame["adjust"] = adjust
    frame["decisions"] = m = int(judged.sum()) + len(frame)
    # Undecided rows: about how many more matches would likely (80 %) decide them (analysis/verdict_design.py).
    estimate = np.where(judged_on_effect, effect, frame["seat0_share"].to_numpy(dtype=float))
    spread = np.where(judged_on_effect, effect_se, np.sqrt(share_var))
    needed = verdict_design.matches_to_decide(estimate, spread, frame["matches"], m, delta,
                                              centre=np.where(judged_on_effect, 0.0, 0.5))
    frame["more_matches"] = verdict_design.more_matches(needed, frame["matches"], frame["verdict"] == "undecided")
    first_needed = verdict_design.matches_to_decide(
        frame["first_share"], np.sqrt(_share_variance(frame["first_share"], frame["first_share_neff"])),
        frame["matches"], m, delta)
    frame["first_more_matches"] = verdict_design.more_matches(first_needed, frame["matches"],
                                                              frame["first_player_verdict"] == "undecided")
    favoured = []
    for _, row in frame.iterrows():
        if row["verdict"] != "imbalanced":
            favoured.append("")
        elif row["mirror"]:
            favoured.append("seat 0" if row["seat0_share"] > 0.5 else "seat 1")
        else:
            ahead = row["vs_mirror"] > 0 if row["handicap"] else row["seat0_share"] > 0.5
            favoured.append(row["seat0_name"] if ahead else row["seat1_name"])
    frame["favoured"] = favoured
    frame["warning"] = [("both shares: " + a if a and a == b else
                         ("seat0 share: " + a if a else "") + ("; " if a and b else "") + ("first share: " + b if b else ""))
                        for a, b in zip(frame["seat0_share_warning"], frame["first_share_warning"])]
    columns = [*GROUP, *LABELS, "mirror", "first_orders", "matches", "decisive",
               "seat0_share", "seat0_share_low", "seat0_share_high", "draw_rate", "draw_rate_low", "draw_rate_high",
               "delta", "handicap", "reference", "vs_mirror", "vs_mirror_low", "vs_mirror_high",
               "basis", "verdict", "favoured", "p_imbalanced", "p_balanced", "first_share", "first_share_low",
               "first_share_high", "first_player_verdict", "more_matches", "first_more_matches", "adjust", "decisions",
               "warning"]
    return frame[columns]


def _share_variance(share, n_eff) -> np.ndarray:
    share = np.asarray(share, dtype=float)
    n_eff = np.asarray(n_eff, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(n_eff > 0, share * (1 - share) / n_eff, np.nan)


def _mirror_effects(frame: pd.DataFrame, share_var: np.ndarray):
    """Per row with unequal seats and a non-mirror series: seat 0's share minus the mean seat-0
    share of the mirrors of its two seats' sides at the same axis values, strategies and rules;
    its standard error (independent cells); and the mirrors used. NaN elsewhere."""
    key = ["axis0", "axis1", "strategy0", "strategy1", "rules"]
    mirrors = {}
    for index, row in frame[frame["mirror"]].iterrows():
        mirrors[(row["seat0_name"], *(row[k] for k in key))] = (row["series"], row["seat0_share"], share_var[index])
    effect = np.full(len(frame), np.nan)
    effect_se = np.full(len(frame), np.nan)
    reference = [""] * len(frame)
    for position, (index, row) in enumerate(frame.iterrows()):
        if not row["handicap"] or row["mirror"]:
            continue
        found = [mirrors[m] for m in ((row[f], *(row[k] for k in key)) for f in ("seat0_name", "seat1_name")) if m in mirrors]
        found = [m for m in found if np.isfinite(m[1]) and np.isfinite(m[2])]
        if not found or not np.isfinite(row["seat0_share"]):
            continue
        mean = float(np.mean([m[1] for m in found]))
        variance = float(np.sum([m[2] for m in found])) / len(found) ** 2
        effect[position] = row["seat0_share"] - mean
        effect_se[position] = np.sqrt(share_var[position] + variance)
        reference[position] = ", ".join(m[0] for m in found)
    return effect, effect_se, reference


def family_statement(verdict_table: pd.DataFrame, alpha: float = 0.05) -> str:
    """How many balance claims the verdict table made and at what error rate (for the
    summary and the report)."""
    from analysis.decisions import family_statement as statement

    if verdict_table.empty:
        return "No verdicts."
    m = int(verdict_table["decisions"].iloc[0])
    adjust = str(verdict_table["adjust"].iloc[0])
    handicap = int((verdict_table["verdict"] == HANDICAP).sum())
    what = "verdicts (balance and first-player, each a balanced/imbalanced claim)"
    if adjust == "holm" and m > 1:
        # decide_family corrects the 'balanced' and the 'imbalanced' labels each as a family of m
        # claims, so the family-wise rate holds per kind of label; the union is bounded by the sum
        text = ("%d %s, Holm-corrected for each kind of label: the chance that some 'balanced' label is wrong is at "
                "most %g %%, and the chance that some 'imbalanced' label is wrong is at most %g %%. The chance that "
                "some label of either kind is wrong is at most their sum, %g %% (both kinds can be wrong in one table "
                "when some rates lie inside the band and some outside or on its edge; measured about 7 %% with every "
                "rate on a band edge)." % (m, what, 100 * alpha, 100 * alpha, 200 * alpha))
    elif adjust == "bh" and m > 1:
        text = ("%d %s, Benjamini-Hochberg for each kind of label: among the 'balanced' labels the expected share of "
                "wrong ones is at most %g %%, and the same among the 'imbalanced' labels; the chance that some label "
                "is wrong is not controlled." % (m, what, 100 * alpha))
    else:
        text = statement(m, alpha, adjust, what)
    text += (" 'balanced' is an equivalence test (TOST: both band edges ruled out, each one-sided at the "
             "corrected level), 'imbalanced' needs the rate beyond an edge at half that level per side.")
    if adjust != "none" and m > 1:
        text += (" The intervals shown are each row's own 95 %; a verdict needs the corrected evidence, so an "
                 "interval just outside the band can stay undecided.")
    undecided = verdict_table[(verdict_table["verdict"] == "undecided") | (verdict_table["first_player_verdict"] == "undecided")]
    if len(undecided):
        text += (" %d row(s) have an undecided verdict; each row says, per verdict, about how many more matches "
                 "would likely (80 %%) decide it (%s)." % (len(undecided), "; ".join(
                     _more_matches_range(undecided[column], name) for column, name in
                     (("more_matches", "balance"), ("first_more_matches", "first player")))))
    if handicap:
        text += (" %d row(s) with unequal seats (mirrors, or without a mirror to compare with) are labelled "
                 "'handicap' and make no claim about the seats' sides." % handicap)
    return text


def _more_matches_range(more: pd.Series, name: str) -> str:
    """'balance: from 322 to 19,455 here, 2 on the band edge' for family_statement."""
    values = more.to_numpy(dtype=float)
    finite, edge = values[np.isfinite(values)], int(np.isinf(values).sum())
    low, high = (finite.min(), finite.max()) if len(finite) else (0, 0)
    parts = ["{:,.0f} here".format(low) if low == high else "from {:,.0f} to {:,.0f} here".format(low, high)] \
        if len(finite) else []
    parts += ["%d on the band edge (more than %d× the row's matches: more matches will not decide)"
              % (edge, verdict_design.ON_EDGE_RATIO)] if edge else []
    return "%s: %s" % (name, ", ".join(parts) or "all decided")


DERIVED_TABLE = "derived_win_rates"  # analysis/derived_axes.py: win rates vs each derived axis
TABLES = ("verdicts", "win_rates", "first_player_advantage", "special_victories", "win_types",
          "match_lengths", "length_histogram", "counters", "cells")


def all_tables(run: Run, delta: float = DEFAULT_DELTA, adjust: str = DEFAULT_ADJUST) -> dict[str, pd.DataFrame]:
    """Every table, by name, in the order the report shows them."""
    delta = check_delta(delta)
    builders = {
        "verdicts": lambda: verdicts(run, delta, adjust),
        "win_rates": lambda: win_rates(run),
        "first_player_advantage": lambda: first_player_advantage(run),
        "special_victories": lambda: special_victories(run),
        "win_types": lambda: win_types(run),
        "match_lengths": lambda: match_lengths(run),
        "length_histogram": lambda: length_histogram(run),
        "counters": lambda: counters(run),
        "cells": lambda: cells(run),
    }
    out = {name: builders[name]() for name in TABLES}
    if run.meta.get("derived_axes"):  # only a run whose game declares derived axes (e.g. a rank gap)
        out[DERIVED_TABLE] = derived_win_rates(run)
    for table in out.values():  # the run's words for the roles, for figures and pages (reports/figures.py)
        table.attrs["labels"] = run.labels
        table.attrs["delta"] = delta  # the band the verdicts used: a game's own sections decide with it too
    return out


def write_csv(tables: dict[str, pd.DataFrame], folder) -> dict[str, Path]:
    """Write each table to `<folder>/<name>.csv`; CardbalanceError when the folder cannot be created."""
    from sim.safe_output import naming
    folder = Path(folder)
    paths = {}
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise CardbalanceError("cannot write the CSV tables to '%s' (%s); choose a writable folder."
                               % (folder, error.strerror or error)) from None
    for name, table in tables.items():
        path = folder / (name + ".csv")
        try:
            spreadsheet_safe(table).to_csv(path, index=False)  # no formula injection (analysis/csv_cells.py)
        except OSError as error:  # e.g. a full disk: the environment's fault (exit 74), naming the file
            raise naming(error, path) from None
        paths[name] = path
    return paths
