"""Scenario tests for the base clauses of Faction War (issue 2).

Each test sets up a position, acts, and asserts the exact outcome; the clause
ID is in the test name. Every test runs on both engines (`engine` fixture).
"""

import pytest

from scenario_harness import engine, new_match_table, play  # noqa: F401  (fixture)
from sim.faction_war.rules import Rules


def position(p0=None, p1=None, **top):
    """A small position: defaults for everything the test does not care about."""
    base = {"turn": 3, "active": 0, "phase": "placement",
            "players": [dict({"life": 50}, **(p0 or {})), dict({"life": 50}, **(p1 or {}))]}
    base.update(top)
    return base


# ---- F-CARD / F-SET: the deck and the set-up ------------------------------------------

def test_F_CARD_1_F_SET_3_one_pack_each_and_five_card_opening_hands(engine):
    table = new_match_table(engine, Rules(), first=1, seed=11)
    # F-SET-3: five each; the first player (p1) then drew two (F-TURN-3, FA-2 "draw").
    assert table.hand_size(1) == 7 and table.hand_size(0) == 5
    assert table.deck_size(1) == 54 - 7 and table.deck_size(0) == 54 - 5
    assert table.zone("BJ", 0)[0] in ("deck", "hand") and table.zone("LJ", 1)[0] in ("deck", "hand")
    assert table.zone("D7#2", 0) == ("none", 0)  # F-CARD-1 / FA-34 "one": no second pack


def test_FA_34_two_packs_give_108_cards_each(engine):
    table = new_match_table(engine, Rules().with_changes(ambiguities={"FA-34": "two"}), seed=3)
    assert table.deck_size(0) + table.hand_size(0) == 108
    assert table.zone("D7#2", 1)[0] in ("deck", "hand")


def test_F_SET_1_F_SET_2_lives_and_first_player_are_match_parameters(engine):
    table = new_match_table(engine, Rules(), life0=30, life1=100, first=1, seed=5)
    assert (table.life(0), table.life(1)) == (30, 100)
    assert table.active == 1 and table.turn == 1 and table.phase == "placement"


def test_F_SET_4_first_player_cannot_attack_on_turn_1(engine):
    pos = position(p0={"rows": [["D9"], [], []]}, p1={"rows": [["D2"], [], []]}, turn=1, phase="attack")
    assert play(engine, pos).legal() == ["end"]
    pos["turn"] = 2  # the second player's first turn may attack
    pos["active"] = 0
    assert "attack row1 row1" in play(engine, pos).legal()


def test_FA_2_skip_first_draw(engine):
    table = new_match_table(engine, Rules().with_changes(ambiguities={"FA-2": "skip"}), first=0, seed=5)
    assert table.hand_size(0) == 5


# ---- F-TURN: the turn ---------------------------------------------------------------

def test_F_TURN_1_end_placement_then_attack_then_opponent_turn(engine):
    pos = position(p0={"hand": ["D5"]}, p1={"deck": ["S2", "S3"]}, actions=["end"])
    table = play(engine, pos)
    assert table.phase == "attack" and table.active == 0
    pos["actions"] = ["end", "end"]
    table = play(engine, pos)
    # Opponent's turn 4: p1 drew S2 and S3 (F-TURN-3) and is placing.
    assert table.turn == 4 and table.active == 1 and table.phase == "placement"
    assert table.zone("S2", 1) == ("hand", 1) and table.zone("S3", 1) == ("hand", 1)


def test_F_TURN_2_seven_cards_discard_down_to_five_at_preparation(engine):
    hand = ["D2", "D3", "D4", "D5", "D6", "D7", "D8"]
    pos = position(p1={"hand": hand}, phase="attack", actions=["end"])
    table = play(engine, pos)
    assert table.phase == "discard" and table.decider == 1
    pos["actions"] = ["end", "discard D2", "discard D3"]
    table = play(engine, pos)
    # 7 - 2 = 5, then the draw phase adds two: 7 in hand, placement begins.
    assert table.zone("D2", 1) == ("grave", 1) and table.hand_size(1) == 7
    assert table.phase == "placement" and table.counter("discards") == 2


def test_F_TURN_2_six_cards_do_not_trigger(engine):
    pos = position(p1={"hand": ["D2", "D3", "D4", "D5", "D6", "D7"]}, phase="attack", actions=["end"])
    table = play(engine, pos)
    assert table.phase == "placement" and table.hand_size(1) == 8


def test_FA_1_both_hands_checked_when_switched(engine):
    hand = ["D2", "D3", "D4", "D5", "D6", "D7", "D8"]
    pos = position(p0={"hand": hand}, phase="attack", actions=["end"])
    # Default "turn_player": p0's full hand is not checked in p1's turn.
    assert play(engine, pos).phase == "placement"
    pos["rules"] = {"ambiguities": {"FA-1": "both"}}
    table = play(engine, pos)
    assert table.phase == "discard" and table.decider == 0
    pos["actions"] = ["end", "discard D2", "discard D3"]
    table = play(engine, pos)
    assert table.hand_size(0) == 5 and table.phase == "placement" and table.decider == 1


def test_F_TURN_4_FA_3_short_deck_loses(engine):
    pos = position(p1={"deck": ["S2"]}, phase="attack", actions=["end"])
    # p1's deck holds only S2 once every unlisted card is... listed: put all others in the graveyard.
    pos["players"][1]["graveyard"] = [c for c in _all_cards() if c != "S2"]
    table = play(engine, pos)
    assert (table.phase, table.winner, table.end_type) == ("over", 0, "deck_out")


@pytest.mark.parametrize("reading, outcome", [("continue", ("placement", -1, "none")),
                                              ("draw", ("over", 2, "deck_out_draw"))])
def test_F_TURN_4_FA_3_other_readings(engine, reading, outcome):
    pos = position(p1={"deck": ["S2"]}, phase="attack", actions=["end"],
                   rules={"ambiguities": {"FA-3": reading}})
    pos["players"][1]["graveyard"] = [c for c in _all_cards() if c != "S2"]
    table = play(engine, pos)
    assert (table.phase, table.winner, table.end_type) == outcome
    if reading == "continue":
        assert table.zone("S2", 1) == ("hand", 1) and table.deck_size(1) == 0


def _all_cards():
    return [s + r for s in "DSCH" for r in ["A"] + [str(n) for n in range(2, 11)] + ["J", "Q", "K"]] + ["BJ", "LJ"]


# ---- F-PLC: placement ---------------------------------------------------------------

def test_F_PLC_1_one_normal_card_per_row_per_turn(engine):
    pos = position(p0={"hand": ["D5", "D6", "S7"]}, actions=["place D5 row1"])
    legal = play(engine, pos).legal()
    assert "place D6 row1" not in legal and "place S7 row2" in legal


def test_F_PLC_2_suits_to_rows_and_hearts_to_row_1_or_2(engine):
    pos = position(p0={"hand": ["D5", "S6", "C7", "H8"]})
    legal = play(engine, pos).legal()
    assert {"place D5 row1", "place S6 row2", "place C7 row3", "place H8 row1", "place H8 row2"} <= set(legal)
    assert "place H8 row3" not in legal and "place D5 row2" not in legal


def test_F_PLC_3_face_cards_by_suit_one_per_row_per_turn(engine):
    pos = position(p0={"hand": ["DJ", "DQ", "SK"]}, actions=["face DJ"])
    table = play(engine, pos)
    assert table.zone("DJ", 0) == ("row1", 0)
    assert "face DQ" not in table.legal() and "face SK" in table.legal()


def test_F_PLC_4_heart_face_cards_are_not_placed(engine):
    legal = play(engine, position(p0={"hand": ["HJ", "HQ"]})).legal()
    assert not any(text.startswith("face H") for text in legal) and "end" in legal
    # a ♦ J next to them is placed as usual, the ♥ ones still are not
    legal = play(engine, position(p0={"hand": ["HJ", "HQ", "DJ"]})).legal()
    assert "face DJ" in legal and not any(text.startswith("face H") for text in legal)


def test_F_PLC_5_full_row_displaces_a_chosen_face_card_to_the_graveyard(engine):
    pos = position(p0={"hand": ["DK"], "rows": [["DJ", "DQ"], [], []]})
    legal = play(engine, pos).legal()
    assert {"face DK displace DJ", "face DK displace DQ"} <= set(legal) and "face DK" not in legal
    pos["actions"] = ["face DK displace DQ"]
    table = play(engine, pos)
    assert table.zone("DQ", 0) == ("grave", 0) and table.zone("DK", 0) == ("row1", 0)
    assert table.counter("face_displaced") == 1


def test_F_PLC_6_placements_interleave_in_any_order(engine):
    pos = position(p0={"hand": ["D5", "DJ", "S6"]}, actions=["face DJ", "place S6 row2", "place D5 row1"])
    table = play(engine, pos)
    assert [table.zone(c, 0)[0] for c in ("D5", "DJ", "S6")] == ["row1", "row1", "row2"]


def test_F_PLC_7_no_placement_in_the_attack_phase(engine):
    table = play(engine, position(p0={"hand": ["D5"]}, actions=["end"]))
    assert table.phase == "attack" and table.legal() == ["end"]


# ---- F-ATK: attacks -------------------------------------------------------------------

def test_F_ATK_1_one_attack_per_turn_then_the_turn_ends(engine):
    pos = position(p0={"rows": [["D9"], ["S9"], []]}, p1={"rows": [["D2"], ["S2"], []]},
                   phase="attack", actions=["attack row1 row1"])
    table = play(engine, pos)
    assert table.active == 1 and table.turn == 4


def test_F_ATK_2_a_row_without_normal_card_cannot_attack(engine):
    pos = position(p0={"rows": [["DJ"], [], []]}, p1={}, phase="attack")
    assert play(engine, pos).legal() == ["end"]


def test_F_ATK_3_greater_sum_needed_equal_is_not_enough(engine):
    pos = position(p0={"rows": [["D5"], [], []]}, p1={"rows": [["D2", "D3"], [], []]}, phase="attack")
    assert play(engine, pos).legal() == ["end"]  # 5 vs 5
    pos["players"][0]["rows"][0] = ["D6"]
    assert "attack row1 row1" in play(engine, pos).legal()  # 6 vs 5


def test_F_ATK_3_big_joker_row_always_may_attack(engine):
    # F-CARD-3: the joker adds 0 to the sum (1 < 9) but its row always wins.
    pos = position(p0={"rows": [["DA", "BJ"], [], []]}, p1={"rows": [["D9"], [], []]}, phase="attack",
                   actions=["attack row1 row1"])
    table = play(engine, pos)
    assert table.zone("D9", 1) == ("grave", 1) and table.life(1) == 41


def test_F_ATK_4_smallest_card_leaves_and_defender_takes_its_number(engine):
    pos = position(p0={"rows": [["D10", "D9"], [], []]}, p1={"rows": [["D4", "D7"], [], []]},
                   phase="attack", actions=["attack row1 row1"])
    table = play(engine, pos)
    # 19 > 11: D4 (smallest) goes to p1's graveyard, p1 takes 4.
    assert table.zone("D4", 1) == ("grave", 1) and table.zone("D7", 1) == ("row1", 1)
    assert table.life(1) == 46 and table.life(0) == 50 and table.counter("attacks") == 1


def test_F_ATK_5_tie_on_smallest_goes_to_the_earliest_placed(engine):
    # Two 3s (♦3 and ♥3) in p1's row 1: FA-6 "earliest": the one placed first leaves.
    pos = position(p0={"rows": [["D10"], [], []]},
                   p1={"rows": [[{"card": "H3", "order": 5}, {"card": "D3", "order": 9}], [], []]},
                   phase="attack", actions=["attack row1 row1"])
    table = play(engine, pos)
    assert table.zone("H3", 1) == ("grave", 1) and table.zone("D3", 1) == ("row1", 1)
    assert table.life(1) == 47


def test_FA_6_random_tie_break_uses_the_match_generator(engine):
    outcomes = set()
    for seed in range(12):
        pos = position(p0={"rows": [["D10"], [], []]},
                       p1={"rows": [[{"card": "H3", "order": 5}, {"card": "D3", "order": 9}], [], []]},
                       phase="attack", actions=["attack row1 row1"], rng=seed,
                       rules={"ambiguities": {"FA-6": "random"}})
        table = play(engine, pos)
        outcomes.add(table.zone("H3", 1)[0])
        assert table.life(1) == 47
    assert outcomes == {"grave", "row1"}  # both tied cards can be the one that goes


def test_F_ATK_6_FA_7_attack_on_row_without_normal_card_does_nothing(engine):
    # FA-8 "any_card" (the default) makes a face-card-only row a target; FA-7 then decides.
    pos = position(p0={"rows": [["D9"], [], []]}, p1={"rows": [["DJ"], [], []]}, phase="attack",
                   actions=["attack row1 row1"], rules={"ambiguities": {"FA-8": "any_card"}})
    table = play(engine, pos)
    assert table.life(1) == 50 and table.zone("DJ", 1) == ("row1", 1)
    assert table.counter("empty_row_hits") == 1


def test_FA_7_faces_lost_and_not_allowed(engine):
    # p1 is Alien so the Human penalty (F-HUP-1) stays out of the count.
    pos = position(p0={"rows": [["D9"], [], []]}, p1={"faction": "alien", "rows": [["DJ"], [], []]}, phase="attack",
                   actions=["attack row1 row1"],
                   rules={"ambiguities": {"FA-8": "any_card", "FA-7": "faces_lost"}})
    table = play(engine, pos)
    assert table.life(1) == 50 and table.zone("DJ", 1) == ("grave", 1)
    pos["actions"] = []
    pos["rules"]["ambiguities"]["FA-7"] = "not_allowed"
    assert play(engine, pos).legal() == ["end"]


def test_F_ATK_7_direct_attack_deals_the_row_sum(engine):
    pos = position(p0={"rows": [[], ["S4", "H5"], []]}, p1={"rows": [[], [], []]}, phase="attack",
                   actions=["attack row2 direct"])
    table = play(engine, pos)
    assert table.life(1) == 41 and table.counter("direct_attacks") == 1


# ---- F-TGT: which rows may be attacked ------------------------------------------------

def _targets(engine, attacker_row, defender_rows, rules=None):
    rows = [[], [], []]
    rows[attacker_row] = [["D10", "DA"], ["S10", "SA"], ["C10", "CA"]][attacker_row]
    pos = position(p0={"rows": rows}, p1={"rows": defender_rows}, phase="attack")
    if rules:
        pos["rules"] = rules
    prefix = "attack row%d " % (attacker_row + 1)
    return sorted(t[len(prefix):] for t in play(engine, pos).legal() if t.startswith(prefix))


def test_F_TGT_1_row_1_targets(engine):
    assert _targets(engine, 0, [["D2"], ["S2"], ["C2"]]) == ["row1"]
    assert _targets(engine, 0, [[], ["S2"], ["C2"]]) == ["row2"]
    assert _targets(engine, 0, [[], [], ["C2"]]) == ["row3"]
    assert _targets(engine, 0, [[], [], []]) == ["direct"]


def test_F_TGT_1_F_TGT_4_row_1_into_row_3_deals_double(engine):
    pos = position(p0={"rows": [["D10"], [], []]}, p1={"rows": [[], [], ["C3", "C6"]]}, phase="attack",
                   actions=["attack row1 row3"])
    table = play(engine, pos)
    assert table.zone("C3", 1) == ("grave", 1) and table.life(1) == 44  # 3 doubled
    assert table.counter("doubled_attacks") == 1


def test_F_TGT_2_row_2_targets(engine):
    assert _targets(engine, 1, [["D2"], ["S2"], []]) == ["row1", "row2"]
    assert _targets(engine, 1, [["D2"], [], ["C2"]]) == ["row1"]
    assert _targets(engine, 1, [[], ["S2"], ["C2"]]) == ["row2"]
    assert _targets(engine, 1, [[], [], ["C2"]]) == []
    assert _targets(engine, 1, [[], [], []]) == ["direct"]


def test_F_TGT_3_row_3_targets(engine):
    assert _targets(engine, 2, [["D2"], ["S2"], ["C2"]]) == ["row1"]
    assert _targets(engine, 2, [[], ["S2"], ["C2"]]) == ["row3"]
    assert _targets(engine, 2, [[], [], ["C2"]]) == ["row3"]
    assert _targets(engine, 2, [[], ["S2"], []]) == []
    assert _targets(engine, 2, [[], [], []]) == ["direct"]


def test_FA_8_occupied_readings(engine):
    face_only_row1 = [["DJ"], ["S2"], []]
    # Default "any_card" (the source: any placed card): the face card makes row 1 the target.
    assert _targets(engine, 0, face_only_row1) == ["row1"]
    # The reference's reading "normal_or_joker": a face-card-only row is empty.
    assert _targets(engine, 0, face_only_row1, {"ambiguities": {"FA-8": "normal_or_joker"}}) == ["row2"]
    joker_only_row1 = [["BJ"], ["S2"], []]
    assert _targets(engine, 0, joker_only_row1, {"ambiguities": {"FA-8": "normal_or_joker"}}) == ["row1"]
    assert _targets(engine, 0, joker_only_row1, {"ambiguities": {"FA-8": "normal_only"}}) == ["row2"]


# ---- F-ZONE and FA-14: where cards go --------------------------------------------------

def test_F_ZONE_4_FA_14_a_stolen_card_goes_to_its_owner_graveyard(engine):
    # p1 controls p0's S3 (stolen earlier); attacking it sends it to p0's graveyard.
    pos = position(p0={"rows": [[], ["S10"], []]}, p1={"rows": [[], ["p0:S3"], []]}, phase="attack",
                   actions=["attack row2 row2"])
    table = play(engine, pos)
    assert table.zone("S3", 0) == ("grave", 0) and table.life(1) == 47
    pos["rules"] = {"ambiguities": {"FA-14": "controller"}}
    assert play(engine, pos).zone("S3", 0) == ("grave", 1)


def test_F_ZONE_1_F_ZONE_2_rows_hold_any_number_of_normal_cards(engine):
    pos = position(p0={"hand": ["D10"], "rows": [["DA", "D2", "D3", "D4", "D5", "D6"], [], []]},
                   actions=["place D10 row1"])
    table = play(engine, pos)
    assert table.zone("D10", 0) == ("row1", 0)


# ---- F-WIN: ending the match ------------------------------------------------------------

def test_F_WIN_1_zero_life_loses(engine):
    pos = position(p0={"rows": [["D9"], [], []]}, p1={"life": 3, "rows": [["D3"], [], []]},
                   phase="attack", actions=["attack row1 row1"])
    table = play(engine, pos)
    assert (table.phase, table.winner, table.end_type, table.life(1)) == ("over", 0, "life", 0)
    assert table.legal() == []


@pytest.mark.parametrize("reading, winner, end_type", [("draw", 2, "double_ko"),
                                                        ("turn_player_wins", 0, "life"),
                                                        ("turn_player_loses", 1, "life")])
def test_F_WIN_2_FA_24_both_at_zero(engine, reading, winner, end_type):
    # p0 is already at 0 (a sandbox position); the attack brings p1 to 0 too.
    pos = position(p0={"life": 0, "rows": [["D9"], [], []]}, p1={"life": 3, "rows": [["D3"], [], []]},
                   phase="attack", actions=["attack row1 row1"],
                   rules={"ambiguities": {"FA-24": reading}})
    table = play(engine, pos)
    assert (table.winner, table.end_type) == (winner, end_type)


@pytest.mark.parametrize("reading", ["each_step", "after_action"])
def test_FA_29_life_check_readings_agree_without_heals(engine, reading):
    # Base rules have one damage step per action, so both readings end the same way;
    # they differ once heals exist (Alien K, Abyss Magic: issues 4 and 5).
    pos = position(p0={"rows": [["D9"], [], []]}, p1={"life": 3, "rows": [["D3"], [], []]},
                   phase="attack", actions=["attack row1 row1"], rules={"ambiguities": {"FA-29": reading}})
    assert play(engine, pos).winner == 0


def test_F_WIN_4_turn_cap_is_a_draw(engine):
    pos = position(phase="attack", turn=10, actions=["end"], rules={"turn_cap": 10})
    table = play(engine, pos)
    assert (table.phase, table.winner, table.end_type) == ("over", 2, "turn_cap")


@pytest.mark.parametrize("reading", ["none", "starting_life"])
def test_FA_36_life_ceiling_switch_is_declared(reading):
    # Heals arrive with the Alien faction (issue 4); the switch validates both readings now.
    assert Rules().with_changes(ambiguities={"FA-36": reading}).reading("FA-36") == reading


def test_F_CARD_2_face_cards_and_jokers_add_nothing_to_row_sums(engine):
    # p1 row 1: ♦5 + ♦J = 5 (a face card is not a normal card and adds nothing).
    pos = position(p0={"rows": [["S6"], ["S9"], []]}, p1={"faction": "alien", "rows": [["D5", "DJ"], [], []]},
                   phase="attack")
    assert "attack row1 row1" in play(engine, pos).legal()  # 6 > 5
    pos["players"][1]["rows"][0] = ["D5", "D2", "DJ"]
    assert "attack row1 row1" not in play(engine, pos).legal()  # 6 < 7
