"""The zone-mask helpers (sim/faction_war/kernel_masks.py) against plain Python sets."""

import random

import numpy as np

from sim.cards import CARDS_PER_PACK
from sim.faction_war import kernel as K
from sim.faction_war import kernel_masks as M
from sim.faction_war import layout as L
from sim.faction_war.rules import AMBIGUITIES, Rules


def _state_with(cards_by_place: dict) -> np.ndarray:
    """A packed state whose zone/ctrl slots put each card where `cards_by_place` says."""
    state = np.zeros(L.STATE_SIZE, dtype=np.int64)
    for (zone, ctrl), cards in cards_by_place.items():
        for card in cards:
            state[L.C_ZONE + card] = zone
            state[L.C_CTRL + card] = ctrl
    return L.fill_masks(state)


def _walk(state, zone, ctrl):
    out = np.zeros(L.N_CARDS, dtype=np.int64)
    return out[:M.list_cards(state, zone, ctrl, out)].tolist()


def test_fill_masks_and_walks_match_the_zone_slots_including_word_edges():
    # ids 63/64, 127/128, 191/192 sit on word boundaries; 215 is the last id
    edge = [0, 53, 63, 64, 107, 108, 127, 128, 161, 191, 192, 215]
    state = _state_with({(L.Z_HAND, 0): edge[:6], (L.Z_HAND, 1): edge[6:], (L.Z_EXILE, 1): [62, 129]})
    assert _walk(state, L.Z_HAND, 0) == edge[:6]
    assert _walk(state, L.Z_HAND, 1) == edge[6:]
    assert _walk(state, L.Z_EXILE, 1) == [62, 129]
    assert _walk(state, L.Z_EXILE, 0) == []
    assert M.count_cards(state, L.Z_HAND, 1) == 6


def test_place_card_and_set_controller_keep_the_masks_equal_to_a_recount():
    state = np.zeros(L.STATE_SIZE, dtype=np.int64)
    chooser = random.Random(3)
    for _ in range(2000):
        card = chooser.randrange(L.N_CARDS)
        if state[L.C_ZONE + card] != L.Z_NONE and chooser.random() < 0.3:
            M.set_controller(state, card, chooser.randrange(2))
        else:
            M.place_card(state, card, chooser.randrange(L.Z_DECK, L.Z_EXTRA + 1), chooser.randrange(2))
    assert np.array_equal(state, L.fill_masks(state.copy()))


def test_suit_runs_and_tables_count_and_sum_a_suit_across_word_boundaries():
    # owner 0, pack 1, clubs starts at id 54 + 26 = 80 (word 1); owner 1 pack 0
    # diamonds ace is 108, spades 121..133 crosses from word 1 into word 2
    spades = 108 + 13  # owner 1, pack 0, spade ace = 121; ranks up to K = 133
    cards = [spades + 0, spades + 6, spades + 9, spades + 10, spades + 12]  # A, 7, 10, J, K
    state = _state_with({(L.Z_DECK, 1): cards})
    run = M.suit_run(state, M.mask_slot(L.Z_DECK, 1), spades)
    assert run == (1 << 0) | (1 << 6) | (1 << 9) | (1 << 10) | (1 << 12)
    normals = run & M.NORMAL_RUN_MASK
    assert M.NORMAL_COUNT[normals] == 3 and M.NORMAL_SUM[normals] == 1 + 7 + 10
    assert M.NORMAL_COUNT[run >> 10] == 2  # J and K


def test_kind_counts_and_rank_test():
    state = _state_with({(L.Z_ROW0 + 1, 0): [3, 10, 11, 12, 52, 54 + 24]})  # 4, J, Q, K ♦; big joker; ♣ J pack 1
    slot = M.mask_slot(L.Z_ROW0 + 1, 0)
    assert M.count_kind(state, slot, M.NORMAL_WORDS) == 1
    assert M.count_kind(state, slot, M.FACE_WORDS) == 4
    assert M.has_rank(state, L.Z_ROW0 + 1, 0, 11) and M.has_rank(state, L.Z_ROW0 + 1, 0, 4)
    assert not M.has_rank(state, L.Z_ROW0 + 1, 0, 5)
    assert not M.has_rank(state, L.Z_ROW0 + 1, 1, 11)


def test_lowest_bit_and_popcount_handle_the_sign_bit():
    assert M.lowest_bit(np.int64(-(2**63))) == 63
    assert M.lowest_bit(np.int64(8)) == 3
    assert M.popcount(np.int64(-1)) == 64
    assert M.popcount(np.int64(-(2**63))) == 1
    assert M.popcount(np.int64(0b1011)) == 3


def test_a_two_pack_match_keeps_its_masks_in_step():
    """FA-34 "two": ids up to 215 in play; the kernel's incremental masks equal a recount."""
    rules = Rules().with_changes(ambiguities={"FA-34": AMBIGUITIES["FA-34"][1][1]}).to_array()
    state = np.zeros(L.STATE_SIZE, dtype=np.int64)
    legal = np.zeros(1024, dtype=np.int64)
    K.new_match(state, rules, 1, 0, 50, 50, 0, np.uint64(11))
    steps = 0
    while not K.is_over(state) and steps < 400:
        n = K.legal_actions(state, rules, legal)
        K.apply_action(state, rules, legal[steps % n])
        steps += 1
        assert np.array_equal(state, L.fill_masks(state.copy())), "step %d" % steps
    in_masks = sum(M.count_cards(state, zone, ctrl) for zone in range(L.Z_DECK, L.Z_EXTRA + 1) for ctrl in (0, 1))
    assert steps > 50 and in_masks == 2 * 2 * CARDS_PER_PACK  # two players, two packs each
