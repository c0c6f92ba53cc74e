"""Novel TCG hidden information: a full state drawn from one seat's view (a determinization).

The view (`strategies.novel_tcg.policies.nb_view`) hides the generator word, both
deck orders, the opponent's hand by kind and the opposing face-down characters
(T-AMB-16 (a), T-AMB-84 (a)); it lists each side's unseen cards as a multiset in
its deck slots (`UNSEEN - kind`, ascending). `sample_world(view, rules, seat,
rng_word)` redeals them, drawing only from the agent's SplitMix64 word:

1. Copy the view (every public slot stays as it is).
2. The seat's own deck: its unseen cards get a uniform order (Fisher-Yates,
   i from n-1 down to 1, j = below(i+1)), bottom first.
3. The opponent's pooled unseen cards (deck + hand + face-down characters):
   each face-down slot, lowest first, takes a card drawn uniformly from the
   pool's cards that could stand there face-down (`could_be_set`); the rest
   are shuffled as in 2, the first deck_count become the deck (bottom
   first), the others the hand. A face-down character is rebuilt at full HP
   (its Blades and Armours, public in the back row, counted in), never
   summoned or changed in a past turn the view cannot show (turn stamps 0).
4. `S_RNG` = the generator's next output word.

Every card is a token, so the deal is uniform over the worlds consistent with
the view; inferences from the opponent's past choices (which card it chose to
set) are not used, as in the usual PIMC / IS-MCTS determinization.
"""

from __future__ import annotations

import numpy as np

from sim.novel_tcg import layout as L
from sim.novel_tcg import rules as R
from sim.novel_tcg.card_pool import CAT_ARMOUR, CAT_BLADE, CAT_CHARACTER, F_CATEGORY, F_HP, F_STAR
from sim.rng import PyRng, splitmix_next, to_signed

HIDDEN, UNSEEN = L.VIEW_HIDDEN, L.VIEW_UNSEEN


def seat_at(seat: int, offset: int) -> int:
    return L.SEAT_BASE + seat * L.SEAT_SIZE + offset


def pool_value(rules_array, kind: int, field: int) -> int:
    return int(rules_array[R.R_POOL + kind * R.POOL_FIELDS + field])


def unseen_cards(view, side: int) -> list[int]:
    """The kinds a view lists as `side`'s unseen cards (ascending)."""
    slots = view[seat_at(side, L.P_DECK):seat_at(side, L.P_DECK + L.MAX_DECK)]
    return [UNSEEN - int(v) for v in slots if v <= UNSEEN]


def could_be_set(rules_array, kind: int) -> bool:
    """Could an opposing face-down character be of `kind`? A character; above the free-summon
    cap only when an advance summon may be set (T-AMB-21 "yes") or a face-up character may turn
    face-down (T-AMB-88 "yes"). The summon limit is not used (T-AMB-47/49/80 would refine it)."""
    if pool_value(rules_array, kind, F_CATEGORY) != CAT_CHARACTER:
        return False
    if pool_value(rules_array, kind, F_STAR) <= rules_array[R.R_FREE_MAX]:
        return True
    return rules_array[R.R_SET_ADVANCE] == 0 or rules_array[R.R_CHANGE_TO_FACEDOWN] == 1


def _shuffle(cards: list[int], rng: PyRng) -> None:
    for i in range(len(cards) - 1, 0, -1):
        j = rng.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]


def _rebuild_face_down(world, rules_array, q: int, slot: int, kind: int) -> None:
    """Kind `kind` at q's face-down `slot`: full HP, its public equipment's bonuses."""
    i = L.SEAT_BASE + q * L.SEAT_SIZE + L.P_FRONT + slot * L.FRONT_FIELDS
    atk_bonus = hp_bonus = equips = 0
    for back in range(2 * L.MAX_BACK):  # its own back row, then (T-AMB-31 "true") the opponent's
        side, host = (q, slot) if back < L.MAX_BACK else (1 - q, L.HOST_OPPONENT + slot)
        b = seat_at(side, L.P_BACK + back % L.MAX_BACK * L.BACK_FIELDS)
        if world[b + L.B_KIND] != L.NONE and world[b + L.B_HOST] == host:
            equips += 1
            category = pool_value(rules_array, int(world[b + L.B_KIND]), F_CATEGORY)
            value = pool_value(rules_array, int(world[b + L.B_KIND]), F_HP)
            if category == CAT_BLADE:
                atk_bonus += value
            elif category == CAT_ARMOUR:
                hp_bonus += value
    world[i:i + L.FRONT_FIELDS] = 0
    world[i + L.F_KIND], world[i + L.F_POS] = kind, L.POS_FACEDOWN
    world[i + L.F_HP_NOW] = pool_value(rules_array, kind, F_HP) + hp_bonus
    world[i + L.F_ATK_BONUS], world[i + L.F_HP_BONUS], world[i + L.F_EQUIPS] = atk_bonus, hp_bonus, equips


def _set_deck(world, side: int, cards: list[int]) -> None:
    base = seat_at(side, L.P_DECK)
    world[base:base + L.MAX_DECK] = 0
    world[base:base + len(cards)] = cards


def sample_world(view: np.ndarray, rules_array: np.ndarray, seat: int, rng_word: int) -> np.ndarray:
    """A full state consistent with `seat`'s `view`, drawn from the generator word `rng_word`."""
    rng = PyRng(int(rng_word))
    world = np.array(view, dtype=np.int64, copy=True)
    q = 1 - seat
    own = unseen_cards(view, seat)
    if len(own) != view[seat_at(seat, L.P_DECK_COUNT)]:
        raise ValueError("the view lists %d unseen own cards for a deck of %d" % (len(own), view[seat_at(seat, L.P_DECK_COUNT)]))
    _shuffle(own, rng)
    _set_deck(world, seat, own)
    pool = unseen_cards(view, q)
    for slot in range(L.MAX_FRONT):
        i = L.SEAT_BASE + q * L.SEAT_SIZE + L.P_FRONT + slot * L.FRONT_FIELDS
        if view[i + L.F_KIND] != HIDDEN:
            continue
        fits = [k for k, kind in enumerate(pool) if could_be_set(rules_array, kind)]
        if not fits:
            raise ValueError("no unseen card of seat %d can be its face-down character at slot %d" % (q, slot))
        _rebuild_face_down(world, rules_array, q, slot, pool.pop(fits[rng.below(len(fits))]))
    deck_count, hand_count = int(view[seat_at(q, L.P_DECK_COUNT)]), int(view[seat_at(q, L.P_HAND_COUNT)])
    if len(pool) != deck_count + hand_count:
        raise ValueError("the view lists %d unseen cards of seat %d for a deck of %d and a hand of %d"
                         % (len(pool), q, deck_count, hand_count))
    _shuffle(pool, rng)
    _set_deck(world, q, pool[:deck_count])
    hand = np.bincount(np.array(pool[deck_count:], dtype=np.int64), minlength=R.N_KINDS)
    world[seat_at(q, L.P_HAND):seat_at(q, L.P_HAND + R.N_KINDS)] = hand
    _, word = splitmix_next(rng.state)
    world[L.S_RNG] = to_signed(word)
    return world
