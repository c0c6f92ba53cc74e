"""Novel TCG strategies (numba policies over one seat's view, `policies.py`) and their names.

- "random": a uniformly random legal action from the seat's policy generator
  (the floor of §18.4; invariant tests).
- "greedy": §18.4's greedy: summon the highest legal star; attack when the
  trade is worth it; put a character that would die without killing into
  defense (`policies.greedy_index` documents every rule).
- "defensive": a cautious greedy: it guards (sets, or turns to defense) any
  character an opposing attacker would beat or trade, and attacks only when its
  attacker survives.
- "tuned": greedy with the weights of its judgement calls tuned by self-play against
  greedy (`weights.py`, `cardbalance tune-agent --game novel_tcg`; shipped in
  tuned_weights.json).
"""

from strategies import agent_table

# The agents the Novel TCG offers, in kernel-id order (strategies.agent_table).
AGENTS = ("greedy", "random", "defensive", "tuned")
TABLE = agent_table(AGENTS)
STRATEGY_IDS = TABLE.ids
STRATEGY_GREEDY, STRATEGY_RANDOM, STRATEGY_DEFENSIVE, STRATEGY_TUNED = (STRATEGY_IDS[name] for name in AGENTS)
strategy_names = TABLE.names
strategy_id = TABLE.id
strategy_name = TABLE.name
is_strategy_id = TABLE.is_id
