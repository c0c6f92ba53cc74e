"""Agents written once (issue 25 part 2): every game's strategy table, tuned-agent weights,
tuning study and bench rows are the shared ones (strategies/__init__.py, weight_table.py,
tuning.py, sim/bench_timing.py), instantiated from what the game declares.

- a game declares the agents it offers in kernel-id order; the ids are part of stored
  formats, so they are pinned here (a new agent joins at the end);
- the standard agents mean the same everywhere: the same parameter and default budget,
  the same old name ("pimc-greedy" = "pimc");
- a game that offers `tuned` declares a `WeightTable`, ships its weights, and tunes them
  with a shared `Study`; its bench rows are an `AgentBench`.
"""

import importlib

import pytest

from sim.bench_timing import AgentBench
from sim.registry import get_game
from strategies import (ISMCTS_DEFAULT_BUDGET, PARAM_SHIFT, PIMC_DEFAULT_BUDGET, SEARCH_PARAMETERS, STANDARD_AGENTS,
                        agent_table)
from strategies.tuning import Study
from strategies.weight_table import WeightTable

PINNED_IDS = {
    "faction_war": {"random": 0, "greedy": 1, "destiny": 2, "exile": 3, "pimc-random": 4, "pimc": 5, "tuned": 6,
                    "ismcts": 7},
    "poker_duel": {"greedy": 0, "random": 1, "pimc-random": 2, "pimc": 3, "ismcts": 4, "tuned": 5},
    "novel_tcg": {"greedy": 0, "random": 1, "defensive": 2, "tuned": 3, "pimc-random": 4, "pimc": 5, "ismcts": 6},
}


@pytest.mark.parametrize("game", sorted(PINNED_IDS))
def test_each_games_table_is_the_shared_one_with_its_pinned_ids(game):
    package = importlib.import_module("strategies.%s" % game)
    assert package.TABLE == agent_table(package.AGENTS)
    assert package.STRATEGY_IDS == PINNED_IDS[game]
    assert get_game(game).strategy_names() == package.AGENTS
    for name in package.AGENTS:
        if name in SEARCH_PARAMETERS:
            largest = SEARCH_PARAMETERS[name][1]
            assert package.strategy_id("%s:%d" % (name, largest)) == PINNED_IDS[game][name] | largest << PARAM_SHIFT
        else:
            with pytest.raises(Exception, match="takes no parameter"):
                package.strategy_id(name + ":4")
    if "pimc" in package.AGENTS:
        assert package.strategy_name(package.strategy_id("pimc-greedy:64")) == "pimc:64"


def test_the_default_budgets_are_shared():
    assert PIMC_DEFAULT_BUDGET == 128 and ISMCTS_DEFAULT_BUDGET == 200
    for game in ("faction_war", "poker_duel", "novel_tcg"):
        package = importlib.import_module("strategies.%s" % game)
        assert (package.PIMC_DEFAULT_BUDGET, package.ISMCTS_DEFAULT_BUDGET) == (128, 200)


@pytest.mark.parametrize("game", sorted(PINNED_IDS))
def test_a_game_with_tuned_has_a_weight_table_a_shared_study_and_shared_bench_rows(game):
    spec = get_game(game)
    weights = importlib.import_module("strategies.%s.weights" % game)
    tuning = importlib.import_module("strategies.%s.tuning" % game)
    assert "tuned" in spec.strategy_names()
    assert isinstance(weights.TABLE, WeightTable) and isinstance(tuning.STUDY, Study)
    assert tuning.STUDY.table is weights.TABLE and tuning.STUDY.game == game
    assert weights.TABLE.load_document()["weights"]  # the shipped file loads
    assert spec.extra["tune_agent"].path == "strategies.%s.tuning:tune" % game
    assert tuning.tune == tuning.STUDY.tune
    bench = importlib.import_module("strategies.%s.speed" % game).bench_agents
    assert isinstance(bench, AgentBench) and set(bench.agents) <= set(spec.strategy_names())
    assert {"random", "greedy", "tuned"} <= set(bench.agents)
    assert set(STANDARD_AGENTS) & set(spec.strategy_names()) <= set(bench.agents)
