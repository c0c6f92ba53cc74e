"""Universal invariants of the Faction War kernel over many random matches.

After every action of >= 10,000 random-vs-random matches per faction pairing
(the base rules make the pairings identical for now; all four still run, so
faction effects added later are covered at once):
- every card of both decks is in exactly one zone: per player the ids in play
  (54 per pack, FA-34) are outside Z_NONE and the unused ids are in Z_NONE;
- deck arrays agree with the zones: slots 0..count-1 hold distinct own cards
  with zone Z_DECK, the slots above are 0, and no other card is in Z_DECK;
- hand and deck cards are controlled by their owner; order/arrival are set
  exactly for cards on a row, and order < S_SEQ;
- life never exceeds the starting life under FA-36 "starting_life" (heals
  are capped there; under "none" they have no ceiling), counters are
  non-negative;
- extra zones (F-EXT-1/2): only ♦/♠/♣ normal cards, at most one card per
  shared zone, never a Human's, with order/arrival set like field cards;
  face cards and big jokers on the field stand on their owner's side;
  exile and graveyard cards belong to one of the two piles; an open pending
  decision (S_PENDING) names the decider;
- the legal list is strictly ascending; terminal <=> no legal action;
- the same seed replays the same match (final state compared slot by slot).
The checker is numba code so the whole run takes seconds.
"""

import budget
import numba as nb
import numpy as np
import pytest

from sim.faction_war import kernel as K
from strategies.faction_war.batch import LEGAL_CAPACITY
from sim.faction_war.kernel_masks import mask_slot
from sim.faction_war.layout import (C_ARRIVAL, C_CTRL, C_MASKS, C_ORDER, C_ZONE, CARDS_PER_PLAYER,
                                    HUMAN, N_COUNTERS, P_KIND, P_PLAYER, PENDING_NONE, PH_OVER,
                                    S_COUNTERS, S_DECIDER, S_DECK, S_DECK_COUNT, S_FACTION,
                                    S_LIFE, S_PENDING, S_PHASE, S_SEQ, S_START_LIFE, S_TURN,
                                    STATE_SIZE,
                                    Z_DECK, Z_EXILE, Z_EXTRA, Z_GRAVE, Z_HAND, Z_NONE, Z_ROW0,
                                    Z_ROW2)
from sim.faction_war.rules import FA36_STARTING_LIFE, R_FA36, Rules
from sim.rng import nb_below, nb_match_seed

MATCHES_PER_PAIRING = budget.matches(10_000, 3_000)  # full count: CARDBALANCE_FULL_TESTS=1 (tests/budget.py)
REPLAY_EVERY = 50  # every 50th match is replayed and compared slot by slot
PAIRINGS = [(0, 0), (0, 1), (1, 0), (1, 1)]

OK = 0
ERR_CARD_COUNT = 1
ERR_UNUSED_ID = 2
ERR_DECK_COUNT = 3
ERR_DECK_SLOT = 4
ERR_DECK_TAIL = 5
ERR_LIFE = 6
ERR_COUNTER = 7
ERR_TERMINAL = 8
ERR_FIELD_BOOKKEEPING = 9
ERR_OWNER_CTRL = 10
ERR_NOT_ASCENDING = 11
ERR_REPLAY = 12
ERR_TOO_LONG = 13
ERR_EXTRA_ZONE = 14
ERR_FACE_SIDE = 15
ERR_PENDING = 16
ERR_MASK = 17
ERROR_NAMES = {ERR_CARD_COUNT: "card count", ERR_UNUSED_ID: "unused id in play",
               ERR_DECK_COUNT: "deck count vs zones", ERR_DECK_SLOT: "deck slot",
               ERR_DECK_TAIL: "deck slot above count", ERR_LIFE: "life above start",
               ERR_COUNTER: "negative counter", ERR_TERMINAL: "terminal <=> no legal action",
               ERR_FIELD_BOOKKEEPING: "order/arrival", ERR_OWNER_CTRL: "hand/deck controller",
               ERR_NOT_ASCENDING: "legal list not ascending", ERR_REPLAY: "replay differs",
               ERR_TOO_LONG: "match never ended", ERR_EXTRA_ZONE: "extra zone",
               ERR_FACE_SIDE: "face card or big joker on the opponent's side",
               ERR_PENDING: "pending decision vs decider",
               ERR_MASK: "zone masks out of step with zone/ctrl"}
MAX_ACTIONS = 100_000


@nb.njit(cache=True)
def check_state(state, rules, legal, n_legal, seen):
    """Error code of the first broken invariant (OK when none). `seen` is scratch."""
    per_player = K.cards_per_player_in_play(rules)
    extra_seen = seen[2 * CARDS_PER_PLAYER:]
    for suit in range(3):
        extra_seen[suit] = 0
    for player in range(2):
        base = player * CARDS_PER_PLAYER
        in_play = 0
        in_deck = 0
        for card in range(base, base + CARDS_PER_PLAYER):
            zone = state[C_ZONE + card]
            local = card - base
            if local >= per_player:
                if zone != Z_NONE:
                    return ERR_UNUSED_ID
                continue
            if zone == Z_NONE or zone > Z_EXTRA:
                return ERR_CARD_COUNT
            in_play += 1
            seen[card] = 0
            if zone == Z_DECK:
                in_deck += 1
            if (zone == Z_DECK or zone == Z_HAND) and state[C_CTRL + card] != player:
                return ERR_OWNER_CTRL
            on_row = Z_ROW0 <= zone <= Z_ROW2
            if (on_row and not K.is_normal_card(card)) and state[C_CTRL + card] != player:
                return ERR_FACE_SIDE  # only normal cards change sides (F-JOK-1, F-HUQ-1)
            if zone == Z_EXTRA:
                suit = K.suit_of_card(card)
                if not K.is_normal_card(card) or suit < 0 or suit > 2 or state[S_FACTION + state[C_CTRL + card]] == HUMAN:
                    return ERR_EXTRA_ZONE  # F-EXT-1, F-ZONE-3
                if extra_seen[suit]:
                    return ERR_EXTRA_ZONE  # F-EXT-2: one card slot per shared zone
                extra_seen[suit] = 1
                if state[C_ORDER + card] <= 0 or state[C_ORDER + card] >= state[S_SEQ]:
                    return ERR_FIELD_BOOKKEEPING
                if state[C_ARRIVAL + card] <= 0 or state[C_ARRIVAL + card] > state[S_TURN]:
                    return ERR_FIELD_BOOKKEEPING
            if (zone == Z_GRAVE or zone == Z_EXILE) and (state[C_CTRL + card] < 0 or state[C_CTRL + card] > 1):
                return ERR_OWNER_CTRL
            if on_row:
                if state[C_ORDER + card] <= 0 or state[C_ORDER + card] >= state[S_SEQ]:
                    return ERR_FIELD_BOOKKEEPING
                if state[C_ARRIVAL + card] <= 0 or state[C_ARRIVAL + card] > state[S_TURN]:
                    return ERR_FIELD_BOOKKEEPING
            elif zone != Z_EXTRA and (state[C_ORDER + card] != 0 or state[C_ARRIVAL + card] != 0):
                return ERR_FIELD_BOOKKEEPING
        if in_play != per_player:
            return ERR_CARD_COUNT
        count = state[S_DECK_COUNT + player]
        if count != in_deck:
            return ERR_DECK_COUNT
        deck = S_DECK + player * CARDS_PER_PLAYER
        for i in range(CARDS_PER_PLAYER):
            card = state[deck + i]
            if i >= count:
                if card != 0:
                    return ERR_DECK_TAIL
                continue
            if card < base or card >= base + per_player or state[C_ZONE + card] != Z_DECK or seen[card]:
                return ERR_DECK_SLOT
            seen[card] = 1
        if rules[R_FA36] == FA36_STARTING_LIFE and state[S_LIFE + player] > state[S_START_LIFE + player]:
            return ERR_LIFE
    for player in range(2):  # kernel_masks: each card's bit is set...
        for card in range(player * CARDS_PER_PLAYER, player * CARDS_PER_PLAYER + per_player):
            word = state[mask_slot(state[C_ZONE + card], state[C_CTRL + card]) + (card >> 6)]
            if not (word >> (card & 63)) & 1:
                return ERR_MASK
    bits = 0  # ... and no other bit is
    for slot in range(C_MASKS, STATE_SIZE):
        word = state[slot]
        while word != 0:
            word &= word - 1
            bits += 1
    if bits != 2 * per_player:
        return ERR_MASK
    for k in range(N_COUNTERS):
        if state[S_COUNTERS + k] < 0:
            return ERR_COUNTER
    if state[S_PHASE] != PH_OVER and state[S_PENDING + P_KIND] != PENDING_NONE:
        if state[S_DECIDER] != state[S_PENDING + P_PLAYER]:
            return ERR_PENDING
    if (state[S_PHASE] == PH_OVER) != (n_legal == 0):
        return ERR_TERMINAL
    for i in range(1, n_legal):
        if legal[i] <= legal[i - 1]:
            return ERR_NOT_ASCENDING
    return OK


@nb.njit(cache=True)
def _play_random(rules, cell_faction0, cell_faction1, life, first, seed, state, legal, policy, seen, check):
    """One uniformly random match; returns (error code, actions taken)."""
    K.new_match(state, rules, cell_faction0, cell_faction1, life, life, first, seed)
    policy[0] = np.int64(nb_match_seed(seed, 1))
    steps = 0
    while True:
        n_legal = K.legal_actions(state, rules, legal)
        if check:
            error = check_state(state, rules, legal, n_legal, seen)
            if error != OK:
                return error, steps
        if n_legal == 0:
            return OK, steps
        if steps >= MAX_ACTIONS:
            return ERR_TOO_LONG, steps
        K.apply_action(state, rules, legal[nb_below(policy, 0, n_legal)])
        steps += 1


@nb.njit(cache=True)
def run_checked(rules, faction0, faction1, chunk_seed, n_matches, replay_every):
    """(match index, error code, total actions) of the first failure, or (-1, OK, total)."""
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    replay = np.zeros(STATE_SIZE, dtype=np.int64)
    legal = np.zeros(LEGAL_CAPACITY, dtype=np.int64)
    policy = np.zeros(1, dtype=np.int64)
    seen = np.zeros(2 * CARDS_PER_PLAYER + 3, dtype=np.int64)
    total = 0
    for i in range(n_matches):
        seed = nb_match_seed(chunk_seed, i)
        life = 30 + (i % 71)  # F-SET-1 range 30..100
        first = i % 2
        error, steps = _play_random(rules, faction0, faction1, life, first, seed, state, legal, policy, seen, True)
        total += steps
        if error != OK:
            return i, error, total
        if i % replay_every == 0:
            error, replay_steps = _play_random(rules, faction0, faction1, life, first, seed, replay, legal,
                                               policy, seen, False)
            if replay_steps != steps:
                return i, ERR_REPLAY, total
            for slot in range(STATE_SIZE):
                if replay[slot] != state[slot]:
                    return i, ERR_REPLAY, total
    return -1, OK, total


def _assert_clean(result):
    index, error, total = result
    assert error == OK, "match %d broke invariant '%s'" % (index, ERROR_NAMES.get(error, error))
    assert total > 0


@pytest.mark.parametrize("faction0,faction1", PAIRINGS)
def test_invariants_hold_after_every_action_default_rules(faction0, faction1):
    rules = Rules().to_array()
    _assert_clean(run_checked(rules, faction0, faction1, np.uint64(1000 + 10 * faction0 + faction1),
                              MATCHES_PER_PAIRING, REPLAY_EVERY))


VARIANTS = {
    # every non-default base switch at once, small hand limits so discards happen a lot
    "switches": Rules().with_changes(
        hand_limit_trigger=6, hand_limit_target=4, face_cards_per_row=1,
        ambiguities={"FA-1": "both", "FA-2": "skip", "FA-3": "continue", "FA-6": "random",
                     "FA-7": "faces_lost", "FA-8": "any_card", "FA-14": "controller",
                     "FA-24": "turn_player_wins", "FA-29": "after_action"}),
    # two packs (ids 54..107 in play), FA-3 draw, FA-7 not_allowed, FA-8 normal_only
    "two_packs": Rules().with_changes(
        opening_hand=9, draws_per_turn=3,
        ambiguities={"FA-34": "two", "FA-3": "draw", "FA-7": "not_allowed", "FA-8": "normal_only",
                     "FA-24": "turn_player_loses"}),
    # a short turn cap: every long match ends on END_TURN_CAP
    "turn_cap": Rules().with_changes(turn_cap=7),
    # faction and joker switches: capped heals (life never above the start), kept special
    # placements, every K activation, joker variants
    "factions": Rules().with_changes(
        ambiguities={"FA-36": "starting_life", "FA-15": "kept", "FA-30": "unlimited",
                     "FA-16": "own_only", "FA-12": "graveyard", "FA-13": "one_total",
                     "FA-32": "on_top", "FA-33": "with_exile", "FA-35": "uses_it",
                     "FA-18": "one_card", "FA-23": "with_faces", "FA-20": "graveyard",
                     "FA-19": "exiled_zero", "FA-26": "on_arrival", "FA-4": "placement_start"}),
    "factions_two_packs": Rules().with_changes(
        ambiguities={"FA-34": "two", "FA-18": "both_players_row", "FA-23": "special",
                     "FA-11": "special", "FA-22": "also", "FA-25": "this_attack",
                     "FA-27": "both_lose", "FA-28": "ends", "FA-30": "once_per_k",
                     "FA-17": "draw", "FA-14": "controller"}),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_invariants_hold_under_rule_variants(variant):
    rules = VARIANTS[variant].to_array()
    for faction0, faction1 in PAIRINGS:
        _assert_clean(run_checked(rules, faction0, faction1, np.uint64(77), 1_000, 10))


def _opening_state():
    """(rules, state, legal, n_legal, seen) of a fresh match, for the checker's own tests."""
    rules = Rules().to_array()
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    legal = np.zeros(LEGAL_CAPACITY, dtype=np.int64)
    seen = np.zeros(2 * CARDS_PER_PLAYER + 3, dtype=np.int64)
    K.new_match(state, rules, 0, 0, 50, 50, 0, np.uint64(5))
    return rules, state, legal, K.legal_actions(state, rules, legal), seen


def test_checker_catches_a_broken_state():
    """The checker is not vacuous: a card moved without its deck slot is caught."""
    rules, state, legal, n_legal, seen = _opening_state()
    assert check_state(state, rules, legal, n_legal, seen) == OK
    top = state[S_DECK + state[S_DECK_COUNT] - 1]
    state[C_ZONE + top] = Z_HAND
    assert check_state(state, rules, legal, n_legal, seen) == ERR_DECK_COUNT


def test_checker_catches_a_stale_zone_mask():
    """A zone written without its mask bit (kernel_masks) is caught."""
    rules, state, legal, n_legal, seen = _opening_state()
    hand_card = next(c for c in range(CARDS_PER_PLAYER) if state[C_ZONE + c] == Z_HAND)
    state[C_ZONE + hand_card] = Z_GRAVE
    assert check_state(state, rules, legal, n_legal, seen) == ERR_MASK


def test_face_bits_follow_card_id_order():
    """The placement list relies on face_bit order == card id order (ascending actions)."""
    faces = [card for card in range(2 * CARDS_PER_PLAYER) if K.is_face_card(card)]
    bits = [K.face_bit(card) for card in faces]
    assert bits == sorted(bits) and len(set(bits)) == len(bits) and max(bits) < 63
    assert [K.face_card_of_bit(bit) for bit in bits] == faces
