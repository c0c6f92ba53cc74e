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
  and a mark:
    "holds"            every level gives the same verdict;
    "skill-dependent"  the verdicts differ and two levels' seat-0 shares differ
                       beyond their intervals (the 95 % interval of the
                       difference excludes 0);
    "unsettled"        the verdicts differ, but within the intervals (more
                       matches would tell);
  and the drift: the seat-0 share at the strongest level minus the weakest,
  in points, toward the side it moves to.
- `metrics_by_skill(tables, order)`: seat-0 share, first-player advantage and
  special-victory frequency per level (the figures' data).
- `handicap(verdicts, order)`: for mixed pairs "strong/weak", the weakest
  mixed pair whose interval contains ½ — how much stronger one side must be
  to make the match even.

Pure functions of the analysis tables; no plotting, no simulation.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.stats import Z95
from sim.registry import SKILL_SEPARATOR

HOLDS, DEPENDENT, UNSETTLED = "holds", "skill-dependent", "unsettled"
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


def robustness(verdicts: pd.DataFrame, order: list[str]) -> pd.DataFrame:
    """Per series × axis value (one rules set and equal seats' strategies): verdicts at every level, mark, drift."""
    table = verdicts[verdicts["skill"].isin(order)]
    rows = []
    for (series, axis, rules), part in table.groupby([*KEYS, "rules"], sort=False):
        by_level = {row["skill"]: row for _, row in part.iterrows()}
        present = [level for level in order if level in by_level]
        if len(present) < 2:
            continue
        verdict_set = {_verdict_words(by_level[level]) for level in present}
        beyond = False
        for i, a in enumerate(present):
            for b in present[i + 1:]:
                ra, rb = by_level[a], by_level[b]
                difference = rb["seat0_share"] - ra["seat0_share"]
                if abs(difference) > Z95 * np.hypot(_se(ra), _se(rb)):
                    beyond = True
        mark = HOLDS if len(verdict_set) == 1 else DEPENDENT if beyond else UNSETTLED
        weakest, strongest = by_level[present[0]], by_level[present[-1]]
        drift = float(strongest["seat0_share"] - weakest["seat0_share"])
        row = {"series": series, "axis": axis, "rules": rules, "mark": mark, "strongest": present[-1],
               "headline": _verdict_words(strongest), "drift": drift, "drift_towards": _towards(strongest, drift),
               "drift_beyond_intervals": bool(abs(drift) > Z95 * np.hypot(_se(weakest), _se(strongest)))}
        for level in present:
            row["verdict@" + level] = _verdict_words(by_level[level])
            row["share@" + level] = float(by_level[level]["seat0_share"])
        rows.append(row)
    return pd.DataFrame(rows)


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
        lines.append("%d of %d %s verdicts hold across skill, %d are skill-dependent, %d unsettled."
                     % (counts.get(HOLDS, 0), len(table), " x ".join(w for w in (series_word, axis_word) if w),
                        counts.get(DEPENDENT, 0), counts.get(UNSETTLED, 0)))
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
