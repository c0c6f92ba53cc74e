"""The search agents' inner loops are written per game (numba's cache binds a loop to its
engine's kernels and sampler at compile time, so one compiled template cannot serve two
games); this test holds those loops to one shape (issue 25 part 2): the same entry points
with the same arguments, the same rollout kinds and exploration constant, the budgets of
the shared table (`strategies.PIMC_DEFAULT_BUDGET`, `ISMCTS_DEFAULT_BUDGET`), and the
game-independent parts from `strategies/search_tree.py`. It compiles nothing."""

import importlib
import inspect

import pytest

import strategies
from strategies import search_tree

# game -> (module of pimc, module of ismcts, its dispatch module)
SEARCH_MODULES = {
    "faction_war": ("strategies.faction_war.pimc", "strategies.faction_war.ismcts", "strategies.faction_war.dispatch"),
    "poker_duel": ("strategies.poker_duel.search", "strategies.poker_duel.search", "strategies.poker_duel.dispatch"),
    "novel_tcg": ("strategies.novel_tcg.search", "strategies.novel_tcg.search", "strategies.novel_tcg.dispatch"),
}
ENTRY = ("view", "rules", "legal", "n_legal", "policy_rng", "seat", "budget")  # then the rollout kind, the workspace


def _arguments(function):
    return tuple(inspect.signature(getattr(function, "py_func", function)).parameters)


@pytest.mark.parametrize("game", sorted(SEARCH_MODULES))
def test_the_search_loops_of_every_game_have_one_shape(game):
    pimc, ismcts, dispatch = (importlib.import_module(name) for name in SEARCH_MODULES[game])
    for function in (pimc.choose_pimc, ismcts.choose_ismcts):
        arguments = _arguments(function)
        assert arguments[:len(ENTRY)] == ENTRY and arguments[-1] == "workspace" and len(arguments) == 9, arguments
    assert len(_arguments(pimc.random_rollout)) == 5  # (world, rules, legal, generator words, slot)
    assert (pimc.ROLLOUT_RANDOM, pimc.ROLLOUT_GREEDY) == (0, 1) and ismcts.EXPLORATION == 0.7
    package = importlib.import_module("strategies.%s" % game)
    assert (package.PIMC_DEFAULT_BUDGET, package.ISMCTS_DEFAULT_BUDGET) == (strategies.PIMC_DEFAULT_BUDGET,
                                                                              strategies.ISMCTS_DEFAULT_BUDGET)
    source = inspect.getsource(dispatch)
    assert "PIMC_DEFAULT_BUDGET" in source and "ISMCTS_DEFAULT_BUDGET" in source
    for module in {pimc, ismcts}:  # the tree, statistics and final move are the shared ones
        assert module.T is search_tree
