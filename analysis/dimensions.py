"""A run's grid dimensions, read from its metadata, mapped onto the roles the
tables, figures and compare scopes are written for.

Every game declares its own dimensions (`sim.registry.Dimension`); a run
stores them in meta.json (`dimensions`: name, kind, columns). Analysis asks
three questions of a cell, whatever the game:
- its *series* (what the rows and panels are): the labels of every choice
  dimension, joined (one game: its pairing; a game without any: "all");
- its *per-seat axis* (the x axis of the figures): the first per-seat
  dimension (a starting life, starting HP, ...), stored as `<role>0/1`;
- who moves first: the seat dimension.
plus the *seat names* of a series (a choice dimension's two seat columns,
e.g. the factions of a pairing; empty for a symmetric game, whose every
series is then a mirror).

`add_roles` writes the role columns the analysis reads (`pairing`,
`faction0`/`faction1`, `life0`/`life1`, `first`: the names under which the
first game's runs already store them, so its runs are read as they are) and
`axis_name` (the axis dimension's own name, for scope names and labels).
Runs without stored dimensions (written before they were) already have
those columns.
"""

from __future__ import annotations

import pandas as pd

SERIES, SEAT_NAMES, AXIS, SEAT = "pairing", ("faction0", "faction1"), ("life0", "life1"), "first"
AXIS_NAME = "axis_name"


def _kinds(dimensions, kind):
    return [d for d in dimensions if d.get("kind") == kind]


def add_roles(frame: pd.DataFrame, dimensions) -> pd.DataFrame:
    """`frame` (cells or results) with the role columns derived from `dimensions` (a copy)."""
    dimensions = list(dimensions or ())
    if not dimensions:
        return frame
    frame = frame.copy()
    choices = _kinds(dimensions, "choice")
    if choices and [d["name"] for d in choices] != [SERIES]:
        labels = frame[choices[0]["name"]].astype(str)
        for dimension in choices[1:]:
            labels = labels + " " + frame[dimension["name"]].astype(str)
        frame[SERIES] = labels
    elif not choices:
        frame[SERIES] = "all"
    if not all(column in frame.columns for column in SEAT_NAMES):
        seat_columns = [c for d in choices for c in d["columns"][1:] if c[-1:] in ("0", "1")][:2]
        for role, column in zip(SEAT_NAMES, seat_columns or (None, None)):
            frame[role] = frame[column].astype(str) if column else ""
    axes = _kinds(dimensions, "per_seat")
    if axes and tuple(axes[0]["columns"]) != AXIS:
        for role, column in zip(AXIS, axes[0]["columns"]):
            frame[role] = frame[column].astype("int64")
    elif not axes:
        for role in AXIS:
            frame[role] = 0
    frame[AXIS_NAME] = axes[0]["name"] if axes else ""
    seats = _kinds(dimensions, "seat")
    if seats and seats[0]["name"] != SEAT:
        frame[SEAT] = frame[seats[0]["name"]].astype("int64")
    return frame


def add_roles_to_cells(cells: list[dict], dimensions) -> list[dict]:
    """The same roles for cell dicts (the compare grid's cells)."""
    if not dimensions or not cells:
        return cells
    frame = add_roles(pd.DataFrame(cells), dimensions)
    return [{**cell, **{k: _plain(v) for k, v in row.items() if k not in cell}}
            for cell, row in zip(cells, frame.to_dict("records"))]


def _plain(value):
    return value.item() if hasattr(value, "item") else value
