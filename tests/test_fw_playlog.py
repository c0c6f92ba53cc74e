"""The play log replays exactly the match a sweep kernel played (issue 2 part 5, issue 6 replay).

`cardbalance play` runs the reference engine with the compiled strategies;
the batch kernels run the numba engine with the same strategies, views and
policy generators. Same (rules, cell, seed) → same match: same winner, end
type, turn count, lives and counters.
"""

import numpy as np
import pytest

from sim import aggregate
from strategies.faction_war import batch
from sim.faction_war import layout as L
from strategies.faction_war.playlog import reference_record, with_reasons
from sim.faction_war.rules import Rules, rules_from_array
from sim.rng import match_seed
from strategies.faction_war import strategy_id


def test_rules_array_round_trip():
    rules = Rules().with_changes(turn_cap=77, ambiguities={"FA-3": "draw", "FA-26": "on_arrival"})
    assert rules_from_array(rules.to_array()) == rules


@pytest.mark.parametrize("factions", [(0, 0), (0, 1), (1, 0), (1, 1)])
@pytest.mark.parametrize("strategy", ["random", "greedy"])
def test_reference_replay_equals_the_kernel_match_by_match(factions, strategy):
    rules_array = Rules().to_array()
    sid = strategy_id(strategy)
    cell = batch.cell_array(factions[0], factions[1], 40, 60, 1, sid, sid)
    chunk_seed = 987654321
    for index in range(25):
        kernel_agg = batch.play_batch(rules_array, cell, np.uint64(chunk_seed), index, 1)
        record = reference_record(rules_array, cell, match_seed(chunk_seed, index))
        single = aggregate.empty_aggregate(L.N_END_TYPES, L.N_COUNTERS, batch.LENGTH_BINS)
        aggregate.accumulate(single, record, L.N_END_TYPES, L.N_COUNTERS, batch.LENGTH_BINS)
        assert np.array_equal(kernel_agg, single), "match %d of %s %s differs" % (index, factions, strategy)


def test_reference_record_takes_a_rules_object_or_its_array():
    rules = Rules()
    cell = batch.cell_array(0, 1, 50, 50, 0, strategy_id("greedy"), strategy_id("greedy"))
    assert np.array_equal(reference_record(rules, cell, 11), reference_record(rules.to_array(), cell, 11))


def test_the_log_gives_the_rule_behind_each_attack_and_each_human_face_card_cost():
    from strategies.faction_war.playlog import with_reasons
    from sim.faction_war.layout import ALIEN, HUMAN
    lines = ["p1 attacks p0 row1 with row2: 4 vs 1", "  DA leaves the field", "  p0 takes 1: life 29 / 30",
             "p0 attacks p1 row3 with row1: 9 vs 3", "  C3 leaves the field", "  p1 takes 6: life 30 / 24",
             "p0 uses HJ: removes p1:SK", "  p0 takes 1: life 28 / 30",
             "p1 uses HQ: removes p0:DK", "  p1 takes 1: life 28 / 29",
             "p1 attacks p0 row2 with row1: 0 vs 12", "  S5 leaves the field", "  S6 leaves the field",
             "  both take damage: life 20 / 20"]
    out = with_reasons(lines, (HUMAN, ALIEN))
    assert out[0].endswith("(sum 4 > 1: a row may attack a row of smaller sum, F-ATK-3)")
    assert out[1].endswith("(the attacked row's smallest normal card, F-ATK-4/5)")
    assert out[2].endswith("(the removed card's number, F-ATK-4)")
    assert out[5].endswith("(twice the removed card's number: row 1 reaching row 3, F-TGT-1)")
    assert out[7].endswith("(a Human face card used up costs 1 life, F-HUP-1)")
    assert out[9] == lines[9]  # the Alien pays nothing for a used face card: no reason invented
    assert out[10].endswith("(its big joker wins regardless of the sums, F-JOK-2)")
    assert out[11:] == lines[11:]  # not an ordinary removal: left as the engine told it
    assert len(out) == len(lines)


# ---- the reasons behind joker, Q and K effects (issue 29 part 5) ---------------------------------------

def _events(position, actions):
    from sim.faction_war.position import apply_texts, load_position
    match, _ = load_position(position)
    apply_texts(match, actions)
    return match.events


def test_a_human_q_and_k_name_the_numbers_they_compared():
    # p0's ♦Q (row 1) and ♠K (row 2) are in place since turn 1; p1 ends its turn, p0's effects resolve:
    # Mind Magic takes p1's smallest of row 1 (3 of 3, 7), Self-Destruct the largest of both row 2s (9 of 5, 9).
    events = _events({"turn": 4, "active": 1, "phase": "attack", "players": [
        {"rows": [[{"card": "DQ", "arrival": 1}], [{"card": "SK", "arrival": 1}, "S9"], []], "deck": ["H2", "H3"]},
        {"rows": [["D3", "D7"], ["S5"], []]}]}, ["end"])
    assert ("p0 Mind Magic steals p1:D3 into row1 (Q in row1 since turn 1: the opponent's smallest normal card "
            "there, 3 among 3, 7, F-HUQ-1)") in events
    assert ("p0 Self-Destruct destroys S9 (K in row2 since turn 1: the largest normal card of both players' row2, "
            "9 among 5, 9, F-HUK-1)") in events


def test_an_alien_q_exile_and_k_heal_say_why_and_keep_the_attack_reasons():
    # p0 (Human, 9) hits the Alien's row 1 (Q, K since turn 1, ♦3): ♦3 is exiled by its own row's Q (F-ALQ-1),
    # and the K heals its owner 1 for it (F-ALK-1), before the 3 damage.
    from sim.faction_war.layout import ALIEN, HUMAN
    events = _events({"turn": 4, "active": 0, "phase": "attack", "players": [
        {"faction": "human", "rows": [["D9"], [], []]},
        {"faction": "alien", "life": 40, "rows": [[{"card": "DQ", "arrival": 1}, {"card": "DK", "arrival": 1}, "D3"],
                                                  [], []]}]}, ["attack row1 row1"])
    assert events[1] == "  D3 leaves the field (exiled: an Alien Q in its own row, Call of the Abyss, F-ALQ-1)"
    assert events[2] == ("  p1 heals 1: life 50 / 41 (a normal card exiled from the row1 of its K, present since "
                         "turn 1, F-ALK-1)")
    logged = with_reasons(list(events[:2]) + ["  p1 takes 3: life 50 / 38"], (HUMAN, ALIEN))
    assert logged[1].endswith("F-ALQ-1) (the attacked row's smallest normal card, F-ATK-4/5)")
    assert logged[2].endswith("(the removed card's number, F-ATK-4)")


EFFECT_LINES = ("Mind Magic steals", "Self-Destruct destroys", "J+Q swaps", "J+K culls", "Q+K sends", "Q+K splits",
                "small joker", "Holy Grail", "Abyss Magic", "Abyss joker returns", "duel sums", "loses the duel",
                "heals", "activates Outer Charge", "exiled:")


def test_every_joker_q_and_k_effect_line_names_its_clause():
    """Random matches on the reference engine (both factions each way, a third of the switches at random
    readings) until every kind of effect line has shown up: each carries its reason and clause ID."""
    import random

    from sim.faction_war.reference import Match
    from sim.faction_war.rules import AMBIGUITIES, load_rules
    seen = {}
    for k in range(600):
        chooser = random.Random(k)
        rules = load_rules("default")
        if k % 2:
            rules = rules.with_changes(ambiguities={amb: chooser.choice(readings) for amb, (_, readings)
                                                    in AMBIGUITIES.items() if chooser.random() < 0.3})
        match = Match.new(rules, k % 2, (k // 2) % 2, 30, 30, k % 2, k + 11)
        while not match.is_over():
            legal = match.legal_actions()
            match.apply(legal[chooser.randrange(len(legal))])
        for line in match.events:
            for kind in EFFECT_LINES:
                if kind in line:
                    seen.setdefault(kind, line)
                    assert line.endswith(")") and "F-" in line.rsplit("(", 1)[-1], line
        if len(seen) == len(EFFECT_LINES):
            break
    assert set(seen) == set(EFFECT_LINES), sorted(set(EFFECT_LINES) - set(seen))


# ---- Polymorph and Split Rebirth say why (issue 29 leftover) -------------------------------------------

def test_F_HUJ_1_F_HUC_1_polymorph_names_the_cards_it_turns_to_1_and_the_largest_it_spares():
    # p0's ♦J joins row 1 (♦3, ♦9 and p1's ♦5): all but the ♦9 count 1; a ♦8 placed later counts 1 too (FA-26)
    events = _events({"turn": 3, "active": 0, "phase": "placement", "players": [
        {"faction": "human", "hand": ["DJ", "D8"], "rows": [["D3", "D9"], [], []]}, {"rows": [["D5"], [], []]}]},
        ["face DJ", "place D8 row1"])
    assert events[-2] == ("p0 places face card DJ in row1 (Polymorph: every normal card of both players' row1 but "
                          "the single largest counts 1: D3, p1:D5 -> 1; D9 keeps 9, the largest by original number, "
                          "F-HUJ-1; FA-26 \"continuous\")")
    assert events[-1] == ("p0 places D8 in row1 (sum 11) (Polymorph: counts 1, D9 of both players' row1 being the "
                          "largest, F-HUJ-1)")                                  # 1 + 9 + 1
    on_arrival = _events({"rules": {"ambiguities": {"FA-26": "on_arrival"}}, "turn": 3, "active": 0,
                          "phase": "placement", "players": [
                              {"faction": "human", "hand": ["DJ", "D8"], "rows": [["D3", "D9"], [], []]},
                              {"rows": [[], [], []]}]}, ["face DJ", "place D8 row1"])
    assert on_arrival[-1] == "p0 places D8 in row1 (sum 18) (placed after the J: keeps its number, FA-26 \"on_arrival\")"
    # a J joining a Q makes the pair J+Q instead (F-HUC-1); a J in an empty row polymorphs what comes later
    events = _events({"turn": 3, "active": 0, "phase": "placement", "players": [
        {"faction": "human", "hand": ["DJ", "SJ"], "rows": [[{"card": "DQ", "arrival": 1}], [], []]},
        {"rows": [[], [], []]}]}, ["face DJ", "face SJ"])
    assert events[-2] == "p0 places face card DJ in row1 (J+Q: the pair replaces both effects from the next own turn, F-HUC-1)"
    assert events[-1].startswith("p0 places face card SJ in row2 (Polymorph: no normal card in either player's row2 yet")


def test_F_ALJ_1_to_F_ALJ_4_split_rebirth_says_what_it_moved_pushed_out_and_placed():
    events = _events({"turn": 3, "active": 0, "phase": "placement", "extra": {"D": "p1:D4"}, "players": [
        {"faction": "alien", "hand": ["SA", "S2", "C3"], "rows": [[{"card": "DJ", "arrival": 1}, "D6"], [], []]},
        {"faction": "alien", "rows": [[], [], []]}]}, ["rebirth D6", "special SA row2", "special S2 row2",
                                                        "special C3 row3"])
    assert events[-9:] == [
        "p0 Split Rebirth moves D6 into the extra zone (J in row1 since turn 1: a normal card of the row's suit, "
        "original number 6 within 3-10, once each own turn, F-ALJ-1; FA-35 \"separate\")",
        "  pushes out p1's D4 (the J overrides the opponent's zone: to its graveyard, and p1 takes its number 4, "
        "F-ALJ-2)",
        "  p1 takes 4: life 50 / 46",
        "p0 special-places SA in row2 (card 1 of the special placement for the moved card's 6: 5 still to reach, at "
        "least 3 cards, F-ALJ-4; from the hand, 1 life, F-ALN-1)",
        "  p0 takes 1: life 49 / 46",
        "p0 special-places S2 in row2 (card 2 of the special placement for the moved card's 6: 3 still to reach, at "
        "least 3 cards, F-ALJ-4; from the hand, 1 life, F-ALN-1)",
        "  p0 takes 1: life 48 / 46",
        "p0 special-places C3 in row3 (card 3 of the special placement for the moved card's 6: the sum is exact, at "
        "least 3 cards, F-ALJ-4; from the hand, 1 life, F-ALN-1)",
        "  p0 takes 1: life 47 / 46"]
    own = _events({"turn": 3, "active": 0, "phase": "placement", "extra": {"D": "D4"}, "players": [
        {"faction": "alien", "hand": ["SA"], "rows": [[{"card": "DJ", "arrival": 1}, "D6"], [], []]},
        {"rows": [[], [], []]}]}, ["rebirth D6", "end"])
    assert own[-2:] == ["  D4 is pushed out of the extra zone (its own card there is exiled, F-ALJ-3)",
                        "p0 makes no special placement (declined before the first card: allowed again only after "
                        "another card is moved into an extra zone, F-ALJ-4; FA-15 \"at_once\")"]


ALIEN_J_LINES = ("Polymorph:", "Split Rebirth moves", "special-places", "makes no special placement")


def test_every_polymorph_and_split_rebirth_line_names_its_clause():
    """Random matches on the reference engine until each kind of Polymorph / Split Rebirth line has shown up:
    each ends in a reason with a clause ID."""
    import random

    from sim.faction_war.reference import Match
    from sim.faction_war.rules import load_rules
    seen = {}
    for k in range(300):
        chooser = random.Random(k)
        match = Match.new(load_rules("default"), k % 2, (k // 2) % 2, 30, 30, k % 2, k + 11)
        while not match.is_over():
            legal = match.legal_actions()
            match.apply(legal[chooser.randrange(len(legal))])
        for line in match.events:
            for kind in ALIEN_J_LINES:
                if kind in line:
                    seen.setdefault(kind, line)
                    assert line.endswith(")") and "F-" in line.rsplit("(", 1)[-1], line
        if len(seen) == len(ALIEN_J_LINES):
            break
    assert set(seen) == set(ALIEN_J_LINES), sorted(set(ALIEN_J_LINES) - set(seen))
