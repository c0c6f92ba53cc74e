"""Sweep specifications and the grid of cells they name.

A *sweep spec* is what a designer writes in a sweep file (TOML, format in
docs/architecture.md) or gets from `default_sweep()`: pairings, starting
lives (equal ones plus unequal handicap pairs), strategy pairs, rule sets,
and how many matches per cell (a fixed number or a precision target).
Both first-player orders are always played.

`build_plan(spec)` checks everything against the game's `GameSpec` (pairing
and strategy names, rules presets or files) and expands the grid into an
ordered list of cells. The order is part of the run format: a cell's index
feeds its seeds, so the same spec always gives the same cells in the same
order:  rules → strategies → the game's dimensions as it declares them (Faction
War: pairing → (life0, life1) → first player). With a `[vary]` table the rules
are its variants: each rules entry, then the combinations of varied values.

Everything here raises `CardbalanceError` on bad input and touches no file
system except reading rule files, so the CLI can check a sweep completely
before it creates a run folder.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from analysis.stats import Z95
from sim.errors import CardbalanceError
from sim.user_input import did_you_mean, read_toml
from sim.registry import DEFAULT_GAME, SKILL_SEPARATOR, GameSpec, get_game, skill_label  # noqa: F401
from sim.sweep.vary import parse_vary, variants, vary_as_dict

DEFAULT_CHUNK_SIZE = 5000
DEFAULT_MAX_MATCHES = 200_000
MAX_MATCHES_PER_CELL = 10**10

# Keys every sweep file may hold, whatever the game; each game adds the keys of
# its grid dimensions (`Dimension.sweep_keys`, e.g. Faction War's pairings, life,
# life_pairs).
COMMON_KEYS = ("name", "game", "strategies", "rules", "matches", "precision", "max_matches", "chunk_size", "seed")
# Optional keys: `skills` (a named notation for `strategies`, see `skill_pairs`)
# `common_deals` (cells that differ only in strategies or rules play the same
# matches: the ladder's common deals, docs/ladder.md) and `vary` (rule values as
# a dimension: rules variants, sim/sweep/vary.py).
OPTIONAL_KEYS = ("skills", "common_deals", "vary")


def skill_pairs(skills, source: str = "sweep", game: GameSpec | None = None) -> tuple[str, ...]:
    """`skills` entries -> 'seat0:seat1' strategy pairs, the one notation of the strategies
    dimension: "greedy" is both seats greedy ("greedy:greedy"), "pimc:64/greedy"
    is seat 0 strong, seat 1 weak ("pimc:64:greedy"). With `game`, each agent must
    be one the game offers (its budget an allowed integer)."""
    pairs = []
    for entry in skills:
        parts = str(entry).split(SKILL_SEPARATOR)
        if len(parts) > 2 or not all(part.strip() for part in parts):
            raise CardbalanceError("%s: 'skills' entry '%s' must be an agent (both seats) or 'seat0/seat1', "
                                   "e.g. 'greedy' or 'pimc:64/greedy'." % (source, entry))
        strong, weak = (parts * 2)[:2]
        for agent in (strong, weak) if game is not None else ():
            try:
                game.strategy_id(agent.strip())
            except CardbalanceError as error:
                raise CardbalanceError("%s: 'skills' entry '%s': %s" % (source, entry, error)) from None
        pairs.append("%s:%s" % (strong.strip(), weak.strip()))
    return tuple(pairs)



def sweep_keys(game: GameSpec) -> tuple[str, ...]:
    keys = list(COMMON_KEYS[:2])
    for dimension in game.dimensions:
        keys += dimension.sweep_keys()
    return tuple(keys) + COMMON_KEYS[2:] + OPTIONAL_KEYS


@dataclass(frozen=True)
class SweepSpec:
    """A validated sweep file (game-independent checks and the dimensions' own;
    see `build_plan`). `settings` holds the game's dimension keys (Faction War:
    pairings, life, life_pairs), also readable as attributes (`spec.life`)."""

    name: str = "sweep"
    game: str = DEFAULT_GAME
    settings: dict = field(default_factory=dict)
    strategies: tuple[str, ...] = ("greedy:greedy",)
    rules: tuple[str, ...] = ("default",)
    matches: int | None = None          # per cell; with `precision`, the first round
    precision: float | None = None      # 95 % Wilson half-width target per cell
    max_matches: int = DEFAULT_MAX_MATCHES
    chunk_size: int = DEFAULT_CHUNK_SIZE
    seed: int = 1
    common_deals: bool = False
    vary: tuple = ()                    # ((rules key, values), ...): rules variants (sim/sweep/vary.py)

    def __getattr__(self, name):
        settings = self.__dict__.get("settings", {})
        if name in settings:
            return settings[name]
        raise AttributeError(name)

    def as_dict(self) -> dict:
        data = {"name": self.name, "game": self.game}
        for key, value in self.settings.items():
            data[key] = [list(item) if isinstance(item, tuple) else item for item in value]
        data.update({"strategies": list(self.strategies), "rules": list(self.rules), "matches": self.matches,
                     "precision": self.precision, "max_matches": self.max_matches, "chunk_size": self.chunk_size,
                     "seed": self.seed})
        if self.common_deals:  # only when set, so older runs' specs stay as they were
            data["common_deals"] = True
        if self.vary:
            data["vary"] = vary_as_dict(self.vary)
        return data

    def with_overrides(self, **overrides) -> "SweepSpec":
        """Command-line overrides (None = keep); re-validated."""
        changes = {k: v for k, v in overrides.items() if v is not None}
        if not changes:
            return self
        data = {**self.as_dict(), **changes}
        if "skills" in changes:  # --skills replaces the file's strategies (one notation at a time)
            data.pop("strategies", None)
        return parse_sweep(data, "command line")

    def first_round_matches(self) -> int:
        """Matches per cell before any precision round (the whole run without one)."""
        if self.matches is not None:
            return min(self.matches, self.max_matches) if self.precision is not None else self.matches
        return min(self.chunk_size, self.max_matches)


@dataclass(frozen=True)
class Cell:
    """One point of the grid: every match of a cell has the same setup.

    `values`: {dimension name: value} (e.g. pairing, (life0, life1), first);
    `columns`: the cell's columns in results and meta (`GameSpec.cell_columns`),
    also readable as attributes (`cell.first`)."""

    cell: int
    values: dict
    columns: dict
    strategy0: str
    strategy1: str
    rules: str

    def __getattr__(self, name):
        columns = self.__dict__.get("columns", {})
        if name in columns:
            return columns[name]
        raise AttributeError(name)

    def as_dict(self) -> dict:
        return {"cell": self.cell, **self.columns, "strategy0": self.strategy0, "strategy1": self.strategy1,
                "rules": self.rules}


@dataclass
class Plan:
    """A sweep checked against its game: cells, rule objects and arrays."""

    spec: SweepSpec
    game: GameSpec
    cells: list[Cell]
    rules: dict[str, Any]                  # rules name (a variant's: "core+club_multiplier=3") -> rules object
    rules_sources: dict[str, str] = field(default_factory=dict)
    rules_bases: dict[str, tuple] = field(default_factory=dict)  # rules name -> (base name, {key: value})

    def deal(self, cell_index: int) -> int:
        """The cell number a cell's seeds come from with `common_deals`: the first cell
        of the same grid point (cells run rules -> strategies -> grid points)."""
        points = len(self.cells) // (len(self.rules) * len(self.spec.strategies))
        return cell_index % points

    def cell_array(self, cell: Cell):
        game = self.game
        return game.cell_array(cell.values, game.strategy_id(cell.strategy0), game.strategy_id(cell.strategy1))

    def rules_array(self, cell: Cell):
        return self.rules[cell.rules].to_array()


# ---- parsing ----------------------------------------------------------------------

def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _string_list(data: dict, key: str, source: str) -> tuple[str, ...]:
    value = data[key]
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)) or not all(isinstance(item, str) for item in value):
        raise CardbalanceError("%s: '%s' must be a list of strings (got %r)." % (source, key, value))
    return tuple(value)


def parse_sweep(data: dict, source: str = "sweep") -> SweepSpec:
    """A mapping (parsed TOML) → SweepSpec; one clear error for the first bad field."""
    if not isinstance(data, dict):
        raise CardbalanceError("%s: a sweep must be a table of keys (%s)." % (source, ", ".join(COMMON_KEYS)))
    kwargs: dict[str, Any] = {}
    for key in ("name", "game"):
        if key in data:
            if not isinstance(data[key], str) or not data[key]:
                raise CardbalanceError("%s: '%s' must be a non-empty string (got %r)." % (source, key, data[key]))
            kwargs[key] = data[key]
    game = get_game(kwargs.get("game", DEFAULT_GAME))
    allowed = sweep_keys(game)
    former = {key: hint for dimension in game.dimensions for key, hint in dimension.former_keys}
    for key in data:
        if key in former and key not in allowed:
            raise CardbalanceError("%s: '%s' is no longer a key of %s: %s." % (source, key, game.name, former[key]))
        if key not in allowed:
            raise CardbalanceError("%s: unknown key '%s'; allowed keys: %s%s." % (
                source, key, ", ".join(allowed), did_you_mean(key, allowed)))
    settings: dict[str, Any] = {}
    for dimension in game.dimensions:
        settings.update(dimension.defaults())
        settings.update(dimension.parse_sweep(data, source))
    kwargs["settings"] = settings
    for key in ("strategies", "rules"):
        if key in data:
            kwargs[key] = _string_list(data, key, source)
    if "skills" in data:
        if "strategies" in data:
            raise CardbalanceError("%s: give 'skills' or 'strategies', not both ('skills' names the strategies "
                                   "dimension: 'greedy' = 'greedy:greedy', 'a/b' = 'a:b')." % source)
        kwargs["strategies"] = skill_pairs(_string_list(data, "skills", source), source, game)
    if "vary" in data:
        kwargs["vary"] = parse_vary(data["vary"], source)
    if "common_deals" in data:
        if not isinstance(data["common_deals"], bool):
            raise CardbalanceError("%s: 'common_deals' must be true or false (got %r)." % (source, data["common_deals"]))
        kwargs["common_deals"] = data["common_deals"]
    for key, low, high in (("matches", 1, MAX_MATCHES_PER_CELL), ("max_matches", 1, MAX_MATCHES_PER_CELL),
                           ("chunk_size", 1, 10_000_000), ("seed", 0, 2**63 - 1)):
        if key in data and data[key] is not None:
            if not _is_int(data[key]) or not low <= data[key] <= high:
                raise CardbalanceError("%s: '%s' must be an integer from %d to %d (got %r)." % (source, key, low, high, data[key]))
            kwargs[key] = data[key]
    if "precision" in data and data["precision"] is not None:
        precision = data["precision"]
        if isinstance(precision, bool) or not isinstance(precision, (int, float)) or not 0 < precision < 0.5:
            raise CardbalanceError("%s: 'precision' must be a number between 0 and 0.5 (a 95 %% half-width, e.g. 0.005; got %r)." % (source, precision))
        kwargs["precision"] = float(precision)
    spec = SweepSpec(**kwargs)
    for dimension in game.dimensions:
        if dimension.sweep_keys() and not dimension.grid_values(settings, game.name):
            raise CardbalanceError("%s: the grid is empty: %s." % (source, dimension.empty_message()))
    if not spec.strategies:
        raise CardbalanceError("%s: the grid is empty: 'strategies' lists no strategy pair." % source)
    if not spec.rules:
        raise CardbalanceError("%s: the grid is empty: 'rules' lists no rule set." % source)
    for key in ("strategies", "rules"):
        values = getattr(spec, key)
        if len(set(values)) != len(values):
            raise CardbalanceError("%s: '%s' lists a value twice (%s)." % (source, key, ", ".join(values)))
    return spec


def load_sweep(path: str | Path) -> SweepSpec:
    """Read a sweep file; relative rule-file paths are taken from the file's folder."""
    path = Path(path)
    if not path.is_file():
        raise CardbalanceError("sweep file '%s' does not exist or is not a file." % path)
    data = read_toml(path, "sweep file")
    data.setdefault("name", path.stem)
    if "rules" in data and isinstance(data["rules"], list):
        data["rules"] = [_resolve_rules_path(entry, path.parent) for entry in data["rules"]]
    return parse_sweep(data, "sweep file %s" % path)


def _resolve_rules_path(entry, folder: Path):
    if isinstance(entry, str) and entry.endswith(".toml") and not Path(entry).is_absolute():
        candidate = folder / entry
        if candidate.is_file():
            return str(candidate)
    return entry


def default_sweep(game: str | None = None) -> SweepSpec:
    """The game's built-in sweep (`GameSpec.default_sweep`)."""
    spec = get_game(game)
    return parse_sweep(dict(spec.default_sweep or {"name": "default", "game": spec.name}), "default sweep")


# ---- expansion into cells -----------------------------------------------------------

def build_plan(spec: SweepSpec, game: GameSpec | None = None, load_rules=None, data: dict | None = None) -> Plan:
    """Check a spec against its game and expand it into ordered cells:
    rules → strategies → the game's dimensions in declared order.

    `load_rules(name)` replaces `game.load_rules` (a resumed run reads its own
    copies of the rules files); `data` the game's shipped data (a resumed run
    plays its own copies): the plan's game has it bound (`GameSpec.with_data`),
    so whatever plays the plan's cells plays with it.
    """
    game = (game or get_game(spec.game)).with_data(data)
    load_rules = load_rules or game.load_rules
    strategy_pairs = [game.strategy_pair(entry) for entry in spec.strategies]
    axes = [(dimension, dimension.grid_values(spec.settings, game.name)) for dimension in game.dimensions]
    rules, bases = variants(spec.rules, spec.vary, load_rules, "sweep '%s'" % spec.name)
    combos = [{}]
    for dimension, values in axes:
        combos = [{**combo, dimension.name: value} for combo in combos for value in values]
    cells = []
    for rules_name in rules:
        for strategy0, strategy1 in strategy_pairs:
            for values in combos:
                columns = game.cell_values_columns(values)
                cells.append(Cell(len(cells), values, columns, strategy0, strategy1, rules_name))
    plan = Plan(spec=spec, game=game, cells=cells, rules=rules, rules_bases=bases)
    for cell in cells:
        plan.cell_array(cell)  # the game's own checks of a cell (e.g. its life limits), before any run folder exists
    if data is None and any(entry.for_plan for entry in game.game_data):
        # a new plan: data that depends on its rules and cells (e.g. the decks they play) is built now
        plan.game = game.with_data({**game.data, **{entry.name: entry.for_plan(plan)
                                                    for entry in game.game_data if entry.for_plan}})
    return plan


# ---- precision ------------------------------------------------------------------------
# The interval itself is analysis.stats.half_width (the one Wilson function, shared
# with the reports, so the precision stop and the tables cannot drift apart).


def matches_for_half_width(p: float, half_width: float, z: float = Z95) -> int:
    """Normal-approximation sample size for a target half-width at rate p."""
    p = min(max(p, 0.01), 0.99)
    return int(math.ceil(z * z * p * (1 - p) / (half_width * half_width)))
