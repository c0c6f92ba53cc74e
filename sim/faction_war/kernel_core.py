"""Low-level numba helpers shared by the kernel and its faction modules.

`kernel.py` (turn structure, placement, attacks) and the faction modules
(`kernel_human.py`, `kernel_alien.py`, `kernel_jokers.py`) all need card
arithmetic, card movement, damage/heal/life checks, the effective number
(Polymorph, F-HUJ-1) and the way a card leaves the field (Call of the Abyss,
the Human penalty, Outer Charge, Deep-Sea Era). These live here so that the
faction modules can import them without an import cycle through kernel.py;
kernel.py re-exports the old names.

Every function mirrors the reference engine (`reference*.py`) step by step,
including RNG draws (`nb_below`) and list orders (ascending card id).
All functions are allocation-free.
"""

import numba as nb

from sim.cards import BIG_JOKER, CARDS_PER_PACK, SMALL_JOKER
from sim.faction_war import engine_cache
from sim.faction_war.kernel_jit import kernel_jit
from sim.faction_war.layout import (ALIEN, C_ARRIVAL, C_CTRL, C_ORDER, C_ZONE, MASK_WORDS, N_ROWS,
                                    CARDS_PER_PLAYER, CT_HUMAN_PENALTY, CT_OUTER_CHARGE,
                                    CT_SPECIAL_PLACED,
                                    END_DEEP_SEA, END_DEEP_SEA_DRAW, END_DOUBLE_KO, END_LIFE,
                                    HUMAN, PH_OVER, S_ACTIVE, S_COUNTERS, S_DECK,
                                    S_DECK_COUNT, S_END_TYPE, S_FACTION, S_LIFE, S_PHASE, S_RNG,
                                    S_SEQ, S_START_LIFE, S_TURN, S_WINNER, Z_EXILE, Z_EXTRA,
                                    Z_GRAVE, Z_ROW0, Z_ROW2)
from sim.faction_war.rules import (FA6_RANDOM, FA14_OWNER, FA17_DRAW, FA20_GRAVEYARD,
                                   FA24_DRAW, FA24_TURN_PLAYER_WINS, FA26_ON_ARRIVAL,
                                   FA29_EACH_STEP, FA34_TWO, FA36_STARTING_LIFE, R_FA6, R_FA14,
                                   R_FA17, R_FA20, R_FA24, R_FA26, R_FA29, R_FA34, R_FA36)
from sim.faction_war.card_tables import CARD_NUMBER, CARD_SUIT
from sim.faction_war.kernel_masks import (BIG_JOKER_WORDS, FACE_WORDS, NORMAL_WORDS, RANK_WORDS, WORD_SHIFT,
                                          count_cards, count_kind, lowest_bit, mask_slot, place_card)
from sim.rng import nb_below

engine_cache.install()

# ---- card arithmetic (sim/cards.py codes) ---------------------------------------
RANKS_PER_SUIT = 13
SUITED_CODES = 4 * RANKS_PER_SUIT  # codes below this are suit cards; 52, 53 jokers
NORMAL_RANKS = 10  # A..10 are normal cards (F-CARD-2); J, Q, K face cards
JACK = 11
QUEEN = 12
KING = 13
N_SUITS = 4
DRAW_WINNER = 2  # S_WINNER value of a drawn match
NO_WINNER = -1
DEEP_SEA_LIMIT = 54  # F-ALW-1: more than this many exiled cards
NO_ROW = -1  # "no attacking row" for leave_field
BIG = 1 << 30


@nb.njit(cache=True, inline="always")
def owner_of(card):
    return card // CARDS_PER_PLAYER


@nb.njit(cache=True, inline="always")
def suit_of_card(card):
    """Suit 0..3 (♦ ♠ ♣ ♥), or -1 for a joker (card_tables: a lookup)."""
    return CARD_SUIT[card]


@nb.njit(cache=True, inline="always")
def original_number(card):
    """Rank 1..13 of a suit card (A=1 .. K=13), 0 for a joker."""
    return CARD_NUMBER[card]


@nb.njit(cache=True, inline="always")
def is_normal_card(card):
    return 1 <= CARD_NUMBER[card] <= NORMAL_RANKS


@nb.njit(cache=True, inline="always")
def is_face_card(card):
    return CARD_NUMBER[card] > NORMAL_RANKS


@nb.njit(cache=True, inline="always")
def is_big_joker(card):
    return card % CARDS_PER_PACK == BIG_JOKER


@nb.njit(cache=True, inline="always")
def is_small_joker(card):
    return card % CARDS_PER_PACK == SMALL_JOKER


@nb.njit(cache=True, inline="always")
def packs_in_play(rules):
    return 2 if rules[R_FA34] == FA34_TWO else 1


@nb.njit(cache=True, inline="always")
def cards_per_player_in_play(rules):
    """54 per pack (FA-34): ids owner*108 + 0 .. this-1 are in play."""
    return packs_in_play(rules) * CARDS_PER_PACK


@nb.njit(cache=True, inline="always")
def is_human(state, player):
    return state[S_FACTION + player] == HUMAN


@nb.njit(cache=True, inline="always")
def is_alien(state, player):
    return state[S_FACTION + player] == ALIEN


@nb.njit(cache=True, inline="always")
def on_field_row(state, card, player, row):
    return state[C_ZONE + card] == Z_ROW0 + row and state[C_CTRL + card] == player


# ---- card movement ---------------------------------------------------------------

@nb.njit(cache=True, inline="always")
def move_card(state, card, zone, ctrl):
    """Put a card into a non-field zone: field bookkeeping (order, arrival) cleared."""
    place_card(state, card, zone, ctrl)
    state[C_ORDER + card] = 0
    state[C_ARRIVAL + card] = 0


@nb.njit(cache=True, inline="always")
def enter_row(state, card, player, row):
    """A card arrives on `player`'s row: next placement sequence number, this turn."""
    place_card(state, card, Z_ROW0 + row, player)
    state[C_ORDER + card] = state[S_SEQ]
    state[S_SEQ] += 1
    state[C_ARRIVAL + card] = state[S_TURN]


@nb.njit(cache=True, inline="always")
def enter_zone(state, card, player):
    """A card enters the extra zone of its suit: sequence number and arrival like a row."""
    place_card(state, card, Z_EXTRA, player)
    state[C_ORDER + card] = state[S_SEQ]
    state[S_SEQ] += 1
    state[C_ARRIVAL + card] = state[S_TURN]


@kernel_jit
def deck_remove_at(state, player, index):
    """Take deck[index] out of the player's deck (bottom-first list pop); returns the card."""
    count = state[S_DECK_COUNT + player]
    base = S_DECK + player * CARDS_PER_PLAYER
    card = state[base + index]
    for i in range(index, count - 1):
        state[base + i] = state[base + i + 1]
    state[base + count - 1] = 0
    state[S_DECK_COUNT + player] = count - 1
    return card


@kernel_jit
def deck_remove_card(state, player, card):
    """list.remove(card) on the player's deck."""
    count = state[S_DECK_COUNT + player]
    base = S_DECK + player * CARDS_PER_PLAYER
    for i in range(count):
        if state[base + i] == card:
            deck_remove_at(state, player, i)
            return


@kernel_jit
def shuffle_deck(state, player):
    """Fisher-Yates over the player's deck with the match generator."""
    base = S_DECK + player * CARDS_PER_PLAYER
    for i in range(state[S_DECK_COUNT + player] - 1, 0, -1):
        j = nb_below(state, S_RNG, i + 1)
        swap = state[base + i]
        state[base + i] = state[base + j]
        state[base + j] = swap


# ---- ending and life --------------------------------------------------------------

@kernel_jit
def end_match(state, winner, end_type):
    """The match is over; S_DECIDER is left as it was (only S_PHASE matters)."""
    state[S_PHASE] = PH_OVER
    state[S_WINNER] = winner
    state[S_END_TYPE] = end_type


@kernel_jit
def check_life(state, rules):
    """F-WIN-1/2 with FA-24; returns True when the match is (now) over."""
    if state[S_PHASE] == PH_OVER:
        return True
    dead0 = state[S_LIFE] <= 0
    dead1 = state[S_LIFE + 1] <= 0
    if dead0 and dead1:
        reading = rules[R_FA24]
        if reading == FA24_DRAW:
            end_match(state, DRAW_WINNER, END_DOUBLE_KO)
        elif reading == FA24_TURN_PLAYER_WINS:
            end_match(state, state[S_ACTIVE], END_LIFE)
        else:
            end_match(state, 1 - state[S_ACTIVE], END_LIFE)
        return True
    if dead0 or dead1:
        end_match(state, 1 if dead0 else 0, END_LIFE)
        return True
    return False


@kernel_jit
def deal_damage(state, rules, player, amount):
    """A player loses life; with FA-29 "each_step" life is checked at once."""
    state[S_LIFE + player] -= amount
    if rules[R_FA29] == FA29_EACH_STEP:
        check_life(state, rules)


@kernel_jit
def deal_damage_both(state, rules, amount0, amount1):
    """One step that hurts both players at once (F-JOK-A-2); checked together (F-WIN-2)."""
    state[S_LIFE] -= amount0
    state[S_LIFE + 1] -= amount1
    if rules[R_FA29] == FA29_EACH_STEP:
        check_life(state, rules)


@kernel_jit
def heal(state, rules, player, amount):
    """Life gain; FA-36 "starting_life" caps it at max(start, current)."""
    current = state[S_LIFE + player]
    life = current + amount
    if rules[R_FA36] == FA36_STARTING_LIFE:
        cap = max(state[S_START_LIFE + player], current)
        if life > cap:
            life = cap
    state[S_LIFE + player] = life
    if rules[R_FA29] == FA29_EACH_STEP:
        check_life(state, rules)


# ---- face cards of a row -----------------------------------------------------------

@nb.njit(cache=True, inline="always")
def earliest_face(state, rules, player, row, rank):
    """The earliest-placed face card of `rank` (JACK..KING) that `player` controls in the row,
    or -1. Face cards never change sides, so only the player's own ids count."""
    slot = mask_slot(Z_ROW0 + row, player)
    best = -1
    best_order = 1 << 62
    for word in range(MASK_WORDS):  # most rows hold no such card: four ANDs and done
        bits = state[slot + word] & RANK_WORDS[rank, word]
        while bits != 0:
            card = (word << WORD_SHIFT) + lowest_bit(bits)
            bits &= bits - 1
            if owner_of(card) == player and state[C_ORDER + card] < best_order:
                best_order = state[C_ORDER + card]
                best = card
    return best


@nb.njit(cache=True, inline="always")
def alien_face(state, rules, player, row, rank):
    """reference_alien.alien_face: the earliest Alien face card of `rank` in the row, or -1."""
    if not is_alien(state, player):
        return -1
    return earliest_face(state, rules, player, row, rank)


@kernel_jit
def row_effect(state, rules, player, row):
    """F-HUC-1 for a Human row: (rank bits, present since), rank bits J=1, Q=2, K=4; (0, 0) if none.

    Face cards earliest placed first; identical ranks act as one; the first two
    different ranks form the combination, present since the later arrival.
    """
    if not is_human(state, player):
        return 0, 0
    j = earliest_face(state, rules, player, row, JACK)
    q = earliest_face(state, rules, player, row, QUEEN)
    k = earliest_face(state, rules, player, row, KING)
    # the first two ranks by the order of their earliest card
    first = -1
    second = -1
    for card in (j, q, k):
        if card < 0:
            continue
        if first < 0 or state[C_ORDER + card] < state[C_ORDER + first]:
            second = first
            first = card
        elif second < 0 or state[C_ORDER + card] < state[C_ORDER + second]:
            second = card
    if first < 0:
        return 0, 0
    bits = 1 << (original_number(first) - JACK)
    since = state[C_ARRIVAL + first]
    if second >= 0:
        bits |= 1 << (original_number(second) - JACK)
        since = max(since, state[C_ARRIVAL + second])
    return bits, since


# ---- F-HUJ-1 Polymorph and the effective number -------------------------------------

@kernel_jit
def polymorph_j_order(state, rules, row):
    """Placement order of the earliest J polymorphing this row index (a Human row whose
    effect is J alone), or 0."""
    best = 0
    for player in range(2):
        if not is_human(state, player):
            continue
        j = earliest_face(state, rules, player, row, JACK)
        if j < 0:
            continue
        if earliest_face(state, rules, player, row, QUEEN) >= 0 or earliest_face(state, rules, player, row, KING) >= 0:
            continue
        order = state[C_ORDER + j]
        if best == 0 or order < best:
            best = order
    return best


@kernel_jit
def polymorph_largest(state, rules, row, j_order):
    """The affected card that keeps its number (largest original, then earliest), or -1."""
    on_arrival = rules[R_FA26] == FA26_ON_ARRIVAL
    best = -1
    best_number = -1
    best_order = 1 << 62
    for word in range(MASK_WORDS):
        bits = _row_normals_word(state, row, 3, word)
        while bits != 0:
            card = (word << WORD_SHIFT) + lowest_bit(bits)
            bits &= bits - 1
            order = state[C_ORDER + card]
            if on_arrival and order >= j_order:
                continue
            number = original_number(card)
            if number > best_number or (number == best_number and order < best_order):
                best = card
                best_number = number
                best_order = order
    return best


@kernel_jit
def row_poly(state, rules, row):
    """Polymorph state of row index `row`: (j_order, spared card), (0, -1) when the row is
    not polymorphed. With it `effective_in_row` gives every card's effective number in
    O(1), as long as the field does not change in between."""
    if not is_human(state, 0) and not is_human(state, 1):
        return 0, -1
    j_order = polymorph_j_order(state, rules, row)
    if j_order == 0:
        return 0, -1
    return j_order, polymorph_largest(state, rules, row, j_order)


@kernel_jit
def field_poly(state, rules):
    """`row_poly` of the three rows: (j0, spared0, j1, spared1, j2, spared2)."""
    human_jacks = 0  # Polymorph needs a Human J on the field; most fields have none
    for player in range(2):
        if is_human(state, player):
            for row in range(N_ROWS):
                slot = mask_slot(Z_ROW0 + row, player)
                for word in range(MASK_WORDS):
                    human_jacks |= state[slot + word] & RANK_WORDS[JACK, word]
    if human_jacks == 0:
        return (0, -1, 0, -1, 0, -1)
    j0, s0 = row_poly(state, rules, 0)
    j1, s1 = row_poly(state, rules, 1)
    j2, s2 = row_poly(state, rules, 2)
    return (j0, s0, j1, s1, j2, s2)


@nb.njit(cache=True, inline="always")
def effective_in_row(state, rules, card, j_order, spared):
    """effective_number of a normal card on a row whose `row_poly` is (j_order, spared)."""
    if j_order == 0:
        return original_number(card)
    if rules[R_FA26] == FA26_ON_ARRIVAL and state[C_ORDER + card] >= j_order:
        return original_number(card)
    if spared == card:
        return original_number(card)
    return 1


@nb.njit(cache=True, inline="always")
def effective_on_field(state, rules, card, poly):
    """effective_number with the `field_poly` tuple of the current field."""
    zone = state[C_ZONE + card]
    if zone < Z_ROW0 or zone > Z_ROW2 or not is_normal_card(card):
        return original_number(card)
    row = zone - Z_ROW0
    return effective_in_row(state, rules, card, poly[2 * row], poly[2 * row + 1])


@kernel_jit
def effective_number(state, rules, card):
    """F-CARD-4: the number effects read: after Polymorph (F-HUJ-1, FA-26) on the field."""
    zone = state[C_ZONE + card]
    if zone < Z_ROW0 or zone > Z_ROW2 or not is_normal_card(card):
        return original_number(card)
    if not is_human(state, 0) and not is_human(state, 1):
        return original_number(card)
    j_order, spared = row_poly(state, rules, zone - Z_ROW0)
    return effective_in_row(state, rules, card, j_order, spared)


# ---- card choice with FA-6 ----------------------------------------------------------

@kernel_jit
def pick_normal(state, rules, row, players, exclude, largest):
    """reference `pick` over the normal cards of row index `row` controlled by the
    players in bit set `players` (bit p), except card `exclude` (-1: none).

    Smallest key (effective, original) or, with `largest`, (-effective, -original);
    ties by FA-6: earliest order, or below(#tied) over the tied cards in ascending
    card id. -1 when there is no candidate.
    """
    best_a = BIG
    best_b = BIG
    tied = 0
    best_card = -1
    best_order = 1 << 62
    j_order, spared = row_poly(state, rules, row)
    for word in range(MASK_WORDS):
        bits = _row_normals_word(state, row, players, word)
        while bits != 0:
            card = (word << WORD_SHIFT) + lowest_bit(bits)
            bits &= bits - 1
            ok, a, b = _pick_key(state, rules, card, exclude, largest, j_order, spared)
            if not ok:
                continue
            order = state[C_ORDER + card]
            if a < best_a or (a == best_a and b < best_b):
                best_a = a
                best_b = b
                tied = 1
                best_card = card
                best_order = order
            elif a == best_a and b == best_b:
                tied += 1
                if order < best_order:
                    best_card = card
                    best_order = order
    if tied > 1 and rules[R_FA6] == FA6_RANDOM:
        pick = nb_below(state, S_RNG, tied)
        for word in range(MASK_WORDS):
            bits = _row_normals_word(state, row, players, word)
            while bits != 0:
                card = (word << WORD_SHIFT) + lowest_bit(bits)
                bits &= bits - 1
                ok, a, b = _pick_key(state, rules, card, exclude, largest, j_order, spared)
                if ok and a == best_a and b == best_b:
                    if pick == 0:
                        return card
                    pick -= 1
    return best_card


@nb.njit(cache=True, inline="always")
def _row_normals_word(state, row, players, word):
    """Word `word` of the normal cards in row index `row` controlled by the players in bit
    set `players`."""
    bits = 0
    if players & 1:
        bits |= state[mask_slot(Z_ROW0 + row, 0) + word]
    if players & 2:
        bits |= state[mask_slot(Z_ROW0 + row, 1) + word]
    return bits & NORMAL_WORDS[word]


@nb.njit(cache=True, inline="always")
def _pick_key(state, rules, card, exclude, largest, j_order, spared):
    """(is a candidate of `pick_normal`, key part 1, key part 2) for a normal card of the row."""
    if card == exclude:
        return False, 0, 0
    a = effective_in_row(state, rules, card, j_order, spared)
    b = original_number(card)
    if largest:
        return True, -a, -b
    return True, a, b


@nb.njit(cache=True, inline="always")
def count_normals(state, rules, player, row):
    """Normal cards `player` controls in row `row`."""
    return count_kind(state, mask_slot(Z_ROW0 + row, player), NORMAL_WORDS)


@kernel_jit
def nth_normal(state, rules, player, row, index):
    """The index-th (ascending card id) normal card `player` controls in row `row`."""
    slot = mask_slot(Z_ROW0 + row, player)
    for word in range(MASK_WORDS):
        bits = state[slot + word] & NORMAL_WORDS[word]
        while bits != 0:
            if index == 0:
                return (word << WORD_SHIFT) + lowest_bit(bits)
            bits &= bits - 1
            index -= 1
    return -1


# ---- leaving the field: Call of the Abyss, Outer Charge, Deep-Sea Era, penalty --------

@kernel_jit
def exile_count(state, rules):
    return count_cards(state, Z_EXILE, 0) + count_cards(state, Z_EXILE, 1)


@kernel_jit
def check_deep_sea(state, rules):
    """F-ALW-1 / FA-17: more than 54 cards in both exile zones: the Alien wins."""
    if state[S_PHASE] == PH_OVER or exile_count(state, rules) <= DEEP_SEA_LIMIT:
        return
    alien0 = is_alien(state, 0)
    alien1 = is_alien(state, 1)
    if not alien0 and not alien1:
        return
    if alien0 and alien1:
        if rules[R_FA17] == FA17_DRAW:
            end_match(state, DRAW_WINNER, END_DEEP_SEA_DRAW)
        else:
            end_match(state, state[S_ACTIVE], END_DEEP_SEA)
    else:
        end_match(state, 0 if alien0 else 1, END_DEEP_SEA)


@kernel_jit
def outer_charge_passive(state, rules, card, from_zone, from_ctrl):
    """F-ALK-1: a normal card exiled from a K's row or its suit's extra zone heals the K's owner 1."""
    if from_zone == Z_EXTRA:
        row = suit_of_card(card)
        first = 0
        last = 1
    elif Z_ROW0 <= from_zone <= Z_ROW2:
        row = from_zone - Z_ROW0
        first = from_ctrl
        last = from_ctrl
    else:
        return
    for player in range(first, last + 1):
        king = alien_face(state, rules, player, row, KING)
        if king >= 0 and state[C_ARRIVAL + king] < state[S_TURN]:
            state[S_COUNTERS + CT_OUTER_CHARGE] += 1
            heal(state, rules, player, 1)


@kernel_jit
def exile_card(state, rules, card, from_zone, from_ctrl):
    """To the owner's (FA-14 "controller": the controller's) exile zone; F-ALK-1; F-ALW-1."""
    pile_owner = owner_of(card) if rules[R_FA14] == FA14_OWNER else from_ctrl
    move_card(state, card, Z_EXILE, pile_owner)
    if is_normal_card(card):
        outer_charge_passive(state, rules, card, from_zone, from_ctrl)
    check_deep_sea(state, rules)


@kernel_jit
def leave_to_exile(state, rules, card, attacker_row):
    """F-ALQ-1 / FA-20: True when a normal card leaving a row is exiled instead of buried."""
    zone = state[C_ZONE + card]
    if not is_normal_card(card) or zone < Z_ROW0 or zone > Z_ROW2:
        return False
    row = zone - Z_ROW0
    ctrl = state[C_CTRL + card]
    exiled = False
    if attacker_row >= 0 and alien_face(state, rules, 1 - ctrl, attacker_row, QUEEN) >= 0:
        exiled = True  # (1) the Abyss row's successful attack
    elif alien_face(state, rules, ctrl, row, QUEEN) >= 0 and owner_of(card) == ctrl:
        exiled = True  # (2) own normal card leaving an Abyss row
    if exiled and not is_alien(state, owner_of(card)) and rules[R_FA20] == FA20_GRAVEYARD:
        exiled = False
    return exiled


@kernel_jit
def face_left_field(state, rules, card):
    """F-HUP-1: a Human's own face card leaving the field costs its owner 1 life."""
    owner = owner_of(card)
    if is_face_card(card) and is_human(state, owner):
        state[S_COUNTERS + CT_HUMAN_PENALTY] += 1
        deal_damage(state, rules, owner, 1)


@kernel_jit
def leave_field_from(state, rules, card, attacker_row):
    """F-ZONE-4 / FA-14: to the owner's graveyard (or the controller's), unless an Abyss
    row exiles it (F-ALQ-1); then the Human penalty (F-HUP-1). `attacker_row`: the row
    of a successful attack that removes the card, or NO_ROW."""
    from_zone = state[C_ZONE + card]
    from_ctrl = state[C_CTRL + card]
    if leave_to_exile(state, rules, card, attacker_row):
        exile_card(state, rules, card, from_zone, from_ctrl)
    else:
        pile_owner = owner_of(card) if rules[R_FA14] == FA14_OWNER else from_ctrl
        move_card(state, card, Z_GRAVE, pile_owner)
    face_left_field(state, rules, card)


@kernel_jit
def leave_field(state, rules, card):
    """A field card leaves (not by an attack): `leave_field_from` with no attacking row."""
    leave_field_from(state, rules, card, NO_ROW)


@kernel_jit
def leave_faces(state, rules, player, row):
    """Every face card `player` controls in the row leaves the field, ascending card id."""
    base = player * CARDS_PER_PLAYER
    for card in range(base, base + cards_per_player_in_play(rules)):
        if on_field_row(state, card, player, row) and is_face_card(card):
            leave_field(state, rules, card)


@kernel_jit
def count_faces(state, rules, player, row):
    """Face cards in `player`'s row (face cards never change sides: all the player's own)."""
    return count_kind(state, mask_slot(Z_ROW0 + row, player), FACE_WORDS)


@kernel_jit
def special_placement_cost(state, rules, player, cards):
    """F-ALN-1: 1 life per own normal card special-placed."""
    state[S_COUNTERS + CT_SPECIAL_PLACED] += cards
    if cards:
        deal_damage(state, rules, player, cards)


@nb.njit(cache=True, inline="always")
def sort_segment(out, start, end):
    """Insertion sort of out[start:end] (short, nearly sorted action lists)."""
    for i in range(start + 1, end):
        value = out[i]
        j = i - 1
        while j >= start and out[j] > value:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = value



@kernel_jit
def row_sum(state, rules, player, row):
    """F-ATK-3: sum of the effective numbers of the normal cards in a row."""
    slot = mask_slot(Z_ROW0 + row, player)
    total = 0
    j_order, spared = row_poly(state, rules, row)
    for word in range(MASK_WORDS):
        bits = state[slot + word] & NORMAL_WORDS[word]
        while bits != 0:
            total += effective_in_row(state, rules, (word << WORD_SHIFT) + lowest_bit(bits), j_order, spared)
            bits &= bits - 1
    return total


@nb.njit(cache=True, inline="always")
def big_joker_in(state, rules, player, row):
    """The big joker `player` controls in the row (lowest id), or -1."""
    slot = mask_slot(Z_ROW0 + row, player)
    for word in range(MASK_WORDS):
        bits = state[slot + word] & BIG_JOKER_WORDS[word]
        if bits != 0:
            return (word << WORD_SHIFT) + lowest_bit(bits)
    return -1
