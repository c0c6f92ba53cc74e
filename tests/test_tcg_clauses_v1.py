"""Novel TCG clause tests, v1 scope, second file: the clauses and ambiguities of issue 26 part 5 that the
first file (`test_tcg_clauses.py`) did not name. Each test sets up a position (or a new match), acts, and
asserts the exact outcome on both engines (`tests/tcg_harness.both` compares the reference and the kernel
after every action). Ambiguities with a v1 number are tested at both readings; those without a switch
(`rules.INERT_IN_V1`: no v1 match tells the readings apart; `rules.FIXED_IN_V1`: the other reading is not
built) assert the default behaviour and the one-line refusal of a rules file that asks for the other.
Characters are the default balanced curve: "N" is N★ N/N; Blade +3 ATK, Armour +3 HP, Weapon ATK 3, d = 3."""

import numpy as np
import pytest

from sim.errors import CardbalanceError
from sim.novel_tcg import layout as L
from sim.novel_tcg.card_pool import TEMPLATES, build_deck, character_kind, kind_name, pool_table
from sim.novel_tcg.position import match_from_position
from sim.novel_tcg.rules import Rules, rules_from_mapping
from tests.tcg_harness import both, front, legal_texts, new_both, pos


def hp_and_hand_on_both(rules, ranks=(10, 10), first=0, seed=5):
    """(HPs, hand sizes, deck sizes) of a new match, asserted equal on both engines."""
    match, state, _ = new_both(rules, ranks=ranks, first=first, seed=seed)
    assert np.array_equal(match.pack(), state)
    seat = [L.seat_base(s) for s in (0, 1)]
    assert [state[b + L.P_HP] for b in seat] == [d.hp for d in match.duelists]
    return ([d.hp for d in match.duelists], [sum(d.hand) for d in match.duelists],
            [len(d.deck) for d in match.duelists])


def refused(amb_id: str, needle: str):
    """A rules table naming `amb_id` is refused in one line that gives the reason."""
    with pytest.raises(CardbalanceError) as error:
        rules_from_mapping({"ambiguities": {amb_id: "other"}}, "rules file")
    text = str(error.value)
    assert "'%s'" % amb_id in text and needle in text and "\n" not in text, text


# ---- general, setup, deck -----------------------------------------------------------------------
def test_T_GEN_1_T_AMB_02_gaps_take_the_defaults_opening_hand_both_readings():
    # the seed is silent on the opening hand: the §16 default 5 each, from a 60-card deck
    assert hp_and_hand_on_both(Rules()) == ([150, 150], [5, 5], [55, 55])
    assert hp_and_hand_on_both(Rules().with_changes(opening_hand=3)) == ([150, 150], [3, 3], [57, 57])


def test_T_AMB_04_the_first_seat_is_a_sweep_dimension_both_seats_played():
    from sim.novel_tcg.game import FIRST
    assert tuple(FIRST.default) == (0, 1)                      # a default sweep plays each seat first equally
    for first in (0, 1):
        match, state, _ = new_both(Rules(), first=first, seed=9)
        assert match.active == first and state[L.S_ACTIVE] == first and state[L.S_FIRST] == first
    refused("T-AMB-04", "a sweep plays both seats equally")


def test_T_AMB_05_turn_1_forbids_character_and_person_attacks():
    start = dict(me={"front": front("5"), "weapon": 3}, them={"front": front("3")})
    assert legal_texts(both(pos(turn=1, **start))) == ["end"]          # neither the character nor the person
    texts = legal_texts(both(pos(rules={"p1_no_attack": 0}, turn=1, **start)))
    assert "attack 0 0" in texts and "attack person 0" in texts
    refused("T-AMB-05", "'no attacks' and 'no Battle phase' coincide")


def test_T_DECK_4_T_AMB_08_every_deck_has_exactly_deck_size_cards_both_readings():
    for template in TEMPLATES:
        assert len(build_deck(Rules(), template, 10)) == 60
        assert len(build_deck(Rules().with_changes(deck_size=80), template, 10)) == 80  # "at least 60": a bigger deck
    assert hp_and_hand_on_both(Rules().with_changes(deck_size=80))[2] == [75, 75]


def test_T_RANK_4_T_AMB_50_T_AMB_51_hp_per_rank_and_offset_both_readings():
    assert hp_and_hand_on_both(Rules(), ranks=(10, 4))[0] == [150, 60]                       # 15 x rank
    assert hp_and_hand_on_both(Rules().with_changes(hp_per_rank=10), ranks=(10, 4))[0] == [100, 40]
    assert hp_and_hand_on_both(Rules().with_changes(hp_offset=-20), ranks=(10, 4))[0] == [130, 40]  # fluctuation
    assert hp_and_hand_on_both(Rules().with_changes(hp_offset=-100), ranks=(1, 4))[0] == [1, 1]     # at least 1


def test_T_AMB_35_person_base_atk_both_readings():
    assert legal_texts(both(pos())) == ["end"]                 # ATK 0: the person may not attack (T-BATTLE-3)
    match = both(pos(rules={"person_base_atk": 2}), ["attack person person"])
    assert [d.hp for d in match.duelists] == [148, 148]       # 2 dealt, 2 hit back (T-AMB-86)


# ---- zones ---------------------------------------------------------------------------------------
def test_T_ZONE_2_T_ZONE_15_the_draw_takes_the_deck_top_into_the_hand():
    match = both(pos(them={"deck": ["1", "2", "3"]}), ["end"])  # seat 1 draws at the start of turn 4
    them = match.duelists[1]
    assert match.turn == 4 and them.hand[character_kind(3)] == 1 and sum(them.hand) == 1
    assert [match.star(k) for k in them.deck] == [1, 2]         # the deck keeps the rest, top last


def test_T_CHAR_1_T_ZONE_11_characters_are_summoned_or_set_into_the_front_row():
    match = both(pos(phase="action", me={"hand": ["4", "5"]}), ["summon 3 attack"])
    me = match.duelists[0]
    assert match.star(me.front[0].kind) == 4 and me.front[0].position == L.POS_ATTACK and me.front[0].summoned == 3
    assert sum(me.hand) == 1
    match = both(pos(phase="action", me={"hand": ["5"], "front": front("2")}), ["summon 4 set"])
    assert match.duelists[0].front[1].position == L.POS_FACEDOWN and match.star(match.duelists[0].front[1].kind) == 5


def test_T_CHAR_2_T_CHAR_3_stars_atk_hp_and_the_notation():
    table = pool_table(Rules())
    assert kind_name(table, character_kind(10)) == "10★ balanced 10/10"
    assert kind_name(table, character_kind(10, 1)) == "10★ aggressive 14/6"        # ATK x 1.4, HP x 0.6
    match = both(pos(rules={"star_mod": 0}, me={"front": front("10 aggressive")}, them={"front": front("10")}),
                 ["attack 0 0"])
    assert match.last_battle[:4] == (14, 10, -4, -4)           # each deals its printed ATK: 10 - 14, 6 - 10
    assert [d.hp for d in match.duelists] == [146, 146]        # both overflow 4


def test_T_CHAR_5_T_ZONE_3_damage_lowers_hp_a_defeated_character_goes_to_the_graveyard():
    match = both(pos(rules={"star_mod": 0}, me={"front": front("4")}, them={"front": front("5")}), ["attack 0 0"])
    me, them = match.duelists
    assert me.front[0] is None and me.graveyard == 1 and me.hp == 150 - 1     # 4 - 5 = -1: defeated, overflow 1
    assert them.front[0].hp == 1 and them.graveyard == 0                      # 5 - 4 = 1: stays, damaged


def test_T_ZONE_10_a_full_back_row_blocks_blade_and_armour_not_the_weapon():
    me = {"front": front("4"), "back": [{"card": "blade", "host": 0}], "hand": ["armour", "weapon"]}
    match = both(pos(rules={"back_slots": 1}, phase="action", me=me))
    assert [t for t in legal_texts(match) if t.startswith("equip")] == ["equip 62 person"]
    match = both(pos(rules={"back_slots": 2}, phase="action", me=me))
    assert [t for t in legal_texts(match) if t.startswith("equip")] == ["equip 61 0", "equip 62 person"]


def test_T_ZONE_13_the_person_equips_a_weapon_and_attacks_with_it():
    match = both(pos(phase="action", me={"hand": ["weapon"]}), ["equip 62 person", "end"])
    assert legal_texts(match) == ["end", "attack person person"]
    match = both(pos(phase="action", me={"hand": ["weapon"]}), ["equip 62 person", "end", "attack person person"])
    assert match.duelists[1].hp == 147 and match.duelists[0].weapon_durability == 2


# ---- the Action phase ----------------------------------------------------------------------------
def test_T_AMB_23_action_phase_actions_in_any_order_or_summon_set_activate():
    me = {"hand": ["4", "blade"], "front": front("3")}
    for actions in (["equip 60 0", "change 0 defense", "summon 3 attack"],
                    ["summon 3 attack", "equip 60 1", "change 0 defense"],
                    ["change 0 defense", "summon 3 attack", "equip 60 0"]):
        match = both(pos(phase="action", me=me), actions)
        assert sorted(match.star(c.kind) for _, c in match.duelists[0].characters()) == [3, 4]
        assert match.duelists[0].front[0].position == L.POS_DEFENSE
    # "summon_set_activate": equipment closes summons and sets; a set closes face-up summons
    fixed = {"ambiguities": {"T-AMB-23": "summon_set_activate"}}
    match = both(pos(rules=fixed, phase="action", me=me), ["equip 60 0"])
    assert not [t for t in legal_texts(match) if t.startswith("summon")] and "change 0 defense" in legal_texts(match)
    match = both(pos(rules=fixed, phase="action", me=me), ["change 0 defense", "summon 3 attack", "equip 60 1"])
    assert match.summons_used == L.USED_SUMMON | L.USED_SET | L.ORDER_ACTIVATE
    own_set = {"ambiguities": {"T-AMB-23": "summon_set_activate", "T-AMB-20": "no"}}
    two = {"hand": ["4", "5"], "front": front("3")}
    assert "summon 4 attack" in legal_texts(both(pos(rules={"ambiguities": {"T-AMB-20": "no"}}, phase="action", me=two),
                                                 ["summon 3 set"]))
    assert [t for t in legal_texts(both(pos(rules=own_set, phase="action", me=two), ["summon 3 set"]))
            if t.startswith("summon")] == []                                     # a set, then no summon


def test_T_AMB_24_sets_in_the_action_phase_only_or_also_in_battle():
    start = dict(me={"hand": ["3", "7"], "front": front("4", "3")}, them={"front": front("1")})
    assert legal_texts(both(pos(phase="battle", **start))) == ["end", "attack 0 0", "attack 1 0"]
    assert "summon 2 set" in legal_texts(both(pos(phase="action", **start)))
    # "sets_also_in_battle": face-down sets (not face-up summons) in the Battle phase, advance sets included
    battle = {"ambiguities": {"T-AMB-24": "sets_also_in_battle"}}
    assert legal_texts(both(pos(rules=battle, phase="battle", **start))) == [
        "end", "summon 2 set", "advance 6 set", "attack 0 0", "attack 1 0"]      # 7 = 4 + 3
    match = both(pos(rules=battle, phase="battle", **start), ["attack 0 0", "summon 2 set"])
    assert match.duelists[0].front[2].position == L.POS_FACEDOWN and match.duelists[0].front[2].summoned == 3
    assert legal_texts(match) == ["end", "attack 1 person"]                      # the one allowance is used
    used = both(pos(rules=battle, phase="action", **start), ["summon 2 attack", "end"])
    assert not [t for t in legal_texts(used) if t.endswith("set")]               # used in the Action phase


def test_T_AMB_25_stars_run_from_1_to_20():
    with pytest.raises(CardbalanceError, match="must be a star 1-20"):
        match_from_position(pos(me={"hand": ["21"]}))
    me = {"rank": 18, "hand": ["20"], "front": front("6", "6", "6", "2")}
    match = both(pos(phase="action", me=me), ["advance 19 attack"])          # 6 + 6 + 6 + 2 = 20 (the cap)
    assert [match.star(c.kind) for _, c in match.duelists[0].characters()] == [20]
    refused("T-AMB-25", "the pool holds stars 1 to 20")


HAND_BASES = {"ambiguities": {"T-AMB-39": "also_hand"}}
OPPONENT_EQUIP = {"ambiguities": {"T-AMB-31": "true"}}


def equip_texts(match) -> list[str]:
    return [t for t in legal_texts(match) if t.startswith("equip")]


def test_T_AMB_31_T_EQUIP_1_equipment_targets_both_readings():
    start = dict(phase="action", me={"hand": ["blade"], "front": front("4")}, them={"front": front("5", "5")})
    assert equip_texts(both(pos(**start))) == ["equip 60 0"]                        # own characters only
    assert equip_texts(both(pos(rules=OPPONENT_EQUIP, **start))) == ["equip 60 0", "equip 60 opponent 0",
                                                                     "equip 60 opponent 1"]
    match = both(pos(rules=OPPONENT_EQUIP, **start), ["equip 60 opponent 1"])
    blade, host = match.duelists[0].back[0], match.duelists[1].front[1]
    assert (blade.kind, blade.host, blade.on_opponent, blade.durability) == (60, 1, True, 3)  # our slot, their host
    assert (host.atk_bonus, host.equips, match.atk(host)) == (3, 1, 8)                # 5 + 3
    assert match.pack()[L.back_slot(0, 0) + L.B_HOST] == L.HOST_OPPONENT + 1


def test_T_AMB_31_T_EQUIP_5_T_EQUIP_7_the_host_spends_our_durability_both_readings():
    # their 5★ carries our Blade (durability 1) and attacks our 4★: 5 + 3 = 8 ATK, + 5 x (5 - 4) = 13 on 4 HP,
    # overflow 9 to us (150 -> 141); the last point still counts (T-AMB-81), then the Blade goes to OUR graveyard
    me = {"front": front("4")}
    them = {"front": front("5")}
    carried = dict(me, back=[{"slot": 0, "card": "blade", "host": 0, "on_opponent": True, "durability": 1}])
    match = both(pos(rules=OPPONENT_EQUIP, active=1, me=carried, them=them), ["attack 0 0"])
    assert match.duelists[0].hp == 141 and match.duelists[0].front[0] is None
    assert match.duelists[0].back[0] is None and match.duelists[0].graveyard == 2     # the 4★ and the Blade
    assert (match.duelists[1].front[0].atk_bonus, match.duelists[1].front[0].equips) == (0, 0)
    match = both(pos(active=1, me=me, them=them), ["attack 0 0"])                      # default: 5 + 5 on 4 HP
    assert match.duelists[0].hp == 144 and match.duelists[0].graveyard == 1
    with pytest.raises(CardbalanceError, match="'on_opponent' needs ambiguities.T-AMB-31"):
        match_from_position(pos(active=1, me=carried, them=them))


def test_T_AMB_31_T_AMB_32_equipment_leaves_with_its_opposing_host():
    # our 9★ attacks their 2★ (2 HP now, 5 at most with our Armour): 9 + 5 x 7 = 44, overflow 42 (150 -> 108);
    # the Armour goes to OUR graveyard with its host, and our back-row slot is free again
    them = {"front": front("2")}
    me = {"front": front("9"), "back": [{"slot": 0, "card": "armour", "host": 0, "on_opponent": True}]}
    match = both(pos(rules=OPPONENT_EQUIP, me=me, them=them), ["attack 0 0"])
    assert match.duelists[1].hp == 108 and match.duelists[1].front[0] is None and match.duelists[1].graveyard == 1
    assert match.duelists[0].back[0] is None and match.duelists[0].graveyard == 1
    match = both(pos(me={"front": front("9")}, them=them), ["attack 0 0"])             # default: no Armour anywhere
    assert match.duelists[1].hp == 108 and match.duelists[0].graveyard == 0


def test_T_AMB_39_T_SUMMON_3_bases_from_the_hand_both_readings():
    # 6 on the field + 1 in the hand sum to 7: a base only under "also_hand"
    start = dict(phase="action", me={"hand": ["7", "1"], "front": front("6")})
    assert "advance 6 attack" not in legal_texts(both(pos(**start)))
    match = both(pos(rules=HAND_BASES, **start), ["advance 6 attack"])
    me = match.duelists[0]
    assert [match.star(c.kind) for _, c in me.characters()] == [7] and me.front[0].kind == 6
    assert sum(me.hand) == 0 and me.graveyard == 2                                     # both bases (T-SUMMON-4)
    assert match.counters[L.C_BASES - L.G_SIZE] == 2 and match.counters[L.C_ADVANCE - L.G_SIZE] == 1
    # front-row bases only: the same in both readings
    start = dict(phase="action", me={"hand": ["7"], "front": front("6", "1")})
    for rules in ({}, HAND_BASES):
        assert "advance 6 attack" in legal_texts(both(pos(rules=rules, **start)))


def test_T_AMB_39_T_AMB_89_canonical_bases_with_the_hand():
    # 8★ from a 4★ on the field and two 4★ in the hand: 4 + 4 either way (T-AMB-89 (a) ties), then the fewest
    # front-row bases: both 4★ from the hand, the field's 4★ stays
    match = both(pos(rules=HAND_BASES, phase="action", me={"hand": ["8", "4", "4"], "front": front("4")}),
                 ["advance 7 attack"])
    me = match.duelists[0]
    assert sorted(match.star(c.kind) for _, c in me.characters()) == [4, 8] and sum(me.hand) == 0
    # a 12★ from 6 + 6: one of the hand's 6★ and one front-row 6★ (fewest front-row bases), slot 0 first
    match = both(pos(rules=HAND_BASES, phase="action", me={"hand": ["12", "6"], "front": front("6", "6")}),
                 ["advance 11 attack"])
    me = match.duelists[0]
    assert sorted(match.star(c.kind) for _, c in me.characters()) == [6, 12] and me.front[0] is not None
    assert match.duelists[0].front[0].kind == 11 and sum(me.hand) == 0                # slot 0 paid (lowest slot)
    # T-AMB-89 (a) first: the smallest largest base wins over keeping the field (5 + 1 + 1 beats 6 + 1)
    match = both(pos(rules=HAND_BASES, phase="action", me={"hand": ["7", "6", "1"], "front": front("5", "1")}),
                 ["advance 6 attack"])
    me = match.duelists[0]
    assert [match.star(c.kind) for _, c in me.characters()] == [7] and me.hand[5] == 1  # the hand's 6★ kept


def test_T_AMB_39_T_AMB_82_hand_bases_free_no_slot():
    # a full front row: under T-AMB-82 "yes" the target takes a front-row base's slot; bases from the hand
    # only would free none, so the canonical set must hold a front-row base
    full = front("6", "6", "2", "2", "2", "2", "2")
    switches = {"ambiguities": {"T-AMB-39": "also_hand", "T-AMB-82": "yes"}}
    match = both(pos(rules=switches, phase="action", me={"hand": ["12", "6", "6"], "front": full}))
    assert "advance 11 attack" not in legal_texts(match)                                # 6 + 6 from the hand
    match = both(pos(rules=switches, phase="action", me={"hand": ["12", "6"], "front": full}), ["advance 11 attack"])
    assert match.duelists[0].front[0].kind == 11 and sum(match.duelists[0].hand) == 0


def test_T_AMB_31_T_AMB_39_rules_files_and_positions_accept_the_switches(tmp_path):
    from sim.novel_tcg.rules import load_rules
    path = tmp_path / "rules.toml"
    path.write_text('[ambiguities]\n"T-AMB-31" = "true"\n"T-AMB-39" = "also_hand"\n')
    rules = load_rules(str(path))
    assert (rules.equip_opponent_chars, rules.bases_from) == ("true", "also_hand")
    assert rules.differences_from_default() == {"T-AMB-31": "true", "T-AMB-39": "also_hand"}
    match = match_from_position(pos(rules={"ambiguities": {"T-AMB-31": "true", "T-AMB-39": "also_hand"}}))
    assert match.rules == rules


@pytest.mark.parametrize("amb_id,switch", [("T-AMB-31", "equip_opponent_chars"), ("T-AMB-39", "bases_from")])
def test_T_AMB_31_T_AMB_39_bad_reading_refused_in_one_line(amb_id, switch):
    from sim.novel_tcg.rules import AMBIGUITIES
    with pytest.raises(CardbalanceError) as error:
        rules_from_mapping({"ambiguities": {amb_id: "maybe"}}, "rules file")
    text = str(error.value)
    assert amb_id in text and switch in text and ", ".join(AMBIGUITIES[amb_id][1]) in text and "\n" not in text
    with pytest.raises(CardbalanceError, match="position rules: ambiguities.%s" % amb_id):
        match_from_position(pos(rules={"ambiguities": {amb_id: "maybe"}}))


def test_T_AMB_53_rank_and_stars_share_one_scale():
    # the limit compares rank and stars directly: rank 4 reaches 6★ (4 + 2), rank 3 stops at 5★
    assert "summon 5 attack" in legal_texts(both(pos(phase="action", me={"rank": 4, "hand": ["6"]})))
    assert "summon 5 attack" not in legal_texts(both(pos(phase="action", me={"rank": 3, "hand": ["6"]})))
    refused("T-AMB-53", "rank and stars share one scale")


def test_T_AMB_48_the_limit_is_checked_at_the_summon_only():
    # a 15★ already on the field of a rank-1 duelist (far above its ceiling 3) fights on; no loss
    match = both(pos(me={"rank": 1, "front": front("15")}, them={"front": front("1")}), ["attack 0 0"])
    assert not match.over and match.end_type == L.END_NONE
    assert match.duelists[1].front[0] is None and match.duelists[1].hp == 150 - 84   # 15 + 70 into a 1/1
    refused("T-AMB-48", "'at summon' and 'continuously' coincide")


# ---- positions -----------------------------------------------------------------------------------
def test_T_TERM_2_T_AMB_72_a_set_character_is_first_flipped_in_the_controllers_next_turn():
    start = pos(phase="action", me={"hand": ["4"], "deck": ["1"]}, them={"deck": ["1"]})
    match = both(start, ["summon 3 set"])
    assert not [t for t in legal_texts(match) if t.startswith("change")]              # not in its set turn
    match = both(start, ["summon 3 set", "end", "end"])                                # the opponent's turn 4
    assert match.active == 1 and not [t for t in legal_texts(match) if t.startswith("change")]
    match = both(start, ["summon 3 set", "end", "end", "end", "end"])                  # own turn 5
    assert match.turn == 5 and [t for t in legal_texts(match) if t.startswith("change")] == [
        "change 0 attack", "change 0 defense"]
    refused("T-AMB-72", "the controller acts only in their own turn")


def test_T_AMB_71_position_changes_in_the_action_phase_or_any_own_phase():
    start = dict(me={"front": front("4", "6")}, them={"front": front("1")})
    assert "change 0 defense" in legal_texts(both(pos(phase="action", **start)))
    assert legal_texts(both(pos(phase="battle", **start))) == ["end", "attack 0 0", "attack 1 0"]
    # "any_own_phase": the Battle phase lists changes too, still once per turn and never on the summoning turn
    anywhere = {"ambiguities": {"T-AMB-71": "any_own_phase"}}
    match = both(pos(rules=anywhere, phase="battle", **start), ["attack 0 0", "change 0 defense"])
    assert match.duelists[0].front[0].position == L.POS_DEFENSE                  # attacked, then defends
    assert legal_texts(match) == ["end", "change 1 defense", "attack 1 person"]  # the 1★ is gone; slot 1 unchanged
    assert legal_texts(both(pos(rules=anywhere, phase="battle", turn=1, **start))) == [
        "end", "change 0 defense", "change 1 defense"]                          # turn 1: no attack, changes yes
    match = both(pos(rules=anywhere, phase="action", me={"hand": ["3"], "front": front("4")}), ["summon 2 attack", "end"])
    assert [t for t in legal_texts(match) if t.startswith("change")] == ["change 0 defense"]  # not the new 3★


def test_T_POS_6_T_AMB_84_the_opponent_cannot_see_a_face_down_character():
    from strategies.novel_tcg.policies import HIDDEN, nb_view
    match = both(pos(phase="action", me={"front": [{"slot": 0, "card": "9", "position": "set"},
                                                   {"slot": 1, "card": "4"}]}, active=0))
    state = match.pack()
    view = np.zeros_like(state)
    nb_view(state, 1, view)                                   # seat 1's view of seat 0's row
    assert view[L.front_slot(0, 0) + L.F_KIND] == HIDDEN and view[L.front_slot(0, 0) + L.F_HP_NOW] == 0
    assert view[L.front_slot(0, 1) + L.F_KIND] == character_kind(4)     # a face-up character is seen
    nb_view(state, 0, view)
    assert view[L.front_slot(0, 0) + L.F_KIND] == character_kind(9)     # its controller sees it


def test_T_AMB_67_an_attacked_face_down_character_turns_face_up_defense_before_damage():
    match = both(pos(me={"front": front("1")}, them={"front": front("4", position="set")}), ["attack 0 0"])
    defender = match.duelists[1].front[0]
    assert defender.position == L.POS_DEFENSE and defender.hp == 4          # 1 - 15 floored at 0
    assert match.duelists[0].front[0] is None and match.duelists[0].hp == 150 - 18  # took 4 + 15: overflow 18
    refused("T-AMB-67", "flipping at declaration or after damage coincide")


# ---- battle --------------------------------------------------------------------------------------
def test_T_BATTLE_13_the_person_attacks_a_character_without_star_modifier():
    match = both(pos(me={"weapon": 3}, them={"front": front("10")}), ["attack person 0"])
    assert match.duelists[1].front[0].hp == 10 - 3            # ATK 3, no star bonus or penalty
    assert match.duelists[0].hp == 150 - 10                   # the character hits back with its ATK
    assert match.duelists[0].weapon_durability == 2


def test_T_AMB_65_a_target_lost_before_damage_ends_the_attack_which_counts():
    # under T-AMB-34 (b), 81 (b) and 33 (b) an attacked character's last Armour point leaves before damage
    # and takes its 3 HP with it: the defender at 3 HP is defeated before the battle
    rules = {"ambiguities": {"T-AMB-34": "also_when_attacked", "T-AMB-81": "no", "T-AMB-33": "subtract"}}
    them = {"front": [{"slot": 0, "card": "2", "hp": 3}], "back": [{"card": "armour", "host": 0, "durability": 1}]}
    match = both(pos(rules=rules, me={"front": front("8")}, them=them), ["attack 0 0"])
    assert match.duelists[1].front[0] is None and match.duelists[1].graveyard == 2
    assert match.duelists[0].front[0].hp == 8 and [d.hp for d in match.duelists] == [150, 150]   # no damage at all
    assert legal_texts(match) == ["end"]                      # no re-target: the attack counted
    refused("T-AMB-65", "the attack ends and counts")
