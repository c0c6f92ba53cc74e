"""Scenario tests for the player decisions of FA-4 "choice" and FA-6 "choice" (issue 14).

Each position runs on both engines (`engine` fixture). FA-6 "choice": a card
choice with tied cards becomes the effect controller's `tie CARD` decision,
and the interrupted effect goes on after it; FA-4 "choice": the Human turn
player decides whether its mandatory effects resolve before or after the
draw (`effects now` / `effects after-draw`). The other readings of both
switches are tested next to their clauses (tests/test_fw_base_clauses.py,
tests/test_fw_human_clauses.py) and again here where a decision would apply.
"""

import pytest

from scenario_harness import engine, play  # noqa: F401  (fixture)
from sim.cards import code_text

CHOICE = {"ambiguities": {"FA-6": "choice"}}


def position(p0=None, p1=None, **top):
    base = {"turn": 3, "active": 0, "phase": "placement",
            "players": [dict({"life": 50, "faction": "human"}, **(p0 or {})),
                        dict({"life": 50, "faction": "human"}, **(p1 or {}))]}
    base.update(top)
    return base


def next_own_turn(p0, p1, actions, rules):
    """p1's attack phase: `end` starts p0's turn 5 (cards with arrival 1 act)."""
    return position(p0, p1, turn=4, active=1, phase="attack", actions=["end"] + actions, rules=rules)


def ties(table):
    return sorted(table.legal())


# ---- FA-6 on the F-ATK-5 victim ---------------------------------------------------------------

TIED_ROW = [[{"card": "H3", "order": 5}, {"card": "D3", "order": 9}], [], []]


@pytest.mark.parametrize("reading, leaves", [("earliest", "H3"), ("choice", None)])
def test_FA_6_attack_victim_tie(engine, reading, leaves):
    pos = position(p0={"rows": [["D10"], [], []]}, p1={"rows": TIED_ROW}, phase="attack",
                   actions=["attack row1 row1"], rules={"ambiguities": {"FA-6": reading}})
    table = play(engine, pos)
    if reading == "earliest":  # no decision: the earliest placed leaves
        assert table.zone(leaves, 1) == ("grave", 1) and table.active == 1
        return
    # the attacker decides, before anything leaves; the turn has not ended
    assert ties(table) == ["tie p1:D3", "tie p1:H3"] and table.decider == 0 and table.active == 0
    assert table.life(1) == 50 and table.zone("D3", 1) == ("row1", 1)
    pos["actions"].append("tie p1:D3")  # the later-placed one: not what "earliest" gives
    table = play(engine, pos)
    assert table.zone("D3", 1) == ("grave", 1) and table.zone("H3", 1) == ("row1", 1)
    assert table.life(1) == 47 and table.active == 1 and table.turn == 4  # the attack ended the turn


def test_FA_6_choice_without_a_tie_asks_nothing(engine):
    pos = position(p0={"rows": [["D10"], [], []]}, p1={"rows": [["H3", "D4"], [], []]}, phase="attack",
                   actions=["attack row1 row1"], rules=CHOICE)
    table = play(engine, pos)
    assert table.zone("H3", 1) == ("grave", 1) and table.life(1) == 47 and table.active == 1


def test_FA_6_choice_doubled_attack_and_after_action_life_check(engine):
    # Two packs (FA-34): two identical ♣3 in p1's row 3. Row 1 -> row 3 doubles (F-TGT-1);
    # p1 at 6 life dies only once the pick is made: FA-29 "after_action" checks life
    # after the pick that completes the attack.
    rules = {"ambiguities": {"FA-6": "choice", "FA-29": "after_action", "FA-34": "two"}}
    pos = position(p0={"rows": [["D10"], [], []]}, p1={"life": 6, "rows": [[], [], ["C3", "C3#2"]]},
                   phase="attack", actions=["attack row1 row3"], rules=rules)
    table = play(engine, pos)
    assert ties(table) == ["tie p1:C3", "tie p1:C3#2"] and table.phase == "attack" and table.life(1) == 6
    pos["actions"].append("tie p1:C3#2")
    table = play(engine, pos)
    assert table.zone("C3#2", 1) == ("grave", 1) and table.zone("C3", 1) == ("row3", 1)
    assert table.life(1) == 0 and table.phase == "over" and table.winner == 0


def test_FA_6_choice_abyss_joker_row_hit_goes_on_after_the_pick(engine):
    # FA-22 "also": the Alien joker row first hits like a normal attack (the tie: p0
    # picks), then exiles the rest of the row, then the Abyss joker leaves (F-JOK-A-4).
    rules = {"ambiguities": {"FA-6": "choice", "FA-22": "also"}}
    pos = position(p0={"faction": "alien", "rows": [["D2", "BJ"], [], []]}, p1={"rows": TIED_ROW},
                   phase="attack", actions=["attack row1 row1"], rules=rules)
    table = play(engine, pos)
    assert ties(table) == ["tie p1:D3", "tie p1:H3"]
    assert table.zone("BJ", 0) == ("row1", 0)  # the joker waits for the pick
    pos["actions"].append("tie p1:D3")
    table = play(engine, pos)
    assert table.zone("D3", 1) == ("grave", 1) and table.zone("H3", 1) == ("exile", 1)
    assert table.zone("BJ", 0) == ("exile", 0) and table.active == 1
    # p1: 3 (the hit) + 3 (its exile sum); p0: 0 exile points, healed 10 by its joker
    assert table.life(1) == 44 and table.life(0) == 60


# ---- FA-6 on the Human mandatory effects -----------------------------------------------------

def test_FA_6_choice_mind_magic_steals_the_picked_card(engine):
    p0 = {"rows": [[], [{"card": "SQ", "arrival": 1}], []]}
    p1 = {"rows": [[], [{"card": "S5", "order": 1}, {"card": "H5", "order": 2}], []]}
    table = play(engine, next_own_turn(p0, p1, [], CHOICE))
    assert ties(table) == ["tie p1:H5", "tie p1:S5"] and table.decider == 0
    assert table.hand_size(0) == 0  # FA-4 "preparation": before the draw
    table = play(engine, next_own_turn(p0, p1, ["tie p1:H5"], CHOICE))
    assert table.zone("H5", 1) == ("row2", 0) and table.zone("S5", 1) == ("row2", 1)
    assert table.counter("mind_magic") == 1 and table.phase == "placement" and table.hand_size(0) == 2


@pytest.mark.parametrize("pick, mine_left", [("tie D9", False), ("tie p1:H9", True)])
def test_FA_6_choice_self_destruct_across_both_players(engine, pick, mine_left):
    # The largest of both rows is a 9 on each side: p0 (the K's controller) picks which goes.
    p0 = {"rows": [[{"card": "DK", "arrival": 1}, "D9"], [], []]}
    p1 = {"rows": [["H9", "D4"], [], []]}
    table = play(engine, next_own_turn(p0, p1, [], CHOICE))
    assert ties(table) == ["tie D9", "tie p1:H9"]
    table = play(engine, next_own_turn(p0, p1, [pick], CHOICE))
    assert (table.zone("D9", 0) == ("row1", 0)) == mine_left
    assert (table.zone("H9", 1) == ("row1", 1)) != mine_left
    assert table.counter("self_destruct") == 1 and table.phase == "placement"


def test_FA_6_choice_jk_cull_asks_per_tied_keep_then_goes_on(engine):
    # J+K: each side keeps its two largest. p0: 9 then one of two 5s (a pick); p1: one
    # of two 7s (a pick), then the other 7 alone. Row 2's Q acts after the cull.
    p0 = {"rows": [[{"card": "DJ", "arrival": 1}, {"card": "DK", "arrival": 1}, "D9", "D5", "H5"],
                   [{"card": "SQ", "arrival": 1}], []]}
    p1 = {"rows": [["D7", "H7", "D3"], ["S2"], []]}
    table = play(engine, next_own_turn(p0, p1, [], CHOICE))
    assert ties(table) == ["tie D5", "tie H5"]
    table = play(engine, next_own_turn(p0, p1, ["tie H5"], CHOICE))
    assert ties(table) == ["tie p1:D7", "tie p1:H7"]
    table = play(engine, next_own_turn(p0, p1, ["tie H5", "tie p1:H7"], CHOICE))
    assert table.zone("D5", 0) == ("grave", 0) and table.zone("H5", 0) == ("row1", 0)
    assert table.zone("D3", 1) == ("grave", 1) and table.zone("D7", 1) == ("row1", 1)
    assert table.counter("combo_jk") == 1
    assert table.zone("S2", 1) == ("row2", 0)  # the walk went on to row 2's Mind Magic
    assert table.phase == "placement" and table.hand_size(0) == 2


# ---- FA-4 "choice" --------------------------------------------------------------------------------

def short_deck(p0, keep):
    """p0's deck holds only `keep` (the rest of p0's pack is in its graveyard)."""
    listed = set(keep) | {c if isinstance(c, str) else c["card"] for row in p0["rows"] for c in row}
    p0["graveyard"] = [code_text(code, 0) for code in range(54) if code_text(code, 0) not in listed]
    p0["deck"] = list(keep)
    return p0


QUEEN_ROW = [[], [{"card": "SQ", "arrival": 1}], []]


@pytest.mark.parametrize("reading", ["preparation", "placement_start"])
def test_FA_4_fixed_readings_ask_nothing(engine, reading):
    rules = {"ambiguities": {"FA-4": reading}}
    table = play(engine, next_own_turn({"rows": QUEEN_ROW}, {"rows": [[], ["S5"], []]}, [], rules))
    assert table.phase == "placement" and table.zone("S5", 1) == ("row2", 0)


def test_FA_4_choice_is_offered_when_an_effect_is_due(engine):
    rules = {"ambiguities": {"FA-4": "choice"}}
    pos = next_own_turn({"rows": QUEEN_ROW}, {"rows": [[], ["S5"], []]}, [], rules)
    table = play(engine, pos)
    assert table.legal() == ["effects now", "effects after-draw"] and table.decider == 0
    assert table.hand_size(0) == 0 and table.zone("S5", 1) == ("row2", 1)  # nothing yet
    for answer in ("effects now", "effects after-draw"):
        pos["actions"] = ["end", answer]
        table = play(engine, pos)
        assert table.phase == "placement" and table.zone("S5", 1) == ("row2", 0) and table.hand_size(0) == 2


def test_FA_4_choice_without_a_due_effect_asks_nothing(engine):
    # A lone J (Polymorph) is continuous, not a mandatory effect: straight to the draw.
    rules = {"ambiguities": {"FA-4": "choice"}}
    p0 = {"rows": [[{"card": "DJ", "arrival": 1}], [], []]}
    table = play(engine, next_own_turn(p0, {"rows": [[], ["S5"], []]}, [], rules))
    assert table.phase == "placement" and table.hand_size(0) == 2 and table.decider == 0


@pytest.mark.parametrize("answer, stolen", [("effects now", True), ("effects after-draw", False)])
def test_FA_4_choice_now_or_after_the_draw_with_a_short_deck(engine, answer, stolen):
    # One card left, two to draw, FA-3 "lose": resolving first steals S5 before p0 loses;
    # drawing first loses at once.
    rules = {"ambiguities": {"FA-4": "choice"}}
    p0 = short_deck({"rows": QUEEN_ROW}, ["D2"])
    table = play(engine, next_own_turn(p0, {"rows": [[], ["S5"], []]}, [answer], rules))
    assert table.end_type == "deck_out" and table.winner == 1
    assert (table.zone("S5", 1) == ("row2", 0)) == stolen


def test_FA_4_choice_after_the_draw_then_FA_6_choice_pick(engine):
    rules = {"ambiguities": {"FA-4": "choice", "FA-6": "choice"}}
    p1 = {"rows": [[], ["S5", "H5"], []]}
    pos = next_own_turn({"rows": QUEEN_ROW}, p1, ["effects after-draw"], rules)
    table = play(engine, pos)
    assert ties(table) == ["tie p1:H5", "tie p1:S5"] and table.hand_size(0) == 2  # drawn first
    pos["actions"].append("tie p1:S5")
    table = play(engine, pos)
    assert table.zone("S5", 1) == ("row2", 0) and table.phase == "placement" and table.decider == 0
    assert "end" in table.legal()
