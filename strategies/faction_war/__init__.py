"""Faction War's strategies: names and ids for the kernel, its players' notation.

A strategy is a numba policy over its player's *view* of the state
(`strategies/faction_war/view.py`): it gets the legal action list and returns the index
of its choice. The kernel picks the policy by an integer id (`dispatch.choose`,
an if/elif chain, because numba cannot call through a table of functions
cheaply); this module maps names to those ids (a `strategies.StrategyTable`) and parses the
"faction:strategy" notation the CLI and sweep files use. It imports no numba
code, so parsing names stays cheap.

The match loop that calls them is `batch.py` (and `playlog.py` for the
narrated reference-engine match).

Known strategies (each documents its heuristic in its module docstring):
- "random" (`random_policy.py`): uniform over the legal actions.
- "greedy" (`greedy.py`): a one-step heuristic over every mechanic (most
  damage, lethal first, face cards where they pay, Dispeller, extra zones,
  Split Rebirth, Outer Charge, jokers, duels).
- "destiny" (`destiny.py`): a Human that holds and assembles Destiny
  (F-HUW-1), otherwise greedy.
- "exile" (`exile.py`): an Alien that pursues Deep-Sea Era (F-ALW-1),
  otherwise greedy.
- "pimc:N" (`pimc.py`): determinized flat Monte Carlo, N greedy rollouts per
  decision ("pimc" alone: the default budget); "pimc-greedy:N" is an alias of
  it (its name until behaviour version 3). "pimc-random:N" the same with
  random rollouts: cheaper per rollout, a much weaker evaluator.
- "tuned" (`greedy.choose_tuned`, `weights.py`): greedy with its weights tuned by
  self-play (`cardbalance tune-agent`), per faction; shipped in tuned_weights.json.
- "ismcts:N" (`ismcts.py`): single-observer information-set MCTS, N
  iterations per decision ("ismcts" alone: the default budget).
A strategy with a parameter ("pimc:N") has the id base | N << PARAM_SHIFT
(`strategies.StrategyTable`).
See docs/strategies.md.
"""

from sim.errors import CardbalanceError
from sim.faction_war.layout import FACTION_NAMES
from strategies import BASE_MASK, ISMCTS_DEFAULT_BUDGET, PARAM_SHIFT, PIMC_DEFAULT_BUDGET  # noqa: F401 (dispatch)
from strategies import agent_table

# The agents Faction War offers, in kernel-id order (strategies.agent_table): the two PIMC agents
# kept the ids of their old names ("pimc" was random rollouts, "pimc-greedy" greedy), so the
# compiled code did not change when the strong one took the short name (behaviour version 3).
AGENTS = ("random", "greedy", "destiny", "exile", "pimc-random", "pimc", "tuned", "ismcts")
TABLE = agent_table(AGENTS)
STRATEGY_IDS = TABLE.ids
(STRATEGY_RANDOM, STRATEGY_GREEDY, STRATEGY_DESTINY, STRATEGY_EXILE, STRATEGY_PIMC_RANDOM, STRATEGY_PIMC,
 STRATEGY_TUNED, STRATEGY_ISMCTS) = (STRATEGY_IDS[name] for name in AGENTS)
FACTION_IDS = {name: index for index, name in enumerate(FACTION_NAMES)}
strategy_names = TABLE.names
strategy_id = TABLE.id
strategy_name = TABLE.name
is_strategy_id = TABLE.is_id


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


def parse_players(p0: str, p1: str) -> tuple[dict, tuple[str, str]]:
    """`cardbalance play`'s two players -> ({"pairing": name}, (strategy0, strategy1))."""
    from sim.faction_war.game import PAIRINGS
    (f0, s0), (f1, s1) = parse_player(p0), parse_player(p1)
    pairing = next(name for name, factions in PAIRINGS.items() if factions == (f0, f1))
    return {"pairing": pairing}, (strategy_name(s0), strategy_name(s1))
