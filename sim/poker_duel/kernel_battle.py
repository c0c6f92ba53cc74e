"""Poker Duel numba kernel, part 2: summoning, setting, the battle phase,
damage, the end phase (reference.py's twins, same order of effects).

Function-card activations, the response chain and the pending choices live
in `kernel_chain.py`, whose `legal_actions` / `apply_action` are the whole
game's entry points; this module's `apply_action` returns -1 for them.
"""

import numba as nb
import numpy as np

from sim.poker_duel import actions as A
from sim.poker_duel import engine_cache
from sim.poker_duel import layout as L
from sim.poker_duel.kernel import (FN_NONE, R_ADVANCED, R_AMB16, R_BACK_ROW, R_MONSTER_ZONE, begin_turn,
                                   can_activate, check_straight_flush, fn_kind, free_back_slot, free_monster_slot,
                                   free_activations, is_monster, main_legal_actions, push, rank_of, suit_allows, suit_of,
                                   summon_options, finish, bump_of, candidate, controller, holds, name_bits, named,
                                   span)
from sim.poker_duel.rules import FLAG_SLOTS, NUMBER_SLOTS, amb_slot

engine_cache.install()

N = L.N_CODES
Z = L.ZONE_SLOTS
R_HAND_LIMIT = NUMBER_SLOTS["hand_limit"]
R_CLUB = NUMBER_SLOTS["club_multiplier"]
R_FIRST_BATTLE = FLAG_SLOTS["p1_first_battle"]
R06, R13, R14, R26, R27, R29 = (amb_slot("D-AMB-%02d" % i) for i in (6, 13, 14, 26, 27, 29))
R30, R31, R32, R33, R34, R38 = (amb_slot("D-AMB-%02d" % i) for i in (30, 31, 32, 33, 34, 38))
R39, R40, R41, R42, R43, R46 = (amb_slot("D-AMB-%02d" % i) for i in (39, 40, 41, 42, 43, 46))
R47, R49, R50, R51, R52, R53 = (amb_slot("D-AMB-%02d" % i) for i in (47, 49, 50, 51, 52, 53))
R58, R61, R62, R63, R65, R02 = (amb_slot("D-AMB-%02d" % i) for i in (58, 61, 62, 63, 65, 2))
R17, R37, R64 = amb_slot("D-AMB-17"), amb_slot("D-AMB-37"), amb_slot("D-AMB-64")
R04, R36, R18 = amb_slot("D-AMB-04"), amb_slot("D-AMB-36"), amb_slot("D-AMB-18")
R44, R45, R54 = amb_slot("D-AMB-44"), amb_slot("D-AMB-45"), amb_slot("D-AMB-54")
ACE = np.array([1, 14, 11], dtype=np.int64)
SPADE, CLUB, DIAMOND, HEART = 1, 2, 0, 3


@nb.njit(cache=True)
def value(rules, card):
    rank = rank_of(card % N)
    return ACE[rules[R06]] if rank == 1 else rank


@nb.njit(cache=True)
def colour(card):
    s = suit_of(card % N)
    return 1 if s == SPADE or s == CLUB else 0


@nb.njit(cache=True)
def atk(state, rules, card):
    return value(rules, card) + state[L.C_BOOST + card]


@nb.njit(cache=True)
def over(state):
    return state[L.S_PHASE] == L.PH_OVER


@nb.njit(cache=True)
def hand_size(state, rules, p):
    n = 0
    for i in range(span(rules)):
        if holds(state, p, candidate(p, i), L.Z_HAND):
            n += 1
    return n


@nb.njit(cache=True)
def to_grave(state, card):
    """To its owner's graveyard (D-AMB-60), out of its controller's zone."""
    p = controller(state, card)
    zone = state[L.C_ZONE + card]
    pos = state[L.C_POS + card]
    if zone == L.Z_MONSTER:
        state[L.S_MONSTER + p * Z + pos] = -1
    elif (zone == L.Z_BACK or zone == L.Z_CHAIN) and pos >= 0 and state[L.S_BACK + p * Z + pos] == card:
        state[L.S_BACK + p * Z + pos] = -1
    state[L.S_SEQ] += 1
    state[L.C_ZONE + card] = L.Z_GRAVE
    state[L.C_POS + card] = state[L.S_SEQ]
    state[L.C_SET_TURN + card] = 0
    state[L.C_BOOST + card] = 0
    state[L.C_FLAGS + card] = 0


@nb.njit(cache=True)
def to_hand(state, rules, card, check, p):
    """Into p's hand; another player's card is F_TAKEN (D-AMB-60, reference `_to_hand`)."""
    state[L.C_ZONE + card] = L.Z_HAND
    state[L.C_POS + card] = 0
    state[L.C_SET_TURN + card] = 0
    state[L.C_BOOST + card] = 0
    state[L.C_FLAGS + card] = L.F_TAKEN if card // N != p else 0
    if check:
        check_straight_flush(state, rules, p)


@nb.njit(cache=True)
def damage(state, rules, p, amount, spade):
    """D-WIN-1, D-AMB-44 "every_event" (or deferred: "end_of_step"; D-AMB-54 "end_of_phase" for spades)."""
    if amount <= 0:
        return
    state[L.S_HP + p] -= amount
    if rules[R44] == 1 or (spade and rules[R54] == 1):
        return  # the loss waits for hp_checkpoint
    if state[L.S_HP + p] <= 0:
        state[L.S_WINNER] = 1 - p
        state[L.S_END_TYPE] = L.END_LIFE
        state[L.S_PHASE] = L.PH_OVER
        state[L.S_PEND_KIND] = L.PK_NONE


@nb.njit(cache=True)
def enter_field(state, rules, p, card):
    """D-ADV-1/2 (D-AMB-50 cap)."""
    if rules[R_ADVANCED] == 0:
        return
    suit, v = suit_of(card % N), value(rules, card)
    if suit == SPADE:
        state[L.S_COUNTERS + 14] += (v + 1) // 2
        damage(state, rules, 1 - p, (v + 1) // 2, True)
    elif suit == HEART:
        state[L.S_COUNTERS + 15] += v
        state[L.S_HP + p] += v
        if rules[R50] == 1 and state[L.S_HP + p] > state[L.S_START_HP + p]:
            state[L.S_HP + p] = state[L.S_START_HP + p]


@nb.njit(cache=True)
def summon(state, rules, p, card, bump_slot, by_k):
    """D-SUM-1..6, D-AMB-13/14/16 (reference `_summon`)."""
    if bump_slot >= 0:
        bump(state, rules, p, bump_slot)
        slot = bump_slot
    else:
        slot = free_monster_slot(state, rules, p)
    if state[L.C_ZONE + card] == L.Z_BACK:
        state[L.S_BACK + p * Z + state[L.C_POS + card]] = -1
    state[L.C_ZONE + card] = L.Z_MONSTER
    state[L.C_POS + card] = slot
    state[L.S_MONSTER + p * Z + slot] = card
    state[L.C_FLAGS + card] = L.F_NEW | (state[L.C_FLAGS + card] & L.F_TAKEN)  # a taken card stays p's
    state[L.C_BOOST + card] = 0
    state[L.C_SET_TURN + card] = 0
    if not by_k or (rules[R13] == 1 and state[L.S_TURN_SUIT] == -1):
        state[L.S_TURN_SUIT] = suit_of(card % N)
    state[L.S_COUNTERS + (1 if by_k else 0)] += 1
    enter_field(state, rules, p, card)
    if over(state):
        return
    if bump_slot >= 0 and not by_k:
        check_straight_flush(state, rules, p)


@nb.njit(cache=True)
def bump(state, rules, p, bump_slot):
    """D-SUM-5, D-AMB-14 (reference `_bump`)."""
    bumped = state[L.S_MONSTER + p * Z + bump_slot]
    destination = rules[R14]
    if destination == 0:
        to_grave(state, bumped)
    elif destination == 1:  # back to its controller's hand
        state[L.S_MONSTER + p * Z + bump_slot] = -1
        to_hand(state, rules, bumped, False, p)
    else:  # the bottom of its owner's deck (D-AMB-60)
        state[L.S_MONSTER + p * Z + bump_slot] = -1
        state[L.C_ZONE + bumped] = L.Z_DECK
        state[L.C_BOOST + bumped] = 0
        state[L.C_FLAGS + bumped] = 0
        q = bumped // N
        count = state[L.S_DECK_COUNT + q]
        for i in range(count, 0, -1):
            moved = state[L.S_DECK + q * N + i - 1]
            state[L.S_DECK + q * N + i] = moved
            state[L.C_POS + moved] = i
        state[L.S_DECK + q * N] = bumped
        state[L.C_POS + bumped] = 0
        state[L.S_DECK_COUNT + q] = count + 1
    state[L.S_COUNTERS + 2] += 1


@nb.njit(cache=True)
def set_card(state, rules, p, card):
    """D-SET-1/2 (D-AMB-49, D-AMB-58)."""
    slot = free_back_slot(state, rules, p)
    state[L.C_ZONE + card] = L.Z_BACK
    state[L.C_POS + card] = slot
    state[L.S_BACK + p * Z + slot] = card
    state[L.C_SET_TURN + card] = state[L.S_TURN]
    state[L.S_COUNTERS + 3] += 1
    if rules[R18] == 1 and fn_kind(card) != FN_NONE:
        state[L.C_FLAGS + card] |= L.F_JUST_SET  # D-AMB-18 "must_at_once"
    if rules[R49] == 1 and is_monster(card):
        enter_field(state, rules, p, card)
        if over(state):
            return
    if rules[R58] == 1:
        check_straight_flush(state, rules, p)


# ---------------------------------------------------------------- turn structure
@nb.njit(cache=True)
def next_turn(state, rules):
    state[L.S_TURN] += 1
    state[L.S_ACTIVE] = 1 - state[L.S_ACTIVE]
    begin_turn(state, rules)


@nb.njit(cache=True)
def end_phase(state, rules):
    """D-END-1 (D-AMB-46), D-END-2."""
    state[L.S_PHASE] = L.PH_DISCARD
    a = state[L.S_ACTIVE]
    if hand_size(state, rules, a) > rules[R_HAND_LIMIT]:
        state[L.S_DECIDER] = a
        return
    if rules[R46] == 1 and hand_size(state, rules, 1 - a) > rules[R_HAND_LIMIT]:
        state[L.S_DECIDER] = 1 - a
        return
    next_turn(state, rules)


@nb.njit(cache=True)
def discard(state, rules, p, card):
    """D-END-1, D-AMB-47."""
    if rules[R47] == 1:
        state[L.C_ZONE + card] = L.Z_BANISHED
        state[L.C_POS + card] = 0
        state[L.C_FLAGS + card] &= ~np.int64(L.F_TAKEN)  # out of play: nobody's
    else:
        to_grave(state, card)
    if hand_size(state, rules, p) <= rules[R_HAND_LIMIT]:
        if rules[R46] == 1 and p == state[L.S_ACTIVE] and hand_size(state, rules, 1 - p) > rules[R_HAND_LIMIT]:
            state[L.S_DECIDER] = 1 - p
            return
        next_turn(state, rules)


@nb.njit(cache=True)
def hp_checkpoint(state, rules, step):
    """Deferred losses (D-AMB-44 "end_of_step" at step ends, that or D-AMB-54
    "end_of_phase" at phase ends; reference `_hp_checkpoint`). True when the match ended."""
    if not (rules[R44] == 1 or (not step and rules[R54] == 1)):
        return False
    low0, low1 = state[L.S_HP] <= 0, state[L.S_HP + 1] <= 0
    if low0 and low1:
        if rules[R45] == 1:
            finish(state, state[L.S_ACTIVE], L.END_LIFE)
        else:
            finish(state, -1, L.END_DRAW_HP)
    elif low0:
        finish(state, 1, L.END_LIFE)
    elif low1:
        finish(state, 0, L.END_LIFE)
    else:
        return False
    return True


@nb.njit(cache=True)
def end_battle_phase(state, rules):
    if hp_checkpoint(state, rules, False):
        return
    a = state[L.S_ACTIVE]
    for i in range(Z):  # D-AMB-52 "also_defending": use it or lose it
        m = state[L.S_MONSTER + a * Z + i]
        if m >= 0:
            state[L.C_FLAGS + m] &= ~np.int64(L.F_EXTRA_EARNED)
    for p in range(2):
        for i in range(Z):
            m = state[L.S_MONSTER + p * Z + i]
            if m >= 0:
                state[L.C_BOOST + m] = 0
        for i in range(Z):
            c = state[L.S_BACK + p * Z + i]
            if c >= 0 and state[L.C_FLAGS + c] & L.F_BOOSTING:
                to_grave(state, c)
    state[L.S_ATTACKER] = -1
    state[L.S_TARGET] = -1
    state[L.S_EXTRA_ATTACKER] = -1
    end_phase(state, rules)


@nb.njit(cache=True)
def attack_options(state, rules, out, n):
    """D-ATK-1/2, D-BP-2 (D-AMB-31), D-AMB-30, D-ADV-4 (D-AMB-53/63)."""
    p = state[L.S_ACTIVE]
    o = 1 - p
    has_target = False
    for t in range(Z):
        if state[L.S_MONSTER + o * Z + t] >= 0:
            has_target = True
    for slot in range(Z):
        card = state[L.S_MONSTER + p * Z + slot]
        if card < 0:
            continue
        flags = state[L.C_FLAGS + card]
        if card == state[L.S_EXTRA_ATTACKER]:
            if not (rules[R53] == 1 and flags & L.F_NEW):
                for t in range(Z):
                    if state[L.S_MONSTER + o * Z + t] >= 0:
                        n = push(out, n, A.ATTACK * 10000 + slot * 100 + t)
            continue
        if flags & L.F_ATTACKED and rules[R30] == 0:
            if flags & L.F_EXTRA_EARNED:  # D-AMB-52 "also_defending": monsters only (S72)
                for t in range(Z):
                    if state[L.S_MONSTER + o * Z + t] >= 0:
                        n = push(out, n, A.ATTACK * 10000 + slot * 100 + t)
            continue
        if flags & L.F_NEW:
            if state[L.S_NEW_ATTACKS] >= 1 and (rules[R31] == 1 or not flags & L.F_NEW_ATTACKER):
                continue
        if has_target:
            for t in range(Z):
                if state[L.S_MONSTER + o * Z + t] >= 0:
                    n = push(out, n, A.ATTACK * 10000 + slot * 100 + t)
        else:
            n = push(out, n, A.ATTACK * 10000 + slot * 100 + L.DIRECT)
    return n


@nb.njit(cache=True)
def battle_activatable(state, rules, p, out, n):
    """D-BS-1/7: set J/Q/K (jokers per D-AMB-26; from hand per D-AMB-27)."""
    for slot in range(Z):
        card = state[L.S_BACK + p * Z + slot]
        if card >= 0 and state[L.C_ZONE + card] == L.Z_BACK:
            kind = fn_kind(card)
            ok = kind == 0 or kind == 1 or kind == 2 or (rules[R26] == 1 and kind != FN_NONE)
            if ok and can_activate(state, rules, p, card):
                n = push(out, n, A.ACT_SET * 10000 + slot * 100)
    if rules[R27] == 1:
        for i in range(span(rules)):
            card = candidate(p, i)
            if not holds(state, p, card, L.Z_HAND):
                continue
            kind = fn_kind(card)
            ok = kind == 0 or kind == 1 or kind == 2 or (rules[R26] == 1 and kind != FN_NONE)
            slot_ok = free_back_slot(state, rules, p) >= 0 or (
                (kind == 3 or kind == 4) and rules[R02] == 1)
            if ok and slot_ok and can_activate(state, rules, p, card):
                n = push(out, n, A.ACT_HAND * 10000 + (card % N) * 100 + name_bits(p, card))
    return n


@nb.njit(cache=True)
def declare_options(state, rules, out, n):
    """Attacks; under D-AMB-17 "hand_in_battle_too" hand summons; under D-AMB-64
    "any_priority" the battle step's activations."""
    n = attack_options(state, rules, out, n)
    p = state[L.S_ACTIVE]
    if rules[R17] == 1:
        for i in range(span(rules)):
            card = candidate(p, i)
            if holds(state, p, card, L.Z_HAND) and is_monster(card) and suit_allows(state, rules, p, card):
                n = summon_options(state, rules, p, card, out, n)
    if rules[R64] == 1:
        n = battle_activatable(state, rules, p, out, n)
    return n


@nb.njit(cache=True)
def end_main(state, rules):
    """D-BP-1, D-AMB-29 auto-end."""
    if hp_checkpoint(state, rules, False):
        return
    p = state[L.S_ACTIVE]
    if state[L.S_TURN] == 1 and p == state[L.S_FIRST] and rules[R_FIRST_BATTLE] == 0:
        end_phase(state, rules)
        return
    state[L.S_PHASE] = L.PH_DECLARE
    state[L.S_DECIDER] = p
    state[L.S_EXTRA_ATTACKER] = -1
    scratch = np.zeros(512, dtype=np.int64)
    if declare_options(state, rules, scratch, 0) == 0:
        end_battle_phase(state, rules)


@nb.njit(cache=True)
def open_priority(state, rules, phase):
    state[L.S_PHASE] = phase
    state[L.S_PASSES] = 0
    state[L.S_DECIDER] = state[L.S_ACTIVE] if rules[R32] == 0 or rules[R32] == 3 else 1 - state[L.S_ACTIVE]


@nb.njit(cache=True)
def next_declaration(state, rules, keep_extra):
    if hp_checkpoint(state, rules, True):  # the attack's last step ends
        return
    if rules[R38] == 1:
        for p in range(2):
            for i in range(Z):
                m = state[L.S_MONSTER + p * Z + i]
                if m >= 0:
                    state[L.C_BOOST + m] = 0
    extra = state[L.S_EXTRA_ATTACKER]
    waits = (rules[R63] == 1 and extra >= 0 and state[L.C_ZONE + extra] == L.Z_MONSTER
             and state[L.C_FLAGS + extra] & L.F_EXTRA_USED != 0)  # D-AMB-63 "any_later"
    if not keep_extra and not waits:
        state[L.S_EXTRA_ATTACKER] = -1
    state[L.S_ATTACKER] = -1
    state[L.S_TARGET] = -1
    state[L.S_PHASE] = L.PH_DECLARE
    state[L.S_DECIDER] = state[L.S_ACTIVE]
    scratch = np.zeros(512, dtype=np.int64)
    if declare_options(state, rules, scratch, 0) == 0:
        end_battle_phase(state, rules)


@nb.njit(cache=True)
def club_factor(state, rules, club):
    if rules[R_ADVANCED] != 0 and club >= 0 and suit_of(club % N) == CLUB:
        return rules[R_CLUB]
    return 1


@nb.njit(cache=True)
def send_boosts(state, rules):
    if rules[R39] != 0:
        return
    for q in range(2):
        for i in range(Z):
            c = state[L.S_BACK + q * Z + i]
            if c >= 0 and state[L.C_FLAGS + c] & L.F_BOOSTING:
                to_grave(state, c)


@nb.njit(cache=True)
def damage_calculation(state, rules):
    """D-DC-1..5, D-AMB-41/42/43, D-ADV-3 (D-AMB-51), D-ADV-4 (D-AMB-52)."""
    p = state[L.S_ACTIVE]
    o = 1 - p
    attacker, target = state[L.S_ATTACKER], state[L.S_TARGET]
    if target == L.DIRECT_TARGET:
        amount = value(rules, attacker) if rules[R41] == 0 else atk(state, rules, attacker)
        state[L.S_COUNTERS + 11] += 1
        send_boosts(state, rules)  # D-AMB-04 "attacks_player": a direct attack's boost cards
        damage(state, rules, o, amount * club_factor(state, rules, attacker), False)
        if over(state):
            return
    else:
        a, d = atk(state, rules, attacker), atk(state, rules, target)
        same_colour = colour(attacker) == colour(target)
        if a == d:
            state[L.S_COUNTERS + 13] += 1
            tie = rules[R42]
            send_boosts(state, rules)
            if tie == 0 or tie == 2:
                to_grave(state, attacker)
            if tie == 0 or tie == 3:
                to_grave(state, target)
        else:
            attacker_wins = (a > d) == same_colour
            winner = attacker if attacker_wins else target
            loser = target if attacker_wins else attacker
            amount = abs(a - d)
            scope = rules[R51]
            if scope == 0:
                amount *= club_factor(state, rules, winner)
            elif scope == 1:
                amount *= max(club_factor(state, rules, winner), club_factor(state, rules, loser))
            elif winner == attacker:
                amount *= club_factor(state, rules, attacker)
            taker = controller(state, loser) if rules[R43] == 0 else (o if rules[R43] == 1 else p)
            send_boosts(state, rules)
            to_grave(state, loser)
            damage(state, rules, taker, amount, False)
            if over(state):
                return
            if (winner == target and rules[R_ADVANCED] != 0 and suit_of(target % N) == DIAMOND
                    and rules[R52] == 2):
                state[L.C_FLAGS + target] |= L.F_EXTRA_EARNED  # D-AMB-52 "also_defending"
            if winner == attacker and rules[R_ADVANCED] != 0 and suit_of(attacker % N) == DIAMOND:
                opp_has = False
                for i in range(Z):
                    if state[L.S_MONSTER + o * Z + i] >= 0:
                        opp_has = True
                if opp_has and (rules[R52] == 1 or not state[L.C_FLAGS + attacker] & L.F_EXTRA_USED):
                    state[L.S_EXTRA_ATTACKER] = attacker
                    state[L.C_FLAGS + attacker] |= L.F_EXTRA_USED
                    next_declaration(state, rules, True)
                    return
    next_declaration(state, rules, False)


@nb.njit(cache=True)
def declare(state, rules, slot, target_slot):
    if hp_checkpoint(state, rules, True):  # the declaration step ends
        return
    p = state[L.S_ACTIVE]
    card = state[L.S_MONSTER + p * Z + slot]
    extra = card == state[L.S_EXTRA_ATTACKER]
    f = state[L.C_FLAGS + card]
    if not extra and f & L.F_ATTACKED and f & L.F_EXTRA_EARNED and rules[R30] == 0:
        state[L.C_FLAGS + card] &= ~np.int64(L.F_EXTRA_EARNED)  # D-AMB-52 "also_defending"
    if extra:
        state[L.C_FLAGS + card] |= L.F_EXTRA_USED
    elif state[L.C_FLAGS + card] & L.F_NEW:
        if not state[L.C_FLAGS + card] & L.F_NEW_ATTACKER or rules[R31] == 1:
            state[L.S_NEW_ATTACKS] += 1
        state[L.C_FLAGS + card] |= L.F_NEW_ATTACKER
    if extra or rules[R63] == 0:
        state[L.S_EXTRA_ATTACKER] = -1  # D-AMB-63 (a): declared now or lost
    state[L.C_FLAGS + card] |= L.F_ATTACKED
    state[L.S_ATTACKER] = card
    state[L.S_TARGET] = L.DIRECT_TARGET if target_slot == L.DIRECT else state[L.S_MONSTER + (1 - p) * Z + target_slot]
    state[L.S_REDIRECTED] = 0
    state[L.S_COUNTERS + 10] += 1
    if state[L.S_TARGET] == L.DIRECT_TARGET and rules[R65] == 1:
        damage_step(state, rules, False)
        return
    if extra and rules[R53] == 2:
        damage_step(state, rules, True)
        return
    open_priority(state, rules, L.PH_BATTLE)


@nb.njit(cache=True)
def damage_step(state, rules, turn_player_first):
    """Step 3: boosts or straight to damage (D-DS-1/2, D-AMB-04; reference `_damage_step`)."""
    direct = state[L.S_TARGET] == L.DIRECT_TARGET
    boosts = direct if rules[R04] == 1 else not direct
    if not boosts:
        damage_calculation(state, rules)
        return
    open_priority(state, rules, L.PH_DAMAGE)
    if turn_player_first or rules[R32] == 2:
        state[L.S_DECIDER] = state[L.S_ACTIVE]


@nb.njit(cache=True)
def battle_step_pass(state, rules):
    state[L.S_PASSES] += 1
    ends = 1 if rules[R32] == 2 else 2
    if state[L.S_PASSES] < ends:
        state[L.S_DECIDER] = 1 - state[L.S_DECIDER]
        return
    end_battle_step(state, rules)


@nb.njit(cache=True)
def end_battle_step(state, rules):
    if hp_checkpoint(state, rules, True):  # the battle step ends
        return
    attacker, target = state[L.S_ATTACKER], state[L.S_TARGET]
    if state[L.C_ZONE + attacker] != L.Z_MONSTER:
        if rules[R34] == 1 and target >= 0 and state[L.C_ZONE + target] == L.Z_MONSTER:
            damage(state, rules, state[L.S_ACTIVE], atk(state, rules, target), False)
            if over(state):
                return
        next_declaration(state, rules, False)
    elif target == L.DIRECT_TARGET:
        damage_step(state, rules, False)
    elif state[L.C_ZONE + target] != L.Z_MONSTER:
        o = 1 - state[L.S_ACTIVE]
        n = 0
        for i in range(Z):
            if state[L.S_MONSTER + o * Z + i] >= 0:
                n += 1
        if rules[R33] == 2 or (rules[R33] == 1 and n == 0):
            state[L.S_TARGET] = L.DIRECT_TARGET
            damage_step(state, rules, False)
        elif rules[R33] == 1:  # D-AMB-33 "replay": the attacker picks a new target (reference `_pend`)
            state[L.S_PEND_KIND] = L.PK_REDIRECT
            state[L.S_PEND_PLAYER] = state[L.S_ACTIVE]
            state[L.S_PEND_MAX] = n
            state[L.S_PEND_CHOSEN] = 0
            for i in range(L.PEND_LIST_SIZE):
                state[L.S_PEND_LIST + i] = 0
            k = 0
            for i in range(Z):
                m = state[L.S_MONSTER + o * Z + i]
                if m >= 0:
                    state[L.S_PEND_LIST + k] = m
                    k += 1
            state[L.S_DECIDER] = state[L.S_ACTIVE]
        else:
            next_declaration(state, rules, False)
    else:
        damage_step(state, rules, False)


@nb.njit(cache=True)
def boost_amount(rules, card, target):
    v = value(rules, card)
    same_number = v == value(rules, target)
    if rules[R40] == 1:
        same_suit = colour(card) == colour(target)
    else:
        same_suit = suit_of(card % N) == suit_of(target % N)
    if same_number and same_suit:
        return 6 * v
    if same_number:
        return 3 * v
    if same_suit:
        return 2 * v
    return v


@nb.njit(cache=True)
def boost(state, rules, p, card, which):
    """D-DS-2; D-AMB-36 "simultaneous": committed only (reference `_boost`)."""
    if rules[R36] == 1:
        state[L.C_FLAGS + card] |= L.F_COMMITTED
        state[L.C_BOOST + card] = which + 1
        return
    raise_atk(state, rules, card, which)
    state[L.S_PASSES] = 0
    state[L.S_DECIDER] = 1 - state[L.S_DECIDER]


@nb.njit(cache=True)
def raise_atk(state, rules, card, which):
    if which >= 2:  # D-AMB-37 "any_monster"
        target = state[L.S_MONSTER + which - 2]
    else:
        target = state[L.S_ATTACKER] if which == 0 else state[L.S_TARGET]
    state[L.C_BOOST + target] += boost_amount(rules, card, target)
    state[L.C_ZONE + card] = L.Z_BACK
    state[L.C_FLAGS + card] |= L.F_BOOSTING
    state[L.S_COUNTERS + 12] += 1


@nb.njit(cache=True)
def damage_pass(state, rules):
    state[L.S_PASSES] += 1
    if state[L.S_PASSES] < 2:
        state[L.S_DECIDER] = 1 - state[L.S_DECIDER]
        return
    if rules[R36] == 1:  # D-AMB-36 "simultaneous": reveal, first committer first
        for k in range(2):
            q = 1 - state[L.S_DECIDER] if k == 0 else state[L.S_DECIDER]
            for i in range(Z):
                c = state[L.S_BACK + q * Z + i]
                if c >= 0 and state[L.C_FLAGS + c] & L.F_COMMITTED:
                    which = state[L.C_BOOST + c] - 1
                    state[L.C_FLAGS + c] &= ~np.int64(L.F_COMMITTED)
                    state[L.C_BOOST + c] = 0
                    raise_atk(state, rules, c, which)
    damage_calculation(state, rules)


# ---------------------------------------------------------------- the contract's entry points
@nb.njit(cache=True)
def scratch_out():
    return np.zeros(16, dtype=np.int64)


@nb.njit(cache=True)
def sorted_unique(out, n):
    out[:n] = np.sort(out[:n])
    m = 0
    for i in range(n):
        if m == 0 or out[i] != out[m - 1]:
            out[m] = out[i]
            m += 1
    return m


@nb.njit(cache=True)
def legal_actions(state, rules, out):
    """The decider's choices in ascending order; -1 where the kernel cannot decide yet
    (a pending choice: function cards are not ported)."""
    phase = state[L.S_PHASE]
    if phase == L.PH_OVER:
        return 0
    if state[L.S_PEND_KIND] != L.PK_NONE:
        return -1
    p = state[L.S_DECIDER]
    if phase == L.PH_MAIN:
        return main_legal_actions(state, rules, out)
    if phase == L.PH_DECLARE:
        attacks = attack_options(state, rules, out, 0)
        first_attacks = 0  # compulsory: a monster's first attack only (reference `_declare_options`)
        for i in range(attacks):
            attacker = state[L.S_MONSTER + state[L.S_ACTIVE] * Z + (out[i] // 100) % 100]
            if not state[L.C_FLAGS + attacker] & L.F_ATTACKED:
                first_attacks += 1
        n = declare_options(state, rules, out, 0)
        compulsory = rules[R29] == 1 or rules[R61] == 1
        if first_attacks == 0 or not compulsory:
            n = push(out, n, A.PASS * 10000)
        return sorted_unique(out, n)
    if phase == L.PH_BATTLE:
        n = push(out, 0, A.PASS * 10000)
        n = battle_activatable(state, rules, p, out, n)
        return sorted_unique(out, n)
    if phase == L.PH_DAMAGE:
        n = push(out, 0, A.PASS * 10000)
        for slot in range(Z):
            card = state[L.S_BACK + p * Z + slot]
            if (card >= 0 and state[L.C_ZONE + card] == L.Z_BACK and is_monster(card)
                    and not state[L.C_FLAGS + card] & (L.F_BOOSTING | L.F_COMMITTED)
                    and (rules[R62] == 1 or state[L.C_SET_TURN + card] < state[L.S_TURN])):
                n = push(out, n, A.BOOST * 10000 + slot * 100)
                if state[L.S_TARGET] != L.DIRECT_TARGET:  # D-AMB-04 "attacks_player": no defender
                    n = push(out, n, A.BOOST * 10000 + slot * 100 + 1)
                if rules[R37] == 1:  # D-AMB-37 "any_monster": 2 + owner * 5 + monster slot
                    for q in range(2):
                        for i in range(Z):
                            m = state[L.S_MONSTER + q * Z + i]
                            if m >= 0 and m != state[L.S_ATTACKER] and m != state[L.S_TARGET]:
                                n = push(out, n, A.BOOST * 10000 + slot * 100 + 2 + q * Z + i)
        return sorted_unique(out, n)
    n = 0
    for i in range(span(rules)):
        card = candidate(p, i)
        if holds(state, p, card, L.Z_HAND):
            n = push(out, n, A.DISCARD * 10000 + (card % N) * 100 + name_bits(p, card))
    return sorted_unique(out, n)


@nb.njit(cache=True)
def apply_action(state, rules, action):
    """Apply a legal action; 0 on success, -1 for what is not ported yet."""
    kind, a, b = action // 10000, (action // 100) % 100, action % 100
    p = state[L.S_DECIDER]
    phase = state[L.S_PHASE]
    if state[L.S_PEND_KIND] != L.PK_NONE or kind == A.ACT_HAND or kind == A.ACT_SET or kind == A.REVEAL:
        return -1
    if phase == L.PH_MAIN:
        if kind == A.PASS and p == state[L.S_ACTIVE] and free_activations(state, rules, 1 - p, scratch_out(), 0) > 0:
            state[L.S_DECIDER] = 1 - p  # D-AMB-25 "both_freely": the opponent may act before the phase ends
        elif kind == A.PASS:
            end_main(state, rules)
        elif kind == A.SUMMON:
            summon(state, rules, p, named(p, a, b), bump_of(b), False)
        elif kind == A.SET:
            set_card(state, rules, p, named(p, a, b))
        elif kind == A.BUMP:  # D-AMB-15 "any_time_main"
            bump(state, rules, p, a)
            check_straight_flush(state, rules, p)
    elif phase == L.PH_DECLARE:
        if kind == A.PASS:
            end_battle_phase(state, rules)
        elif kind == A.SUMMON:
            summon(state, rules, p, named(p, a, b), bump_of(b), False)  # D-AMB-17 "hand_in_battle_too"
        else:
            declare(state, rules, a, b)
    elif phase == L.PH_BATTLE:
        battle_step_pass(state, rules)
    elif phase == L.PH_DAMAGE:
        if kind == A.PASS:
            damage_pass(state, rules)
        else:
            boost(state, rules, p, state[L.S_BACK + p * Z + a], b)
    elif phase == L.PH_DISCARD:
        discard(state, rules, p, named(p, a, b))
    return 0
