"""The numba kernel, part 2: the Human faction and the ♥ Dispeller (§5, F-HRT-1).

Mirrors `reference_human.py` step for step (RNG draws, list orders, step
orders); see `docs/engine-contract.md`, "Human faction and the Dispeller".
Polymorph (the effective number) and the Human penalty live in
`kernel_core.py`, because every part of the kernel reads them.
"""

import numba as nb

from sim.faction_war.kernel_jit import kernel_jit
import numpy as np

from sim.cards import HEART
from sim.faction_war import actions as A
from sim.faction_war.kernel_choices import WAITING, choose_normal, tie_context
from sim.faction_war.kernel_core import (JACK, KING, QUEEN, count_normals,
                                         cards_per_player_in_play, deal_damage, end_match,
                                         is_face_card, is_human, is_normal_card, leave_field,
                                         move_card, nth_normal, on_field_row, original_number, owner_of,
                                         row_effect, sort_segment, suit_of_card)
from sim.faction_war.layout import (C_ARRIVAL, MASK_WORDS,
                                    C_ORDER, C_ZONE, CARDS_PER_PLAYER, CT_COMBO_JK, CT_COMBO_JQ,
                                    CT_COMBO_QK, CT_DISPELS, CT_HUMAN_PENALTY, CT_MIND_MAGIC,
                                    CT_SELF_DESTRUCT, END_DESTINY, N_ROWS, P_KIND, PENDING_NONE,
                                    PH_OVER, S_ACTIVE, S_PENDING, TIE_SITE_CULL, TIE_SITE_MIND_MAGIC,
                                    TIE_SITE_SELF_DESTRUCT,
                                    S_COUNTERS, S_DECIDER, S_HEARTS_USED, S_PHASE, S_RNG, S_TURN,
                                    Z_GRAVE, Z_HAND, Z_ROW0)
from sim.faction_war.rules import (FA5_ONE_PER_TURN, FA9_DAMAGE, FA10_ORDER, FA18_BOTH_PLAYERS_ROW,
                                   FA18_ONE_PLAYER_ROW, R_FA5, R_FA9, R_FA10, R_FA18)
from sim.faction_war.kernel_masks import (FACE_WORDS, HEART_FACE_WORDS, WORD_SHIFT, count_kind, has_kind,
                                          lowest_bit, mask_slot, set_controller)
from sim.rng import nb_below

J_BIT = 1
Q_BIT = 2
K_BIT = 4


# ---- mandatory each-own-turn effects (F-TURN-5, FA-4) -----------------------------------

@kernel_jit
def mandatory_effects(state, rules, first_row, stage):
    """Human Q, K and combinations of the turn player, rows 1 → 3 (from `first_row`:
    a FA-6 "choice" decision stops the walk, `kernel.resume_after_tie` resumes it;
    `stage` is the FA-4 moment, STAGE_BEFORE_DRAW or STAGE_AFTER_DRAW)."""
    player = state[S_ACTIVE]
    if not is_human(state, player):
        return
    for row in range(first_row, N_ROWS):
        if state[S_PHASE] == PH_OVER or state[S_PENDING + P_KIND] != PENDING_NONE:
            return
        bits, since = row_effect(state, rules, player, row)
        if bits == 0 or bits == J_BIT or since >= state[S_TURN]:  # F-TURN-6
            continue
        if bits == Q_BIT:
            _mind_magic(state, rules, player, row, stage)
        elif bits == K_BIT:
            _self_destruct(state, rules, player, row, stage)
        elif bits == J_BIT | Q_BIT:
            _combo_swap(state, rules, player, row)
        elif bits == J_BIT | K_BIT:
            _combo_cull(state, rules, player, row, stage)
        else:
            _combo_pool(state, rules, player, row)


@kernel_jit
def _mind_magic(state, rules, player, row, stage):
    """F-HUQ-1: steal the opponent's smallest normal card of the row (F-ATK-5 order)."""
    opponent = 1 - player
    if count_normals(state, rules, opponent, row) == 0:
        return
    card = choose_normal(state, rules, row, 1 << opponent, -1, False, TIE_SITE_MIND_MAGIC,
                         tie_context(stage, 0, -1, -1))
    if card != WAITING:
        steal(state, player, card)


@kernel_jit
def steal(state, player, card):
    set_controller(state, card, player)
    state[S_COUNTERS + CT_MIND_MAGIC] += 1


@kernel_jit
def _self_destruct(state, rules, player, row, stage):
    """F-HUK-1: the largest normal card of both rows is destroyed."""
    if count_normals(state, rules, player, row) == 0 or count_normals(state, rules, 1 - player, row) == 0:
        return
    card = choose_normal(state, rules, row, 3, -1, True, TIE_SITE_SELF_DESTRUCT, tie_context(stage, 0, -1, -1))
    if card != WAITING:
        destroy_largest(state, rules, card)


@kernel_jit
def destroy_largest(state, rules, card):
    state[S_COUNTERS + CT_SELF_DESTRUCT] += 1
    leave_field(state, rules, card)


@kernel_jit
def _combo_swap(state, rules, player, row):
    """F-HUC-JQ: one random normal card of each side's row changes sides."""
    mine = count_normals(state, rules, player, row)
    theirs = count_normals(state, rules, 1 - player, row)
    if mine == 0 or theirs == 0:
        return
    given = nth_normal(state, rules, player, row, nb_below(state, S_RNG, mine))
    taken = nth_normal(state, rules, 1 - player, row, nb_below(state, S_RNG, theirs))
    set_controller(state, given, 1 - player)
    set_controller(state, taken, player)
    state[S_COUNTERS + CT_COMBO_JQ] += 1


@kernel_jit
def _combo_cull(state, rules, player, row, stage):
    """F-HUC-JK: each side keeps its two largest normal cards of the row."""
    if min(count_normals(state, rules, player, row), count_normals(state, rules, 1 - player, row)) <= 1:
        return
    state[S_COUNTERS + CT_COMBO_JK] += 1
    cull_from(state, rules, player, row, stage, 0, -1, -1, -1, -1)


@kernel_jit
def cull_from(state, rules, player, row, stage, step, keep0a, keep0b, keep1a, chosen):
    """The J+K cull from pick `step` (0..3: own first and second, then the opponent's),
    with the keeps so far and `chosen` (a FA-6 "choice" pick for `step`, -1: none);
    returns False when another decision interrupts it."""
    keep1b = -1
    while step < 4:
        if chosen >= 0:
            card = chosen
            chosen = -1
        else:
            side = player if step < 2 else 1 - player
            exclude = -1 if step % 2 == 0 else (keep0a if step == 1 else keep1a)
            card = choose_normal(state, rules, row, 1 << side, exclude, True, TIE_SITE_CULL,
                                 tie_context(stage, step, keep0a, keep0b))
            if card == WAITING:
                return False
        if step == 0:
            keep0a = card
        elif step == 1:
            keep0b = card
        elif step == 2:
            keep1a = card
        else:
            keep1b = card
        step += 1
    per_player = cards_per_player_in_play(rules)
    for side in range(2):
        holder = player if side == 0 else 1 - player
        keep_a = keep0a if side == 0 else keep1a
        keep_b = keep0b if side == 0 else keep1b
        for owner in range(2):
            base = owner * CARDS_PER_PLAYER
            for card in range(base, base + per_player):
                if (on_field_row(state, card, holder, row) and is_normal_card(card)
                        and card != keep_a and card != keep_b):
                    leave_field(state, rules, card)
    return True


@nb.njit(cache=True, _nrt=True)  # allocates: reference counting on, even when a `kernel_jit` caller has it off
def _combo_pool(state, rules, player, row):
    """F-HUC-QK: pool both rows, two random cards to the graveyard, split the rest."""
    n_mine = count_normals(state, rules, player, row)
    n_total = n_mine + count_normals(state, rules, 1 - player, row)
    if n_total == 0 or n_total % 2:
        return
    state[S_COUNTERS + CT_COMBO_QK] += 1
    # pooled list as card ids; a rare effect, so a small allocation is acceptable here
    pooled = np.empty(n_total, dtype=np.int64)
    k = 0
    per_player = cards_per_player_in_play(rules)
    for side in range(2):
        holder = player if side == 0 else 1 - player
        for owner in range(2):
            base = owner * CARDS_PER_PLAYER
            for card in range(base, base + per_player):
                if on_field_row(state, card, holder, row) and is_normal_card(card):
                    pooled[k] = card
                    k += 1
    for _ in range(2):
        index = nb_below(state, S_RNG, k)
        card = pooled[index]
        for i in range(index, k - 1):
            pooled[i] = pooled[i + 1]
        k -= 1
        leave_field(state, rules, card)
    for i in range(k - 1, 0, -1):
        j = nb_below(state, S_RNG, i + 1)
        swap = pooled[i]
        pooled[i] = pooled[j]
        pooled[j] = swap
    half = k // 2
    for index in range(k):
        set_controller(state, pooled[index], player if index < half else 1 - player)


# ---- F-HRT-1 Dispeller (both factions) --------------------------------------------------

@kernel_jit
def dispel_actions(state, rules, out, n):
    """DISPEL actions of the decider appended to out[n:], ascending; returns the new n."""
    if rules[R_FA5] == FA5_ONE_PER_TURN and state[S_HEARTS_USED] >= 1:
        return n
    hand = mask_slot(Z_HAND, state[S_DECIDER])
    start = n
    scope = rules[R_FA18]
    per_player = cards_per_player_in_play(rules)
    faces = -1  # face cards per (player, row), 8 bits each (`_all_row_faces`), once needed
    for word in range(MASK_WORDS):  # the ♥ J/Q/K in hand, ascending id; usually none at all
        dispellers = state[hand + word] & HEART_FACE_WORDS[word]
        while dispellers != 0:
            heart = (word << WORD_SHIFT) + lowest_bit(dispellers)
            dispellers &= dispellers - 1
            if faces < 0:
                faces = _all_row_faces(state, rules)
            for p in range(2):
                for row in range(N_ROWS):
                    faces_here = (faces >> (8 * (p * N_ROWS + row))) & 255
                    if scope == FA18_ONE_PLAYER_ROW:
                        if faces_here > 0:
                            out[n] = A_encode(A.DISPEL, heart, p, row)
                            n += 1
                    elif scope == FA18_BOTH_PLAYERS_ROW:
                        if p == 0 and (faces_here > 0 or (faces >> (8 * (N_ROWS + row))) & 255 > 0):
                            out[n] = A_encode(A.DISPEL, heart, A.BOTH_PLAYERS, row)
                            n += 1
            if scope != FA18_ONE_PLAYER_ROW and scope != FA18_BOTH_PLAYERS_ROW:
                for owner in range(2):
                    obase = owner * CARDS_PER_PLAYER
                    for card in range(obase, obase + per_player):
                        zone = state[C_ZONE + card]
                        if Z_ROW0 <= zone < Z_ROW0 + N_ROWS and is_face_card(card):
                            out[n] = A_encode(A.DISPEL, heart, A.NONE, card)
                            n += 1
    sort_segment(out, start, n)
    return n


@nb.njit(cache=True, inline="always")
def A_encode(kind, a, b, c):
    return (kind << 24) | (a << 16) | (b << 8) | c


@kernel_jit
def _all_row_faces(state, rules):
    """`kernel_core.count_faces` of every (player, row): count (p * 3 + row) in bits
    8k..8k+7 (a row holds at most 24 face cards, two packs, so 8 bits suffice).
    Face cards never change sides, so p's rows hold only p's own."""
    counts = 0
    for p in range(2):
        for row in range(N_ROWS):
            counts += count_kind(state, mask_slot(Z_ROW0 + row, p), FACE_WORDS) << (8 * (p * N_ROWS + row))
    return counts


@kernel_jit
def dispel(state, rules, heart, target, where):
    """F-HRT-1 with FA-18; F-HUP-1 for Human-owned cards and FA-9 for the user."""
    player = state[S_DECIDER]
    state[S_HEARTS_USED] += 1
    state[S_COUNTERS + CT_DISPELS] += 1
    if target == A.NONE:
        leave_field(state, rules, where)
    else:
        for p in range(2):
            if target != A.BOTH_PLAYERS and p != target:
                continue
            base = p * CARDS_PER_PLAYER
            for card in range(base, base + cards_per_player_in_play(rules)):
                if on_field_row(state, card, p, where) and is_face_card(card):
                    leave_field(state, rules, card)
    move_card(state, heart, Z_GRAVE, player)
    if is_human(state, player) and rules[R_FA9] == FA9_DAMAGE:
        state[S_COUNTERS + CT_HUMAN_PENALTY] += 1
        deal_damage(state, rules, player, 1)


# ---- F-HUW-1 Destiny ----------------------------------------------------------------------

@nb.njit(cache=True, inline="always")
def _arrived_this_turn(state, player, row, turn):
    """(lowest-id normal card, lowest-id face card) owned by `player` that arrived on
    the player's row this turn, -1 where none (stolen cards do not count)."""
    normal = -1
    face = -1
    slot = mask_slot(Z_ROW0 + row, player)
    for word in range(MASK_WORDS):
        bits = state[slot + word]
        while bits != 0:
            card = (word << WORD_SHIFT) + lowest_bit(bits)
            bits &= bits - 1
            if owner_of(card) != player or state[C_ARRIVAL + card] != turn:
                continue
            if is_normal_card(card):
                if normal < 0:
                    normal = card
            elif is_face_card(card) and face < 0:
                face = card
    return normal, face


@kernel_jit
def check_destiny(state, rules, player):
    """F-HUW-1 / FA-10: 8-9-10 (or 10-9-8) and J-Q-K (or K-Q-J) placed this turn."""
    if not is_human(state, player) or state[S_PHASE] == PH_OVER:
        return
    for row in range(N_ROWS):  # the usual case, from the masks: some own row holds no face card
        if not has_kind(state, mask_slot(Z_ROW0 + row, player), FACE_WORDS):
            return
    turn = state[S_TURN]
    # the lowest-id own normal and face card placed this turn on each own row
    n0, f0 = _arrived_this_turn(state, player, 0, turn)
    if n0 < 0 or f0 < 0:
        return
    n1, f1 = _arrived_this_turn(state, player, 1, turn)
    n2, f2 = _arrived_this_turn(state, player, 2, turn)
    if n0 < 0 or n1 < 0 or n2 < 0 or f0 < 0 or f1 < 0 or f2 < 0:
        return
    a, b, c = original_number(n0), original_number(n1), original_number(n2)
    if not ((a == 8 and b == 9 and c == 10) or (a == 10 and b == 9 and c == 8)):
        return
    x, y, z = original_number(f0), original_number(f1), original_number(f2)
    if not ((x == JACK and y == QUEEN and z == KING) or (x == KING and y == QUEEN and z == JACK)):
        return
    # suits: ♦/♥ 8-10 in row 1, ♠/♥ 9 in row 2, ♣ in row 3, face cards of the row's suit
    # (placement guarantees this; a sandbox position may not)
    s0, s1, s2 = suit_of_card(n0), suit_of_card(n1), suit_of_card(n2)
    if not ((s0 == 0 or s0 == HEART) and (s1 == 1 or s1 == HEART) and s2 == 2
            and suit_of_card(f0) == 0 and suit_of_card(f1) == 1 and suit_of_card(f2) == 2):
        return
    if rules[R_FA10] == FA10_ORDER:
        o = (state[C_ORDER + n0], state[C_ORDER + n1], state[C_ORDER + n2],
             state[C_ORDER + f0], state[C_ORDER + f1], state[C_ORDER + f2])
        for i in range(5):
            if o[i] > o[i + 1]:
                return
    end_match(state, player, END_DESTINY)
