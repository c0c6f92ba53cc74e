"""Novel TCG clause tests: one position per clause, acted on, exact outcome asserted, on both engines
(`tests/tcg_harness.both` compares the reference and the kernel after every action). Characters are
the default balanced curve: "N" is N★ N/N; Blade +3 ATK, Armour +3 HP, Weapon ATK 3, durability 3."""

import pytest

from sim.errors import CardbalanceError
from sim.novel_tcg import layout as L
from sim.novel_tcg.rules import Rules
from tests.tcg_harness import both, front, legal_texts, new_both, play_both, pos


# ---- setup, turn, draw ------------------------------------------------------------------------
def test_T_SETUP_1_T_SETUP_4_T_RANK_2_T_RANK_3_first_seat_and_hp_from_rank():
    for first in (0, 1):
        match, _, _ = new_both(Rules(), ranks=(10, 4), first=first, seed=3)
        assert match.active == first and match.first == first
        assert [d.hp for d in match.duelists] == [150, 60]       # 15 x rank, ranks differ (T-AMB-09)


def test_T_RANK_1_ranks_run_from_1_to_20():
    from sim.novel_tcg.card_pool import build_deck
    for rank in (1, 20):
        assert len(build_deck(Rules(), "curve", rank)) == Rules().numbers["deck_size"]
    for rank in (0, 21):
        with pytest.raises(CardbalanceError, match="rank must be an integer from 1 to 20"):
            build_deck(Rules(), "curve", rank)


def test_T_SETUP_2_T_PHASE_4_first_player_skips_the_first_draw_T_SETUP_5_opening_hand():
    match, _, _ = new_both(Rules(), first=1, seed=4)
    assert sum(match.duelists[1].hand) == 5 and sum(match.duelists[0].hand) == 5
    match, _, _ = new_both(Rules().with_changes(p1_skip_draw=0), first=1, seed=4)
    assert sum(match.duelists[1].hand) == 6


def test_T_PHASE_3_second_player_draws_on_turn_2():
    match = both(pos(phase="battle", turn=1, me={"deck": ["3"]}, them={"deck": ["4", "5"]}), ["end"])
    assert match.turn == 2 and match.active == 1 and match.duelists[1].hand[4] == 1  # top card = last listed


def test_T_SETUP_3_no_attack_on_turn_1_and_switch_off():
    base = dict(me={"front": front("5")}, them={"front": front("3")})
    assert legal_texts(both(pos(turn=1, **base))) == ["end"]
    assert "attack 0 0" in legal_texts(both(pos(rules={"p1_no_attack": 0}, turn=1, **base)))


def test_T_PHASE_1_action_then_battle_then_end():
    match = both(pos(phase="action", me={"hand": ["3"]}, them={"deck": ["1"]}), ["summon 2 attack", "end"])
    assert match.phase == L.PH_BATTLE
    match = both(pos(phase="action", me={"hand": ["3"]}, them={"deck": ["1"]}), ["summon 2 attack", "end", "end"])
    assert match.active == 1 and match.phase == L.PH_ACTION


def test_T_PHASE_12_hand_limit_discard_down_to_ten():
    hand = ["1"] * 8 + ["2", "3", "4", "blade"]
    match = both(pos(me={"hand": hand}, them={"deck": ["1"]}), ["end"])
    assert match.phase == L.PH_DISCARD and "discard 60" in legal_texts(match)
    match = both(pos(me={"hand": hand}, them={"deck": ["1"]}), ["end", "discard 60", "discard 0"])
    assert sum(match.duelists[0].hand) == 10 and match.duelists[0].graveyard == 2 and match.active == 1


def test_T_AMB_07_empty_deck_lose_skip_fatigue():
    start = pos(me={"deck": []}, them={"deck": []})
    match = both(start, ["end"])
    assert match.over and match.winner == 0 and match.end_type == L.END_DECK_OUT
    match = both({**start, "rules": {"ambiguities": {"T-AMB-07": "skip"}}}, ["end"])
    assert not match.over and match.duelists[1].hp == 150
    match = both({**start, "rules": {"ambiguities": {"T-AMB-07": "fatigue"}}}, ["end", "end", "end", "end"])
    assert [d.fatigue for d in match.duelists] == [1, 1] and match.duelists[0].hp == 149


def test_T_AMB_69_turn_cap_draw():
    match = both(pos(rules={"turn_cap": 3}, me={"deck": ["1"]}, them={"deck": ["1"]}), ["end"])
    assert match.over and match.winner == L.DRAW and match.end_type == L.END_TURN_CAP


# ---- summoning ------------------------------------------------------------------------------
def test_T_SUMMON_1_T_PHASE_6_one_normal_summon_per_action_phase():
    match = both(pos(phase="action", me={"hand": ["3", "4"]}), ["summon 2 attack"])
    assert not [t for t in legal_texts(match) if t.startswith("summon")]


def test_T_SUMMON_2_free_cap_and_limit_T_LIMIT_1_T_AMB_46():
    match = both(pos(phase="action", me={"rank": 3, "hand": ["5", "6", "7"]}))
    assert [t for t in legal_texts(match) if t.startswith("summon")] == ["summon 4 attack", "summon 4 set"]  # 5★ <= 3+2
    match = both(pos(rules={"summon_limit_offset": 3}, phase="action", me={"rank": 3, "hand": ["6"]}))
    assert "summon 5 attack" in legal_texts(match)                                 # loose reading: rank + 3
    match = both(pos(rules={"ambiguities": {"T-AMB-46": "off"}}, phase="action", me={"rank": 1, "hand": ["6"]}))
    assert "summon 5 attack" in legal_texts(match)


def test_T_AMB_80_free_summon_ignores_limit_both_readings():
    start = dict(phase="action", me={"rank": 1, "hand": ["6"]})
    assert "summon 5 attack" not in legal_texts(both(pos(**start)))
    assert "summon 5 attack" in legal_texts(both(pos(rules={"ambiguities": {"T-AMB-80": "yes"}}, **start)))


def test_T_LIMIT_2_T_WIN_1_T_AMB_49_over_limit_summon_loses():
    start = dict(phase="action", me={"rank": 1, "hand": ["6"]})
    match = both(pos(rules={"ambiguities": {"T-AMB-49": "loses"}}, **start), ["summon 5 attack"])
    assert match.over and match.winner == 1 and match.end_type == L.END_LIMIT


def test_T_SUMMON_3_T_SUMMON_4_T_SUMMON_5_T_SUMMON_6_advance_summon_exact_sum_bases_to_graveyard():
    me = {"rank": 15, "hand": ["17"], "front": front("5", "6", "6", "4")}
    match = both(pos(phase="action", me=me), ["advance 16 attack"])
    cards = [(slot, match.star(c.kind)) for slot, c in match.duelists[0].characters()]
    assert sorted(star for _, star in cards) == [4, 17]            # 5 + 6 + 6 = 17 left, the 4★ stays
    assert match.duelists[0].graveyard == 3
    assert match.counters[L.C_ADVANCE - L.G_SIZE] == 1 and match.counters[L.C_BASES - L.G_SIZE] == 3


def test_T_AMB_37_tribute_rule_readings():
    me = {"hand": ["9"], "front": front("5", "6")}                # 11 != 9
    assert "advance 8 attack" not in legal_texts(both(pos(phase="action", me=me)))
    assert "advance 8 attack" in legal_texts(both(pos(rules={"ambiguities": {"T-AMB-37": "sum_at_least"}},
                                                        phase="action", me=me)))
    me = {"hand": ["9"], "front": front("1", "1")}
    assert "advance 8 attack" in legal_texts(both(pos(rules={"ambiguities": {"T-AMB-37": "count_only"}},
                                                        phase="action", me=me)))


def test_T_AMB_38_min_bases():
    me = {"hand": ["7"], "front": front("7", "1")}
    match = both(pos(rules={"min_bases": 1}, phase="action", me=me), ["advance 6 attack"])
    assert sorted(match.star(c.kind) for _, c in match.duelists[0].characters()) == [1, 7]  # one 7★ base


def test_T_AMB_89_canonical_bases_both_readings():
    me = {"rank": 11, "hand": ["13"], "front": front("12", "1", "6", "6")}
    match = both(pos(phase="action", me=me), ["advance 12 attack"])
    assert sorted(match.star(c.kind) for _, c in match.duelists[0].characters()) == [12, 13]  # 6+6+1 paid
    match = both(pos(rules={"ambiguities": {"T-AMB-89": "fewest_bases_first"}}, phase="action", me=me),
                 ["advance 12 attack"])
    assert sorted(match.star(c.kind) for _, c in match.duelists[0].characters()) == [6, 6, 13]  # 12+1 paid


def test_T_AMB_89_most_damaged_base_first():
    me = {"hand": ["8"], "front": [{"slot": 0, "card": "4"}, {"slot": 1, "card": "4", "hp": 1},
                                   {"slot": 2, "card": "4"}]}
    match = both(pos(phase="action", me=me), ["advance 7 attack"])
    assert match.duelists[0].front[2] is not None and match.duelists[0].front[0].kind == 7  # slots 0 and 1 paid


def test_T_AMB_82_advance_with_full_row():
    me = {"hand": ["12"], "front": front("6", "6", "1", "1", "1", "1", "1")}
    assert "advance 11 attack" not in legal_texts(both(pos(phase="action", me=me)))
    match = both(pos(rules={"ambiguities": {"T-AMB-82": "yes"}}, phase="action", me=me), ["advance 11 attack"])
    assert match.duelists[0].front[0].kind == 11


def test_T_ZONE_12_full_front_row_blocks_summons():
    me = {"hand": ["2"], "front": front("1", "1", "1", "1", "1", "1", "1")}
    assert not [t for t in legal_texts(both(pos(phase="action", me=me))) if t.startswith("summon")]


def test_T_AMB_20_set_uses_normal_summon_both_readings():
    me = {"hand": ["2", "3"]}
    match = both(pos(phase="action", me=me), ["summon 1 set"])
    assert not [t for t in legal_texts(match) if t.startswith("summon")]
    match = both(pos(rules={"ambiguities": {"T-AMB-20": "no"}}, phase="action", me=me), ["summon 1 set"])
    assert [t for t in legal_texts(match) if t.startswith("summon")] == ["summon 2 attack"]


def test_T_AMB_21_advance_set_both_readings():
    me = {"hand": ["7"], "front": front("6", "1")}
    assert "advance 6 set" in legal_texts(both(pos(phase="action", me=me)))
    assert "advance 6 set" not in legal_texts(both(pos(rules={"ambiguities": {"T-AMB-21": "no"}}, phase="action", me=me)))


def test_T_AMB_41_normal_summon_positions():
    assert "summon 1 defense" not in legal_texts(both(pos(phase="action", me={"hand": ["2"]})))
    assert "summon 1 defense" in legal_texts(both(pos(rules={"ambiguities": {"T-AMB-41": "also_defense"}},
                                                        phase="action", me={"hand": ["2"]})))


def test_T_AMB_47_limit_applies_to_sets():
    me = {"rank": 1, "hand": ["5"]}
    assert "summon 4 set" not in legal_texts(both(pos(phase="action", me=me)))
    assert "summon 4 set" in legal_texts(both(pos(rules={"ambiguities": {"T-AMB-47": "summons_only"}},
                                                    phase="action", me=me)))


def test_T_AMB_73_face_down_bases_and_equipment():
    me = {"hand": ["7", "blade"], "front": front("6", "1", position="set")}
    texts = legal_texts(both(pos(phase="action", me=me)))
    assert "advance 6 attack" in texts and "equip 60 0" in texts
    texts = legal_texts(both(pos(rules={"ambiguities": {"T-AMB-73": "face_up_attack_only"}}, phase="action", me=me)))
    assert "advance 6 attack" not in texts and "equip 60 0" not in texts


# ---- positions ------------------------------------------------------------------------------
def test_T_POS_1_T_POS_2_one_change_per_phase_not_on_summon_turn():
    me = {"front": [{"slot": 0, "card": "4"}, {"slot": 1, "card": "4", "summoned": 3}]}
    match = both(pos(phase="action", me=me))
    assert [t for t in legal_texts(match) if t.startswith("change")] == ["change 0 defense"]
    match = both(pos(phase="action", me=me), ["change 0 defense"])
    assert not [t for t in legal_texts(match) if t.startswith("change")]


def test_T_POS_4_T_POS_3_defense_may_not_attack():
    me = {"front": front("4", position="defense")}
    assert legal_texts(both(pos(me=me, them={"front": front("1")}))) == ["end"]


def test_T_POS_9_T_AMB_70_flip_uses_the_change():
    me = {"front": front("4", position="set")}
    match = both(pos(phase="action", me=me))
    assert [t for t in legal_texts(match) if t.startswith("change")] == ["change 0 attack", "change 0 defense"]
    assert not [t for t in legal_texts(both(pos(phase="action", me=me), ["change 0 attack"])) if t.startswith("change")]
    match = both(pos(rules={"ambiguities": {"T-AMB-70": "no"}}, phase="action", me=me), ["change 0 attack"])
    assert [t for t in legal_texts(match) if t.startswith("change")] == ["change 0 defense"]


def test_T_AMB_88_change_to_face_down():
    me = {"front": front("4")}
    assert "change 0 set" not in legal_texts(both(pos(phase="action", me=me)))
    assert "change 0 set" in legal_texts(both(pos(rules={"ambiguities": {"T-AMB-88": "yes"}}, phase="action", me=me)))


def test_T_POS_8_face_down_flips_to_defense_when_attacked_T_POS_5_no_overflow():
    match = both(pos(me={"front": front("10")}, them={"front": front("4", position="set")}), ["attack 0 0"])
    assert match.duelists[1].front[0] is None and match.duelists[1].hp == 150   # 40 damage, no overflow
    assert match.last_battle[1] == 0                                            # 4 - 30 floored at 0


def test_T_POS_5_defense_blocks_overflow_switch():
    start = dict(me={"front": front("10")}, them={"front": front("4", position="defense")})
    assert both(pos(**start), ["attack 0 0"]).duelists[1].hp == 150
    assert both(pos(rules={"defense_blocks_overflow": 0}, **start), ["attack 0 0"]).duelists[1].hp == 150 - 36


# ---- battle ---------------------------------------------------------------------------------
def test_T_BATTLE_1_T_PHASE_9_each_character_attacks_once():
    match = both(pos(me={"front": front("10", "10")}, them={"front": front("1", "1")}), ["attack 0 0"])
    assert [t for t in legal_texts(match) if t.startswith("attack 0")] == []
    assert "attack 1 1" in legal_texts(match)


def test_T_BATTLE_2_zero_atk_character_may_attack_T_AMB_56():
    rules = {"atk_base": -3.0}                 # 1-3★ print ATK 0
    match = both(pos(rules=rules, me={"front": front("3")}, them={"front": front("1")}), ["attack 0 0"])
    assert match.last_battle[0] == 10                               # 0-ATK 3★ deals 0 + 5x2 (T-AMB-56 yes)
    rules = {"atk_base": -3.0, "ambiguities": {"T-AMB-56": "no"}}
    match = both(pos(rules=rules, me={"front": front("3")}, them={"front": front("1")}), ["attack 0 0"])
    assert match.last_battle[0] == 0


def test_T_BATTLE_3_T_AMB_64_person_needs_atk_and_may_attack():
    them = {"front": front("2")}
    assert not [t for t in legal_texts(both(pos(them=them))) if "person" in t]
    match = both(pos(me={"weapon": 3}, them=them), ["attack person 0"])
    assert match.duelists[1].front[0] is None                     # 3 damage to a 2/2, no star modifier
    assert match.duelists[0].hp == 150 - 2 and match.duelists[0].weapon_durability == 2  # hit back 2
    assert match.duelists[1].hp == 150 - 1                        # its overflow 1 (attack position)
    assert not [t for t in legal_texts(both(pos(rules={"ambiguities": {"T-AMB-64": "never"}}, me={"weapon": 3},
                                                 them=them))) if "person" in t]


def test_T_BATTLE_5_T_AMB_58_attacker_overflow_both_readings():
    start = dict(me={"front": front("3")}, them={"front": front("5")})
    assert both(pos(**start), ["attack 0 0"]).duelists[0].hp == 150 - 12   # 5 + 10 into a 3/3
    assert both(pos(rules={"ambiguities": {"T-AMB-58": "no"}}, **start), ["attack 0 0"]).duelists[0].hp == 150
    assert both(pos(rules={"overflow": 0}, **start), ["attack 0 0"]).duelists[0].hp == 150


def test_T_BATTLE_9_T_ZONE_14_direct_attack_only_on_an_empty_front_row_T_AMB_63():
    assert "attack 0 person" not in legal_texts(both(pos(me={"front": front("4")}, them={"front": front("1", position="set")})))
    assert "attack 0 person" in legal_texts(both(pos(rules={"ambiguities": {"T-AMB-63": "no"}}, me={"front": front("4")},
                                                     them={"front": front("1", position="set")})))


def test_T_BATTLE_10_T_BATTLE_11_T_BATTLE_12_direct_attack_and_hit_back_T_EQUIP_8():
    match = both(pos(me={"front": front("8")}, them={"weapon": 2}), ["attack 0 person"])
    assert match.duelists[1].hp == 150 - 8                       # ATK, no star bonus for the person
    assert match.duelists[0].front[0].hp == 8 - 3                # the person hits back with ATK 3
    assert match.duelists[1].weapon_durability == 2              # a defending weapon spends nothing


def test_T_AMB_87_hit_back_overflow_both_readings():
    start = dict(me={"front": front("1")}, them={"weapon": 2})
    assert both(pos(**start), ["attack 0 person"]).duelists[0].hp == 150 - 2
    assert both(pos(rules={"ambiguities": {"T-AMB-87": "no"}}, **start), ["attack 0 person"]).duelists[0].hp == 150


def test_T_AMB_86_person_hits_back_person():
    start = dict(me={"weapon": 3}, them={"weapon": 3})
    match = both(pos(**start), ["attack person person"])
    assert [d.hp for d in match.duelists] == [147, 147]
    match = both(pos(rules={"ambiguities": {"T-AMB-86": "no"}}, **start), ["attack person person"])
    assert [d.hp for d in match.duelists] == [150, 147]


def test_T_BATTLE_14_simultaneous_damage_T_WIN_2_T_AMB_59_double_ko():
    start = dict(me={"hp": 5, "front": front("10")}, them={"hp": 5, "front": front("10")})
    match = both(pos(**start), ["attack 0 0"])
    assert match.duelists[0].front[0] is None and match.duelists[1].front[0] is None
    match = both(pos(me={"hp": 3, "front": front("6")}, them={"hp": 3, "weapon": 1}),
                 ["attack 0 person"])
    assert match.over and match.winner == 0 and match.end_type == L.END_HP


def test_T_AMB_59_double_ko_readings():
    start = dict(me={"hp": 2, "front": front("1")}, them={"hp": 1, "weapon": 3})
    match = both(pos(**start), ["attack 0 person"])              # 1 to them, 3 back: overflow 2 to me
    assert match.over and match.winner == L.DRAW and match.end_type == L.END_DOUBLE_KO
    match = both(pos(rules={"ambiguities": {"T-AMB-59": "turn_player_loses"}}, **start), ["attack 0 person"])
    assert match.over and match.winner == 1


def test_T_AMB_68_hp_check_end_of_turn():
    start = dict(me={"front": front("9")}, them={"hp": 5, "deck": ["1"]})
    match = both(pos(rules={"ambiguities": {"T-AMB-68": "end_of_turn"}}, **start), ["attack 0 person"])
    assert not match.over and match.duelists[1].hp == -4
    match = both(pos(rules={"ambiguities": {"T-AMB-68": "end_of_turn"}}, **start), ["attack 0 person", "end"])
    assert match.over and match.winner == 0


def test_T_AMB_26_damage_persists_or_resets():
    flat = {"star_mod": 0}
    match = both(pos(rules=flat, me={"front": front("10")}, them={"front": front("5"), "deck": ["1"]}),
                 ["attack 0 0", "end"])
    assert match.duelists[0].front[0].hp == 5
    match = both(pos(rules={**flat, "ambiguities": {"T-AMB-26": "reset_each_turn"}}, me={"front": front("10")},
                     them={"front": front("5"), "deck": ["1"]}), ["attack 0 0", "end"])
    assert match.duelists[0].front[0].hp == 10


def test_T_AMB_54_T_AMB_55_damage_floor_none_heals():
    rules = {"ambiguities": {"T-AMB-55": "none"}}
    match = both(pos(rules=rules, me={"front": [{"slot": 0, "card": "10", "hp": 4}]}, them={"front": front("2")}),
                 ["attack 0 0"])
    assert match.duelists[0].front[0].hp == 10        # 2 - 40 = -38 heals, capped at the printed 10 (T-AMB-27)


def test_T_AMB_57_modifier_against_defense():
    start = dict(me={"front": front("6")}, them={"front": front("4", position="defense")})
    assert both(pos(**start), ["attack 0 0"]).last_battle[:2] == (16, 0)
    assert both(pos(rules={"ambiguities": {"T-AMB-57": "no"}}, **start), ["attack 0 0"]).last_battle[:2] == (6, 4)


def test_T_AMB_60_defense_hits_back():
    start = dict(me={"front": front("4")}, them={"front": front("6", position="defense")})
    assert both(pos(**start), ["attack 0 0"]).last_battle[1] == 16
    assert both(pos(rules={"ambiguities": {"T-AMB-60": "no"}}, **start), ["attack 0 0"]).last_battle[1] == 0


def test_T_AMB_61_summoning_sickness():
    me = {"front": front("4", summoned=3)}
    assert "attack 0 person" in legal_texts(both(pos(me=me)))
    assert "attack 0 person" not in legal_texts(both(pos(rules={"ambiguities": {"T-AMB-61": "yes"}}, me=me)))


def test_T_AMB_62_attack_targets():
    start = dict(me={"front": front("4")}, them={"front": [{"slot": 0, "card": "1", "position": "defense"},
                                                         {"slot": 1, "card": "1"}]})
    assert [t for t in legal_texts(both(pos(**start))) if t.startswith("attack")] == ["attack 0 0", "attack 0 1"]
    assert [t for t in legal_texts(both(pos(rules={"ambiguities": {"T-AMB-62": "attack_position_only"}}, **start)))
            if t.startswith("attack")] == ["attack 0 1"]


# ---- equipment ------------------------------------------------------------------------------
def test_T_EQUIP_1_T_EQUIP_2_blade_and_armour_take_back_row_slots_T_ZONE_9():
    me = {"hand": ["blade", "armour"], "front": front("4")}
    match = both(pos(phase="action", me=me), ["equip 60 0", "equip 61 0"])
    c = match.duelists[0].front[0]
    assert (match.atk(c), c.hp, match.max_hp(c)) == (7, 7, 7)
    assert sum(e is not None for e in match.duelists[0].back) == 2
    full = {"rules": {"back_slots": 1}}
    match = both({**pos(phase="action", me=me), **full}, ["equip 60 0"])
    assert not [t for t in legal_texts(match) if t.startswith("equip")]


def test_T_EQUIP_3_T_AMB_15_weapon_on_the_person_replaces_the_old():
    match = both(pos(phase="action", me={"hand": ["weapon"], "weapon": 1}), ["equip 62 person"])
    assert match.duelists[0].weapon_durability == 3 and match.duelists[0].graveyard == 1


def test_T_EQUIP_4_T_EQUIP_5_T_EQUIP_7_T_AMB_81_durability_and_the_last_point():
    start = dict(me={"front": front("4"), "back": [{"card": "blade", "host": 0, "durability": 1}]},
                 them={"hp": 150})
    match = both(pos(**start), ["attack 0 person"])
    assert match.duelists[1].hp == 150 - 7 and match.duelists[0].back[0] is None   # leaves after the damage
    match = both(pos(rules={"ambiguities": {"T-AMB-81": "no"}}, **start), ["attack 0 person"])
    assert match.duelists[1].hp == 150 - 4                                          # left before the damage


def test_T_AMB_34_durability_when_attacked():
    start = dict(me={"front": front("8")},
                 them={"front": front("2"), "back": [{"card": "armour", "host": 0, "durability": 3}]})
    assert both(pos(**start), ["attack 0 0"]).duelists[1].graveyard == 2     # character and its Armour (T-AMB-32)
    start["them"]["front"] = front("2", position="defense")
    start["me"]["front"] = front("1")
    match = both(pos(rules={"ambiguities": {"T-AMB-34": "also_when_attacked"}}, **start), ["attack 0 0"])
    assert match.duelists[1].back[0].durability == 2
    assert both(pos(**start), ["attack 0 0"]).duelists[1].back[0].durability == 3


def test_T_AMB_33_armour_leaving_caps_or_subtracts():
    me = {"front": [{"slot": 0, "card": "6", "hp": 7}], "back": [{"card": "armour", "host": 0, "durability": 1}]}
    start = dict(me=me, them={"hp": 150})
    assert both(pos(**start), ["attack 0 person"]).duelists[0].front[0].hp == 6     # min(7, 6)
    assert both(pos(rules={"ambiguities": {"T-AMB-33": "subtract"}}, **start),
                ["attack 0 person"]).duelists[0].front[0].hp == 4                  # 7 - 3


def test_T_AMB_36_one_equipment_per_character():
    me = {"hand": ["blade", "armour"], "front": front("4")}
    match = both(pos(rules={"ambiguities": {"T-AMB-36": "one"}}, phase="action", me=me), ["equip 60 0"])
    assert not [t for t in legal_texts(match) if t.startswith("equip")]


# ---- rules file errors ------------------------------------------------------------------------
@pytest.mark.parametrize("changes,needle", [
    ({"star_mod": -1}, "'star_mod' must be an integer from 0 to 30"),
    ({"atk_slope": -1.0}, "'atk_slope' must be a number from 0 to 50"),
    ({"ambiguities": {"T-AMB-54": "R3"}}, "must be one of R2, R1"),
])
def test_bad_rules_one_line(changes, needle):
    with pytest.raises(CardbalanceError) as error:
        Rules().with_changes(**changes)
    assert needle in str(error.value) and "\n" not in str(error.value)


def test_random_matches_end_on_both_engines_default():
    for seed in range(5):
        assert play_both(Rules(), (10, 10), ("advance", "swarm"), seed % 2, seed).over
