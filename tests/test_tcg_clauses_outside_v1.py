"""Novel TCG: the clauses and ambiguities outside v1 (`rules.OUTSIDE_V1`), each named by a test that asserts
what the engine does instead, on both engines where a match is involved. Random matches are walked by
`tcg_harness.walk_both`, which compares the reference and the kernel after every action and lets a test
check an invariant of every step: magic, traps, effects, special summons or a banished zone would each
break one of them. The docs list the same IDs and sentences (`test_outside_v1_list_in_the_docs`)."""

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from sim.errors import CardbalanceError
from sim.novel_tcg import actions as A
from sim.novel_tcg import layout as L
from sim.novel_tcg.card_pool import (CAT_ARMOUR, CAT_BLADE, CAT_CHARACTER, CAT_WEAPON, F_ATK, F_CATEGORY, F_HP,
                                     KIND_ARMOUR, KIND_BLADE, TEMPLATES, build_deck, character_kind, pool_table)
from sim.novel_tcg.position import match_from_position
from sim.novel_tcg.rules import OUTSIDE_V1, Rules, load_rules, rules_from_mapping
from tests.tcg_harness import both, front, legal_texts, new_both, pos, walk_both

DOCS = Path(__file__).resolve().parents[1] / "docs" / "novel-tcg.md"


def refused(*ids):
    """Each ambiguity, and its §16 switch name as a rules key, is refused in one line saying 'outside v1'."""
    for amb_id in ids:
        switch, sentence = OUTSIDE_V1[amb_id]
        for table in ({"ambiguities": {amb_id: "other"}}, {switch: "other"}):
            with pytest.raises(CardbalanceError) as error:
                rules_from_mapping(table, "rules file")
            text = str(error.value)
            assert "outside v1" in text and amb_id in text and "\n" not in text, text
            assert sentence.rstrip(".") in text


def seat_value(packed, seat, field):
    return int(packed[L.seat_base(seat) + field])


def characters_in(packed, seat):
    return sum(packed[L.front_slot(seat, slot) + L.F_KIND] != L.NONE for slot in range(L.MAX_FRONT))


def walk(check, presets=("default", "alternatives"), seeds=(1, 2), templates=(("advance", "swarm"), ("curve", "curve"))):
    """Walk random matches on both engines with `check` after every action; -> the number of steps checked."""
    steps = [0]

    def counted(before, match, action, legal):
        steps[0] += 1
        check(before, match, action, legal)
    for preset in presets:
        for seed in seeds:
            for pair in templates:
                assert walk_both(load_rules(preset), seed, pair, check=counted).over
    return steps[0]


# ---- no magic, no traps, no set back-row cards ------------------------------------------------------
def test_T_MAGIC_1_T_MAGIC_2_T_MAGIC_3_T_MAGIC_4_T_MAGIC_5_T_TRAP_1_T_TRAP_2_T_TRAP_3_no_magic_or_trap_cards():
    categories = Counter(int(c) for c in pool_table(Rules())[:, F_CATEGORY])
    assert categories == {CAT_CHARACTER: 60, CAT_BLADE: 1, CAT_ARMOUR: 1, CAT_WEAPON: 1}
    for card in ("magic", "field magic", "trap"):
        with pytest.raises(CardbalanceError, match="must be a star 1-20 with an optional shape"):
            match_from_position(pos(me={"hand": [card]}))
    with pytest.raises(CardbalanceError, match="only blade or armour go to the back row"):
        match_from_position(pos(me={"front": front("4"), "back": [{"card": "weapon", "host": 0}]}))


def test_T_TERM_1_T_AMB_19_T_AMB_29_T_AMB_30_T_AMB_77_set_cards_refused_and_a_rules_file_too(tmp_path):
    refused("T-AMB-19", "T-AMB-29", "T-AMB-30", "T-AMB-77")
    # through the command line: one line, exit code 2 (a position whose rules ask for a set-magic window)
    path = tmp_path / "magic.json"
    path.write_text(json.dumps({"rules": {"set_magic_window": "opponent_turn_only"}}))
    result = subprocess.run([sys.executable, "-m", "sim", "scenario", "--game", "novel_tcg", str(path)],
                            capture_output=True, text=True)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert "'set_magic_window' (T-AMB-19) is outside v1" in result.stderr


def test_T_PHASE_7_T_AMB_85_equipment_is_attached_face_up_any_number_per_phase():
    me = {"hand": ["blade", "blade", "armour"], "front": front("4")}
    match = both(pos(phase="action", me=me), ["equip 60 0", "equip 60 0", "equip 61 0"])
    me_after = match.duelists[0]
    assert [e.kind for e in me_after.back[:3]] == [KIND_BLADE, KIND_BLADE, KIND_ARMOUR]
    assert match.atk(me_after.front[0]) == 4 + 6 and me_after.front[0].hp == 4 + 3  # in force at once: face-up
    refused("T-AMB-85")


def test_T_ZONE_4_T_ZONE_5_T_ZONE_6_T_ZONE_7_T_ZONE_8_T_AMB_10_T_AMB_11_T_AMB_12_T_AMB_13_T_AMB_14_cards_stay_in_six_zones():
    """Every card is always in the deck, the hand, the front row, the back row (Blades and Armours only),
    the person zone or the graveyard: the banished and field-magic zones hold nothing, every step."""
    def check(before, match, action, legal):
        for duelist in match.duelists:
            held = (len(duelist.deck) + sum(duelist.hand) + len(duelist.characters())
                    + sum(e is not None for e in duelist.back) + (duelist.weapon != L.NONE) + duelist.graveyard)
            assert held == match.rules.numbers["deck_size"]
            assert {e.kind for e in duelist.back if e is not None} <= {KIND_BLADE, KIND_ARMOUR}
    assert walk(check) > 500
    refused("T-AMB-10", "T-AMB-11", "T-AMB-12", "T-AMB-13", "T-AMB-14")


# ---- no effect windows ---------------------------------------------------------------------------
PHASE_FAMILIES = {L.PH_ACTION: {A.A_END, A.A_SUMMON, A.A_ADVANCE, A.A_EQUIP, A.A_EQUIP_OPPONENT, A.A_CHANGE},
                  L.PH_BATTLE: {A.A_END, A.A_ATTACK}, L.PH_DISCARD: {A.A_DISCARD}}


def test_T_PHASE_2_T_PHASE_5_T_PHASE_8_T_PHASE_11_T_PHASE_13_T_AMB_17_no_effect_windows():
    """Every legal list holds only the families of its phase; Start and Draw have no decision at all."""
    def check(before, match, action, legal):
        families = {A.decode(a)[0] for a in legal}
        phase = int(before[L.S_PHASE])
        allowed = set(PHASE_FAMILIES[phase])
        if phase == L.PH_BATTLE and match.rules.reading("T-AMB-71") == "any_own_phase":
            allowed.add(A.A_CHANGE)
        if phase == L.PH_BATTLE and match.rules.reading("T-AMB-24") == "sets_also_in_battle":
            allowed |= {A.A_SUMMON, A.A_ADVANCE}
        assert families <= allowed
    assert walk(check) > 500
    match = both(pos(them={"deck": ["1", "2"]}), ["end"])     # End -> the next Start and Draw -> its Action phase
    assert (match.turn, match.active, match.phase, sum(match.duelists[1].hand)) == (4, 1, L.PH_ACTION, 1)
    refused("T-AMB-17")


def test_T_PHASE_10_T_AMB_66_no_extra_attacks():
    match = both(pos(me={"front": front("10")}, them={"front": front("1", "1")}), ["attack 0 0"])
    assert legal_texts(match) == ["end"]                      # the second 1★ is safe: one attack each
    refused("T-AMB-66")


def test_T_POS_7_a_face_down_character_only_waits_to_be_flipped():
    start = dict(me={"front": front("5", position="set")}, them={"front": front("1")})
    assert legal_texts(both(pos(phase="action", **start))) == ["end", "change 0 attack", "change 0 defense"]
    assert legal_texts(both(pos(phase="battle", **start))) == ["end"]


# ---- no special summons, no rule-changing cards ----------------------------------------------------
def test_T_SUMMON_7_T_SUMMON_8_T_SUMMON_9_T_AMB_42_T_AMB_43_T_AMB_44_T_AMB_45_characters_enter_only_by_summons():
    """No step but a summon adds a character to a front row, and deck cards only ever reach the hand."""
    def check(before, match, action, legal):
        family = A.decode(action)[0]
        for seat, duelist in enumerate(match.duelists):
            grown = len(duelist.characters()) - characters_in(before, seat)
            if family in (A.A_SUMMON, A.A_ADVANCE) and seat == int(before[L.S_ACTIVE]):
                assert grown <= 1
            else:
                assert grown <= 0
            drawn = seat_value(before, seat, L.P_DECK_COUNT) - len(duelist.deck)
            assert drawn in (0, 1)
            if drawn:
                assert sum(duelist.hand) == seat_value(before, seat, L.P_HAND_COUNT) + 1
    assert walk(check) > 500
    # a summoned character may not change position in its summoning turn (the T-AMB-44 default, T-POS-2)
    match = both(pos(phase="action", me={"hand": ["3"]}), ["summon 2 attack"])
    assert not [t for t in legal_texts(match) if t.startswith("change")]
    refused("T-AMB-42", "T-AMB-43", "T-AMB-44", "T-AMB-45")


def test_T_AMB_40_an_advance_summon_always_succeeds():
    match = both(pos(phase="action", me={"hand": ["7"], "front": front("6", "1")}), ["advance 6 attack"])
    assert [match.star(c.kind) for _, c in match.duelists[0].characters()] == [7] and match.duelists[0].graveyard == 2
    refused("T-AMB-40")


def test_T_LIMIT_3_T_GEN_2_T_AMB_01_nothing_moves_the_summon_limit():
    me = {"rank": 10, "hand": ["12", "13"], "front": front("6", "6", "1"), "deck": ["1", "1"]}
    start = pos(phase="action", me=me, them={"deck": ["1", "1"]})
    advances = [t for t in legal_texts(both(start)) if t.startswith("advance")]
    assert advances == ["advance 11 attack", "advance 11 set"]           # 12★ = 10 + 2; 13★ never
    later = both(start, ["end", "end", "end", "end"])                   # two turns on: the same ceiling
    assert later.turn == 5 and [t for t in legal_texts(later) if t.startswith("advance")] == advances
    refused("T-AMB-01")


def test_T_CHAR_4_T_AMB_28_high_star_characters_have_exactly_the_curve_stats():
    table = pool_table(Rules())
    for star in range(15, 21):
        assert (table[character_kind(star), F_ATK], table[character_kind(star), F_HP]) == (star, star)
    match = both(pos(me={"hp": 500, "front": front("20")}, them={"hp": 500, "front": front("20")}), ["attack 0 0"])
    assert match.last_battle[:2] == (20, 20)                             # no effect adds to the printed 20
    refused("T-AMB-28")


# ---- durability, draws, damage ---------------------------------------------------------------------
def test_T_EQUIP_6_only_attacks_spend_durability():
    """Walked: no step but an attack lowers a durability; and a Blade keeps its 3 through two idle turns."""
    def check(before, match, action, legal):
        if A.decode(action)[0] in (A.A_ATTACK, A.A_EQUIP):
            return
        for seat, duelist in enumerate(match.duelists):
            for slot, equipment in enumerate(duelist.back):
                at = L.back_slot(seat, slot)
                if equipment is not None and before[at + L.B_KIND] == equipment.kind:
                    assert equipment.durability == before[at + L.B_DUR]
            if duelist.weapon != L.NONE:
                assert duelist.weapon_durability == seat_value(before, seat, L.P_WEAPON_DUR)
    assert walk(check) > 500
    me = {"front": front("4"), "back": [{"card": "blade", "host": 0}], "deck": ["1"]}
    match = both(pos(me=me, them={"deck": ["1"]}), ["end", "end", "end", "end"])    # own turn 5, Battle phase
    assert (match.turn, match.phase, match.duelists[0].back[0].durability) == (5, L.PH_BATTLE, 3)
    match = both(pos(me=me, them={"deck": ["1"]}), ["end", "end", "end", "end", "attack 0 person"])
    assert match.duelists[0].back[0].durability == 2 and match.duelists[1].hp == 150 - 7


def test_T_AMB_06_the_draw_is_mandatory():
    match = both(pos(them={"deck": ["1", "2"]}), ["end"])   # drawn with no decision to decline it
    assert sum(match.duelists[1].hand) == 1 and len(match.duelists[1].deck) == 1
    match = both(pos(them={"deck": []}), ["end"])            # an empty deck cannot be declined: deck-out
    assert match.over and match.winner == 0 and match.end_type == L.END_DECK_OUT
    refused("T-AMB-06")


def test_T_AMB_79_the_first_player_draws_nothing_on_turn_1():
    for first in (0, 1):
        match, _, _ = new_both(Rules(), first=first, seed=11)
        assert match.turn == 1 and sum(match.duelists[first].hand) == 5
        match.apply(A.A_END)
        match.apply(A.A_END)                                  # turn 1 over: the other seat draws its first card
        assert sum(match.duelists[first].hand) <= 5 and sum(match.duelists[1 - first].hand) == 6

    def check(before, match, action, legal):
        if match.turn == 1:
            assert sum(match.duelists[match.first].hand) <= match.rules.numbers["opening_hand"]
    walk(check, presets=("default",))
    refused("T-AMB-79")


def test_T_AMB_03_no_mulligan_the_opening_hand_is_the_deck_top():
    rules = Rules()
    decks = [build_deck(rules, t, 10).tolist() for t in ("advance", "swarm")]
    from sim.novel_tcg.reference import Match
    shuffled = Match(rules.with_changes(opening_hand=0, p1_skip_draw=1), (10, 10), [list(d) for d in decks], 1, 21)
    match, state, _ = new_both(rules, templates=("advance", "swarm"), first=1, seed=21)
    order = [d.deck for d in shuffled.duelists]               # the same shuffle, nothing drawn
    for seat in (0, 1):
        assert Counter({k: n for k, n in enumerate(match.duelists[seat].hand) if n}) == Counter(order[seat][-5:])
        assert match.duelists[seat].deck == order[seat][:-5]
    assert (match.turn, match.active, match.phase) == (1, 1, L.PH_ACTION)   # the first decision is the Action phase
    refused("T-AMB-03")


def test_T_AMB_52_T_AMB_83_duelist_hp_only_falls_and_only_through_battle_and_fatigue():
    """Walked: a duelist's HP never rises, and every point lost is one of the battle or fatigue counters."""
    sources = [c - L.G_SIZE for c in (L.C_DMG_OVERFLOW, L.C_DMG_DIRECT, L.C_DMG_PERSON, L.C_DMG_HITBACK,
                                      L.C_DMG_FATIGUE)]

    def check(before, match, action, legal):
        for seat, duelist in enumerate(match.duelists):
            assert duelist.hp <= seat_value(before, seat, L.P_HP)
        assert sum(d.hp_start - d.hp for d in match.duelists) == sum(match.counters[i] for i in sources)
    walk(check, presets=("default", "alternatives", "stall"))
    refused("T-AMB-52", "T-AMB-83")


# ---- rarity, copies, casual decks, tags --------------------------------------------------------------
def test_T_DECK_1_T_DECK_2_T_DECK_3_T_AMB_75_T_AMB_76_no_rarity_copy_limit_off_by_default():
    deck = build_deck(Rules(), "swarm", 10)
    most = max(Counter(deck.tolist()).values())
    assert most > 3                                            # no 3-copy limit by default
    assert len(build_deck(Rules().with_changes(copy_limit=most), "swarm", 10)) == 60
    with pytest.raises(CardbalanceError, match="above copy_limit %d" % (most - 1)):
        build_deck(Rules().with_changes(copy_limit=most - 1), "swarm", 10)
    refused("T-AMB-75", "T-AMB-76")


def test_T_AMB_74_no_casual_decks_every_deck_is_deck_size_at_every_rank():
    for template in TEMPLATES:
        assert {len(build_deck(Rules(), template, rank)) for rank in range(1, 21)} == {60}
    refused("T-AMB-74")


def test_T_TERM_3_T_TERM_4_T_AMB_78_no_aura_or_wording():
    for card in ("10 king", "10 trade"):                      # a card is stars and a shape, nothing more
        with pytest.raises(CardbalanceError, match="must be a star 1-20 with an optional shape"):
            match_from_position(pos(me={"hand": [card]}))
    refused("T-AMB-78")


def test_T_AMB_18_equipment_is_played_in_the_own_action_phase_only():
    start = dict(me={"hand": ["blade", "weapon"], "front": front("4")}, them={"front": front("1")})
    assert [t for t in legal_texts(both(pos(phase="action", **start))) if t.startswith("equip")] == [
        "equip 60 0", "equip 62 person"]
    assert not [t for t in legal_texts(both(pos(phase="battle", **start))) if t.startswith("equip")]
    refused("T-AMB-18")


# ---- the docs list every ID here with its sentence -------------------------------------------------------
def test_outside_v1_list_in_the_docs():
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("## Outside v1: what the engine does instead", 1)[1].split("\n## ", 1)[0]
    listed = dict(line[4:].split("**: ", 1) for line in section.splitlines() if line.startswith("- **"))
    assert listed == {amb_id: sentence for amb_id, (_, sentence) in OUTSIDE_V1.items()}


def test_v1_ambiguities_without_a_switch_listed_in_the_docs():
    from sim.novel_tcg.rules import FIXED_IN_V1, INERT_IN_V1
    section = DOCS.read_text(encoding="utf-8").split("## v1 ambiguities without a switch", 1)[1].split("\n## ", 1)[0]
    listed = dict(line[2:].split(": ", 1) for line in section.splitlines() if line.startswith("- T-AMB-"))
    assert listed == {amb_id: why + "." for amb_id, why in {**INERT_IN_V1, **FIXED_IN_V1}.items()}
