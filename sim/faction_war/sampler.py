"""Hidden information of Faction War: a full state sampled from one seat's view.

A search agent must never read the true state. It holds only its seat's view
(`strategies/faction_war/view.py`: the opponent's hand and deck cards are one Z_HIDDEN
set, both deck orders and the rule generator are blanked) and asks this
module for a *determinization*: a full state that gives the seat exactly
that view, with what the seat cannot know drawn uniformly:

- the opponent's hand: a uniform subset of the hidden cards, of the size the
  view implies (hidden cards − the opponent's deck count); the rest is the
  opponent's deck, in a uniform order;
- the seat's own deck: its contents are known (the seat saw every other own
  card leave it), its order is uniform;
- the rule generator: a fresh word from the agent's stream.

Everything public stays as the view says: every card on the field, in the
piles and extra zones with its controller, placement order and arrival;
zone sizes; lives, counters, pending decisions. Cards that effects revealed
and moved (stolen, swapped, put down in a duel, exiled from a deck) are
public where they are now; hidden cards carry no order or arrival stamps, so
nothing else distinguishes them. The sampler ignores inferences from the
opponent's past choices (what they did not play): that is the usual
determinization of PIMC and ISMCTS, and it keeps the sample a function of
the view alone.

`sample_world` is numba-compiled, allocation-free and callable from other
compiled code (the match loop, a search policy). Its draws, in this order:
Fisher-Yates over the own deck (cards in ascending id, i from n−1 down to 1,
j = below(i+1)), the same over the opponent's hidden cards (ascending id;
afterwards the first `deck count` are the deck bottom-first, the rest the
hand), then one word for S_RNG. `sample_world_reference` is the same in
plain Python (tests check the two agree).
"""

import numba as nb
import numpy as np

from sim.faction_war import engine_cache
from sim.faction_war.kernel_masks import lowest_bit, mask_slot, place_card
from sim.faction_war.layout import (C_ARRIVAL, C_CTRL, C_MASKS, C_ORDER, C_ZONE, CARDS_PER_PLAYER,
                                    MASK_WORDS, N_CARDS, S_DECK, S_DECK_COUNT, S_RNG, STATE_SIZE,
                                    Z_DECK, Z_HAND, Z_HIDDEN, fill_masks)
from sim.faction_war.rules import FA34_TWO, R_FA34
from sim.rng import PyRng, nb_below, nb_next, splitmix_next, to_signed

engine_cache.install()

CARDS_PER_PACK = 54
WORD_BITS = 64


@nb.njit(cache=True, inline="always")
def _in_play(rules):
    return 2 * CARDS_PER_PACK if rules[R_FA34] == FA34_TWO else CARDS_PER_PACK


@nb.njit(cache=True)
def _shuffle_segment(out, start, count, rng, rng_slot):
    """Fisher-Yates over out[start:start+count] with the agent's generator."""
    for i in range(count - 1, 0, -1):
        j = nb_below(rng, rng_slot, i + 1)
        swap = out[start + i]
        out[start + i] = out[start + j]
        out[start + j] = swap


@nb.njit(cache=True)
def _list_mask(out, start, state, slot):
    """Write the card ids of the mask at `slot` ascending into out[start:]; return how many."""
    n = 0
    for word in range(MASK_WORDS):
        bits = state[slot + word]
        while bits != 0:
            out[start + n] = word * WORD_BITS + lowest_bit(bits)
            bits &= bits - 1
            n += 1
    return n


@nb.njit(cache=True)
def sample_world(view, rules, seat, rng, rng_slot, out):
    """Fill `out` (STATE_SIZE) with a full state consistent with `seat`'s `view`,
    drawing from the SplitMix64 word rng[rng_slot] (see the module docstring).

    Reads only what `build_view` keeps (never the view's deck-order slots, which
    strategies use as scratch). Returns `out`.
    """
    opponent = 1 - seat
    for slot in range(S_DECK):
        out[slot] = view[slot]
    in_play = _in_play(rules)
    for card in range(N_CARDS):  # ids out of play (FA-34) are zero in a real state
        live = card % CARDS_PER_PLAYER < in_play
        for base in (C_ZONE, C_CTRL, C_ORDER, C_ARRIVAL):
            out[base + card] = view[base + card] if live else 0
    for slot in range(C_MASKS, STATE_SIZE):
        out[slot] = view[slot]
    own_deck = S_DECK + seat * CARDS_PER_PLAYER
    their_deck = S_DECK + opponent * CARDS_PER_PLAYER
    # own deck: known contents, uniform order
    own_count = _list_mask(out, own_deck, view, mask_slot(Z_DECK, seat))
    _shuffle_segment(out, own_deck, own_count, rng, rng_slot)
    for i in range(own_count, CARDS_PER_PLAYER):
        out[own_deck + i] = 0
    # the opponent's hidden cards: a uniform split into deck (bottom-first) and hand
    hidden = _list_mask(out, their_deck, view, mask_slot(Z_HIDDEN, opponent))
    _shuffle_segment(out, their_deck, hidden, rng, rng_slot)
    deck_count = view[S_DECK_COUNT + opponent]
    for i in range(hidden):
        place_card(out, out[their_deck + i], Z_DECK if i < deck_count else Z_HAND, opponent)
    for i in range(deck_count, CARDS_PER_PLAYER):
        out[their_deck + i] = 0
    out[S_RNG] = np.int64(nb_next(rng, rng_slot))
    return out


def sample_world_reference(view: np.ndarray, rules: np.ndarray, seat: int, rng: PyRng) -> np.ndarray:
    """`sample_world` in plain Python (same draws from a `PyRng`): the executable spec."""
    opponent = 1 - seat
    out = np.zeros(STATE_SIZE, dtype=np.int64)
    out[:S_DECK] = view[:S_DECK]
    in_play = 2 * CARDS_PER_PACK if rules[R_FA34] == FA34_TWO else CARDS_PER_PACK
    for card in range(N_CARDS):
        if card % CARDS_PER_PLAYER < in_play:
            for base in (C_ZONE, C_CTRL, C_ORDER, C_ARRIVAL):
                out[base + card] = view[base + card]

    def shuffled(cards):
        for i in range(len(cards) - 1, 0, -1):
            j = rng.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return cards

    def cards_where(zone, ctrl):
        return [c for c in range(N_CARDS) if out[C_ZONE + c] == zone and out[C_CTRL + c] == ctrl]

    own = shuffled(cards_where(Z_DECK, seat))
    out[S_DECK + seat * CARDS_PER_PLAYER:][:len(own)] = own
    pool = shuffled(cards_where(Z_HIDDEN, opponent))
    deck_count = int(view[S_DECK_COUNT + opponent])
    out[S_DECK + opponent * CARDS_PER_PLAYER:][:deck_count] = pool[:deck_count]
    for i, card in enumerate(pool):
        out[C_ZONE + card] = Z_DECK if i < deck_count else Z_HAND
    rng.state, word = splitmix_next(rng.state)
    out[S_RNG] = to_signed(word)
    return fill_masks(out)
