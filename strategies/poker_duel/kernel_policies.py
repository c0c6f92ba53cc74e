"""Poker Duel's compiled seat policies (twins of `policies.py`, same decisions
from the same view) and the compiled seat view (`nb_view`, the twin of
`layout.build_view`). The match loop (`kernel_batch.py`) and the search
agents' rollouts (`search.py`) call them. greedy's numbers are weights
(`weights.py`), an argument of `greedy_weighted`: `greedy_index` passes the
defaults (a constant array, today's values), `tuned_index` the rules array's
policy block, so trying other weights compiles nothing.
"""

import numba as nb
import numpy as np

from sim.poker_duel import actions as A
from sim.poker_duel import engine_cache
from sim.poker_duel import kernel as K
from sim.poker_duel import kernel_battle as KB
from sim.poker_duel import layout as L
from sim.poker_duel.rules import NUMBER_SLOTS, amb_slot
from strategies.poker_duel import weights as W

engine_cache.install()

N = L.N_CODES
Z = L.ZONE_SLOTS
R40 = amb_slot("D-AMB-40")
R_BACK_ROW = NUMBER_SLOTS["back_row"]
R_HAND_LIMIT = NUMBER_SLOTS["hand_limit"]
DRAW_DECK_LOW = 10  # policies.DRAW_DECK_LOW
DEFAULT_WEIGHTS = W.DEFAULTS  # a numba global: frozen into the code as constants (greedy's own values)
NO_SCORE = -(1 << 62)  # below every score (weights may make scores negative)


@nb.njit(cache=True, inline="always")
def hidden_from(state, seat, open_info, card):
    """layout.build_view's rule: every deck card; the cards in the opponent's hand and
    back row (by controller, D-AMB-60)."""
    zone = state[L.C_ZONE + card]
    return zone == L.Z_DECK or (not open_info and K.controller(state, card) == 1 - seat
                                and (zone == L.Z_HAND or zone == L.Z_BACK))


@nb.njit(cache=True)
def nb_view(state, seat, open_info, view):
    """Twin of layout.build_view; allocation-free (the search agents build one per rollout decision)."""
    view[:] = state
    view[L.S_RNG] = L.HIDDEN
    opponent = 1 - seat
    for i in range(2 * N):
        view[L.S_DECK + i] = L.HIDDEN
    for card in range(L.N_CARDS):
        if hidden_from(state, seat, open_info, card):
            view[L.C_ZONE + card] = L.Z_HIDDEN
            view[L.C_POS + card] = L.HIDDEN
            view[L.C_SET_TURN + card] = L.HIDDEN
            view[L.C_BOOST + card] = 0  # D-AMB-32/36 commitments, D-AMB-18 marks: private
            view[L.C_FLAGS + card] &= ~np.int64(L.F_COMMITTED | L.F_JUST_SET)
    for entry in range(state[L.S_CHAIN_LEN]):
        base = L.S_CHAIN + entry * L.CH_SIZE
        if state[base + L.CH_KIND] != L.FN_J:
            continue  # only a J has targets
        for k in range(min(state[base + L.CH_COUNT], L.CH_TARGETS)):
            target = state[base + L.CH_T0 + k]
            if target >= 0 and hidden_from(state, seat, open_info, target):
                view[base + L.CH_T0 + k] = L.HIDDEN
    if not open_info:
        for i in range(Z):
            c = state[L.S_BACK + opponent * Z + i]
            if c >= 0 and state[L.C_ZONE + c] == L.Z_BACK:
                view[L.S_BACK + opponent * Z + i] = L.HIDDEN - state[L.C_SET_TURN + c]  # layout.face_down


# ---------------------------------------------------------------- greedy (policies.greedy_index)
@nb.njit(cache=True)
def boost_amount(rules, card, target):
    v = KB.value(rules, card)
    same_number = v == KB.value(rules, target)
    if rules[R40] == 1:
        same_suit = KB.colour(card) == KB.colour(target)
    else:
        same_suit = K.suit_of(card % N) == K.suit_of(target % N)
    return v * (6 if same_number and same_suit else 3 if same_number else 2 if same_suit else 1)


@nb.njit(cache=True)
def first_of(legal, n, kind):
    for i in range(n):
        if legal[i] // 10000 == kind:
            return i
    return -1


@nb.njit(cache=True)
def greedy_main(view, legal, n, rules, me, opponent, pass_index, w):
    best, best_score = -1, -1
    for i in range(n):
        k, a, b = legal[i] // 10000, (legal[i] // 100) % 100, legal[i] % 100
        if k != A.SUMMON:
            continue
        value = KB.value(rules, a)
        if value < w[W.K_SUMMON_MIN_VALUE]:
            continue
        score = value * 100
        if K.bump_of(b) >= 0:
            bumped = view[L.S_MONSTER + me * Z + K.bump_of(b)]
            if bumped < 0 or value - KB.value(rules, bumped % N) < w[W.K_BUMP_MIN_GAIN]:
                continue
            score -= KB.value(rules, bumped % N)
        if score > best_score:  # ties: the earliest action (policies: max of (score, -i))
            best, best_score = i, score
    if best >= 0:
        return best
    opp_monsters = 0
    opp_set = 0
    for s in range(Z):
        if view[L.S_MONSTER + opponent * Z + s] >= 0:
            opp_monsters += 1
        if view[L.S_BACK + opponent * Z + s] != -1:
            opp_set += 1
    deck = view[L.S_DECK_COUNT + me]
    for wish in range(5):
        for i in range(n):
            k, a = legal[i] // 10000, (legal[i] // 100) % 100
            if k == A.ACT_HAND:
                c = a
            elif k == A.ACT_SET:
                c = view[L.S_BACK + me * Z + a] % N
            else:
                continue
            rank = K.rank_of(c)
            if ((wish == 0 and c == 52 and opp_monsters >= w[W.K_BIG_JOKER_MIN_MONSTERS])
                    or (wish == 1 and c == 53 and opp_set >= w[W.K_SMALL_JOKER_MIN_SET])
                    or (wish == 2 and c < 52 and rank == 11 and opp_monsters + opp_set >= w[W.K_J_MIN_OPPONENT_CARDS])
                    or (wish == 3 and c < 52 and rank == 12 and deck > w[W.K_Q_ACTIVATE_DECK_ABOVE])
                    or (wish == 4 and c < 52 and rank == 13)):
                return i
    free = 0
    for s in range(rules[R_BACK_ROW]):
        if view[L.S_BACK + me * Z + s] == -1:
            free += 1
    if free >= w[W.K_SET_MIN_FREE_SLOTS]:
        for i in range(n):
            k, a = legal[i] // 10000, (legal[i] // 100) % 100
            if k == A.SET and (a >= 52 or K.rank_of(a) > 10 or KB.value(rules, a) <= w[W.K_BOOST_SET_MAX_VALUE]):
                return i
    return pass_index


@nb.njit(cache=True)
def draw_wanted(view, rules, me, count):
    """Twin of policies.draw_wanted (D-AMB-11 "optional")."""
    hand = 0
    for i in range(K.span(rules)):
        c = K.candidate(me, i)
        if view[L.C_ZONE + c] == L.Z_HAND and K.controller(view, c) == me:
            hand += 1
    if hand >= rules[R_HAND_LIMIT]:
        return False
    after = view[L.S_DECK_COUNT + me] - count
    return not (after <= DRAW_DECK_LOW and after < view[L.S_DECK_COUNT + 1 - me])


@nb.njit(cache=True)
def i_win(mine, theirs, same):
    return mine != theirs and ((mine > theirs) == same)


@nb.njit(cache=True)
def greedy_index(view, legal, n, rules):
    """greedy: today's constants (weights.DEFAULTS)."""
    return greedy_weighted(view, legal, n, rules, DEFAULT_WEIGHTS)


@nb.njit(cache=True)
def tuned_index(view, legal, n, rules):
    """tuned: greedy with the weights of the rules array's policy block (greedy's without one)."""
    if rules.shape[0] >= W.POLICY_RULES_SIZE:
        return greedy_weighted(view, legal, n, rules, rules[W.POLICY_BASE:W.POLICY_RULES_SIZE])
    return greedy_weighted(view, legal, n, rules, DEFAULT_WEIGHTS)


@nb.njit(cache=True)
def greedy_weighted(view, legal, n, rules, w):
    """Twin of policies.greedy_index with weights `w` (weights.py)."""
    me = view[L.S_DECIDER]
    opponent = 1 - me
    phase = view[L.S_PHASE]
    pending = view[L.S_PEND_KIND]
    pass_index = first_of(legal, n, A.PASS)
    deck = view[L.S_DECK_COUNT + me]
    if pending == L.PK_J_TARGETS:
        best, best_score = -1, NO_SCORE
        for i in range(n):
            if legal[i] // 10000 == A.TARGET:
                t = (legal[i] // 100) % 100
                score = w[W.K_J_MONSTER_BASE] + KB.value(rules, view[L.S_MONSTER + opponent * Z + t] % N) if t < Z else 0
                if score > best_score:
                    best, best_score = i, score
        return best if best >= 0 else pass_index
    if pending == L.PK_Q_COUNT:
        lo, hi = 0, 0
        for i in range(n):
            if (legal[i] // 100) % 100 < (legal[lo] // 100) % 100:
                lo = i
            if (legal[i] // 100) % 100 > (legal[hi] // 100) % 100:
                hi = i
        return hi if deck > w[W.K_Q_DRAW_MOST_DECK_ABOVE] else lo
    if pending == L.PK_RESPONSE:
        top = view[L.S_CHAIN_LEN] - 1
        if view[L.S_CHAIN + top * L.CH_SIZE + L.CH_KIND] == L.FN_J:
            i = first_of(legal, n, A.ACT_SET)
            if i >= 0:
                return i
        return pass_index
    if pending == L.PK_K_PICKS:
        best, best_key = -1, NO_SCORE
        for i in range(n):
            if legal[i] // 10000 == A.PICK:
                a = (legal[i] // 100) % 100
                key = (w[W.K_K_PICK_MONSTER_BONUS] if K.rank_of(a) <= 10 else 0) + KB.value(rules, a)
                if key > best_key:
                    best, best_key = i, key
        return best if best >= 0 else pass_index
    if pending == L.PK_K_PLACE:
        for i in range(n):
            if legal[i] // 10000 == A.SUMMON and K.bump_of(legal[i] % 100) < 0:
                return i
        return pass_index
    if pending == L.PK_DRAW:  # D-AMB-11 "optional" (policies.draw_wanted)
        want = draw_wanted(view, rules, me, view[L.S_PEND_MAX])
        i = first_of(legal, n, A.DRAW if want else A.PASS)
        return i if i >= 0 else 0
    if pending == L.PK_Q_SET or pending == L.PK_REDIRECT:
        return pass_index if pass_index >= 0 else 0
    if phase == L.PH_MAIN:
        return greedy_main(view, legal, n, rules, me, opponent, pass_index, w)
    if phase == L.PH_DECLARE:
        best, best_score = pass_index, 0
        for i in range(n):
            if legal[i] // 10000 != A.ATTACK:
                continue
            a, b = (legal[i] // 100) % 100, legal[i] % 100
            attacker = view[L.S_MONSTER + me * Z + a]
            atk = KB.value(rules, attacker % N) + view[L.C_BOOST + attacker]
            if b == L.DIRECT:
                score = 1000 + atk
            else:
                defender = view[L.S_MONSTER + opponent * Z + b]
                dfn = KB.value(rules, defender % N) + view[L.C_BOOST + defender]
                same = KB.colour(attacker % N) == KB.colour(defender % N)
                score = abs(atk - dfn) if i_win(atk, dfn, same) else 0
            if score > best_score:
                best, best_score = i, score
        return best if best >= 0 else 0
    if phase == L.PH_DAMAGE:
        attacker, target = view[L.S_ATTACKER], view[L.S_TARGET]
        if target < 0:
            return pass_index
        va = KB.value(rules, attacker % N) + view[L.C_BOOST + attacker]
        vt = KB.value(rules, target % N) + view[L.C_BOOST + target]
        mine_is_attacker = view[L.S_ACTIVE] == me  # the attacker's controller (a K may have taken it)
        same = KB.colour(attacker % N) == KB.colour(target % N)
        if i_win(va if mine_is_attacker else vt, vt if mine_is_attacker else va, same):
            return pass_index
        best, best_margin = pass_index, -1
        for i in range(n):
            if legal[i] // 10000 != A.BOOST:
                continue
            a, b = (legal[i] // 100) % 100, legal[i] % 100
            if b > 1:  # greedy only boosts the two battlers (D-AMB-37 "any_monster")
                continue
            card = view[L.S_BACK + me * Z + a]
            boosted = attacker if b == 0 else target
            amount = boost_amount(rules, card % N, boosted % N)
            na = va + (amount if b == 0 else 0)
            nt = vt + (amount if b == 1 else 0)
            mine, theirs = (na, nt) if mine_is_attacker else (nt, na)
            if i_win(mine, theirs, same):
                margin = abs(mine - theirs)
                if margin > best_margin:
                    best, best_margin = i, margin
        return best
    if phase == L.PH_DISCARD:
        best, best_value = 0, 1 << 30
        for i in range(n):
            code = (legal[i] // 100) % 100
            if code >= 52:
                keep = w[W.K_KEEP_JOKER]
            elif K.rank_of(code) == 13:
                keep = w[W.K_KEEP_KING]
            else:
                keep = KB.value(rules, code) + (w[W.K_KEEP_FUNCTION_BONUS] if K.rank_of(code) > 10 else 0)
            if keep < best_value:
                best, best_value = i, keep
        return best
    return pass_index if pass_index >= 0 else 0

