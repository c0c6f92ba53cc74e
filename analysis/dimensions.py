"""A run's grid dimensions, read from its metadata, mapped onto the neutral
roles the tables, figures and compare scopes are written for.

Every game declares its own dimensions (`sim.registry.Dimension`); a run
stores them in meta.json (`dimensions`: name, kind, description, columns).
Analysis asks four questions of a cell, whatever the game:
- its *series* (what the rows and panels are): the labels of every choice
  dimension, joined, then "name label" of every per-seat dimension but the
  axis (e.g. "aggro/control rank 3/5"; a game without any: "all"), so that
  a table grouped by series and axis never sums across a dimension;
- its *seat names*: the two per-seat columns of the first choice dimension
  (e.g. each seat's side in a pairing); empty for a game without one, whose
  every series is then a mirror;
- its *per-seat axis* (the x axis of the figures): the first per-seat
  dimension (e.g. each seat's starting HP);
Derived axes (`sim.registry.DerivedAxis`, e.g. a rank gap) are columns of the
cells and results themselves (meta.json `derived_axes`), there to group by.
- who moves first: the seat dimension.

`add_roles` writes them as columns under role names no game uses (`ROLE_COLUMNS`:
`series`, `seat0_name` / `seat1_name`, `axis0` / `axis1`, `first`) next to
the game's own columns, and `axis_name` (the axis dimension's own name, for
scope names). `labels` gives the words the reports write for them (the
dimensions' own names and descriptions, e.g. "starting hp").

Runs written before their dimensions were stored are read with the
dimensions their game declares now (`run_dimensions`): those runs have
exactly the columns the declaration names.
"""

from __future__ import annotations

import pandas as pd

SERIES, SEAT_NAMES, AXIS, SEAT = "series", ("seat0_name", "seat1_name"), ("axis0", "axis1"), "first"
AXIS_NAME = "axis_name"
ROLE_COLUMNS = (SERIES, *SEAT_NAMES, *AXIS, SEAT)


def _kinds(dimensions, kind):
    return [d for d in dimensions if d.get("kind") == kind]


def run_dimensions(meta: dict) -> list[dict]:
    """The run's stored dimensions; for a run written before they were stored, its game's
    declared ones (`Dimension.describe`); none when the game is unknown."""
    if meta.get("dimensions"):
        return list(meta["dimensions"])
    from sim.errors import CardbalanceError
    from sim.registry import get_game
    try:
        return [dimension.describe() for dimension in get_game(meta.get("game")).dimensions]
    except CardbalanceError:
        return []


def _series_parts(dimensions) -> tuple[list[dict], list[dict]]:
    """(choice dimensions, per-seat dimensions besides the axis): what a series label joins."""
    axes = _kinds(dimensions, "per_seat")
    return _kinds(dimensions, "choice"), axes[1:]


def per_seat_text(frame: pd.DataFrame, dimension: dict) -> pd.Series:
    first, second = (frame[column].astype("int64").astype(str) for column in dimension["columns"][:2])
    return dimension["name"] + " " + first.where(first == second, first + "/" + second)


def labels(dimensions) -> dict:
    """Words for the roles: `series` (the choice dimensions' names, e.g. a pairing), `axis`
    (the per-seat dimension's name), `axis_description` (its description, e.g. "starting hp")
    and `seat_name` (what the seat names are, e.g. each seat's side; "" when there are none)."""
    dimensions = list(dimensions or ())
    choices, axes = _kinds(dimensions, "choice"), _kinds(dimensions, "per_seat")
    extra = _series_parts(dimensions)[1]
    return {"series": " ".join(d["name"] for d in choices + extra) or "series",
            "axis": axes[0]["name"] if axes else "",
            "axis_description": (axes[0].get("description") or axes[0]["name"]) if axes else "",
            "seat_name": _seat_name_word(choices)}


def _seat_name_word(choices) -> str:
    """What a seat name is, from the seat columns' own name without the seat digit (e.g.
    the columns `side0` / `side1` name a "side"); "" for a game without seat names."""
    seat_columns = [c for d in choices for c in d.get("columns", [])[1:] if c[-1:] in ("0", "1")][:2]
    if len(seat_columns) != 2:
        return ""
    stem = seat_columns[0][:-1]
    return stem if stem and seat_columns[1][:-1] == stem else "seat name"


def add_roles(frame: pd.DataFrame, dimensions) -> pd.DataFrame:
    """`frame` (cells or results) with the role columns derived from `dimensions` (a copy)."""
    dimensions = list(dimensions or ())
    frame = frame.copy()
    choices, extra = _series_parts(dimensions)
    parts = [frame[d["name"]].astype(str) for d in choices] + [per_seat_text(frame, d) for d in extra]
    if parts:
        series = parts[0]
        for part in parts[1:]:
            series = series + " " + part
        frame[SERIES] = series
    else:
        frame[SERIES] = "all"
    seat_columns = [c for d in choices for c in d["columns"][1:] if c[-1:] in ("0", "1")][:2]
    for role, column in zip(SEAT_NAMES, seat_columns if len(seat_columns) == 2 else (None, None)):
        frame[role] = frame[column].astype(str) if column else ""
    axes = _kinds(dimensions, "per_seat")
    for role, column in zip(AXIS, axes[0]["columns"] if axes else (None, None)):
        frame[role] = frame[column].astype("int64") if column else 0
    frame[AXIS_NAME] = axes[0]["name"] if axes else ""
    seats = _kinds(dimensions, "seat")
    if seats and seats[0]["name"] != SEAT:
        frame[SEAT] = frame[seats[0]["name"]].astype("int64")
    elif not seats and SEAT not in frame:
        frame[SEAT] = 0
    return frame


def add_roles_to_cells(cells: list[dict], dimensions) -> list[dict]:
    """The same roles for cell dicts (the compare grid's cells)."""
    if not cells:
        return cells
    frame = add_roles(pd.DataFrame(cells), dimensions)
    return [{**cell, **{k: _plain(v) for k, v in row.items() if k not in cell}}
            for cell, row in zip(cells, frame.to_dict("records"))]


def _plain(value):
    return value.item() if hasattr(value, "item") else value
