"""Poker Duel strategies (seat policies over a seat's view) and their names.

- "random": a uniformly random legal action, from the seat's policy generator.
- "greedy": the documented rule-based policy of `policies.greedy` (one step,
  no search, reads only its view).
- "pimc:N": determinized flat Monte Carlo, N greedy rollouts per decision
  (`search.py`); "pimc-greedy:N" is an alias of it (its name until behaviour
  version 2); "pimc-random:N" the same with random rollouts (cheaper, weaker).
- "ismcts:N": single-observer information-set MCTS, N iterations per
  decision, greedy rollouts (`search.py`).
The bare search names mean their default budgets. A strategy with a
parameter has the id base | N << PARAM_SHIFT (`strategies.StrategyTable`),
as Faction War's. See docs/poker-duel.md, "Search agents".
"""

from strategies import BASE_MASK, ISMCTS_DEFAULT_BUDGET, PARAM_SHIFT, PIMC_DEFAULT_BUDGET  # noqa: F401 (dispatch)
from strategies import agent_table

# The agents Poker Duel offers, in kernel-id order (strategies.agent_table): the PIMC ids are those
# of the old names ("pimc" was random rollouts, "pimc-greedy" greedy); "tuned" came last.
AGENTS = ("greedy", "random", "pimc-random", "pimc", "ismcts", "tuned")
TABLE = agent_table(AGENTS)
STRATEGY_IDS = TABLE.ids
STRATEGY_GREEDY, STRATEGY_RANDOM, STRATEGY_PIMC_RANDOM, STRATEGY_PIMC, STRATEGY_ISMCTS, STRATEGY_TUNED = (
    STRATEGY_IDS[name] for name in AGENTS)
STRATEGIES = TABLE.names()
strategy_names = TABLE.names
strategy_id = TABLE.id
strategy_name = TABLE.name
is_strategy_id = TABLE.is_id
