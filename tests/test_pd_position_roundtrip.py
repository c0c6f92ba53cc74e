"""Poker Duel positions dump and load in full (issue 25): a dumped match loads back to the same
state array — deck order, rules and readings, generator, the chain, a pending choice and the
engine's bookkeeping — and plays on to the same end; hand-written files of the old format
(docs/examples/pd_*.json) still load; a bad field of the new keys is one line, exit 2.

The contract suite (tests/test_contract.py) checks dump -> load -> dump and the legal actions
for every game; this file holds Poker Duel to the stronger claim, over readings that reach
the states the presets never do (the chain's K placement, taken cards, committed boosts)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from sim.cli import main
from sim.poker_duel import layout as L
from sim.poker_duel.position import apply_texts, dump_position, load_position, run_scenario
from sim.poker_duel.reference import Match
from sim.poker_duel.rules import IMPLEMENTED, load_rules

MATCHES = 24  # random matches, a few thousand positions: each kind of pending choice is reached
EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "docs" / "examples").glob("pd_*.json"))


def _rules(k: int):
    """The two presets, and every third match a random half of the switches at random readings."""
    chooser = random.Random(k)
    base = load_rules("advanced" if k % 2 else "core")
    if k % 3 == 0:
        return base
    readings = {amb: chooser.choice(values) for amb, values in IMPLEMENTED.items() if chooser.random() < 0.5}
    return base.with_changes(ambiguities=readings, monster_zone=chooser.choice([3, 5]),
                             back_row=chooser.choice([2, 5]))


def _random_positions():
    """(match seed, reference match) at every step of seeded random matches."""
    for k in range(MATCHES):
        m = Match.new(_rules(k), 20 + k % 30, 30, k % 2, k * 7919 + 1)
        chooser = random.Random(k)
        while True:
            yield k, m
            if m.is_over():
                break
            legal = m.legal_actions()
            m.apply(legal[chooser.randrange(len(legal))])


def test_a_dumped_match_loads_back_to_the_same_state():
    pending_kinds = set()
    for k, m in _random_positions():
        position = json.loads(json.dumps(dump_position(m)))
        loaded = load_position(position)
        expected, got = m.to_array(), loaded.to_array()
        assert np.array_equal(expected, got), "match %d turn %d: slots %s differ" % (
            k, m.turn, np.nonzero(expected != got)[0][:10].tolist())
        assert dump_position(loaded) == position
        assert loaded.legal_actions() == m.legal_actions()
        pending_kinds.add(m.pend_kind)
    assert pending_kinds >= {L.PK_NONE, L.PK_J_TARGETS, L.PK_Q_COUNT, L.PK_RESPONSE, L.PK_K_PICKS, L.PK_K_PLACE,
                             L.PK_Q_SET, L.PK_DRAW, L.PK_MULLIGAN}, pending_kinds


def test_a_loaded_position_plays_on_to_the_same_end():
    """The generator travels with the position: the same choices give the same match."""
    for k in range(6):
        m = Match.new(_rules(k), 40, 40, k % 2, 100 + k)
        chooser = random.Random(k)
        for _ in range(25 + 7 * k):  # somewhere in the middle of the match
            if m.is_over():
                break
            legal = m.legal_actions()
            m.apply(legal[chooser.randrange(len(legal))])
        copy = load_position(json.loads(json.dumps(dump_position(m))))
        state = chooser.getstate()
        for match in (m, copy):
            chooser.setstate(state)
            while not match.is_over():
                legal = match.legal_actions()
                match.apply(legal[chooser.randrange(len(legal))])
        assert np.array_equal(m.to_array(), copy.to_array()), k
        assert (m.winner, m.end_type, m.turn) == (copy.winner, copy.end_type, copy.turn)


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda path: path.name)
def test_the_example_files_of_the_old_format_still_load(example):
    output, events = run_scenario(example)
    assert events and output["players"][0]["deck"]
    again = load_position({k: v for k, v in output.items() if k != "legal"})  # the dump is a position too
    assert dump_position(again) == output


def test_a_hand_written_position_keeps_its_defaults():
    """The compact format: deck = the unlisted cards in ascending code order, set a turn ago, the
    decider the active player, generator 0, no counters."""
    m = load_position({"players": [{"hand": ["S7"], "back_row": ["HQ"]}, {"monsters": ["C5"]}]})
    assert m.deck[0][:3] == [0, 1, 2] and len(m.deck[0]) == 52 and len(m.deck[1]) == 53
    assert m.set_turn[L.card_id(0, 50)] == 2 and m.decider == 0 and m.rng.state == 0
    assert m.seq == 0 and not any(m.counters) and m.pend_kind == L.PK_NONE
    apply_texts(m, ["summon S7"])
    assert m.zone[L.card_id(0, 19)] == L.Z_MONSTER


BAD = {
    "pending without its card": ({"pending": "k_picks"}, "pending 'k_picks' needs its card last on the 'chain'"),
    "pending unknown": ({"pending": "k_pick"}, "'pending' must be one of"),
    "choice past its list": ({"pending": "q_set", "choice": {"list": ["S7"], "chosen": 1}},
                             "'choice.chosen' below the length"),
    "choice unknown key": ({"choice": {"who": 1}}, "unknown key 'choice.who'"),
    "chain of a monster card": ({"chain": [{"card": "S7", "player": 0}]}, "'chain[0].card' must be a J, Q, K"),
    "chain card twice": ({"players": [{"hand": ["HJ"]}, {}], "chain": [{"card": "HJ", "player": 0}]},
                         "'chain[0].card': HJ is already in 'players[0].hand'"),
    "chain of the other deck": ({"chain": [{"card": "HJ'", "player": 0}]}, "only a K under D-AMB-60"),
    "mark unknown flag": ({"players": [{"marks": {"S7": {"flags": ["tapped"]}}}, {}]},
                          "'players[0].marks.S7.flags' must be one of"),
    "mark not an object": ({"players": [{"marks": ["S7"]}, {}]}, "'players[0].marks' must be an object"),
    "winner while playing": ({"winner": 1}, "only read in phase 'over'"),
    "end type unknown": ({"phase": "over", "end_type": "ko"}, "'end_type' must be one of"),
    "graveyard seq twice": ({"players": [{"graveyard": ["S7", "S8"], "graveyard_seq": [2, 2]}, {}]},
                            "'graveyard_seq' numbers must differ"),
    "graveyard seq short": ({"players": [{"graveyard": ["S7", "S8"], "graveyard_seq": [2]}, {}]},
                            "one arrival number per graveyard card (2, got 1)"),
    "seq below the graveyard": ({"seq": 1, "players": [{"graveyard": ["S7", "S8"]}, {}]}, "'seq' must be an integer from 2"),
    "rng past 64 bits": ({"rng": 2**64}, "'rng' must be an integer from 0 to 18446744073709551615"),
    "counter unknown": ({"counters": {"summon": 1}}, "unknown key 'counters.summon'"),
    "decider 2": ({"decider": 2}, "'decider' must be an integer from 0 to 1"),
    "attack in main": ({"attack": {"attacker": "S7", "target": "player"}}, "'attack' is only read in phases"),
}


@pytest.mark.parametrize("case", BAD)
def test_a_bad_field_of_the_full_format_is_one_line(tmp_path, capsys, case):
    data, words = BAD[case]
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    assert main(["scenario", "--game", "poker_duel", str(path)]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cardbalance scenario: error: position: "), lines
    assert words in lines[0], lines[0]
