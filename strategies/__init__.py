"""Scripted Faction War strategies: a registry by name, ids for the kernel.

A strategy is a numba policy over its player's *view* of the state
(`strategies/view.py`): it gets the legal action list and returns the index
of its choice. The kernel picks the policy by an integer id (`dispatch.choose`,
an if/elif chain, because numba cannot call through a table of functions
cheaply); this module maps names to those ids and parses the
"faction:strategy" notation the CLI and sweep files use. It imports no numba
code, so parsing names stays cheap.

Known strategies (each documents its heuristic in its module docstring):
- "random" (`random_policy.py`): uniform over the legal actions.
- "greedy" (`greedy.py`): a one-step heuristic over every mechanic (most
  damage, lethal first, face cards where they pay, Dispeller, extra zones,
  Split Rebirth, Outer Charge, jokers, duels).
- "destiny" (`destiny.py`): a Human that holds and assembles Destiny
  (F-HUW-1), otherwise greedy.
- "exile" (`exile.py`): an Alien that pursues Deep-Sea Era (F-ALW-1),
  otherwise greedy.
See docs/strategies.md.
"""

from sim.errors import CardbalanceError

STRATEGY_RANDOM = 0
STRATEGY_GREEDY = 1
STRATEGY_DESTINY = 2
STRATEGY_EXILE = 3
STRATEGY_IDS = {"random": STRATEGY_RANDOM, "greedy": STRATEGY_GREEDY, "destiny": STRATEGY_DESTINY,
                "exile": STRATEGY_EXILE}
FACTION_IDS = {"human": 0, "alien": 1}  # layout.HUMAN, layout.ALIEN


def strategy_names() -> tuple[str, ...]:
    """Known strategy names, in id order."""
    return tuple(sorted(STRATEGY_IDS, key=STRATEGY_IDS.get))


def strategy_id(name: str) -> int:
    """Strategy name -> kernel id; CardbalanceError listing the known names."""
    key = str(name).strip().lower()
    if key not in STRATEGY_IDS:
        raise CardbalanceError("strategy '%s' is unknown; known strategies: %s." % (name, ", ".join(strategy_names())))
    return STRATEGY_IDS[key]


def strategy_name(identifier: int) -> str:
    for name, value in STRATEGY_IDS.items():
        if value == identifier:
            return name
    raise CardbalanceError("strategy id %r is unknown; known ids: %s." % (
        identifier, ", ".join("%d (%s)" % (v, k) for k, v in STRATEGY_IDS.items())))


def parse_player(text: str) -> tuple[int, int]:
    """"human:greedy" -> (faction index, strategy id).

    Raises CardbalanceError naming the allowed factions and strategies.
    """
    faction_text, separator, strategy_text = str(text).strip().lower().partition(":")
    if not separator or not faction_text or not strategy_text:
        raise CardbalanceError(
            "player '%s' must be written faction:strategy, e.g. human:greedy; factions: %s; strategies: %s."
            % (text, ", ".join(FACTION_IDS), ", ".join(strategy_names())))
    if faction_text not in FACTION_IDS:
        raise CardbalanceError("player '%s': faction '%s' is unknown; allowed factions: %s." % (
            text, faction_text, ", ".join(FACTION_IDS)))
    if strategy_text not in STRATEGY_IDS:
        raise CardbalanceError("player '%s': strategy '%s' is unknown; known strategies: %s." % (
            text, strategy_text, ", ".join(strategy_names())))
    return FACTION_IDS[faction_text], STRATEGY_IDS[strategy_text]
