"""The compiled twin of the Novel TCG sampler (`sampler.py`): a determinization for the search agents.

`sample_world(view, rules, seat, rng, rng_slot, out)` deals the same world as
`sampler.sample_world(view, rules, seat, rng[rng_slot])` — the same SplitMix64
draws in the same order (the plain module's docstring lists them) — but inside
`out` and from the generator word rng[rng_slot], which it advances by every draw,
the last one included (the word it writes to S_RNG). It allocates nothing:
each side's deck region of `out` holds that side's unseen cards while they are
dealt (the view lists them there, ascending), so a search loop can call it for
every rollout. tests/test_tcg_search.py holds the two samplers equal on views
from seeded matches.

A view that lists cards inconsistently (fewer unseen own cards than its deck,
no card that could be a face-down character) is never built by `nb_view`; the
plain twin refuses one with a message, this one raises a bare ValueError.
"""

import numba as nb
import numpy as np

from sim.novel_tcg import engine_cache
from sim.novel_tcg import layout as L
from sim.novel_tcg import rules as R
from sim.novel_tcg.card_pool import CAT_ARMOUR, CAT_BLADE, CAT_CHARACTER, F_CATEGORY, F_HP, F_STAR
from sim.novel_tcg.kernel import fs, pool, seat_at
from sim.rng import nb_below, nb_next

engine_cache.install()

UNSEEN = L.VIEW_UNSEEN
HIDDEN = L.VIEW_HIDDEN


@nb.njit(cache=True)
def could_be_set(rules, kind):
    """`sampler.could_be_set`: a character, above the free-summon cap only when an advance
    summon may be set (T-AMB-21) or a face-up character may turn face-down (T-AMB-88)."""
    if pool(rules, kind, F_CATEGORY) != CAT_CHARACTER:
        return False
    if pool(rules, kind, F_STAR) <= rules[R.R_FREE_MAX]:
        return True
    return rules[R.R_SET_ADVANCE] == 0 or rules[R.R_CHANGE_TO_FACEDOWN] == 1


@nb.njit(cache=True)
def _decode_unseen(out, side):
    """Turn side's deck region from the view's UNSEEN - kind list into kinds; returns their number."""
    deck = seat_at(side, L.P_DECK)
    n = 0
    while n < L.MAX_DECK and out[deck + n] <= UNSEEN:
        out[deck + n] = UNSEEN - out[deck + n]
        n += 1
    return n


@nb.njit(cache=True)
def _shuffle(out, start, count, rng, rng_slot):
    """Fisher-Yates over out[start:start + count], i from count-1 down to 1 (the plain `_shuffle`)."""
    for i in range(count - 1, 0, -1):
        j = nb_below(rng, rng_slot, i + 1)
        out[start + i], out[start + j] = out[start + j], out[start + i]


@nb.njit(cache=True)
def _rebuild_face_down(out, rules, q, slot, kind):
    """Kind `kind` at q's face-down `slot`: full HP, its public equipment's bonuses
    (its own back row, then the opponent's under T-AMB-31 "true")."""
    i = fs(q, slot)
    atk_bonus = hp_bonus = equips = 0
    for back in range(2 * L.MAX_BACK):
        if back < L.MAX_BACK:
            side, host = q, slot
        else:
            side, host = 1 - q, L.HOST_OPPONENT + slot
        b = seat_at(side, L.P_BACK + (back % L.MAX_BACK) * L.BACK_FIELDS)
        if out[b + L.B_KIND] != L.NONE and out[b + L.B_HOST] == host:
            equips += 1
            category = pool(rules, out[b + L.B_KIND], F_CATEGORY)
            value = pool(rules, out[b + L.B_KIND], F_HP)
            if category == CAT_BLADE:
                atk_bonus += value
            elif category == CAT_ARMOUR:
                hp_bonus += value
    for f in range(L.FRONT_FIELDS):
        out[i + f] = 0
    out[i + L.F_KIND] = kind
    out[i + L.F_POS] = L.POS_FACEDOWN
    out[i + L.F_HP_NOW] = pool(rules, kind, F_HP) + hp_bonus
    out[i + L.F_ATK_BONUS] = atk_bonus
    out[i + L.F_HP_BONUS] = hp_bonus
    out[i + L.F_EQUIPS] = equips


@nb.njit(cache=True)
def sample_world(view, rules, seat, rng, rng_slot, out):
    """Fill `out` (STATE_SIZE) with a full state consistent with `seat`'s `view`, drawing from
    rng[rng_slot] exactly as the plain `sampler.sample_world` draws from its word. Returns `out`."""
    for i in range(L.STATE_SIZE):
        out[i] = view[i]
    q = 1 - seat
    # 1. the own deck: its unseen cards in a uniform order, bottom first
    own = seat_at(seat, L.P_DECK)
    n_own = _decode_unseen(out, seat)
    if n_own != view[seat_at(seat, L.P_DECK_COUNT)]:
        raise ValueError("the view lists another number of unseen own cards than its deck holds")
    _shuffle(out, own, n_own, rng, rng_slot)
    # 2. the opponent's pooled unseen cards, ascending in its deck region: face-down slots first
    deck = seat_at(q, L.P_DECK)
    n_pool = _decode_unseen(out, q)
    for slot in range(L.MAX_FRONT):
        if view[fs(q, slot) + L.F_KIND] != HIDDEN:
            continue
        fits = 0
        for k in range(n_pool):
            if could_be_set(rules, out[deck + k]):
                fits += 1
        if fits == 0:
            raise ValueError("no unseen card of the opponent can be its face-down character")
        pick = nb_below(rng, rng_slot, fits)
        at = 0
        for k in range(n_pool):  # the pick-th card that fits
            if could_be_set(rules, out[deck + k]):
                if pick == 0:
                    at = k
                    break
                pick -= 1
        kind = out[deck + at]
        for k in range(at, n_pool - 1):  # pop it, keeping the others in order (the plain list's pop)
            out[deck + k] = out[deck + k + 1]
        n_pool -= 1
        out[deck + n_pool] = 0
        _rebuild_face_down(out, rules, q, slot, kind)
    deck_count, hand_count = view[seat_at(q, L.P_DECK_COUNT)], view[seat_at(q, L.P_HAND_COUNT)]
    if n_pool != deck_count + hand_count:
        raise ValueError("the view lists another number of the opponent's unseen cards than its deck and hand hold")
    # 3. shuffled: the first deck_count are its deck (bottom first), the rest its hand
    _shuffle(out, deck, n_pool, rng, rng_slot)
    hand = seat_at(q, L.P_HAND)
    for kind in range(R.N_KINDS):
        out[hand + kind] = 0
    for k in range(deck_count, n_pool):
        out[hand + out[deck + k]] += 1
        out[deck + k] = 0
    # 4. the match generator: the next word of the agent's
    out[L.S_RNG] = np.int64(nb_next(rng, rng_slot))
    return out
