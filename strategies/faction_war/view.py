"""A player's view of a Faction War state: what that player may see.

A strategy never reads the real state. `build_view` copies it into a
preallocated buffer (no allocation in the match loop) and removes what the
player cannot know (F-rules §10):
- the rule generator word S_RNG is zeroed (future draws are not knowable);
- the opponent's hand cards and the opponent's deck cards get zone Z_HIDDEN,
  and the opponent's hand and deck masks become one Z_HIDDEN mask;
- the player's own deck cards keep Z_DECK (which cards remain is known: the
  player saw every other card of the own deck leave it) but both deck order
  arrays are zeroed; deck sizes (S_DECK_COUNT) stay.
Hidden cards keep their controller (the opponent), order and arrival 0, so
two states that differ only in the opponent's hand/deck contents or in
either deck's order give identical views.

The zeroed deck-order slots double as the policies' scratch space
(`features.SCRATCH`): a strategy writes its per-decision summary there
instead of allocating. The view is rebuilt before every decision of a
strategy that reads it, so scratch never leaks between decisions (and
hidden information cannot reach it: it is computed from the view).
"""

import numba as nb

from sim.faction_war import engine_cache
from sim.faction_war.kernel_masks import mask_slot
from sim.faction_war.layout import (C_ARRIVAL, C_CTRL, C_MASKS, C_ORDER, C_ZONE, CARDS_PER_PLAYER,
                                    MASK_WORDS, S_DECK, S_RNG, STATE_SIZE, Z_DECK, Z_HAND, Z_HIDDEN)
from strategies.faction_war.features import cards_in_play

engine_cache.install()

DECK_ORDER_SLOTS = 2 * CARDS_PER_PLAYER


@nb.njit(cache=True)
def build_view(state, rules, player, view):
    """Fill `view` (STATE_SIZE) with `player`'s view of `state`.

    Per-card slots are copied only for the ids in play (FA-34): the others
    are never read, and skipping them halves the copy with one pack each.
    A buffer that once held a two-pack view keeps stale second-pack slots,
    so a buffer must not be shared between rule sets of different packs
    (the paired batch gives each arm its own).
    """
    for slot in range(S_DECK):
        view[slot] = state[slot]
    view[S_RNG] = 0
    for slot in range(S_DECK, S_DECK + DECK_ORDER_SLOTS):
        view[slot] = 0
    in_play = cards_in_play(rules)
    opponent = 1 - player
    for owner in range(2):
        first = owner * CARDS_PER_PLAYER
        for card in range(first, first + in_play):
            # Z_HIDDEN for the opponent's hand and deck cards, chosen without a branch
            # (the loop vectorises; a per-card branch here mispredicts constantly)
            zone = state[C_ZONE + card]
            hidden = (state[C_CTRL + card] == opponent) & ((zone == Z_HAND) | (zone == Z_DECK))
            view[C_ZONE + card] = zone + hidden * (Z_HIDDEN - zone)
    for array in (C_CTRL, C_ORDER, C_ARRIVAL):
        for owner in range(2):
            start = array + owner * CARDS_PER_PLAYER
            for slot in range(start, start + in_play):
                view[slot] = state[slot]
    for slot in range(C_MASKS, STATE_SIZE):
        view[slot] = state[slot]
    # The opponent's hand and deck masks become one Z_HIDDEN mask.
    hand = mask_slot(Z_HAND, opponent)
    deck = mask_slot(Z_DECK, opponent)
    hidden_mask = mask_slot(Z_HIDDEN, opponent)
    for word in range(MASK_WORDS):
        view[hidden_mask + word] = view[hand + word] | view[deck + word]
        view[hand + word] = 0
        view[deck + word] = 0
    return view
