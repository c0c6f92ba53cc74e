"""Novel TCG hidden information (sim/novel_tcg/sampler.py): a sampled world has the seat's
view, redeals exactly the unseen cards, uniformly, from the agent's own generator only.
(The engine contract, tests/test_contract.py, checks the same on random-play states.)"""

import itertools
from collections import Counter

import numpy as np

from sim.novel_tcg import layout as L
from sim.novel_tcg.contract_face import NovelTcgEngine
from sim.novel_tcg.position import match_from_position
from sim.novel_tcg.rules import Rules
from sim.novel_tcg.sampler import could_be_set, sample_world, seat_at
from sim.rng import match_seed, to_signed
from strategies.novel_tcg.policies import nb_view

ENGINE = NovelTcgEngine()
N = 3000  # worlds per frequency check


def _state_and_view(position, seat=0):
    match = match_from_position(position)
    state = match.pack()
    view = np.zeros(L.STATE_SIZE, dtype=np.int64)
    nb_view(state, seat, view)
    return match, state, view


def _position(opponent, own_deck=("1", "2"), rules="default"):
    return {"rules": rules, "turn": 3, "phase": "battle", "seats": [
        {"front": [{"slot": 0, "card": "8"}], "deck": list(own_deck), "hand": ["6"]}, opponent]}


def _hand(world, seat):
    return world[seat_at(seat, L.P_HAND):seat_at(seat, L.P_HAND + 63)]


def _deck(world, seat):
    return world[seat_at(seat, L.P_DECK):seat_at(seat, L.P_DECK + int(world[seat_at(seat, L.P_DECK_COUNT)]))].tolist()


def _word(k):
    return to_signed(match_seed(k, 5))


def test_a_world_has_the_view_and_redeals_only_the_unseen_cards():
    match, state, view = _state_and_view(_position(
        {"hand": ["4", "blade"], "deck": ["3", "9"], "front": [{"slot": 1, "card": "5", "position": "set"}],
         "back": [{"card": "armour", "host": 1}]}))
    rules_array = match.rules.to_array()
    moved = 0
    for k in range(40):
        world = sample_world(view, rules_array, 0, _word(k))
        again = np.zeros(L.STATE_SIZE, dtype=np.int64)
        nb_view(world, 0, again)
        assert np.array_equal(again, view)
        # the opponent's cards: the same multiset over hand, deck and the face-down slot
        face_down = int(world[L.SEAT_BASE + L.SEAT_SIZE + L.P_FRONT + L.FRONT_FIELDS + L.F_KIND])
        cards = sorted(_deck(world, 1) + [k for k, c in enumerate(_hand(world, 1)) for _ in range(c)] + [face_down])
        assert cards == sorted(_deck(state, 1) + [k for k, c in enumerate(_hand(state, 1)) for _ in range(c)] + [4])
        assert could_be_set(rules_array, face_down)
        # the Armour in the public back row stays on it: its bonus and full HP are rebuilt
        slot = L.SEAT_BASE + L.SEAT_SIZE + L.P_FRONT + L.FRONT_FIELDS
        assert world[slot + L.F_HP_BONUS] == match.pool[61, 3] and world[slot + L.F_EQUIPS] == 1
        assert world[slot + L.F_HP_NOW] == match.pool[face_down, 3] + match.pool[61, 3]
        assert sorted(_deck(world, 0)) == sorted(_deck(state, 0)) and np.array_equal(_hand(world, 0), _hand(state, 0))
        assert world[L.S_RNG] != state[L.S_RNG]  # the agent's generator, never the match's
        assert ENGINE.legal_actions(world, rules_array).tolist() == match.legal_actions()
        moved += not np.array_equal(world, sample_world(view, rules_array, 0, _word(k + 100)))
    assert moved > 30


def test_the_same_view_and_word_give_the_same_world_whatever_the_true_state():
    base = {"hand": ["4", "blade"], "deck": ["3", "9"], "front": [{"slot": 0, "card": "5", "position": "set"}]}
    other = {"hand": ["9", "3"], "deck": ["blade", "5"], "front": [{"slot": 0, "card": "4", "position": "set"}]}
    (_, _, view_a), (_, _, view_b) = _state_and_view(_position(base)), _state_and_view(_position(other, ("2", "1")))
    assert np.array_equal(view_a, view_b)
    rules_array = Rules().to_array()
    for k in range(5):
        assert np.array_equal(sample_world(view_a, rules_array, 0, _word(k)), sample_world(view_b, rules_array, 0, _word(k)))


def _within(count, n, p, sigmas=5.0):
    return abs(count - n * p) <= sigmas * (n * p * (1 - p)) ** 0.5


def test_deck_orders_and_the_hand_are_uniform():
    """Own deck of three distinct cards: each of the 6 orders about 1/6; the opponent's three
    unseen cards (hand 2, deck 1): each in the deck about 1/3 (N worlds, 5 sigma)."""
    match, _, view = _state_and_view(_position({"hand": ["4", "blade"], "deck": ["3"]}, own_deck=("1", "2", "7")))
    rules_array = match.rules.to_array()
    orders, in_deck = Counter(), Counter()
    for k in range(N):
        world = sample_world(view, rules_array, 0, _word(k))
        orders[tuple(_deck(world, 0))] += 1
        in_deck[_deck(world, 1)[0]] += 1
    assert set(orders) == set(itertools.permutations([0, 1, 6]))
    assert all(_within(c, N, 1 / 6) for c in orders.values()), orders
    assert set(in_deck) == {2, 3, 60} and all(_within(c, N, 1 / 3) for c in in_deck.values()), in_deck


def test_a_face_down_card_is_drawn_among_those_that_could_be_set():
    """With advance sets and face-down changes both off (T-AMB-21 "no", T-AMB-88 "no") only a
    character of at most free_summon_max_star can be face-down: never the 9, the Blade or the
    Weapon; the two small characters about half each."""
    rules = {"ambiguities": {"T-AMB-21": "no", "T-AMB-88": "no"}}
    opponent = {"hand": ["9", "weapon"], "deck": ["blade", "2"], "front": [{"slot": 0, "card": "3", "position": "set"}]}
    match, _, view = _state_and_view(_position(opponent, rules=rules))
    rules_array = match.rules.to_array()
    assert not could_be_set(rules_array, 8) and could_be_set(Rules().to_array(), 8)  # the 9: only with advance sets
    seen = Counter(int(sample_world(view, rules_array, 0, _word(k))[L.SEAT_BASE + L.SEAT_SIZE + L.P_FRONT])
                   for k in range(N))
    assert set(seen) == {1, 2} and all(_within(c, N, 1 / 2) for c in seen.values()), seen
