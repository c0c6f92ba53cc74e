"""Poker Duel clause tests: the battle phase, its four steps, boosts and
damage (../shared/rules/poker-duel.md §9)."""

from tests.pd_harness import engine, play  # noqa: F401  (engine is a fixture)

FIGHT = ["pass", "pass", "pass", "pass"]  # battle step: two passes; damage step: two passes


def pos(p0=None, p1=None, **top):
    return {"players": [p0 or {}, p1 or {}], **top}


def test_D_BP_1_first_player_has_no_battle_on_turn_1(engine):
    t = play(engine, pos({"monsters": ["S7"]}, {"monsters": ["S2"]}, turn=1, first=0), ["pass"])
    assert t.turn == 2 and t.active == 1 and t.hp(1) == 40


def test_D_BP_2_one_new_monster_may_attack(engine):
    start = pos({"monsters": ["S7", "S8", "S2"], "new": ["S7", "S8"]}, {"monsters": ["C2", "C3"]}, phase="declare")
    t = play(engine, start)
    assert {"attack 0 0", "attack 1 0", "attack 2 0"} <= set(t.legal)
    t = play(engine, start, ["attack 0 0"] + FIGHT)
    assert not [a for a in t.legal if a.startswith("attack 1")]  # the second new monster may not
    assert [a for a in t.legal if a.startswith("attack 2")]       # an old one still may


def test_D_BP_3_the_steps_repeat_until_the_end_is_declared(engine):
    start = pos({"monsters": ["S7", "S8"]}, {"monsters": ["C2", "C3"]}, phase="declare")
    t = play(engine, start, ["attack 0 0"] + FIGHT)
    assert t.phase == "declare" and "attack 1 1" in t.legal
    t = play(engine, start, ["attack 0 0"] + FIGHT + ["pass"])
    assert t.active == 1  # end of battle, end phase, opponent's turn


def test_D_ATK_1_D_ATK_2_attack_a_monster_and_direct_only_without_monsters(engine):
    t = play(engine, pos({"monsters": ["S7"]}, {"monsters": ["C2", None, "H3"]}, phase="declare"))
    assert t.legal == ["pass", "attack 0 0", "attack 0 2"]
    t = play(engine, pos({"monsters": ["S7"]}, phase="declare"))
    assert t.legal == ["pass", "attack 0 5"]


def test_D_BS_1_D_BS_7_set_j_q_k_in_the_battle_step_not_from_hand(engine):
    start = pos({"monsters": ["S7"], "hand": ["DJ"]}, {"monsters": ["C2"], "back_row": ["HJ"]}, phase="declare")
    t = play(engine, start, ["attack 0 0"])
    assert t.phase == "battle_step" and t.decider == 0 and t.legal == ["pass"]  # DJ in hand: no (D-BS-7)
    t = play(engine, start, ["attack 0 0", "pass"])
    assert t.decider == 1 and t.legal == ["pass", "act_set 0"]
    t = play(engine, start, ["attack 0 0", "pass", "act_set 0", "target 0"])
    assert t.graveyard(0) == ["S7"] and t.phase == "battle_step" and t.decider == 1  # priority back to p1
    t = play(engine, start, ["attack 0 0", "pass", "act_set 0", "target 0", "pass", "pass"])
    assert t.active == 1  # attacker gone: the attack ended (D-AMB-34), no attacker left, turn over
    assert t.hp(0) == 40 and t.hp(1) == 40


def test_D_BS_2_D_BS_3_battle_step_q_draws_may_be_set_and_a_set_j_used_at_once(engine):
    start = pos({"monsters": ["S7"]}, {"monsters": ["C2"], "back_row": ["HQ"], "deck": ["D4", "SJ"]}, phase="declare")
    t = play(engine, start, ["attack 0 0", "pass", "act_set 0", "count 1"])
    assert t.pending == "q_set" and t.legal == ["pass", "set SJ"]
    t = play(engine, start, ["attack 0 0", "pass", "act_set 0", "count 1", "set SJ"])
    assert t.zone("SJ", 1) == "back_row" and t.decider == 1 and "act_set 1" in t.legal
    t = play(engine, start, ["attack 0 0", "pass", "act_set 0", "count 1", "set SJ", "act_set 1", "target 0"])
    assert t.graveyard(0) == ["S7"]


def test_D_BS_4_a_defenders_k_summon_redirects_the_attack(engine):
    start = pos({"monsters": ["S7"]}, {"monsters": ["C2"], "back_row": ["HK"], "graveyard": ["H9"]}, phase="declare")
    t = play(engine, start, ["attack 0 0", "pass", "act_set 0", "pick H9", "summon H9", "pass", "pass", "pass", "pass"])
    # S7 (black) against H9 (red): the lower ATK wins, H9 is destroyed, p1 takes 9 - 7
    assert t.zone("C2", 1) == "monster" and t.zone("H9", 1) == "graveyard" and t.hp(1) == 38


def test_D_BS_4_redirect_turns_a_direct_attack_into_a_battle(engine):
    start = pos({"monsters": ["S7"]}, {"back_row": ["HK"], "graveyard": ["S3"]}, phase="declare")
    t = play(engine, start, ["attack 0 5", "pass", "act_set 0", "pick S3", "summon S3"] + FIGHT)
    assert t.zone("S3", 1) == "graveyard" and t.hp(1) == 36  # same colour: 7 - 3 = 4


def test_D_BS_5_several_k_summons_the_k_player_chooses_the_target(engine):
    start = pos({"monsters": ["S7"]}, {"monsters": ["C2"], "back_row": ["HK"], "graveyard": ["H9", "H4"]},
                phase="declare", uses=[[0, 0, 0], [0, 0, 1]])
    t = play(engine, start, ["attack 0 0", "pass", "act_set 0", "pick H9", "pick H4", "summon H9", "summon H4"])
    assert t.pending == "redirect" and t.decider == 1 and t.legal == ["target 1", "target 2"]
    t = play(engine, start, ["attack 0 0", "pass", "act_set 0", "pick H9", "pick H4", "summon H9", "summon H4",
                             "target 2", "pass", "pass", "pass", "pass"])
    assert t.zone("H4", 1) == "monster" and t.zone("S7", 0) == "graveyard" and t.hp(0) == 37  # lower H4 wins


def test_D_BS_6_k_recovered_cards_may_be_set_in_the_battle_step(engine):
    start = pos({"monsters": ["S7"]}, {"monsters": ["C2"], "back_row": ["HK"], "graveyard": ["DJ"]}, phase="declare")
    t = play(engine, start, ["attack 0 0", "pass", "act_set 0", "pick DJ"])
    assert t.legal == ["pass", "set DJ"]
    t = play(engine, start, ["attack 0 0", "pass", "act_set 0", "pick DJ", "set DJ", "act_set 1", "target 0"])
    assert t.graveyard(0) == ["S7"]


def test_D_DS_1_D_DC_1_direct_attack_no_boosts_printed_value(engine):
    start = pos({"monsters": ["S7"], "back_row": ["S5"]}, phase="declare")
    t = play(engine, start, ["attack 0 5", "pass", "pass"])
    assert t.hp(1) == 33 and t.active == 1  # no step 3 decisions; S7 has attacked, the turn ends


def test_D_DS_2_D_DS_7_both_players_boost_either_battler(engine):
    start = pos({"monsters": ["S7"], "back_row": ["D3"]}, {"monsters": ["H9"], "back_row": ["C4"]}, phase="declare")
    t = play(engine, start, ["attack 0 0", "pass", "pass"])
    assert t.phase == "damage_step" and t.decider == 0 and t.legal == ["pass", "boost 0 0", "boost 0 1"]
    # §14.3 example 2 shape: p0 passes, p1 boosts S7 by 4 (no match: x1)
    t = play(engine, start, ["attack 0 0", "pass", "pass", "pass", "boost 0 0"])
    assert t.boost("S7", 0) == 4 and t.decider == 0


def test_D_DS_3_D_DC_5_boosts_last_for_the_battle_phase(engine):
    start = pos({"monsters": ["S7", "S2"], "back_row": ["D3"]}, {"monsters": ["H9", "C8"]}, phase="declare")
    t = play(engine, start, ["attack 0 0", "pass", "pass", "boost 0 0", "pass", "pass"])
    # S7 +3 = 10 vs H9 (colours differ, lower wins): S7 is destroyed... so boost own S2 instead
    assert t.zone("S7", 0) == "graveyard" and t.hp(0) == 39
    t = play(engine, start, ["attack 1 1", "pass", "pass", "boost 0 0", "pass", "pass"])
    # S2 +3 (x1, D3 on S2: no match) = 5 vs C8: same colour, higher wins -> S2 loses 3
    assert t.zone("S2", 0) == "graveyard" and t.hp(0) == 37
    t = play(engine, start, ["attack 0 1", "pass", "pass", "boost 0 0", "pass", "pass"])
    # S7 + 3 = 10 vs C8: S7 wins and keeps +3 until the end of this battle phase
    assert t.zone("C8", 1) == "graveyard" and t.boost("S7", 0) == 3 and t.zone("D3", 0) == "graveyard"
    t = play(engine, start, ["attack 0 1", "pass", "pass", "boost 0 0", "pass", "pass", "pass"])
    assert t.boost("S7", 0) == 0  # expired with the battle phase


def test_D_DS_4_D_DS_5_D_DS_6_same_number_x3_same_suit_x2_both_x6(engine):
    cases = [("D7", "S7", 21), ("S3", "S7", 6), ("D3", "S7", 3)]
    for boost, target, expected in cases:
        t = play(engine, pos({"monsters": [target], "back_row": [boost]}, {"monsters": ["C2"]}, phase="declare"),
                 ["attack 0 0", "pass", "pass", "boost 0 0"])
        assert t.boost(target, 0) == expected, (boost, target)
    t = play(engine, pos({"monsters": ["S7"], "back_row": ["H9"]}, {"monsters": ["H9"]}, phase="declare"),
             ["attack 0 0", "pass", "pass", "boost 0 1"])
    assert t.boost("H9", 1) == 54  # the opponent's identical card: x6


def test_D_DS_8_a_boost_set_this_turn_waits(engine):
    start = pos({"monsters": ["S7"], "back_row": [{"card": "D3", "set_turn": 3}]}, {"monsters": ["C2"]}, phase="declare")
    t = play(engine, start, ["attack 0 0", "pass", "pass"])
    assert t.legal == ["pass"]


def test_D_DC_2_D_DC_4_same_colour_higher_wins_loser_controller_takes_the_difference(engine):
    t = play(engine, pos({"monsters": ["S3"]}, {"monsters": ["C8"]}, phase="declare"), ["attack 0 0"] + FIGHT)
    assert t.zone("S3", 0) == "graveyard" and t.zone("C8", 1) == "monster" and t.hp(0) == 35 and t.hp(1) == 40


def test_D_DC_3_different_colours_lower_wins(engine):
    t = play(engine, pos({"monsters": ["S3"]}, {"monsters": ["H8"]}, phase="declare"), ["attack 0 0"] + FIGHT)
    assert t.zone("H8", 1) == "graveyard" and t.zone("S3", 0) == "monster" and t.hp(1) == 35
