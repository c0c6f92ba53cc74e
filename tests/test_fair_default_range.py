"""Issue 38 item 4: `fair` searches the range the game declares for a design (Faction War's
life 30..100, F-SET-1), not everything the engine accepts (1..1,000,000, where 15 of 22
search points fell outside 30..100); a given range keeps its exact old meaning; the figure's
x axis is the searched range and the headline names the side ("Human"), not "seat0"."""

from __future__ import annotations

import json

import pytest

from sim.cli import main
from sim.fair import params, sides
from sim.fair.params import SEAT_VALUE, Param
from sim.registry import get_game
from sim.sweep.vary import load_named

TOY = ["--game", "toy", "--pairing", "red_vs_blue", "--skill", "greedy", "--chunk-size", "50", "--jobs", "1"]


def _resolve(game_name, name, low=None, high=None):
    game = get_game(game_name)
    return params.resolve(game, load_named(game.load_rules, "default"), name, low, high)


@pytest.mark.parametrize("game_name, name, low, high", [
    ("faction_war", "life0", 30, 100),   # F-SET-1, declared as LIFE.domain (the engine takes 1..1,000,000)
    ("faction_war", "life", 30, 100),
    ("poker_duel", "hp1", 20, 80),       # no domain declared: the span of the default sweep's hp list
    ("novel_tcg", "rank0", 1, 20),       # T-RANK-1: every rank the source allows
    ("toy", "life0", 10, 20),
])
def test_default_range_of_a_per_seat_parameter_is_the_declared_domain(game_name, name, low, high):
    param = _resolve(game_name, name)
    assert (param.low, param.high) == (low, high)  # the old code gave the engine's range: 1..1000000 for life0


def test_a_given_range_is_unchanged_and_may_leave_the_domain_but_not_the_engine_range():
    # the same Param as before the change, so a fair run that names its range plays the same matches
    assert _resolve("faction_war", "life0", 10, 200) == Param("life0", SEAT_VALUE, 10, 200, dimension="life",
                                                                seats=(0,))
    assert _resolve("toy", "life1", 2, 40) == Param("life1", SEAT_VALUE, 2, 40, dimension="life", seats=(1,))
    with pytest.raises(Exception, match="outside the range"):
        _resolve("faction_war", "life0", 0, 40)


def test_side_names_come_from_the_games_seat_columns():
    faction_war, poker_duel, novel_tcg = (get_game(name) for name in ("faction_war", "poker_duel", "novel_tcg"))
    assert sides.seat_names(faction_war, {"pairing": "human_vs_alien"}, None) == ("Human", "Alien")
    assert sides.seat_names(faction_war, {"pairing": "alien_vs_alien"}, None) == ("seat 0", "seat 1")  # a mirror
    assert sides.seat_names(novel_tcg, {"deck": "swarm/advance"}, None) == ("Swarm", "Advance")
    assert sides.seat_names(poker_duel, {}, (0,)) == ("first player", "second player")
    assert sides.seat_names(poker_duel, {}, (1,)) == ("second player", "first player")
    assert sides.seat_names(poker_duel, {}, None) == ("seat 0", "seat 1")
    life0 = _resolve("faction_war", "life0")
    words = sides.labels(faction_war, {"pairing": "human_vs_alien"}, None, life0, "seat0")
    assert words["param"] == "Human's starting life (life0)"
    assert words["metric"] == "Human's share of decided matches"
    hp = _resolve("poker_duel", "hp")
    assert sides.labels(poker_duel, {}, (0,), hp, "first")["param"] == "both seats' starting HP (hp)"
    assert sides.labels(poker_duel, {}, (0,), _resolve("poker_duel", "hp0"), "seat0")["param"] == \
        "first player's starting HP (hp0)"


def test_fair_without_a_range_searches_the_domain_and_the_report_names_the_side(tmp_path, capsys):
    """On the toy game (life domain 10..20, engine 1..100000); about 3 s."""
    out = tmp_path / "fair"
    assert main(["fair", "--param", "life0", "--life", "12", "--round-matches", "50", "--max-matches", "6000",
                 "--precision", "1", "--out", str(out)] + TOY) == 0
    result = json.loads((out / "result.json").read_text())
    assert (result["low"], result["high"]) == (10, 20) and result["settings"]["param"] == "life0 in 10..20"
    assert all(10 <= point[0] <= 20 for point in result["search"] + result["points"])
    assert result["labels"]["param"] == "Red's starting life (life0)"
    summary = (out / "summary.md").read_text()
    assert "# Fair value of Red's starting life (life0)" in summary
    assert "metric seat0 (Red's share of decided matches)" in summary
    html = (out / "report.html").read_text()
    assert "Red&#39;s share of decided matches meets 0.5 at Red&#39;s starting life (life0)" in html
    assert "fair life0 = " in capsys.readouterr().out  # the one-line result keeps the name a script greps
    from reports.fair import rewrite_fair_report
    (out / "summary.md").unlink()
    rewrite_fair_report(out)  # a report reads the words from the run, not from today's game code
    assert "# Fair value of Red's starting life (life0)" in (out / "summary.md").read_text()


def test_the_fair_figure_spans_the_searched_range_and_names_its_axes():
    from analysis.fair_value import FairValue
    from reports.fair import fair_figure
    fields = FairValue.__dataclass_fields__
    found = FairValue(**{name: None for name in fields})
    found.__dict__.update(low=30, high=100, lower=60, upper=64, estimate=62.0, lower_open=False, upper_open=False,
                          target=0.5, z=2.5, search=[(30, 0.2, 0.1, 0.3), (100, 0.8, 0.7, 0.9)],
                          points=[(62, 0.5, 0.45, 0.55)])
    labels = {"param": "Human's starting life (life0)", "metric": "Human's share of decided matches"}
    axes = fair_figure(Param("life0", SEAT_VALUE, 30, 100), found, "seat0", labels).axes[0]
    low, high = axes.get_xlim()
    assert 28 <= low <= 30 and 100 <= high <= 102  # the range, not the data's autoscale (or 1..1e6)
    assert axes.get_xlabel() == labels["param"] and axes.get_ylabel() == labels["metric"]
    assert axes.get_title().startswith("Fair Human's starting life (life0) = 62.0")
