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

The agents written once (issue 25): random, greedy, tuned, pimc, pimc-random and
ismcts mean the same in every game, with the same parameters, default budgets and
old names. A game declares only which agents it offers, in kernel-id order
(`agent_table(("greedy", "random", ...))`: an agent's id is its place in that
tuple, so the order is part of the game's stored format and only grows at its
end); the table gives the standard agents their parameters and aliases, and a
game's own agents (a specialist or a cautious variant of greedy) take none.
The default budgets are frozen into compiled code: this file is in every game's
engine sources (`sim/<game>/engine_cache.py`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sim.errors import CardbalanceError
from sim.user_input import did_you_mean, parse_count, shorten
from sim.registry import parse_pair  # noqa: F401  (the "seat0:seat1" notation, shared with the grid)


PARAM_SHIFT = 8  # a parameterised id is base | parameter << PARAM_SHIFT ("pimc:64")
BASE_MASK = (1 << PARAM_SHIFT) - 1

# ---- the standard agents (docs/strategies.md) ----------------------------------------------------
RANDOM, GREEDY, TUNED = "random", "greedy", "tuned"
PIMC, PIMC_RANDOM, ISMCTS = "pimc", "pimc-random", "ismcts"
STANDARD_AGENTS = (RANDOM, GREEDY, TUNED, PIMC_RANDOM, PIMC, ISMCTS)
SEARCH_AGENTS = (PIMC_RANDOM, PIMC, ISMCTS)
# rollouts per decision: the measured strength and cost of the budgets are in docs/strategies.md
# (pimc:128 against pimc:64) and docs/poker-duel.md
PIMC_DEFAULT_BUDGET = 128
ISMCTS_DEFAULT_BUDGET = 200  # iterations per decision (the same documents)
MAX_BUDGET = 100_000
# agent -> (what its parameter is, largest value): written NAME:N, the bare name is the default budget
SEARCH_PARAMETERS = {PIMC_RANDOM: ("rollouts per decision", MAX_BUDGET),
                     PIMC: ("rollouts per decision", MAX_BUDGET),
                     ISMCTS: ("iterations per decision", MAX_BUDGET)}
# old name -> the name it stands for: "pimc-greedy" was the strong PIMC's name until the games'
# behaviour versions moved on; its kernel id became "pimc"'s, so old configs keep working
STANDARD_ALIASES = {"pimc-greedy": PIMC}


@dataclass(frozen=True)
class StrategyTable:
    """A game's strategies: name -> kernel id (ids are what cell arrays carry).

    `parameters`: base id -> (what its parameter is, largest value) for the
    strategies written NAME:N (a search budget, say); the bare name is the base
    id and means the strategy's default.
    `aliases`: old name -> the name it stands for (an agent renamed keeps
    working in old configs); an alias parses to the same id, and an id always
    prints as its name in `ids`, never as an alias."""

    ids: dict[str, int]
    parameters: dict[int, tuple[str, int]] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)

    def __post_init__(self):
        for alias, name in self.aliases.items():
            assert name in self.ids and alias not in self.ids, (alias, name)

    def names(self) -> tuple[str, ...]:
        """Known strategy names, in id order (aliases not included)."""
        return tuple(sorted(self.ids, key=self.ids.get))

    def _known(self) -> str:
        with_n = [name for name, value in self.ids.items() if value in self.parameters]
        aliases = ["%s = %s" % pair for pair in self.aliases.items()]
        return ", ".join(self.names()) + (" (%s also as NAME:N)" % ", ".join(with_n) if with_n else "") + (
            "; aliases: %s" % ", ".join(aliases) if aliases else "")

    def id(self, name: str) -> int:
        """Strategy name ("greedy", "pimc:64") -> kernel id; CardbalanceError listing the
        known names or the allowed parameter values."""
        key = str(name).strip().lower()
        name = shorten(str(name))  # as shown in an error: a 5,000-character name is cut
        base, separator, parameter = key.partition(":")
        base = self.aliases.get(base, base)
        if base not in self.ids:
            raise CardbalanceError("strategy '%s' is unknown; known strategies: %s%s." % (
                name, self._known(), did_you_mean(base, [*self.ids, *self.aliases])))
        base_id = self.ids[base]
        if not separator:
            return base_id
        if base_id not in self.parameters:
            raise CardbalanceError("strategy '%s': '%s' takes no parameter (only %s do)." % (
                name, base, ", ".join("%s:N" % self.name(b) for b in self.parameters) or "none"))
        meaning, largest = self.parameters[base_id]
        return base_id | parse_count(parameter, "strategy '%s'" % name, 1, largest, meaning) << PARAM_SHIFT

    def is_id(self, identifier) -> bool:
        """A kernel id `id` can produce (a base id, with a parameter only where allowed)."""
        try:
            identifier = int(identifier)
        except (TypeError, ValueError):
            return False
        base, parameter = identifier & BASE_MASK, identifier >> PARAM_SHIFT
        if identifier < 0 or base not in self.ids.values():
            return False
        return parameter == 0 or (base in self.parameters and parameter <= self.parameters[base][1])

    def listing(self) -> str:
        """"0=random, 1=greedy, ...": the ids a cell array may carry, for error lines."""
        return ", ".join("%d=%s" % (value, name) for name, value in sorted(self.ids.items(), key=lambda kv: kv[1]))

    def name(self, identifier: int) -> str:
        if self.is_id(identifier) and int(identifier) >> PARAM_SHIFT:
            return "%s:%d" % (self.name(int(identifier) & BASE_MASK), int(identifier) >> PARAM_SHIFT)
        for name, value in self.ids.items():
            if value == identifier:
                return name
        raise CardbalanceError("strategy id %r is unknown; known ids: %s." % (
            identifier, ", ".join("%d (%s)" % (v, k) for k, v in self.ids.items())))


def agent_table(agents: tuple[str, ...]) -> StrategyTable:
    """A game's strategy table from the agents it offers, in kernel-id order (the module
    docstring): the standard search agents take their budget as NAME:N, the standard aliases
    of offered agents parse, and a game's own agents take no parameter."""
    assert len(set(agents)) == len(agents) and len(agents) <= BASE_MASK, agents
    ids = {name: index for index, name in enumerate(agents)}
    parameters = {ids[name]: SEARCH_PARAMETERS[name] for name in agents if name in SEARCH_PARAMETERS}
    aliases = {alias: name for alias, name in STANDARD_ALIASES.items() if name in ids}
    return StrategyTable(ids, parameters, aliases)
