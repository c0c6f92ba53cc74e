"""The numba kernel, part 3: the Alien faction (§6).

Mirrors `reference_alien.py` step for step: extra zones and their pairs,
Split Rebirth with its special placement (pending SPECIAL_PICK decisions),
Outer Charge activations and the opponent's answers (pending K_ANSWER).
Call of the Abyss, the Outer Charge passive and Deep-Sea Era act where cards
leave the field (`kernel_core.leave_field_from`, `exile_card`).

The special-placement feasibility search (can the sources still add up to the
rest of the sum <= 10 with enough cards) keeps its counts per number in one
int64 word and the reachable sums in two bitsets, so it allocates nothing.
"""

import numba as nb

from sim.faction_war.kernel_jit import kernel_jit

from sim.cards import CARDS_PER_PACK, HEART
from sim.faction_war import actions as A
from sim.faction_war.kernel_core import (KING, JACK, NORMAL_RANKS, RANKS_PER_SUIT, alien_face, cards_per_player_in_play,
                                         deal_damage, deck_remove_card,
                                         effective_in_row, effective_number, effective_on_field,
                                         enter_row, enter_zone, exile_card, field_poly, row_poly,
                                         heal, is_alien, is_normal_card, move_card,
                                         original_number, owner_of, shuffle_deck, sort_segment,
                                         special_placement_cost, suit_of_card)
from sim.faction_war.kernel_masks import (NORMAL_RUN_MASK, NORMAL_WORDS, RANK_WORDS, WORD_SHIFT, card_bit,
                                          count_kind, lowest_bit, mask_slot, popcount, suit_run)
from sim.faction_war.layout import (C_ARRIVAL, C_CTRL, C_ZONE, CARDS_PER_PLAYER, MASK_WORDS,
                                    CT_EXTRA_PAIRS, CT_EXTRA_PLACED, CT_K_ACTIVATIONS,
                                    CT_SPLIT_REBIRTH, MAX_PACKS, N_ROWS, P_COUNT, P_EXCLUDED,
                                    P_FLAGS, P_KEPT_EXCLUDED, P_KEPT_TARGET, P_KIND, P_OWNER,
                                    P_PLAYER, P_TARGET, PENDING_K1_ANSWER, PENDING_K3_ANSWER,
                                    PENDING_SPECIAL, PH_OVER, S_COUNTERS, S_DECIDER,
                                    S_EXTRA_USED, S_J_USED, S_K_SPENT, S_K_USED, S_NORMAL_PLACED,
                                    S_PAIRS_USED, S_PENDING, S_PHASE, S_TURN, Z_DECK, Z_EXILE,
                                    Z_EXTRA, Z_GRAVE, Z_HAND, Z_ROW0)
from sim.faction_war.rules import (FA11_SPECIAL, FA12_EXILE, FA13_ONE_TOTAL, FA15_KEPT,
                                   FA16_OWN_ONLY, FA30_ONCE_PER_K, FA30_PER_TURN_PER_ROW,
                                   FA31_ALL_THEY_HAVE, FA32_REPLACES, FA33_WITH_EXILE,
                                   FA33_ZONES_FREE, FA35_USES_IT, R_FA11, R_FA12, R_FA13, R_FA15,
                                   R_FA16, R_FA30, R_FA31, R_FA32, R_FA33, R_FA35)

MIN_SPECIAL_CARDS = 3  # "any number greater than 2" (F-ALJ-4)
MAX_SUM = 10  # a moved card's number is at most 10
COUNT_BITS = 4  # per number 1..10: how many sources (capped at 15)
WIDE_BITS = 6  # per number while counting: two packs of both owners hold up to 16
J_MOVE_RUN_MASK = NORMAL_RUN_MASK & ~3  # suit-run bits of the numbers 3..10 (F-ALJ-1)


@nb.njit(cache=True, inline="always")
def _encode(kind, a, b, c):
    return (kind << 24) | (a << 16) | (b << 8) | c


@nb.njit(cache=True, inline="always")
def _pend(state, slot):
    return state[S_PENDING + slot]


@nb.njit(cache=True, inline="always")
def _set_pend(state, slot, value):
    state[S_PENDING + slot] = value


# ---- queries ---------------------------------------------------------------------

@kernel_jit
def zone_holders(state, rules):
    """The cards in the three shared extra zones (F-EXT-2) in one pass, -1 where empty.

    Like the reference's `zone_card`: p0's card first, then the lowest id.
    """
    h0 = -1
    h1 = -1
    h2 = -1
    for word in range(MASK_WORDS):
        bits = state[mask_slot(Z_EXTRA, 0) + word] | state[mask_slot(Z_EXTRA, 1) + word]
        while bits != 0:
            card = (word << WORD_SHIFT) + lowest_bit(bits)
            bits &= bits - 1
            suit = suit_of_card(card)
            held = h0 if suit == 0 else (h1 if suit == 1 else h2)
            if held >= 0 and (state[C_CTRL + held] == 0 or state[C_CTRL + card] == 1):
                continue  # an earlier card of the same (or a better) controller stays
            if suit == 0:
                h0 = card
            elif suit == 1:
                h1 = card
            elif suit == 2:
                h2 = card
    return h0, h1, h2


@kernel_jit
def zone_card(state, rules, suit):
    """The card in the shared extra zone of a suit (F-EXT-2), p0's first, or -1."""
    h0, h1, h2 = zone_holders(state, rules)
    return h0 if suit == 0 else (h1 if suit == 1 else h2)


@kernel_jit
def k_spent_bit(card):
    """layout.k_spent_bit: (owner, pack, suit) -> 0..11."""
    local = card % CARDS_PER_PLAYER
    return (owner_of(card) * MAX_PACKS + local // CARDS_PER_PACK) * 3 + (local % CARDS_PER_PACK) // 13


@kernel_jit
def _k_may_activate(state, rules, king, row):
    """FA-30: once per own turn per K row / once per K card / unlimited."""
    reading = rules[R_FA30]
    if reading == FA30_PER_TURN_PER_ROW:
        return not (state[S_K_USED] >> row) & 1
    if reading == FA30_ONCE_PER_K:
        return not (state[S_K_SPENT] >> k_spent_bit(king)) & 1
    return True


@kernel_jit
def _opp_has_number(state, rules, opponent, number):
    """Some normal card on the opponent's field has this effective number."""
    return (_field_numbers(state, rules, opponent) >> number) & 1 != 0


@kernel_jit
def _field_numbers(state, rules, player):
    """Bit v set: some normal card `player` controls on the field has effective number v."""
    return _field_numbers_count(state, rules, player)[0]


@kernel_jit
def _field_numbers_count(state, rules, player):
    """(`_field_numbers`, `_field_normals`) of `player` in one pass."""
    poly = field_poly(state, rules)
    numbers = 0
    n = 0
    for row in range(N_ROWS):  # row by row: each row's Polymorph state applies to all its cards
        j_order = poly[2 * row]
        spared = poly[2 * row + 1]
        slot = mask_slot(Z_ROW0 + row, player)
        for word in range(MASK_WORDS):
            bits = state[slot + word] & NORMAL_WORDS[word]
            while bits != 0:
                card = (word << WORD_SHIFT) + lowest_bit(bits)
                bits &= bits - 1
                numbers |= 1 << effective_in_row(state, rules, card, j_order, spared)
                n += 1
    return numbers, n


@nb.njit(cache=True, inline="always")
def _field_normals_word(state, player, word):
    """Word `word` of the normal cards `player` controls on the three rows."""
    return (state[mask_slot(Z_ROW0, player) + word] | state[mask_slot(Z_ROW0 + 1, player) + word]
            | state[mask_slot(Z_ROW0 + 2, player) + word]) & NORMAL_WORDS[word]


@kernel_jit
def _field_normals(state, rules, player):
    """Normal cards `player` controls on the three rows."""
    n = 0
    for row in range(N_ROWS):
        n += count_kind(state, mask_slot(Z_ROW0 + row, player), NORMAL_WORDS)
    return n


# ---- F-ALJ-4 special placement: sources and feasibility ------------------------------

@nb.njit(cache=True, inline="always")
def _source_word(state, rules, player, excluded, word):
    """Word `word` of the special-placement sources (F-ALJ-4, FA-33): the normal cards
    `player` controls in the hand, deck, graveyard, own extra zone (not `excluded`,
    the card whose move opened the placement) and, with FA-33 "with_exile", exile."""
    bits = (state[mask_slot(Z_HAND, player) + word] | state[mask_slot(Z_DECK, player) + word]
            | state[mask_slot(Z_GRAVE, player) + word])
    if rules[R_FA33] == FA33_WITH_EXILE:
        bits |= state[mask_slot(Z_EXILE, player) + word]
    extra = state[mask_slot(Z_EXTRA, player) + word]
    if 0 <= excluded < 2 * CARDS_PER_PLAYER and excluded >> WORD_SHIFT == word:
        extra &= ~card_bit(excluded)
    return (bits | extra) & NORMAL_WORDS[word]


@kernel_jit
def _sum_reachable(counts, total, at_least):
    """True when some of the cards (counts: 4 bits per number 1..10) add up to exactly
    `total` (1..10) with at least `at_least` (at most 2) cards.

    The reference asks for the most cards (`max_cards_for_sum`) and compares it
    with what F-ALJ-4 still needs (`count + 1 + most >= 3`), so it only ever
    needs to know "none / one or more / two or more": two bitsets of reachable
    sums, one bit per sum, instead of a knapsack per number.
    """
    sums = (2 << total) - 1  # bits 0..total
    one = 0  # bit s: sum s from exactly one card
    more = 0  # bit s: sum s from two or more cards
    for number in range(1, MAX_SUM + 1):
        copies = min((counts >> (COUNT_BITS * (number - 1))) & 15, total // number)
        for _ in range(copies):
            more |= ((more | one) << number) & sums  # this copy joins an earlier sum
            one |= (1 << number) & sums
    reachable = more if at_least >= 2 else (more | one)
    return (reachable >> total) & 1 != 0


@kernel_jit
def special_picks(state, rules, player, remaining, count, excluded, out, n, write):
    """SPECIAL_PICK actions (ascending) that keep an exact sum of >= 3 cards reachable.

    Appended to out[n:] when `write`; returns the new n (or n + how many there are).
    """
    wide = 0  # sources per number 1..10, WIDE_BITS each (at most 16 cards of a number)
    for word in range(MASK_WORDS):
        bits = _source_word(state, rules, player, excluded, word)
        if bits != 0:
            for number in range(1, MAX_SUM + 1):
                wide += popcount(bits & RANK_WORDS[number, word]) << (WIDE_BITS * (number - 1))
    counts = 0  # COUNT_BITS per number, capped at 15 (enough: a sum <= 10)
    for number in range(1, MAX_SUM + 1):
        copies = (wide >> (WIDE_BITS * (number - 1))) & ((1 << WIDE_BITS) - 1)
        counts |= min(copies, 15) << (COUNT_BITS * (number - 1))
    ok_by_number = 0  # bit v: a card of number v may be picked
    for number in range(1, MAX_SUM + 1):
        if number > remaining or not (counts >> (COUNT_BITS * (number - 1))) & 15:
            continue
        rest = remaining - number
        if rest == 0:
            ok = count + 1 >= MIN_SPECIAL_CARDS
        else:
            ok = _sum_reachable(counts - (1 << (COUNT_BITS * (number - 1))), rest,
                                MIN_SPECIAL_CARDS - 1 - count)
        if ok:
            ok_by_number |= 1 << number
    if ok_by_number == 0:
        return n
    for word in range(MASK_WORDS):
        bits = _source_word(state, rules, player, excluded, word)
        while bits != 0:
            card = (word << WORD_SHIFT) + lowest_bit(bits)
            bits &= bits - 1
            if not (ok_by_number >> original_number(card)) & 1:
                continue
            suit = suit_of_card(card)
            if suit == HEART:
                if write:
                    out[n] = _encode(A.SPECIAL_PICK, card, 0, 0)
                    out[n + 1] = _encode(A.SPECIAL_PICK, card, 1, 0)
                n += 2
            else:
                if write:
                    out[n] = _encode(A.SPECIAL_PICK, card, suit, 0)
                n += 1
    return n


@kernel_jit
def special_actions(state, rules, out):
    """Legal actions while the special placement window is open: END (before the first pick)."""
    n = 0
    if _pend(state, P_COUNT) == 0:
        out[0] = _encode(A.END, 0, 0, 0)
        n = 1
    return special_picks(state, rules, _pend(state, P_PLAYER), _pend(state, P_TARGET),
                         _pend(state, P_COUNT), _pend(state, P_EXCLUDED), out, n, True)


# ---- placement-phase actions ------------------------------------------------------------

@kernel_jit
def alien_actions(state, rules, out, n):
    """F-EXT-1, F-EXT-4, F-ALJ-1, F-ALK-2 actions of the Alien decider, appended ascending."""
    player = state[S_DECIDER]
    if not is_alien(state, player):
        return n
    start = n
    base = player * CARDS_PER_PLAYER
    per_player = cards_per_player_in_play(rules)
    turn = state[S_TURN]
    h0, h1, h2 = zone_holders(state, rules)
    # F-EXT-1 / F-EXT-2: one extra-zone placement per turn
    if not state[S_EXTRA_USED]:
        holders_ok = 0
        for suit in range(3):
            holder = h0 if suit == 0 else (h1 if suit == 1 else h2)
            if holder < 0 or state[C_CTRL + holder] == player:
                holders_ok |= 1 << suit
        for word in range(MASK_WORDS):
            bits = state[mask_slot(Z_HAND, player) + word] & NORMAL_WORDS[word]
            while bits != 0:
                card = (word << WORD_SHIFT) + lowest_bit(bits)
                bits &= bits - 1
                suit = suit_of_card(card)
                if suit != HEART and original_number(card) >= 3 and (holders_ok >> suit) & 1:
                    out[n] = _encode(A.EXTRA_PLACE, card, 0, 0)
                    n += 1
    # F-EXT-4: the pair of a zone holding an own card since an earlier turn
    pairs_used = state[S_PAIRS_USED]
    for suit in range(3):
        holder = h0 if suit == 0 else (h1 if suit == 1 else h2)
        if holder < 0 or state[C_CTRL + holder] != player or state[C_ARRIVAL + holder] >= turn:
            continue
        if (pairs_used >> suit) & 1 or (pairs_used != 0 and rules[R_FA13] == FA13_ONE_TOTAL):
            continue
        if (state[S_NORMAL_PLACED] >> suit) & 1 and rules[R_FA32] == FA32_REPLACES:
            continue
        target = original_number(holder)
        # Own normal cards of the suit in a hand (either controller's hand mask, as
        # a C_ZONE test would see them), ascending id; the first card fixes the
        # second's rank, so each later pack holds at most one partner.
        packs = per_player // CARDS_PER_PACK
        for first_pack in range(packs):
            ace = base + first_pack * CARDS_PER_PACK + suit * RANKS_PER_SUIT
            firsts = (suit_run(state, mask_slot(Z_HAND, 0), ace)
                      | suit_run(state, mask_slot(Z_HAND, 1), ace)) & NORMAL_RUN_MASK
            while firsts != 0:
                first_rank = lowest_bit(firsts)
                firsts &= firsts - 1
                second_rank = target - 2 - first_rank
                if second_rank < 0 or second_rank >= NORMAL_RANKS:
                    continue
                for second_pack in range(first_pack, packs):
                    if second_pack == first_pack and second_rank <= first_rank:
                        continue
                    second = base + second_pack * CARDS_PER_PACK + suit * RANKS_PER_SUIT + second_rank
                    if state[C_ZONE + second] == Z_HAND:
                        out[n] = _encode(A.EXTRA_PAIR, ace + first_rank, second, 0)
                        n += 1
    # F-ALJ-1: Split Rebirth moves
    extra_blocked = state[S_EXTRA_USED] != 0 and rules[R_FA35] == FA35_USES_IT
    for row in range(N_ROWS):
        jack = alien_face(state, rules, player, row, JACK)
        if jack < 0 or state[C_ARRIVAL + jack] >= turn or (state[S_J_USED] >> row) & 1 or extra_blocked:
            continue
        # only the row suit's cards numbered 3..10 (codes row*13 + 2..9 of each pack), ascending id
        for owner in range(2):
            for pack in range(per_player // CARDS_PER_PACK):
                ace = owner * CARDS_PER_PLAYER + pack * CARDS_PER_PACK + row * RANKS_PER_SUIT
                movable = suit_run(state, mask_slot(Z_ROW0 + row, player), ace) & J_MOVE_RUN_MASK
                while movable != 0:
                    out[n] = _encode(A.ALIEN_J_MOVE, ace + lowest_bit(movable), 0, 0)
                    movable &= movable - 1
                    n += 1
    # F-ALK-2: Outer Charge activations
    opponent = 1 - player
    opp_numbers = -1  # `_field_numbers` and `_field_normals` of the opponent, once needed
    opp_normals = 0
    for row in range(N_ROWS):
        king = alien_face(state, rules, player, row, KING)
        if king < 0 or state[C_ARRIVAL + king] >= turn or not _k_may_activate(state, rules, king, row):
            continue
        if opp_numbers < 0:
            opp_numbers, opp_normals = _field_numbers_count(state, rules, opponent)
        j_order, spared = row_poly(state, rules, row)
        mine = 0
        for word in range(MASK_WORDS):
            bits = state[mask_slot(Z_ROW0 + row, player) + word] & NORMAL_WORDS[word]
            while bits != 0:
                card = (word << WORD_SHIFT) + lowest_bit(bits)
                bits &= bits - 1
                mine += 1
                number = effective_in_row(state, rules, card, j_order, spared)
                if rules[R_FA16] == FA16_OWN_ONLY or (opp_numbers >> number) & 1:
                    out[n] = _encode(A.K_ACTIVATE, 1, card, row)
                    n += 1
                out[n] = _encode(A.K_ACTIVATE, 2, card, row)
                n += 1
        if mine and (opp_normals >= mine or rules[R_FA31] == FA31_ALL_THEY_HAVE):
            out[n] = _encode(A.K_ACTIVATE, 3, A.NONE, row)
            n += 1
    # FA-15 "kept": a special placement right kept from an earlier move
    if _pend(state, P_KEPT_TARGET):
        n = special_picks(state, rules, player, _pend(state, P_KEPT_TARGET), 0,
                          _pend(state, P_KEPT_EXCLUDED), out, n, True)
    sort_segment(out, start, n)
    return n


# ---- applying Alien actions ------------------------------------------------------------

@kernel_jit
def _push_out_own(state, rules, card, to_exile):
    if to_exile:
        exile_card(state, rules, card, Z_EXTRA, state[C_CTRL + card])
    else:
        move_card(state, card, Z_GRAVE, owner_of(card))


@kernel_jit
def extra_place(state, rules, card):
    """F-EXT-1, F-EXT-3 (FA-12): into the zone of its suit; an own card there is pushed out."""
    player = state[S_DECIDER]
    holder = zone_card(state, rules, suit_of_card(card))
    state[S_EXTRA_USED] = 1
    state[S_COUNTERS + CT_EXTRA_PLACED] += 1
    if holder >= 0:
        _push_out_own(state, rules, holder, rules[R_FA12] == FA12_EXILE)
    enter_zone(state, card, player)


@kernel_jit
def extra_pair(state, rules, first, second):
    """F-EXT-4 (FA-11, FA-13, FA-32): two hand cards summing to the zone card, into the row."""
    player = state[S_DECIDER]
    suit = suit_of_card(first)
    state[S_PAIRS_USED] |= 1 << suit
    if rules[R_FA32] == FA32_REPLACES:
        state[S_NORMAL_PLACED] |= 1 << suit
    state[S_COUNTERS + CT_EXTRA_PAIRS] += 1
    enter_row(state, first, player, suit)
    enter_row(state, second, player, suit)
    if rules[R_FA11] == FA11_SPECIAL:
        special_placement_cost(state, rules, player, 2)


@kernel_jit
def j_move(state, rules, card):
    """F-ALJ-1..3: a row card into its suit's extra zone, then the special placement window."""
    player = state[S_DECIDER]
    row = state[C_ZONE + card] - Z_ROW0
    state[S_J_USED] |= 1 << row
    if rules[R_FA35] == FA35_USES_IT:
        state[S_EXTRA_USED] = 1
    state[S_COUNTERS + CT_SPLIT_REBIRTH] += 1
    holder = zone_card(state, rules, row)
    if holder >= 0 and state[C_CTRL + holder] != player:  # F-ALJ-2
        damage = original_number(holder)
        move_card(state, holder, Z_GRAVE, owner_of(holder))
        deal_damage(state, rules, 1 - player, damage)
    elif holder >= 0:  # F-ALJ-3
        _push_out_own(state, rules, holder, True)
    enter_zone(state, card, player)
    target = original_number(card)
    if rules[R_FA15] == FA15_KEPT:
        _set_pend(state, P_KEPT_TARGET, target)
        _set_pend(state, P_KEPT_EXCLUDED, card)
    if state[S_PHASE] != PH_OVER and special_picks(state, rules, player, target, 0, card, state, 0, False) > 0:
        # (write=False: `state` only stands in for the unused output list)
        _set_pend(state, P_KIND, PENDING_SPECIAL)
        _set_pend(state, P_PLAYER, player)
        _set_pend(state, P_TARGET, target)
        _set_pend(state, P_COUNT, 0)
        _set_pend(state, P_EXCLUDED, card)
        _set_pend(state, P_FLAGS, 0)


@kernel_jit
def _close_special(state, player):
    if _pend(state, P_FLAGS):
        shuffle_deck(state, player)  # a searched deck is shuffled (convention)
    for slot in (P_KIND, P_PLAYER, P_TARGET, P_COUNT, P_EXCLUDED, P_FLAGS):
        _set_pend(state, slot, 0)


@kernel_jit
def special_pick(state, rules, card, row):
    """One card of the special placement onto its row; 1 life (F-ALN-1, FA-33)."""
    player = state[S_DECIDER]
    if _pend(state, P_KIND) != PENDING_SPECIAL:  # FA-15 "kept": the first pick opens it
        _set_pend(state, P_KIND, PENDING_SPECIAL)
        _set_pend(state, P_PLAYER, player)
        _set_pend(state, P_TARGET, _pend(state, P_KEPT_TARGET))
        _set_pend(state, P_COUNT, 0)
        _set_pend(state, P_EXCLUDED, _pend(state, P_KEPT_EXCLUDED))
        _set_pend(state, P_FLAGS, 0)
    _set_pend(state, P_KEPT_TARGET, 0)
    _set_pend(state, P_KEPT_EXCLUDED, 0)
    source = state[C_ZONE + card]
    if source == Z_DECK:
        deck_remove_card(state, player, card)
        _set_pend(state, P_FLAGS, 1)
    enter_row(state, card, player, row)
    _set_pend(state, P_TARGET, _pend(state, P_TARGET) - original_number(card))
    _set_pend(state, P_COUNT, _pend(state, P_COUNT) + 1)
    free = source == Z_EXTRA and rules[R_FA33] == FA33_ZONES_FREE
    special_placement_cost(state, rules, player, 0 if free else 1)
    if _pend(state, P_TARGET) == 0:
        _close_special(state, player)


@kernel_jit
def decline_special(state, rules):
    """END before the first pick: the special placement is not made (FA-15)."""
    _close_special(state, state[S_DECIDER])


# ---- F-ALK-2 Outer Charge ----------------------------------------------------------------

@kernel_jit
def clear_pending(state, decider):
    for slot in (P_KIND, P_PLAYER, P_TARGET, P_COUNT, P_EXCLUDED, P_FLAGS, P_OWNER):
        _set_pend(state, slot, 0)
    state[S_DECIDER] = decider


@kernel_jit
def _open_answer(state, kind, who, target, row, owner):
    _set_pend(state, P_KIND, kind)
    _set_pend(state, P_PLAYER, who)
    _set_pend(state, P_TARGET, target)
    _set_pend(state, P_EXCLUDED, row)
    _set_pend(state, P_OWNER, owner)
    state[S_DECIDER] = who


@kernel_jit
def k_activate(state, rules, mode, card, row):
    player = state[S_DECIDER]
    king = alien_face(state, rules, player, row, KING)
    state[S_K_USED] |= 1 << row
    state[S_K_SPENT] |= 1 << k_spent_bit(king)
    state[S_COUNTERS + CT_K_ACTIVATIONS] += 1
    opponent = 1 - player
    theirs = _field_normals(state, rules, opponent)
    if mode == 1 or mode == 2:
        number = effective_number(state, rules, card)
        exile_card(state, rules, card, state[C_ZONE + card], player)
        heal(state, rules, player, number)
        if mode == 1 and _opp_has_number(state, rules, opponent, number):
            _open_answer(state, PENDING_K1_ANSWER, opponent, number, row, player)
        return
    mine = 0
    per_player = cards_per_player_in_play(rules)
    for owner in range(2):
        base = owner * CARDS_PER_PLAYER
        for own in range(base, base + per_player):
            if state[C_ZONE + own] == Z_ROW0 + row and state[C_CTRL + own] == player and is_normal_card(own):
                mine += 1
                exile_card(state, rules, own, Z_ROW0 + row, player)
    wanted = min(mine, theirs)
    if wanted:
        _open_answer(state, PENDING_K3_ANSWER, opponent, wanted, row, player)
        _set_pend(state, P_COUNT, mine)
    else:
        heal(state, rules, player, mine)
        heal(state, rules, opponent, mine)


@kernel_jit
def answer_actions(state, rules, out):
    who = _pend(state, P_PLAYER)
    k1 = _pend(state, P_KIND) == PENDING_K1_ANSWER
    target = _pend(state, P_TARGET)
    n = 0
    poly = field_poly(state, rules)
    for word in range(MASK_WORDS):
        bits = _field_normals_word(state, who, word)
        while bits != 0:
            card = (word << WORD_SHIFT) + lowest_bit(bits)
            bits &= bits - 1
            if k1 and effective_on_field(state, rules, card, poly) != target:
                continue
            out[n] = _encode(A.K_ANSWER, card, 0, 0)
            n += 1
    return n


@kernel_jit
def k_answer(state, rules, card):
    who = _pend(state, P_PLAYER)
    owner = _pend(state, P_OWNER)
    number = effective_number(state, rules, card)
    exile_card(state, rules, card, state[C_ZONE + card], who)
    if _pend(state, P_KIND) == PENDING_K1_ANSWER:
        clear_pending(state, owner)
        heal(state, rules, who, number)
        return
    _set_pend(state, P_TARGET, _pend(state, P_TARGET) - 1)
    _set_pend(state, P_COUNT, _pend(state, P_COUNT) + 1)
    if _pend(state, P_TARGET) == 0:
        total = _pend(state, P_COUNT)
        clear_pending(state, owner)
        heal(state, rules, owner, total)
        heal(state, rules, who, total)

