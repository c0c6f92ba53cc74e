"""Zone masks: which cards lie in each (zone, controller), as bits of card ids.

The per-card slots (`C_ZONE`, `C_CTRL`) say where one card is; nearly every
query asks the opposite, "which cards are in p's hand / row r / the extra
zones". Scanning the 108 ids in play for each such question cost most of a
match (listing legal actions, the strategies' summaries). The masks answer
it directly: for each zone and controller, four int64 words whose bit
`card & 63` of word `card >> 6` is set while the card is there (ids 0..215).
Set bits are visited lowest first, so a walk over a mask meets the cards in
ascending id order, the order every list of the engine contract uses. The
walk is written out where it is needed (numba has no cheap iterator; a
generator measured 2.4x slower, a next-card cursor 10x):

    for word in range(MASK_WORDS):
        bits = state[mask_slot(zone, ctrl) + word]
        while bits != 0:
            card = (word << WORD_SHIFT) + lowest_bit(bits)
            bits &= bits - 1
            ...

They are derived data with one writer: every change of a card's zone or
controller goes through `place_card` / `set_controller` (kernel_core's
`move_card`, `enter_row`, `enter_zone` and the Human steals call them).
Engines that build a state another way (the reference's `to_array`,
positions, tests that edit a state by hand) call `layout.fill_masks` on
the finished array; the differential test compares the masks after every
action like every other slot, so a missed update cannot go unnoticed.
Cards in zone Z_NONE (ids not in play) have no mask.
"""

import numba as nb
import numpy as np
from numba.core import config

from sim.faction_war import engine_cache
from sim.faction_war.kernel_jit import kernel_jit
from sim.cards import BIG_JOKER, CARDS_PER_PACK, HEART
from sim.faction_war.layout import C_CTRL, C_MASKS, C_ZONE, CARDS_PER_PLAYER, MASK_WORDS, Z_NONE

engine_cache.install()

WORD_BITS = 64
WORD_SHIFT = 6
BIT_MASK = WORD_BITS - 1

if config.DISABLE_JIT:  # plain Python (the no-JIT test run): no LLVM intrinsic to call
    def lowest_bit(bits):
        """Index of the lowest set bit of a non-zero int64 word."""
        return (int(bits) & -int(bits)).bit_length() - 1

    def popcount(bits):
        """Set bits of an int64 word."""
        return bin(int(bits) & 0xFFFFFFFFFFFFFFFF).count("1")
else:
    from numba.core import types
    from numba.cpython.unsafe.numbers import trailing_zeros as _trailing_zeros
    from numba.extending import intrinsic

    @intrinsic
    def _ctpop(typingctx, bits):
        """LLVM's population count (one `popcnt` instruction on x86-64)."""
        if not isinstance(bits, types.Integer):
            return None

        def codegen(context, builder, signature, args):
            return builder.ctpop(args[0])
        return bits(bits), codegen

    @nb.njit(cache=True, inline="always")
    def lowest_bit(bits):
        """Index of the lowest set bit of a non-zero int64 word (one instruction)."""
        return _trailing_zeros(bits)

    @nb.njit(cache=True, inline="always")
    def popcount(bits):
        """Set bits of an int64 word (one instruction)."""
        return _ctpop(bits)


@nb.njit(cache=True, inline="always")
def mask_slot(zone, ctrl):
    """First of the MASK_WORDS slots of (zone, controller)."""
    return C_MASKS + (zone * 2 + ctrl) * MASK_WORDS


@nb.njit(cache=True, inline="always")
def card_bit(card):
    return np.int64(1) << np.int64(card & BIT_MASK)


@nb.njit(cache=True, inline="always")
def place_card(state, card, zone, ctrl):
    """Set the card's zone and controller, moving its mask bit along."""
    old_zone = state[C_ZONE + card]
    bit = card_bit(card)
    word = card >> WORD_SHIFT
    if old_zone != Z_NONE:
        state[mask_slot(old_zone, state[C_CTRL + card]) + word] &= ~bit
    state[C_ZONE + card] = zone
    state[C_CTRL + card] = ctrl
    state[mask_slot(zone, ctrl) + word] |= bit


@nb.njit(cache=True, inline="always")
def set_controller(state, card, ctrl):
    """A card changes sides without changing zone (Mind Magic, swaps)."""
    place_card(state, card, state[C_ZONE + card], ctrl)


@nb.njit(cache=True, inline="always")
def count_cards(state, zone, ctrl):
    """How many cards `ctrl` has in `zone`."""
    slot = mask_slot(zone, ctrl)
    count = 0
    for word in range(MASK_WORDS):
        count += popcount(state[slot + word])
    return count


@kernel_jit
def list_cards(state, zone, ctrl, out):
    """Write the cards of (zone, ctrl) ascending into `out`; return how many."""
    slot = mask_slot(zone, ctrl)
    n = 0
    for word in range(MASK_WORDS):
        bits = state[slot + word]
        while bits != 0:
            out[n] = (word << WORD_SHIFT) + lowest_bit(bits)
            bits &= bits - 1
            n += 1
    return n


# ---- a suit at a time -------------------------------------------------------------------
# The 13 cards of one (owner, pack, suit) have consecutive ids (A..K), so a
# mask holds them as a 13-bit run: bits 0..9 the normal cards A..10, bits
# 10..12 J Q K. Two tables turn the normal part into a count and a rank sum,
# so a whole zone's per-suit statistics cost a few lookups, not a card walk.
SUIT_RUN = 13
NORMAL_RUN_MASK = (1 << 10) - 1
NORMAL_COUNT = np.array([bin(bits).count("1") for bits in range(1 << 10)], dtype=np.int64)
NORMAL_SUM = np.array([sum(rank + 1 for rank in range(10) if (bits >> rank) & 1) for bits in range(1 << 10)],
                      dtype=np.int64)


@nb.njit(cache=True, inline="always")
def bit_run(state, slot, start, length):
    """Bits start .. start+length-1 (card ids, length <= 13) of the mask at `slot`."""
    word = start >> WORD_SHIFT
    offset = start & BIT_MASK
    if offset + length <= WORD_BITS:
        return (state[slot + word] >> offset) & ((1 << length) - 1)
    # the run crosses into the next word (offset >= 52 here, so no shift reaches 64)
    low = (state[slot + word] >> offset) & ((1 << (WORD_BITS - offset)) - 1)
    return (low | (state[slot + word + 1] << (WORD_BITS - offset))) & ((1 << length) - 1)


@nb.njit(cache=True, inline="always")
def suit_run(state, slot, first_card):
    """The 13-bit run of the suit whose ace is `first_card`, in the mask at `slot`."""
    return bit_run(state, slot, first_card, SUIT_RUN)


def _rank_words():
    """RANK_WORDS[rank, word]: the ids of every card of rank 1..13 (any owner, pack, suit)."""
    words = np.zeros((SUIT_RUN + 1, MASK_WORDS), dtype=np.uint64)
    for card in range(2 * CARDS_PER_PLAYER):
        code = card % CARDS_PER_PACK
        if code < 4 * SUIT_RUN:
            words[code % SUIT_RUN + 1, card >> WORD_SHIFT] |= np.uint64(1) << np.uint64(card & BIT_MASK)
    return words.view(np.int64)


RANK_WORDS = _rank_words()


@nb.njit(cache=True, inline="always")
def has_rank(state, zone, ctrl, rank):
    """True when `ctrl` has a card of `rank` (1..13) in `zone`: a cheap test before a search."""
    slot = mask_slot(zone, ctrl)
    for word in range(MASK_WORDS):
        if state[slot + word] & RANK_WORDS[rank, word]:
            return True
    return False


# ---- counting by card kind ----------------------------------------------------------------
def _kind_words(is_kind):
    """Constant mask of every card id (any owner and pack) whose code passes `is_kind`."""
    words = np.zeros(MASK_WORDS, dtype=np.uint64)
    for card in range(2 * CARDS_PER_PLAYER):
        if is_kind(card % CARDS_PER_PACK):
            words[card >> WORD_SHIFT] |= np.uint64(1) << np.uint64(card & BIT_MASK)
    return words.view(np.int64)


NORMAL_WORDS = _kind_words(lambda code: code < 4 * SUIT_RUN and code % SUIT_RUN < 10)
FACE_WORDS = _kind_words(lambda code: code < 4 * SUIT_RUN and code % SUIT_RUN >= 10)
BIG_JOKER_WORDS = _kind_words(lambda code: code == BIG_JOKER)
JOKER_WORDS = _kind_words(lambda code: code >= 4 * SUIT_RUN)
HEART_FACE_WORDS = _kind_words(lambda code: code // SUIT_RUN == HEART and code % SUIT_RUN >= 10)  # Dispellers


@nb.njit(cache=True, inline="always")
def has_kind(state, slot, kind_words):
    """True when the mask at `slot` holds a card of `kind_words`."""
    for word in range(MASK_WORDS):
        if state[slot + word] & kind_words[word]:
            return True
    return False


@nb.njit(cache=True, inline="always")
def count_kind(state, slot, kind_words):
    """How many cards of the mask at `slot` are also in `kind_words` (NORMAL_WORDS, FACE_WORDS)."""
    count = 0
    for word in range(MASK_WORDS):
        count += popcount(state[slot + word] & kind_words[word])
    return count
