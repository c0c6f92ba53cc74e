"""Poker Duel rules config, bad input (one line, exit 2), the command line
(rules, scenario, play) and clause coverage of the whole reference."""

import json
import re
from pathlib import Path

import numpy as np
import pytest

from sim.cli import main
from sim.errors import CardbalanceError
from sim.poker_duel import layout as L
from sim.poker_duel.game import GAME_SPEC
from sim.poker_duel.position import load_position
from sim.poker_duel.reference import Match
from sim.poker_duel.rules import (AMB_IDS, AMBIGUITIES, DEFAULT_HP, IMPLEMENTED, NUMBERS, Rules, load_rules,
                                  rules_from_array, rules_to_toml)
from strategies.poker_duel.batch import cell_of, play_match, reference_record

ROOT = Path(__file__).resolve().parent.parent


def test_presets_core_and_advanced_and_every_default():
    core, advanced = load_rules("core"), load_rules("advanced")
    assert core == load_rules("default") == Rules() and not core.advanced_rules and not core.straight_flush_on
    assert advanced.advanced_rules and advanced.straight_flush_on
    assert advanced.differences_from_default() == {"advanced_rules": True}
    assert core.hand_limit == 6 and core.club_multiplier == 2  # D-AMB-01 default x2
    assert len(AMB_IDS) == 65 and all(core.reading(a) == r[0] for a, (_, r) in AMBIGUITIES.items())
    for rules in (core, advanced, core.with_changes(club_multiplier=3, ambiguities={"D-AMB-42": "nothing"})):
        assert rules_from_array(rules.to_array()) == rules
    assert core.stable_hash() != advanced.stable_hash()


@pytest.mark.parametrize("text, field", [
    ('club_multiplier = 0', "club_multiplier"), ('hand_limit = "six"', "hand_limit"), ('hp = [40]', "hp"), ('hp = 40', "grid"),
    ('colour = 2', "colour"), ('advanced_rules = 1', "advanced_rules"),
    ('[ambiguities]\n"D-AMB-42" = "maybe"', "D-AMB-42"), ('[ambiguities]\n"D-AMB-99" = "x"', "D-AMB-99"),
    ('[ambiguities]\n"D-AMB-35" = "either_player"', "not playable")])
def test_bad_rules_one_line_exit_2(tmp_path, capsys, text, field):
    path = tmp_path / "bad.toml"
    path.write_text(text + "\n")
    assert main(["rules", "--game", "poker_duel", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and field in err


def test_starting_hp_is_no_rules_field_the_grid_sets_it(tmp_path, capsys):
    """D-SETUP-4: starting HP comes only from the grid (the HP dimension); a scenario without hp starts
    at the grid's single value, and a rules file that sets hp is refused naming where it is set now."""
    assert "hp" not in Rules().as_dict() and GAME_SPEC.dimension("hp").single == DEFAULT_HP == (40, 40)
    path = tmp_path / "hp.toml"
    path.write_text("hp = [30, 50]\n")
    assert main(["rules", "--game", "poker_duel", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "'hp' is no longer a rules field" in err and "play --hp" in err
    match = load_position({"players": [{}, {"hp": 7}]})
    assert match.hp == [40, 7] and match.start_hp == [40, 40]


def test_rules_command_prints_every_key(capsys):
    assert main(["rules", "--game", "poker_duel", "advanced"]) == 0
    out = capsys.readouterr().out
    for key in [*NUMBERS, *AMBIGUITIES]:
        assert key in out
    assert "advanced_rules = true" in out
    assert rules_to_toml(load_rules("core")).count("CHANGED") == 0


def test_scenario_example_is_the_reference_worked_example(capsys):
    assert main(["scenario", "--game", "poker_duel", str(ROOT / "docs/examples/pd_boost_contest.json"), "--legal", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["players"][1]["hp"] == 35 and out["players"][1]["graveyard"] == ["D3", "H9"]  # §14.3 example 2
    assert out["players"][0]["monsters"][0] == "S7" and out["legal"]


@pytest.mark.parametrize("position, words", [
    ({"players": [{"hand": ["S5"], "graveyard": ["S5"]}, {}]}, "already in"),
    ({"players": [{"hand": ["X9"]}, {}]}, "not a card"),
    ({"players": [{"monsters": ["SJ"]}, {}]}, "not a monster"),
    ({"players": [{"hp": "forty"}, {}]}, "players[0].hp"),
    ({"phase": "battle_step", "players": [{}, {}]}, "needs 'attack'"),
    ({"colour": 1}, "unknown key"),
    ({"players": [{}, {}], "actions": ["fly away"]}, "not an action"),
    ({"players": [{"hand": ["S5"]}, {}], "actions": ["summon S6"]}, "is illegal"),
    ({"rules": {"ambiguities": {"D-AMB-42": "maybe"}}}, "D-AMB-42"),
])
def test_bad_positions_and_illegal_actions_one_line_exit_2(tmp_path, capsys, position, words):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(position))
    assert main(["scenario", "--game", "poker_duel", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.strip().splitlines()) == 1 and words in captured.err


def test_apply_refuses_an_illegal_action():
    m = Match.new(load_rules("core"), 40, 40, 0, 3)
    with pytest.raises(CardbalanceError, match="illegal action"):
        m.apply(999_999)


def test_play_narrates_a_match_the_same_way_twice(capsys):
    assert main(["play", "--game", "poker_duel", "--seed", "4", "--rules", "advanced"]) == 0
    first = capsys.readouterr().out
    assert main(["play", "--game", "poker_duel", "--seed", "4", "--rules", "advanced"]) == 0
    assert capsys.readouterr().out == first
    assert "turn 1:" in first and "end:" in first and "HP now" in first


@pytest.mark.parametrize("preset", ["core", "advanced"])
def test_random_matches_end_with_sorted_legal_lists_and_consistent_states(preset):
    rules = load_rules(preset)
    for seed in range(40):
        cell = cell_of({"hp": (40, 40), "first": seed % 2}, 1, 1)  # random vs random
        checked = []

        def check(m, action):
            legal = m.legal_actions()
            assert legal and legal == sorted(legal) and action in legal
            state = m.to_array()
            assert state.shape == (L.STATE_SIZE,)
            zones = state[L.C_ZONE:L.C_ZONE + L.N_CARDS]
            assert (zones == L.Z_DECK).sum() == state[L.S_DECK_COUNT] + state[L.S_DECK_COUNT + 1]
            checked.append(1)

        m = play_match(rules, cell, 1000 + seed, on_step=check)
        assert m.is_over() and checked
        assert np.array_equal(reference_record(rules, cell, 1000 + seed), reference_record(rules, cell, 1000 + seed))


def test_every_clause_and_ambiguity_of_the_reference_is_named_by_a_test():
    reference = (ROOT.parent / "shared" / "rules" / "poker-duel.md")
    if not reference.exists():
        reference = Path("/work/shared/rules/poker-duel.md")
    ids = set(re.findall(r"^- \*\*(D-[A-Z0-9-]+)\*\*", reference.read_text(encoding="utf-8"), re.M))
    assert len(ids) == 85 + 65
    files = sorted(ROOT.glob("tests/test_pd_*clauses.py")) + [ROOT / "tests" / "test_pd_default_readings.py"]
    text = "".join(p.read_text(encoding="utf-8") for p in files)
    named = set()
    for prefix in re.findall(r"def test_((?:D_[A-Z]+_[0-9]+_?)+)", text):  # "D_SUM_2_D_SUM_5_" -> two IDs
        named |= {"D-" + "-".join(m) for m in re.findall(r"D_([A-Z]+)_([0-9]+)", prefix)}
    for refused in re.findall(r"# covers D-AMB-([0-9 ]+)", text):  # a refused reading's test, if any
        named |= {"D-AMB-" + n for n in refused.split()}
    missing = sorted(ids - named)
    assert not missing, missing
