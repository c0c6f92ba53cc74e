"""The game registry: what the sweep runner, analysis and compare need to know
about a rule set, so that they stay generic over games.

Each game package registers one `GameSpec`. Faction War is the first entry;
the poker duel and the web-novel card game will add theirs. Tests may
register small fake games through `register`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from sim.errors import CardbalanceError


@dataclass(frozen=True)
class GameSpec:
    """Everything generic code needs to run and read one game.

    - `pairings`: name -> (faction of seat 0, faction of seat 1), e.g.
      "human_vs_alien" -> (0, 1).
    - `end_types`: names indexed by the game's end-type codes (win types and
      draw types together; the outcome row says who won).
    - `special_end_types`: the end types that are special victories.
    - `counter_names`: effect counters, in record order (how often each
      effect fired).
    - `length_bins`: bins of the turns histogram (last bin = overflow).
    - `load_rules(name_or_path)`: -> rules object with `.to_array()`,
      `.stable_hash()`, `.as_dict()`, `.differences_from_default()`.
    - `behaviour_version`: recorded in runs; reports refuse mismatches.
    - `strategy_id(name)`: strategy name -> int id for the kernel (raises
      CardbalanceError listing the known names); `strategy_names`.
    - `cell_array(faction0, faction1, life0, life1, first, strategy0, strategy1)`:
      -> int64 array the kernels read.
    - `play_batch(rules_array, cell_array, chunk_seed, start_index, n_matches)`
      -> aggregate vector (sim/aggregate.py) of matches start_index ..
      start_index + n_matches - 1 of that chunk seed.
    - `play_paired_batch(rules_a, rules_b, cell_array, chunk_seed, start_index, n_matches)`
      -> paired sums for `cardbalance compare` (common random numbers).
    - `replay_log(rules, cell_array, match_seed)` -> list of log lines of one match.
    """

    name: str
    factions: tuple[str, ...]
    pairings: dict[str, tuple[int, int]]
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
    extra: dict = field(default_factory=dict)


_GAMES: dict[str, Callable[[], GameSpec]] = {}
_LOADED: dict[str, GameSpec] = {}


def register(name: str, factory: Callable[[], GameSpec]) -> None:
    """Register a game by a factory (import of numba code stays lazy)."""
    _GAMES[name] = factory
    _LOADED.pop(name, None)


def get_game(name: str) -> GameSpec:
    if name not in _GAMES:
        raise CardbalanceError("game '%s' is unknown; known games: %s." % (name, ", ".join(sorted(_GAMES))))
    if name not in _LOADED:
        _LOADED[name] = _GAMES[name]()
    return _LOADED[name]


def game_names() -> tuple[str, ...]:
    return tuple(sorted(_GAMES))


def _faction_war() -> GameSpec:
    from sim.faction_war.game import GAME_SPEC
    return GAME_SPEC


register("faction_war", _faction_war)
