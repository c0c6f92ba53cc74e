"""Poker Duel strategies (seat policies over a seat's view) and their names.

- "random": a uniformly random legal action, from the seat's policy generator.
- "greedy": the documented rule-based policy of `policies.greedy` (one step,
  no search, reads only its view).
"""

from sim.errors import CardbalanceError

STRATEGIES = ("greedy", "random")


def strategy_names() -> tuple[str, ...]:
    return STRATEGIES


def strategy_id(name: str) -> int:
    if name not in STRATEGIES:
        raise CardbalanceError("strategy '%s' is unknown for poker_duel; known strategies: %s."
                               % (name, ", ".join(STRATEGIES)))
    return STRATEGIES.index(name)
