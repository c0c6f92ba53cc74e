"""Scripted strategies, one subpackage per game: `strategies/<game>/`.

A game's strategy package holds its numba policies (over one seat's view of
the state, docs/engine-contract.md), the kernel-side switch from strategy id
to policy, and the game's match loop that calls them (numba binds the switch
at compile time, so the loop sits above both the engine and the policies:
`sim/<game>/` never imports `strategies/`; see docs/architecture.md).

This module is the common interface every game's package fills in: a
`StrategyTable` of names ↔ kernel ids, and the "seat0:seat1" notation of a
strategy pair that sweep files and the CLI use. It imports no numba code and
no game, so parsing names stays cheap.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.errors import CardbalanceError
from sim.registry import parse_pair  # noqa: F401  (the "seat0:seat1" notation, shared with the grid)


@dataclass(frozen=True)
class StrategyTable:
    """A game's strategies: name -> kernel id (ids are what cell arrays carry)."""

    ids: dict[str, int]

    def names(self) -> tuple[str, ...]:
        """Known strategy names, in id order."""
        return tuple(sorted(self.ids, key=self.ids.get))

    def id(self, name: str) -> int:
        """Strategy name -> kernel id; CardbalanceError listing the known names."""
        key = str(name).strip().lower()
        if key not in self.ids:
            raise CardbalanceError("strategy '%s' is unknown; known strategies: %s." % (name, ", ".join(self.names())))
        return self.ids[key]

    def name(self, identifier: int) -> str:
        for name, value in self.ids.items():
            if value == identifier:
                return name
        raise CardbalanceError("strategy id %r is unknown; known ids: %s." % (
            identifier, ", ".join("%d (%s)" % (v, k) for k, v in self.ids.items())))

