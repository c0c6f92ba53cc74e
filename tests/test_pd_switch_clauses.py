"""Poker Duel ambiguity switches (D-AMB-nn), each tested in its default reading
and in every implemented alternative (../shared/rules/poker-duel.md §15/§16).
Readings not implemented yet are refused with one error line (last test)."""

import numpy as np
import pytest

from sim.errors import CardbalanceError
from sim.poker_duel import layout as L
from sim.poker_duel.rules import AMBIGUITIES, IMPLEMENTED, NOT_PLAYABLE, load_rules
from tests.pd_harness import engine, play  # noqa: F401  (engine is a fixture)

FIGHT = ["pass", "pass", "pass", "pass"]


def pos(p0=None, p1=None, amb=None, preset="core", rules=None, **top):
    merged = dict(rules or {})
    if amb:
        merged["ambiguities"] = amb
    return {"players": [p0 or {}, p1 or {}], "preset": preset, "rules": merged, **top}


def test_D_AMB_02_jokers_need_a_back_row_slot(engine):
    full = {"hand": ["BJ"], "back_row": ["D2", "D3", "D4", "D5", "D6"]}
    assert "act_hand BJ" not in play(engine, pos(full, {"monsters": ["C3"]})).legal
    assert "act_hand BJ" in play(engine, pos(full, {"monsters": ["C3"]}, amb={"D-AMB-02": "no"})).legal


def test_D_AMB_03_D_AMB_05_inert_switches_change_nothing(engine):
    start = {"hand": ["SK"], "graveyard": ["H5"]}
    actions = ["act_hand SK", "pick H5", "summon H5"]
    base = play(engine, pos(start), actions).state
    for amb in ({"D-AMB-03": "both"}, {"D-AMB-03": "multi_summon"}, {"D-AMB-05": "fixed_seat"}):
        assert np.array_equal(play(engine, pos(start, amb=amb), actions).state, base)


def test_D_AMB_06_ace_value(engine):
    start = {"monsters": ["SA"]}
    assert play(engine, pos(start, phase="declare"), ["attack 0 5", "pass", "pass"]).hp(1) == 39
    assert play(engine, pos(start, phase="declare", amb={"D-AMB-06": "14"}), ["attack 0 5", "pass", "pass"]).hp(1) == 26
    assert play(engine, pos(start, phase="declare", amb={"D-AMB-06": "11"}), ["attack 0 5", "pass", "pass"]).hp(1) == 29


def test_D_AMB_08_hidden_information(engine):
    from sim.poker_duel.position import load_position
    m = load_position(pos({"hand": ["S7"]}, {"hand": ["H9"], "back_row": ["DJ"]}))
    view = m.view(0)
    h9 = L.card_id(1, 47)
    assert view[L.C_ZONE + h9] == L.Z_HIDDEN and L.is_face_down(view[L.S_BACK + L.ZONE_SLOTS])
    assert view[L.S_BACK + L.ZONE_SLOTS] == L.face_down(2)  # set on the turn before (D-DS-8): public, not the card
    assert view[L.C_ZONE + L.card_id(0, 19)] == L.Z_HAND  # own S7 visible
    m = load_position(pos({"hand": ["S7"]}, {"hand": ["H9"]}, amb={"D-AMB-08": "open"}))
    assert m.view(0)[L.C_ZONE + h9] == L.Z_HAND


def test_D_AMB_09_deck_out_threshold(engine):
    start = {"deck": ["D2"]}
    t = play(engine, pos({}, start, turn=1, first=1, active=1))  # the first player's turn 1 needs 1 card
    assert t.winner == -1
    from sim.poker_duel.position import load_position
    for reading, winner in (("needed", -1), ("literal_2", 0)):
        m = load_position(pos({}, start, turn=1, first=1, active=1, amb={"D-AMB-09": reading}))
        m.turn = 1
        try:
            m._begin_turn()
        except Exception:
            pass
        assert m.winner == winner, reading


def test_D_AMB_10_q_on_a_short_deck(engine):
    start = {"hand": ["HQ"], "deck": ["D2"]}
    assert play(engine, pos(start), ["act_hand HQ"]).legal == ["count 1"]
    t = play(engine, pos(start, amb={"D-AMB-10": "lose"}), ["act_hand HQ", "count 2"])
    assert t.winner == 1 and t.end_type == "deck_out"
    t = play(engine, pos(start, amb={"D-AMB-10": "truncate"}), ["act_hand HQ", "count 2"])
    assert t.winner == -1 and t.hand(0) == ["D2"]


def test_D_AMB_12_suit_scope(engine):
    start = {"hand": ["S7"], "monsters": ["H3"]}
    assert "summon S7" in play(engine, pos(start)).legal
    assert "summon S7" not in play(engine, pos(start, amb={"D-AMB-12": "field_wide"})).legal


def test_D_AMB_13_k_summon_and_the_turn_suit(engine):
    start = {"hand": ["SK", "S7"], "graveyard": ["H5"]}
    actions = ["act_hand SK", "pick H5", "summon H5"]
    assert "summon S7" in play(engine, pos(start), actions).legal
    assert "summon S7" not in play(engine, pos(start, amb={"D-AMB-13": "fixes_suit"}), actions).legal


def test_D_AMB_14_where_a_bumped_monster_goes(engine):
    start = {"hand": ["S9"], "monsters": ["S2", "S3", "S4", "S5", "S6"], "deck": ["D2"]}
    assert play(engine, pos(start), ["summon S9 bump 0"]).zone("S2", 0) == "graveyard"
    assert play(engine, pos(start, amb={"D-AMB-14": "hand"}), ["summon S9 bump 0"]).zone("S2", 0) == "hand"
    t = play(engine, pos(start, amb={"D-AMB-14": "deck_bottom"}), ["summon S9 bump 0"])
    assert t.zone("S2", 0) == "deck" and t.deck_size(0) == 2
    assert t.state[L.S_DECK] == L.card_id(0, 14)  # S2 at the bottom


def test_D_AMB_19_escalation_scope(engine):
    start = ({"hand": ["HJ"], "monsters": ["C5"]}, {"back_row": ["SJ"], "monsters": ["D2"]})
    actions = ["act_hand HJ", "target 0", "act_set 0", "target 0"]
    t = play(engine, pos(*start), actions)
    assert t.uses(1) == [1, 0, 0] and t.graveyard(0) == ["C5", "HJ"]  # p1's own first J: 1 target
    t = play(engine, pos(*start, amb={"D-AMB-19": "global"}), ["act_hand HJ", "target 0", "act_set 0"])
    assert t.legal == ["target 0"]  # only one target exists; the counter is shared
    assert t.uses(0) == [2, 0, 0]
    t = play(engine, pos(*start, amb={"D-AMB-19": "own_turn_only"}), actions)
    assert t.uses(1) == [0, 0, 0]


def test_D_AMB_21_j_targets(engine):
    start = ({"hand": ["HJ"]}, {"monsters": ["C5"], "back_row": ["D3"]})
    assert play(engine, pos(*start), ["act_hand HJ"]).legal == ["target 0", "target 5"]
    assert play(engine, pos(*start, amb={"D-AMB-21": "monsters_only"}), ["act_hand HJ"]).legal == ["target 0"]


def test_D_AMB_23_slot_of_a_resolving_card(engine):
    start = ({"monsters": ["S7"]}, {"monsters": ["C2"], "back_row": ["HQ", "D2", "D3", "D4", "D5"], "deck": ["D9"]})
    actions = ["attack 0 0", "pass", "act_set 0", "count 1"]
    assert play(engine, pos(*start, phase="declare"), actions).legal == ["pass"]
    t = play(engine, pos(*start, phase="declare", amb={"D-AMB-23": "freed"}), actions)
    assert t.legal == ["pass", "set D9"]


def test_D_AMB_24_response_windows(engine):
    start = ({"hand": ["HJ"]}, {"monsters": ["C5"], "back_row": ["SQ"]})
    assert play(engine, pos(*start), ["act_hand HJ", "target 0"]).pending == "response"
    t = play(engine, pos(*start, amb={"D-AMB-24": "none"}), ["act_hand HJ", "target 0"])
    assert t.pending == "none" and t.graveyard(1) == ["C5"]


def test_D_AMB_26_D_AMB_27_jokers_and_hand_cards_in_the_battle_step(engine):
    start = ({"monsters": ["S7"], "back_row": ["BJ"], "hand": ["DJ"]}, {"monsters": ["C2"]})
    assert play(engine, pos(*start, phase="declare"), ["attack 0 0"]).legal == ["pass"]
    assert "act_set 0" in play(engine, pos(*start, phase="declare", amb={"D-AMB-26": "yes"}), ["attack 0 0"]).legal
    assert "act_hand DJ" in play(engine, pos(*start, phase="declare", amb={"D-AMB-27": "yes"}), ["attack 0 0"]).legal


def test_D_AMB_28_small_joker_and_set_monster_cards(engine):
    start = ({"hand": ["LJ"]}, {"back_row": ["H5", "DJ"]})
    assert play(engine, pos(*start), ["act_hand LJ"]).graveyard(1) == ["DJ", "H5"]
    assert play(engine, pos(*start, amb={"D-AMB-28": "no"}), ["act_hand LJ"]).graveyard(1) == ["DJ"]


def test_D_AMB_29_D_AMB_61_battle_phase_end(engine):
    start = ({"monsters": ["S7"]}, {"monsters": ["C2"]})
    assert "pass" in play(engine, pos(*start, phase="declare")).legal
    assert play(engine, pos(*start, phase="declare", amb={"D-AMB-29": "compulsory"})).legal == ["attack 0 0"]
    assert play(engine, pos(*start, phase="declare", amb={"D-AMB-61": "attack_compulsory"})).legal == ["attack 0 0"]


def test_D_AMB_30_D_AMB_31_attacks_per_monster_and_the_new_attacker_limit(engine):
    start = ({"monsters": ["S7"], "new": ["S7"]}, {"monsters": ["C2", "C3"]})
    assert play(engine, pos(*start, phase="declare"), ["attack 0 0"] + FIGHT).active == 1
    t = play(engine, pos(*start, phase="declare", amb={"D-AMB-30": "unlimited"}), ["attack 0 0"] + FIGHT)
    assert t.legal == ["pass", "attack 0 1"]  # the same new monster again: D-AMB-31 counts monsters
    t = play(engine, pos(*start, phase="declare", amb={"D-AMB-30": "unlimited", "D-AMB-31": "attacks"}),
             ["attack 0 0"] + FIGHT)
    assert t.active == 1  # the one new-monster attack is used up


def test_D_AMB_32_priority_order(engine):
    start = ({"monsters": ["S7"]}, {"monsters": ["C2"]})
    assert play(engine, pos(*start, phase="declare"), ["attack 0 0"]).decider == 0
    assert play(engine, pos(*start, phase="declare", amb={"D-AMB-32": "defender_first"}), ["attack 0 0"]).decider == 1
    t = play(engine, pos(*start, phase="declare", amb={"D-AMB-32": "defender_only"}), ["attack 0 0", "pass"])
    assert t.phase == "damage_step"  # one pass of the defender ends the step


def test_D_AMB_33_the_target_leaves_the_field(engine):
    start = ({"monsters": ["S7"], "back_row": ["DJ"]}, {"monsters": ["C2"]})
    actions = ["attack 0 0", "act_set 0", "target 0", "pass", "pass"]
    t = play(engine, pos(*start, phase="declare"), actions)
    assert t.zone("C2", 1) == "graveyard" and t.hp(1) == 40 and t.active == 1  # the attack ends
    t = play(engine, pos(*start, phase="declare", amb={"D-AMB-33": "direct"}), actions)
    assert t.hp(1) == 33  # it becomes a direct attack
    t = play(engine, pos(*start, phase="declare", amb={"D-AMB-33": "replay"}), actions)
    assert t.hp(1) == 33  # replay with nothing left: a direct attack
    two = ({"monsters": ["S7"], "back_row": ["DJ"]}, {"monsters": ["C2", "C3"]})
    t = play(engine, pos(*two, phase="declare", amb={"D-AMB-33": "replay"}), actions)
    assert t.pending == "redirect" and t.decider == 0 and t.legal == ["target 1"]
    t = play(engine, pos(*two, phase="declare", amb={"D-AMB-33": "replay"}), actions + ["target 1", "pass", "pass"])
    assert t.zone("C3", 1) == "graveyard" and t.hp(1) == 36  # S7 against C3 after the boost window


def test_D_AMB_34_the_attacker_leaves_the_field(engine):
    start = ({"monsters": ["S7"]}, {"monsters": ["C4"], "back_row": ["DJ"]})
    actions = ["attack 0 0", "pass", "act_set 0", "target 0", "pass", "pass"]
    assert play(engine, pos(*start, phase="declare"), actions).hp(0) == 40
    assert play(engine, pos(*start, phase="declare", amb={"D-AMB-34": "defender_deals"}), actions).hp(0) == 36


def test_D_AMB_16_a_set_monster_card_summoned_from_the_back_row(engine):
    start = {"back_row": ["S7"]}
    assert not [a for a in play(engine, pos(start)).legal if a.startswith("summon")]
    t = play(engine, pos(start, amb={"D-AMB-16": "yes"}), ["summon S7"])
    assert t.monsters(0)[0] == "S7" and t.back_row(0)[0] is None


def test_D_AMB_25_main_phase_responses(engine):
    start = ({"hand": ["HJ"]}, {"monsters": ["C5"], "back_row": ["SQ"]})
    assert play(engine, pos(*start), ["act_hand HJ", "target 0"]).pending == "response"
    t = play(engine, pos(*start, amb={"D-AMB-25": "turn_player_only"}), ["act_hand HJ", "target 0"])
    assert t.pending == "none" and t.graveyard(1) == ["C5"]


def test_D_AMB_53_the_diamond_extra_attack_and_other_rules(engine):
    start = ({"monsters": ["D8"], "new": ["D8"]}, {"monsters": ["H3", "H5"]})
    fight = ["attack 0 0"] + FIGHT
    assert play(engine, pos(*start, phase="declare", preset="advanced"), fight).legal == ["pass", "attack 0 1"]
    t = play(engine, pos(*start, phase="declare", preset="advanced", amb={"D-AMB-53": "counts_new_attacker"}), fight)
    assert t.active == 1  # the new diamond has used the one new-monster attack
    t = play(engine, pos(*start, phase="declare", preset="advanced", amb={"D-AMB-53": "skips_battle_step"}),
             fight + ["attack 0 1"])
    assert t.phase == "damage_step"


def test_D_AMB_35_k_redirect_on_direct_attacks(engine):
    start = ({"monsters": ["S7"]}, {"back_row": ["HK"], "graveyard": ["S3"]})
    actions = ["attack 0 5", "pass", "act_set 0", "pick S3", "summon S3", "pass", "pass"]
    assert play(engine, pos(*start, phase="declare"), actions).phase == "damage_step"
    t = play(engine, pos(*start, phase="declare", amb={"D-AMB-35": "not_on_direct"}), actions)
    assert t.hp(1) == 33 and t.zone("S3", 1) == "monster"


def test_D_AMB_38_D_AMB_39_boost_duration_and_the_boost_card(engine):
    start = ({"monsters": ["S7", "S2"], "back_row": ["D3"]}, {"monsters": ["C2", "C3"]})  # S2 keeps the phase open
    actions = ["attack 0 0", "pass", "pass", "boost 0 0", "pass", "pass"]
    t = play(engine, pos(*start, phase="declare"), actions)
    assert t.boost("S7", 0) == 3 and t.zone("D3", 0) == "graveyard"
    assert play(engine, pos(*start, phase="declare", amb={"D-AMB-38": "single_battle"}), actions).boost("S7", 0) == 0
    t = play(engine, pos(*start, phase="declare", amb={"D-AMB-39": "end_of_battle_phase"}), actions)
    assert t.zone("D3", 0) == "back_row"
    t = play(engine, pos(*start, phase="declare", amb={"D-AMB-39": "end_of_battle_phase"}), actions + ["pass"])
    assert t.zone("D3", 0) == "graveyard"


def test_D_AMB_40_same_suit_or_same_colour(engine):
    start = ({"monsters": ["H7"], "back_row": ["D3"]}, {"monsters": ["C2"]})
    actions = ["attack 0 0", "pass", "pass", "boost 0 0"]
    assert play(engine, pos(*start, phase="declare"), actions).boost("H7", 0) == 3
    assert play(engine, pos(*start, phase="declare", amb={"D-AMB-40": "colour"}), actions).boost("H7", 0) == 6


def test_D_AMB_41_direct_damage_printed_or_current(engine):
    start = ({"monsters": ["S7"], "back_row": ["D3"]}, {"monsters": ["C2"]})
    actions = ["attack 0 0", "pass", "pass", "boost 0 0", "pass", "pass", "attack 0 5", "pass", "pass"]
    unlimited = {"D-AMB-30": "unlimited"}
    assert play(engine, pos(*start, phase="declare", amb=unlimited), actions).hp(1) == 40 - 8 - 7
    t = play(engine, pos(*start, phase="declare", amb={**unlimited, "D-AMB-41": "current_atk"}), actions)
    assert t.hp(1) == 40 - 8 - 10


@pytest.mark.parametrize("reading, attacker_zone, defender_zone", [
    ("both_destroyed", "graveyard", "graveyard"), ("nothing", "monster", "monster"),
    ("attacker_dies", "graveyard", "monster"), ("defender_dies", "monster", "graveyard")])
def test_D_AMB_42_ties(engine, reading, attacker_zone, defender_zone):
    t = play(engine, pos({"monsters": ["S5"]}, {"monsters": ["C5"]}, phase="declare", amb={"D-AMB-42": reading}),
             ["attack 0 0"] + FIGHT)
    assert (t.zone("S5", 0), t.zone("C5", 1), t.hp(0), t.hp(1)) == (attacker_zone, defender_zone, 40, 40)


def test_D_AMB_43_who_takes_the_difference(engine):
    start = ({"monsters": ["S8"]}, {"monsters": ["C3"]})
    assert play(engine, pos(*start, phase="declare"), ["attack 0 0"] + FIGHT).hp(1) == 35
    assert play(engine, pos(*start, phase="declare", amb={"D-AMB-43": "attacker"}), ["attack 0 0"] + FIGHT).hp(0) == 35
    t = play(engine, pos({"monsters": ["S3"]}, {"monsters": ["C8"]}, phase="declare", amb={"D-AMB-43": "defender"}),
             ["attack 0 0"] + FIGHT)
    assert t.hp(1) == 35 and t.hp(0) == 40


def test_D_AMB_46_D_AMB_47_hand_limit_scope_and_discard_destination(engine):
    big = ["D2", "D3", "D4", "D5", "D6", "D7", "D8"]
    start = ({"hand": big}, {"hand": ["S2", "S3", "S4", "S5", "S6", "S7", "S8"]})
    t = play(engine, pos(*start), ["pass", "discard D2"])
    assert t.active == 1 and len(t.hand(1)) == 9
    t = play(engine, pos(*start, amb={"D-AMB-46": "both"}), ["pass", "discard D2"])
    assert t.phase == "discard" and t.decider == 1
    t = play(engine, pos(*start, amb={"D-AMB-47": "banished"}), ["pass", "discard D2"])
    assert t.zone("D2", 0) == "banished" and t.graveyard(0) == []


def test_D_AMB_48_where_the_straight_flush_belongs(engine):
    start = {"hand": ["S3", "S4", "S5", "S6", "HQ"], "deck": ["D2", "S7"]}
    assert play(engine, pos(start), ["act_hand HQ", "count 1"]).winner == -1
    assert play(engine, pos(start, amb={"D-AMB-48": "core"}), ["act_hand HQ", "count 1"]).winner == 0
    t = play(engine, pos(start, amb={"D-AMB-48": "own_switch"}, rules={"straight_flush": True}), ["act_hand HQ", "count 1"])
    assert t.winner == 0
    t = play(engine, pos(start, preset="advanced", amb={"D-AMB-48": "own_switch"}), ["act_hand HQ", "count 1"])
    assert t.winner == -1


def test_D_AMB_49_D_AMB_50_entering_the_field_and_the_hp_cap(engine):
    assert play(engine, pos({"hand": ["S8"]}, preset="advanced"), ["set S8"]).hp(1) == 40
    assert play(engine, pos({"hand": ["S8"]}, preset="advanced", amb={"D-AMB-49": "also_set"}), ["set S8"]).hp(1) == 36
    assert play(engine, pos({"hand": ["H8"], "hp": 36}, preset="advanced"), ["summon H8"]).hp(0) == 44
    t = play(engine, pos({"hand": ["H8"], "hp": 36}, preset="advanced", amb={"D-AMB-50": "starting_hp"}), ["summon H8"])
    assert t.hp(0) == 40


def test_D_AMB_51_club_scope(engine):
    losing_club = ({"monsters": ["C3"]}, {"monsters": ["S8"]})        # black vs black: S8 wins, 5 to p0
    assert play(engine, pos(*losing_club, phase="declare", preset="advanced"), ["attack 0 0"] + FIGHT).hp(0) == 35
    t = play(engine, pos(*losing_club, phase="declare", preset="advanced", amb={"D-AMB-51": "also_losing"}),
             ["attack 0 0"] + FIGHT)
    assert t.hp(0) == 30
    defending_club = ({"monsters": ["S3"]}, {"monsters": ["C8"]})     # the defending club wins
    assert play(engine, pos(*defending_club, phase="declare", preset="advanced"), ["attack 0 0"] + FIGHT).hp(0) == 30
    t = play(engine, pos(*defending_club, phase="declare", preset="advanced", amb={"D-AMB-51": "attacker_only"}),
             ["attack 0 0"] + FIGHT)
    assert t.hp(0) == 35


def test_D_AMB_52_diamond_extra_attacks(engine):
    start = ({"monsters": ["D9"]}, {"monsters": ["H2", "H3", "H4"]})
    actions = ["attack 0 0"] + FIGHT + ["attack 0 1"] + FIGHT
    assert play(engine, pos(*start, phase="declare", preset="advanced"), actions).active == 1
    t = play(engine, pos(*start, phase="declare", preset="advanced", amb={"D-AMB-52": "recursive"}), actions)
    assert t.legal == ["pass", "attack 0 2"]


def test_D_AMB_55_main_phase_declaration(engine):
    start = {"hand": ["S3", "S4", "S5", "S6", "HQ"], "deck": ["D2", "S7"]}
    t = play(engine, pos(start, preset="advanced", amb={"D-AMB-55": "main_phase_declaration"}), ["act_hand HQ", "count 1"])
    assert t.winner == -1 and "reveal" in t.legal
    t = play(engine, pos(start, preset="advanced", amb={"D-AMB-55": "main_phase_declaration"}),
             ["act_hand HQ", "count 1", "reveal"])
    assert t.winner == 0 and t.end_type == "straight_flush"


def test_D_AMB_55_optional_reveal_at_any_decision(engine):
    start = ({"monsters": ["S7"]}, {"monsters": ["C2"], "hand": ["H2", "H3", "H4", "H5"], "back_row": ["DQ"],
                                    "deck": ["D9", "H6"]})
    actions = ["attack 0 0", "pass", "act_set 0", "count 1"]
    t = play(engine, pos(*start, phase="declare", preset="advanced", amb={"D-AMB-55": "optional"}), actions)
    assert t.winner == -1 and t.decider == 1 and "reveal" in t.legal  # in the opponent's battle step
    t = play(engine, pos(*start, phase="declare", preset="advanced", amb={"D-AMB-55": "optional"}),
             actions + ["reveal"])
    assert t.winner == 1 and t.end_type == "straight_flush"


def test_D_AMB_56_D_AMB_57_D_AMB_58_wrap_wild_jokers_back_row(engine):
    wrap = {"hand": ["SQ", "SK", "SA", "S2", "DQ"], "deck": ["D2", "S3"]}
    assert play(engine, pos(wrap, preset="advanced"), ["act_hand DQ", "count 1"]).winner == -1
    assert play(engine, pos(wrap, preset="advanced", amb={"D-AMB-56": "yes"}), ["act_hand DQ", "count 1"]).winner == 0
    wild = {"hand": ["S3", "S4", "S5", "S6", "DQ"], "deck": ["D2", "BJ"]}
    assert play(engine, pos(wild, preset="advanced"), ["act_hand DQ", "count 1"]).winner == -1
    assert play(engine, pos(wild, preset="advanced", amb={"D-AMB-57": "yes"}), ["act_hand DQ", "count 1"]).winner == 0
    back = {"hand": ["S3", "S4", "S5", "DQ"], "back_row": ["S6"], "deck": ["D2", "S7"]}
    assert play(engine, pos(back, preset="advanced"), ["act_hand DQ", "count 1"]).winner == -1
    t = play(engine, pos(back, preset="advanced", amb={"D-AMB-58": "hand_and_back_row"}), ["act_hand DQ", "count 1"])
    assert t.winner == 0


def test_D_AMB_59_a_card_drawn_then_set_passes_through_the_hand(engine):
    start = ({"monsters": ["S7"]}, {"monsters": ["C2"], "hand": ["H2", "H3", "H4", "H5"], "back_row": ["DQ"],
                                    "deck": ["D9", "H6"]})
    actions = ["attack 0 0", "pass", "act_set 0", "count 1"]
    t = play(engine, pos(*start, phase="declare", preset="advanced"), actions)
    assert t.winner == 1 and t.end_type == "straight_flush"
    t = play(engine, pos(*start, phase="declare", preset="advanced", amb={"D-AMB-59": "no"}), actions + ["set H6"])
    assert t.winner == -1 and t.zone("H6", 1) == "back_row"


def test_D_AMB_62_set_boost_same_turn(engine):
    start = ({"monsters": ["S7"], "back_row": [{"card": "D3", "set_turn": 3}]}, {"monsters": ["C2"]})
    assert play(engine, pos(*start, phase="declare"), ["attack 0 0", "pass", "pass"]).legal == ["pass"]
    t = play(engine, pos(*start, phase="declare", amb={"D-AMB-62": "yes"}), ["attack 0 0", "pass", "pass"])
    assert t.legal == ["pass", "boost 0 0", "boost 0 1"]


def test_D_AMB_65_direct_attack_battle_step(engine):
    start = ({"monsters": ["S7"]},)
    assert play(engine, pos(*start, phase="declare"), ["attack 0 5"]).phase == "battle_step"
    t = play(engine, pos(*start, phase="declare", amb={"D-AMB-65": "skipped"}), ["attack 0 5"])
    assert t.hp(1) == 33


# Every reading of the reference is played except the ones the seed rules out (NOT_PLAYABLE): nothing is
# refused as "not implemented yet" any more (D-AMB-60 "k_searches_both" was the last, issue 16 item 2).
NOT_YET = sorted((amb, reading) for amb, (_, readings) in AMBIGUITIES.items()
                 for reading in readings if reading not in IMPLEMENTED[amb] and (amb, reading) not in NOT_PLAYABLE)


def test_every_reading_the_seed_allows_is_implemented():
    assert NOT_YET == []
    assert IMPLEMENTED["D-AMB-60"] == ("own", "k_searches_both")


def test_D_AMB_35_either_player_is_refused_with_the_seed_s_reason():
    with pytest.raises(CardbalanceError, match="not playable: S49 names the attacked player"):
        load_rules("core").with_changes(ambiguities={"D-AMB-35": "either_player"})


def test_D_AMB_08_a_j_target_on_the_chain_is_shown_as_hidden_to_its_user(engine):
    from sim.poker_duel.position import apply_texts, load_position
    m = load_position(pos({"hand": ["HJ"]}, {"back_row": ["DQ"], "monsters": ["C3"]}))
    apply_texts(m, ["act_hand HJ", "target 5"])  # p0's J names p1's face-down slot 0; p1 may answer
    dq = L.card_id(1, 11)
    slot = L.S_CHAIN + L.CH_T0  # the first target of the first chain entry
    assert m.to_array()[slot] == dq  # the engine knows which card it is
    assert m.view(0)[slot] == L.HIDDEN and m.view(1)[slot] == dq


def test_D_AMB_29_D_AMB_30_a_compulsory_attack_is_each_monster_s_first_only(engine):
    start = ({"monsters": ["S5"]}, {"monsters": ["C5"]})
    amb = {"D-AMB-29": "compulsory", "D-AMB-30": "unlimited", "D-AMB-42": "nothing"}
    assert play(engine, pos(*start, phase="declare", amb=amb)).legal == ["attack 0 0"]
    t = play(engine, pos(*start, phase="declare", amb=amb), ["attack 0 0"] + FIGHT)  # a tie: nothing happens
    assert t.phase == "declare" and t.legal == ["pass", "attack 0 0"]  # again is optional: no endless loop
