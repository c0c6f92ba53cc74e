"""The game registry: what every command needs to know about a rule set, so
that the shared layers (sweep, compare, bench, analysis, reports, CLI) stay
generic over games.

Each game declares itself once, in its own package, as a `GameSpec` (its
grid `Dimension`s, end types, counters, strategies, rules, kernels, position
format, play log) and is registered here by one line naming that declaration
by dotted path: the registry imports a game only when it is first asked for
(`get_game`), so no game module is imported at import time and no import runs
back up from a game into this module's importers. Tests may register small
games through `register` (a dotted path or a factory).
"""

from __future__ import annotations

import functools
import hashlib
import importlib
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from sim.errors import CardbalanceError
from sim.user_input import did_you_mean

DEFAULT_GAME = "faction_war"  # the game a command plays when it is given no --game

# The run folder's format (docs/architecture.md "Run folder"): written by sim/sweep/runfolder.py,
# read by analysis/runs.py; one constant each, here below both.
RUN_FORMAT = "cardbalance-run"
RUN_FORMAT_VERSION = 1
CHUNKS = "chunks"  # the folder of per-chunk aggregate vectors


def chunk_path(run, cell: int, chunk: int):
    """Where one (cell, chunk) aggregate vector of a run lies: the writer's and the readers' one name."""
    from pathlib import Path
    return Path(run) / CHUNKS / ("c%06d-k%06d.npy" % (cell, chunk))


def resolve(path: str) -> Any:
    """"package.module:attribute" -> that object (imported now)."""
    module_name, _, attribute = path.partition(":")
    value = importlib.import_module(module_name)
    for part in attribute.split(".") if attribute else ():
        value = getattr(value, part)
    return value


class lazy:  # noqa: N801 - used like a function in declarations
    """A callable named by dotted path, imported on its first call.

    Lets a game's declaration name code of a higher layer (its match loop in
    `strategies/<game>/`) without importing it: the declaration stays cheap
    to load and no module imports upward.
    """

    def __init__(self, path: str):
        self.path = path
        self._target = None

    def __call__(self, *args, **kwargs):
        if self._target is None:
            self._target = resolve(self.path)
        return self._target(*args, **kwargs)

    def __repr__(self):
        return "lazy(%r)" % self.path

    def __reduce__(self):  # pickles by path (joblib workers resolve it themselves)
        return (lazy, (self.path,))


# ---- grid dimensions -------------------------------------------------------------------

CHOICE, PER_SEAT, SEAT = "choice", "per_seat", "seat"
SKILL_SEPARATOR = "/"  # a mixed pair: "strong/weak" = seat 0's value / seat 1's (skills, per-seat choices)


def aggregate_columns(game) -> list[str]:
    """Result-table column names of a game's aggregate vector slots (histogram excluded):
    the run folder writes them, analysis reads them (one list for both)."""
    names = ["matches", "turns_sum", "turns_sq", "margin_sum", "margin_sq"]
    for prefix in ("seat0", "seat1", "draw"):
        names += ["%s_%s" % (prefix, end) for end in game.end_types]
    names.append("first_player_wins")
    names += ["ct_%s" % counter for counter in game.counter_names]
    return names


def per_seat_label(a: int, b: int) -> str:
    """The one label of a per-seat value: "50" when the seats are equal, else "30/60"
    (seat 0 / seat 1). Compare scopes write it with '-' ("life30-60"), the one
    character their expressions allow there."""
    return str(int(a)) if int(a) == int(b) else "%d/%d" % (int(a), int(b))


def per_seat_choice_values(options) -> tuple[str, ...]:
    """The values of a per-seat choice over `options`: every (seat 0, seat 1) pair, named in
    the one per-seat label format ("aggro" when the seats are equal, else "aggro/control")."""
    return tuple(a if a == b else "%s%s%s" % (a, SKILL_SEPARATOR, b) for a in options for b in options)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Dimension:
    """One axis of a game's grid of cells.

    Kinds:
    - CHOICE: one of `values` (names). Sweep key `key` (default `name`): a list
      of names. Cell columns: `name`, plus `columns(value)` (e.g. a pairing's
      two factions).
    - PER_SEAT: an integer per seat, from `low` to `high` (e.g. starting life).
      Sweep keys `key` (equal values, a list) and `key`_pairs (unequal
      [seat0, seat1] pairs). Cell columns `name`0 and `name`1. Value: a pair.
    - SEAT: a seat number (who moves first); a sweep always plays both.
    - A per-seat *choice* (a deck template or faction per seat) is a CHOICE whose values
      are the seat pairs (`Dimension.per_seat_choice`): every command reads it as a
      choice; its cell columns `name`0 / `name`1 hold each seat's value.

    A game may declare any number of each; the figures' x axis is the first PER_SEAT
    dimension and every other dimension's label is part of a cell's series
    (analysis/dimensions.py), so no table sums across a dimension.

    `former_keys`: (key, hint) pairs of sweep keys this dimension replaced; a sweep file
    that still uses one is refused with the hint (sim/sweep/grid.py), not "unknown key".

    `domain` (PER_SEAT): the (low, high) the source declares for a game (Faction War's
    F-SET-1: life 30-100), which a design (`fair`, `sensitivity`) explores when no range is
    given; without one, the span of `default`. `low`..`high` stays what the engine accepts
    (a given range may reach outside the domain, never outside `low`..`high`).

    `default` is the sweep's default list (for SEAT: both seats); `single` is
    the value a one-match command (play, bench, the compare grid) uses when
    none is given. `label(value)` is the one label format every table and
    scope uses ("50", "30/60", a name, a seat number).
    """

    name: str
    kind: str
    description: str
    values: tuple = ()
    low: int = 0
    high: int = 0
    default: tuple = ()
    single: Any = None
    key: str | None = None
    columns: Callable[[Any], dict] | None = None
    former_keys: tuple[tuple[str, str], ...] = ()
    domain: tuple[int, int] | None = None

    @property
    def design_range(self) -> tuple[int, int]:
        """A design's default range of this PER_SEAT dimension: the declared `domain`, else the span of
        the sweep's `default` list, else everything the engine accepts (issue 38 item 4: `fair` searched
        life 1..1,000,000 and 15 of its 22 points fell outside the source's 30-100)."""
        if self.domain is not None:
            return self.domain
        if self.default:
            return min(self.default), max(self.default)
        return self.low, self.high

    @classmethod
    def per_seat_choice(cls, name: str, description: str, options, default=(), key: str | None = None,
                        single=None, former_keys: tuple[tuple[str, str], ...] = ()) -> "Dimension":
        """A value per seat from `options` (e.g. a deck template per seat), as a CHOICE over
        the seat pairs (`per_seat_choice_values`; a sweep lists "aggro" or "aggro/control")."""
        options = tuple(options)
        values = per_seat_choice_values(options)

        def seats(value):
            first, _, second = value.partition(SKILL_SEPARATOR)
            return {name + "0": first, name + "1": second or first}
        return cls(name, CHOICE, description, values=values, default=tuple(default) or values,
                   single=single or options[0], key=key, columns=seats, former_keys=tuple(former_keys))

    @property
    def sweep_key(self) -> str:
        return self.key or self.name

    def sweep_keys(self) -> tuple[str, ...]:
        if self.kind == PER_SEAT:
            return (self.sweep_key, self.sweep_key + "_pairs")
        if self.kind == SEAT:
            return ()
        return (self.sweep_key,)

    def column_names(self) -> tuple[str, ...]:
        if self.kind == PER_SEAT:
            return (self.name + "0", self.name + "1")
        extra = tuple(self.columns(self.values[0])) if self.columns and self.values else ()
        return (self.name,) + extra

    def int_columns(self) -> tuple[str, ...]:
        return self.column_names() if self.kind in (PER_SEAT, SEAT) else ()

    # -- checking ---------------------------------------------------------------------
    def check_int(self, value, source: str, key: str | None = None) -> int:
        """The one range check of a PER_SEAT value (e.g. starting life)."""
        if not _is_int(value) or not self.low <= value <= self.high:
            raise CardbalanceError("%s: '%s' values must be integers from %d to %d (got %r)."
                                   % (source, key or self.sweep_key, self.low, self.high, value))
        return value

    def check(self, value, source: str = "cell", game: str | None = None):
        """A validated value of this dimension (CHOICE name, PER_SEAT pair, SEAT number)."""
        if self.kind == CHOICE:
            if value not in self.values:
                raise CardbalanceError("%s '%s' is unknown%s; known %ss: %s%s."
                                       % (self.name, value, " for %s" % game if game else "", self.name,
                                          ", ".join(self.values), did_you_mean(value, self.values)))
            return value
        if self.kind == PER_SEAT:
            pair = (value, value) if _is_int(value) else tuple(value)
            if len(pair) != 2:
                raise CardbalanceError("%s: '%s' must be one integer or a [seat0, seat1] pair (got %r)."
                                       % (source, self.name, value))
            return tuple(self.check_int(v, source, self.name) for v in pair)
        if value not in (0, 1) or not _is_int(value):
            raise CardbalanceError("%s: '%s' must be 0 or 1 (got %r)." % (source, self.name, value))
        return value

    def parse_text(self, text: str, option: str):
        """A command-line value: a name, a seat, or N / N0,N1 for PER_SEAT."""
        if self.kind == PER_SEAT:
            try:
                values = [int(part) for part in str(text).split(",")]
            except ValueError:
                values = []
            if len(values) == 1:
                values *= 2
            if len(values) != 2 or not all(self.low <= v <= self.high for v in values):
                raise CardbalanceError("%s must be an integer from %d to %d or two separated by a comma, e.g. %d or "
                                       "%d,%d (got %r)." % (option, self.low, self.high, self.single[0],
                                                            self.single[0], self.single[1] + 1, text))
            return tuple(values)
        if self.kind == SEAT:
            if str(text) not in ("0", "1"):
                raise CardbalanceError("%s must be 0 or 1 (got %r)." % (option, text))
            return int(text)
        return self.check(str(text), option)

    # -- the sweep file ---------------------------------------------------------------
    def parse_sweep(self, data: dict, source: str) -> dict:
        """This dimension's sweep keys of a parsed sweep file -> their checked values."""
        out = {}
        if self.kind == CHOICE and self.sweep_key in data:
            value = data[self.sweep_key]
            if isinstance(value, str):
                value = [value]
            if not isinstance(value, (list, tuple)) or not all(isinstance(item, str) for item in value):
                raise CardbalanceError("%s: '%s' must be a list of strings (got %r)." % (source, self.sweep_key, value))
            if len(set(value)) != len(value):
                raise CardbalanceError("%s: '%s' lists a value twice (%s)." % (source, self.sweep_key, ", ".join(value)))
            out[self.sweep_key] = tuple(value)
        elif self.kind == PER_SEAT:
            key, pairs_key = self.sweep_keys()
            if key in data:
                values = data[key]
                if _is_int(values):
                    values = [values]
                if not isinstance(values, (list, tuple)):
                    raise CardbalanceError("%s: '%s' must be a list of positive integers (got %r)." % (source, key, values))
                out[key] = tuple(self.check_int(v, source, key) for v in values)
            if pairs_key in data:
                pairs = data[pairs_key]
                if not isinstance(pairs, (list, tuple)) or not all(isinstance(p, (list, tuple)) and len(p) == 2 for p in pairs):
                    raise CardbalanceError("%s: '%s' must be a list of [seat0, seat1] pairs (got %r)." % (source, pairs_key, pairs))
                out[pairs_key] = tuple((self.check_int(a, source, pairs_key), self.check_int(b, source, pairs_key))
                                       for a, b in pairs)
        return out

    def defaults(self) -> dict:
        """Sweep settings when a sweep file leaves this dimension out."""
        if self.kind == CHOICE:
            return {self.sweep_key: tuple(self.default)}
        if self.kind == PER_SEAT:
            return {self.sweep_key: tuple(self.default), self.sweep_key + "_pairs": ()}
        return {}

    def grid_values(self, settings: dict, game: str | None = None) -> list:
        """The values a sweep plays, in cell order (PER_SEAT: equal values, then the extra pairs)."""
        if self.kind == CHOICE:
            return [self.check(value, game=game) for value in settings[self.sweep_key]]
        if self.kind == PER_SEAT:
            combos = [(v, v) for v in settings[self.sweep_key]]
            for pair in settings[self.sweep_key + "_pairs"]:
                if tuple(pair) not in combos:
                    combos.append(tuple(pair))
            return combos
        return list(self.default or (0, 1))

    def empty_message(self) -> str | None:
        if self.kind == CHOICE:
            return "'%s' lists no %s" % (self.sweep_key, self.name)
        if self.kind == PER_SEAT:
            return "'%s' and '%s_pairs' list no %s" % (self.sweep_key, self.sweep_key, self.description)
        return None

    # -- cells ------------------------------------------------------------------------
    def cell_columns(self, value) -> dict:
        if self.kind == PER_SEAT:
            return {self.name + "0": int(value[0]), self.name + "1": int(value[1])}
        if self.kind == SEAT:
            return {self.name: int(value)}
        return {self.name: value, **(self.columns(value) if self.columns else {})}

    def value_from_columns(self, row) -> Any:
        if self.kind == PER_SEAT:
            return (int(row[self.name + "0"]), int(row[self.name + "1"]))
        if self.kind == SEAT:
            return int(row[self.name])
        return row[self.name]

    def label(self, value) -> str:
        """The one label format: "50", "30/60" (seats unequal), a name or a seat."""
        if self.kind == PER_SEAT:
            return per_seat_label(value[0], value[1])
        return str(value)

    def describe(self) -> dict:
        """What a run's meta.json stores, so analysis reads dimensions without the game's code."""
        return {"name": self.name, "kind": self.kind, "description": self.description,
                "columns": list(self.column_names()), "sweep_keys": list(self.sweep_keys()),
                "values": list(self.values), "low": self.low, "high": self.high}


@dataclass(frozen=True)
class DerivedAxis:
    """A column computed from a PER_SEAT dimension's two seat values, which analysis and
    reports can group by (e.g. rank gap = rank1 - rank0): `of` names the dimension, `op`
    is "difference" (seat 1 - seat 0) or "sum". Stored in meta.json (`derived_axes`) so
    a run is read without the game's code."""

    name: str
    of: str
    description: str
    op: str = "difference"

    OPS = ("difference", "sum")

    def __post_init__(self):
        if self.op not in self.OPS:
            raise ValueError("DerivedAxis %s: op must be one of %s (got %r)" % (self.name, ", ".join(self.OPS), self.op))

    def value(self, row) -> int:
        seat0, seat1 = int(row[self.of + "0"]), int(row[self.of + "1"])
        return seat1 - seat0 if self.op == "difference" else seat0 + seat1

    def describe(self) -> dict:
        return {"name": self.name, "of": self.of, "description": self.description, "op": self.op}


def derived_value(described: dict, row) -> int:
    """A stored derived axis (`DerivedAxis.describe`) of a row with its dimension's columns."""
    return DerivedAxis(**described).value(row)


# ---- game data ---------------------------------------------------------------------------
@dataclass(frozen=True)
class GameData:
    """Data a game's cells play with beside the rules (a card pool, deck lists, agent
    weights): one file, stored in a run folder (`data/<name>`) with its hash in meta.json
    (`game_data`), played again from that copy by --resume and `play --from`.
    `load()` gives the bytes a caller without a plan plays (e.g. the shipped file);
    `for_plan(plan)`, when given, the bytes a new sweep's plan plays (data that depends on
    the plan's rules and cells, e.g. the card pool and deck lists its cells use):
    `sim/sweep/grid.py:build_plan` binds it once the cells are known. `check(bytes)`, when
    given, raises CardbalanceError naming the field when the bytes are not the file's format:
    a run's copy passes it before anything reads it (sim/run_data.py), whatever its hash."""

    name: str
    description: str
    load: Callable[[], bytes]
    for_plan: Callable[[Any], bytes] | None = None
    check: Callable[[bytes], Any] | None = None


def data_hash(blob: bytes) -> str:
    return hashlib.sha256(blob).hexdigest()[:16]


# The functions of a GameSpec that take the game's data (keyword `data`: {file name: bytes}).
DATA_FUNCTIONS = ("play_batch", "play_paired_batch", "replay_log", "reference_play_match")


# ---- the game ----------------------------------------------------------------------------

def parse_pair(text: str) -> tuple[str, str]:
    """"greedy:random" -> ("greedy", "random"): a strategy pair, seat 0 then seat 1.
    A number after ':' is the previous strategy's parameter (a search budget):
    "pimc:64:greedy" -> ("pimc:64", "greedy")."""
    parts: list[str] = []
    for part in str(text).split(":"):
        if parts and part.strip().lstrip("+-").isdigit():  # a budget, even a bad one ("²", "-3"): StrategyTable.id judges it
            parts[-1] += ":" + part
        else:
            parts.append(part)
    if len(parts) != 2 or not all(parts):
        raise CardbalanceError("strategies: '%s' must be 'seat0:seat1' strategy names, e.g. 'greedy:random'." % text)
    return parts[0], parts[1]




def skill_label(strategy0: str, strategy1: str) -> str:
    """The skill level of a strategy pair (the strategies dimension under its sweep name,
    `skills`): the agent when both seats play it, else 'seat0/seat1'."""
    return strategy0 if strategy0 == strategy1 else "%s%s%s" % (strategy0, SKILL_SEPARATOR, strategy1)


@dataclass(frozen=True)
class GameSpec:
    """Everything the shared layers need to run and read one game.

    - `dimensions`: the grid axes besides strategies and rules, in cell
      order (a sweep's cells run rules → strategies → these).
    - `game_data`: `GameData` files the cells play with beside the rules; a game with
      any takes them as keyword `data` ({file name: bytes}) in `play_batch`,
      `play_paired_batch`, `replay_log` and `reference_play_match`. `with_data(data)`
      binds them (every plan does, `sim/sweep/grid.py`); `data` holds what is bound.
    - `derived_axes`: columns computed from a per-seat dimension (`DerivedAxis`, e.g.
      a rank gap), written beside the dimensions' columns in cells and results.
    - `end_types`: names indexed by the game's end-type codes (win types and
      draw types together; the outcome row says who won).
    - `special_end_types`: the end types that are special victories.
    - `counter_names`: effect counters, in record order (how often each
      effect fired).
    - `length_bins`: bins of the turns histogram (last bin = overflow).
    - `load_rules(name_or_path)`: -> rules object with `.to_array()`,
      `.stable_hash()`, `.as_dict()`, `.differences_from_default()`;
      `rules_presets`; `rules_text(rules)` -> the effective rules as TOML
      (`cardbalance rules`).
    - `check_rules(rules)`: raises CardbalanceError when some match of the game's grid
      could not be set up under `rules` though every field is valid (the Novel TCG: a deck
      template the numbers cannot fill at some rank); `rules --check` runs it, so it never
      calls "valid" what `sweep` and `play` refuse (they meet the same check per cell).
    - `behaviour_version`: recorded in runs; reports refuse mismatches.
    - `strategy_id(name)`: strategy name -> int id for the kernel (raises
      CardbalanceError listing the known names); `strategy_names`.
    - `cell_array(values, strategy0, strategy1)`: {dimension name: value},
      two strategy ids -> int64 array the kernels read (the game's own checks).
    - `play_batch(rules_array, cell_array, chunk_seed, start_index, n_matches)`
      -> aggregate vector (sim/aggregate.py) of matches start_index ..
      start_index + n_matches - 1 of that chunk seed.
    - `play_paired_batch(rules_a, rules_b, cell_array, chunk_seed, start_index, n_matches)`
      -> paired sums for `cardbalance compare` (common random numbers).
    - `replay_log(rules, cell_array, match_seed)` -> list of log lines of one match.
    - `reference_play_match(rules, cell_array, match_seed)` -> the record of one
      match on the plain-Python engine (bench, replay checks).
    - `players`: default `--p0`/`--p1` of `cardbalance play`; `parse_players(p0, p1)`
      -> ({dimension name: value}, (strategy0 name, strategy1 name)).
    - `run_scenario(path, legal)` -> (position as a JSON-ready dict, log lines)
      (`cardbalance scenario`; format in the game's docs).
    - `load_stored_rules(path)`: `load_rules` for a run's own stored copy of a
      rules file (resume, `play --from`), which may hold fields an older version
      had (default: `load_rules`); `stored_rules_match(values, rules)`: whether a
      run's stored rules values are `rules` when their stored hash differs
      (written by an older version; default: never). Grid values (e.g. a
      starting life) are never rules fields: they come only from the grid.
    - `default_sweep`: the built-in sweep (a sweep-file mapping).
    - `ladder_agents`: the agents `cardbalance ladder` ranks by default, weakest
      first (empty: every strategy name).
    - `modules`: modules a fresh interpreter imports to register and compile
      the game (the bench's compile probe).
    - `engine`: a factory of the game's `sim.contract.GameEngine` (the engine contract as
      code; tests/test_contract.py holds every registered game to it).
    - `examples`: words the command-line help of the default game uses (keys
      p0, p1, setup, scope, choices, end_type; see sim/cli/options.py).
    """

    name: str
    dimensions: tuple[Dimension, ...]
    end_types: tuple[str, ...]
    special_end_types: tuple[str, ...]
    counter_names: tuple[str, ...]
    length_bins: int
    behaviour_version: int
    load_rules: Callable[..., Any]
    strategy_names: Callable[[], tuple[str, ...]]
    strategy_id: Callable[[str], int]
    cell_array: Callable[..., Any]
    play_batch: Callable[..., Any]
    play_paired_batch: Callable[..., Any] | None = None
    replay_log: Callable[..., Any] | None = None
    reference_play_match: Callable[..., Any] | None = None
    rules_presets: tuple[str, ...] = ("default",)
    rules_text: Callable[[Any], str] | None = None
    check_rules: Callable[[Any], None] | None = None
    players: tuple[str, str] = ("greedy", "greedy")
    parse_players: Callable[..., Any] | None = None
    run_scenario: Callable[..., Any] | None = None
    load_stored_rules: Callable[..., Any] | None = None
    stored_rules_match: Callable[[dict, Any], bool] | None = None
    default_sweep: dict = field(default_factory=dict)
    ladder_agents: tuple[str, ...] = ()  # `cardbalance ladder`'s default agents (empty: every strategy name)
    modules: tuple[str, ...] = ()
    engine: Callable[[], Any] | None = None
    examples: dict = field(default_factory=dict)
    derived_axes: tuple[DerivedAxis, ...] = ()
    game_data: tuple[GameData, ...] = ()
    data: dict = field(default_factory=dict)
    extra: dict = field(default_factory=dict)

    def dimension(self, name: str) -> Dimension:
        for dimension in self.dimensions:
            if name in (dimension.name, dimension.sweep_key):
                return dimension
        raise CardbalanceError("%s has no grid dimension '%s'; its dimensions: %s."
                               % (self.name, name, ", ".join(d.name for d in self.dimensions)))

    def cell_columns(self) -> tuple[str, ...]:
        """Columns of a cell in results.parquet and meta.json, in order."""
        columns = ["cell"]
        for dimension in self.dimensions:
            columns += dimension.column_names()
        columns += [axis.name for axis in self.derived_axes]
        return tuple(columns) + ("strategy0", "strategy1", "rules")

    def shipped_data(self) -> dict:
        """{file name: bytes} a new run plays (each `GameData.load()`)."""
        return {entry.name: bytes(entry.load()) for entry in self.game_data}

    def with_data(self, data: dict | None = None) -> "GameSpec":
        """This game with `data` (default: the shipped data) bound into the functions that take
        it; the game itself when it declares none."""
        if not self.game_data:
            return self
        data = self.shipped_data() if data is None else dict(data)
        names = sorted(entry.name for entry in self.game_data)
        if sorted(data) != names:
            raise CardbalanceError("%s plays with the data files %s (got %s)." % (self.name, ", ".join(names),
                                                                                ", ".join(sorted(data)) or "none"))
        base = {name: getattr(self, name) for name in DATA_FUNCTIONS}
        if self.data:  # already bound: rebind the unbound functions
            base = {name: getattr(function, "func", function) for name, function in base.items()}
        bound = {name: functools.partial(function, data=data) for name, function in base.items() if function}
        return replace(self, data=data, **bound)

    def cell_values_columns(self, values: dict) -> dict:
        """{column: value} of a cell's grid values ({dimension name: value}), derived axes included."""
        columns = {}
        for dimension in self.dimensions:
            columns.update(dimension.cell_columns(values[dimension.name]))
        for axis in self.derived_axes:
            columns[axis.name] = axis.value(columns)
        return columns

    def single_values(self) -> dict:
        """{dimension: the value a one-match command uses when none is given}."""
        return {d.name: d.single for d in self.dimensions}

    def strategy_pair(self, text: str) -> tuple[str, str]:
        pair = parse_pair(text)
        for name in pair:
            self.strategy_id(name)  # raises CardbalanceError listing the known names
        return pair

    def default_players(self, p0: str, p1: str):
        """`parse_players` for games whose players are just strategy names."""
        for name in (p0, p1):
            self.strategy_id(name)  # each seat on its own: its error names its budget, not a pair
        return {}, (p0, p1)


_GAMES: dict[str, str | Callable[[], GameSpec]] = {}
_LOADED: dict[str, GameSpec] = {}


def register(name: str, declaration: str | Callable[[], GameSpec]) -> None:
    """Register a game by the dotted path of its GameSpec ("pkg.module:NAME") or a
    factory; either is loaded on the first `get_game`."""
    _GAMES[name] = declaration
    _LOADED.pop(name, None)


def get_game(name: str | None = None) -> GameSpec:
    name = DEFAULT_GAME if name is None else name
    if name not in _GAMES:
        raise CardbalanceError("game '%s' is unknown; known games: %s%s." % (
            name, ", ".join(sorted(_GAMES)), did_you_mean(name, _GAMES)))
    if name not in _LOADED:
        declaration = _GAMES[name]
        _LOADED[name] = resolve(declaration) if isinstance(declaration, str) else declaration()
    return _LOADED[name]


def game_names() -> tuple[str, ...]:
    return tuple(sorted(_GAMES))


# One line per game.
register("faction_war", "sim.faction_war.game:GAME_SPEC")
register("poker_duel", "sim.poker_duel.game:GAME_SPEC")
register("novel_tcg", "sim.novel_tcg.game:GAME_SPEC")
