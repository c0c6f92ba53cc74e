"""Scenario tests for the Alien faction (issue 4, §6), on both engines."""

import pytest

from scenario_harness import engine, play  # noqa: F401  (fixture)


def position(p0=None, p1=None, **top):
    base = {"turn": 3, "active": 0, "phase": "placement",
            "players": [dict({"life": 50, "faction": "alien"}, **(p0 or {})),
                        dict({"life": 50, "faction": "human"}, **(p1 or {}))]}
    base.update(top)
    return base


def on_next_own_turn(p0, p1, actions, **top):
    """p1's attack phase: `end` starts p0's turn 5 (cards with arrival 1-3 are old)."""
    return dict(turn=4, active=1, phase="attack", players=[dict({"faction": "alien"}, **p0), p1],
                actions=["end"] + actions, **top)


def zone(card, order=1, arrival=1):
    return {"card": card, "order": order, "arrival": arrival}


# ---- F-EXT-1..3 extra zones --------------------------------------------------------------------

def test_F_EXT_1_one_extra_zone_card_per_turn_3_to_10_not_hearts(engine):
    pos = position(p0={"hand": ["D7", "S3", "C2", "H8", "C10"]})
    legal = play(engine, pos).legal()
    assert {"extra D7", "extra S3", "extra C10"} <= set(legal)
    assert "extra C2" not in legal and "extra H8" not in legal
    pos["actions"] = ["extra D7"]
    table = play(engine, pos)
    assert table.zone("D7", 0) == ("extra", 0) and table.counter("extra_placed") == 1
    assert not any(t.startswith("extra") for t in table.legal())
    assert "place S3 row2" in table.legal()  # separate from the row's normal placement


def test_F_ZONE_3_humans_cannot_use_extra_zones(engine):
    pos = position(p0={"faction": "human", "hand": ["D7"]})
    assert not any(t.startswith("extra") for t in play(engine, pos).legal())


def test_F_EXT_2_a_zone_holding_the_opponents_card_is_closed(engine):
    # p1's ♦9 sits in the ♦ zone: p0 may still use the ♠ zone.
    pos = position(p0={"hand": ["D7", "S5"]}, p1={"faction": "alien"}, extra={"D": "p1:D9"})
    legal = play(engine, pos).legal()
    assert "extra D7" not in legal and "extra S5" in legal


@pytest.mark.parametrize("reading, pile", [("exile", "exile"), ("graveyard", "grave")])
def test_F_EXT_3_FA_12_own_zone_card_is_pushed_out(engine, reading, pile):
    pos = position(p0={"hand": ["D7"]}, extra={"D": "D4"}, actions=["extra D7"],
                   rules={"ambiguities": {"FA-12": reading}})
    table = play(engine, pos)
    assert table.zone("D4", 0) == (pile, 0) and table.zone("D7", 0) == ("extra", 0)


# ---- F-EXT-4 pairs -------------------------------------------------------------------------------

def test_F_EXT_4_pair_summing_to_the_zone_card_from_the_next_turn(engine):
    pos = position(p0={"hand": ["DA", "D4", "D2", "D3"]}, extra={"D": zone("D5", arrival=3)})
    assert not any(t.startswith("pair") for t in play(engine, pos).legal())  # placed this turn
    pos["extra"] = {"D": zone("D5", arrival=1)}
    legal = play(engine, pos).legal()
    assert {"pair DA D4", "pair D2 D3"} <= set(legal)
    pos["actions"] = ["pair D2 D3"]
    table = play(engine, pos)
    assert table.zone("D2", 0) == ("row1", 0) and table.zone("D3", 0) == ("row1", 0)
    # only one pair (FA-13 per zone) and it was the row's placement (FA-32 "replaces")
    assert not any(t.startswith("pair") or t.startswith("place D") for t in table.legal())
    assert table.life(0) == 50  # FA-11 "normal": no special-placement damage


def test_FA_32_pair_on_top_of_the_rows_placement(engine):
    pos = position(p0={"hand": ["D2", "D3", "D6"]}, extra={"D": zone("D5")},
                   actions=["place D6 row1"], rules={"ambiguities": {"FA-32": "on_top"}})
    assert "pair D2 D3" in play(engine, pos).legal()
    pos["rules"] = {}
    assert "pair D2 D3" not in play(engine, pos).legal()


def test_FA_13_one_pair_in_all(engine):
    pos = position(p0={"hand": ["D2", "D3", "SA", "S3"]}, extra={"D": zone("D5"), "S": zone("S4", order=2)},
                   actions=["pair D2 D3"])
    assert "pair SA S3" in play(engine, pos).legal()
    pos["rules"] = {"ambiguities": {"FA-13": "one_total"}}
    assert "pair SA S3" not in play(engine, pos).legal()


def test_FA_11_pair_as_special_placement_costs_1_each(engine):
    pos = position(p0={"hand": ["D2", "D3"]}, extra={"D": zone("D5")}, actions=["pair D2 D3"],
                   rules={"ambiguities": {"FA-11": "special"}})
    table = play(engine, pos)
    assert table.life(0) == 48 and table.counter("special_placed") == 2


# ---- F-ALJ Split Rebirth -----------------------------------------------------------------------------

def test_F_ALJ_1_move_a_3_to_10_card_of_the_rows_suit_from_the_next_own_turn(engine):
    rows = [[zone("DJ", 1, 3), "D7", "D2", "H8"], [], []]
    legal = play(engine, position(p0={"rows": rows})).legal()
    assert not any(t.startswith("rebirth") for t in legal)  # the J arrived this turn
    rows[0][0] = zone("DJ", 1, 1)
    legal = play(engine, position(p0={"rows": rows})).legal()
    assert "rebirth D7" in legal and "rebirth D2" not in legal and "rebirth H8" not in legal


def test_F_ALJ_2_pushes_out_the_opponents_zone_card_with_damage(engine):
    pos = position(p0={"rows": [[zone("DJ"), "D7"], [], []]}, p1={"faction": "alien"},
                   extra={"D": "p1:D6"}, actions=["rebirth D7", "end"])
    table = play(engine, pos)
    assert table.zone("D6", 1) == ("grave", 1) and table.life(1) == 44
    assert table.zone("D7", 0) == ("extra", 0) and table.counter("split_rebirth") == 1


def test_F_ALJ_3_exiles_the_own_zone_card(engine):
    pos = position(p0={"rows": [[zone("DJ"), "D7"], [], []]}, extra={"D": "D4"}, actions=["rebirth D7", "end"])
    table = play(engine, pos)
    assert table.zone("D4", 0) == ("exile", 0) and table.zone("D7", 0) == ("extra", 0)


def test_F_ALJ_4_F_ALN_1_special_placement_exact_sum_from_every_source(engine):
    # ♦7 moves; 7 = ♠A (hand) + ♣2 (deck) + ♥4 (graveyard): three cards, three rows, 3 life.
    pos = position(p0={"hand": ["SA"], "deck": ["C2"], "graveyard": ["H4"], "rows": [[zone("DJ"), "D7"], [], []]},
                   actions=["rebirth D7"])
    table = play(engine, pos)
    legal = table.legal()
    assert "end" in legal and "special SA row2" in legal and "special H4 row1" in legal
    pos["actions"] += ["special SA row2", "special C2 row3", "special H4 row1"]
    table = play(engine, pos)
    assert [table.zone(c, 0)[0] for c in ("SA", "C2", "H4")] == ["row2", "row3", "row1"]
    assert table.life(0) == 47 and table.counter("special_placed") == 3
    assert table.phase == "placement" and "end" in table.legal()  # window closed


def test_F_ALJ_4_picks_must_keep_an_exact_completion_possible(engine):
    # 5 from at least three cards: with only A, 2, 4, 6 available, 4 leaves 1 = one card: not enough.
    pos = position(p0={"hand": ["SA", "S2", "S4", "S6"], "rows": [[zone("DJ"), "D5"], [], []]},
                   actions=["rebirth D5"])
    pos["players"][0]["exile"] = [c for c in _normal_cards() if c not in ("SA", "S2", "S4", "S6", "D5")]
    legal = play(engine, pos).legal()
    assert "special S4 row2" not in legal and "special S6 row2" not in legal
    # A + 2 leaves 2 with no second 2: no pick completes 5 with three cards → window never opens
    assert not any(t.startswith("special") for t in legal)


def test_F_ALJ_4_declining_and_FA_15(engine):
    base = position(p0={"hand": ["SA", "S2", "S3"], "rows": [[zone("DJ"), "D6"], [], []]},
                    actions=["rebirth D6", "end"])
    table = play(engine, base)
    assert table.phase == "placement" and not any(t.startswith("special") for t in table.legal())
    base["rules"] = {"ambiguities": {"FA-15": "kept"}}
    table = play(engine, base)
    assert "special SA row2" in table.legal()  # the right is kept for later
    base["actions"] += ["special SA row2", "special S2 row2", "special S3 row2"]
    assert play(engine, base).zone("S3", 0) == ("row2", 0)


def test_F_ALJ_4_searched_deck_is_shuffled(engine):
    pos = position(p0={"hand": ["SA", "S2"], "deck": ["C3", "C9", "C8"], "rows": [[zone("DJ"), "D6"], [], []]},
                   actions=["rebirth D6", "special SA row2", "special S2 row2", "special C3 row3"], rng=3)
    table = play(engine, pos)
    assert table.zone("C3", 0) == ("row3", 0)
    # the rest of the deck was shuffled: which card is on top depends on the generator
    tops = set()
    for seed in range(6):
        pos["rng"] = seed
        state = play(engine, pos).state
        from sim.faction_war import layout as L
        tops.add(int(state[L.S_DECK + int(state[L.S_DECK_COUNT]) - 1]))
    assert len(tops) > 1


def test_F_ALJ_5_moved_card_gives_pairs_from_the_next_own_turn(engine):
    pos = on_next_own_turn({"hand": ["D2", "D5"], "rows": [[zone("DJ"), "D7"], [], []]},
                           {"faction": "human"}, ["rebirth D7", "end"])
    table = play(engine, pos)
    assert "pair D2 D5" not in table.legal()
    pos["actions"] = ["end", "rebirth D7", "end", "end", "end", "end", "end"]  # the first end declines F-ALJ-4
    table = play(engine, pos)
    assert table.turn == 7 and "pair D2 D5" in table.legal()


def test_FA_35_rebirth_uses_the_extra_placement(engine):
    pos = position(p0={"hand": ["S5"], "rows": [[zone("DJ"), "D7"], [], []]}, actions=["rebirth D7", "end"],
                   rules={"ambiguities": {"FA-35": "uses_it"}})
    assert "extra S5" not in play(engine, pos).legal()
    pos["rules"] = {}
    assert "extra S5" in play(engine, pos).legal()


def test_FA_33_sources_exile_and_free_zone_cards(engine):
    pos = position(p0={"hand": ["SA"], "exile": ["S2"], "rows": [[zone("DJ"), "D6"], [], []]},
                   extra={"C": "C3"}, actions=["rebirth D6"])
    # every other normal card sits on row 3, where no special placement takes from
    pos["players"][0]["rows"][2] = [c for c in _normal_cards() if c not in ("SA", "S2", "C3", "D6")]
    assert not any(t.startswith("special") for t in play(engine, pos).legal())  # A + 3 only: two cards
    pos["rules"] = {"ambiguities": {"FA-33": "with_exile"}}
    assert "special S2 row2" in play(engine, pos).legal()
    pos["actions"] += ["special SA row2", "special S2 row2", "special C3 row3"]
    assert play(engine, pos).life(0) == 47
    pos["rules"] = {"ambiguities": {"FA-33": "zones_free"}}
    pos["players"][0]["hand"] = ["SA", "S2"]
    pos["players"][0]["exile"] = []
    assert play(engine, pos).life(0) == 48  # the zone card costs nothing


def _normal_cards():
    return [s + r for s in "DSCH" for r in ["A"] + [str(n) for n in range(2, 11)]]


# ---- F-ALQ-1 Call of the Abyss ----------------------------------------------------------------------------

def test_F_ALQ_1_abyss_row_attack_exiles_the_victim(engine):
    pos = position(p0={"rows": [[zone("DQ", arrival=3), "D9"], [], []]}, p1={"rows": [["D3"], [], []]},
                   phase="attack", actions=["attack row1 row1"])
    table = play(engine, pos)
    assert table.zone("D3", 1) == ("exile", 1) and table.life(1) == 47  # FA-20: Human's exile zone
    pos["rules"] = {"ambiguities": {"FA-20": "graveyard"}}
    assert play(engine, pos).zone("D3", 1) == ("grave", 1)


def test_F_ALQ_1_own_cards_leaving_an_abyss_row_are_exiled(engine):
    # The Human attacks the Alien's Abyss row: the Alien's card is exiled, not buried.
    pos = position(p0={"faction": "human", "rows": [[], ["S9"], []]},
                   p1={"faction": "alien", "rows": [[], [zone("SQ"), "S2"], []]},
                   phase="attack", actions=["attack row2 row2"])
    table = play(engine, pos)
    assert table.zone("S2", 1) == ("exile", 1) and table.life(1) == 48


# ---- F-ALK Outer Charge ----------------------------------------------------------------------------------------

def test_F_ALK_1_passive_heals_per_exiled_card_from_the_next_turn(engine):
    # K and Q in row 1 (F-ALF-1: both apply): the Human's attack exiles ♦2 → the K heals 1.
    pos = position(p0={"faction": "human", "rows": [["D9"], [], []]},
                   p1={"faction": "alien", "rows": [[zone("DQ"), zone("DK", 2), "D2"], [], []]},
                   phase="attack", actions=["attack row1 row1"])
    table = play(engine, pos)
    assert table.zone("D2", 1) == ("exile", 1) and table.life(1) == 50 - 2 + 1
    pos["players"][1]["rows"][0][1] = zone("DK", 2, 3)  # arrived this turn: not yet
    assert play(engine, pos).life(1) == 48


def test_F_ALK_2_mode_2_exile_own_card_and_heal_its_number(engine):
    pos = position(p0={"life": 40, "rows": [[zone("DK"), "D6"], [], []]}, actions=["charge2 row1 D6"])
    table = play(engine, pos)
    assert table.zone("D6", 0) == ("exile", 0) and table.life(0) == 40 + 6 + 1  # +1 passive
    assert not any(t.startswith("charge") for t in table.legal())  # FA-30: once per turn per row


def test_F_ALK_2_mode_1_opponent_answers_with_a_same_number_card(engine):
    pos = position(p0={"life": 40, "rows": [[zone("DK"), "D6"], [], []]},
                   p1={"life": 40, "rows": [[], ["S6", "S3"], ["C6"]]}, actions=["charge1 row1 D6"])
    table = play(engine, pos)
    assert table.decider == 1 and sorted(table.legal()) == ["answer C6", "answer S6"]
    pos["actions"].append("answer C6")
    table = play(engine, pos)
    assert table.zone("C6", 1) == ("exile", 1) and table.life(1) == 46 and table.life(0) == 47
    assert table.decider == 0 and table.phase == "placement"


@pytest.mark.parametrize("reading, allowed", [("not_allowed", False), ("own_only", True)])
def test_FA_16_mode_1_without_a_matching_card(engine, reading, allowed):
    pos = position(p0={"rows": [[zone("DK"), "D6"], [], []]}, p1={"rows": [[], ["S5"], []]},
                   rules={"ambiguities": {"FA-16": reading}})
    assert ("charge1 row1 D6" in play(engine, pos).legal()) == allowed


def test_F_ALK_2_mode_3_both_exile_and_heal_the_count(engine):
    pos = position(p0={"life": 40, "rows": [[zone("DK"), "D6", "D2"], [], []]},
                   p1={"life": 40, "rows": [[], ["S6", "S3"], ["C6"]]}, actions=["charge3 row1", "answer S3", "answer C6"])
    table = play(engine, pos)
    assert table.zone("D6", 0)[0] == "exile" and table.zone("S3", 1)[0] == "exile"
    assert table.zone("S6", 1)[0] == "row2"
    # 4 cards exiled: each heals 4; the K's passive adds 2 for its own row's cards.
    assert table.life(0) == 40 + 2 + 4 and table.life(1) == 44


@pytest.mark.parametrize("reading, allowed", [("all_they_have", True), ("not_allowed", False)])
def test_FA_31_mode_3_when_the_opponent_has_fewer(engine, reading, allowed):
    pos = position(p0={"rows": [[zone("DK"), "D6", "D2"], [], []]}, p1={"rows": [[], ["S6"], []]},
                   rules={"ambiguities": {"FA-31": reading}})
    assert ("charge3 row1" in play(engine, pos).legal()) == allowed


@pytest.mark.parametrize("reading, again", [("per_turn_per_row", False), ("unlimited", True)])
def test_FA_30_activation_frequency(engine, reading, again):
    pos = position(p0={"rows": [[zone("DK"), "D6", "D2"], [], []]}, actions=["charge2 row1 D6"],
                   rules={"ambiguities": {"FA-30": reading}})
    assert ("charge2 row1 D2" in play(engine, pos).legal()) == again


def test_FA_30_once_per_k_card(engine):
    pos = on_next_own_turn({"rows": [[zone("DK"), "D6", "D2"], [], []]}, {"faction": "human"},
                           ["charge2 row1 D6", "end", "end", "end", "end"],
                           rules={"ambiguities": {"FA-30": "once_per_k"}})
    table = play(engine, pos)
    assert table.turn == 7 and not any(t.startswith("charge") for t in table.legal())


def test_FA_36_heals_capped_at_starting_life(engine):
    pos = position(p0={"life": 48, "start_life": 50, "rows": [[zone("DK"), "D6"], [], []]},
                   actions=["charge2 row1 D6"], rules={"ambiguities": {"FA-36": "starting_life"}})
    assert play(engine, pos).life(0) == 50
    pos["rules"] = {}
    assert play(engine, pos).life(0) == 55


def test_F_ALF_1_identical_alien_face_cards_act_as_one(engine):
    pos = position(p0={"life": 40, "rows": [[zone("DK"), zone("DK#2", 2), "D6"], [], []]},
                   actions=["charge2 row1 D6"], rules={"ambiguities": {"FA-34": "two"}})
    assert play(engine, pos).life(0) == 47  # one passive heal, not two


# ---- F-ALW-1 Deep-Sea Era -------------------------------------------------------------------------------------

def _exiled(count, suits="DSCH"):
    cards = [s + r for s in suits for r in ["A"] + [str(n) for n in range(2, 11)]]
    return cards[:count]


@pytest.mark.parametrize("active", [0, 1])
def test_F_ALW_1_more_than_54_exiled_wins_for_the_alien_on_either_turn(engine, active):
    # 27 + 27 = 54 in exile; one more (the attacked ♦... via an Abyss row) makes 55.
    p0 = {"faction": "alien", "exile": _exiled(27, "SCH")[:27]}
    p1 = {"faction": "human", "exile": _exiled(27, "SCH")[:27]}
    if active == 0:
        p0["rows"] = [[zone("DQ"), "D9"], [], []]
        p1["rows"] = [["D3"], [], []]
    else:
        p0["rows"] = [[zone("DQ"), "D2"], [], []]
        p1["rows"] = [["D9"], [], []]
    pos = position(p0=p0, p1=p1, active=active, phase="attack", actions=["attack row1 row1"])
    table = play(engine, pos)
    assert (table.winner, table.end_type) == (0, "deep_sea")


@pytest.mark.parametrize("reading, outcome", [("turn_player", (1, "deep_sea")), ("draw", (2, "deep_sea_draw"))])
def test_FA_17_deep_sea_in_alien_vs_alien(engine, reading, outcome):
    p0 = {"faction": "alien", "exile": _exiled(27, "SCH"), "rows": [[zone("DQ"), "D2"], [], []]}
    p1 = {"faction": "alien", "exile": _exiled(27, "SCH"), "rows": [["D9"], [], []]}
    pos = position(p0=p0, p1=p1, active=1, phase="attack", actions=["attack row1 row1"],
                   rules={"ambiguities": {"FA-17": reading}})
    table = play(engine, pos)
    assert (table.winner, table.end_type) == outcome


# ---- Human interactions -----------------------------------------------------------------------------------------

def test_human_self_destruct_on_an_abyss_row_exiles_the_alien_card(engine):
    pos = on_next_own_turn({"faction": "human", "rows": [[zone("DK"), "D2"], [], []]},
                           {"faction": "alien", "rows": [[zone("DQ"), "D8"], [], []]}, [])
    pos["players"][0]["faction"] = "human"
    table = play(engine, pos)
    assert table.zone("D8", 1) == ("exile", 1) and table.counter("self_destruct") == 1


def test_human_polymorph_acts_on_alien_rows(engine):
    pos = position(p0={"faction": "human", "rows": [[], [zone("SJ"), "S2"], []]},
                   p1={"faction": "alien", "rows": [[], ["S9", "S8"], []]}, phase="attack")
    # S9 is the largest; S8 and S2 count 1: 1 vs 10: no attack from row 2 into row 2.
    legal = play(engine, pos).legal()
    assert "attack row2 row2" not in legal and "end" in legal
    # With S10 instead of S2 the Human card is the largest: 10 vs 1 + 1: the attack is legal,
    # where without the J it would be 10 vs 17.
    pos["players"][0]["rows"][1] = [zone("SJ"), "S10"]
    assert "attack row2 row2" in play(engine, pos).legal()
    pos["players"][0]["rows"][1] = ["S10"]
    assert "attack row2 row2" not in play(engine, pos).legal()


def test_F_WIN_3_deep_sea_reached_by_a_preparation_effect_ends_the_match_at_once(engine):
    # Regression: a Human K's Self-Destruct exiles the Alien's ♦8 from an Abyss row (55 in
    # exile); the match used to go on into the draw phase with the winner already set.
    pos = on_next_own_turn({"faction": "human", "rows": [[zone("DK"), "D2"], [], []], "exile": _exiled(27, "SCH")},
                           {"faction": "alien", "rows": [[zone("DQ"), "D8"], [], []], "exile": _exiled(27, "SCH")}, [])
    pos["players"][0]["faction"] = "human"
    table = play(engine, pos)
    assert (table.phase, table.winner, table.end_type) == ("over", 1, "deep_sea") and table.legal() == []


def test_F_TURN_6_alien_k_passive_works_from_the_very_next_turn_whoever_s(engine):
    # The Alien places ♦K on turn 3; on turn 4 (the Human's) an attack on the Q row exiles ♦2:
    # the K heals at once, although the Alien has not had a turn since (F-ALK-1 says 下一回合).
    pos = position(p0={"hand": ["DK"], "rows": [[zone("DQ"), "D2"], [], []]},
                   p1={"faction": "human", "rows": [["D9"], [], []]},
                   actions=["face DK", "end", "end", "end", "attack row1 row1"])
    table = play(engine, pos)
    assert table.zone("D2", 0) == ("exile", 0) and table.life(0) == 50 - 2 + 1
