"""A player's view of a Faction War state: what that player may see.

A strategy never reads the real state. `build_view` copies it into a
preallocated buffer (no allocation in the match loop) and removes what the
player cannot know (F-rules §10):
- the rule generator word S_RNG is zeroed (future draws are not knowable);
- the opponent's hand cards and the opponent's deck cards get zone Z_HIDDEN;
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

from sim.faction_war import jit_cache
from sim.faction_war.layout import (C_ZONE, CARDS_PER_PLAYER, S_DECK, S_RNG, STATE_SIZE, Z_DECK,
                                    Z_HAND, Z_HIDDEN)
from strategies.features import cards_in_play

jit_cache.install()

DECK_ORDER_SLOTS = 2 * CARDS_PER_PLAYER


@nb.njit(cache=True)
def build_view(state, rules, player, view):
    """Fill `view` (STATE_SIZE) with `player`'s view of `state`."""
    for slot in range(S_DECK):
        view[slot] = state[slot]
    view[S_RNG] = 0
    for slot in range(S_DECK, S_DECK + DECK_ORDER_SLOTS):
        view[slot] = 0
    for slot in range(S_DECK + DECK_ORDER_SLOTS, STATE_SIZE):
        view[slot] = state[slot]
    opponent = 1 - player
    base = opponent * CARDS_PER_PLAYER
    # Hands and decks only ever hold their owner's cards, so the opponent's
    # ids in play (FA-34) cover every card to hide.
    for card in range(base, base + cards_in_play(rules)):
        zone = view[C_ZONE + card]
        if zone == Z_HAND or zone == Z_DECK:
            view[C_ZONE + card] = Z_HIDDEN
    return view
