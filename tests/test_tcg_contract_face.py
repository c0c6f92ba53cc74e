"""The Novel TCG's contract face (sim/novel_tcg/contract_face.py): its invariants catch each
kind of break, its hidden cards are the rules' (T-AMB-16 (a), T-AMB-84 (a)), and positions
with what random play reaches (back-row gaps, turn stamps, a finished match) round-trip."""

import json

import numpy as np
import pytest

from sim.novel_tcg import layout as L
from sim.novel_tcg.contract_face import NovelTcgEngine
from sim.novel_tcg.position import dump_position, match_from_position
from sim.novel_tcg.rules import Rules
from strategies.novel_tcg.batch import cell_of

ENGINE = NovelTcgEngine()
RULES = Rules()
ARRAY = ENGINE.rules_array(RULES)
CELL = cell_of({"rank": (10, 10), "deck": "curve/advance", "first": 0}, 0, 0)


def _played(actions=40, seed=3):
    """A kernel state after `actions` first-listed-but-END actions (something on the field)."""
    state = ENGINE.new_match(ARRAY, CELL, seed)
    for _ in range(actions):
        legal = ENGINE.legal_actions(state, ARRAY)
        if not len(legal):
            break
        ENGINE.apply_action(state, ARRAY, int(legal[-1] if len(legal) > 1 else legal[0]))
    return state


def _at(seat, offset):
    return L.SEAT_BASE + seat * L.SEAT_SIZE + offset


def test_a_fresh_and_a_played_state_keep_the_invariants():
    assert ENGINE.invariant_errors(ENGINE.new_match(ARRAY, CELL, 1), ARRAY) == []
    state = _played()
    assert ENGINE.invariant_errors(state, ARRAY) == []
    assert (state[[_at(p, L.P_FRONT + L.F_KIND) for p in (0, 1)]] != L.NONE).any()


@pytest.mark.parametrize("name, offset, delta, message", [
    ("a card lost from the hand", L.P_HAND + 0, -1, "hand disagrees"),
    ("a hand count off", L.P_HAND_COUNT, 1, "hand disagrees"),
    ("a deck count off", L.P_DECK_COUNT, -1, "deck list disagrees"),
    ("a card made in the graveyard", L.P_GY_COUNT, 1, "not the deck size"),
    ("a weapon without durability", L.P_WEAPON_DUR, -99, "weapon"),
])
def test_each_broken_invariant_is_named(name, offset, delta, message):
    state = _played()
    seat = 0 if state[_at(0, L.P_HAND + 0)] or offset != L.P_HAND else 1
    state[_at(seat, offset)] += delta
    errors = ENGINE.invariant_errors(state, ARRAY)
    assert any(message in e for e in errors), (name, errors)


def test_field_breaks_are_named():
    state = _played()
    seat = 0 if state[_at(0, L.P_FRONT + L.F_KIND)] != L.NONE else 1
    slot = _at(seat, L.P_FRONT)
    for field, value, message in ((L.F_HP_NOW, 0, "HP"), (L.F_ATK_BONUS, 5, "bonuses"), (L.F_KIND, 61, "not a character"),
                                  (L.F_SUMMONED, 999, "future")):
        broken = state.copy()
        broken[slot + field] = value
        assert any(message in e for e in ENGINE.invariant_errors(broken, ARRAY)), (field, ENGINE.invariant_errors(broken, ARRAY))
    broken = state.copy()
    broken[L.S_WINNER] = 1  # a winner while the match goes on
    assert any("winner" in e for e in ENGINE.invariant_errors(broken, ARRAY))


def test_hidden_cards_are_the_decks_the_opponents_hand_and_its_face_down_characters():
    match = match_from_position({"turn": 3, "phase": "battle", "seats": [
        {"deck": ["1", "2"], "hand": ["6"], "front": [{"slot": 0, "card": "4", "position": "set"}]},
        {"deck": ["3"], "hand": ["4", "blade"], "front": [{"slot": 2, "card": "5", "position": "set"},
                                                          {"slot": 3, "card": "5"}]}]})
    state, array = match.pack(), match.rules.to_array()
    expected = {("deck", 0, 0), ("deck", 0, 1), ("deck", 1, 0), ("hand", 1, 0), ("hand", 1, 1), ("front", 1, 2)}
    assert ENGINE.hidden_cards(state, array, 0) == expected
    assert ENGINE.hidden_in_view(ENGINE.view(state, array, 0), array) == expected
    mirrored = {("deck", 0, 0), ("deck", 0, 1), ("deck", 1, 0), ("hand", 0, 0), ("front", 0, 0)}
    assert ENGINE.hidden_cards(state, array, 1) == ENGINE.hidden_in_view(ENGINE.view(state, array, 1), array) == mirrored


def test_a_position_with_gaps_stamps_and_an_end_round_trips():
    position = {"turn": 4, "active": 1, "phase": "discard", "summons_used": 1, "seats": [
        {"hp": 7, "deck": ["2 aggressive", "weapon"], "graveyard": 5, "person_attacked": 3, "fatigue": 2},
        {"hand": ["armour", "armour", "20 defensive"], "weapon": 2,
         "front": [{"slot": 1, "card": "9", "hp": 4, "position": "defense", "summoned": 2, "changed": 4, "attacked": 3}],
         "back": [{"slot": 2, "card": "blade", "host": 1, "durability": 1}]}]}
    match = match_from_position(position)
    data = json.loads(json.dumps(dump_position(match)))
    again = match_from_position(data)
    assert dump_position(again) == data and again.legal_actions() == match.legal_actions()
    assert np.array_equal(again.pack()[1:], match.pack()[1:])  # all but the generator word (never drawn again)
    assert data["seats"][1]["back"] == [{"slot": 2, "card": "blade", "host": 1, "durability": 1}]
    over = dict(data, phase="over", winner=2, end_type="turn_cap")
    finished = match_from_position(over)
    assert finished.legal_actions() == [] and dump_position(finished) == over
    with pytest.raises(Exception, match="end_type"):
        match_from_position(dict(data, phase="over", winner=0))
