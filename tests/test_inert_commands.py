"""`sensitivity`, `fair` and `map` refuse a parameter that cannot act under the chosen rules (the
games' `ACTS_ONLY_WHEN`, sim/inert.py): one line naming it and the switch that would make it act,
exit 2, no run folder, before any match; and they accept it where it can act, also when another
factor of the same design is that switch (issue 37 item 5: club_multiplier under `core`)."""

from __future__ import annotations

import pytest

from sim.cli import main
from sim.errors import CardbalanceError
from sim.fair import params
from sim.fair.runner import PointRunner
from sim.inert import check_design
from sim.registry import get_game

PD = ["--game", "poker_duel", "--skill", "greedy", "--chunk-size", "10"]
NT = ["--game", "novel_tcg", "--skill", "greedy", "--chunk-size", "10"]
FW = ["--game", "faction_war", "--skill", "greedy", "--chunk-size", "10"]


class PlayedAMatch(Exception):
    """Raised in place of the first match: the command got past every check."""


@pytest.fixture
def no_matches(monkeypatch):
    def refuse(*args, **kwargs):
        raise PlayedAMatch()
    monkeypatch.setattr(PointRunner, "play", refuse)


REFUSED = [
    (["sensitivity", "--param", "hp0=30:50", "--param", "club_multiplier=1:4", "--n", "64", "--matches", "10"] + PD,
     "club_multiplier", "advanced_rules = true"),
    (["fair", "--param", "club_multiplier"] + PD, "club_multiplier", "advanced_rules = true"),
    (["map", "--x", "hp0=30:50:10", "--y", "club_multiplier=1:4:1", "--matches", "10"] + PD,
     "club_multiplier", "advanced_rules = true"),
    (["sensitivity", "--param", "hp0=30:50", "--param", "straight_flush", "--rules", "advanced"] + PD,
     "straight_flush", "D-AMB-48 = own_switch"),
    (["sensitivity", "--param", "hp0=30:50", "--param", "D-AMB-03"] + PD, "D-AMB-03", "acts under no rules"),
    (["sensitivity", "--param", "star_mod=2:8", "--param", "shape_k"] + NT, "shape_k", 'deck_shape = "aggressive"'),
    (["fair", "--param", "summon_limit_offset", "--rules", "default+T-AMB-46=off"] + NT,
     "summon_limit_offset", 'T-AMB-46 = "on"'),
    # conditions on the grid: the cell's pairing (Faction War), the seats' rank (Novel TCG, rank + L >= 20)
    (["sensitivity", "--param", "opening_hand=3:7", "--param", "FA-11", "--pairing", "human_vs_human"] + FW,
     "FA-11", "a seat plays the Alien (--pairing human_vs_alien, alien_vs_human or alien_vs_alien)"),
    (["sensitivity", "--param", "opening_hand=3:7", "--param", "FA-17", "--pairing", "human_vs_alien"] + FW,
     "FA-17", "(--pairing alien_vs_alien)"),
    (["sensitivity", "--param", "opening_hand=3:7", "--param", "FA-26", "--pairing", "alien_vs_alien"] + FW,
     "FA-26", "a seat plays the Human (--pairing human_vs_human, human_vs_alien or alien_vs_human)"),
    (["fair", "--param", "summon_limit_offset=2:5", "--rank", "18"] + NT, "summon_limit_offset",
     "rank + L is below 20"),
    (["map", "--x", "summon_limit_offset=2:5:1", "--y", "star_mod=2:8:2", "--rank", "18"] + NT,
     "summon_limit_offset", "rank + L is below 20"),
]

# Readings the Novel TCG declares but no v1 match can tell apart (INERT_IN_V1, FIXED_IN_V1, OUTSIDE_V1):
# refused with the rules module's reason instead of a bare "unknown parameter".
NOT_SWITCHES = [
    (["sensitivity", "--param", "T-AMB-05", "--param", "star_mod=2:8"] + NT, "T-AMB-05",
     "no v1 switch: with vanilla cards no Battle-phase effect exists"),
    (["sensitivity", "--param", "T-AMB-03", "--param", "star_mod=2:8"] + NT, "T-AMB-03", "outside v1: No mulligan"),
    (["fair", "--param", "mulligan"] + NT, "mulligan", "outside v1: No mulligan"),
    (["map", "--x", "T-AMB-04=0:1:1", "--y", "star_mod=2:8:2"] + NT, "T-AMB-04", "no v1 switch: the first player"),
]


@pytest.mark.parametrize("command, name, reason", NOT_SWITCHES, ids=[n for _, n, _ in NOT_SWITCHES])
def test_a_reading_no_v1_match_tells_apart_is_refused_with_its_reason(command, name, reason, tmp_path, capsys,
                                                                       no_matches):
    out = tmp_path / "run"
    assert main(command + ["--out", str(out)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "parameter '%s' cannot be varied: %s" % (name, reason) in error, error
    assert not out.exists()


@pytest.mark.parametrize("command, name, switch", REFUSED, ids=["%s-%s" % (c[0], n) for c, n, _ in REFUSED])
def test_an_inert_parameter_is_one_line_exit_2_before_any_match(command, name, switch, tmp_path, capsys, no_matches):
    out = tmp_path / "run"
    assert main(command + ["--out", str(out)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1, error
    assert "parameter '%s' has no effect under these rules" % name in error and switch in error, error
    assert "%s refuses it" % command[0] in error
    assert not out.exists()


ACCEPTED = [
    (["sensitivity", "--param", "hp0=30:50", "--param", "club_multiplier=1:4", "--rules", "advanced", "--n", "64",
      "--matches", "10"] + PD),
    # the design's own switch makes it act: advanced_rules is a factor of the same design
    (["sensitivity", "--param", "advanced_rules", "--param", "club_multiplier=1:4", "--n", "64", "--matches", "10"]
     + PD),
    (["fair", "--param", "club_multiplier", "--rules", "advanced"] + PD),
    (["map", "--x", "hp0=30:50:10", "--y", "club_multiplier=1:4:1", "--matches", "10", "--rules", "advanced"] + PD),
    (["sensitivity", "--param", "deck_shape", "--param", "shape_k", "--n", "64", "--matches", "10"] + NT),
    (["sensitivity", "--param", "opening_hand=3:7", "--param", "FA-11", "--pairing", "human_vs_alien", "--n", "64",
      "--matches", "10"] + FW),
    # the design plays every pairing: the Alien's reading acts in some of its cells
    (["sensitivity", "--param", "opening_hand=3:7", "--param", "FA-11", "--pairing", "human_vs_human",
      "--spread-over", "pairing", "--n", "64", "--matches", "10"] + FW),
    (["fair", "--param", "summon_limit_offset=1:5", "--rank", "18"] + NT),  # rank 18 + L 1 = 19: a lower ceiling
    # a varied rank the condition reads: rank0 down to 10 lets L move seat 0's ceiling
    (["sensitivity", "--param", "rank0=10:18", "--param", "summon_limit_offset=2:5", "--rank", "18", "--n", "64",
      "--matches", "10"] + NT),
]


@pytest.mark.parametrize("command", ACCEPTED, ids=["%s-%d" % (c[0], i) for i, c in enumerate(ACCEPTED)])
def test_the_same_parameter_is_accepted_where_it_can_act(command, tmp_path, no_matches):
    with pytest.raises(PlayedAMatch):  # past every check, at the first match
        main(command + ["--out", str(tmp_path / "run")])


def _resolved(game_name, rules_name, specs):
    game = get_game(game_name)
    rules = game.load_rules(rules_name) if "+" not in rules_name else _variant(game, rules_name)
    return rules, [params.resolve(game, rules, *params.parse_spec(spec), factors=True) for spec in specs]


def _variant(game, name):
    from sim.sweep.vary import load_named
    return load_named(game.load_rules, name)


def test_a_number_the_condition_reads_counts_at_its_range_ends():
    # T-AMB-54 acts only with star_mod > 0: with star_mod = 0 in the rules, varying star_mod to 8 lets it act
    rules, design = _resolved("novel_tcg", "default+star_mod=0", ["star_mod=0:8", "T-AMB-54"])
    check_design(rules, design, "sensitivity", factors=True)
    rules, design = _resolved("novel_tcg", "default+star_mod=0", ["hp_per_rank=10:20", "T-AMB-54"])
    with pytest.raises(CardbalanceError, match="'T-AMB-54' has no effect.*star_mod > 0.*or vary star_mod too"):
        check_design(rules, design, "sensitivity", factors=True)


def test_a_varied_switch_that_never_takes_the_acting_reading_does_not_count():
    # D-AMB-48 varied over readings that all leave the own switch unread: straight_flush still inert
    rules, design = _resolved("poker_duel", "core", ["D-AMB-48=with_advanced,core", "straight_flush"])
    with pytest.raises(CardbalanceError, match="'straight_flush' has no effect"):
        check_design(rules, design, "sensitivity", factors=True)
    rules, design = _resolved("poker_duel", "core", ["D-AMB-48=with_advanced,own_switch", "straight_flush"])
    check_design(rules, design, "sensitivity", factors=True)


def test_fair_and_map_suggest_no_factor_they_cannot_vary():
    rules, design = _resolved("poker_duel", "core", ["club_multiplier"])
    with pytest.raises(CardbalanceError) as refused:
        check_design(rules, design, "fair")
    assert "change the rules to that." in str(refused.value) and "vary" not in str(refused.value)
