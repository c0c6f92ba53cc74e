"""Does a verdict hold as skill rises? Skill levels of a sweep, side by side.

A sweep's strategies dimension, named `skills` in sweep files, gives every
cell a skill label (`sim.registry.skill_label`): the agent when both seats
play it ("greedy"), "strong/weak" for a mixed pair. The *levels* are the
labels where both seats play the same agent. Their order, weakest first, is
the agents' ladder ratings when a ladder run is given (`--ladder RUN`), else
the order the sweep lists them in.

- `levels(verdicts, ratings)`: the levels, weakest first; the last one is the
  *strongest*, whose verdicts are the headline.
- `robustness(verdicts, order)`: per series × axis value, the verdict at each level,
  and a mark (issue 27: each with a stated error rate):
    "skill-dependent"  the seat-0 share drifts with skill: a Cochran-Armitage
                       trend test on the levels' decided-match shares (levels
                       scored weakest 0 to strongest k − 1, two-sided),
                       corrected across the table's cells
                       with the verdicts' --adjust (Holm: the chance that any
                       cell is marked wrongly is at most 5 %);
    "holds"            not skill-dependent, and every level gives the same
                       *decided* verdict (balanced, or imbalanced toward the same
                       side): it is wrong only if one of those verdicts is,
                       which the verdicts' own family rate bounds;
    "undecided"        neither: the levels are not shown to differ, but not
                       every verdict is decided (more matches would tell);
  and the drift: the seat-0 share at the strongest level minus the weakest,
  in points, toward the side it moves to. `marks_statement` says how many
  marks were made at what rate, and the power to find a 10-point drift at the
  run's matches (`drift_power`).
- `metrics_by_skill(tables, order)`: seat-0 share, first-player advantage and
  special-victory frequency per level (the figures' data).
- `handicap(verdicts, order)`: for mixed pairs "strong/weak", the weakest
  mixed pair whose interval contains ½ — how much stronger one side must be
  to make the match even.

Pure functions of the analysis tables; no plotting, no simulation.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from analysis.stats import Z95
from sim.registry import SKILL_SEPARATOR

HOLDS, DEPENDENT, UNSETTLED = "holds", "skill-dependent", "undecided"
POWER_DRIFT = 0.10  # the drift whose power the statement gives: 10 points from weakest to strongest
KEYS = ["series", "axis"]  # the neutral role labels (analysis/dimensions.py)


def is_level(label: str) -> bool:
    return SKILL_SEPARATOR not in str(label)


def listed(meta: dict) -> list[str]:
    """The skill labels in the order the run's sweep lists its strategies."""
    from sim.registry import parse_pair, skill_label
    return [skill_label(*parse_pair(entry)) for entry in meta.get("strategies") or ()]


def levels(table: pd.DataFrame, ratings: dict[str, float] | None = None, order: list[str] | None = None) -> list[str]:
    """Skill levels (both seats the same agent), weakest first: by ladder rating when
    given (every level must be rated), else in `order` (the run's own: `listed(meta)`)."""
    found = [label for label in dict.fromkeys(table["skill"]) if is_level(label)]
    if order:
        rank = {label: k for k, label in enumerate(order)}
        found.sort(key=lambda label: rank.get(label, len(rank)))
    if ratings:
        missing = [label for label in found if label not in ratings]
        if missing:
            from sim.errors import CardbalanceError
            raise CardbalanceError("--ladder: the ladder run rates no agent %s; it rates %s."
                                   % (", ".join(missing), ", ".join(sorted(ratings))))
        found.sort(key=lambda label: ratings[label])
    return found


def _se(row) -> float:
    return (row["seat0_share_high"] - row["seat0_share_low"]) / (2 * Z95)


def _verdict_words(row) -> str:
    return row["verdict"] + (" (%s)" % row["favoured"] if row["favoured"] else "")


def _towards(row, drift: float) -> str:
    if drift != drift or drift == 0:
        return ""
    if row["mirror"]:
        return "seat 0" if drift > 0 else "seat 1"
    return row["seat0_name"] if drift > 0 else row["seat1_name"]


def trend_p_values(shares, decided) -> np.ndarray:
    """Two-sided p-values of the Cochran-Armitage test for a trend in the levels' shares
    (levels scored 0, 1, …, k − 1, weakest first), per row of (cells, k) arrays of shares
    and decided matches; NaN shares and empty levels left out. One degree of freedom: a
    drift as skill rises is found with more power than by a k − 1 degree homogeneity test."""
    from scipy.special import ndtr

    shares, decided = np.asarray(shares, dtype=float), np.asarray(decided, dtype=float)
    used = np.isfinite(shares) & (decided > 0)
    weight = np.where(used, decided, 0.0)
    share = np.where(used, shares, 0.0)
    score = np.broadcast_to(np.arange(shares.shape[-1], dtype=float), shares.shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        total = weight.sum(axis=-1)
        pooled = (weight * share).sum(axis=-1) / total
        mean_score = (weight * score).sum(axis=-1) / total
        centred = score - mean_score[..., None]
        numerator = (weight * share * centred).sum(axis=-1)
        variance = pooled * (1.0 - pooled) * (weight * centred ** 2).sum(axis=-1)
        z = numerator / np.sqrt(variance)
    p = 2.0 * ndtr(-np.abs(np.where(variance > 0, z, 0.0)))  # every level at 0 or 1 alike: no drift seen
    return np.where(used.sum(axis=-1) >= 2, p, 1.0)


def drift_power(decided_per_level, levels: int, cells: int, adjust: str = "holm", alpha: float = 0.05,
                drift: float = POWER_DRIFT, centre: float = 0.5) -> float:
    """Chance (normal approximation) that a drift of `drift` spread evenly from the weakest
    to the strongest of `levels` levels (e.g. 0.45, 0.50, 0.55) is marked skill-dependent,
    at `decided_per_level` matches per level, at the Bonferroni level of `cells` marks
    (Holm's first step; "none": α): the trend test's z has mean drift · √(n Σ(x − x̄)²
    / (p(1 − p))) / (k − 1)."""
    from scipy.special import ndtr, ndtri

    if levels < 2 or decided_per_level <= 0:
        return 0.0
    level = alpha / (max(cells, 1) if adjust != "none" else 1)
    scores = np.arange(levels, dtype=float)
    spread = float(np.sum((scores - scores.mean()) ** 2))
    mean_z = drift / (levels - 1) * math.sqrt(decided_per_level * spread / (centre * (1 - centre)))
    c = -ndtri(level / 2.0)
    return float(ndtr(mean_z - c) + ndtr(-mean_z - c))


def robustness(verdicts: pd.DataFrame, order: list[str], adjust: str | None = None) -> pd.DataFrame:
    """Per series × axis value (one rules set and equal seats' strategies): verdicts at every level, mark, drift.

    `adjust` (default: the verdict table's own) corrects the skill-dependent marks across the cells."""
    from analysis.verdict import BALANCED, IMBALANCED, reject_family

    if adjust is None:
        adjust = str(verdicts["adjust"].iloc[0]) if "adjust" in verdicts and len(verdicts) else "holm"
    table = verdicts[verdicts["skill"].isin(order)]
    rows, shares, decided = [], [], []
    for (series, axis, rules), part in table.groupby([*KEYS, "rules"], sort=False):
        by_level = {row["skill"]: row for _, row in part.iterrows()}
        present = [level for level in order if level in by_level]
        if len(present) < 2:
            continue
        shares.append([by_level[level]["seat0_share"] if level in by_level else np.nan for level in order])
        decided.append([by_level[level]["decisive"] if level in by_level else 0 for level in order])
        verdict_set = {_verdict_words(by_level[level]) for level in present}
        all_decided = all(by_level[level]["verdict"] in (BALANCED, IMBALANCED) for level in present)
        mark = HOLDS if len(verdict_set) == 1 and all_decided else UNSETTLED
        weakest, strongest = by_level[present[0]], by_level[present[-1]]
        drift = float(strongest["seat0_share"] - weakest["seat0_share"])
        row = {"series": series, "axis": axis, "rules": rules, "mark": mark, "strongest": present[-1],
               "headline": _verdict_words(strongest), "drift": drift, "drift_towards": _towards(strongest, drift),
               "drift_beyond_intervals": bool(abs(drift) > Z95 * np.hypot(_se(weakest), _se(strongest)))}
        for level in present:
            row["verdict@" + level] = _verdict_words(by_level[level])
            row["share@" + level] = float(by_level[level]["seat0_share"])
        rows.append(row)
    frame = pd.DataFrame(rows)
    if len(frame):
        frame["p_drift"] = trend_p_values(np.array(shares, dtype=float), np.array(decided, dtype=float))
        frame.loc[reject_family(frame["p_drift"].to_numpy(), adjust), "mark"] = DEPENDENT
        frame["adjust"] = adjust
        frame["marks"] = len(frame)
        frame["decided_per_level"] = np.array(decided, dtype=float).min(axis=1)
    return frame


def marks_statement(table: pd.DataFrame, levels: int, alpha: float = 0.05) -> str:
    """How many skill marks were made, at what family rate, and the power for a 10-point drift."""
    if not len(table):
        return ""
    adjust, m = str(table["adjust"].iloc[0]), len(table)
    from analysis.decisions import ADJUST_NAMES
    rate = ("family-wise error at most %g %% (%s over %d cells)" % (100 * alpha, ADJUST_NAMES[adjust], m)
            if adjust == "holm" else
            "false-discovery rate at most %g %% (%s over %d cells)" % (100 * alpha, ADJUST_NAMES[adjust], m)
            if adjust == "bh" else "each at %g %% with no correction (up to %d × that over the table)" % (100 * alpha, m))
    n = float(np.median(table["decided_per_level"]))
    power = drift_power(n, levels, m, adjust, alpha)
    return ("%d skill marks: 'skill-dependent' is a trend test of the seat-0 share across the %d levels, %s; 'holds' "
            "needs the same decided verdict at every level, so it is as sure as the verdicts. Power to mark a "
            "%.0f-point drift (weakest to strongest) at this run's {:,.0f} decided matches per level: %.0f %%."
            .format(n) % (m, levels, rate, 100 * POWER_DRIFT, 100 * power))


def headline(verdicts: pd.DataFrame, order: list[str]) -> pd.DataFrame:
    """The verdict rows of the strongest level (all rows when the run has fewer than two levels)."""
    if len(order) < 2:
        return verdicts
    return verdicts[verdicts["skill"] == order[-1]]


def metrics_by_skill(tables: dict[str, pd.DataFrame], order: list[str]) -> pd.DataFrame:
    """Per series × axis value × level: seat-0 share, first-player advantage, special-victory rate (with intervals)."""
    verdicts = tables["verdicts"][tables["verdicts"]["skill"].isin(order)]
    frame = verdicts[[*KEYS, "rules", "skill", "seat0_share", "seat0_share_low", "seat0_share_high"]].copy()
    advantage = tables["first_player_advantage"]
    frame = frame.merge(advantage[[*KEYS, "rules", "skill", "advantage", "advantage_low", "advantage_high"]],
                        on=[*KEYS, "rules", "skill"], how="left")
    special = tables["special_victories"]
    if len(special):
        total = special.groupby([*KEYS, "rules", "skill"], sort=False).agg(
            special_count=("count", "sum"), matches=("matches", "first")).reset_index()
        from analysis.stats import wilson_interval
        low, high = wilson_interval(total["special_count"].to_numpy(), total["matches"].to_numpy())
        total["special_rate"] = total["special_count"] / total["matches"].where(total["matches"] > 0)
        total["special_rate_low"], total["special_rate_high"] = np.atleast_1d(low), np.atleast_1d(high)
        frame = frame.merge(total.drop(columns=["matches"]), on=[*KEYS, "rules", "skill"], how="left")
    else:
        for column in ("special_count", "special_rate", "special_rate_low", "special_rate_high"):
            frame[column] = np.nan
    frame["level"] = frame["skill"].map({level: k for k, level in enumerate(order)})
    return frame.sort_values([*KEYS, "level"], kind="stable").reset_index(drop=True)


def handicap(verdicts: pd.DataFrame, order: list[str], ratings: dict[str, float] | None = None) -> pd.DataFrame:
    """Mixed pairs "strong/weak": per series × axis value, the weakest mixed pair whose seat-0 share
    interval contains ½ (strength of seat 0's agent over seat 1's: the ladder rating gap when
    `order` comes from one, else the levels' order)."""
    mixed = verdicts[~verdicts["skill"].map(is_level) & ~verdicts["mirror"]].copy()  # a mirror is never even
    if mixed.empty:
        return pd.DataFrame(columns=[*KEYS, "rules", "even_at", "seat0_agent", "seat1_agent",
                                     "seat0_share", "seat0_share_low", "seat0_share_high", "tried"])
    rank = dict(ratings) if ratings else {level: k for k, level in enumerate(order)}
    mixed["gap"] = [rank.get(a, np.nan) - rank.get(b, np.nan) for a, b in zip(mixed["strategy0"], mixed["strategy1"])]
    rows = []
    for (series, axis, rules), part in mixed.groupby([*KEYS, "rules"], sort=False):
        part = part.sort_values("gap", kind="stable")
        even = part[(part["seat0_share_low"] <= 0.5) & (part["seat0_share_high"] >= 0.5)]
        first = even.iloc[0] if len(even) else None
        rows.append({"series": series, "axis": axis, "rules": rules,
                     "even_at": first["skill"] if first is not None else "",
                     "seat0_agent": first["strategy0"] if first is not None else "",
                     "seat1_agent": first["strategy1"] if first is not None else "",
                     "seat0_share": first["seat0_share"] if first is not None else np.nan,
                     "seat0_share_low": first["seat0_share_low"] if first is not None else np.nan,
                     "seat0_share_high": first["seat0_share_high"] if first is not None else np.nan,
                     "tried": ", ".join(part["skill"])})
    return pd.DataFrame(rows)


def skill_words(verdicts: pd.DataFrame, order: list[str], ratings: dict | None = None,
                words: dict | None = None) -> list[str]:
    """The terminal summary's skill paragraph, in words (`words`: the run's role labels,
    `Run.labels`: the names of its choice and per-seat dimensions)."""
    words = words or {}
    series_word, axis_word = words.get("series") or "series", words.get("axis") or ""
    at = (lambda row: "%s at %s %s" % (row["series"], axis_word, row["axis"])) if axis_word else \
        (lambda row: row["series"])
    lines = []
    if len(order) >= 2:
        table = robustness(verdicts, order)
        basis = "ladder ratings" if ratings else "the sweep's order"
        lines.append("Skill: %d levels, weakest to strongest by %s: %s. Headline verdicts use the strongest, %s."
                     % (len(order), basis, " < ".join(order), order[-1]))
        counts = table["mark"].value_counts() if len(table) else {}
        lines.append("%d of %d %s verdicts hold across skill, %d are skill-dependent, %d undecided."
                     % (counts.get(HOLDS, 0), len(table), " x ".join(w for w in (series_word, axis_word) if w),
                        counts.get(DEPENDENT, 0), counts.get(UNSETTLED, 0)))
        if len(table):
            lines.append(marks_statement(table, len(order)))
        for _, row in table[table["mark"] != HOLDS].iterrows() if len(table) else ():
            steps = ", ".join("%s at %s" % (row["verdict@" + level], level) for level in order
                              if "verdict@" + level in row and row["verdict@" + level] == row["verdict@" + level])
            lines.append("  %s %s: %s; seat-0 share drifts %+.1f pts%s from %s to %s."
                         % (row["mark"], at(row), steps, 100 * row["drift"],
                            " toward %s" % row["drift_towards"] if row["drift_towards"] else "", order[0], order[-1]))
    even = handicap(verdicts, order, ratings)
    for _, row in even.iterrows():
        if row["even_at"]:
            lines.append("Handicap: %s is even (seat-0 share %.1f%% [%.1f, %.1f]) first at %s "
                         "(seat 0 %s, seat 1 %s); tried %s." % (
                             at(row), 100 * row["seat0_share"], 100 * row["seat0_share_low"],
                             100 * row["seat0_share_high"], row["even_at"], row["seat0_agent"], row["seat1_agent"],
                             row["tried"]))
        else:
            lines.append("Handicap: %s is even at no mixed pair tried (%s)." % (at(row), row["tried"]))
    return lines
