"""The words a design's reports use for its seats: the game's own side names, not "seat0".

A fair run on a pairing of two sides asks for e.g. "Red's starting life (life0)", not
"life0", and its metric is "Red's share of decided matches" (issue 38 item 4). The names
come from the game's declaration only: the first choice dimension whose cell columns name a
value per seat (a pairing's factions, a deck template per seat), read at the base setting.
A mirror (Red vs Red) or a game without such a dimension names its seats by who moves
first when the run fixes it (`--first 0`: seat 0 is the first player), else "seat 0" /
"seat 1". The words are computed when the run is made and stored in its result.json, so a
report reads them from the run, never from today's code.
"""

from __future__ import annotations

from sim.fair.metrics import DESCRIPTIONS
from sim.fair.params import SEAT_VALUE
from sim.registry import CHOICE, GameSpec


def _capitalised(name: str) -> str:
    return name[:1].upper() + name[1:]


def seat_names(game: GameSpec, values: dict, orders) -> tuple[str, str]:
    """(seat 0's name, seat 1's name) at the grid values `values`; `orders`: the first-player
    orders played (None: both)."""
    for dimension in game.dimensions:
        if dimension.kind != CHOICE or dimension.columns is None or values.get(dimension.name) is None:
            continue
        columns = dimension.columns(values[dimension.name])
        per_seat = [str(value) for column, value in columns.items() if column[-1:] in ("0", "1")][:2]
        if len(per_seat) == 2:
            first, second = map(_capitalised, per_seat)
            if first != second:  # in a mirror the side would not say which seat: the seat's number does
                return first, second
            break
    if orders is not None and len(orders) == 1:
        return ("first player", "second player") if orders[0] == 0 else ("second player", "first player")
    return "seat 0", "seat 1"


def param_label(param, description: str, names: tuple[str, str]) -> str:
    """'Red's starting life (life0)' for a one-seat grid value, 'both seats' starting life (life)'
    for both; a rules number keeps its own name. `description`: the dimension's ("starting life")."""
    if param.kind != SEAT_VALUE:
        return param.name
    whose = "%s's" % names[param.seats[0]] if len(param.seats) == 1 else "both seats'"
    return "%s %s (%s)" % (whose, description, param.name)


def metric_label(metric: str, names: tuple[str, str]) -> str:
    """The metric in words, seat 0 named by its side ('Red's share of decided matches')."""
    if metric == "seat0":
        return "%s's share of decided matches" % names[0]
    return DESCRIPTIONS.get(metric, metric)


def labels(game: GameSpec, values: dict, orders, param, metric: str) -> dict:
    """{"param", "metric", "seats"}: what `reports.fair` writes on the axes and in the headline."""
    names = seat_names(game, values, orders)
    description = game.dimension(param.dimension).description if param.kind == SEAT_VALUE else param.name
    return {"param": param_label(param, description, names), "metric": metric_label(metric, names),
            "seats": list(names)}
