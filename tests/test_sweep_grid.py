"""Sweep specs: parsing, validation of every bad input, and the cell order."""

import pytest

from analysis.stats import half_width as wilson_half_width
from sim.errors import CardbalanceError
from sim.faction_war.game import DEFAULT_SWEEP
from sim.registry import get_game
from sim.sweep.grid import build_plan, default_sweep, load_sweep, matches_for_half_width, parse_sweep

TOY = {"game": "toy", "pairings": ["red_vs_red", "red_vs_blue"], "life": [10, 20],
       "life_pairs": [[10, 30]], "strategies": ["greedy:random", "cautious:greedy"], "rules": ["default", "short"],
       "matches": 100}


def test_grid_has_every_combination_with_both_first_players_in_documented_order(toy_game):
    plan = build_plan(parse_sweep(TOY))
    # 2 rules x 2 strategy pairs x 2 pairings x 3 life combinations x 2 orders
    assert len(plan.cells) == 2 * 2 * 2 * 3 * 2
    assert [cell.cell for cell in plan.cells] == list(range(len(plan.cells)))
    first_cells = [(c.rules, c.strategy0, c.pairing, c.life0, c.life1, c.first) for c in plan.cells[:7]]
    assert first_cells == [("default", "greedy", "red_vs_red", 10, 10, 0), ("default", "greedy", "red_vs_red", 10, 10, 1),
                           ("default", "greedy", "red_vs_red", 20, 20, 0), ("default", "greedy", "red_vs_red", 20, 20, 1),
                           ("default", "greedy", "red_vs_red", 10, 30, 0), ("default", "greedy", "red_vs_red", 10, 30, 1),
                           ("default", "greedy", "red_vs_blue", 10, 10, 0)]
    last = plan.cells[-1]
    assert (last.rules, last.strategy0, last.strategy1, last.faction0, last.faction1) == ("short", "cautious", "greedy", "red", "blue")
    assert list(plan.cell_array(last)) == [0, 1, 10, 30, 1, 2, 0]


def test_life_pairs_equal_to_a_listed_life_are_not_doubled():
    spec = parse_sweep({**TOY, "life_pairs": [[10, 10], [30, 60]]})
    assert get_game("toy").dimension("life").grid_values(spec.settings) == [(10, 10), (20, 20), (30, 60)]


def test_default_sweep_is_faction_war_three_pairings_eight_lives_both_orders():
    spec = default_sweep()
    assert spec.game == "faction_war" and spec.life == (30, 40, 50, 60, 70, 80, 90, 100)
    assert spec.pairings == tuple(DEFAULT_SWEEP["pairings"]) and spec.strategies == ("greedy:greedy",)
    assert spec.life_pairs == ((40, 60), (60, 40))


@pytest.mark.parametrize("change, words", [
    ({"pairings": []}, "grid is empty"),
    ({"life": [], "life_pairs": []}, "grid is empty"),
    ({"strategies": []}, "grid is empty"),
    ({"life": [0]}, "'life' values must be integers from 1"),
    ({"life": [-5]}, "'life' values must be integers from 1"),
    ({"life_pairs": [[10, 0]]}, "'life_pairs' values"),
    ({"life_pairs": [[10]]}, "'life_pairs' must be a list of [seat0, seat1] pairs"),
    ({"matches": 0}, "'matches' must be an integer"),
    ({"precision": 0.7}, "'precision' must be a number between 0 and 0.5"),
    ({"chunk_size": "big"}, "'chunk_size' must be an integer"),
    ({"colour": "red"}, "unknown key 'colour'"),
    ({"pairings": ["red_vs_red", "red_vs_red"]}, "lists a value twice"),
])
def test_bad_sweep_values_give_one_sentence_naming_the_field(change, words):
    with pytest.raises(CardbalanceError, match=None) as info:
        build_plan(parse_sweep({**TOY, **change}))
    assert words in str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("change, words", [
    ({"pairings": ["red_vs_green"]}, "pairing 'red_vs_green' is unknown for toy; known pairings: red_vs_red"),
    ({"strategies": ["greedy:psychic"]}, "strategy 'psychic' is unknown"),
    ({"strategies": ["greedy"]}, "must be 'seat0:seat1'"),
    ({"rules": ["no-such-preset"]}, "neither a preset"),
    ({"game": "chess"}, "game 'chess' is unknown"),
])
def test_names_are_checked_against_the_game(change, words, toy_game):
    with pytest.raises(CardbalanceError) as info:
        build_plan(parse_sweep({**TOY, **change}))
    assert words in str(info.value)


def test_sweep_file_rules_paths_are_relative_to_the_file(tmp_path, toy_game):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "big.toml").write_text("die_sides = 12\n")
    (tmp_path / "sub" / "grid.toml").write_text(
        'game = "toy"\npairings = ["red_vs_red"]\nlife = [10]\nrules = ["default", "big.toml"]\nmatches = 10\n')
    plan = build_plan(load_sweep(tmp_path / "sub" / "grid.toml"))
    assert plan.spec.name == "grid"
    assert [rules.die_sides for rules in plan.rules.values()] == [6, 12]
    with pytest.raises(CardbalanceError, match="not valid TOML"):
        (tmp_path / "bad.toml").write_text("game = ")
        load_sweep(tmp_path / "bad.toml")
    with pytest.raises(CardbalanceError, match="does not exist"):
        load_sweep(tmp_path / "missing.toml")


def test_overrides_are_validated_like_the_file():
    spec = parse_sweep(TOY).with_overrides(matches=7, seed=3, precision=None)
    assert (spec.matches, spec.seed) == (7, 3)
    with pytest.raises(CardbalanceError, match="'max_matches' must be an integer"):
        parse_sweep(TOY).with_overrides(max_matches=-1)


def test_wilson_half_width_known_values():
    # 50/100: Wilson 95 % interval is [0.4038, 0.5962] (half-width 0.0962).
    assert wilson_half_width(50, 100) == pytest.approx(0.0962, abs=5e-4)
    assert wilson_half_width(0, 0) == 0.5  # no matches: the interval is all of [0, 1]
    # p = 0.5, ±0.005 needs about 38 400 matches.
    assert matches_for_half_width(0.5, 0.005) == pytest.approx(38415, abs=2)
