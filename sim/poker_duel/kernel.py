"""Poker Duel numba kernel over `layout.py`, part 1: the new match
(D-SETUP-1..4, D-COMP-1: both decks shuffled from the state's generator,
player 0 first; the deal; the opening straight-flush check, D-AMB-45; the
D-AMB-07 redraw), the beginning of a turn (D-TURN-1, D-DRAW-1..3 with
D-AMB-09/11, the turn cap), the straight-flush test (D-SF-1..3, D-AMB-56/57/58)
and the main phase's legal actions (D-MAIN-1, D-SUM-1/2/5, D-SET-1/2,
D-FN-2/3/5, D-AMB-02/12/15/16/18/20/21/25/28), and who holds a card
(`controller`: the owner, or under D-AMB-60 "k_searches_both" the K user
that took it from the owner's graveyard, flag F_TAKEN). Parts 2 and 3 are
`kernel_battle.py` and `kernel_chain.py` (the contract's entry points);
tests/test_pd_kernel_differential.py checks all three slot for slot against
the reference engine.

Rules arrive as an array (never globals); the layout's slot numbers are
constants frozen into the compiled code, which the cache stamp covers
(engine_cache.py).
"""

import numba as nb
import numpy as np

from sim import rng
from sim.poker_duel import actions as A
from sim.poker_duel import engine_cache
from sim.poker_duel import layout as L
from sim.poker_duel.rules import FLAG_SLOTS, NUMBER_SLOTS, amb_slot

engine_cache.install()

N = L.N_CODES
Z = L.ZONE_SLOTS
R_START_HAND = NUMBER_SLOTS["start_hand"]
R_DRAW = NUMBER_SLOTS["draw_per_turn"]
R_FIRST_DRAW = NUMBER_SLOTS["p1_first_draw"]
R_MONSTER_ZONE = NUMBER_SLOTS["monster_zone"]
R_BACK_ROW = NUMBER_SLOTS["back_row"]
R_TURN_CAP = NUMBER_SLOTS["turn_cap"]
R_ADVANCED = FLAG_SLOTS["advanced_rules"]
R_SF_FLAG = FLAG_SLOTS["straight_flush"]
R_AMB02, R_AMB09, R_AMB10, R_AMB12 = amb_slot("D-AMB-02"), amb_slot("D-AMB-09"), amb_slot("D-AMB-10"), amb_slot("D-AMB-12")
R_AMB16, R_AMB21, R_AMB28 = amb_slot("D-AMB-16"), amb_slot("D-AMB-21"), amb_slot("D-AMB-28")
R_AMB45, R_AMB48, R_AMB55 = amb_slot("D-AMB-45"), amb_slot("D-AMB-48"), amb_slot("D-AMB-55")
R_AMB56, R_AMB57, R_AMB58 = amb_slot("D-AMB-56"), amb_slot("D-AMB-57"), amb_slot("D-AMB-58")
R_AMB20 = amb_slot("D-AMB-20")
R_AMB07, R_AMB11, R_AMB15 = amb_slot("D-AMB-07"), amb_slot("D-AMB-11"), amb_slot("D-AMB-15")
R_AMB25, R_AMB18 = amb_slot("D-AMB-25"), amb_slot("D-AMB-18")
R_AMB60 = amb_slot("D-AMB-60")
FN_NONE = -1
OTHER = A.OTHER


# ---------------------------------------------------------------- who holds a card (D-AMB-60)
@nb.njit(cache=True, inline="always")
def controller(state, card):
    """The owner, or the K user that took the card (F_TAKEN, D-AMB-60 "k_searches_both")."""
    return card // N ^ (1 if state[L.C_FLAGS + card] & L.F_TAKEN else 0)


@nb.njit(cache=True, inline="always")
def span(rules):
    """How many card ids `candidate` walks: a player's own 54, and under D-AMB-60
    "k_searches_both" the opponent's too (own first, as reference `_candidates`)."""
    return 2 * N if rules[R_AMB60] == 1 else N


@nb.njit(cache=True, inline="always")
def candidate(p, i):
    return (p * N + i) % L.N_CARDS


@nb.njit(cache=True, inline="always")
def holds(state, p, card, zone):
    """`card` is in `p`'s `zone` (hand, back row ...), whoever owns it."""
    return state[L.C_ZONE + card] == zone and controller(state, card) == p


@nb.njit(cache=True, inline="always")
def named(p, a, b):
    """actions.card_of: the card (a, b) names for decider p."""
    return (1 - p if b >= OTHER else p) * N + a


@nb.njit(cache=True, inline="always")
def name_bits(p, card):
    """actions.name_bits: OTHER for the opponent's card."""
    return OTHER if card // N != p else 0


@nb.njit(cache=True, inline="always")
def bump_of(b):
    return b % OTHER - 1


@nb.njit(cache=True, inline="always")
def rank_of(code):
    return code % 13 + 1 if code < 52 else 0


@nb.njit(cache=True, inline="always")
def suit_of(code):
    return code // 13 if code < 52 else -1


@nb.njit(cache=True, inline="always")
def is_monster(card):
    code = card % N
    return code < 52 and code % 13 < 10


@nb.njit(cache=True)
def fn_kind(card):
    code = card % N
    if code == 52:
        return L.FN_BIG
    if code == 53:
        return L.FN_SMALL
    rank = code % 13 + 1
    if rank == 11:
        return L.FN_J
    if rank == 12:
        return L.FN_Q
    if rank == 13:
        return L.FN_K
    return FN_NONE


# ---------------------------------------------------------------- the end of a match
@nb.njit(cache=True)
def finish(state, winner, end_type):
    state[L.S_WINNER] = winner
    state[L.S_END_TYPE] = end_type
    state[L.S_PHASE] = L.PH_OVER
    state[L.S_PEND_KIND] = L.PK_NONE


@nb.njit(cache=True)
def is_over(state):
    return state[L.S_PHASE] == L.PH_OVER


# ---------------------------------------------------------------- straight flush
@nb.njit(cache=True)
def straight_flush_on(state, rules):
    """D-AMB-48: with the advanced module (0), its own switch (1), or always (2)."""
    module = rules[R_AMB48]
    if module == 0:
        return rules[R_ADVANCED] != 0
    if module == 1:
        return rules[R_SF_FLAG] != 0
    return True


@nb.njit(cache=True)
def has_straight_flush(state, rules, p):
    """D-SF-1..3: 5 same-suit consecutive values (A = 1 or 14), wrap (D-AMB-56),
    wild jokers (D-AMB-57), back-row cards (D-AMB-58)."""
    masks = np.zeros(4, dtype=np.int64)
    jokers = 0
    with_back = rules[R_AMB58] == 1
    for i in range(span(rules)):
        card = candidate(p, i)
        zone = state[L.C_ZONE + card]
        if (zone == L.Z_HAND or (with_back and zone == L.Z_BACK)) and controller(state, card) == p:
            code = card % N
            if code >= 52:
                jokers += 1
            else:
                masks[code // 13] |= np.int64(1) << (code % 13)
    if rules[R_AMB57] == 0:
        jokers = 0
    starts = 13 if rules[R_AMB56] == 1 else 10
    for suit in range(4):
        for start in range(starts):
            missing = 0
            for k in range(5):
                rank0 = (start + k) % 13  # 0-based rank; start 9 + 4 = 13 -> A (rank 0)
                if not (masks[suit] >> rank0) & 1:
                    missing += 1
            if missing <= jokers:
                return True
    return False


@nb.njit(cache=True)
def check_straight_flush(state, rules, p):
    """D-AMB-55 "automatic": a hand holding one wins at once. True when the match ended."""
    if straight_flush_on(state, rules) and rules[R_AMB55] == 0 and has_straight_flush(state, rules, p):
        finish(state, p, L.END_STRAIGHT_FLUSH)
        return True
    return False


# ---------------------------------------------------------------- cards moving
@nb.njit(cache=True)
def draw_one(state, p):
    """The top card (deck[count-1]) to the hand; the emptied stack slot reads 0."""
    count = state[L.S_DECK_COUNT + p]
    card = state[L.S_DECK + p * N + count - 1]
    state[L.S_DECK + p * N + count - 1] = 0
    state[L.S_DECK_COUNT + p] = count - 1
    state[L.C_ZONE + card] = L.Z_HAND
    state[L.C_POS + card] = 0
    state[L.C_SET_TURN + card] = 0
    state[L.C_BOOST + card] = 0
    state[L.C_FLAGS + card] = 0
    return card


# ---------------------------------------------------------------- new match, turns
@nb.njit(cache=True)
def begin_turn(state, rules):
    """D-TURN-1, D-DRAW-1..3 (D-AMB-09), the turn cap; then the main phase."""
    p = state[L.S_ACTIVE]
    if state[L.S_TURN] > rules[R_TURN_CAP]:
        finish(state, -1, L.END_TURN_CAP)
        return
    for k in range(6):
        state[L.S_USES + k] = 0
    state[L.S_TURN_SUIT] = -1
    state[L.S_NEW_ATTACKS] = 0
    clear = ~np.int64(L.F_NEW | L.F_ATTACKED | L.F_EXTRA_USED | L.F_NEW_ATTACKER)
    for card in range(L.N_CARDS):
        state[L.C_FLAGS + card] &= clear
    need = rules[R_FIRST_DRAW] if (state[L.S_TURN] == 1 and p == state[L.S_FIRST]) else rules[R_DRAW]
    threshold = 2 if rules[R_AMB09] == 1 else need
    if state[L.S_DECK_COUNT + p] < threshold:
        finish(state, 1 - p, L.END_DECK_OUT)
        return
    state[L.S_PHASE] = L.PH_MAIN
    state[L.S_DECIDER] = p
    n = min(need, state[L.S_DECK_COUNT + p])
    if rules[R_AMB11] == 1 and n > 0:  # D-AMB-11 "optional": draw all n or none
        pend_choice(state, L.PK_DRAW, p, n)
        return
    for _ in range(n):
        draw_one(state, p)
        if check_straight_flush(state, rules, p):
            return


@nb.njit(cache=True)
def pend_choice(state, kind, player, maximum):
    """A pending choice (kernel_chain.pend's twin, here for the turn start and the set-up)."""
    state[L.S_PEND_KIND] = kind
    state[L.S_PEND_PLAYER] = player
    state[L.S_PEND_MAX] = maximum
    state[L.S_PEND_CHOSEN] = 0
    for i in range(L.PEND_LIST_SIZE):
        state[L.S_PEND_LIST + i] = 0
    state[L.S_DECIDER] = player


@nb.njit(cache=True)
def redraw(state, rules, p):
    """D-AMB-07 "one_redraw" (reference `_redraw`): hand back on the deck in ascending
    card id, the whole deck shuffled again, `start_hand` cards drawn, then the check."""
    for card in range(p * N, p * N + N):
        if state[L.C_ZONE + card] == L.Z_HAND:
            count = state[L.S_DECK_COUNT + p]
            state[L.S_DECK + p * N + count] = card
            state[L.S_DECK_COUNT + p] = count + 1
            state[L.C_ZONE + card] = L.Z_DECK
            state[L.C_SET_TURN + card] = 0
            state[L.C_BOOST + card] = 0
            state[L.C_FLAGS + card] = 0
    base = L.S_DECK + p * N
    for i in range(state[L.S_DECK_COUNT + p] - 1, 0, -1):
        j = rng.nb_below(state, L.S_RNG, i + 1)
        tmp = state[base + i]
        state[base + i] = state[base + j]
        state[base + j] = tmp
    for _ in range(min(rules[R_START_HAND], state[L.S_DECK_COUNT + p])):
        draw_one(state, p)
    for i in range(state[L.S_DECK_COUNT + p]):
        state[L.C_POS + state[base + i]] = i
    check_straight_flush(state, rules, p)


@nb.njit(cache=True)
def new_match(rules, hp0, hp1, first, seed, state):
    """Fill `state` (layout.STATE_SIZE) with a new match; same numbers as reference.Match.new."""
    state[:] = 0
    state[L.S_RNG] = seed
    state[L.S_TURN] = 1
    state[L.S_ACTIVE] = first
    state[L.S_FIRST] = first
    state[L.S_DECIDER] = first
    state[L.S_PHASE] = L.PH_MAIN
    state[L.S_WINNER] = -1
    state[L.S_HP] = hp0
    state[L.S_HP + 1] = hp1
    state[L.S_START_HP] = hp0
    state[L.S_START_HP + 1] = hp1
    state[L.S_TURN_SUIT] = -1
    state[L.S_ATTACKER] = -1
    state[L.S_TARGET] = -1
    state[L.S_EXTRA_ATTACKER] = -1
    for i in range(2 * Z):
        state[L.S_MONSTER + i] = -1
        state[L.S_BACK + i] = -1
    for card in range(L.N_CARDS):
        state[L.C_ZONE + card] = L.Z_DECK
    for p in range(2):
        base = L.S_DECK + p * N
        for i in range(N):
            state[base + i] = p * N + i
        for i in range(N - 1, 0, -1):
            j = rng.nb_below(state, L.S_RNG, i + 1)
            tmp = state[base + i]
            state[base + i] = state[base + j]
            state[base + j] = tmp
        state[L.S_DECK_COUNT + p] = N
    for order in range(2):
        p = first if order == 0 else 1 - first
        for _ in range(rules[R_START_HAND]):
            draw_one(state, p)
    for p in range(2):  # deck cards' positions are their stack indices
        for i in range(state[L.S_DECK_COUNT + p]):
            state[L.C_POS + state[L.S_DECK + p * N + i]] = i
    if straight_flush_on(state, rules) and rules[R_AMB55] == 0:  # D-AMB-45
        sf0 = has_straight_flush(state, rules, 0)
        sf1 = has_straight_flush(state, rules, 1)
        if sf0 and sf1:
            if rules[R_AMB45] == 1:
                finish(state, first, L.END_STRAIGHT_FLUSH)
            else:
                finish(state, -1, L.END_DRAW_SF)
            return
        for order in range(2):
            p = first if order == 0 else 1 - first
            if (sf0 and p == 0) or (sf1 and p == 1):
                finish(state, p, L.END_STRAIGHT_FLUSH)
                return
    if rules[R_AMB07] == 1:
        pend_choice(state, L.PK_MULLIGAN, first, 0)  # D-AMB-07: the first player decides first
        return
    begin_turn(state, rules)
    for p in range(2):
        for i in range(state[L.S_DECK_COUNT + p]):
            state[L.C_POS + state[L.S_DECK + p * N + i]] = i


# ---------------------------------------------------------------- main-phase legal actions
@nb.njit(cache=True)
def free_back_slot(state, rules, p):
    for i in range(rules[R_BACK_ROW]):
        if state[L.S_BACK + p * Z + i] < 0:
            return i
    return -1


@nb.njit(cache=True)
def free_monster_slot(state, rules, p):
    for i in range(rules[R_MONSTER_ZONE]):
        if state[L.S_MONSTER + p * Z + i] < 0:
            return i
    return -1


@nb.njit(cache=True)
def suit_allows(state, rules, p, card):
    """D-SUM-1 with D-AMB-12: per turn (0) or field-wide (2)."""
    suit = suit_of(card % N)
    if rules[R_AMB12] == 2:
        for i in range(Z):
            m = state[L.S_MONSTER + p * Z + i]
            if m >= 0 and suit_of(m % N) != suit:
                return False
        return True
    if rules[R_AMB12] == 3:  # "match_field": the suit of a monster already on one's field
        empty = True
        for i in range(Z):
            m = state[L.S_MONSTER + p * Z + i]
            if m >= 0:
                empty = False
                if suit_of(m % N) == suit:
                    return True
        return empty
    return state[L.S_TURN_SUIT] == -1 or state[L.S_TURN_SUIT] == suit


@nb.njit(cache=True)
def can_activate(state, rules, p, card):
    """D-AMB-20 "no": something to act on (D-J-1, D-Q-1, D-K-1/4, D-JOKER-1/3);
    "yes": any function card may be activated empty."""
    kind = fn_kind(card)
    o = 1 - p
    if rules[R_AMB18] == 1 and state[L.C_ZONE + card] == L.Z_BACK and not state[L.C_FLAGS + card] & L.F_JUST_SET:
        return False  # D-AMB-18 "must_at_once": a set function card not used at once never is
    if rules[R_AMB20] == 1 and kind != FN_NONE:
        return True
    if kind == L.FN_J:
        for i in range(Z):
            if state[L.S_MONSTER + o * Z + i] >= 0:
                return True
            c = state[L.S_BACK + o * Z + i]
            if rules[R_AMB21] == 0 and c >= 0 and state[L.C_ZONE + c] == L.Z_BACK:
                return True
        return False
    if kind == L.FN_Q:
        return state[L.S_DECK_COUNT + p] > 0 or rules[R_AMB10] != 0
    if kind == L.FN_K:  # own graveyard (and the opponent's under D-AMB-60 "k_searches_both")
        for i in range(span(rules)):
            c = candidate(p, i)
            if state[L.C_ZONE + c] == L.Z_GRAVE and fn_kind(c) != L.FN_K and c % N < 52:
                return True
        return False
    if kind == L.FN_BIG:
        for i in range(Z):
            if state[L.S_MONSTER + o * Z + i] >= 0:
                return True
        return False
    if kind == L.FN_SMALL:
        for i in range(Z):
            c = state[L.S_BACK + o * Z + i]
            if c >= 0 and state[L.C_ZONE + c] == L.Z_BACK and (rules[R_AMB28] == 0 or not is_monster(c)):
                return True
        return False
    return False


@nb.njit(cache=True)
def free_activations(state, rules, p, out, n):
    """D-AMB-25 "both_freely" (reference `_free_activations`): set function cards, slot order."""
    if rules[R_AMB25] != 2:
        return n
    for slot in range(Z):
        card = state[L.S_BACK + p * Z + slot]
        if card >= 0 and state[L.C_ZONE + card] == L.Z_BACK and fn_kind(card) != FN_NONE \
                and can_activate(state, rules, p, card):
            out[n] = A.ACT_SET * 10000 + slot * 100
            n += 1
    return n


@nb.njit(cache=True)
def may_set(rules, card):
    """D-AMB-18 "set_is_activation": function cards are never set (reference `_may_set`)."""
    return not (fn_kind(card) != FN_NONE and rules[R_AMB18] == 2)


@nb.njit(cache=True)
def push(out, n, action):
    out[n] = action
    return n + 1


@nb.njit(cache=True)
def summon_options(state, rules, p, card, out, n):
    action = A.SUMMON * 10000 + (card % N) * 100 + name_bits(p, card)
    if free_monster_slot(state, rules, p) >= 0:
        return push(out, n, action)
    for slot in range(rules[R_MONSTER_ZONE]):
        if state[L.S_MONSTER + p * Z + slot] >= 0:
            n = push(out, n, action + slot + 1)
    return n


@nb.njit(cache=True)
def main_legal_actions(state, rules, out):
    """The main phase's choices with no pending choice, ascending (reference `_main_options`)."""
    p = state[L.S_DECIDER]
    n = push(out, 0, A.PASS * 10000)
    if p != state[L.S_ACTIVE]:  # D-AMB-25 "both_freely": the non-turn player holds priority
        return free_activations(state, rules, p, out, n)
    free_back = free_back_slot(state, rules, p) >= 0
    for i in range(span(rules)):
        card = candidate(p, i)
        if not holds(state, p, card, L.Z_HAND):
            continue
        name = (card % N) * 100 + name_bits(p, card)
        if is_monster(card) and suit_allows(state, rules, p, card):
            n = summon_options(state, rules, p, card, out, n)
        if free_back and may_set(rules, card):
            n = push(out, n, A.SET * 10000 + name)
        kind = fn_kind(card)
        if kind != FN_NONE:
            slot_ok = free_back or ((kind == L.FN_BIG or kind == L.FN_SMALL) and rules[R_AMB02] == 1)
            if slot_ok and can_activate(state, rules, p, card):
                n = push(out, n, A.ACT_HAND * 10000 + name)
    for slot in range(Z):
        card = state[L.S_BACK + p * Z + slot]
        if card >= 0 and state[L.C_ZONE + card] == L.Z_BACK:
            if fn_kind(card) != FN_NONE and can_activate(state, rules, p, card):
                n = push(out, n, A.ACT_SET * 10000 + slot * 100)
            if is_monster(card) and rules[R_AMB16] == 1 and suit_allows(state, rules, p, card):
                n = summon_options(state, rules, p, card, out, n)
    if rules[R_AMB15] == 1:  # D-AMB-15 "any_time_main": a bump on its own
        for slot in range(Z):
            if state[L.S_MONSTER + p * Z + slot] >= 0:
                n = push(out, n, A.BUMP * 10000 + slot * 100)
    if straight_flush_on(state, rules) and rules[R_AMB55] == 1 and has_straight_flush(state, rules, p):
        n = push(out, n, A.REVEAL * 10000)
    out[:n] = np.sort(out[:n])
    # remove duplicates (none expected; kept in step with the reference's set())
    m = 0
    for i in range(n):
        if m == 0 or out[i] != out[m - 1]:
            out[m] = out[i]
            m += 1
    return m
