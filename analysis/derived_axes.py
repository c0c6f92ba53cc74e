"""Win rates against a run's derived axes (`sim.registry.DerivedAxis`, e.g. a rank gap).

A derived axis is a column of the results (meta.json `derived_axes`: its name, the
per-seat dimension it is computed `of`, and the op). This table gives, per derived
axis and per value of it, each seat's win rate and the draw rate with 95 % intervals,
so that a figure can draw the win rate against the gap.

Trade-off: a derived value pools the seat pairs that give it (ranks 0/2 and 3/5 are
both gap 2) — that is the question the axis asks — and, as every table of
analysis/tables.py does, the two first-player orders, weighted equally
(`stats.stratified_rate`). Every other dimension stays apart: a *line* is one value
of each choice dimension and of each other per-seat dimension ("red/blue hp 10/14"),
with one strategy pair and one rules value, so that no line joins two rules presets
and nothing is summed across a dimension silently.
"""

from __future__ import annotations

import pandas as pd

from analysis import stats
from analysis.dimensions import per_seat_text
from analysis.runs import OUTCOMES, Run

COLUMNS = ["derived_axis", "description", "line", "strategy0", "strategy1", "rules", "variant", "value", "matches",
           "seat0_wins", "seat1_wins", "draws", "first_orders"] + [
    "%s%s" % (rate, end) for rate in ("seat0_win_rate", "seat1_win_rate", "draw_rate") for end in ("", "_low", "_high")]


def _derived_values(frame: pd.DataFrame, axis: dict) -> pd.Series:
    """The axis's column, or (a run stored without it) computed from its dimension's seat columns."""
    if axis["name"] in frame:
        return frame[axis["name"]].astype("int64")
    seat0, seat1 = (frame[axis["of"] + str(seat)].astype("int64") for seat in (0, 1))
    return seat1 - seat0 if axis.get("op", "difference") == "difference" else seat0 + seat1


def _line_labels(frame: pd.DataFrame, dimensions, of: str) -> pd.Series:
    """Each row's line: its choice values and its other per-seat values, joined ("all" when none)."""
    parts = [frame[d["name"]].astype(str) for d in dimensions if d.get("kind") == "choice"]
    parts += [per_seat_text(frame, d) for d in dimensions if d.get("kind") == "per_seat" and d["name"] != of]
    if not parts:
        return pd.Series("all", index=frame.index)
    line = parts[0]
    for part in parts[1:]:
        line = line + " " + part
    return line


def derived_win_rates(run: Run) -> pd.DataFrame:
    """Per derived axis, line, strategies, rules and value: win and draw rates (first player pooled)."""
    axes = run.meta.get("derived_axes") or []
    results = run.results
    if not axes or results.empty:
        return pd.DataFrame(columns=COLUMNS)
    frame = results.copy()
    for outcome, column in zip(OUTCOMES, ("seat0_wins", "seat1_wins", "draws")):
        frame[column] = frame[["%s_%s" % (outcome, end) for end in run.end_types]].sum(axis=1).astype("int64")
    rows = []
    for axis in axes:
        frame["line"] = _line_labels(frame, run.dimensions, axis["of"])
        frame["value"] = _derived_values(frame, axis)
        keys = ["line", "strategy0", "strategy1", "rules", "value"]
        by_first = frame.groupby(keys + ["first"], sort=False)[["matches", "seat0_wins", "seat1_wins", "draws"]].sum()
        for group, part in by_first.groupby(level=list(range(len(keys))), sort=False):
            trials = part["matches"].to_numpy()
            row = dict(zip(keys, group), derived_axis=axis["name"], description=axis.get("description") or axis["name"],
                       matches=int(trials.sum()), first_orders=len(part))
            for column, rate in (("seat0_wins", "seat0_win_rate"), ("seat1_wins", "seat1_win_rate"),
                                 ("draws", "draw_rate")):
                row[column] = int(part[column].sum())
                row[rate], row[rate + "_low"], row[rate + "_high"], _ = stats.stratified_rate(
                    part[column].to_numpy(), trials)
            row["variant"] = "%s:%s %s" % (row["strategy0"], row["strategy1"], row["rules"])
            rows.append(row)
    table = pd.DataFrame(rows)[COLUMNS]
    table["value"] = table["value"].astype("int64")
    return table.sort_values(["derived_axis", "line", "strategy0", "strategy1", "rules", "value"],
                             kind="stable").reset_index(drop=True)
