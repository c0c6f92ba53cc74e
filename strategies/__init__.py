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
- "pimc:N" (`pimc.py`): determinized flat Monte Carlo, N random rollouts per
  decision ("pimc" alone: the default budget); "pimc-greedy:N" the same with
  greedy rollouts.
A strategy with a parameter ("pimc:N") has the id base | N << PARAM_SHIFT;
the bare name is the base id and means the default.
See docs/strategies.md.
"""

from sim.errors import CardbalanceError

STRATEGY_RANDOM = 0
STRATEGY_GREEDY = 1
STRATEGY_DESTINY = 2
STRATEGY_EXILE = 3
STRATEGY_PIMC = 4
STRATEGY_PIMC_GREEDY = 5
STRATEGY_IDS = {"random": STRATEGY_RANDOM, "greedy": STRATEGY_GREEDY, "destiny": STRATEGY_DESTINY,
                "exile": STRATEGY_EXILE, "pimc": STRATEGY_PIMC, "pimc-greedy": STRATEGY_PIMC_GREEDY}
PARAM_SHIFT = 8  # id = base | parameter << PARAM_SHIFT
BASE_MASK = (1 << PARAM_SHIFT) - 1
PIMC_DEFAULT_BUDGET = 64  # rollouts per decision (strategies/pimc.py)
# base id -> (what the parameter is, largest value)
PARAMETERS = {STRATEGY_PIMC: ("rollouts per decision", 100_000),
              STRATEGY_PIMC_GREEDY: ("rollouts per decision", 100_000)}
FACTION_IDS = {"human": 0, "alien": 1}  # layout.HUMAN, layout.ALIEN


def strategy_names() -> tuple[str, ...]:
    """Known strategy names, in id order."""
    return tuple(sorted(STRATEGY_IDS, key=STRATEGY_IDS.get))


def strategy_id(name: str) -> int:
    """Strategy name ("greedy", "pimc:64") -> kernel id; CardbalanceError listing the
    known names or the allowed parameter values."""
    key = str(name).strip().lower()
    base, separator, parameter = key.partition(":")
    if base not in STRATEGY_IDS:
        raise CardbalanceError("strategy '%s' is unknown; known strategies: %s (pimc and pimc-greedy also as NAME:N)." % (
            name, ", ".join(strategy_names())))
    base_id = STRATEGY_IDS[base]
    if not separator:
        return base_id
    if base_id not in PARAMETERS:
        raise CardbalanceError("strategy '%s': '%s' takes no parameter (only %s do)." % (
            name, base, ", ".join("%s:N" % strategy_name(b) for b in PARAMETERS)))
    meaning, largest = PARAMETERS[base_id]
    if not parameter.isdigit() or not 1 <= int(parameter) <= largest:
        raise CardbalanceError("strategy '%s': N (%s) must be an integer from 1 to %d." % (name, meaning, largest))
    return base_id | int(parameter) << PARAM_SHIFT


def is_strategy_id(identifier) -> bool:
    """A kernel id `strategy_id` can produce (base id, with a parameter only where allowed)."""
    try:
        identifier = int(identifier)
    except (TypeError, ValueError):
        return False
    base, parameter = identifier & BASE_MASK, identifier >> PARAM_SHIFT
    if identifier < 0 or base not in STRATEGY_IDS.values():
        return False
    return parameter == 0 or (base in PARAMETERS and parameter <= PARAMETERS[base][1])


def strategy_name(identifier: int) -> str:
    if is_strategy_id(identifier) and int(identifier) >> PARAM_SHIFT:
        return "%s:%d" % (strategy_name(int(identifier) & BASE_MASK), int(identifier) >> PARAM_SHIFT)
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
    try:
        strategy = strategy_id(strategy_text)
    except CardbalanceError as error:
        raise CardbalanceError("player '%s': %s" % (text, error)) from None
    return FACTION_IDS[faction_text], strategy
