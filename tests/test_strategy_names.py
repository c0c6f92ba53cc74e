"""Strategy names: `strategies.StrategyTable` aliases, and "pimc" naming the strong PIMC.

- an alias parses to its name's id (with or without a budget, any case), never
  prints (ids print as the name), is not listed among the names, and an unknown
  name's error lists it;
- in both games "pimc" is greedy rollouts, "pimc-random" random ones, and the old
  name "pimc-greedy" is an alias of "pimc" (the kernel ids did not move);
- the meaning of a stored run's "pimc" changed, so each game's behaviour version
  moved on and a run folder of the version before is refused on resume, one line.
"""

import json

import pytest

from sim.cli import main
from sim.errors import CardbalanceError
from sim.registry import get_game
from strategies import PARAM_SHIFT, StrategyTable

TABLE = StrategyTable({"slow": 0, "fast": 1}, {1: ("steps", 50)}, {"quick": "fast"})


def test_an_alias_parses_to_its_names_id_and_prints_as_the_name():
    assert TABLE.id("quick") == TABLE.id("fast") == 1
    assert TABLE.id("QUICK:7") == 1 | 7 << PARAM_SHIFT == TABLE.id("fast:7")
    assert TABLE.name(TABLE.id("quick:7")) == "fast:7" and TABLE.name(1) == "fast"
    assert TABLE.names() == ("slow", "fast")
    with pytest.raises(CardbalanceError, match=r"known strategies: slow, fast \(fast also as NAME:N\); "
                                               r"aliases: quick = fast\."):
        TABLE.id("medium")
    with pytest.raises(CardbalanceError, match="'quick:99': N \\(steps\\) must be an integer from 1 to 50"):
        TABLE.id("quick:99")


def test_an_alias_must_name_a_strategy_and_not_shadow_one():
    with pytest.raises(AssertionError):
        StrategyTable({"slow": 0}, {}, {"quick": "fast"})
    with pytest.raises(AssertionError):
        StrategyTable({"slow": 0, "fast": 1}, {}, {"slow": "fast"})


@pytest.mark.parametrize("game, old_ids", [("faction_war", {"pimc": 4, "pimc-greedy": 5}),
                                           ("poker_duel", {"pimc": 2, "pimc-greedy": 3})])
def test_pimc_is_the_greedy_rollout_agent_in_both_games(game, old_ids):
    import importlib
    package = importlib.import_module("strategies.%s" % game)
    # the ids kept their numbers: the old "pimc-greedy" id is the new "pimc"
    assert package.STRATEGY_PIMC == old_ids["pimc-greedy"] and package.STRATEGY_PIMC_RANDOM == old_ids["pimc"]
    assert package.strategy_id("pimc") == package.strategy_id("pimc-greedy") == package.STRATEGY_PIMC
    assert package.strategy_id("pimc-random:9") == package.STRATEGY_PIMC_RANDOM | 9 << PARAM_SHIFT
    assert package.strategy_name(package.strategy_id("pimc-greedy:64")) == "pimc:64"
    names = get_game(game).strategy_names()
    assert "pimc" in names and "pimc-random" in names and "pimc-greedy" not in names
    assert package.PIMC_DEFAULT_BUDGET == 128


def test_the_behaviour_versions_moved_past_the_old_pimc():
    assert get_game("faction_war").behaviour_version >= 3  # 2 had "pimc" = random rollouts
    assert get_game("poker_duel").behaviour_version >= 2   # 1 had it too


def test_a_run_of_the_behaviour_version_before_is_refused_on_resume(tmp_path, capsys):
    sweep = tmp_path / "grid.toml"
    sweep.write_text('pairings = ["human_vs_alien"]\nlife = [20]\nstrategies = ["random:random"]\n'
                     'rules = ["default"]\nmatches = 4\nchunk_size = 2\nseed = 3\n')
    run = tmp_path / "run"
    assert main(["sweep", str(sweep), "--out", str(run), "--jobs", "1", "--quiet", "--no-report"]) == 0
    meta = json.loads((run / "meta.json").read_text())
    version = get_game("faction_war").behaviour_version
    meta["behaviour_version"] = version - 1
    meta["complete"] = False
    (run / "meta.json").write_text(json.dumps(meta))
    capsys.readouterr()
    assert main(["sweep", "--resume", str(run), "--jobs", "1", "--quiet", "--no-report"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert "faction_war behaviour version %d; this engine is version %d" % (version - 1, version) in err
