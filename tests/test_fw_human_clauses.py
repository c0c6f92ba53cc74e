"""Scenario tests for the Human faction and the Dispeller (issue 3, §5 and F-HRT-1).

Each test sets up a position, acts, and asserts the exact outcome, on both
engines. Running totals are in the comments.
"""

import pytest

from scenario_harness import engine, play  # noqa: F401  (fixture)


def position(p0=None, p1=None, **top):
    base = {"turn": 3, "active": 0, "phase": "placement",
            "players": [dict({"life": 50, "faction": "human"}, **(p0 or {})),
                        dict({"life": 50, "faction": "human"}, **(p1 or {}))]}
    base.update(top)
    return base


def next_own_turn(**top):
    """A position in p1's attack phase; `end` then starts p0's next turn."""
    return dict(turn=4, active=1, phase="attack", **top)


# ---- F-HUJ-1 Polymorph ------------------------------------------------------------------------

def test_F_HUJ_1_polymorph_turns_all_but_the_largest_into_1(engine):
    # Row 1 of both players: D9 D3 (p0) and D5 D8 (p1); the J leaves only D9 at its number.
    pos = position(p0={"rows": [["DJ", "D9", "D3"], [], []]}, p1={"rows": [["D5", "D8"], [], []]},
                   phase="attack", actions=["attack row1 row1"])
    table = play(engine, pos)
    # 9 + 1 = 10 > 1 + 1 = 2; the smallest effective (1s): original 5 < 8, so D5 goes;
    # the damage is its changed number 1 (F-ATK-5).
    assert table.zone("D5", 1) == ("grave", 1) and table.life(1) == 49


def test_F_HUJ_1_polymorph_works_when_one_side_is_empty_and_on_later_cards(engine):
    pos = position(p0={"hand": ["D10"], "rows": [["DJ", "D9", "D4"], [], []]}, p1={"rows": [[], ["S2"], []]},
                   actions=["place D10 row1", "end"])
    table = play(engine, pos)
    # FA-26 "continuous": D10 is now the largest: 10 + 1 + 1 = 12; row 1 attacks p1's row 2.
    assert "attack row1 row2" in table.legal()
    pos["actions"] = ["place D10 row1", "end", "attack row1 row2"]
    assert play(engine, pos).life(1) == 48  # S2 sits alone in row 2: its number 2


def test_FA_26_on_arrival_leaves_later_cards_alone(engine):
    # p1's S-row J arrived with order 3; S8 placed later (order 9) keeps 8.
    rows0 = [[], [{"card": "S9", "order": 1}, {"card": "S2", "order": 2}], []]
    rows1 = [[], [{"card": "SJ", "order": 3}, {"card": "S8", "order": 9}], []]
    pos = position(p0={"rows": rows0}, p1={"rows": rows1}, phase="attack")
    # continuous: S9 largest; S2 and S8 → 1: 9 + 1 = 10 > 1 → p0 row2 may attack row2.
    assert "attack row2 row2" in play(engine, pos).legal()
    pos["rules"] = {"ambiguities": {"FA-26": "on_arrival"}}
    # on arrival: S9 stays 9, S2 → 1 (10), S8 stays 8: 10 > 8 still; the attack kills S8 for 8.
    pos["actions"] = ["attack row2 row2"]
    table = play(engine, pos)
    assert table.zone("S8", 1) == ("grave", 1) and table.life(1) == 42


def test_F_HUJ_1_numbers_return_when_the_j_leaves(engine):
    # p1 dispels p0's J: D9 D3 vs D5: back to 12 vs 5, then 5 is the smallest.
    pos = position(p0={"rows": [["DJ", "D9", "D3"], [], []]}, p1={"hand": ["HQ"], "rows": [["D5"], [], []]},
                   active=1, actions=["dispel HQ p0 row1", "end"])
    table = play(engine, pos)
    assert table.zone("DJ", 0) == ("grave", 0) and table.life(0) == 49  # F-HUP-1 for the J
    assert table.life(1) == 49  # FA-9: p1 (Human) pays 1 for using the ♥ Q
    assert "attack row1 row1" not in table.legal()  # 5 < 12 again


def test_F_HUJ_1_a_different_face_card_joining_ends_polymorph_at_once(engine):
    pos = position(p0={"hand": ["DQ"], "rows": [["DJ", "D9", "D3"], [], []]}, p1={"rows": [["D5", "D8"], [], []]},
                   actions=["face DQ", "end"])
    # Without the J's effect: 12 vs 13: no attack from row 1; the turn can still end.
    legal = play(engine, pos).legal()
    assert "attack row1 row1" not in legal and "end" in legal
    # The same table while the J still acts alone: D9 stays 9, D3 D5 D8 count 1: 10 vs 2: the attack is legal.
    pos["actions"] = ["end"]
    assert "attack row1 row1" in play(engine, pos).legal()


# ---- F-HUQ-1 Mind Magic ---------------------------------------------------------------------------

def test_F_HUQ_1_mind_magic_steals_the_smallest_from_the_next_own_turn(engine):
    pos = position(p0={"hand": ["SQ"], "rows": [[], ["S9"], []]}, p1={"rows": [[], ["S4", "S2", "H6"], []]},
                   actions=["face SQ", "end", "end"])
    table = play(engine, pos)
    assert table.zone("S2", 1) == ("row2", 1)  # not in the turn it arrived, nor in p1's turn
    pos["actions"] += ["end", "end"]  # p1's turn 4 passes; p0's turn 5 begins with the steal
    table = play(engine, pos)
    assert table.zone("S2", 1) == ("row2", 0) and table.counter("mind_magic") == 1
    # the stolen card keeps its owner (FA-14): attacking it later sends it to p1's graveyard


def test_F_HUQ_1_cannot_activate_when_the_opponent_row_is_empty(engine):
    pos = next_own_turn(players=[{"faction": "human", "rows": [[], [{"card": "SQ", "arrival": 1}], []]},
                                 {"faction": "human", "rows": [[], [], ["C3"]]}], actions=["end"])
    table = play(engine, pos)
    assert table.counter("mind_magic") == 0 and table.zone("C3", 1) == ("row3", 1)


def test_F_HUQ_1_ties_use_F_ATK_5_order(engine):
    # Two 4s: original equal, earliest placed goes (FA-6).
    rows1 = [[], [{"card": "H4", "order": 7}, {"card": "S4", "order": 3}], []]
    pos = next_own_turn(players=[{"faction": "human", "rows": [[], [{"card": "SQ", "arrival": 1}], []]},
                                 {"faction": "human", "rows": rows1}], actions=["end"])
    table = play(engine, pos)
    assert table.zone("S4", 1) == ("row2", 0) and table.zone("H4", 1) == ("row2", 1)


def test_FA_14_stolen_card_destroyed_goes_to_owner_or_controller(engine):
    # p0 holds p1's stolen C7 next to a K: the K destroys the largest (C7) on p0's turn.
    rows0 = [[], [], [{"card": "CK", "arrival": 1}, "p1:C7"]]
    pos = next_own_turn(players=[{"faction": "human", "rows": rows0},
                                 {"faction": "human", "rows": [[], [], ["C2"]]}], actions=["end"])
    assert play(engine, pos).zone("C7", 1) == ("grave", 1)
    pos["rules"] = {"ambiguities": {"FA-14": "controller"}}
    assert play(engine, pos).zone("C7", 1) == ("grave", 0)


# ---- F-HUK-1 Self-Destruct ------------------------------------------------------------------------

def test_F_HUK_1_self_destruct_destroys_the_largest_of_both_rows(engine):
    pos = next_own_turn(players=[{"faction": "human", "rows": [[{"card": "DK", "arrival": 1}, "D4", "H6"], [], []]},
                                 {"faction": "alien", "rows": [["D9", "D2"], [], []]}], actions=["end"])
    table = play(engine, pos)
    assert table.zone("D9", 1) == ("grave", 1) and table.counter("self_destruct") == 1
    assert table.life(1) == 50  # destruction deals no damage


def test_F_HUK_1_cannot_activate_when_either_side_is_empty(engine):
    pos = next_own_turn(players=[{"faction": "human", "rows": [[{"card": "DK", "arrival": 1}], [], []]},
                                 {"faction": "human", "rows": [["D9"], [], []]}], actions=["end"])
    table = play(engine, pos)
    assert table.zone("D9", 1) == ("row1", 1) and table.counter("self_destruct") == 0


def test_F_HUK_1_tie_on_largest_goes_to_the_earliest_placed(engine):
    rows0 = [[{"card": "DK", "arrival": 1}, {"card": "D8", "order": 6}], [], []]
    rows1 = [[{"card": "H8", "order": 2}], [], []]
    pos = next_own_turn(players=[{"faction": "human", "rows": rows0}, {"faction": "human", "rows": rows1}],
                        actions=["end"])
    table = play(engine, pos)
    assert table.zone("H8", 1) == ("grave", 1) and table.zone("D8", 0) == ("row1", 0)


# ---- F-HUP-1 the Human penalty -----------------------------------------------------------------------

def test_F_HUP_1_displacing_an_own_face_card_costs_1(engine):
    pos = position(p0={"hand": ["DK"], "rows": [["DJ", "DQ"], [], []]}, actions=["face DK displace DJ"])
    table = play(engine, pos)
    assert table.life(0) == 49 and table.counter("human_penalty") == 1


def test_F_HUP_1_alien_face_cards_cost_nothing(engine):
    pos = position(p0={"faction": "alien", "hand": ["DK"], "rows": [["DJ", "DQ"], [], []]},
                   actions=["face DK displace DJ"])
    assert play(engine, pos).life(0) == 50


@pytest.mark.parametrize("reading, life", [("damage", 49), ("no_damage", 50)])
def test_FA_9_using_a_heart_face_card(engine, reading, life):
    # p0 (Human) dispels the Alien's row: the Alien pays nothing, p0 pays FA-9.
    pos = position(p0={"hand": ["HK"]}, p1={"faction": "alien", "rows": [[], ["SJ", "SQ"], []]},
                   actions=["dispel HK p1 row2"], rules={"ambiguities": {"FA-9": reading}})
    table = play(engine, pos)
    assert table.life(0) == life and table.life(1) == 50
    assert table.zone("SJ", 1) == ("grave", 1) and table.zone("HK", 0) == ("grave", 0)


# ---- F-HRT-1 Dispeller and its switches ------------------------------------------------------------------

def test_F_HRT_1_dispeller_removes_one_rows_face_cards_of_either_player(engine):
    pos = position(p0={"faction": "alien", "hand": ["HJ"], "rows": [["DK"], [], []]},
                   p1={"rows": [["DJ", "DQ"], [], ["CK"]]})
    legal = play(engine, pos).legal()
    assert {"dispel HJ p0 row1", "dispel HJ p1 row1", "dispel HJ p1 row3"} <= set(legal)
    pos["actions"] = ["dispel HJ p1 row1"]
    table = play(engine, pos)
    assert table.zone("DJ", 1) == ("grave", 1) and table.zone("DQ", 1) == ("grave", 1)
    assert table.zone("CK", 1) == ("row3", 1)
    assert table.life(1) == 48 and table.life(0) == 50  # two Human face cards; the Alien user pays nothing


def test_F_HRT_1_not_usable_without_face_cards_on_the_field(engine):
    legal = play(engine, position(p0={"hand": ["HQ"]}, p1={"rows": [["D3"], [], []]})).legal()
    assert not any(text.startswith("dispel") for text in legal)


def test_FA_18_both_players_row_and_one_card(engine):
    base = dict(p0={"faction": "alien", "hand": ["HJ"], "rows": [["DQ"], [], []]},
                p1={"faction": "alien", "rows": [["DJ", "DK"], [], []]})
    pos = position(**base, actions=["dispel HJ both row1"], rules={"ambiguities": {"FA-18": "both_players_row"}})
    table = play(engine, pos)
    assert [table.zone(c, p)[0] for c, p in (("DQ", 0), ("DJ", 1), ("DK", 1))] == ["grave"] * 3
    pos = position(**base, actions=["dispel HJ p1:DK"], rules={"ambiguities": {"FA-18": "one_card"}})
    table = play(engine, pos)
    assert table.zone("DK", 1) == ("grave", 1) and table.zone("DJ", 1) == ("row1", 1)


@pytest.mark.parametrize("reading, second_allowed", [("unlimited", True), ("one_per_turn", False)])
def test_FA_5_heart_face_cards_per_turn(engine, reading, second_allowed):
    pos = position(p0={"faction": "alien", "hand": ["HJ", "HQ"]}, p1={"rows": [["DJ"], ["SQ"], []]},
                   actions=["dispel HJ p1 row1"], rules={"ambiguities": {"FA-5": reading}})
    legal = play(engine, pos).legal()
    assert ("dispel HQ p1 row2" in legal) == second_allowed


# ---- F-HUC-1 combinations ------------------------------------------------------------------------------

def test_F_HUC_1_identical_face_cards_act_as_one(engine):
    rows0 = [[], [{"card": "SQ", "arrival": 1}, {"card": "SQ#2", "arrival": 1}], []]
    pos = next_own_turn(players=[{"faction": "human", "rows": rows0},
                                 {"faction": "human", "rows": [[], ["S2", "S3"], []]}],
                        actions=["end"], rules={"ambiguities": {"FA-34": "two"}})
    table = play(engine, pos)
    assert table.counter("mind_magic") == 1  # one steal, not two
    assert table.zone("S2", 1) == ("row2", 0) and table.zone("S3", 1) == ("row2", 1)


def test_F_HUC_JQ_swaps_one_random_card_each_side(engine):
    rows0 = [[{"card": "DJ", "arrival": 1}, {"card": "DQ", "arrival": 1}, "D2", "D3"], [], []]
    pos = next_own_turn(players=[{"faction": "human", "rows": rows0},
                                 {"faction": "human", "rows": [["D7", "D8"], [], []]}], actions=["end"], rng=5)
    table = play(engine, pos)
    mine = [c for c in ("D2", "D3") if table.zone(c, 0) == ("row1", 1)]
    theirs = [c for c in ("D7", "D8") if table.zone(c, 1) == ("row1", 0)]
    assert len(mine) == 1 and len(theirs) == 1 and table.counter("combo_jq") == 1
    assert table.counter("mind_magic") == 0  # the Q's own effect is replaced


def test_F_HUC_JQ_cannot_activate_with_an_empty_side(engine):
    rows0 = [[{"card": "DJ", "arrival": 1}, {"card": "DQ", "arrival": 1}, "D2"], [], []]
    pos = next_own_turn(players=[{"faction": "human", "rows": rows0}, {"faction": "human"}], actions=["end"])
    assert play(engine, pos).counter("combo_jq") == 0


def test_F_HUC_JK_each_side_keeps_its_two_largest(engine):
    rows0 = [[], [], [{"card": "CJ", "arrival": 1}, {"card": "CK", "arrival": 1}, "C2", "C9", "C5"]]
    rows1 = [[], [], ["C3", "C4", "C10", "C6"]]
    pos = next_own_turn(players=[{"faction": "human", "rows": rows0}, {"faction": "human", "rows": rows1}],
                        actions=["end"])
    table = play(engine, pos)
    assert table.zone("C2", 0) == ("grave", 0) and table.zone("C9", 0)[0] == "row3"
    assert table.zone("C3", 1) == ("grave", 1) and table.zone("C4", 1) == ("grave", 1)
    assert table.zone("C10", 1)[0] == "row3" and table.zone("C6", 1)[0] == "row3"
    assert table.life(0) == 50 and table.life(1) == 50


def test_F_HUC_JK_cannot_activate_when_a_side_has_one_card(engine):
    rows0 = [[], [], [{"card": "CJ", "arrival": 1}, {"card": "CK", "arrival": 1}, "C2", "C9", "C5"]]
    pos = next_own_turn(players=[{"faction": "human", "rows": rows0}, {"faction": "human", "rows": [[], [], ["C3"]]}],
                        actions=["end"])
    table = play(engine, pos)
    assert table.counter("combo_jk") == 0 and table.zone("C2", 0)[0] == "row3"


def test_F_HUC_QK_pools_discards_two_and_splits_the_rest(engine):
    rows0 = [[], [{"card": "SQ", "arrival": 1}, {"card": "SK", "arrival": 1}, "S2", "S3", "S4"], []]
    rows1 = [[], ["S5", "S6", "S7"], []]
    pos = next_own_turn(players=[{"faction": "human", "rows": rows0}, {"faction": "human", "rows": rows1}],
                        actions=["end"], rng=9)
    table = play(engine, pos)
    cards = [("S2", 0), ("S3", 0), ("S4", 0), ("S5", 1), ("S6", 1), ("S7", 1)]
    places = [table.zone(c, owner) for c, owner in cards]
    assert sum(1 for zone, _ in places if zone == "grave") == 2
    assert sum(1 for zone, ctrl in places if zone == "row2" and ctrl == 0) == 2
    assert sum(1 for zone, ctrl in places if zone == "row2" and ctrl == 1) == 2
    assert table.counter("combo_qk") == 1


def test_F_HUC_QK_cannot_activate_on_an_odd_count(engine):
    rows0 = [[], [{"card": "SQ", "arrival": 1}, {"card": "SK", "arrival": 1}, "S2", "S3"], []]
    pos = next_own_turn(players=[{"faction": "human", "rows": rows0}, {"faction": "human", "rows": [[], ["S5"], []]}],
                        actions=["end"])
    assert play(engine, pos).counter("combo_qk") == 0


def test_F_HUC_1_combination_starts_the_own_turn_after_both_are_present(engine):
    # The Q has been there since turn 1; the K joins on turn 3.
    rows0 = [[], [{"card": "SQ", "arrival": 1}, "S2"], []]
    pos = position(p0={"hand": ["SK"], "rows": rows0}, p1={"rows": [[], ["S5"], []]},
                   actions=["face SK", "end", "end"])
    table = play(engine, pos)
    assert table.turn == 4 and table.counter("combo_qk") == 0  # p1's turn: nothing yet
    pos["actions"] += ["end", "end"]
    table = play(engine, pos)
    # Turn 5, p0's next own turn: Q+K pools S2 and S5 (even), both go to the graveyard;
    # the Q's own steal is replaced by the combination.
    assert table.turn == 5 and table.counter("combo_qk") == 1 and table.counter("mind_magic") == 0
    assert table.zone("S2", 0) == ("grave", 0) and table.zone("S5", 1) == ("grave", 1)


def test_F_HUC_1_when_one_leaves_the_other_works_again_at_once(engine):
    # p1 dispels p0's K in p1's turn; on p0's next turn the old Q steals again by itself.
    rows0 = [[], [{"card": "SQ", "arrival": 1}, {"card": "SK", "arrival": 3}], []]
    pos = dict(turn=4, active=1, phase="placement",
               players=[{"faction": "human", "rows": rows0},
                        {"faction": "alien", "hand": ["HJ"], "rows": [[], ["S5"], []]}],
               actions=["dispel HJ p0:SK", "end", "end"], rules={"ambiguities": {"FA-18": "one_card"}})
    table = play(engine, pos)
    assert table.counter("mind_magic") == 1 and table.zone("S5", 1) == ("row2", 0)


# ---- F-HUW-1 Destiny -------------------------------------------------------------------------------------

DESTINY_PATTERNS = [
    (["D8", "S9", "C10"], ["DJ", "SQ", "CK"]),
    (["D10", "S9", "C8"], ["DK", "SQ", "CJ"]),
    (["H8", "S9", "C10"], ["DK", "SQ", "CJ"]),
    (["D10", "H9", "C8"], ["DJ", "SQ", "CK"]),
]


def destiny_actions(normals, faces):
    rows = ["row1", "row2", "row3"]
    return ["place %s %s" % (card, row) for card, row in zip(normals, rows)] + ["face %s" % f for f in faces]


@pytest.mark.parametrize("pattern", range(4))
def test_F_HUW_1_destiny_all_four_patterns_win_at_once(engine, pattern):
    normals, faces = DESTINY_PATTERNS[pattern]
    pos = position(p0={"hand": normals + faces}, actions=destiny_actions(normals, faces))
    table = play(engine, pos)
    assert (table.phase, table.winner, table.end_type) == ("over", 0, "destiny")


def test_F_HUW_1_destiny_needs_all_six_in_one_turn(engine):
    # The ♣10 was placed on an earlier turn: two turns, not one.
    pos = position(p0={"hand": ["D8", "S9", "DJ", "SQ", "CK"], "rows": [[], [], [{"card": "C10", "arrival": 1}]]},
                   actions=["place D8 row1", "place S9 row2", "face DJ", "face SQ", "face CK"])
    table = play(engine, pos)
    assert table.phase == "placement" and table.winner == -1


def test_F_HUW_1_destiny_near_misses(engine):
    # 8-9-8 is not a pattern; J-Q-J is not a pattern; an Alien cannot win by Destiny.
    for normals, faces, faction in ((["D8", "S9", "C8"], ["DJ", "SQ", "CK"], "human"),
                                    (["D8", "S9", "C10"], ["DJ", "SQ", "CJ"], "human"),
                                    (["D8", "S9", "C10"], ["DJ", "SQ", "CK"], "alien")):
        pos = position(p0={"faction": faction, "hand": normals + faces}, actions=destiny_actions(normals, faces))
        assert play(engine, pos).winner == -1


def test_F_HUW_1_destiny_wrong_suit_in_row_3(engine):
    # A sandbox position with ♥10 in row 3 (no legal placement puts it there) is no Destiny.
    pos = position(p0={"hand": ["D8", "S9", "DJ", "SQ", "CK"], "rows": [[], [], [{"card": "H10", "arrival": 3}]]},
                   actions=["place D8 row1", "place S9 row2", "face DJ", "face SQ", "face CK"])
    assert play(engine, pos).winner == -1
    pos["players"][0]["rows"][2] = [{"card": "C10", "arrival": 3}]  # the same with ♣10 wins
    assert play(engine, pos).end_type == "destiny"


@pytest.mark.parametrize("reading, wins", [("pattern", True), ("order", False)])
def test_FA_10_destiny_placement_order(engine, reading, wins):
    normals, faces = DESTINY_PATTERNS[0]
    actions = ["face DJ"] + destiny_actions(normals, faces[1:])  # the J first: out of order
    pos = position(p0={"hand": normals + faces}, actions=actions, rules={"ambiguities": {"FA-10": reading}})
    assert (play(engine, pos).end_type == "destiny") == wins


# ---- F-TURN-5 / FA-4 when mandatory effects resolve ------------------------------------------------------

@pytest.mark.parametrize("reading", ["preparation", "placement_start"])
def test_F_TURN_5_FA_4_mandatory_effects_timing(engine, reading):
    # p0 must discard at preparation (7 cards); the Q steals after that check either way.
    rows0 = [[], [{"card": "SQ", "arrival": 1}], []]
    hand = ["D2", "D3", "D4", "D5", "D6", "D7", "D8"]
    pos = next_own_turn(players=[{"faction": "human", "hand": hand, "rows": rows0},
                                 {"faction": "human", "rows": [[], ["S5"], []]}],
                        actions=["end"], rules={"ambiguities": {"FA-4": reading}})
    table = play(engine, pos)
    assert table.phase == "discard" and table.zone("S5", 1) == ("row2", 1)  # not yet
    pos["actions"] = ["end", "discard D2", "discard D3"]
    table = play(engine, pos)
    assert table.phase == "placement" and table.zone("S5", 1) == ("row2", 0)


def test_F_CARD_4_attacks_compare_effective_numbers(engine):
    # p1's J polymorphs row 1 of both players: ♦10 stays 10, the rest count 1.
    # p0: ♦9 + ♦8 = 17 by printed numbers but 1 + 1 = 2 effective; p1: 10 + 1 = 11.
    pos = position(p0={"rows": [["D9", "D8"], [], []]}, p1={"rows": [["DJ", "D10", "D2"], [], []]}, phase="attack")
    assert "attack row1 row1" not in play(engine, pos).legal()
    pos["players"][1]["rows"][0] = ["D10", "D2"]  # without the J: 17 > 12
    assert "attack row1 row1" in play(engine, pos).legal()
