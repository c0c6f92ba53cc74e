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
order:  rules → strategies → pairing → (life0, life1) → first player.

Everything here raises `CardbalanceError` on bad input and touches no file
system except reading rule files, so the CLI can check a sweep completely
before it creates a run folder.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from sim.errors import CardbalanceError
from sim.registry import GameSpec, get_game

# ---- the built-in default sweep (`cardbalance sweep` with no arguments) ----------
# Sized to finish in about a minute on a 2-core laptop, numba compilation
# included (cached after the first run). Change the numbers here, and only here.
DEFAULT_GAME = "faction_war"
DEFAULT_LIVES = [30, 40, 50, 60, 70, 80, 90, 100]
DEFAULT_SWEEP: dict[str, Any] = {
    "name": "default",
    "game": DEFAULT_GAME,
    "pairings": ["human_vs_human", "human_vs_alien", "alien_vs_alien"],
    "life": DEFAULT_LIVES,
    "life_pairs": [[40, 60], [60, 40]],   # a handicap study: seat 0 down, then up, 20 life
    "strategies": ["greedy:greedy"],
    "rules": ["default"],
    "matches": 2000,
    "chunk_size": 1000,
    "seed": 1,
}
DEFAULT_CHUNK_SIZE = 5000
DEFAULT_MAX_MATCHES = 200_000
MAX_LIFE = 1_000_000
MAX_MATCHES_PER_CELL = 10**10

SWEEP_KEYS = ("name", "game", "pairings", "life", "life_pairs", "strategies", "rules",
              "matches", "precision", "max_matches", "chunk_size", "seed")


@dataclass(frozen=True)
class SweepSpec:
    """A validated sweep file (game-independent checks only; see `build_plan`)."""

    name: str = "sweep"
    game: str = DEFAULT_GAME
    pairings: tuple[str, ...] = ()
    life: tuple[int, ...] = tuple(DEFAULT_LIVES)
    life_pairs: tuple[tuple[int, int], ...] = ()
    strategies: tuple[str, ...] = ("greedy:greedy",)
    rules: tuple[str, ...] = ("default",)
    matches: int | None = None          # per cell; with `precision`, the first round
    precision: float | None = None      # 95 % Wilson half-width target per cell
    max_matches: int = DEFAULT_MAX_MATCHES
    chunk_size: int = DEFAULT_CHUNK_SIZE
    seed: int = 1

    def as_dict(self) -> dict:
        data = asdict(self)
        data["pairings"] = list(self.pairings)
        data["life"] = list(self.life)
        data["life_pairs"] = [list(pair) for pair in self.life_pairs]
        data["strategies"] = list(self.strategies)
        data["rules"] = list(self.rules)
        return data

    def with_overrides(self, **overrides) -> "SweepSpec":
        """Command-line overrides (None = keep); re-validated."""
        changes = {k: v for k, v in overrides.items() if v is not None}
        if not changes:
            return self
        return parse_sweep({**self.as_dict(), **changes}, "command line")

    def first_round_matches(self) -> int:
        """Matches per cell before any precision round (the whole run without one)."""
        if self.matches is not None:
            return min(self.matches, self.max_matches) if self.precision is not None else self.matches
        return min(self.chunk_size, self.max_matches)


@dataclass(frozen=True)
class Cell:
    """One point of the grid: every match of a cell has the same setup."""

    cell: int
    pairing: str
    faction0: str
    faction1: str
    life0: int
    life1: int
    first: int
    strategy0: str
    strategy1: str
    rules: str

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class Plan:
    """A sweep checked against its game: cells, rule objects and arrays."""

    spec: SweepSpec
    game: GameSpec
    cells: list[Cell]
    rules: dict[str, Any]                  # rules name -> rules object
    rules_sources: dict[str, str] = field(default_factory=dict)

    def cell_array(self, cell: Cell):
        game = self.game
        return game.cell_array(game.factions.index(cell.faction0), game.factions.index(cell.faction1),
                               cell.life0, cell.life1, cell.first,
                               game.strategy_id(cell.strategy0), game.strategy_id(cell.strategy1))

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


def _life(value, key: str, source: str) -> int:
    if not _is_int(value) or not 1 <= value <= MAX_LIFE:
        raise CardbalanceError("%s: '%s' values must be integers from 1 to %d (got %r)." % (source, key, MAX_LIFE, value))
    return value


def parse_sweep(data: dict, source: str = "sweep") -> SweepSpec:
    """A mapping (parsed TOML) → SweepSpec; one clear error for the first bad field."""
    if not isinstance(data, dict):
        raise CardbalanceError("%s: a sweep must be a table of keys (%s)." % (source, ", ".join(SWEEP_KEYS)))
    for key in data:
        if key not in SWEEP_KEYS:
            raise CardbalanceError("%s: unknown key '%s'; allowed keys: %s." % (source, key, ", ".join(SWEEP_KEYS)))
    kwargs: dict[str, Any] = {}
    for key in ("name", "game"):
        if key in data:
            if not isinstance(data[key], str) or not data[key]:
                raise CardbalanceError("%s: '%s' must be a non-empty string (got %r)." % (source, key, data[key]))
            kwargs[key] = data[key]
    for key in ("pairings", "strategies", "rules"):
        if key in data:
            kwargs[key] = _string_list(data, key, source)
    if "life" in data:
        life = data["life"]
        if _is_int(life):
            life = [life]
        if not isinstance(life, (list, tuple)):
            raise CardbalanceError("%s: 'life' must be a list of positive integers (got %r)." % (source, life))
        kwargs["life"] = tuple(_life(value, "life", source) for value in life)
    if "life_pairs" in data:
        pairs = data["life_pairs"]
        if not isinstance(pairs, (list, tuple)) or not all(isinstance(p, (list, tuple)) and len(p) == 2 for p in pairs):
            raise CardbalanceError("%s: 'life_pairs' must be a list of [seat0, seat1] pairs (got %r)." % (source, pairs))
        kwargs["life_pairs"] = tuple((_life(a, "life_pairs", source), _life(b, "life_pairs", source)) for a, b in pairs)
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
    if not spec.pairings:
        raise CardbalanceError("%s: the grid is empty: 'pairings' lists no pairing." % source)
    if not spec.life and not spec.life_pairs:
        raise CardbalanceError("%s: the grid is empty: 'life' and 'life_pairs' list no starting life." % source)
    if not spec.strategies:
        raise CardbalanceError("%s: the grid is empty: 'strategies' lists no strategy pair." % source)
    if not spec.rules:
        raise CardbalanceError("%s: the grid is empty: 'rules' lists no rule set." % source)
    for key in ("pairings", "strategies", "rules"):
        values = getattr(spec, key)
        if len(set(values)) != len(values):
            raise CardbalanceError("%s: '%s' lists a value twice (%s)." % (source, key, ", ".join(values)))
    return spec


def load_sweep(path: str | Path) -> SweepSpec:
    """Read a sweep file; relative rule-file paths are taken from the file's folder."""
    path = Path(path)
    if not path.is_file():
        raise CardbalanceError("sweep file '%s' does not exist or is not a file." % path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise CardbalanceError("sweep file %s is not valid TOML: %s." % (path, error)) from None
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


def default_sweep() -> SweepSpec:
    return parse_sweep(dict(DEFAULT_SWEEP), "default sweep")


# ---- expansion into cells -----------------------------------------------------------

def life_combinations(spec: SweepSpec) -> list[tuple[int, int]]:
    combos = [(life, life) for life in spec.life]
    for pair in spec.life_pairs:
        if pair not in combos:
            combos.append(tuple(pair))
    return combos


def build_plan(spec: SweepSpec, game: GameSpec | None = None) -> Plan:
    """Check a spec against its game and expand it into ordered cells."""
    game = game or get_game(spec.game)
    for pairing in spec.pairings:
        if pairing not in game.pairings:
            raise CardbalanceError("pairing '%s' is unknown for %s; known pairings: %s."
                                   % (pairing, game.name, ", ".join(game.pairings)))
    strategy_pairs = []
    for entry in spec.strategies:
        parts = _strategy_pair(entry)
        if len(parts) != 2 or not all(parts):
            raise CardbalanceError("strategies: '%s' must be 'seat0:seat1' strategy names, e.g. 'greedy:random'." % entry)
        for name in parts:
            game.strategy_id(name)  # raises CardbalanceError listing the known names
        strategy_pairs.append((parts[0], parts[1]))
    rules = {}
    for name in spec.rules:
        rules[name] = game.load_rules(name)
    cells = []
    for rules_name in spec.rules:
        for strategy0, strategy1 in strategy_pairs:
            for pairing in spec.pairings:
                faction0, faction1 = game.pairings[pairing]
                for life0, life1 in life_combinations(spec):
                    for first in (0, 1):
                        cells.append(Cell(len(cells), pairing, game.factions[faction0], game.factions[faction1],
                                          life0, life1, first, strategy0, strategy1, rules_name))
    plan = Plan(spec=spec, game=game, cells=cells, rules=rules)
    for cell in cells:
        plan.cell_array(cell)  # the game's own checks of a cell (e.g. its life limits), before any run folder exists
    return plan


# ---- precision ------------------------------------------------------------------------
Z95 = 1.959963984540054


def _strategy_pair(entry: str) -> list[str]:
    """'pimc:64:greedy' -> ['pimc:64', 'greedy']: a number after ':' is the previous
    strategy's parameter (e.g. a search budget), not a strategy of its own."""
    names: list[str] = []
    for part in entry.split(":"):
        if part.isdigit() and names:
            names[-1] += ":" + part
        else:
            names.append(part)
    return names


def wilson_half_width(successes: int, n: int, z: float = Z95) -> float:
    """Half-width of the Wilson score interval of successes/n (1.0 when n = 0)."""
    if n <= 0:
        return 1.0
    p = successes / n
    denominator = 1 + z * z / n
    return z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator


def matches_for_half_width(p: float, half_width: float, z: float = Z95) -> int:
    """Normal-approximation sample size for a target half-width at rate p."""
    p = min(max(p, 0.01), 0.99)
    return int(math.ceil(z * z * p * (1 - p) / (half_width * half_width)))
