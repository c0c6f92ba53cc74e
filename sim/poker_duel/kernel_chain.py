"""Poker Duel numba kernel, part 3: function cards (D-FN-*, D-J/Q/K, jokers),
the response chain (D-FN-8, last in first out) and the pending choices, and
the contract's entry points `legal_actions` / `apply_action` over the whole
game (reference.py's twins, same order of effects).

No function here calls another that could call it back (numba's cache cannot
link mutually recursive functions): a step that wants the chain resolved
returns RESOLVE, and only `apply_action` calls `resolve_chain`."""

import numba as nb
import numpy as np

from sim.poker_duel import actions as A
from sim.poker_duel import engine_cache
from sim.poker_duel import layout as L
from sim.poker_duel import kernel as K
from sim.poker_duel import kernel_battle as KB
from sim.poker_duel.kernel import (FN_NONE, R_AMB02, R_AMB10, R_AMB21, R_AMB28, R_AMB60, bump_of, can_activate,
                                   candidate, check_straight_flush, controller, fn_kind, free_back_slot,
                                   has_straight_flush, holds, is_monster, name_bits, named, push, span,
                                   straight_flush_on, summon_options)
from sim.poker_duel.rules import amb_slot

engine_cache.install()

N = L.N_CODES
Z = L.ZONE_SLOTS
R19, R23, R24, R25, R35, R59 = (amb_slot("D-AMB-%02d" % i) for i in (19, 23, 24, 25, 35, 59))
R_AMB55 = amb_slot("D-AMB-55")
R20, R22, R32 = amb_slot("D-AMB-20"), amb_slot("D-AMB-22"), amb_slot("D-AMB-32")
R12, R18 = amb_slot("D-AMB-12"), amb_slot("D-AMB-18")
DONE, RESOLVE, NEXT = 0, 1, 2  # NEXT: a committed card joins the chain (D-AMB-32 "simultaneous")


@nb.njit(cache=True)
def entry_base(i):
    return L.S_CHAIN + i * L.CH_SIZE


@nb.njit(cache=True)
def top(state):
    return entry_base(state[L.S_CHAIN_LEN] - 1)


@nb.njit(cache=True)
def pend(state, kind, player, maximum):
    state[L.S_PEND_KIND] = kind
    state[L.S_PEND_PLAYER] = player
    state[L.S_PEND_MAX] = maximum
    state[L.S_PEND_CHOSEN] = 0
    for i in range(L.PEND_LIST_SIZE):
        state[L.S_PEND_LIST + i] = 0
    state[L.S_DECIDER] = player


@nb.njit(cache=True)
def in_list(state, value, count):
    for i in range(count):
        if state[L.S_PEND_LIST + i] == value:
            return True
    return False


@nb.njit(cache=True)
def j_target_positions(state, rules, p, out):
    """D-J-1, D-AMB-21: 0..4 monsters, 5..9 set cards (never a card on the chain)."""
    o = 1 - p
    n = 0
    for slot in range(Z):
        if state[L.S_MONSTER + o * Z + slot] >= 0:
            out[n] = slot
            n += 1
    if rules[R_AMB21] == 0:
        for slot in range(Z):
            c = state[L.S_BACK + o * Z + slot]
            if c >= 0 and state[L.C_ZONE + c] == L.Z_BACK:
                out[n] = Z + slot
                n += 1
    return n


@nb.njit(cache=True)
def k_eligible(state, rules, p, card):
    """D-K-1/4: in p's graveyard (or the opponent's, D-AMB-60 "k_searches_both"), no K, no joker."""
    return (state[L.C_ZONE + card] == L.Z_GRAVE and (card // N == p or rules[R_AMB60] == 1)
            and fn_kind(card) != L.FN_K and card % N < 52)


@nb.njit(cache=True)
def any_k_left(state, rules, p):
    for i in range(span(rules)):
        c = candidate(p, i)
        if k_eligible(state, rules, p, c) and not in_list(state, c, state[L.S_PEND_CHOSEN]):
            return True
    return False


@nb.njit(cache=True)
def response_options(state, rules, p, out, n):
    for slot in range(Z):
        card = state[L.S_BACK + p * Z + slot]
        if card >= 0 and state[L.C_ZONE + card] == L.Z_BACK:
            kind = fn_kind(card)
            if (kind == L.FN_J or kind == L.FN_Q or kind == L.FN_K) and can_activate(state, rules, p, card):
                n = push(out, n, A.ACT_SET * 10000 + slot * 100)
    return n


# ---------------------------------------------------------------- activation
@nb.njit(cache=True)
def activate(state, rules, p, card, from_hand):
    """D-FN-2..7 (D-AMB-19/23), reference `_activate`."""
    if from_hand:
        kind = fn_kind(card)
        needs_slot = not ((kind == L.FN_BIG or kind == L.FN_SMALL) and rules[R_AMB02] == 1)
        slot = free_back_slot(state, rules, p) if needs_slot else -1
        if slot >= 0:
            state[L.S_BACK + p * Z + slot] = card
        state[L.C_POS + card] = slot
    state[L.C_ZONE + card] = L.Z_CHAIN
    if rules[R23] == 1 and state[L.C_POS + card] >= 0:
        state[L.S_BACK + p * Z + state[L.C_POS + card]] = -1
        state[L.C_POS + card] = -1
    kind = fn_kind(card)
    n = 1
    if kind == L.FN_J or kind == L.FN_Q or kind == L.FN_K:
        scope = rules[R19]
        owner = 0 if scope == 1 else p
        n = state[L.S_USES + owner * 3 + kind] + 1
        if scope != 2 or p == state[L.S_ACTIVE]:
            state[L.S_USES + owner * 3 + kind] += 1
        state[L.S_COUNTERS + 4 + kind] += 1
    else:
        state[L.S_COUNTERS + (7 if kind == L.FN_BIG else 8)] += 1
    if state[L.S_CHAIN_LEN] > 0:
        state[L.S_COUNTERS + 9] += 1
    b = entry_base(state[L.S_CHAIN_LEN])
    state[L.S_CHAIN_LEN] += 1
    state[b + L.CH_CARD] = card
    state[b + L.CH_PLAYER] = p
    state[b + L.CH_KIND] = kind
    state[b + L.CH_N] = n
    state[b + L.CH_COUNT] = 0
    if kind == L.FN_J:
        pend(state, L.PK_J_TARGETS, p, n)
        if rules[R20] == 1 and not has_j_target(state, rules, p):
            return finish_j_targets(state, rules)  # D-AMB-20 "yes": an empty J
        return DONE
    if kind == L.FN_Q:
        pend(state, L.PK_Q_COUNT, p, n + 1)
        if rules[R20] == 1 and rules[R_AMB10] == 0 and state[L.S_DECK_COUNT + p] == 0:
            state[b + L.CH_COUNT] = 0  # D-AMB-20 "yes": an empty Q draws nothing
            return after_activation(state, rules)
        return DONE
    return after_activation(state, rules)


@nb.njit(cache=True)
def has_j_target(state, rules, p):
    """D-J-1, D-AMB-21: an opponent monster, or (default) a set card not on the chain."""
    o = 1 - p
    for i in range(Z):
        if state[L.S_MONSTER + o * Z + i] >= 0:
            return True
        c = state[L.S_BACK + o * Z + i]
        if rules[R_AMB21] == 0 and c >= 0 and state[L.C_ZONE + c] == L.Z_BACK:
            return True
    return False


@nb.njit(cache=True)
def after_activation(state, rules):
    """D-FN-8 (D-AMB-24/25), D-JOKER-2."""
    b = top(state)
    state[L.S_PEND_KIND] = L.PK_NONE
    if committed(state, rules, 1 - state[b + L.CH_PLAYER]) >= 0:
        return NEXT  # apply_action activates it (activate_committed): no call back into activate
    return response_window(state, rules)


@nb.njit(cache=True)
def committed(state, rules, p):
    """D-AMB-32 "simultaneous": p's card committed face-down this round, or -1."""
    for i in range(span(rules)):
        card = candidate(p, i)
        z = state[L.C_ZONE + card]
        if (state[L.C_FLAGS + card] & L.F_COMMITTED and (z == L.Z_BACK or z == L.Z_HAND)
                and controller(state, card) == p):
            return card
    return -1


@nb.njit(cache=True)
def activate_committed(state, rules):
    """The other revealed card joins the chain (reference `_after_activation`)."""
    p = 1 - state[top(state) + L.CH_PLAYER]
    card = committed(state, rules, p)
    state[L.C_FLAGS + card] &= ~np.int64(L.F_COMMITTED)
    from_hand = state[L.C_ZONE + card] == L.Z_HAND
    kind = fn_kind(card)
    slot_ok = not from_hand or free_back_slot(state, rules, p) >= 0 or (
        (kind == L.FN_BIG or kind == L.FN_SMALL) and rules[R_AMB02] == 1)
    if can_activate(state, rules, p, card) and slot_ok:
        return activate(state, rules, p, card, from_hand)
    return response_window(state, rules)


@nb.njit(cache=True)
def battle_commit(state, rules, p, kind, a, b):
    """D-AMB-32 "simultaneous" (reference `_battle_commit`)."""
    if kind != A.PASS:
        card = named(p, a, b) if kind == A.ACT_HAND else state[L.S_BACK + p * Z + a]
        state[L.C_FLAGS + card] |= L.F_COMMITTED
    state[L.S_PASSES] += 1
    if state[L.S_PASSES] < 2:
        state[L.S_DECIDER] = 1 - state[L.S_DECIDER]
        return DONE
    first = state[L.S_ACTIVE] if committed(state, rules, state[L.S_ACTIVE]) >= 0 else 1 - state[L.S_ACTIVE]
    card = committed(state, rules, first)
    if card < 0:
        KB.end_battle_step(state, rules)
        return DONE
    state[L.C_FLAGS + card] &= ~np.int64(L.F_COMMITTED)
    state[L.S_PRIORITY_OWNER] = first
    state[L.S_PASSES] = 0
    return activate(state, rules, first, card, state[L.C_ZONE + card] == L.Z_HAND)


@nb.njit(cache=True)
def response_window(state, rules):
    """D-FN-8 (D-AMB-24/25), D-JOKER-2: the window after an activation."""
    b = top(state)
    if state[b + L.CH_KIND] == L.FN_SMALL or rules[R24] == 1:
        return RESOLVE
    responder = 1 - state[b + L.CH_PLAYER]
    if may_respond(state, rules, responder):
        pend(state, L.PK_RESPONSE, responder, 0)
        return DONE
    return RESOLVE


@nb.njit(cache=True)
def may_respond(state, rules, p):
    """D-FN-8 with D-AMB-25 "turn_player_only" (reference `_may_respond`)."""
    if state[L.S_PHASE] == L.PH_MAIN and p != state[L.S_ACTIVE] and rules[R25] == 1:
        return False
    scratch = np.zeros(8, dtype=np.int64)
    return response_options(state, rules, p, scratch, 0) > 0


@nb.njit(cache=True)
def finish_j_targets(state, rules):
    b = top(state)
    o = 1 - state[b + L.CH_PLAYER]
    count = state[L.S_PEND_CHOSEN]
    state[b + L.CH_COUNT] = count
    for i in range(count):
        t = state[L.S_PEND_LIST + i]
        card = state[L.S_MONSTER + o * Z + t] if t < Z else state[L.S_BACK + o * Z + t - Z]
        state[b + L.CH_T0 + i] = card
    return after_activation(state, rules)


# ---------------------------------------------------------------- resolution
@nb.njit(cache=True)
def resolve_chain(state, rules):
    """LIFO; each card to the graveyard when resolved (D-FN-4)."""
    state[L.S_PEND_KIND] = L.PK_NONE
    while state[L.S_CHAIN_LEN] > 0:
        b = top(state)
        card, p, kind, n, count = (state[b + L.CH_CARD], state[b + L.CH_PLAYER], state[b + L.CH_KIND],
                                   state[b + L.CH_N], state[b + L.CH_COUNT])
        if kind == L.FN_J:
            for i in range(count):
                t = state[b + L.CH_T0 + i]
                z = state[L.C_ZONE + t]
                if z == L.Z_MONSTER or z == L.Z_BACK:
                    KB.to_grave(state, t)
        elif kind == L.FN_Q:
            if resolve_q(state, rules, p, count):
                return
            if KB.over(state):
                return
        elif kind == L.FN_K:
            pend(state, L.PK_K_PICKS, p, n)
            if any_k_left(state, rules, p) or k_picks_done(state, rules) == DONE:
                return
            state[L.S_PEND_KIND] = L.PK_NONE
            continue  # k_done finished this entry
        elif kind == L.FN_BIG:
            o = 1 - p
            for i in range(Z):
                m = state[L.S_MONSTER + o * Z + i]
                if m >= 0:
                    KB.to_grave(state, m)
        else:
            o = 1 - p
            hits_monsters = rules[R_AMB28] == 0
            for i in range(Z):
                c = state[L.S_BACK + o * Z + i]
                if c >= 0 and state[L.C_ZONE + c] == L.Z_BACK and (hits_monsters or not is_monster(c)):
                    KB.to_grave(state, c)
        pop_entry(state)
        KB.to_grave(state, card)
    after_chain(state, rules)


@nb.njit(cache=True)
def pop_entry(state):
    """Remove the top link, zeroing its slots: a later link never holds an earlier chain's
    targets (the reference packs only live entries, so the two agree). Only a J's first
    CH_COUNT target slots are ever read (resolution, layout.build_view, the sampler); a
    Q's CH_COUNT is its draw count and its target slots stay 0."""
    b = top(state)
    for k in range(L.CH_SIZE):
        state[b + k] = 0
    state[L.S_CHAIN_LEN] -= 1


@nb.njit(cache=True)
def resolve_q(state, rules, p, count):
    """D-Q-1/2 (D-AMB-10/59), D-BS-2. True when set choices are pending."""
    deck = state[L.S_DECK_COUNT + p]
    if count > deck:
        if rules[R_AMB10] == 1:
            state[L.S_WINNER] = 1 - p
            state[L.S_END_TYPE] = L.END_DECK_OUT
            state[L.S_PHASE] = L.PH_OVER
            state[L.S_PEND_KIND] = L.PK_NONE
            return False
        count = deck
    in_battle = state[L.S_PHASE] == L.PH_BATTLE
    check = not (in_battle and rules[R59] == 1)
    drawn = np.zeros(16, dtype=np.int64)
    for i in range(count):
        c = state[L.S_DECK_COUNT + p]
        card = state[L.S_DECK + p * N + c - 1]
        state[L.S_DECK + p * N + c - 1] = 0
        state[L.S_DECK_COUNT + p] = c - 1
        KB.to_hand(state, rules, card, check, p)
        drawn[i] = card
        if KB.over(state):
            return False
    if in_battle and count > 0:
        pend(state, L.PK_Q_SET, p, count)
        for i in range(count):
            state[L.S_PEND_LIST + i] = drawn[i]
        return True
    return False


@nb.njit(cache=True)
def k_picks_done(state, rules):
    """D-K-1..3, D-AMB-59: picks to hand, then placements (D-K-2, D-BS-6)."""
    p = state[L.S_PEND_PLAYER]
    count = state[L.S_PEND_CHOSEN]
    picks = np.zeros(16, dtype=np.int64)
    for i in range(count):
        picks[i] = state[L.S_PEND_LIST + i]
    for i in range(count):
        KB.to_hand(state, rules, picks[i], True, p)  # the K user's hand, whoever owns it (D-AMB-60)
        if KB.over(state):
            return DONE
    state[L.S_PEND_RETURN] = state[L.S_PHASE]
    if count > 0:
        pend(state, L.PK_K_PLACE, p, count)
        for i in range(count):
            state[L.S_PEND_LIST + i] = picks[i]
        return DONE
    return k_done(state, rules)


@nb.njit(cache=True)
def k_done(state, rules):
    """D-BS-4/5 (D-AMB-35)."""
    b = top(state)
    p = state[b + L.CH_PLAYER]
    summoned = np.zeros(16, dtype=np.int64)
    n = 0
    if state[L.S_PEND_KIND] == L.PK_K_PLACE:
        for i in range(state[L.S_PEND_MAX]):
            c = state[L.S_PEND_LIST + i]
            if state[L.C_ZONE + c] == L.Z_MONSTER and state[L.C_FLAGS + c] & L.F_NEW:
                summoned[n] = c
                n += 1
    reading = rules[R35]
    redirect = (state[L.S_PHASE] == L.PH_BATTLE and n > 0 and p != state[L.S_ACTIVE] and state[L.S_ATTACKER] >= 0
                and not (reading == 1 and state[L.S_TARGET] == L.DIRECT_TARGET)
                and not (reading == 3 and state[L.S_REDIRECTED] != 0))
    if redirect and n > 1:
        pend(state, L.PK_REDIRECT, p, n)
        for i in range(n):
            state[L.S_PEND_LIST + i] = summoned[i]
        return DONE
    if redirect:
        state[L.S_TARGET] = summoned[0]
        state[L.S_REDIRECTED] = 1
    return finish_entry(state, rules)


@nb.njit(cache=True)
def finish_entry(state, rules):
    card = state[top(state) + L.CH_CARD]
    pop_entry(state)
    KB.to_grave(state, card)
    state[L.S_PEND_KIND] = L.PK_NONE
    return RESOLVE


@nb.njit(cache=True)
def after_chain(state, rules):
    state[L.S_PEND_KIND] = L.PK_NONE
    if state[L.S_PHASE] == L.PH_MAIN:
        state[L.S_DECIDER] = state[L.S_ACTIVE]
    elif state[L.S_PHASE] == L.PH_BATTLE:
        state[L.S_DECIDER] = state[L.S_PRIORITY_OWNER]
        state[L.S_PASSES] = 0
    elif state[L.S_PHASE] == L.PH_DECLARE:  # D-AMB-64 "any_priority": back to attack declaration
        state[L.S_DECIDER] = state[L.S_ACTIVE]
        if KB.declare_options(state, rules, np.zeros(512, dtype=np.int64), 0) == 0:
            KB.end_battle_phase(state, rules)


# ---------------------------------------------------------------- pending choices
@nb.njit(cache=True)
def k_monsters_together(state, rules, card, chosen):
    """D-AMB-22 "all_or_none" (reference `_k_monsters_together`): 1 the first recovered
    monster was summoned, 0 it was kept or set, -1 free."""
    if rules[R22] != 1 or not is_monster(card):
        return -1
    for i in range(chosen):
        earlier = state[L.S_PEND_LIST + i]
        if is_monster(earlier):
            z = state[L.C_ZONE + earlier]
            return 0 if z == L.Z_HAND or z == L.Z_BACK else 1
    return -1


@nb.njit(cache=True)
def pending_options(state, rules, out):
    p = state[L.S_PEND_PLAYER]
    kind = state[L.S_PEND_KIND]
    chosen = state[L.S_PEND_CHOSEN]
    n = 0
    if kind == L.PK_J_TARGETS:
        positions = np.zeros(16, dtype=np.int64)
        m = j_target_positions(state, rules, p, positions)
        for i in range(m):
            if not in_list(state, positions[i], chosen):
                n = push(out, n, A.TARGET * 10000 + positions[i] * 100)
        if chosen >= 1:
            n = push(out, n, A.PASS * 10000)
    elif kind == L.PK_Q_COUNT:
        top_count = state[L.S_PEND_MAX]
        if rules[R_AMB10] == 0:
            top_count = min(top_count, state[L.S_DECK_COUNT + p])
        for k in range(1, top_count + 1):
            n = push(out, n, A.COUNT * 10000 + k * 100)
    elif kind == L.PK_RESPONSE:
        n = push(out, 0, A.PASS * 10000)
        n = response_options(state, rules, p, out, n)
    elif kind == L.PK_K_PICKS:
        for i in range(span(rules)):
            c = candidate(p, i)
            if k_eligible(state, rules, p, c) and not in_list(state, c, chosen):
                n = push(out, n, A.PICK * 10000 + (c % N) * 100 + name_bits(p, c))
        if chosen >= 1:
            n = push(out, n, A.PASS * 10000)
    elif kind == L.PK_K_PLACE:
        card = state[L.S_PEND_LIST + chosen]
        together = k_monsters_together(state, rules, card, chosen)
        if together == 1:
            n = summon_options(state, rules, p, card, out, 0)  # D-AMB-22 "all_or_none": this one too
        else:
            n = push(out, 0, A.PASS * 10000)
            if is_monster(card) and together != 0:
                n = summon_options(state, rules, p, card, out, n)
            if state[L.S_PEND_RETURN] == L.PH_BATTLE and free_back_slot(state, rules, p) >= 0 and K.may_set(rules, card):
                n = push(out, n, A.SET * 10000 + (card % N) * 100 + name_bits(p, card))
    elif kind == L.PK_Q_SET:
        card = state[L.S_PEND_LIST + chosen]
        n = push(out, 0, A.PASS * 10000)
        if free_back_slot(state, rules, p) >= 0 and K.may_set(rules, card):
            n = push(out, n, A.SET * 10000 + (card % N) * 100)
    elif kind == L.PK_DRAW:
        n = push(out, 0, A.PASS * 10000)
        n = push(out, n, A.DRAW * 10000)
    elif kind == L.PK_MULLIGAN:
        n = push(out, 0, A.PASS * 10000)
        n = push(out, n, A.REDRAW * 10000)
    elif kind == L.PK_REDIRECT:
        for i in range(state[L.S_PEND_MAX]):
            c = state[L.S_PEND_LIST + i]
            if state[L.C_ZONE + c] == L.Z_MONSTER:
                n = push(out, n, A.TARGET * 10000 + state[L.C_POS + c] * 100)
    return KB.sorted_unique(out, n)


@nb.njit(cache=True)
def apply_pending(state, rules, kind, a, b):
    p = state[L.S_PEND_PLAYER]
    pk = state[L.S_PEND_KIND]
    if pk == L.PK_J_TARGETS:
        if kind == A.PASS:
            return finish_j_targets(state, rules)
        state[L.S_PEND_LIST + state[L.S_PEND_CHOSEN]] = a
        state[L.S_PEND_CHOSEN] += 1
        positions = np.zeros(16, dtype=np.int64)
        m = j_target_positions(state, rules, p, positions)
        remaining = 0
        for i in range(m):
            if not in_list(state, positions[i], state[L.S_PEND_CHOSEN]):
                remaining += 1
        if state[L.S_PEND_CHOSEN] >= state[L.S_PEND_MAX] or remaining == 0:
            return finish_j_targets(state, rules)
    elif pk == L.PK_Q_COUNT:
        state[top(state) + L.CH_COUNT] = a
        return after_activation(state, rules)
    elif pk == L.PK_RESPONSE:
        if kind == A.PASS and rules[R24] == 2 and state[L.S_PEND_CHOSEN] == 0 and may_respond(state, rules, 1 - p):
            pend(state, L.PK_RESPONSE, 1 - p, 0)  # D-AMB-24 "full_chain": the other player may add a link
            state[L.S_PEND_CHOSEN] = 1
            return DONE
        if kind == A.PASS:
            state[L.S_PEND_KIND] = L.PK_NONE
            return RESOLVE
        return activate(state, rules, p, state[L.S_BACK + p * Z + a], False)
    elif pk == L.PK_K_PICKS:
        if kind == A.PASS:
            return k_picks_done(state, rules)
        state[L.S_PEND_LIST + state[L.S_PEND_CHOSEN]] = named(p, a, b)
        state[L.S_PEND_CHOSEN] += 1
        if state[L.S_PEND_CHOSEN] >= state[L.S_PEND_MAX] or not any_k_left(state, rules, p):
            return k_picks_done(state, rules)
    elif pk == L.PK_K_PLACE:
        card = state[L.S_PEND_LIST + state[L.S_PEND_CHOSEN]]
        if kind == A.SUMMON:
            KB.summon(state, rules, p, card, bump_of(b), True)
            if KB.over(state):
                return DONE
        elif kind == A.SET:
            KB.set_card(state, rules, p, card)
            if KB.over(state):
                return DONE
        state[L.S_PEND_CHOSEN] += 1
        if state[L.S_PEND_CHOSEN] >= state[L.S_PEND_MAX]:
            return k_done(state, rules)
    elif pk == L.PK_Q_SET:
        card = state[L.S_PEND_LIST + state[L.S_PEND_CHOSEN]]
        if kind == A.SET:
            KB.set_card(state, rules, p, card)
        else:
            check_straight_flush(state, rules, p)
        if KB.over(state):
            return DONE
        state[L.S_PEND_CHOSEN] += 1
        if state[L.S_PEND_CHOSEN] >= state[L.S_PEND_MAX]:
            return finish_entry(state, rules)
    elif pk == L.PK_DRAW:  # D-AMB-11 "optional"
        state[L.S_PEND_KIND] = L.PK_NONE
        if kind == A.DRAW:
            for _ in range(state[L.S_PEND_MAX]):
                K.draw_one(state, p)
                if check_straight_flush(state, rules, p):
                    return DONE
    elif pk == L.PK_MULLIGAN:  # D-AMB-07 "one_redraw": first player, then the other
        state[L.S_PEND_KIND] = L.PK_NONE
        if kind == A.REDRAW:
            K.redraw(state, rules, p)
            if KB.over(state):
                return DONE
        if p == state[L.S_FIRST]:
            K.pend_choice(state, L.PK_MULLIGAN, 1 - p, 0)
        else:
            K.begin_turn(state, rules)
    elif pk == L.PK_REDIRECT:
        state[L.S_TARGET] = state[L.S_MONSTER + (1 - state[L.S_ACTIVE]) * Z + a]
        state[L.S_REDIRECTED] = 1
        if state[L.S_CHAIN_LEN] == 0:  # D-AMB-33 "replay": the battle step is over, boosts next
            state[L.S_PEND_KIND] = L.PK_NONE
            KB.damage_step(state, rules, False)
            return DONE
        return finish_entry(state, rules)
    return DONE


# ---------------------------------------------------------------- the contract's entry points
@nb.njit(cache=True)
def legal_actions(state, rules, out):
    """The decider's choices, ascending; 0 when the match is over."""
    if state[L.S_PHASE] == L.PH_OVER:
        return 0
    if state[L.S_PEND_KIND] != L.PK_NONE:
        n = pending_options(state, rules, out)
    else:
        n = KB.legal_actions(state, rules, out)
        if rules[R18] == 1:  # D-AMB-18 "must_at_once": only just-set cards, activated now
            m = 0
            for i in range(n):
                if out[i] // 10000 == A.ACT_SET:
                    out[m] = out[i]
                    m += 1
            if m > 0:
                n = m
    p = state[L.S_DECIDER]
    if straight_flush_on(state, rules) and rules[R_AMB55] == 2 and has_straight_flush(state, rules, p):
        n = push(out, n, A.REVEAL * 10000)  # D-AMB-55 "optional"
        n = KB.sorted_unique(out, n)
    return n


@nb.njit(cache=True)
def settle(state, rules, code):
    """What a step asked for: committed cards joining the chain, then its resolution."""
    while code == NEXT and not KB.over(state):
        code = activate_committed(state, rules)
    if code == RESOLVE and not KB.over(state):
        resolve_chain(state, rules)


@nb.njit(cache=True)
def apply_action(state, rules, action):
    """Apply one legal action (the caller checks legality, as the match loop does)."""
    kind, a, b = action // 10000, (action // 100) % 100, action % 100
    p = state[L.S_DECIDER]
    phase = state[L.S_PHASE]
    if rules[R18] == 1 and state[L.S_PEND_KIND] == L.PK_NONE and not (
            kind == A.ACT_SET and state[L.C_FLAGS + state[L.S_BACK + p * Z + a]] & L.F_JUST_SET):
        for i in range(span(rules)):  # D-AMB-18 "must_at_once": the moment has passed
            card = candidate(p, i)
            if controller(state, card) == p:
                state[L.C_FLAGS + card] &= ~np.int64(L.F_JUST_SET)
    if (rules[R12] == 1 and kind != A.SUMMON and state[L.S_PEND_KIND] == L.PK_NONE
            and (phase == L.PH_MAIN or phase == L.PH_DECLARE)):
        state[L.S_TURN_SUIT] = -1  # D-AMB-12 "per_batch": any other action ends the batch of summons
    if kind == A.REVEAL:
        state[L.S_WINNER] = p
        state[L.S_END_TYPE] = L.END_STRAIGHT_FLUSH
        state[L.S_PHASE] = L.PH_OVER
        state[L.S_PEND_KIND] = L.PK_NONE
    elif state[L.S_PEND_KIND] != L.PK_NONE:
        settle(state, rules, apply_pending(state, rules, kind, a, b))
    elif phase == L.PH_BATTLE and rules[R32] == 3:
        settle(state, rules, battle_commit(state, rules, p, kind, a, b))
    elif kind == A.ACT_HAND or kind == A.ACT_SET:
        if phase == L.PH_BATTLE:
            state[L.S_PRIORITY_OWNER] = p
        card = named(p, a, b) if kind == A.ACT_HAND else state[L.S_BACK + p * Z + a]
        settle(state, rules, activate(state, rules, p, card, kind == A.ACT_HAND))
    elif kind == A.REVEAL:
        state[L.S_WINNER] = p
        state[L.S_END_TYPE] = L.END_STRAIGHT_FLUSH
        state[L.S_PHASE] = L.PH_OVER
        state[L.S_PEND_KIND] = L.PK_NONE
    else:
        KB.apply_action(state, rules, action)
    return 0
