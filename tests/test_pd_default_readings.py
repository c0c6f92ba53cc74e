"""Poker Duel ambiguities whose default reading had no scenario of its own
(../shared/rules/poker-duel.md §15/§16): one scenario per ID on both engines
for the §16 default, and for each alternative reading built since (the
readings still missing are refused, last test of test_pd_switch_clauses)."""

from tests.pd_harness import engine, new_match, play  # noqa: F401  (engine is a fixture)
from tests.test_pd_switch_clauses import FIGHT, pos


def test_D_AMB_04_boosts_only_in_a_battle_between_monsters(engine):
    start = ({"monsters": ["S7"], "back_row": ["D3"]}, {})
    t = play(engine, pos(*start, phase="declare"), ["attack 0 5", "pass", "pass"])
    assert t.hp(1) == 33 and t.zone("D3", 0) == "back_row"  # a direct attack: no boost offered
    start = ({"monsters": ["S7"], "back_row": ["D3"]}, {"monsters": ["C2"]})
    t = play(engine, pos(*start, phase="declare"), ["attack 0 0", "pass", "pass"])
    assert t.phase == "damage_step" and "boost 0 0" in t.legal


def test_D_AMB_07_no_mulligan(engine):
    t = new_match(engine, seed=11)
    assert (len(t.hand(0)), len(t.hand(1))) == (6, 5)  # five each, the first player's turn-1 draw on top
    assert t.phase == "main" and t.turn == 1 and not any(a.startswith(("reveal", "discard")) for a in t.legal)


def test_D_AMB_11_the_draw_is_mandatory(engine):
    t = play(engine, pos({}, {"hand": [], "deck": ["D2", "D3", "D4"]}), ["pass"])
    assert t.active == 1 and t.phase == "main" and t.hand(1) == ["D3", "D4"] and t.deck_size(1) == 1


def test_D_AMB_15_bump_only_with_five_monsters_and_a_summon(engine):
    four = {"hand": ["S9"], "monsters": ["S2", "S3", "S4", "S5"]}
    assert [a for a in play(engine, pos(four)).legal if a.startswith("summon")] == ["summon S9"]
    five = {"hand": ["HQ"], "monsters": ["S2", "S3", "S4", "S5", "S6"], "deck": ["D2", "D3"]}
    assert not [a for a in play(engine, pos(five)).legal if "bump" in a]  # nothing to summon, no bump


def test_D_AMB_17_hand_summons_only_in_the_main_phase(engine):
    start = ({"monsters": ["S7"], "hand": ["S9"]}, {"monsters": ["C2"]})
    assert "summon S9" in play(engine, pos(*start)).legal
    assert not [a for a in play(engine, pos(*start, phase="declare")).legal if a.startswith("summon")]
    assert play(engine, pos(*start, phase="declare"), ["attack 0 0"]).legal == ["pass"]
    battle = {"D-AMB-17": "hand_in_battle_too"}
    assert "summon S9" in play(engine, pos(*start, phase="declare", amb=battle)).legal
    t = play(engine, pos(*start, phase="declare", amb=battle), ["attack 0 0"] + FIGHT)
    assert t.phase == "declare" and t.legal == ["pass", "summon S9"]  # the phase stays open for the summon
    t = play(engine, pos(*start, phase="declare", amb=battle), ["attack 0 0"] + FIGHT + ["summon S9"])
    assert t.monsters(0)[:2] == ["S7", "S9"] and t.legal == ["pass", "attack 1 5"]
    t = play(engine, pos(*start, phase="declare", amb=battle), ["attack 0 0"] + FIGHT + ["summon S9", "attack 1 5", "pass", "pass"])
    assert t.hp(1) == 40 - 5 - 9
    t = play(engine, pos(*start, phase="declare", amb=battle), ["attack 0 0"] + FIGHT + ["pass"])
    assert t.active == 1


def test_D_AMB_18_a_set_function_card_may_wait(engine):
    start = ({"hand": ["HJ"]}, {"monsters": ["C5"]})
    t = play(engine, pos(*start), ["set HJ"])
    assert t.back_row(0)[0] == "HJ" and "act_set 0" in t.legal and "pass" in t.legal
    t = play(engine, pos(*start), ["set HJ", "pass"])
    assert t.active == 1 and t.zone("HJ", 0) == "back_row" and t.zone("C5", 1) == "monster"


def test_D_AMB_20_no_empty_activations(engine):
    hand = {"hand": ["HJ", "HK", "LJ", "BJ", "HQ"], "deck": ["D2", "D3"]}
    assert sorted(a for a in play(engine, pos(hand)).legal if a.startswith("act_")) == ["act_hand HQ"]
    t = play(engine, pos(hand, {"monsters": ["C5"], "back_row": ["D9"]}))
    assert sorted(a for a in t.legal if a.startswith("act_")) == [
        "act_hand BJ", "act_hand HJ", "act_hand HQ", "act_hand LJ"]  # K: still nothing in the graveyard
    empty = {"D-AMB-20": "yes"}
    t = play(engine, pos(hand, amb=empty))
    assert sorted(a for a in t.legal if a.startswith("act_")) == [
        "act_hand BJ", "act_hand HJ", "act_hand HK", "act_hand HQ", "act_hand LJ"]
    t = play(engine, pos(hand, amb=empty), ["act_hand HK", "act_hand HJ", "act_hand LJ", "act_hand BJ"])
    assert t.uses(0) == [1, 0, 1] and t.graveyard(0) == ["BJ", "HJ", "HK", "LJ"] and t.phase == "main"
    assert t.pending == "none" and t.decider == 0
    t = play(engine, pos({"hand": ["HQ", "SJ"], "deck": []}, {"monsters": ["C5", "C6"]}, amb=empty),
             ["act_hand HQ", "act_hand SJ"])
    assert t.graveyard(0) == ["HQ"] and t.uses(0) == [1, 1, 0] and t.legal == ["target 0", "target 1"]


def test_D_AMB_22_each_k_monster_is_summoned_or_kept_on_its_own(engine):
    start = pos({"hand": ["HK"], "graveyard": ["S9", "S8"]}, uses=[[0, 0, 1], [0, 0, 0]])
    t = play(engine, start, ["act_hand HK", "pick S9", "pick S8", "summon S9", "pass"])
    assert t.monsters(0)[0] == "S9" and "S8" in t.hand(0) and t.graveyard(0) == ["HK"]
    together = {"D-AMB-22": "all_or_none"}
    t = play(engine, start_with(together), ["act_hand HK", "pick S9", "pick S8", "summon S9"])
    assert t.legal == ["summon S8"]  # the first was summoned: so is the second
    t = play(engine, start_with(together), ["act_hand HK", "pick S9", "pick S8", "pass"])
    assert t.legal == ["pass"]  # the first was kept: so is the second
    t = play(engine, start_with(together), ["act_hand HK", "pick S9", "pick S8", "summon S9", "summon S8"])
    assert t.monsters(0)[:2] == ["S9", "S8"] and t.pending == "none"


def start_with(amb):
    return pos({"hand": ["HK"], "graveyard": ["S9", "S8"]}, uses=[[0, 0, 1], [0, 0, 0]], amb=amb)


def test_D_AMB_36_boosts_alternate_turn_player_first(engine):
    start = ({"monsters": ["S7"], "back_row": ["D3"]}, {"monsters": ["C2"], "back_row": ["H4"]})
    t = play(engine, pos(*start, phase="declare"), ["attack 0 0", "pass", "pass"])
    assert t.decider == 0 and t.legal == ["pass", "boost 0 0", "boost 0 1"]
    t = play(engine, pos(*start, phase="declare"), ["attack 0 0", "pass", "pass", "boost 0 0"])
    assert t.decider == 1 and t.boost("S7", 0) == 3 and t.legal == ["pass", "boost 0 0", "boost 0 1"]
    t = play(engine, pos(*start, phase="declare"), ["attack 0 0", "pass", "pass", "boost 0 0", "boost 0 1"])
    assert t.decider == 0 and t.boost("C2", 1) == 4  # after a boost, priority comes back


def test_D_AMB_37_boosts_target_only_the_two_battlers(engine):
    start = ({"monsters": ["S7", "S9", "H2"], "back_row": ["D3"]}, {"monsters": ["C2", "C8"]})
    t = play(engine, pos(*start, phase="declare"), ["attack 0 0", "pass", "pass"])
    assert t.legal == ["pass", "boost 0 0", "boost 0 1"]
    anyone = {"D-AMB-37": "any_monster"}
    t = play(engine, pos(*start, phase="declare", amb=anyone), ["attack 0 0", "pass", "pass"])
    assert t.legal == ["pass", "boost 0 0", "boost 0 1", "boost 0 3", "boost 0 4", "boost 0 8"]  # S9, H2, C8
    t = play(engine, pos(*start, phase="declare", amb=anyone), ["attack 0 0", "pass", "pass", "boost 0 4", "pass", "pass"])
    assert t.boost("H2", 0) == 3 and t.boost("S7", 0) == 0  # D3 on the idle H2 (x1), kept for the battle phase
    assert t.zone("C2", 1) == "graveyard" and t.hp(1) == 35 and t.phase == "declare"


def test_D_AMB_44_hp_is_checked_at_once(engine):
    t = play(engine, pos({"monsters": ["S7", "S9"]}, {"hp": 5}, phase="declare"), ["attack 0 5", "pass", "pass"])
    assert t.hp(1) == -2 and t.winner == 0 and t.end_type == "life" and t.legal == []


def test_D_AMB_44_end_of_step_a_heal_within_the_step_saves(engine):
    start = ({"monsters": ["C9"], "back_row": ["SK"], "graveyard": ["S8"]},
             {"hp": 4, "monsters": ["D2"], "back_row": ["HK"], "graveyard": ["H5"]})
    burn = ["attack 0 0", "act_set 0", "pass", "pick S8", "summon S8"]  # p0's K summons S8: 4 burn in the battle step
    t = play(engine, pos(*start, phase="declare", preset="advanced"), burn)
    assert t.winner == 0 and t.hp(1) == 0  # default: lost at once
    step = {"D-AMB-44": "end_of_step"}
    t = play(engine, pos(*start, phase="declare", preset="advanced", amb=step), burn)
    assert t.winner == -1 and t.hp(1) == 0 and t.phase == "battle_step"
    heal = burn + ["pass", "act_set 0", "pick H5", "summon H5"]  # p1's K summons H5: +5, and redirects
    t = play(engine, pos(*start, phase="declare", preset="advanced", amb=step), heal + ["pass", "pass"])
    assert t.hp(1) == 5 and t.winner == -1 and t.phase == "damage_step"
    t2 = play(engine, pos(*start, phase="declare", preset="advanced", amb=step), burn + ["pass", "pass"])
    assert t2.winner == 0 and t2.end_type == "life"  # no heal: lost when the battle step ends


def test_D_AMB_54_spade_damage_wins_at_once_in_the_main_phase(engine):
    t = play(engine, pos({"hand": ["S7", "S8"]}, {"hp": 4}, preset="advanced"), ["summon S7"])
    assert t.hp(1) == 0 and t.winner == 0 and t.end_type == "life" and t.legal == []
    late = {"D-AMB-54": "end_of_phase"}
    t = play(engine, pos({"hand": ["S7", "S8"]}, {"hp": 4}, preset="advanced", amb=late), ["summon S7"])
    assert t.hp(1) == 0 and t.winner == -1 and t.phase == "main"  # the loss waits for the end of the phase
    t = play(engine, pos({"hand": ["S7", "S8"]}, {"hp": 4}, preset="advanced", amb=late), ["summon S7", "pass"])
    assert t.winner == 0 and t.end_type == "life"
    healed = ({"hand": ["S7", "HJ"]}, {"hp": 4, "monsters": ["C3"], "back_row": ["HK"], "graveyard": ["H5"]})
    actions = ["summon S7", "act_hand HJ", "target 0", "act_set 0", "pick H5", "summon H5"]
    t = play(engine, pos(*healed, preset="advanced", amb=late), actions)
    assert t.hp(1) == 5 and t.zone("C3", 1) == "graveyard" and t.phase == "main" and t.winner == -1
    t = play(engine, pos(*healed, preset="advanced", amb=late), actions + ["pass"])
    assert t.winner == -1 and t.phase == "declare"  # healed in time: no loss at the end of the main phase
    t = play(engine, pos(*healed, preset="advanced"), actions[:1])
    assert t.winner == 0  # by default the burn wins before any response


def test_D_AMB_60_k_searches_only_its_users_graveyard(engine):
    t = play(engine, pos({"hand": ["HK"]}, {"graveyard": ["S9"]}))
    assert "act_hand HK" not in t.legal
    t = play(engine, pos({"hand": ["HK"], "graveyard": ["S3"]}, {"graveyard": ["S9"]}), ["act_hand HK"])
    assert t.legal == ["pick S3"]
    t = play(engine, pos({"hand": ["HJ"]}, {"monsters": ["C5"]}), ["act_hand HJ", "target 0"])
    assert t.graveyard(1) == ["C5"] and t.graveyard(0) == ["HJ"]  # each card to its owner's graveyard


def test_D_AMB_63_the_diamond_extra_attack_is_next_or_lost(engine):
    start = ({"monsters": ["D9", "H8"]}, {"monsters": ["H2", "H3", "H4"]})
    t = play(engine, pos(*start, phase="declare", preset="advanced"), ["attack 0 0"] + FIGHT)
    assert "attack 0 1" in t.legal and "attack 1 1" in t.legal
    t = play(engine, pos(*start, phase="declare", preset="advanced"), ["attack 0 0"] + FIGHT + ["attack 1 1"] + FIGHT)
    assert t.zone("H3", 1) == "graveyard" and not [a for a in t.legal if a.startswith("attack 0")]
    later = {"D-AMB-63": "any_later"}
    t = play(engine, pos(*start, phase="declare", preset="advanced", amb=later), ["attack 0 0"] + FIGHT + ["attack 1 1"] + FIGHT)
    assert t.legal == ["pass", "attack 0 2"]  # the extra attack waited through H8's battle
    t = play(engine, pos(*start, phase="declare", preset="advanced", amb=later),
             ["attack 0 0"] + FIGHT + ["attack 1 1"] + FIGHT + ["attack 0 2"] + FIGHT)
    assert t.zone("H4", 1) == "graveyard" and t.hp(1) == 40 - 7 - 5 - 5 and t.active == 1


def test_D_AMB_64_set_j_q_k_only_in_the_battle_step(engine):
    start = ({"monsters": ["S7"], "back_row": ["DJ"]}, {"monsters": ["C2", "C3"]})
    assert "act_set 0" not in play(engine, pos(*start, phase="declare")).legal
    assert "act_set 0" in play(engine, pos(*start, phase="declare"), ["attack 0 0"]).legal
    t = play(engine, pos(*start, phase="declare"), ["attack 0 0"] + FIGHT)
    assert "act_set 0" not in t.legal  # between attacks: closed again
    anytime = {"D-AMB-64": "any_priority"}
    t = play(engine, pos(*start, phase="declare", amb=anytime), ["act_set 0", "target 0"])
    assert t.zone("C2", 1) == "graveyard" and t.phase == "declare" and t.decider == 0
    assert sorted(t.legal) == ["attack 0 1", "pass"]
    t = play(engine, pos(*start, phase="declare", amb=anytime), ["act_set 0", "target 0", "attack 0 1"] + FIGHT)
    assert t.hp(1) == 36 and t.active == 1
    both = ({"monsters": ["S7", "S9"], "back_row": ["DJ"]}, {"monsters": ["C2", "C3"]})
    t = play(engine, pos(*both, phase="declare", amb=anytime), ["attack 0 0"] + FIGHT)
    assert "act_set 0" in t.legal  # between attacks too
    t = play(engine, pos(*both, phase="declare", amb=anytime), ["attack 0 0"] + FIGHT + ["act_set 0", "target 1"])
    assert t.zone("C3", 1) == "graveyard" and t.legal == ["pass", "attack 1 5"]
