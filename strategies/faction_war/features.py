"""What the scripted strategies read from a view: one pass, into scratch slots.

`summarize(view, rules, seat)` walks the view's zone masks once (every
card in play at most once, `sim/faction_war/kernel_masks.py`) and writes everything the scores need into
the view's *scratch* region (`view.SCRATCH`, the deck-order slots that
`build_view` zeroes): per (player, row) counts and sums, face-card ranks,
big jokers, the Polymorph state, the extra-zone holders. The pool
statistics (exile counts and points, the own hand and deck per suit, the
opponent's unseen cards per suit) are read by few scores (jokers, duels,
Abyss caution), so `pool_stats(view, rules)` computes them on first use in
a decision: every reader of those slots calls it first. Every score is
then O(1) per legal action, and nothing is allocated: the strategies run
inside the batch kernel's loop (tens of thousands of matches per second per
core).

Only `sim.cards` numbers, `layout`, `actions` and `rules` constants, the
card tables (`card_tables`) and the layout's mask accessors (`kernel_masks`) are imported — never the kernel — so the strategies do not move when the
kernel's internals are reorganised. Effective numbers follow F-HUJ-1 with
FA-26 "continuous" (a strategy's estimate; the engine stays the authority on
what is legal).
"""

import numba as nb

from sim.cards import CARDS_PER_PACK, HEART, JACK
from sim.faction_war import engine_cache
from sim.faction_war.card_tables import CARD_NUMBER, CARD_SUIT
from sim.faction_war.kernel_masks import (BIG_JOKER_WORDS, FACE_WORDS, NORMAL_COUNT, NORMAL_RUN_MASK,
                                          NORMAL_SUM, NORMAL_WORDS, RANK_WORDS, WORD_SHIFT, bit_run,
                                          lowest_bit, mask_slot, popcount, suit_run)
from sim.faction_war.layout import (C_CTRL, C_ORDER, C_ZONE, CARDS_PER_PLAYER, HUMAN, MASK_WORDS, N_ROWS,
                                    S_DECK, S_DECK_COUNT, S_FACTION, Z_DECK, Z_EXILE, Z_EXTRA,
                                    Z_GRAVE, Z_HAND, Z_HIDDEN, Z_ROW0)
from sim.faction_war.rules import FA8_ANY_CARD, FA8_NORMAL_ONLY, FA34_TWO, R_FA8, R_FA34

engine_cache.install()

SCRATCH = S_DECK  # build_view zeroes the 216 deck-order slots; strategies use them as scratch
SCRATCH_SIZE = 2 * CARDS_PER_PLAYER

# ---- per (player, row) block: SCRATCH + (player * 3 + row) * RW + field ----------------
RW = 8
F_NORM = 0  # normal cards
F_SUM = 1  # sum of effective numbers (F-ATK-3)
F_FACES = 2  # face cards
F_RANKS = 3  # bits of the face ranks present: J 1, Q 2, K 4
F_JOKER = 4  # 1 with a big joker
F_MINEFF = 5  # smallest effective number (NO_NUMBER when empty): the F-ATK-4 victim's damage
F_MAXORIG = 6  # largest original number (0 when empty)
F_ORIGSUM = 7  # sum of original numbers (what an exile adds to exile points)
ROW_BLOCK = 2 * N_ROWS * RW  # 48
# ---- globals after the row blocks ----------------------------------------------------------
G = SCRATCH + ROW_BLOCK
G_EXILE_COUNT = G + 0  # cards in both exile zones (F-ALW-1)
G_EXILE_POINTS = G + 1  # + player: point sum of the player's exile zone (F-JOK-A-2)
G_HAND_COUNT = G + 3  # + suit: own hand normal cards of the suit
G_HAND_SUM = G + 7  # + suit: their numbers
G_HIDDEN_COUNT = G + 11  # + suit: opponent's unseen (hand or deck) normal cards of the suit
G_HIDDEN_SUM = G + 15  # + suit
G_HIDDEN_TOTAL = G + 19  # opponent's unseen cards (hand + deck)
G_HIDDEN_POINTS = G + 20  # their F-JOK-A-3 points (normal: number, others 1)
G_ZONE_HOLDER = G + 21  # + suit 0..2: card in that extra zone, -1 when empty
G_POLY_LARGEST = G + 24  # + row: the card Polymorph spares (-1: the row is not polymorphed)
G_OPP_HIST = G + 27  # + number 1..10: the opponent's field normal cards by effective number
G_OWN_FACES_FIELD = G + 38  # own face cards on the field
G_OPP_FACES_FIELD = G + 39
G_OWN_DECK_POINTS = G + 40  # F-JOK-A-3 points of the own deck (normal: number, others 1)
G_SEAT = G + 41  # the seat the summary is for
G_POOL_READY = G + 42  # 1 once pool_stats filled the pool slots (exile, hand, hidden, own deck)
G_END = G + 43
# free scratch for callers (subset search, plans): from G_END to SCRATCH + SCRATCH_SIZE
WORK = G_END
NO_NUMBER = 99
RANK_BIT_J, RANK_BIT_Q, RANK_BIT_K = 1, 2, 4


# ---- card arithmetic (sim/cards.py codes) ------------------------------------------------
@nb.njit(cache=True, inline="always")
def code_of(card):
    return card % CARDS_PER_PACK


@nb.njit(cache=True, inline="always")
def suit_of(card):
    return CARD_SUIT[card]


@nb.njit(cache=True, inline="always")
def rank_of(card):
    return CARD_NUMBER[card]


@nb.njit(cache=True, inline="always")
def is_normal(card):
    return 1 <= CARD_NUMBER[card] <= 10


@nb.njit(cache=True, inline="always")
def is_face(card):
    return CARD_NUMBER[card] > 10


@nb.njit(cache=True, inline="always")
def rank_bit(rank):
    return 1 << (rank - JACK)


@nb.njit(cache=True, inline="always")
def cards_in_play(rules):
    """Ids owner*108 + 0 .. this-1 are in play (FA-34)."""
    return 2 * CARDS_PER_PACK if rules[R_FA34] == FA34_TWO else CARDS_PER_PACK


@nb.njit(cache=True, inline="always")
def kind_of(action):
    return (action >> 24) & 255


@nb.njit(cache=True, inline="always")
def field_a(action):
    return (action >> 16) & 255


@nb.njit(cache=True, inline="always")
def field_b(action):
    return (action >> 8) & 255


@nb.njit(cache=True, inline="always")
def field_c(action):
    return action & 255


@nb.njit(cache=True, inline="always")
def rs(view, player, row, field):
    return view[SCRATCH + (player * N_ROWS + row) * RW + field]


@nb.njit(cache=True, inline="always")
def is_human(view, player):
    return view[S_FACTION + player] == HUMAN


@nb.njit(cache=True, inline="always")
def effective(view, card):
    """F-HUJ-1: 1 for a polymorphed field card other than the spared largest."""
    zone = view[C_ZONE + card]
    if Z_ROW0 <= zone < Z_ROW0 + N_ROWS:
        largest = view[G_POLY_LARGEST + zone - Z_ROW0]
        if largest >= 0 and card != largest:
            return 1
    return rank_of(card)


# ---- the one pass ------------------------------------------------------------------------------
@nb.njit(cache=True)
def summarize(view, rules, seat):
    """Fill the scratch slots from `view` (seat's view); O(cards in play), graveyards skipped."""
    for slot in range(SCRATCH, G_END):
        view[slot] = 0
    for p in range(2):
        for r in range(N_ROWS):
            view[SCRATCH + (p * N_ROWS + r) * RW + F_MINEFF] = NO_NUMBER
    for s in range(3):
        view[G_ZONE_HOLDER + s] = -1
    for r in range(N_ROWS):
        view[G_POLY_LARGEST + r] = -1
    view[G_SEAT] = seat  # G_POOL_READY stays 0: pool_stats runs when a score first needs it
    opponent = 1 - seat
    # the field, row by row: face cards and jokers from the masks alone, a walk
    # over the normal cards only (no per-card test of the card's kind)
    for ctrl in range(2):
        for row in range(N_ROWS):
            _summarize_row(view, ctrl, row, seat)
    for word in range(MASK_WORDS):  # ascending id: the highest id of a suit is noted last
        bits = view[mask_slot(Z_EXTRA, 0) + word] | view[mask_slot(Z_EXTRA, 1) + word]
        while bits != 0:
            card = (word << WORD_SHIFT) + lowest_bit(bits)
            bits &= bits - 1
            suit = suit_of(card)
            if 0 <= suit < 3:
                view[G_ZONE_HOLDER + suit] = card
    # Polymorph (F-HUJ-1): a Human's row whose face cards are all J. Only such rows
    # (rare) are walked again, to redo their sums with effective numbers.
    for r in range(N_ROWS):
        poly = False
        for p in range(2):
            ranks = view[SCRATCH + (p * N_ROWS + r) * RW + F_RANKS]
            if ranks == RANK_BIT_J and is_human(view, p):
                poly = True
        if poly:
            _polymorph_row(view, rules, opponent, r)


@nb.njit(cache=True)
def pool_stats(view, rules):
    """Fill the pool slots (G_EXILE_*, G_HAND_*, G_HIDDEN_*, G_OWN_DECK_POINTS) of the
    summarised view, once per decision; a no-op when already done."""
    if view[G_POOL_READY]:
        return
    view[G_POOL_READY] = 1
    seat = view[G_SEAT]
    opponent = 1 - seat
    # Hands, decks and exile zones suit by suit (kernel_masks.suit_run): a few
    # table lookups instead of a walk over dozens of cards.
    deck = mask_slot(Z_DECK, seat)
    hand = mask_slot(Z_HAND, seat)
    hidden = mask_slot(Z_HIDDEN, opponent)
    deck_points = 0  # running totals in locals, stored once (see _summarize_row)
    hidden_total = 0
    hidden_points = 0
    exile_count = 0
    exile_points0 = 0
    exile_points1 = 0
    for pack in range(cards_in_play(rules) // CARDS_PER_PACK):
        own = seat * CARDS_PER_PLAYER + pack * CARDS_PER_PACK
        theirs = opponent * CARDS_PER_PLAYER + pack * CARDS_PER_PACK
        for suit in range(4):
            run = suit_run(view, deck, own + suit * 13)
            deck_points += NORMAL_SUM[run & NORMAL_RUN_MASK] + NORMAL_COUNT[run >> 10]
            run = suit_run(view, hand, own + suit * 13) & NORMAL_RUN_MASK
            view[G_HAND_COUNT + suit] += NORMAL_COUNT[run]
            view[G_HAND_SUM + suit] += NORMAL_SUM[run]
            run = suit_run(view, hidden, theirs + suit * 13)
            normals = run & NORMAL_RUN_MASK
            faces = NORMAL_COUNT[run >> 10]
            view[G_HIDDEN_COUNT + suit] += NORMAL_COUNT[normals]
            view[G_HIDDEN_SUM + suit] += NORMAL_SUM[normals]
            hidden_total += NORMAL_COUNT[normals] + faces
            hidden_points += NORMAL_SUM[normals] + faces  # a non-normal card is 1 point
        deck_points += NORMAL_COUNT[bit_run(view, deck, own + 52, 2)]
        jokers = NORMAL_COUNT[bit_run(view, hidden, theirs + 52, 2)]
        hidden_total += jokers
        hidden_points += jokers
        for ctrl in range(2):  # either owner's cards may lie in either exile zone (FA-14)
            exile = mask_slot(Z_EXILE, ctrl)
            if _empty(view, exile):
                continue
            points = 0
            for owner in range(2):
                first = owner * CARDS_PER_PLAYER + pack * CARDS_PER_PACK
                for suit in range(4):
                    run = suit_run(view, exile, first + suit * 13)
                    exile_count += NORMAL_COUNT[run & NORMAL_RUN_MASK] + NORMAL_COUNT[run >> 10]
                    points += NORMAL_SUM[run & NORMAL_RUN_MASK]
                exile_count += NORMAL_COUNT[bit_run(view, exile, first + 52, 2)]
            if ctrl == 0:
                exile_points0 += points
            else:
                exile_points1 += points
    view[G_OWN_DECK_POINTS] = deck_points
    view[G_HIDDEN_TOTAL] = hidden_total
    view[G_HIDDEN_POINTS] = hidden_points
    view[G_EXILE_COUNT] = exile_count
    view[G_EXILE_POINTS] = exile_points0
    view[G_EXILE_POINTS + 1] = exile_points1


@nb.njit(cache=True, inline="always")
def _empty(view, slot):
    """No card in the mask at `slot`."""
    any_bits = 0
    for word in range(MASK_WORDS):
        any_bits |= view[slot + word]
    return any_bits == 0


@nb.njit(cache=True, inline="always")
def _summarize_row(view, ctrl, row, seat):
    """The (controller, row) block: counts, sums, face ranks, big joker.

    One pass over the row's mask words, every total in a local and stored
    once: a store into `view` inside the walk (the histogram's index is not a
    constant) would otherwise force each running total through memory.
    """
    at = SCRATCH + (ctrl * N_ROWS + row) * RW
    slot = mask_slot(Z_ROW0 + row, ctrl)
    faces = 0
    ranks = 0
    joker = 0
    normals = 0
    total = 0
    largest = 0
    smallest = NO_NUMBER
    opponent_row = ctrl != seat
    for word in range(MASK_WORDS):
        cards = view[slot + word]
        if cards == 0:
            continue
        face_bits = cards & FACE_WORDS[word]
        if face_bits != 0:
            faces += popcount(face_bits)
            for rank in range(JACK, JACK + 3):
                if face_bits & RANK_WORDS[rank, word]:
                    ranks |= rank_bit(rank)
        joker |= cards & BIG_JOKER_WORDS[word]
        bits = cards & NORMAL_WORDS[word]
        while bits != 0:
            number = rank_of((word << WORD_SHIFT) + lowest_bit(bits))
            bits &= bits - 1
            normals += 1
            total += number
            largest = max(largest, number)
            smallest = min(smallest, number)
            if opponent_row:
                view[G_OPP_HIST + number] += 1
    if faces:
        view[at + F_FACES] = faces
        view[at + F_RANKS] = ranks
        view[(G_OWN_FACES_FIELD if ctrl == seat else G_OPP_FACES_FIELD)] += faces
    if joker != 0:
        view[at + F_JOKER] = 1
    view[at + F_NORM] = normals
    view[at + F_ORIGSUM] = total
    view[at + F_SUM] = total  # effective = original unless polymorphed (summarize redoes it)
    view[at + F_MAXORIG] = largest
    view[at + F_MINEFF] = smallest


@nb.njit(cache=True)
def _polymorph_row(view, rules, opponent, r):
    """Row index r is polymorphed: find the spared card (the largest original
    number, the earliest placed among equals), then redo both players' sums,
    smallest numbers and the opponent histogram for that row.

    Every other normal card there counts 1, so the row blocks' counts and
    largest numbers give the new sums without a walk; only the few cards of
    the largest number and the opponent's cards (for the histogram) are visited.
    """
    blocks = (SCRATCH + r * RW, SCRATCH + (N_ROWS + r) * RW)  # (player 0, player 1) blocks of row r
    best_number = max(view[blocks[0] + F_MAXORIG], view[blocks[1] + F_MAXORIG])
    best = -1
    best_order = 0
    if best_number > 0:
        for word in range(MASK_WORDS):
            bits = ((view[mask_slot(Z_ROW0 + r, 0) + word] | view[mask_slot(Z_ROW0 + r, 1) + word])
                    & NORMAL_WORDS[word] & RANK_WORDS[best_number, word])
            while bits != 0:
                card = (word << WORD_SHIFT) + lowest_bit(bits)
                bits &= bits - 1
                if best < 0 or view[C_ORDER + card] < best_order:
                    best = card
                    best_order = view[C_ORDER + card]
    view[G_POLY_LARGEST + r] = best
    for p in range(2):
        at = blocks[p]
        normals = view[at + F_NORM]
        if normals == 0:
            view[at + F_SUM] = 0
            view[at + F_MINEFF] = NO_NUMBER
        elif view[C_CTRL + best] == p:
            view[at + F_SUM] = best_number + normals - 1
            view[at + F_MINEFF] = 1 if normals > 1 else best_number
        else:
            view[at + F_SUM] = normals
            view[at + F_MINEFF] = 1
    slot = mask_slot(Z_ROW0 + r, opponent)  # the opponent's polymorphed cards now show 1
    for word in range(MASK_WORDS):
        bits = view[slot + word] & NORMAL_WORDS[word]
        while bits != 0:
            card = (word << WORD_SHIFT) + lowest_bit(bits)
            bits &= bits - 1
            number = rank_of(card)
            if card != best and number != 1:
                view[G_OPP_HIST + number] -= 1
                view[G_OPP_HIST + 1] += 1


@nb.njit(cache=True)
def own_source_counts(view, rules, seat, excluded, extra_excluded, with_exile, out_at):
    """Normal cards a special placement may take (F-ALJ-4, FA-33), as counts per
    number 1..10 at view[out_at + number]; `excluded`/`extra_excluded` are not sources."""
    for number in range(11):
        view[out_at + number] = 0
    for pack in range(cards_in_play(rules) // CARDS_PER_PACK):
        for suit in range(4):
            first = seat * CARDS_PER_PLAYER + pack * CARDS_PER_PACK + suit * 13
            run = (suit_run(view, mask_slot(Z_HAND, seat), first) | suit_run(view, mask_slot(Z_DECK, seat), first)
                   | suit_run(view, mask_slot(Z_GRAVE, seat), first)
                   | suit_run(view, mask_slot(Z_EXTRA, seat), first))
            if with_exile:
                run |= suit_run(view, mask_slot(Z_EXILE, seat), first)
            run &= NORMAL_RUN_MASK
            for skipped in (excluded, extra_excluded):
                if first <= skipped < first + 10:
                    run &= ~(1 << (skipped - first))
            while run != 0:
                view[out_at + lowest_bit(run) + 1] += 1
                run &= run - 1


MAX_SUM = 10
# fewest_cards_for keeps, for m = 0..10 cards, the reachable sums 0..10 as an
# 11-bit field; five fields fit in one int64 word (m 0-4, m 5-9) and m = 10 in a third.
FIELD = MAX_SUM + 1
FIELDS_PER_WORD = 5
WORD_FIELDS = (1 << (FIELD * FIELDS_PER_WORD)) - 1
LAST_FIELD_SHIFT = FIELD * (FIELDS_PER_WORD - 1)
REPEAT_FIELD = sum(1 << (FIELD * k) for k in range(FIELDS_PER_WORD))  # x * REPEAT_FIELD: x in every field


@nb.njit(cache=True)
def fewest_cards_for(view, counts_at, skip_number, target, at_least):
    """Fewest cards (>= at_least) from the counts at view[counts_at + n], one card of
    `skip_number` left out (0: none), adding up exactly to `target`; -1 if impossible.

    Bitset subset search over "sums reachable with exactly m cards" (numbers 1..10,
    sums <= 10, so m <= 10), all m at once: the fields of three words shift
    together, with no memory traffic per step. O(10 numbers x copies).
    """
    if target < 0 or target > MAX_SUM:
        return -1
    low = 1  # fields m = 0..4 (m = 0: only the empty sum)
    high = 0  # fields m = 5..9
    top = 0  # m = 10
    for number in range(1, MAX_SUM + 1):
        copies = view[counts_at + number] - (1 if number == skip_number else 0)
        copies = min(copies, target // number)
        stays = ((1 << (FIELD - number)) - 1) * REPEAT_FIELD  # sums that stay <= 10 with this number
        for _ in range(copies):  # one more card of `number`: field m feeds field m + 1
            low_in = (low & stays) << number
            high_in = (high & stays) << number
            top |= high_in >> LAST_FIELD_SHIFT
            high |= ((high_in << FIELD) & WORD_FIELDS) | (low_in >> LAST_FIELD_SHIFT)
            low |= (low_in << FIELD) & WORD_FIELDS
    for m in range(max(at_least, 0), MAX_SUM + 1):
        if m < FIELDS_PER_WORD:
            sums = low >> (FIELD * m)
        elif m < 2 * FIELDS_PER_WORD:
            sums = high >> (FIELD * (m - FIELDS_PER_WORD))
        else:
            sums = top
        if (sums >> target) & 1:
            return m
    return -1


@nb.njit(cache=True, inline="always")
def opponent_hand_size(view, seat):
    """The opponent's hand size (needs `pool_stats`)."""
    return view[G_HIDDEN_TOTAL] - view[S_DECK_COUNT + 1 - seat]


@nb.njit(cache=True)
def opponent_smallest_sum(view, k):
    """Sum of the opponent's k smallest field normal cards (effective numbers)."""
    total = 0
    for number in range(1, 11):
        take = min(k, view[G_OPP_HIST + number])
        total += take * number
        k -= take
        if k == 0:
            break
    return total


@nb.njit(cache=True)
def human_effect_value(view, seat, row, ranks):
    """Value for `seat` of its own Human row effect `ranks` (bits) in `row`, per turn
    (F-HUJ-1, F-HUQ-1, F-HUK-1, F-HUC-*): gains to the opponent's row count plus,
    own losses minus. Sums use original numbers (what the effect itself changes)."""
    opp = 1 - seat
    n_own = rs(view, seat, row, F_NORM)
    n_opp = rs(view, opp, row, F_NORM)
    s_own = rs(view, seat, row, F_ORIGSUM)
    s_opp = rs(view, opp, row, F_ORIGSUM)
    m_own = rs(view, seat, row, F_MAXORIG)
    m_opp = rs(view, opp, row, F_MAXORIG)
    if ranks == 0:
        return 0
    if ranks == RANK_BIT_J:  # Polymorph: all but the single largest count 1
        if n_own + n_opp == 0:
            return 0
        own_after = n_own
        opp_after = n_opp
        if m_own > m_opp:
            own_after = m_own + n_own - 1
        else:
            opp_after = m_opp + n_opp - 1
        return (s_opp - opp_after) - (s_own - own_after)
    if ranks == RANK_BIT_Q:  # Mind Magic: the opponent's smallest changes sides
        if n_opp == 0:
            return 0
        return 2 * rs(view, opp, row, F_MINEFF)
    if ranks == RANK_BIT_K:  # Self-Destruct: the largest of both rows
        if n_own == 0 or n_opp == 0:
            return 0
        return m_opp if m_opp > m_own else -m_own
    if n_own == 0 or n_opp == 0:
        return 0
    if ranks == RANK_BIT_J | RANK_BIT_Q:  # swap one random card each way
        return s_opp // n_opp - s_own // n_own
    if ranks == RANK_BIT_J | RANK_BIT_K:  # each side keeps its two largest
        excess_opp = (n_opp - 2) * s_opp // n_opp if n_opp > 2 else 0
        excess_own = (n_own - 2) * s_own // n_own if n_own > 2 else 0
        return excess_opp - excess_own
    if (n_own + n_opp) % 2 == 0:  # Q+K: pool, two to the graveyard, split
        return s_opp - s_own
    return 0


@nb.njit(cache=True)
def face_threat(view, player, row):
    """How much `player`'s face cards in `row` hurt their opponent (for the Dispeller):
    a Human row's effect value for its owner, or a fixed weight per Alien face card."""
    ranks = rs(view, player, row, F_RANKS)
    if ranks == 0:
        return 0
    if is_human(view, player):
        value = human_effect_value(view, player, row, ranks)
        return max(value, 0) + 2 * rs(view, player, row, F_FACES)
    threat = 0
    if ranks & RANK_BIT_J:
        threat += 3 + min(rs(view, player, row, F_NORM), 3)
    if ranks & RANK_BIT_Q:
        threat += 4
    if ranks & RANK_BIT_K:
        threat += 5
    return threat


@nb.njit(cache=True)
def occupied(view, rules, player, row):
    """FA-8: whether the row is a target for F-TGT."""
    normals = rs(view, player, row, F_NORM)
    joker = rs(view, player, row, F_JOKER)
    if rules[R_FA8] == FA8_ANY_CARD:
        return normals + joker + rs(view, player, row, F_FACES) > 0
    if rules[R_FA8] == FA8_NORMAL_ONLY:
        return normals > 0
    return normals + joker > 0


DIRECT_BIT = 8


@nb.njit(cache=True)
def target_mask(view, rules, attacker, row):
    """F-TGT-1..3: bit t for each defender row `row` of `attacker` may attack, DIRECT_BIT
    for the player."""
    defender = 1 - attacker
    o0 = occupied(view, rules, defender, 0)
    o1 = occupied(view, rules, defender, 1)
    o2 = occupied(view, rules, defender, 2)
    if not (o0 or o1 or o2):
        return DIRECT_BIT
    if row == 0:
        return 1 if o0 else 2 if o1 else 4
    if row == 1:
        if o0:
            return 3 if o1 else 1
        return 2 if o1 else 0
    if o0:
        return 1
    return 4 if o2 else 0


@nb.njit(cache=True, inline="always")
def heart_row_ok(card, row):
    """Rows a special placement / normal placement may put the card in (F-PLC-2)."""
    suit = suit_of(card)
    if suit == HEART:
        return row < 2
    return suit == row

