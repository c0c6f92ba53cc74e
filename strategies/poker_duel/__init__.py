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

from strategies import BASE_MASK, PARAM_SHIFT, StrategyTable  # noqa: F401  (the compiled loop reads both)

STRATEGY_GREEDY = 0
STRATEGY_RANDOM = 1
# The PIMC ids are those of the old names ("pimc" was random rollouts, "pimc-greedy"
# greedy): only the names moved when the strong one took the short name.
STRATEGY_PIMC_RANDOM = 2
STRATEGY_PIMC = 3
STRATEGY_ISMCTS = 4
STRATEGY_IDS = {"greedy": STRATEGY_GREEDY, "random": STRATEGY_RANDOM, "pimc-random": STRATEGY_PIMC_RANDOM,
                "pimc": STRATEGY_PIMC, "ismcts": STRATEGY_ISMCTS}
ALIASES = {"pimc-greedy": "pimc"}  # old configs keep working; ids print as "pimc"
PIMC_DEFAULT_BUDGET = 128   # rollouts per decision (docs/poker-duel.md: about 0.3 s per match with greedy rollouts)
ISMCTS_DEFAULT_BUDGET = 200  # iterations per decision (docs/poker-duel.md: about 0.35 s per match)
PARAMETERS = {STRATEGY_PIMC_RANDOM: ("rollouts per decision", 100_000),
              STRATEGY_PIMC: ("rollouts per decision", 100_000),
              STRATEGY_ISMCTS: ("iterations per decision", 100_000)}
STRATEGY_TUNED = 5  # "tuned": greedy with the weights of the rules array's policy block (weights.py)
STRATEGY_IDS["tuned"] = STRATEGY_TUNED
TABLE = StrategyTable(STRATEGY_IDS, PARAMETERS, ALIASES)
STRATEGIES = TABLE.names()
strategy_names = TABLE.names
strategy_name = TABLE.name
is_strategy_id = TABLE.is_id


def strategy_id(name: str) -> int:
    """"greedy", "ismcts:100" ... -> kernel id; CardbalanceError naming the known strategies."""
    return TABLE.id(name)
