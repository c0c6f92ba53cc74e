"""The Novel TCG numba kernel: `reference.py` step for step over the array of `layout.py`.

Entry points: `new_match(s, r, rank0, rank1, deck0, deck1, first, seed)`,
`legal_actions(s, r, out) -> n` (ascending) and `apply_action(s, r, action)`.
`r` is `Rules.to_array()` (numbers, switch reading indexes, the card pool);
nothing is read from module globals but named constants. Every function
names the reference method it mirrors; clause IDs are documented there.
Legal actions are assumed (the match loop only applies listed actions).
"""

import numpy as np

from sim.novel_tcg import engine_cache
from sim.novel_tcg.kernel_jit import counting_jit, kernel_jit
from sim.novel_tcg import layout as L
from sim.novel_tcg.actions import (A_ADVANCE, A_ATTACK, A_CHANGE, A_DISCARD, A_END, A_EQUIP, A_EQUIP_OPPONENT, A_SUMMON,
                                   PERSON)
from sim.novel_tcg.card_pool import CAT_BLADE, CAT_CHARACTER, CAT_WEAPON, F_ATK, F_CATEGORY, F_DURABILITY, F_HP, F_STAR
from sim.novel_tcg import rules as R
from sim.rng import nb_below

engine_cache.install()  # before any cached kernel is defined: rules.py constants are frozen in

N_KINDS = R.N_KINDS
NONE = L.NONE
MAX_LEGAL = 512  # more than any position lists (9 attackers x 10 targets + summons, equips, changes)


@kernel_jit(inline="always")
def pool(r, kind, field):
    return r[R.R_POOL + kind * R.POOL_FIELDS + field]


@kernel_jit(inline="always")
def seat_at(seat, offset):
    return L.SEAT_BASE + seat * L.SEAT_SIZE + offset


@kernel_jit(inline="always")
def fs(seat, slot):  # first index of a front slot
    return L.SEAT_BASE + seat * L.SEAT_SIZE + L.P_FRONT + slot * L.FRONT_FIELDS


@kernel_jit(inline="always")
def bs(seat, slot):  # first index of a back slot
    return L.SEAT_BASE + seat * L.SEAT_SIZE + L.P_BACK + slot * L.BACK_FIELDS


@kernel_jit(inline="always")
def atk_of(s, r, seat, slot):
    i = fs(seat, slot)
    return pool(r, s[i + L.F_KIND], F_ATK) + s[i + L.F_ATK_BONUS]


@kernel_jit(inline="always")
def max_hp_of(s, r, seat, slot):
    i = fs(seat, slot)
    return pool(r, s[i + L.F_KIND], F_HP) + s[i + L.F_HP_BONUS]


@kernel_jit
def person_atk(s, r, seat):
    weapon = s[seat_at(seat, L.P_WEAPON)]
    if weapon != NONE:
        return pool(r, weapon, F_HP)
    return r[R.R_PERSON_BASE_ATK]


@kernel_jit
def star_ceiling(r, rank):
    if r[R.R_SUMMON_LIMIT] == 1:
        return 20
    return min(20, rank + r[R.R_LIMIT_OFFSET])


@kernel_jit
def free_front(s, r, seat):
    for slot in range(r[R.R_FRONT_SLOTS]):
        if s[fs(seat, slot) + L.F_KIND] == NONE:
            return slot
    return NONE


@kernel_jit
def free_back(s, r, seat):
    for slot in range(r[R.R_BACK_SLOTS]):
        if s[bs(seat, slot) + L.B_KIND] == NONE:
            return slot
    return NONE


@kernel_jit
def take_top(s, seat):
    count = s[seat_at(seat, L.P_DECK_COUNT)] - 1
    kind = s[seat_at(seat, L.P_DECK + count)]
    s[seat_at(seat, L.P_DECK + count)] = 0
    s[seat_at(seat, L.P_DECK_COUNT)] = count
    s[seat_at(seat, L.P_HAND + kind)] += 1
    s[seat_at(seat, L.P_HAND_COUNT)] += 1


@kernel_jit
def end_match(s, winner, end_type):
    s[L.S_PHASE] = L.PH_OVER
    s[L.S_WINNER] = winner
    s[L.S_END_TYPE] = end_type


@kernel_jit
def lose_hp(s, seat, amount):
    """Duelist damage, counted per seat (§18.3 Q8: the first player's loss against the second's)."""
    s[seat_at(seat, L.P_HP)] -= amount
    s[L.C_HP_LOST0 + seat] += amount


# ---- life (Match._life_check, _check_life_now) ----
@kernel_jit
def life_check(s, r):
    down0 = s[seat_at(0, L.P_HP)] <= 0
    down1 = s[seat_at(1, L.P_HP)] <= 0
    if down0 and down1:
        if r[R.R_DOUBLE_KO] == 0:
            end_match(s, L.DRAW, L.END_DOUBLE_KO)
        else:
            end_match(s, 1 - s[L.S_ACTIVE], L.END_HP)
        return True
    if down0 or down1:
        end_match(s, 1 if down0 else 0, L.END_HP)
        return True
    return False


@kernel_jit
def check_life_now(s, r):
    return r[R.R_HP_CHECK] == 0 and life_check(s, r)


# ---- turn structure ----
@kernel_jit
def count_binding_limits(s, r, p):
    has_char = False
    has_equip = False
    for kind in range(N_KINDS):
        if s[seat_at(p, L.P_HAND + kind)] > 0:
            category = pool(r, kind, F_CATEGORY)
            if category == CAT_CHARACTER:
                has_char = True
            elif category != CAT_WEAPON:
                has_equip = True
    if free_front(s, r, p) == NONE and has_char:
        s[L.C_FRONT_FULL] += 1
    any_char = False
    for slot in range(r[R.R_FRONT_SLOTS]):
        if s[fs(p, slot) + L.F_KIND] != NONE:
            any_char = True
        if r[R.R_EQUIP_OPPONENTS] == 1 and s[fs(1 - p, slot) + L.F_KIND] != NONE:  # T-AMB-31 "true"
            any_char = True
    if free_back(s, r, p) == NONE and any_char and has_equip:
        s[L.C_BACK_FULL] += 1


@kernel_jit
def begin_turn(s, r):
    if s[L.S_TURN] > r[R.R_TURN_CAP]:
        end_match(s, L.DRAW, L.END_TURN_CAP)
        return
    p = s[L.S_ACTIVE]
    if not (s[L.S_TURN] == 1 and r[R.R_P1_SKIP_DRAW] == 1):
        if s[seat_at(p, L.P_DECK_COUNT)] > 0:
            take_top(s, p)
        elif r[R.R_EMPTY_DECK] == 0:
            end_match(s, 1 - p, L.END_DECK_OUT)
            return
        elif r[R.R_EMPTY_DECK] == 2:
            s[seat_at(p, L.P_FATIGUE)] += 1
            fatigue = s[seat_at(p, L.P_FATIGUE)]
            lose_hp(s, p, fatigue)
            s[L.C_DMG_FATIGUE] += fatigue
            if check_life_now(s, r):
                return
    s[L.S_PHASE] = L.PH_ACTION
    count_binding_limits(s, r, p)


@kernel_jit
def finish_turn(s, r):
    if r[R.R_DAMAGE_PERSISTS] == 1:
        for seat in range(2):
            for slot in range(r[R.R_FRONT_SLOTS]):
                if s[fs(seat, slot) + L.F_KIND] != NONE:
                    s[fs(seat, slot) + L.F_HP_NOW] = max_hp_of(s, r, seat, slot)
    if r[R.R_HP_CHECK] == 1 and life_check(s, r):
        return
    s[L.S_TURN] += 1
    s[L.S_ACTIVE] = 1 - s[L.S_ACTIVE]
    s[L.S_SUMMONS_USED] = 0
    begin_turn(s, r)


@kernel_jit
def end_phase(s, r):
    limit = r[R.R_HAND_LIMIT]
    if limit > 0 and s[seat_at(s[L.S_ACTIVE], L.P_HAND_COUNT)] > limit:
        s[L.S_PHASE] = L.PH_DISCARD
        return
    finish_turn(s, r)


@kernel_jit
def new_match(s, r, rank0, rank1, deck0, deck1, first, seed):
    """Match.__init__: zero, HPs, shuffle seat 0 then seat 1, opening hands, first turn."""
    s[:] = 0
    s[L.S_RNG] = seed
    s[L.S_TURN] = 1
    s[L.S_ACTIVE] = first
    s[L.S_FIRST] = first
    s[L.S_WINNER] = NONE
    for seat in range(2):
        rank = rank0 if seat == 0 else rank1
        deck = deck0 if seat == 0 else deck1
        hp = max(1, r[R.R_HP_PER_RANK] * rank + r[R.R_HP_OFFSET])
        s[seat_at(seat, L.P_RANK)] = rank
        s[seat_at(seat, L.P_HP)] = hp
        s[seat_at(seat, L.P_HP_START)] = hp
        s[seat_at(seat, L.P_WEAPON)] = NONE
        n = deck.shape[0]
        s[seat_at(seat, L.P_DECK_COUNT)] = n
        for i in range(n):
            s[seat_at(seat, L.P_DECK + i)] = deck[i]
        for slot in range(L.MAX_FRONT):
            s[fs(seat, slot) + L.F_KIND] = NONE
        for slot in range(L.MAX_BACK):
            s[bs(seat, slot) + L.B_KIND] = NONE
    for seat in range(2):
        n = s[seat_at(seat, L.P_DECK_COUNT)]
        for i in range(n - 1, 0, -1):
            j = nb_below(s, L.S_RNG, i + 1)
            a = seat_at(seat, L.P_DECK + i)
            b = seat_at(seat, L.P_DECK + j)
            t = s[a]
            s[a] = s[b]
            s[b] = t
    for k in range(2):
        seat = first if k == 0 else 1 - first
        for _ in range(r[R.R_OPENING_HAND]):
            if s[seat_at(seat, L.P_DECK_COUNT)] > 0:
                take_top(s, seat)
    begin_turn(s, r)


# ---- leaving the field, equipment ----
@kernel_jit
def leave_field(s, r, p, slot):
    s[fs(p, slot) + L.F_KIND] = NONE
    for f in range(1, L.FRONT_FIELDS):
        s[fs(p, slot) + f] = 0
    s[seat_at(p, L.P_GY_COUNT)] += 1
    for back in range(r[R.R_BACK_SLOTS]):
        i = bs(p, back)
        if s[i + L.B_KIND] != NONE and s[i + L.B_HOST] == slot:
            s[i + L.B_KIND] = NONE
            s[i + L.B_HOST] = 0
            s[i + L.B_DUR] = 0
            s[seat_at(p, L.P_GY_COUNT)] += 1
    if r[R.R_EQUIP_OPPONENTS] == 1:  # T-AMB-31 "true": the opponent's equipment on it, to their graveyard
        q = 1 - p
        for back in range(r[R.R_BACK_SLOTS]):
            i = bs(q, back)
            if s[i + L.B_KIND] != NONE and s[i + L.B_HOST] == L.HOST_OPPONENT + slot:
                s[i + L.B_KIND] = NONE
                s[i + L.B_HOST] = 0
                s[i + L.B_DUR] = 0
                s[seat_at(q, L.P_GY_COUNT)] += 1


@kernel_jit
def defeat_if_down(s, r, p, slot):
    """-> whether the character left (its kind is gone afterwards: read it before)."""
    i = fs(p, slot)
    if s[i + L.F_KIND] != NONE and s[i + L.F_HP_NOW] <= 0:
        leave_field(s, r, p, slot)
        s[L.C_DESTROYED] += 1
        return True
    return False


@kernel_jit
def person_defeats(s, r, p, slot, counter):
    """defeat_if_down for a character the person hit: Q8's kills (`counter`) and the victim's stars."""
    kind = s[fs(p, slot) + L.F_KIND]
    if defeat_if_down(s, r, p, slot):
        s[counter] += 1
        s[L.C_PERSON_KILL_STARS] += pool(r, kind, F_STAR)


@kernel_jit
def remove_equipment(s, r, p, back):
    i = bs(p, back)
    kind = s[i + L.B_KIND]
    host = s[i + L.B_HOST]
    s[i + L.B_KIND] = NONE
    s[i + L.B_HOST] = 0
    s[i + L.B_DUR] = 0
    s[seat_at(p, L.P_GY_COUNT)] += 1
    host_seat = p
    if host >= L.HOST_OPPONENT:  # T-AMB-31 "true"
        host_seat = 1 - p
        host -= L.HOST_OPPONENT
    h = fs(host_seat, host)
    s[h + L.F_EQUIPS] -= 1
    value = pool(r, kind, F_HP)
    if pool(r, kind, F_CATEGORY) == CAT_BLADE:
        s[h + L.F_ATK_BONUS] -= value
    else:
        s[h + L.F_HP_BONUS] -= value
        if r[R.R_EQUIP_HP_LOSS] == 0:
            s[h + L.F_HP_NOW] = min(s[h + L.F_HP_NOW], max_hp_of(s, r, host_seat, host))
        else:
            s[h + L.F_HP_NOW] -= value
            defeat_if_down(s, r, host_seat, host)


@kernel_jit
def remove_spent(s, r, p):
    for back in range(r[R.R_BACK_SLOTS]):
        i = bs(p, back)
        if s[i + L.B_KIND] != NONE and s[i + L.B_DUR] <= 0:
            remove_equipment(s, r, p, back)


@kernel_jit
def spend_durability(s, r, p, slot):
    for back in range(r[R.R_BACK_SLOTS]):
        i = bs(p, back)
        if s[i + L.B_KIND] != NONE and s[i + L.B_HOST] == slot:
            s[i + L.B_DUR] -= 1
    if r[R.R_EQUIP_OPPONENTS] == 1:  # T-AMB-31 "true": the opponent's equipment on this character
        for back in range(r[R.R_BACK_SLOTS]):
            i = bs(1 - p, back)
            if s[i + L.B_KIND] != NONE and s[i + L.B_HOST] == L.HOST_OPPONENT + slot:
                s[i + L.B_DUR] -= 1
    if r[R.R_LAST_DURABILITY] == 1:
        remove_spent(s, r, p)
        if r[R.R_EQUIP_OPPONENTS] == 1:
            remove_spent(s, r, 1 - p)


@kernel_jit
def remove_spent_weapon(s, p):
    if s[seat_at(p, L.P_WEAPON)] != NONE and s[seat_at(p, L.P_WEAPON_DUR)] <= 0:
        s[seat_at(p, L.P_WEAPON)] = NONE
        s[seat_at(p, L.P_WEAPON_DUR)] = 0
        s[seat_at(p, L.P_GY_COUNT)] += 1


@kernel_jit
def spend_weapon(s, r, p):
    if s[seat_at(p, L.P_WEAPON)] != NONE:
        s[seat_at(p, L.P_WEAPON_DUR)] -= 1
        if r[R.R_LAST_DURABILITY] == 1:
            remove_spent_weapon(s, p)


# ---- summoning ----
@kernel_jit(inline="always")
def allowance_bit(r, position):
    if position == L.POS_FACEDOWN and r[R.R_SET_USES_SUMMON] == 1:
        return L.USED_SET
    return L.USED_SUMMON


@kernel_jit(inline="always")
def over_limit(s, r, p, kind, position, advance):
    if pool(r, kind, F_STAR) <= star_ceiling(r, s[seat_at(p, L.P_RANK)]):
        return False
    if not advance and r[R.R_FREE_IGNORES_LIMIT] == 1:
        return False
    if position == L.POS_FACEDOWN and r[R.R_LIMIT_APPLIES] == 1:
        return False
    return True


@kernel_jit
def key_less(a, b):
    for i in range(5):
        if a[i] != b[i]:
            return a[i] < b[i]
    return False


@counting_jit
def canonical_bases(s, r, p, target_star):
    """Match.canonical_bases -> bitmask of front slots, or 0 when no base set exists."""
    slots = np.empty(L.MAX_FRONT, dtype=np.int64)
    n = 0
    for slot in range(r[R.R_FRONT_SLOTS]):
        i = fs(p, slot)
        if s[i + L.F_KIND] != NONE and (r[R.R_NONATTACK_USE] == 0 or s[i + L.F_POS] == L.POS_ATTACK):
            slots[n] = slot
            n += 1
    rule = r[R.R_TRIBUTE_RULE]
    best = np.zeros(5, dtype=np.int64)
    key = np.zeros(5, dtype=np.int64)
    best_mask = 0
    for mask in range(1, 1 << n):
        count = 0
        total = 0
        top = 0
        hp = 0
        slot_mask = 0
        for k in range(n):
            if mask >> k & 1:
                i = fs(p, slots[k])
                star = pool(r, s[i + L.F_KIND], F_STAR)
                count += 1
                total += star
                top = max(top, star)
                hp += s[i + L.F_HP_NOW]
                slot_mask += 1 << slots[k]
        if count < r[R.R_MIN_BASES]:
            continue
        if (rule == 0 and total != target_star) or (rule == 1 and total < target_star):
            continue
        if r[R.R_ADVANCE_BASES] == 0:
            key[0] = top
            key[1] = count
        else:
            key[0] = count
            key[1] = top
        key[2] = total
        key[3] = hp
        key[4] = slot_mask
        if best_mask == 0 or key_less(key, best):
            best[:] = key
            best_mask = slot_mask
    return best_mask


SUMS_MASK = np.int64((1 << 63) - 1) # subset sums 0..62: one bit each, the sign bit never set


@kernel_jit(inline="always")
def _add_base(sums, star):
    """The subset sums `sums` (bits) with one more base of `star` stars added to each."""
    return (sums << star) & SUMS_MASK


@kernel_jit
def advance_reach(s, r, p):
    """The targets some base set reaches, as bits 1..62 of one word (-1: every target), so that
    listing actions finds the base subsets once (canonical_bases exists iff the bit is set).

    The sums of the subsets of at least min_bases (1..6) bases, by a subset-sum table over the
    base count (`by_count_c`: the sums of subsets of exactly c bases, c = min_bases holding every
    larger count too): linear in the front row where enumerating the subsets is 2^n; a sum above
    62 never comes back down (stars are positive), so dropping it is exact."""
    need = r[R.R_MIN_BASES]
    rule = r[R.R_TRIBUTE_RULE]
    n = 0
    total = 0
    by_count_0, by_count_1, by_count_2, by_count_3 = np.int64(1), np.int64(0), np.int64(0), np.int64(0)
    by_count_4, by_count_5, by_count_6 = np.int64(0), np.int64(0), np.int64(0)
    for slot in range(r[R.R_FRONT_SLOTS]):
        i = fs(p, slot)
        if s[i + L.F_KIND] != NONE and (r[R.R_NONATTACK_USE] == 0 or s[i + L.F_POS] == L.POS_ATTACK):
            star = pool(r, s[i + L.F_KIND], F_STAR)
            n += 1
            total += star
            if rule == 0:  # counts from the top down, so each base joins a subset once
                if need == 6:
                    by_count_6 |= _add_base(by_count_6, star)
                if need >= 6:
                    by_count_6 |= _add_base(by_count_5, star)
                if need == 5:
                    by_count_5 |= _add_base(by_count_5, star)
                if need >= 5:
                    by_count_5 |= _add_base(by_count_4, star)
                if need == 4:
                    by_count_4 |= _add_base(by_count_4, star)
                if need >= 4:
                    by_count_4 |= _add_base(by_count_3, star)
                if need == 3:
                    by_count_3 |= _add_base(by_count_3, star)
                if need >= 3:
                    by_count_3 |= _add_base(by_count_2, star)
                if need == 2:
                    by_count_2 |= _add_base(by_count_2, star)
                if need >= 2:
                    by_count_2 |= _add_base(by_count_1, star)
                if need == 1:
                    by_count_1 |= _add_base(by_count_1, star)
                by_count_1 |= _add_base(by_count_0, star)
    if n < need:
        return np.int64(0)
    if rule == 2:
        return np.int64(-1)  # every target
    reach = np.int64(0)
    if rule == 1:
        for t in range(1, min(total, 62) + 1):
            reach |= np.int64(1) << t
        return reach
    if need == 1:
        return by_count_1
    if need == 2:
        return by_count_2
    if need == 3:
        return by_count_3
    if need == 4:
        return by_count_4
    if need == 5:
        return by_count_5
    return by_count_6


HAND_KEY = 6  # hand_bases key: 6 leading entries, then the hand's copies per star from 20 down to 1


@counting_jit
def hand_bases(s, r, p, target_star, target_kind, hand_take):
    """Match.canonical_base_set under T-AMB-39 "also_hand" -> the front slots' bitmask, or -1 when no base set
    exists; hand_take[star] gets the copies of each star the set takes from the hand. A depth-first search over
    the front-row candidates, then the hand's stars from 20 down (a count per star); a valid set is never
    extended (any superset is worse) and under "exact_sum" a sum past the target is cut."""
    n_max = L.MAX_FRONT + R.STAR_MAX
    item_star = np.zeros(n_max, dtype=np.int64)
    item_copies = np.zeros(n_max, dtype=np.int64)
    item_slot = np.zeros(n_max, dtype=np.int64)
    item_hp = np.zeros(n_max, dtype=np.int64)
    n_items = 0
    for slot in range(r[R.R_FRONT_SLOTS]):
        i = fs(p, slot)
        if s[i + L.F_KIND] != NONE and (r[R.R_NONATTACK_USE] == 0 or s[i + L.F_POS] == L.POS_ATTACK):
            item_star[n_items] = pool(r, s[i + L.F_KIND], F_STAR)
            item_copies[n_items] = 1
            item_slot[n_items] = slot
            item_hp[n_items] = s[i + L.F_HP_NOW]
            n_items += 1
    hand_stars = np.zeros(R.STAR_MAX + 1, dtype=np.int64)
    for kind in range(N_KINDS):
        if pool(r, kind, F_CATEGORY) == CAT_CHARACTER:
            hand_stars[pool(r, kind, F_STAR)] += s[seat_at(p, L.P_HAND + kind)] - (1 if kind == target_kind else 0)
    for star in range(R.STAR_MAX, 0, -1):
        if hand_stars[star] > 0:
            item_star[n_items] = star
            item_copies[n_items] = hand_stars[star]
            item_slot[n_items] = NONE
            n_items += 1
    rule = r[R.R_TRIBUTE_RULE]
    key_size = HAND_KEY + R.STAR_MAX
    best = np.zeros(key_size, dtype=np.int64)
    key = np.zeros(key_size, dtype=np.int64)
    found = False
    taken = np.zeros(n_max + 1, dtype=np.int64)
    count_at = np.zeros(n_max + 1, dtype=np.int64)
    total_at = np.zeros(n_max + 1, dtype=np.int64)
    top_at = np.zeros(n_max + 1, dtype=np.int64)
    depth = 0
    taken[0] = -1
    while depth >= 0 and n_items > 0:
        taken[depth] += 1
        if taken[depth] > item_copies[depth]:
            depth -= 1
            continue
        n = taken[depth]
        count = count_at[depth] + n
        total = total_at[depth] + n * item_star[depth]
        top = max(top_at[depth], item_star[depth]) if n > 0 else top_at[depth]
        if rule == 0 and total > target_star:
            depth -= 1  # more copies only add stars
            continue
        if count >= r[R.R_MIN_BASES] and (rule == 2 or total == target_star or (rule == 1 and total >= target_star)):
            key[:] = 0
            for j in range(depth + 1):
                if taken[j] == 0:
                    continue
                if item_slot[j] == NONE:
                    key[HAND_KEY + R.STAR_MAX - item_star[j]] = taken[j]
                else:
                    key[3] += 1
                    key[4] += item_hp[j]
                    key[5] += 1 << item_slot[j]
            if r[R.R_ADVANCE_BASES] == 0:
                key[0] = top
                key[1] = count
            else:
                key[0] = count
                key[1] = top
            key[2] = total
            better = not found
            for k in range(key_size):
                if better or key[k] != best[k]:
                    better = better or key[k] < best[k]
                    break
            if better:
                best[:] = key
                found = True
            taken[depth] = item_copies[depth]  # a superset of a valid set is worse
            continue
        if depth + 1 < n_items:
            count_at[depth + 1] = count
            total_at[depth + 1] = total
            top_at[depth + 1] = top
            depth += 1
            taken[depth] = -1
    if not found:
        return np.int64(-1)
    for star in range(1, R.STAR_MAX + 1):
        hand_take[star] = best[HAND_KEY + R.STAR_MAX - star]
    return best[5]


@kernel_jit
def hand_bases_to_graveyard(s, r, p, hand_take):
    """T-AMB-39 "also_hand", T-SUMMON-4: the hand bases hand_take[star] go to the graveyard, of one star the
    lowest kinds first -> how many."""
    moved = 0
    for kind in range(N_KINDS):
        if pool(r, kind, F_CATEGORY) != CAT_CHARACTER:
            continue
        star = pool(r, kind, F_STAR)
        take = min(hand_take[star], s[seat_at(p, L.P_HAND + kind)])
        if take > 0:
            s[seat_at(p, L.P_HAND + kind)] -= take
            s[seat_at(p, L.P_HAND_COUNT)] -= take
            s[seat_at(p, L.P_GY_COUNT)] += take
            hand_take[star] -= take
            moved += take
    return moved


@counting_jit
def hand_base_set(s, r, p, target_star, target_kind):
    """hand_bases for the listing (it asks only whether a set exists) -> the front slots' bitmask or -1."""
    return hand_bases(s, r, p, target_star, target_kind, np.zeros(R.STAR_MAX + 1, dtype=np.int64))


@counting_jit
def take_hand_bases(s, r, p, target_star):
    """T-AMB-39 "also_hand" summon: the canonical set's hand bases to the graveyard -> (front slots'
    bitmask, hand bases moved)."""
    hand_take = np.zeros(R.STAR_MAX + 1, dtype=np.int64)
    bases = hand_bases(s, r, p, target_star, NONE, hand_take)
    return bases, hand_bases_to_graveyard(s, r, p, hand_take)


@kernel_jit(inline="always")
def summon_legal(s, r, p, kind, position, advance, reach, front_free):
    """Match._summon_legal; `reach` from advance_reach, `front_free` = free_front(s, r, p) (listed once)."""
    if s[L.S_SUMMONS_USED] & allowance_bit(r, position):
        return False
    if r[R.R_ACTION_ORDER] == 1:  # Match._order_blocks
        later = L.ORDER_ACTIVATE if position == L.POS_FACEDOWN else L.ORDER_ACTIVATE | L.ORDER_SET
        if s[L.S_SUMMONS_USED] & later:
            return False
    if over_limit(s, r, p, kind, position, advance) and r[R.R_OVER_LIMIT] == 0:
        return False
    if not advance:
        return front_free != NONE
    if r[R.R_BASES_FROM] == 1:  # T-AMB-39 "also_hand": one search per card (it is no base of itself)
        bases = hand_base_set(s, r, p, pool(r, kind, F_STAR), kind)
        return bases >= 0 and (front_free != NONE or (r[R.R_ADVANCE_FULL_ROW] == 1 and bases > 0))
    if (reach >> pool(r, kind, F_STAR)) & 1 == 0:
        return False
    return front_free != NONE or r[R.R_ADVANCE_FULL_ROW] == 1


@kernel_jit
def summon(s, r, p, kind, position, advance):
    used = allowance_bit(r, position)
    if r[R.R_SET_USES_SUMMON] == 0:
        s[L.S_SUMMONS_USED] |= L.USED_SUMMON | L.USED_SET
    else:
        s[L.S_SUMMONS_USED] |= used
    if position == L.POS_FACEDOWN and r[R.R_ACTION_ORDER] == 1:
        s[L.S_SUMMONS_USED] |= L.ORDER_SET
    s[seat_at(p, L.P_HAND + kind)] -= 1
    s[seat_at(p, L.P_HAND_COUNT)] -= 1
    if over_limit(s, r, p, kind, position, advance):
        s[seat_at(p, L.P_GY_COUNT)] += 1
        end_match(s, 1 - p, L.END_LIMIT)
        return
    star = pool(r, kind, F_STAR)
    if advance:
        n = 0
        if r[R.R_BASES_FROM] == 1:  # T-AMB-39 "also_hand"
            bases, n = take_hand_bases(s, r, p, star)
        else:
            bases = canonical_bases(s, r, p, star)
        for slot in range(L.MAX_FRONT):
            if bases >> slot & 1:
                leave_field(s, r, p, slot)
                n += 1
        s[L.C_ADVANCE] += 1
        s[L.C_BASES] += n
    else:
        s[L.C_SUMMONS] += 1
    if position == L.POS_FACEDOWN:
        s[L.C_SETS] += 1
    i = fs(p, free_front(s, r, p))
    s[i + L.F_KIND] = kind
    s[i + L.F_HP_NOW] = pool(r, kind, F_HP)
    s[i + L.F_POS] = position
    s[i + L.F_SUMMONED] = s[L.S_TURN]
    counter = L.C_MAX_STAR0 if p == 0 else L.C_MAX_STAR1
    s[counter] = max(s[counter], star)


# ---- equipment, positions ----
@kernel_jit(inline="always")
def equip_legal(s, r, p, kind, target, back_free, host_seat):
    """Match._equip_legal; `back_free` = free_back(s, r, p) (listed once); host_seat 1 - p: T-AMB-31 "true"."""
    category = pool(r, kind, F_CATEGORY)
    if category == CAT_WEAPON:
        return target == PERSON
    if target == PERSON or back_free == NONE or target >= r[R.R_FRONT_SLOTS]:
        return False
    i = fs(host_seat, target)
    if s[i + L.F_KIND] == NONE:
        return False
    if r[R.R_EQUIP_PER_CHAR] == 1 and s[i + L.F_EQUIPS] > 0:
        return False
    return not (r[R.R_NONATTACK_USE] == 1 and s[i + L.F_POS] != L.POS_ATTACK)


@kernel_jit
def equip(s, r, p, kind, target, host_seat):
    """Match._equip; host_seat 1 - p: T-AMB-31 "true" (the card in p's back row, B_HOST = HOST_OPPONENT + slot)."""
    if r[R.R_ACTION_ORDER] == 1:
        s[L.S_SUMMONS_USED] |= L.ORDER_ACTIVATE
    s[seat_at(p, L.P_HAND + kind)] -= 1
    s[seat_at(p, L.P_HAND_COUNT)] -= 1
    s[L.C_EQUIPS] += 1
    durability = pool(r, kind, F_DURABILITY)
    value = pool(r, kind, F_HP)
    if pool(r, kind, F_CATEGORY) == CAT_WEAPON:
        s[L.C_WEAPON_EQUIPS] += 1
        if s[seat_at(p, L.P_WEAPON)] != NONE:
            s[seat_at(p, L.P_GY_COUNT)] += 1
        s[seat_at(p, L.P_WEAPON)] = kind
        s[seat_at(p, L.P_WEAPON_DUR)] = durability
        return
    b = bs(p, free_back(s, r, p))
    s[b + L.B_KIND] = kind
    s[b + L.B_HOST] = target if host_seat == p else L.HOST_OPPONENT + target
    s[b + L.B_DUR] = durability
    h = fs(host_seat, target)
    s[h + L.F_EQUIPS] += 1
    if pool(r, kind, F_CATEGORY) == CAT_BLADE:
        s[h + L.F_ATK_BONUS] += value
    else:
        s[h + L.F_HP_BONUS] += value
        s[h + L.F_HP_NOW] += value


@kernel_jit
def change(s, r, p, slot, position):
    i = fs(p, slot)
    flip = s[i + L.F_POS] == L.POS_FACEDOWN
    s[i + L.F_POS] = position
    if not (flip and r[R.R_FLIP_USES_CHANGE] == 1):
        s[i + L.F_CHANGED] = s[L.S_TURN]


# ---- battle ----
@kernel_jit
def modified(r, atk, bonus):
    if atk == 0 and r[R.R_MOD_ZERO_ATK] == 1:
        return 0
    damage = atk + bonus
    if r[R.R_DAMAGE_FLOOR] == 0:
        return max(0, damage)
    return damage


@kernel_jit
def hit(s, r, seat, slot, damage):
    i = fs(seat, slot)
    s[i + L.F_HP_NOW] = min(s[i + L.F_HP_NOW] - damage, max_hp_of(s, r, seat, slot))
    return max(0, -s[i + L.F_HP_NOW])


@kernel_jit
def overflow_to(s, r, seat, overflow, allowed):
    if overflow > 0 and allowed and r[R.R_OVERFLOW] == 1:
        lose_hp(s, seat, overflow)
        s[L.C_DMG_OVERFLOW] += overflow


@kernel_jit
def defender_flips(s, r, q, slot):
    i = fs(q, slot)
    if s[i + L.F_POS] == L.POS_FACEDOWN:
        s[i + L.F_POS] = L.POS_DEFENSE
    if r[R.R_DURABILITY_SPEND] == 1:
        spend_durability(s, r, q, slot)
    return s[i + L.F_POS] == L.POS_DEFENSE


@kernel_jit
def character_battle(s, r, p, slot, target):
    q = 1 - p
    spend_durability(s, r, p, slot)
    in_defense = defender_flips(s, r, q, target)
    a = fs(p, slot)
    d = fs(q, target)
    if s[a + L.F_KIND] == NONE or s[d + L.F_KIND] == NONE:
        return
    m = r[R.R_STAR_MOD]
    delta = pool(r, s[a + L.F_KIND], F_STAR) - pool(r, s[d + L.F_KIND], F_STAR)
    if in_defense and r[R.R_MOD_VS_DEFENSE] == 1:
        delta = 0
    to_defender = modified(r, atk_of(s, r, p, slot), m * delta)
    if r[R.R_STAR_READING] == 0:
        to_attacker = modified(r, atk_of(s, r, q, target), -m * delta)
    else:
        to_attacker = modified(r, atk_of(s, r, q, target), 0)
    if in_defense and r[R.R_DEFENSE_HITS_BACK] == 1:
        to_attacker = 0
    defender_overflow = hit(s, r, q, target, to_defender)
    attacker_overflow = hit(s, r, p, slot, to_attacker)
    overflow_to(s, r, q, defender_overflow, not (in_defense and r[R.R_DEFENSE_BLOCKS] == 1))
    overflow_to(s, r, p, attacker_overflow, r[R.R_ATTACKER_OVERFLOW] == 0)
    defeat_if_down(s, r, q, target)
    defeat_if_down(s, r, p, slot)
    remove_spent(s, r, p)
    remove_spent(s, r, q)


@kernel_jit
def direct_attack(s, r, p, slot):
    q = 1 - p
    s[L.C_DIRECT] += 1
    spend_durability(s, r, p, slot)
    if s[fs(p, slot) + L.F_KIND] == NONE:
        return
    damage = atk_of(s, r, p, slot)
    lose_hp(s, q, damage)
    s[L.C_DMG_DIRECT] += damage
    hit_back = person_atk(s, r, q)
    if hit_back > 0:
        s[L.C_PERSON_BLOCK_DMG] += hit_back
        overflow = hit(s, r, p, slot, hit_back)
        overflow_to(s, r, p, overflow, r[R.R_HITBACK_OVERFLOW] == 0 and r[R.R_ATTACKER_OVERFLOW] == 0)
        person_defeats(s, r, p, slot, L.C_PERSON_BLOCK_KILLS)
    else:
        defeat_if_down(s, r, p, slot)
    remove_spent(s, r, p)
    if r[R.R_EQUIP_OPPONENTS] == 1:
        remove_spent(s, r, q)


@kernel_jit
def person_attacks_character(s, r, p, target):
    q = 1 - p
    s[L.C_PERSON_ATTACKS] += 1
    spend_weapon(s, r, p)
    in_defense = defender_flips(s, r, q, target)
    if s[fs(q, target) + L.F_KIND] == NONE:
        remove_spent_weapon(s, p)
        return
    damage = person_atk(s, r, p)
    s[L.C_PERSON_CHAR_DMG] += damage
    overflow = hit(s, r, q, target, damage)
    if not (in_defense and r[R.R_DEFENSE_HITS_BACK] == 1):
        hit_back = atk_of(s, r, q, target)
        lose_hp(s, p, hit_back)
        s[L.C_DMG_HITBACK] += hit_back
    overflow_to(s, r, q, overflow, not (in_defense and r[R.R_DEFENSE_BLOCKS] == 1))
    person_defeats(s, r, q, target, L.C_PERSON_KILLS)
    remove_spent_weapon(s, p)
    remove_spent(s, r, q)
    if r[R.R_EQUIP_OPPONENTS] == 1:
        remove_spent(s, r, p)


@kernel_jit
def person_attacks_person(s, r, p):
    q = 1 - p
    s[L.C_PERSON_ATTACKS] += 1
    spend_weapon(s, r, p)
    damage = person_atk(s, r, p)
    lose_hp(s, q, damage)
    s[L.C_DMG_PERSON] += damage
    if r[R.R_PERSON_HITS_PERSON] == 0:
        hit_back = person_atk(s, r, q)
        lose_hp(s, p, hit_back)
        s[L.C_DMG_PERSON] += hit_back
    remove_spent_weapon(s, p)


@kernel_jit
def attack(s, r, p, attacker, target):
    s[L.C_ATTACKS] += 1
    if attacker == PERSON:
        s[seat_at(p, L.P_PERSON_ATTACKED)] = s[L.S_TURN]
        if target == PERSON:
            person_attacks_person(s, r, p)
        else:
            person_attacks_character(s, r, p, target)
    else:
        s[fs(p, attacker) + L.F_ATTACKED] = s[L.S_TURN]
        if target == PERSON:
            direct_attack(s, r, p, attacker)
        else:
            character_battle(s, r, p, attacker, target)
    check_life_now(s, r)


# ---- legal actions and apply ----
@kernel_jit
def attack_targets(s, r, q):
    """The front slots of seat q an attack may target, as bits, and bit PERSON when nothing blocks."""
    targets = 0
    blockers = 0
    for slot in range(r[R.R_FRONT_SLOTS]):
        i = fs(q, slot)
        if s[i + L.F_KIND] == NONE:
            continue
        if r[R.R_ATTACK_TARGETS] == 0 or s[i + L.F_POS] == L.POS_ATTACK:
            targets |= 1 << slot
        if r[R.R_FACEDOWN_BLOCKS] == 0 or s[i + L.F_POS] != L.POS_FACEDOWN:
            blockers += 1
    if blockers == 0:
        targets |= 1 << PERSON
    return targets


@kernel_jit(inline="always")
def list_attacks(out, n, attacker, targets):
    """Append ATTACK attacker t for each target bit t, ascending."""
    for target in range(PERSON + 1):
        if targets >> target & 1:
            out[n] = A_ATTACK + attacker * 16 + target
            n += 1
    return n


@kernel_jit(inline="always")
def list_summons(s, r, p, kind, advance, reach, front_free, out, n):
    """Append the legal summons of `kind` (its positions ascending)."""
    base = A_ADVANCE if advance else A_SUMMON
    for position in range(3):
        if position == L.POS_DEFENSE and r[R.R_SUMMON_POSITIONS] == 0:
            continue
        if position == L.POS_FACEDOWN and advance and r[R.R_SET_ADVANCE] == 1:
            continue
        if summon_legal(s, r, p, kind, position, advance, reach, front_free):
            out[n] = base + kind * 4 + position
            n += 1
    return n


@kernel_jit(inline="always")  # on the hot path of every Action phase listing
def list_changes(s, r, p, turn, out, n):
    """Match._list_changes: the position changes of seat p's characters, appended at out[n:] -> new n."""
    for slot in range(r[R.R_FRONT_SLOTS]):
        i = fs(p, slot)
        if s[i + L.F_KIND] == NONE or s[i + L.F_SUMMONED] == turn or s[i + L.F_CHANGED] == turn:
            continue
        position = s[i + L.F_POS]
        if position == L.POS_FACEDOWN:
            out[n] = A_CHANGE + slot * 4 + L.POS_ATTACK
            out[n + 1] = A_CHANGE + slot * 4 + L.POS_DEFENSE
            n += 2
        else:
            other = L.POS_DEFENSE if position == L.POS_ATTACK else L.POS_ATTACK
            out[n] = A_CHANGE + slot * 4 + other
            n += 1
            if r[R.R_CHANGE_TO_FACEDOWN] == 1:
                out[n] = A_CHANGE + slot * 4 + L.POS_FACEDOWN
                n += 1
    return n


@kernel_jit
def list_sets(s, r, p, out, n):
    """Match._list_sets: seat p's face-down sets outside the Action phase (T-AMB-24) at out[n:] -> new n."""
    free_max = r[R.R_FREE_MAX]
    reach = advance_reach(s, r, p)
    front_free = free_front(s, r, p)
    for kind in range(N_KINDS):
        if s[seat_at(p, L.P_HAND + kind)] == 0 or pool(r, kind, F_CATEGORY) != CAT_CHARACTER:
            continue
        advance = pool(r, kind, F_STAR) > free_max
        if advance and r[R.R_SET_ADVANCE] == 1:
            continue
        if summon_legal(s, r, p, kind, L.POS_FACEDOWN, advance, reach, front_free):
            out[n] = (A_ADVANCE if advance else A_SUMMON) + kind * 4 + L.POS_FACEDOWN
            n += 1
    return n


@kernel_jit(inline="always")
def sort_ascending(out, n):
    """Insertion sort of out[:n] (lists are short and nearly sorted) -> n."""
    for i in range(1, n):
        value = out[i]
        j = i - 1
        while j >= 0 and out[j] > value:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = value
    return n


@kernel_jit
def legal_actions(s, r, out):
    """Match.legal_actions: the turn player's choices in ascending order -> count.

    Each family is listed in its own pass, mostly in the order of the action integers, and one
    insertion sort at the end puts the families some switches add out of place (T-AMB-24's
    sets and T-AMB-71's changes in the Battle phase, T-AMB-31's equipment on opposing
    characters) in order; on an already ascending list it is one comparison per action. The
    advance targets (the only costly part) are found only when the hand holds a character
    above the free cap."""
    if s[L.S_PHASE] == L.PH_OVER:
        return 0
    p = s[L.S_ACTIVE]
    hand = seat_at(p, L.P_HAND)
    n = 0
    if s[L.S_PHASE] == L.PH_DISCARD:
        for kind in range(N_KINDS):
            if s[hand + kind] > 0:
                out[n] = A_DISCARD + kind
                n += 1
        return n
    out[n] = A_END
    n += 1
    turn = s[L.S_TURN]
    if s[L.S_PHASE] == L.PH_ACTION:
        free_max = r[R.R_FREE_MAX]
        front_free = free_front(s, r, p)
        has_advance = False
        has_equipment = False
        for kind in range(N_KINDS):
            if s[hand + kind] == 0:
                continue
            if pool(r, kind, F_CATEGORY) != CAT_CHARACTER:
                has_equipment = True
            elif pool(r, kind, F_STAR) > free_max:
                has_advance = True
            else:
                n = list_summons(s, r, p, kind, False, np.int64(0), front_free, out, n)
        if has_advance:
            reach = advance_reach(s, r, p)
            for kind in range(N_KINDS):
                if (s[hand + kind] > 0 and pool(r, kind, F_CATEGORY) == CAT_CHARACTER
                        and pool(r, kind, F_STAR) > free_max):
                    n = list_summons(s, r, p, kind, True, reach, front_free, out, n)
        if has_equipment:
            back_free = free_back(s, r, p)
            for kind in range(N_KINDS):
                if s[hand + kind] == 0 or pool(r, kind, F_CATEGORY) == CAT_CHARACTER:
                    continue
                if pool(r, kind, F_CATEGORY) != CAT_WEAPON:
                    for target in range(r[R.R_FRONT_SLOTS]):
                        if equip_legal(s, r, p, kind, target, back_free, p):
                            out[n] = A_EQUIP + kind * 16 + target
                            n += 1
                    if r[R.R_EQUIP_OPPONENTS] == 1:  # T-AMB-31 "true"
                        for target in range(r[R.R_FRONT_SLOTS]):
                            if equip_legal(s, r, p, kind, target, back_free, 1 - p):
                                out[n] = A_EQUIP_OPPONENT + kind * 16 + target
                                n += 1
                elif equip_legal(s, r, p, kind, PERSON, back_free, p):
                    out[n] = A_EQUIP + kind * 16 + PERSON
                    n += 1
        n = list_changes(s, r, p, turn, out, n)
    elif s[L.S_PHASE] == L.PH_BATTLE:
        if r[R.R_SETS_IN_BATTLE] == 1:
            n = list_sets(s, r, p, out, n)
        if r[R.R_CHANGE_PHASE] == 1:
            n = list_changes(s, r, p, turn, out, n)
        if turn == 1 and r[R.R_P1_NO_ATTACK] == 1:
            return sort_ascending(out, n)
        targets = attack_targets(s, r, 1 - p)
        for slot in range(r[R.R_FRONT_SLOTS]):
            i = fs(p, slot)
            if s[i + L.F_KIND] == NONE or s[i + L.F_POS] != L.POS_ATTACK or s[i + L.F_ATTACKED] == turn:
                continue
            if r[R.R_SICKNESS] == 1 and s[i + L.F_SUMMONED] == turn:
                continue
            n = list_attacks(out, n, slot, targets)
        if (r[R.R_PERSON_ATTACKS] == 0 and person_atk(s, r, p) > 0
                and s[seat_at(p, L.P_PERSON_ATTACKED)] != turn):
            n = list_attacks(out, n, PERSON, targets)
    return sort_ascending(out, n)


@kernel_jit
def apply_action(s, r, action):
    """Match.apply (the action must be legal)."""
    family = (action // 10000) * 10000
    rest = action - family
    p = s[L.S_ACTIVE]
    if family == A_END:
        if s[L.S_PHASE] == L.PH_ACTION:
            s[L.S_PHASE] = L.PH_BATTLE
        else:
            end_phase(s, r)
    elif family == A_SUMMON or family == A_ADVANCE:
        summon(s, r, p, rest // 4, rest % 4, family == A_ADVANCE)
    elif family == A_EQUIP:
        equip(s, r, p, rest // 16, rest % 16, p)
    elif family == A_EQUIP_OPPONENT:
        equip(s, r, p, rest // 16, rest % 16, 1 - p)
    elif family == A_CHANGE:
        change(s, r, p, rest // 4, rest % 4)
    elif family == A_ATTACK:
        attack(s, r, p, rest // 16, rest % 16)
    else:
        s[seat_at(p, L.P_HAND + rest)] -= 1
        s[seat_at(p, L.P_HAND_COUNT)] -= 1
        s[seat_at(p, L.P_GY_COUNT)] += 1
        s[L.C_DISCARDS] += 1
        if s[seat_at(p, L.P_HAND_COUNT)] <= r[R.R_HAND_LIMIT]:
            finish_turn(s, r)
