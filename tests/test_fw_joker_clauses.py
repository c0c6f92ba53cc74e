"""Scenario tests for the jokers of both factions (issue 5, §7), on both engines."""

import pytest

from scenario_harness import engine, play  # noqa: F401  (fixture)


def position(p0=None, p1=None, **top):
    base = {"turn": 3, "active": 0, "phase": "placement",
            "players": [dict({"life": 50, "faction": "human"}, **(p0 or {})),
                        dict({"life": 50, "faction": "alien"}, **(p1 or {}))]}
    base.update(top)
    return base


# ---- placement ---------------------------------------------------------------------------------

def test_F_JOK_H_1_human_big_joker_goes_into_any_row(engine):
    legal = play(engine, position(p0={"hand": ["BJ"]})).legal()
    assert {"joker BJ row1", "joker BJ row2", "joker BJ row3"} <= set(legal)


def test_F_JOK_A_1_alien_big_joker_needs_an_own_normal_card_in_the_row(engine):
    legal = play(engine, position(p0={"faction": "alien", "hand": ["BJ"], "rows": [[], ["S3"], []]})).legal()
    assert "joker BJ row2" in legal and "joker BJ row1" not in legal and "joker BJ row3" not in legal


def test_F_JOK_1_at_most_one_big_joker_per_player(engine):
    pos = position(p0={"hand": ["BJ#2"], "rows": [["BJ"], [], []]}, rules={"ambiguities": {"FA-34": "two"}})
    legal = play(engine, pos).legal()
    assert not any(t.startswith("joker") for t in legal) and "end" in legal
    # the second pack's joker alone (none on the field yet) may go into any row
    pos["players"][0]["rows"] = [[], [], []]
    assert {"joker BJ#2 row1", "joker BJ#2 row2", "joker BJ#2 row3"} <= set(play(engine, pos).legal())


def test_F_JOK_1_big_joker_is_unaffected_by_face_card_effects(engine):
    # A Human K destroys the largest *normal* card: the joker (0 in sums) is never a candidate.
    pos = dict(turn=4, active=1, phase="attack", actions=["end"],
               players=[{"faction": "human", "rows": [[{"card": "DK", "arrival": 1}, "D2"], [], []]},
                        {"faction": "human", "rows": [["BJ", "D5"], [], []]}])
    table = play(engine, pos)
    assert table.zone("BJ", 1) == ("row1", 1) and table.zone("D5", 1) == ("grave", 1)


# ---- F-JOK-2 / F-JOK-H attacks -----------------------------------------------------------------------

def test_F_JOK_2_F_JOK_H_1_holy_grail_row_wins_and_destroys_face_cards(engine):
    pos = position(p0={"rows": [["BJ", "DA"], [], []]},
                   p1={"faction": "human", "rows": [["DJ", "DQ", "D9", "D4"], [], []]},
                   phase="attack", actions=["attack row1 row1"])
    table = play(engine, pos)
    # 1 < 13 but the joker row always wins; J and Q go (2 life Human penalty), then ♦4 (4).
    assert table.zone("DJ", 1) == ("grave", 1) and table.zone("D4", 1) == ("grave", 1)
    assert table.life(1) == 50 - 2 - 4 and table.zone("BJ", 0) == ("row1", 0)  # it stays


@pytest.mark.parametrize("reading, p0_face", [("all", "grave"), ("defender", "row2")])
def test_F_JOK_H_2_FA_21_direct_attack_destroys_face_cards_instead_of_damage(engine, reading, p0_face):
    pos = position(p0={"rows": [["BJ", "D5"], ["SQ"], []]}, p1={"rows": [[], [], []], "exile": []},
                   phase="attack", actions=["attack row1 direct"], rules={"ambiguities": {"FA-21": reading}})
    pos["players"][1]["rows"] = [["DK"], [], []]
    pos["rules"]["ambiguities"]["FA-8"] = "normal_or_joker"  # a face-card-only row is empty: direct allowed
    table = play(engine, pos)
    assert table.life(1) == 50 and table.zone("DK", 1) == ("grave", 1)
    assert table.zone("SQ", 0)[0] == p0_face


# ---- F-JOK-A attacks --------------------------------------------------------------------------------------

@pytest.mark.parametrize("reading, life0, life1", [("whole_zone", 50 - 4, 50 - (3 + 5 + 2)),
                                                    ("this_attack", 50, 50 - (3 + 5))])
def test_F_JOK_A_2_FA_25_abyss_row_attack_exiles_and_both_take_their_exile_sums(engine, reading, life0, life1):
    pos = position(p0={"faction": "alien", "rows": [["BJ", "DA"], [], []], "exile": ["S4"]},
                   p1={"faction": "human", "rows": [["D3", "D5", "DJ"], [], []], "exile": ["C2"]},
                   phase="attack", actions=["attack row1 row1"], rules={"ambiguities": {"FA-25": reading}})
    table = play(engine, pos)
    assert table.zone("D3", 1) == ("exile", 1) and table.zone("D5", 1) == ("exile", 1)
    assert table.zone("DJ", 1) == ("grave", 1)
    # F-JOK-A-4: the Abyss joker is exiled afterwards and heals 10.
    assert table.zone("BJ", 0) == ("exile", 0)
    assert table.life(0) == life0 + 10 and table.life(1) == life1 - 1  # -1: the Human's J (F-HUP-1)


def test_FA_22_abyss_row_attack_also_does_F_ATK_4(engine):
    pos = position(p0={"faction": "alien", "rows": [["BJ", "DA"], [], []]},
                   p1={"faction": "alien", "rows": [["D3", "D5"], [], []]},
                   phase="attack", actions=["attack row1 row1"], rules={"ambiguities": {"FA-22": "also"}})
    table = play(engine, pos)
    # ♦3 goes to the graveyard with 3 damage; ♦5 is exiled: exile sums 0 and 5.
    assert table.zone("D3", 1) == ("grave", 1) and table.zone("D5", 1) == ("exile", 1)
    assert table.life(1) == 50 - 3 - 5 and table.life(0) == 60


@pytest.mark.parametrize("reading, life", [("each_step", 0), ("after_action", 10)])
def test_FA_29_exile_damage_is_checked_before_the_heal(engine, reading, life):
    # The Alien attacker's own exile (♠9) kills it before the joker's heal of 10 under "each_step".
    pos = position(p0={"faction": "alien", "life": 9, "rows": [["BJ", "DA"], [], []], "exile": ["S9"]},
                   p1={"faction": "alien", "rows": [["D3"], [], []]},
                   phase="attack", actions=["attack row1 row1"], rules={"ambiguities": {"FA-29": reading}})
    table = play(engine, pos)
    if reading == "each_step":
        assert (table.winner, table.end_type, table.life(0)) == (1, "life", 0)
    else:
        assert table.winner == -1 and table.life(0) == life


def test_F_WIN_2_FA_24_abyss_attack_can_knock_out_both(engine):
    pos = position(p0={"faction": "alien", "life": 5, "rows": [["BJ", "DA"], [], []], "exile": ["S9"]},
                   p1={"faction": "alien", "life": 3, "rows": [["D3"], [], []]},
                   phase="attack", actions=["attack row1 row1"])
    table = play(engine, pos)
    assert (table.winner, table.end_type) == (2, "double_ko")
    pos["rules"] = {"ambiguities": {"FA-24": "turn_player_loses"}}
    assert play(engine, pos).winner == 1


@pytest.mark.parametrize("reading, points", [("like_face", 1), ("exiled_zero", 0)])
def test_F_JOK_A_3_FA_19_direct_attack_exiles_five_deck_cards(engine, reading, points):
    # The defender's deck holds exactly ♦2 ♠3 ♣K LJ ♥4 (everything else is in the graveyard).
    deck = ["D2", "S3", "CK", "LJ", "H4"]
    rest = [s + r for s in "DSCH" for r in ["A"] + [str(n) for n in range(2, 11)] + ["J", "Q", "K"]] + ["BJ"]
    pos = position(p0={"faction": "alien", "rows": [["BJ", "D6"], [], []]},
                   p1={"faction": "alien", "deck": deck, "graveyard": [c for c in rest if c not in deck]},
                   phase="attack", actions=["attack row1 direct"], rules={"ambiguities": {"FA-19": reading}})
    table = play(engine, pos)
    # 2 + 3 + 4 for the normal cards, 1 for the K, the joker 1 or 0.
    assert table.life(1) == 50 - (9 + 1 + points)
    assert table.zone("D2", 1) == ("exile", 1) and table.zone("CK", 1) == ("grave", 1)
    assert table.zone("LJ", 1)[0] == ("grave" if reading == "like_face" else "exile")
    assert table.deck_size(1) == 0 and table.zone("BJ", 0) == ("exile", 0) and table.life(0) == 60


# ---- F-JOK-S small joker -----------------------------------------------------------------------------------

def test_F_JOK_S_1_F_JOK_S_2_small_joker_in_own_turn_costs_nothing(engine):
    pos = position(p0={"hand": ["LJ"]}, p1={"faction": "human", "rows": [[], ["BJ", "S5", "SQ"], []]},
                   actions=["small-joker LJ"])
    table = play(engine, pos)
    assert table.zone("BJ", 1) == ("grave", 1) and table.zone("SQ", 1) == ("grave", 1)
    assert table.zone("S5", 1) == ("row2", 1) and table.zone("LJ", 0) == ("grave", 0)
    assert table.life(0) == 50 and table.life(1) == 49  # the Human's Q: penalty


def test_F_JOK_S_1_needs_an_opposing_big_joker(engine):
    legal = play(engine, position(p0={"hand": ["LJ"]})).legal()
    assert not any(t.startswith("small-joker") for t in legal) and "end" in legal
    with_big_joker = position(p0={"hand": ["LJ"]}, p1={"faction": "human", "rows": [[], ["BJ", "S5"], []]})
    assert "small-joker LJ" in play(engine, with_big_joker).legal()


def test_F_JOK_S_2_response_in_the_opponents_turn_costs_5(engine):
    pos = position(p0={"hand": ["BJ"]}, p1={"hand": ["LJ"]}, actions=["joker BJ row2"])
    table = play(engine, pos)
    assert table.decider == 1 and table.legal() == ["pass", "respond"]
    pos["actions"].append("respond")
    table = play(engine, pos)
    assert table.zone("BJ", 0) == ("grave", 0) and table.life(1) == 45
    assert table.decider == 0 and table.phase == "placement"
    pos["actions"][-1] = "pass"
    assert play(engine, pos).zone("BJ", 0) == ("row2", 0)


def test_F_JOK_A_4_alien_joker_destroyed_by_a_small_joker_is_exiled_and_heals(engine):
    pos = position(p0={"hand": ["LJ"]}, p1={"life": 40, "rows": [["BJ", "D2"], [], []]}, actions=["small-joker LJ"])
    table = play(engine, pos)
    assert table.zone("BJ", 1) == ("exile", 1) and table.life(1) == 50


# ---- F-JOK-D-1 joker duel ---------------------------------------------------------------------------------

def duel_position(actions, p0_hand=(), p1_hand=(), **rules):
    pos = position(p0={"rows": [["BJ", "D2"], [], []], "hand": list(p0_hand)},
                   p1={"faction": "human", "rows": [["BJ", "D3", "DQ"], [], []], "hand": list(p1_hand)},
                   phase="attack", actions=["attack row1 row1"] + actions)
    if rules:
        pos["rules"] = {"ambiguities": rules}
    return pos


def test_F_JOK_D_1_attacker_gives_up(engine):
    table = play(engine, duel_position(["give-up"]))
    assert table.zone("BJ", 0) == ("grave", 0) and table.life(0) == 40
    assert table.zone("D3", 1)[0] == "row1" and table.active == 1  # the attack ends


def test_F_JOK_D_1_defender_gives_up_and_the_attack_resolves(engine):
    table = play(engine, duel_position(["commit"]))
    assert table.decider == 1 and table.legal() == ["give-up", "commit"]
    table = play(engine, duel_position(["commit", "give-up"]))
    # p1's joker and Q go (10 + 1 life), then the Holy Grail hits the row: ♦3 leaves (3).
    assert table.zone("BJ", 1) == ("grave", 1) and table.zone("DQ", 1) == ("grave", 1)
    assert table.zone("D3", 1) == ("grave", 1) and table.life(1) == 50 - 10 - 1 - 3
    assert table.counter("joker_duels") == 1


@pytest.mark.parametrize("reading, resolves", [("resolves", True), ("ends", False)])
def test_FA_28_after_a_duel_the_defender_lost(engine, reading, resolves):
    table = play(engine, duel_position(["commit", "give-up"], **{"FA-28": reading}))
    assert (table.zone("D3", 1)[0] == "grave") == resolves


def test_F_JOK_D_1_both_commit_and_the_lower_sum_loses(engine):
    # p0 puts ♦9 ♦8 down (2 + 17 = 19); p1 puts ♦4 (3 + 4 = 7): p1 loses, the attack resolves.
    table = play(engine, duel_position(["commit", "commit"], p0_hand=["D9", "D8", "S7"], p1_hand=["D4", "H9"]))
    assert table.zone("D9", 0) == ("row1", 0) and table.zone("S7", 0) == ("hand", 0)
    assert table.zone("H9", 1) == ("hand", 1)  # FA-23: only the joker row's suit
    assert table.zone("BJ", 1) == ("grave", 1) and table.life(1) == 50 - 10 - 1 - 3


@pytest.mark.parametrize("reading, both_gone", [("nothing", False), ("both_lose", True)])
def test_FA_27_a_tied_duel(engine, reading, both_gone):
    # 2 + 4 = 6 against 3 + 3 = 6.
    table = play(engine, duel_position(["commit", "commit"], p0_hand=["D4"], p1_hand=["DA", "D2"],
                                       **{"FA-27": reading}))
    # p1 puts ♦A ♦2: 3 + 1 + 2 = 6 ties p0's 6.
    assert (table.zone("BJ", 0)[0] == "grave") == both_gone
    assert (table.zone("BJ", 1)[0] == "grave") == both_gone


def test_FA_23_with_hearts(engine):
    table = play(engine, duel_position(["commit", "commit"], p0_hand=["D4"], p1_hand=["H9"], **{"FA-23": "with_hearts"}))
    assert table.zone("H9", 1) == ("row1", 1) and table.zone("BJ", 0) == ("grave", 0)


def test_F_JOK_D_1_both_commit_and_the_attacker_loses(engine):
    # p0 puts nothing down (2); p1 puts ♦9 (3 + 9 = 12): p0's joker goes, p0 takes 10; the attack ends.
    table = play(engine, duel_position(["commit", "commit"], p1_hand=["D9"]))
    assert table.zone("BJ", 0) == ("grave", 0) and table.life(0) == 40
    assert table.zone("BJ", 1) == ("row1", 1) and table.zone("D3", 1) == ("row1", 1) and table.active == 1


def test_FA_23_with_faces_puts_face_cards_down_too(engine):
    # p1's row 1 already holds ♦Q: one more face card fits (two per row).
    table = play(engine, duel_position(["commit", "commit"], p0_hand=["D9"], p1_hand=["DK", "DJ"],
                                       **{"FA-23": "with_faces"}))
    faces_down = [c for c in ("DK", "DJ") if table.zone(c, 1)[0] != "hand"]
    assert faces_down == ["DJ"]  # the lowest card id first (J before K), then the row is full


def test_FA_23_special_costs_the_alien_1_per_card(engine):
    pos = duel_position(["commit", "commit"], p0_hand=["D9"], p1_hand=["D4"], **{"FA-23": "special"})
    pos["players"][1]["faction"] = "alien"
    pos["players"][1]["rows"][0] = ["BJ", "D3"]
    table = play(engine, pos)
    # p1 (Alien) puts ♦4 down as a special placement: 1 life; then loses 3 + 4 = 7 < 11.
    assert table.counter("special_placed") == 1
    assert table.zone("BJ", 1) == ("exile", 1)  # the Abyss joker is exiled (and heals 10)
    assert table.life(1) == 50 - 1 + 10 - 10 - 3
