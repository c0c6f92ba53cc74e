"""What a design may vary, read from the game's own declaration (no game named here).

A parameter is one of:
- a per-seat grid value: for a PER_SEAT dimension `life`, `life0` (seat 0's value,
  seat 1 keeps the base), `life1`, or `life` (both seats); default range: the dimension's
  `design_range` (the source's domain, e.g. life 30..100), a given one anywhere in its low..high;
- a rules number: a top-level integer of `rules.as_dict()`, range from the rules
  module's `NUMBERS` table (name -> (description, low, high, ...)) when it declares one;
- a real rules number (sensitivity only): a top-level float of `rules.as_dict()` the rules
  module declares in its `REALS` table (name -> (description, low, high, ...)), e.g. the
  Novel TCG's card-pool curve a0/a1/gamma; sampled continuously, never floored;
- a rules switch (true/false), an ambiguity reading by its ID (`D-AMB-42`), or a named
  choice the rules module declares in its `CHOICES` table (name -> levels, e.g. the
  Novel TCG's `deck_shape`): a categorical factor over the readings the rules accept
  (sensitivity only).

`Setting` is one design point: rules object + grid values; `apply` builds it.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass

from sim.errors import CardbalanceError
from sim.registry import PER_SEAT, GameSpec
from sim.user_input import shorten

NUMBER, SEAT_VALUE, FACTOR, REAL = "number", "seat_value", "factor", "real"


@dataclass(frozen=True)
class Param:
    """One varied parameter: name, kind, integer range (NUMBER / SEAT_VALUE), real range (REAL)
    or levels (FACTOR)."""

    name: str
    kind: str
    low: float = 0
    high: float = 0
    levels: tuple = ()
    dimension: str | None = None  # SEAT_VALUE: the dimension's name
    seats: tuple = ()             # SEAT_VALUE: which seats take the value

    @property
    def numeric(self) -> bool:
        return self.kind != FACTOR

    def describe(self) -> str:
        if self.kind == FACTOR:
            return "%s in {%s}" % (self.name, ", ".join(map(str, self.levels)))
        if self.kind == REAL:
            return "%s in [%g, %g]" % (self.name, self.low, self.high)
        return "%s in %d..%d" % (self.name, self.low, self.high)


def _rules_module(rules):
    return sys.modules.get(type(rules).__module__)


def declared_numbers(rules) -> dict:
    """{number name: (low, high)} the rules declare; numbers without a declared range map to None."""
    table = getattr(_rules_module(rules), "NUMBERS", {}) or {}
    values = rules.as_dict()
    out = {}
    for key, value in values.items():
        if key == "ambiguities" or isinstance(value, bool) or not isinstance(value, int):
            continue
        entry = table.get(key)
        out[key] = (int(entry[1]), int(entry[2])) if entry else None
    return out


def declared_reals(rules) -> dict:
    """{real number name: (low, high)} the rules module declares in `REALS` (a float of `as_dict()`)."""
    table = getattr(_rules_module(rules), "REALS", {}) or {}
    values = rules.as_dict()
    return {key: (float(entry[1]), float(entry[2])) for key, entry in table.items()
            if isinstance(values.get(key), float)}


def declared_factors(rules) -> dict:
    """{switch, choice or ambiguity ID: playable readings}: booleans, the module's `CHOICES`, then
    the ambiguity readings."""
    module = _rules_module(rules)
    playable = getattr(module, "IMPLEMENTED", None) or {}
    table = getattr(module, "AMBIGUITIES", {}) or {}
    choices = getattr(module, "CHOICES", {}) or {}
    out = {}
    for key, value in rules.as_dict().items():
        if isinstance(value, bool):
            out[key] = (False, True)
        elif key in choices:
            out[key] = tuple(choices[key])
    for key in rules.as_dict().get("ambiguities", {}):
        readings = playable.get(key) or (table[key][1] if key in table else ())
        out[key] = tuple(readings)
    return out


def known_names(game: GameSpec, rules, factors: bool) -> list[str]:
    names = []
    for dimension in game.dimensions:
        if dimension.kind == PER_SEAT:
            names += [dimension.name + "0", dimension.name + "1", dimension.name]
    names += list(declared_numbers(rules))
    if factors:
        names += list(declared_reals(rules))
        factor_names = list(declared_factors(rules))
        names += factor_names[:3] + (["..."] if len(factor_names) > 3 else [])
    return names


def resolve(game: GameSpec, rules, name: str, low=None, high=None, levels=None, factors: bool = False) -> Param:
    """The parameter `name` with the range asked for, checked against what the game declares.
    `factors`: also real numbers and categorical factors (sensitivity designs); the finder and the
    map take integers only and name the real/categorical parameter as such."""
    for dimension in game.dimensions:
        if dimension.kind != PER_SEAT:
            continue
        seats = {dimension.name + "0": (0,), dimension.name + "1": (1,), dimension.name: (0, 1)}.get(name)
        if seats:
            default_low, default_high = dimension.design_range  # e.g. life 30..100, not all the engine takes
            return _ranged(name, SEAT_VALUE, dimension.low, dimension.high,
                           default_low if low is None else low, default_high if high is None else high,
                           "the game's %s dimension values" % dimension.name, dimension=dimension.name, seats=seats)
    numbers = declared_numbers(rules)
    if name in numbers:
        if numbers[name] is None:
            if low is None or high is None:
                raise CardbalanceError("parameter '%s': the rules declare no range for it; give its range "
                                       "(e.g. %s=LOW:HIGH)." % (name, name))
            return _ranged(name, NUMBER, None, None, low, high, "the rules")
        return _ranged(name, NUMBER, numbers[name][0], numbers[name][1], low, high, "the rules")
    reals = declared_reals(rules)
    if name in reals:
        if not factors:
            raise CardbalanceError("parameter '%s' is a real number; this command takes an integer parameter "
                                   "(`cardbalance sensitivity` takes real ones)." % name)
        declared_low, declared_high = reals[name]
        low = declared_low if low is None else float(low)
        high = declared_high if high is None else float(high)
        _check_range(name, low, high, declared_low, declared_high, "the rules", "%g")
        return Param(name, REAL, low, high)
    table = declared_factors(rules)
    if name in table and not factors:
        raise CardbalanceError("parameter '%s' is categorical (readings %s); this command takes an integer parameter "
                               "(`cardbalance sensitivity` takes categorical ones)." % (name, ", ".join(map(str, table[name]))))
    if factors:
        if name in table:
            chosen = readings_named(name, levels, table[name]) if levels is not None else table[name]
            if len(chosen) < 2:
                raise CardbalanceError("parameter '%s' needs at least two readings (got %s)."
                                       % (name, ", ".join(map(str, chosen)) or "none"))
            return Param(name, FACTOR, levels=chosen)
    why_not = getattr(_rules_module(rules), "why_no_parameter", lambda _: "")(name)
    if why_not:  # a reading the rules declare but no match can tell apart (e.g. the Novel TCG's INERT_IN_V1)
        raise CardbalanceError("parameter '%s' cannot be varied: %s." % (name, why_not))
    raise CardbalanceError("unknown parameter '%s' for %s; allowed: %s." % (shorten(name), game.name,
                                                                           ", ".join(known_names(game, rules, factors))))


def readings_named(name: str, texts, playable) -> tuple:
    """The readings of factor `name` that `texts` spell, in their order: a reading as this command
    prints it (`str`: "nothing", "True") or a switch as TOML writes it ("true", "false"); each at
    most once (a reading twice would weigh it double in the design)."""
    chosen = []
    for text in texts:
        found = [reading for reading in playable if text == str(reading)
                 or (isinstance(reading, bool) and text == str(reading).lower())]
        if not found:
            raise CardbalanceError("parameter '%s': reading '%s' is not one the rules play; allowed: %s."
                                   % (name, shorten(text), ", ".join(map(str, playable))))
        if found[0] in chosen:
            raise CardbalanceError("parameter '%s': reading '%s' is given twice; give each reading once."
                                   % (name, shorten(text)))
        chosen.append(found[0])
    return tuple(chosen)


def parse_param(game: GameSpec, rules, text: str, factors: bool = False) -> Param:
    """`--param TEXT` as a checked parameter: `parse_spec`, `resolve`, and the syntax matching the kind
    (a range for a number, readings for a factor: `hp0=40` or `D-AMB-42=1:3` would be silently ignored)."""
    name, low, high, levels = parse_spec(text)
    param = resolve(game, rules, name, low, high, levels, factors=factors)
    if levels is not None and param.kind != FACTOR:
        raise CardbalanceError("parameter '%s' is a number; give NAME or NAME=LOW:HIGH (got '%s')."
                               % (name, shorten(str(text))))
    if low is not None and param.kind == FACTOR:
        raise CardbalanceError("parameter '%s' is categorical; give NAME or NAME=READING,READING,... (got '%s')."
                               % (name, shorten(str(text))))
    return param


def check_disjoint(params) -> None:
    """Refuse two parameters that set the same value (`life` and `life0` both set seat 0's life):
    the later would overwrite the earlier at every point, so the earlier would seem to do nothing."""
    for index, second in enumerate(params):
        for first in params[:index]:
            shared = set(first.seats) & set(second.seats)
            if first.name == second.name or (first.kind == SEAT_VALUE == second.kind
                                             and first.dimension == second.dimension and shared):
                what = ("seat %s's %s" % (" and ".join(map(str, sorted(shared))), first.dimension)
                        if first.name != second.name else "the same value")
                raise CardbalanceError("parameters '%s' and '%s' both set %s; give parameters that do not overlap."
                                       % (first.name, second.name, what))


def _ranged(name, kind, declared_low, declared_high, low, high, where, **extra) -> Param:
    for end in (low, high):
        if end is not None and end != int(end):
            raise CardbalanceError("parameter '%s' is an integer; its range must be LOW:HIGH integers (got %g)."
                                   % (name, end))
    low = declared_low if low is None else int(low)
    high = declared_high if high is None else int(high)
    _check_range(name, low, high, declared_low, declared_high, where, "%d")
    return Param(name, kind, low, high, **extra)


def _check_range(name, low, high, declared_low, declared_high, where, number) -> None:
    """An empty range is named as such (it used to read "outside the range the rules declare" even
    when both ends were inside); `declared_low` None: the rules declare no range."""
    shown = lambda value: number % value
    if not low < high:
        raise CardbalanceError("parameter '%s': range %s..%s is empty; LOW must be below HIGH."
                               % (name, shown(low), shown(high)))
    if declared_low is not None and not declared_low <= low < high <= declared_high:
        raise CardbalanceError("parameter '%s': range %s..%s is outside the range %s declare (%s..%s)."
                               % (name, shown(low), shown(high), where, shown(declared_low), shown(declared_high)))


def parse_spec(text: str) -> tuple[str, int | None, int | None, tuple | None]:
    """"life0=30:70" -> ("life0", 30, 70, None); "D-AMB-42=nothing,both_destroyed" -> levels;
    "club_multiplier" -> declared range."""
    name, _, rest = str(text).partition("=")
    if not rest:
        return name, None, None, None
    if ":" in rest:
        low, _, high = rest.partition(":")
        try:
            return name, int(low), int(high), None
        except ValueError:
            pass
        try:
            low_real, high_real = float(low), float(high)
        except ValueError:
            raise CardbalanceError("parameter '%s': a range must be LOW:HIGH numbers (got '%s')."
                                   % (shorten(name), shorten(rest))) from None
        if not (math.isfinite(low_real) and math.isfinite(high_real)):
            raise CardbalanceError("parameter '%s': a range must be finite numbers (got '%s')."
                                   % (shorten(name), shorten(rest)))
        return name, low_real, high_real, None
    levels = tuple(item for item in rest.split(",") if item)  # matched to the readings by `readings_named`
    return name, None, None, levels


@dataclass(frozen=True)
class Setting:
    """One design point: the rules object and {dimension: value} of the grid."""

    rules: object
    values: dict


def apply(base_rules, base_values: dict, params, point) -> Setting:
    """The design point `point` (one value per parameter) on top of the base rules and grid values."""
    from sim.sweep import vary
    values = dict(base_values)
    changes = {}
    for param, value in zip(params, point):
        if param.kind == SEAT_VALUE:
            pair = list(values[param.dimension])
            for seat in param.seats:
                pair[seat] = int(value)
            values[param.dimension] = tuple(pair)
        else:
            changes[param.name] = {NUMBER: int, REAL: float}.get(param.kind, lambda v: v)(value)
    rules = vary.apply(base_rules, changes, "design") if changes else base_rules
    return Setting(rules, values)
