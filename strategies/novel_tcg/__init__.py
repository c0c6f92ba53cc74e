"""Novel TCG strategies (numba policies over one seat's view, `policies.py`) and their names.

- "random": a uniformly random legal action from the seat's policy generator
  (the floor of §18.4; invariant tests).
- "greedy": §18.4's greedy: summon the highest legal star; attack when the
  trade is worth it; put a character that would die without killing into
  defense (`policies.greedy_index` documents every rule).
- "defensive": a cautious greedy: it guards (sets, or turns to defense) any
  character an opposing attacker would beat or trade, and attacks only when its
  attacker survives.
"""

from strategies import StrategyTable

STRATEGY_GREEDY, STRATEGY_RANDOM, STRATEGY_DEFENSIVE = 0, 1, 2
STRATEGY_IDS = {"greedy": STRATEGY_GREEDY, "random": STRATEGY_RANDOM, "defensive": STRATEGY_DEFENSIVE}
TABLE = StrategyTable(STRATEGY_IDS)
strategy_names = TABLE.names
strategy_name = TABLE.name
is_strategy_id = TABLE.is_id


def strategy_id(name: str) -> int:
    """"greedy", "random", "defensive" -> kernel id; CardbalanceError naming the known strategies."""
    return TABLE.id(name)
