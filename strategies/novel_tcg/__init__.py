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
- "pimc:N": determinized flat Monte Carlo, N greedy rollouts per decision
  (`search.py`); "pimc-greedy:N" is an alias of it; "pimc-random:N" the same
  with random rollouts (cheaper, weaker).
- "ismcts:N": single-observer information-set MCTS, N iterations per
  decision, greedy rollouts (`search.py`).
The bare search names mean their default budgets; a strategy with a parameter
has the id base | N << PARAM_SHIFT (`strategies.StrategyTable`), as in the
other games. See docs/novel-tcg.md, "Engines, agents, positions".
"""

from strategies import BASE_MASK, ISMCTS_DEFAULT_BUDGET, PARAM_SHIFT, PIMC_DEFAULT_BUDGET  # noqa: F401 (dispatch)
from strategies import agent_table

# The agents the Novel TCG offers, in kernel-id order (strategies.agent_table).
# The search agents came last (ids are part of stored formats and only grow at the end).
AGENTS = ("greedy", "random", "defensive", "tuned", "pimc-random", "pimc", "ismcts")
TABLE = agent_table(AGENTS)
STRATEGY_IDS = TABLE.ids
(STRATEGY_GREEDY, STRATEGY_RANDOM, STRATEGY_DEFENSIVE, STRATEGY_TUNED, STRATEGY_PIMC_RANDOM, STRATEGY_PIMC,
 STRATEGY_ISMCTS) = (STRATEGY_IDS[name] for name in AGENTS)
SEARCH_IDS = (STRATEGY_PIMC_RANDOM, STRATEGY_PIMC, STRATEGY_ISMCTS)  # the agents of the search loop (search_batch.py)


def is_search_id(strategy) -> bool:
    """A search agent's id (any budget): it plays on the search loop with a workspace (Python side)."""
    return int(strategy) & BASE_MASK in SEARCH_IDS

strategy_names = TABLE.names
strategy_id = TABLE.id
strategy_name = TABLE.name
is_strategy_id = TABLE.is_id
