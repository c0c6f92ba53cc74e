"""A ladder as a sweep: every ordered pair of agents on common deals.

`ladder_spec` turns agents and a match budget into an ordinary sweep spec,
so a ladder runs on the sweep runner and the one executor (chunks, seeds
from the root seed, joblib loky or dask, resume) and its folder is a run
folder like a sweep's, plus a `ladder` entry in meta.json. What makes it a
tournament:

- its strategies are every ordered pair "A:B" of distinct agents, so each
  pair meets with A in seat 0 and with A in seat 1 (and, in a game with seat
  names, with A under either seat name of every series);
- the game's seat dimension (first player) is played both ways, as always;
- `common_deals`: every agent pair plays the same matches (match seeds) at a
  grid point, so the luck of the deal cancels out of the comparison.

`--matches` counts per comparison (an unordered agent pair over all its
cells): each cell gets ceil(matches / cells per pair), in DEAL_BLOCKS chunks by
default (the blocks of deals the ratings' bootstrap redraws).
"""

from __future__ import annotations

import math

from analysis.ladder import DEAL_BLOCKS
from sim.errors import CardbalanceError
from sim.registry import CHOICE, PER_SEAT, GameSpec
from sim.sweep.grid import SweepSpec, parse_sweep

DEFAULT_MATCHES = 2000   # per comparison: the strength table issue 14 asks for
DEFAULT_CHUNK_SIZE = 1000  # at most, matches per chunk
# A cell's deals are cut into DEAL_BLOCKS chunks by default (declared beside the bootstrap that needs
# them): common deals make the chunks at one grid point blocks of deals every pair played, which the
# ratings' bootstrap redraws whole (analysis/ladder.py: Resampling); 20 a grid point keeps its
# interval's small-sample factor near 1.06.
LADDER_VERSION = 1


def check_agents(game: GameSpec, agents) -> list[str]:
    """Agent names, checked against the game's strategy table (one error line for the first bad one)."""
    agents = [str(agent).strip() for agent in agents if str(agent).strip()]
    for agent in agents:
        game.strategy_id(agent)  # CardbalanceError: unknown agent, or a budget that is not an allowed integer
    if len(agents) < 2:
        raise CardbalanceError("--agents must name at least two agents, separated by commas (got %s); known: %s."
                               % (", ".join(agents) or "none", ", ".join(game.strategy_names())))
    twice = sorted({agent for agent in agents if agents.count(agent) > 1})
    if twice:
        raise CardbalanceError("--agents lists %s twice." % ", ".join(twice))
    ids = [game.strategy_id(agent) for agent in agents]  # an alias and its name are one agent
    same = [(a, b) for i, a in enumerate(agents) for j, b in enumerate(agents) if i < j and ids[i] == ids[j]]
    if same:
        raise CardbalanceError("--agents lists one agent under two names: %s."
                               % "; ".join("%s = %s" % pair for pair in same))
    return agents


def default_agents(game: GameSpec) -> list[str]:
    """The game's default ladder (`GameSpec.ladder_agents`), else all its strategy names."""
    return list(game.ladder_agents or game.strategy_names())


def grid_settings(game: GameSpec, chosen: dict) -> dict:
    """Sweep keys of the game's dimensions for a ladder: the values given on the command
    line (`chosen`: {dimension: value or list}), else every choice the game's default sweep
    lists and the one value a single-match command uses."""
    settings = {}
    defaults = game.default_sweep or {}
    for dimension in game.dimensions:
        value = chosen.get(dimension.name)
        if dimension.kind == CHOICE:
            settings[dimension.sweep_key] = list(value or defaults.get(dimension.sweep_key) or dimension.values)
        elif dimension.kind == PER_SEAT:
            pair = tuple(value if value is not None else dimension.single)
            if pair[0] == pair[1]:
                settings[dimension.sweep_key] = [pair[0]]
            else:
                settings[dimension.sweep_key] = []
                settings[dimension.sweep_key + "_pairs"] = [list(pair)]
    return settings


def cells_per_pair(game: GameSpec, settings: dict) -> int:
    """Cells one unordered agent pair plays: 2 seat orders x every grid point (first player included)."""
    probe = parse_sweep({"game": game.name, **settings}, "ladder")
    points = 1
    for dimension in game.dimensions:
        points *= len(dimension.grid_values(probe.settings, game.name))
    return 2 * points


def deal_block_chunk_size(per_cell: int) -> int:
    """The default chunk size: each cell's deals in DEAL_BLOCKS chunks (fewer when it has fewer
    matches), at most DEFAULT_CHUNK_SIZE matches each."""
    return min(DEFAULT_CHUNK_SIZE, max(1, math.ceil(per_cell / DEAL_BLOCKS)))


def ladder_spec(game: GameSpec, agents: list[str], matches: int, settings: dict, rules: str = "default",
                seed: int = 1, chunk_size: int | None = None, name: str = "ladder") -> SweepSpec:
    """`chunk_size` None: `deal_block_chunk_size` (a given one is kept, as before)."""
    if isinstance(matches, bool) or not isinstance(matches, int) or matches < 1:
        raise CardbalanceError("--matches must be a positive integer (matches per agent pair; got %r)." % (matches,))
    per_cell = math.ceil(matches / cells_per_pair(game, settings))
    chunk_size = deal_block_chunk_size(per_cell) if chunk_size is None else chunk_size
    pairs = ["%s:%s" % (a, b) for a in agents for b in agents if a != b]
    data = {"name": name, "game": game.name, **settings, "strategies": pairs, "rules": [rules], "matches": per_cell,
            "chunk_size": min(chunk_size, per_cell), "seed": seed, "common_deals": True}
    return parse_sweep(data, "ladder")


def ladder_meta(agents: list[str], matches: int, bootstrap: int) -> dict:
    """The `ladder` entry of a ladder run's meta.json."""
    return {"version": LADDER_VERSION, "agents": list(agents), "matches_per_comparison": int(matches),
            "bootstrap": int(bootstrap), "draws": "half a win for each side"}
