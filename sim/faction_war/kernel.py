"""The Faction War numba engine: the match as operations on one int64 array.

Every function here is `@njit(cache=True)` and works on the packed state of
`layout.py` and the rules array of `rules.py` (always an argument, never a
global, so one compiled kernel serves every rule tweak). The engine follows
`docs/engine-contract.md` step by step, like the plain-Python reference
(`reference.py`), so the differential test can compare legal action lists
and packed states after every action.

Trade-off: the state carries one kind of derived data, the zone masks
(`kernel_masks.py`: the card ids in each zone per controller, as bits).
Every query of the form "p's hand", "p's cards in row r", "the extra zones"
walks a mask instead of scanning the 108 card ids in play, which had cost
most of a match. The price is one rule for every writer: a card's zone or
controller changes only through `kernel_masks.place_card` /
`set_controller`; the reference computes the masks when it packs its state
(`layout.fill_masks`), so the differential test checks them after every
action. The only allocations are two tiny scratch arrays per attack-phase
listing (about 15 ns each, measured) and one small list in the rare Human
Q+K effect.

This module holds the turn structure, placement and the legal-action lists;
the faction rules live in their own modules and are called at fixed points
(hooks): `kernel_human.py` (mandatory Q/K/combination effects after the hand
check, FA-4; the Dispeller; Destiny after each placement), `kernel_alien.py`
(extra zones, Split Rebirth and its special placement, Outer Charge, the
pending decisions of S_PENDING), `kernel_jokers.py` (the whole attack:
plain row hits, big-joker attacks, the joker duel; joker placement and the
small joker). Helpers every part needs (card arithmetic, movement, damage,
heals and life checks, the effective number after Polymorph, leaving the
field with Call of the Abyss, Outer Charge, Deep-Sea Era and the Human
penalty, FA-6 card choice) live in `kernel_core.py` and are re-exported here
under their old names.

All of §1-§8 of the rules and every FA switch are implemented, mirroring
`reference.py`, `reference_human.py`, `reference_alien.py` and
`reference_jokers.py`.
"""

import numba as nb
import numpy as np

from sim.cards import CARDS_PER_PACK, HEART
from sim.faction_war import actions as A
from sim.faction_war import engine_cache
from sim.faction_war.kernel_jit import kernel_jit
from sim.faction_war.layout import (CARDS_PER_PLAYER, CT_DISCARDS, MASK_WORDS,
                                    CT_FACE_DISPLACED, CT_POLYMORPH_PLACED, DIRECT, END_DECK_OUT,
                                    END_DECK_OUT_DRAW, END_TURN_CAP, N_ROWS, P_KIND, PENDING_K1_ANSWER,
                                    PENDING_K3_ANSWER, PENDING_NONE, PENDING_RESPOND,
                                    PENDING_SPECIAL, PENDING_TIE, PENDING_TIMING, P_TIE_SITE,
                                    STAGE_AFTER_DRAW, STAGE_BEFORE_DRAW, TIE_SITE_ATTACK,
                                    TIE_SITE_MIND_MAGIC, TIE_SITE_SELF_DESTRUCT, PH_ATTACK, PH_DISCARD, PH_OVER, PH_PLACEMENT,
                                    S_ACTIVE, S_COUNTERS, S_DECIDER, S_DECK, S_DECK_COUNT,
                                    S_FACE_PLACED, S_FACTION, S_FIRST, S_K_USED, S_LIFE,
                                    S_NORMAL_PLACED, S_PENDING, S_PHASE, S_RNG, S_SEQ,
                                    S_START_LIFE, S_TURN, S_WINNER, STATE_SIZE, Z_GRAVE, Z_HAND,
                                    Z_DECK, Z_ROW0)
from sim.faction_war.rules import (FA1_BOTH, FA2_SKIP, FA3_CONTINUE, FA3_DRAW, FA4_CHOICE, FA4_PLACEMENT_START,
                                   FA4_PREPARATION, FA7_NOT_ALLOWED, FA8_ANY_CARD, FA8_NORMAL_ONLY,
                                   FA29_AFTER_ACTION, R_DRAWS_PER_TURN, R_FA1, R_FA2, R_FA3, R_FA4,
                                   R_FA7, R_FA8, R_FA29, R_FACES_PER_ROW, R_HAND_TARGET,
                                   R_HAND_TRIGGER, R_OPENING_HAND, R_TURN_CAP)
from sim.faction_war.kernel_masks import (BIG_JOKER_WORDS, FACE_WORDS, NORMAL_WORDS, WORD_SHIFT, count_cards, has_kind,
                                          lowest_bit, mask_slot, place_card)
from sim.rng import nb_below
# The faction modules, and the shared low-level helpers of kernel_core (re-exported here
# under their old names: strategies and tests import them from the kernel).
from sim.faction_war import kernel_alien as KA
from sim.faction_war import kernel_choices as KC
from sim.faction_war import kernel_human as KH
from sim.faction_war import kernel_jokers as KJ
from sim.faction_war.kernel_core import (cards_per_player_in_play, check_life, deal_damage,  # noqa: F401
                                         effective_in_row, effective_number, end_match,
                                         enter_row, field_poly, is_big_joker,
                                         is_face_card, is_normal_card, leave_field, move_card,
                                         original_number, owner_of, pick_normal, row_sum,
                                         suit_of_card)

# Before any cached kernel is defined: cache entries are keyed on all engine
# sources, not just this file (numba alone would keep kernels compiled
# against an old layout or old rules reading indices).
engine_cache.install()

# ---- card arithmetic (sim/cards.py codes) ---------------------------------------
RANKS_PER_SUIT = 13
NORMAL_RANKS = 10  # A..10 are normal cards (F-CARD-2); J, Q, K face cards
FACE_RANKS = 3  # J, Q, K
FACE_BITS_PER_PACK = 4 * FACE_RANKS  # face cards of one pack, as bits (`face_bit`)
MAX_FACE_BITS = 2 * FACE_BITS_PER_PACK  # per owner: two packs at most (FA-34); 48 bits in all
ACTION_KIND_SHIFT = 24
ACTION_A_SHIFT = 16
ACTION_B_SHIFT = 8
ACTION_FIELD_MASK = 255
DRAW_WINNER = 2  # S_WINNER value of a drawn match
NO_WINNER = -1

@nb.njit(cache=True, inline="always")
def face_bit(card):
    """Bit index of a face card, ordered like card ids: (owner, pack, suit, rank)."""
    local = card % CARDS_PER_PLAYER
    pack = local // CARDS_PER_PACK
    code = local % CARDS_PER_PACK
    return (owner_of(card) * MAX_FACE_BITS + pack * FACE_BITS_PER_PACK
            + (code // RANKS_PER_SUIT) * FACE_RANKS + code % RANKS_PER_SUIT - NORMAL_RANKS)


@nb.njit(cache=True, inline="always")
def face_card_of_bit(bit):
    """Inverse of `face_bit`."""
    owner = bit // MAX_FACE_BITS
    pack = (bit % MAX_FACE_BITS) // FACE_BITS_PER_PACK
    within = bit % FACE_BITS_PER_PACK
    return (owner * CARDS_PER_PLAYER + pack * CARDS_PER_PACK + (within // FACE_RANKS) * RANKS_PER_SUIT
            + NORMAL_RANKS + within % FACE_RANKS)


@nb.njit(cache=True, inline="always")
def popcount(bits):
    count = 0
    while bits:
        bits &= bits - 1
        count += 1
    return count


@nb.njit(cache=True, inline="always")
def encode(kind, a, b, c):
    return (kind << ACTION_KIND_SHIFT) | (a << ACTION_A_SHIFT) | (b << ACTION_B_SHIFT) | c


@nb.njit(cache=True, inline="always")
def action_kind(action):
    return (action >> ACTION_KIND_SHIFT) & ACTION_FIELD_MASK


@nb.njit(cache=True, inline="always")
def action_a(action):
    return (action >> ACTION_A_SHIFT) & ACTION_FIELD_MASK


@nb.njit(cache=True, inline="always")
def action_b(action):
    return (action >> ACTION_B_SHIFT) & ACTION_FIELD_MASK


@nb.njit(cache=True, inline="always")
def row_of_suit(suit):
    """F-PLC-2/3: ♦ → row 0, ♠ → row 1, ♣ → row 2 (♥ normal cards: 0 or 1)."""
    return suit


# ---- queries ----------------------------------------------------------------------

@kernel_jit
def hand_size(state, rules, player):
    """Cards in the player's hand."""
    return count_cards(state, Z_HAND, player)


@nb.njit(cache=True, inline="always")
def row_stats(state, rules, player, row, poly):
    """(cards, normal cards, sum of their effective numbers (F-ATK-3), 1 with a big
    joker) of the row `player` controls; `poly` is `field_poly` of the field."""
    slot = mask_slot(Z_ROW0 + row, player)
    j_order = poly[2 * row]
    spared = poly[2 * row + 1]
    normals = 0
    total = 0
    for word in range(MASK_WORDS):  # the normal cards only: no per-card kind test
        bits = state[slot + word] & NORMAL_WORDS[word]
        while bits != 0:
            total += effective_in_row(state, rules, (word << WORD_SHIFT) + lowest_bit(bits), j_order, spared)
            bits &= bits - 1
            normals += 1
    joker = 1 if has_kind(state, slot, BIG_JOKER_WORDS) else 0
    return count_cards(state, Z_ROW0 + row, player), normals, total, joker


@nb.njit(cache=True, inline="always")
def row_occupied(rules, cards, normals, joker):
    """FA-8: what makes a row (with these `row_stats`) a target for F-TGT."""
    reading = rules[R_FA8]
    if reading == FA8_ANY_CARD:
        return cards > 0
    if reading == FA8_NORMAL_ONLY:
        return normals > 0
    return normals > 0 or joker > 0


@nb.njit(cache=True, inline="always")
def attack_targets(row, o0, o1, o2):
    """F-TGT-1..3: (how many, first, second) defender rows (or DIRECT) own `row` may
    attack, ascending, given which defender rows are occupied."""
    if not (o0 or o1 or o2):
        return 1, DIRECT, -1
    if row == 0:  # F-TGT-1
        return 1, (0 if o0 else (1 if o1 else 2)), -1
    if row == 1:  # F-TGT-2
        if o0:
            return (2, 0, 1) if o1 else (1, 0, -1)
        if o1:
            return 1, 1, -1
        return 0, -1, -1
    if o0:  # F-TGT-3
        return 1, 0, -1
    if o2:
        return 1, 2, -1
    return 0, -1, -1


@kernel_jit
def is_over(state):
    return state[S_PHASE] == PH_OVER


# ---- card movement ---------------------------------------------------------------

@kernel_jit
def draw_card(state, player):
    """Take the top card (deck[count-1]) into the hand; the slot is cleared."""
    count = state[S_DECK_COUNT + player]
    slot = S_DECK + player * CARDS_PER_PLAYER + count - 1
    card = state[slot]
    state[slot] = 0
    state[S_DECK_COUNT + player] = count - 1
    move_card(state, card, Z_HAND, player)
    return card


# ---- ending -------------------------------------------------------------------------

# ---- turn structure (F-TURN) -----------------------------------------------------------

@kernel_jit
def draw_phase(state, rules):
    """F-TURN-3 with FA-2 (first turn) and FA-3 (short deck); then placement."""
    player = state[S_ACTIVE]
    count = rules[R_DRAWS_PER_TURN]
    if state[S_TURN] == 1 and rules[R_FA2] == FA2_SKIP:
        count = 0
    available = state[S_DECK_COUNT + player]
    if available < count:
        reading = rules[R_FA3]
        if reading == FA3_DRAW:
            end_match(state, DRAW_WINNER, END_DECK_OUT_DRAW)
            return
        if reading != FA3_CONTINUE:  # "lose": nothing is drawn
            end_match(state, 1 - player, END_DECK_OUT)
            return
        count = available
    for _ in range(count):
        draw_card(state, player)
    state[S_PHASE] = PH_PLACEMENT
    state[S_DECIDER] = player
    if rules[R_FA4] == FA4_PLACEMENT_START:  # F-TURN-5: mandatory Human effects
        KH.mandatory_effects(state, rules, 0, STAGE_AFTER_DRAW)


@kernel_jit
def after_hand_check(state, rules):
    """F-TURN-5 / FA-4: mandatory effects after the hand check, then the draw phase."""
    reading = rules[R_FA4]
    if reading == FA4_PREPARATION:
        # the effects, then the draw phase unless they ended the match (F-WIN-3: e.g.
        # Deep-Sea Era reached by a Self-Destruct) or wait for a FA-6 "choice" pick
        resume_mandatory(state, rules, 0, STAGE_BEFORE_DRAW)
        return
    if reading == FA4_CHOICE and KC.mandatory_effect_due(state, rules, state[S_ACTIVE]):
        KC.open_timing(state)  # the turn player decides: now or after the draw
        return
    draw_phase(state, rules)


@kernel_jit
def resume_mandatory(state, rules, first_row, stage):
    """Mandatory effects from `first_row` on; before the draw, then the draw phase."""
    KH.mandatory_effects(state, rules, first_row, stage)
    if state[S_PHASE] == PH_OVER or state[S_PENDING + P_KIND] != PENDING_NONE:
        return
    if stage == STAGE_BEFORE_DRAW:
        draw_phase(state, rules)


@kernel_jit
def apply_timing(state, rules, after_draw):
    """MANDATORY_TIMING (FA-4 "choice"): the effects now (then the draw), or the draw first."""
    KA.clear_pending(state, state[S_ACTIVE])
    if after_draw:
        draw_phase(state, rules)
        if state[S_PHASE] != PH_OVER:
            KH.mandatory_effects(state, rules, 0, STAGE_AFTER_DRAW)
        return
    resume_mandatory(state, rules, 0, STAGE_BEFORE_DRAW)


@kernel_jit
def apply_tie(state, rules, card):
    """TIE_PICK (FA-6 "choice"): finish the interrupted effect with `card`, then go on."""
    site, row, exclude, context = KC.close_tie(state)
    if site == TIE_SITE_ATTACK:
        KJ.row_hit_with(state, rules, context, row, card)  # context: the attacking row
        KJ.finish_joker_row_hit(state, rules, context, row)
        return
    stage, step, keep_a, keep_b = KC.tie_context_fields(context)
    player = state[S_ACTIVE]
    if site == TIE_SITE_MIND_MAGIC:
        KH.steal(state, player, card)
    elif site == TIE_SITE_SELF_DESTRUCT:
        KH.destroy_largest(state, rules, card)
    elif not KH.cull_from(state, rules, player, row, stage, step, keep_a, keep_b, exclude, card):
        return  # another tie to decide (the third keep, at step 3, was the excluded card)
    resume_mandatory(state, rules, row + 1, stage)


@kernel_jit
def preparation(state, rules, start_with):
    """F-TURN-2 / FA-1 from candidate `start_with`: the first one holding
    hand_limit_trigger+ cards discards (PH_DISCARD); else the draw phase."""
    active = state[S_ACTIVE]
    trigger = rules[R_HAND_TRIGGER]
    if start_with == active:
        if hand_size(state, rules, active) >= trigger:
            state[S_PHASE] = PH_DISCARD
            state[S_DECIDER] = active
            return
        if rules[R_FA1] != FA1_BOTH:
            after_hand_check(state, rules)
            return
    other = 1 - active
    if hand_size(state, rules, other) >= trigger:
        state[S_PHASE] = PH_DISCARD
        state[S_DECIDER] = other
        return
    after_hand_check(state, rules)


@kernel_jit
def begin_turn(state, rules):
    """F-TURN-1 for S_ACTIVE: reset per-turn usage, turn cap, preparation."""
    for slot in range(S_NORMAL_PLACED, S_K_USED + 1):
        state[slot] = 0
    if state[S_TURN] > rules[R_TURN_CAP]:
        end_match(state, DRAW_WINNER, END_TURN_CAP)
        return
    preparation(state, rules, state[S_ACTIVE])


@kernel_jit
def end_turn(state, rules):
    state[S_TURN] += 1
    state[S_ACTIVE] = 1 - state[S_ACTIVE]
    begin_turn(state, rules)


@kernel_jit
def new_match(state, rules, faction0, faction1, life0, life1, first, seed):
    """F-SET-1..3: zeroed state, shuffled decks, opening hands, first turn."""
    for slot in range(STATE_SIZE):
        state[slot] = 0
    state[S_RNG] = np.int64(seed)
    state[S_TURN] = 1
    state[S_ACTIVE] = first
    state[S_FIRST] = first
    state[S_SEQ] = 1
    state[S_WINNER] = NO_WINNER
    state[S_LIFE] = life0
    state[S_LIFE + 1] = life1
    state[S_START_LIFE] = life0
    state[S_START_LIFE + 1] = life1
    state[S_FACTION] = faction0
    state[S_FACTION + 1] = faction1
    # The reference starts from PH_PLACEMENT before the first turn begins;
    # it only shows if the match ended before any phase was set.
    state[S_PHASE] = PH_PLACEMENT
    per_player = cards_per_player_in_play(rules)
    for player in range(2):
        deck = S_DECK + player * CARDS_PER_PLAYER
        base = player * CARDS_PER_PLAYER
        for i in range(per_player):  # pack-major, code ascending == id ascending
            card = base + i
            state[deck + i] = card
            place_card(state, card, Z_DECK, player)
        state[S_DECK_COUNT + player] = per_player
        for i in range(per_player - 1, 0, -1):  # Fisher-Yates
            j = nb_below(state, S_RNG, i + 1)
            swap = state[deck + i]
            state[deck + i] = state[deck + j]
            state[deck + j] = swap
    opening = rules[R_OPENING_HAND]
    for _ in range(opening):
        draw_card(state, first)
    for _ in range(opening):
        draw_card(state, 1 - first)
    begin_turn(state, rules)


# ---- legal actions --------------------------------------------------------------------

@kernel_jit
def _discard_actions(state, rules, out):
    player = state[S_DECIDER]
    slot = mask_slot(Z_HAND, player)
    n = 0
    for word in range(MASK_WORDS):
        bits = state[slot + word]
        while bits != 0:
            out[n] = encode(A.DISCARD, (word << WORD_SHIFT) + lowest_bit(bits), 0, 0)
            bits &= bits - 1
            n += 1
    return n


@kernel_jit
def _placement_actions(state, rules, out):
    """END, then PLACE_NORMAL (F-PLC-1/2), then PLACE_FACE (F-PLC-3/5), ascending.

    One walk over the hand's mask emits the normal cards and notes the
    placeable ♦/♠/♣ face cards as bits (`face_bit`: bit order is card-id
    order); a walk over each own row's mask notes p's face cards there the
    same way, so the face-card actions (and displacement choices) follow
    from set bits alone.
    """
    player = state[S_DECIDER]
    normal_placed = state[S_NORMAL_PLACED]
    face_placed = state[S_FACE_PLACED]
    out[0] = encode(A.END, 0, 0, 0)
    n = 1
    hand_faces = 0
    hand = mask_slot(Z_HAND, player)
    for word in range(MASK_WORDS):  # normal and face cards walked apart: no per-card kind test
        bits = state[hand + word] & NORMAL_WORDS[word]
        while bits != 0:
            card = (word << WORD_SHIFT) + lowest_bit(bits)
            bits &= bits - 1
            suit = suit_of_card(card)
            if suit == HEART:
                for row in range(2):
                    if not (normal_placed >> row) & 1:
                        out[n] = encode(A.PLACE_NORMAL, card, row, 0)
                        n += 1
            elif not (normal_placed >> row_of_suit(suit)) & 1:
                out[n] = encode(A.PLACE_NORMAL, card, row_of_suit(suit), 0)
                n += 1
        bits = state[hand + word] & FACE_WORDS[word]
        while bits != 0:
            card = (word << WORD_SHIFT) + lowest_bit(bits)
            bits &= bits - 1
            suit = suit_of_card(card)
            if suit != HEART and not (face_placed >> row_of_suit(suit)) & 1:
                hand_faces |= 1 << face_bit(card)
    if hand_faces == 0:
        return n
    # p's face cards on each row as bits in card-id order. Only p's own ids:
    # no rule moves a face card to the other side (stealing, swapping and
    # pooling effects move normal cards only), so p's rows hold p's faces.
    row0_faces = _row_face_bits(state, player, 0)
    row1_faces = _row_face_bits(state, player, 1)
    row2_faces = _row_face_bits(state, player, 2)
    faces_limit = rules[R_FACES_PER_ROW]
    while hand_faces != 0:  # ascending bits == ascending card ids
        card = face_card_of_bit(lowest_bit(hand_faces))
        hand_faces &= hand_faces - 1
        row = row_of_suit(suit_of_card(card))
        row_faces = row0_faces if row == 0 else (row1_faces if row == 1 else row2_faces)
        if popcount(row_faces) < faces_limit:
            out[n] = encode(A.PLACE_FACE, card, A.NONE, 0)
            n += 1
            continue
        while row_faces != 0:  # F-PLC-5: one action per face card to displace
            out[n] = encode(A.PLACE_FACE, card, face_card_of_bit(lowest_bit(row_faces)), 0)
            row_faces &= row_faces - 1
            n += 1
    return n


@nb.njit(cache=True, inline="always")
def _row_face_bits(state, player, row):
    """`face_bit`s of the face cards `player` controls in the row."""
    slot = mask_slot(Z_ROW0 + row, player)
    faces = 0
    for word in range(MASK_WORDS):
        bits = state[slot + word] & FACE_WORDS[word]
        while bits != 0:
            faces |= 1 << face_bit((word << WORD_SHIFT) + lowest_bit(bits))
            bits &= bits - 1
    return faces


@kernel_jit
def _attack_actions(state, rules, out):
    """END, then ATTACK r t ascending (F-SET-4, F-ATK-1..3, F-TGT, FA-7, FA-8)."""
    out[0] = encode(A.END, 0, 0, 0)
    n = 1
    if state[S_TURN] == 1:  # F-SET-4: the first player's first turn
        return n
    player = state[S_ACTIVE]
    defender = 1 - player
    poly = field_poly(state, rules)
    cards0, normals0, sum0, joker0 = row_stats(state, rules, defender, 0, poly)
    cards1, normals1, sum1, joker1 = row_stats(state, rules, defender, 1, poly)
    cards2, normals2, sum2, joker2 = row_stats(state, rules, defender, 2, poly)
    o0 = row_occupied(rules, cards0, normals0, joker0)
    o1 = row_occupied(rules, cards1, normals1, joker1)
    o2 = row_occupied(rules, cards2, normals2, joker2)
    no_empty_targets = rules[R_FA7] == FA7_NOT_ALLOWED
    for row in range(N_ROWS):
        _, normals, attack_sum, joker = row_stats(state, rules, player, row, poly)
        if not joker and normals == 0:  # F-ATK-2
            continue
        n_targets, first, second = attack_targets(row, o0, o1, o2)
        for k in range(n_targets):
            target = first if k == 0 else second
            if target == DIRECT:
                out[n] = encode(A.ATTACK, row, DIRECT, 0)
                n += 1
                continue
            defended_normals = normals0 if target == 0 else (normals1 if target == 1 else normals2)
            defended_sum = sum0 if target == 0 else (sum1 if target == 1 else sum2)
            if no_empty_targets and defended_normals == 0:
                continue
            if joker or attack_sum > defended_sum:
                out[n] = encode(A.ATTACK, row, target, 0)
                n += 1
    return n


@kernel_jit
def legal_actions(state, rules, out):
    """Write the legal actions in ascending integer order into `out`; return
    how many (0 when the match is over)."""
    phase = state[S_PHASE]
    if phase == PH_OVER:
        return 0
    pending = state[S_PENDING + P_KIND]
    if pending != PENDING_NONE:  # also FA-4/FA-6 decisions at preparation
        return _pending_actions(state, rules, out, pending)
    if phase == PH_DISCARD:
        return _discard_actions(state, rules, out)
    if phase == PH_PLACEMENT:
        n = _placement_actions(state, rules, out)
        n = KH.dispel_actions(state, rules, out, n)  # kinds ascend: DISPEL < jokers < Alien
        n = KJ.joker_actions(state, rules, out, n)
        return KA.alien_actions(state, rules, out, n)
    return _attack_actions(state, rules, out)


@kernel_jit
def _pending_actions(state, rules, out, pending):
    """Legal actions while a multi-step decision is open (layout PENDING_*)."""
    if pending == PENDING_SPECIAL:
        return KA.special_actions(state, rules, out)
    if pending == PENDING_K1_ANSWER or pending == PENDING_K3_ANSWER:
        return KA.answer_actions(state, rules, out)
    if pending == PENDING_TIE:
        return KC.tie_actions(state, rules, out)
    if pending == PENDING_TIMING:
        out[0] = encode(A.MANDATORY_TIMING, 0, 0, 0)
        out[1] = encode(A.MANDATORY_TIMING, 1, 0, 0)
        return 2
    kind = A.RESPOND_SMALL_JOKER if pending == PENDING_RESPOND else A.DUEL
    out[0] = encode(kind, 0, 0, 0)
    out[1] = encode(kind, 1, 0, 0)
    return 2


# ---- applying actions --------------------------------------------------------------------

@kernel_jit
def _discard(state, rules, card):
    """F-TURN-2: one discard; then the next candidate (FA-1) or the draw phase."""
    player = state[S_DECIDER]
    move_card(state, card, Z_GRAVE, owner_of(card))
    state[S_COUNTERS + CT_DISCARDS] += 1
    if hand_size(state, rules, player) > rules[R_HAND_TARGET]:
        return
    if player == state[S_ACTIVE] and rules[R_FA1] == FA1_BOTH:
        preparation(state, rules, 1 - player)
    else:
        after_hand_check(state, rules)


@kernel_jit
def _place_face(state, rules, card, displaced):
    """F-PLC-3 / F-PLC-5: a full row first loses the displaced face card."""
    player = state[S_DECIDER]
    row = row_of_suit(suit_of_card(card))
    if displaced != A.NONE:
        state[S_COUNTERS + CT_FACE_DISPLACED] += 1
        leave_field(state, rules, displaced)
    enter_row(state, card, player, row)
    state[S_FACE_PLACED] |= 1 << row
    if original_number(card) == KH.JACK and KH.is_human(state, player):
        state[S_COUNTERS + CT_POLYMORPH_PLACED] += 1
    KH.check_destiny(state, rules, player)


@kernel_jit
def _attack(state, rules, row, target):
    """F-ATK-3..7, F-TGT-4 (doubling), FA-7."""
    KJ.attack(state, rules, row, target)


@kernel_jit
def apply_action(state, rules, action):
    """Apply one legal action (not checked: the caller took it from legal_actions)."""
    kind = action_kind(action)
    a = action_a(action)
    b = action_b(action)
    c = action & ACTION_FIELD_MASK
    # a FA-6 "choice" pick of an attack's victim completes that attack
    completes_attack = kind == A.TIE_PICK and state[S_PENDING + P_TIE_SITE] == TIE_SITE_ATTACK
    if kind == A.END and state[S_PENDING + P_KIND] == PENDING_SPECIAL:
        KA.decline_special(state, rules)
    elif kind == A.DISCARD:
        _discard(state, rules, a)
    elif kind == A.PLACE_NORMAL:
        player = state[S_DECIDER]
        enter_row(state, a, player, b)
        state[S_NORMAL_PLACED] |= 1 << b
        KH.check_destiny(state, rules, player)
    elif kind == A.PLACE_FACE:
        _place_face(state, rules, a, b)
    elif kind == A.DISPEL:
        KH.dispel(state, rules, a, b, c)
    elif kind == A.EXTRA_PLACE:
        KA.extra_place(state, rules, a)
    elif kind == A.EXTRA_PAIR:
        KA.extra_pair(state, rules, a, b)
    elif kind == A.ALIEN_J_MOVE:
        KA.j_move(state, rules, a)
    elif kind == A.SPECIAL_PICK:
        KA.special_pick(state, rules, a, b)
    elif kind == A.K_ACTIVATE:
        KA.k_activate(state, rules, a, b, c)
    elif kind == A.K_ANSWER:
        KA.k_answer(state, rules, a)
    elif kind == A.PLACE_BIG_JOKER:
        KJ.place_big_joker(state, rules, a, b)
    elif kind == A.SMALL_JOKER:
        KJ.use_small_joker(state, rules, a)
    elif kind == A.RESPOND_SMALL_JOKER:
        KJ.respond(state, rules, a)
    elif kind == A.DUEL:
        KJ.duel_choice(state, rules, a)
    elif kind == A.MANDATORY_TIMING:
        apply_timing(state, rules, a)
    elif kind == A.TIE_PICK:
        apply_tie(state, rules, a)
    elif kind == A.END:
        if state[S_PHASE] == PH_PLACEMENT:
            state[S_PHASE] = PH_ATTACK
        else:
            end_turn(state, rules)
    elif kind == A.ATTACK:
        _attack(state, rules, a, b)
    # FA-29: checked at the end of every action; an effect stopped for a FA-6 pick is
    # checked when the pick completes it
    if rules[R_FA29] == FA29_AFTER_ACTION and state[S_PENDING + P_KIND] != PENDING_TIE:
        check_life(state, rules)
    # F-ATK-1: one attack per turn; the turn ends once it (and any duel or pick) is resolved
    if ((kind == A.ATTACK or kind == A.DUEL or completes_attack) and state[S_PHASE] != PH_OVER
            and state[S_PENDING + P_KIND] == PENDING_NONE):
        end_turn(state, rules)
