"""The numba kernel, part 4: jokers of both factions and the attack (§4, §7).

Mirrors `reference_jokers.py` and `reference.Match._attack` step for step:
big-joker placement with the opponent's small-joker response (pending
RESPOND), the small joker, the Holy Grail and Abyss Magic attacks, the joker
duel (pending DUEL, attacker first), and the plain row hit of F-ATK-4..6.
"""

import numba as nb

from sim.faction_war.kernel_jit import kernel_jit

from sim.cards import BIG_JOKER, CARDS_PER_PACK, HEART, SMALL_JOKER
from sim.faction_war import actions as A
from sim.faction_war.kernel_core import (big_joker_in, cards_per_player_in_play,
                                         count_faces, count_normals, deal_damage,
                                         deal_damage_both, deck_remove_at, effective_number,
                                         enter_row, exile_card, heal, is_alien,
                                         is_face_card, is_human, is_normal_card, leave_faces,
                                         leave_field, leave_field_from, move_card, on_field_row,
                                         original_number, owner_of, packs_in_play,
                                         row_sum, special_placement_cost, suit_of_card)
from sim.faction_war.kernel_alien import clear_pending
from sim.faction_war.kernel_choices import WAITING, choose_normal
from sim.faction_war.kernel_masks import JOKER_WORDS, NORMAL_WORDS, WORD_SHIFT, has_kind, lowest_bit, mask_slot
from sim.faction_war.layout import (C_CTRL, C_ZONE, CARDS_PER_PLAYER, CT_ABYSS_EXILES, CT_ATTACKS, MASK_WORDS,
                                    CT_BIG_JOKER_PLACED, CT_DIRECT_ATTACKS, CT_DOUBLED_ATTACKS,
                                    CT_EMPTY_ROW_HITS, CT_JOKER_DUELS, CT_SMALL_JOKER_RESPONSES,
                                    CT_SMALL_JOKER_USED, DIRECT, N_ROWS, P_COUNT, P_FLAGS, P_KIND,
                                    P_OWNER, P_PLAYER, P_TARGET, PENDING_DUEL, PENDING_RESPOND,
                                    PENDING_TIE, PH_OVER, TIE_SITE_ATTACK, S_ACTIVE, S_COUNTERS, S_DECIDER, S_DECK_COUNT,
                                    S_PENDING, S_PHASE, S_RNG, Z_DECK, Z_EXILE, Z_GRAVE, Z_HAND,
                                    Z_ROW0)
from sim.faction_war.rules import (FA7_FACES_LOST, FA19_EXILED_ZERO, FA20_GRAVEYARD, FA21_ALL,
                                   FA22_ALSO, FA23_SPECIAL, FA23_WITH_FACES, FA23_WITH_HEARTS,
                                   FA25_WHOLE_ZONE, FA27_BOTH_LOSE, FA28_RESOLVES, R_FA7, R_FA19,
                                   R_FA20, R_FA21, R_FA22, R_FA23, R_FA25, R_FA27, R_FA28,
                                   R_FACES_PER_ROW)
from sim.rng import nb_below

JOKER_DUEL_DAMAGE = 10  # F-JOK-D-1
ABYSS_HEAL = 10  # F-JOK-A-4
RESPONSE_COST = 5  # F-JOK-S-2
DIRECT_EXILE_CARDS = 5  # F-JOK-A-3


@nb.njit(cache=True, inline="always")
def _encode(kind, a, b, c):
    return (kind << 24) | (a << 16) | (b << 8) | c


@kernel_jit
def big_joker_on_field(state, rules, player):
    """(card, row) of the player's big joker on the field, or (-1, -1)."""
    for row in range(N_ROWS):
        card = big_joker_in(state, rules, player, row)
        if card >= 0:
            return card, row
    return -1, -1


@kernel_jit
def _hand_joker(state, rules, player, code):
    """The lowest-id joker of `code` in the player's hand, or -1."""
    for pack in range(packs_in_play(rules)):
        card = player * CARDS_PER_PLAYER + pack * CARDS_PER_PACK + code
        if state[C_ZONE + card] == Z_HAND:
            return card
    return -1


# ---- placement-phase actions ----------------------------------------------------------

@kernel_jit
def _rows_with_normals(state, rules, player):
    """Bit r set: `player` controls a normal card in row r (`count_normals` > 0)."""
    rows = 0
    for row in range(N_ROWS):
        if count_normals(state, rules, player, row) > 0:
            rows |= 1 << row
    return rows


@kernel_jit
def joker_actions(state, rules, out, n):
    """F-JOK-1, F-JOK-H-1, F-JOK-A-1 placements; F-JOK-S-1 own-turn use (ascending)."""
    player = state[S_DECIDER]
    if not has_kind(state, mask_slot(Z_HAND, player), JOKER_WORDS):
        return n  # every action here plays a joker from the hand; most hands hold none
    alien = is_alien(state, player)
    if big_joker_on_field(state, rules, player)[0] < 0:
        rows_with_normals = -1  # bit r: the player controls a normal card in row r (Alien only)
        for pack in range(packs_in_play(rules)):
            card = player * CARDS_PER_PLAYER + pack * CARDS_PER_PACK + BIG_JOKER
            if state[C_ZONE + card] != Z_HAND:
                continue
            if alien and rows_with_normals < 0:
                rows_with_normals = _rows_with_normals(state, rules, player)
            for row in range(N_ROWS):
                if alien and not (rows_with_normals >> row) & 1:
                    continue  # F-JOK-A-1: only next to an own normal card
                out[n] = _encode(A.PLACE_BIG_JOKER, card, row, 0)
                n += 1
    if big_joker_on_field(state, rules, 1 - player)[0] >= 0:
        for pack in range(packs_in_play(rules)):
            card = player * CARDS_PER_PLAYER + pack * CARDS_PER_PACK + SMALL_JOKER
            if state[C_ZONE + card] == Z_HAND:
                out[n] = _encode(A.SMALL_JOKER, card, 0, 0)
                n += 1
    return n


@kernel_jit
def place_big_joker(state, rules, card, row):
    player = state[S_DECIDER]
    enter_row(state, card, player, row)
    state[S_COUNTERS + CT_BIG_JOKER_PLACED] += 1
    responder = 1 - player
    if _hand_joker(state, rules, responder, SMALL_JOKER) >= 0:  # F-JOK-S-2
        state[S_PENDING + P_KIND] = PENDING_RESPOND
        state[S_PENDING + P_PLAYER] = responder
        state[S_PENDING + P_OWNER] = player
        state[S_DECIDER] = responder


@kernel_jit
def joker_leaves(state, rules, joker):
    """F-JOK-A-4: an Alien big joker is exiled and heals its owner 10; a Human one is buried."""
    owner = owner_of(joker)
    if is_alien(state, owner):
        exile_card(state, rules, joker, state[C_ZONE + joker], state[C_CTRL + joker])
        heal(state, rules, owner, ABYSS_HEAL)
    else:
        move_card(state, joker, Z_GRAVE, owner)


@kernel_jit
def _destroy_big_joker(state, rules, joker, row):
    """A big joker leaves the field with the face cards of its row."""
    owner = state[C_CTRL + joker]
    joker_leaves(state, rules, joker)
    leave_faces(state, rules, owner, row)


@kernel_jit
def _small_joker_strike(state, rules, user, card):
    joker, row = big_joker_on_field(state, rules, 1 - user)
    move_card(state, card, Z_GRAVE, user)
    _destroy_big_joker(state, rules, joker, row)


@kernel_jit
def use_small_joker(state, rules, card):
    """F-JOK-S-1 in the own placement phase: no cost."""
    state[S_COUNTERS + CT_SMALL_JOKER_USED] += 1
    _small_joker_strike(state, rules, state[S_DECIDER], card)


@kernel_jit
def respond(state, rules, use):
    """F-JOK-S-2: the answer to the opponent's big joker (use costs 5)."""
    responder = state[S_PENDING + P_PLAYER]
    placer = state[S_PENDING + P_OWNER]
    clear_pending(state, placer)
    if not use:
        return
    state[S_COUNTERS + CT_SMALL_JOKER_RESPONSES] += 1
    _small_joker_strike(state, rules, responder, _hand_joker(state, rules, responder, SMALL_JOKER))
    deal_damage(state, rules, responder, RESPONSE_COST)


# ---- attacks ------------------------------------------------------------------------------

@kernel_jit
def plain_row_hit(state, rules, row, target):
    """F-ATK-4..6 on the defender's row: the smallest normal card leaves, damage (doubled)."""
    defender = 1 - state[S_ACTIVE]
    # F-ATK-4, F-ATK-5; no candidate (-1, and no draw made) is the empty row of F-ATK-6;
    # WAITING: the attacker picks among tied cards first (FA-6 "choice")
    victim = choose_normal(state, rules, target, 1 << defender, -1, False, TIE_SITE_ATTACK, row)
    if victim == WAITING:
        return
    if victim < 0:  # F-ATK-6, FA-7
        state[S_COUNTERS + CT_EMPTY_ROW_HITS] += 1
        if rules[R_FA7] == FA7_FACES_LOST:
            leave_faces(state, rules, defender, target)
        return
    row_hit_with(state, rules, row, target, victim)


@kernel_jit
def row_hit_with(state, rules, row, target, victim):
    """F-ATK-4 with the victim chosen: it leaves the field, the defender takes its number."""
    defender = 1 - state[S_ACTIVE]
    damage = effective_number(state, rules, victim)
    if row == 0 and target == 2:  # F-TGT-1 / F-TGT-4
        damage *= 2
        state[S_COUNTERS + CT_DOUBLED_ATTACKS] += 1
    leave_field_from(state, rules, victim, row)
    deal_damage(state, rules, defender, damage)


@kernel_jit
def exile_points(state, rules, player):
    """Point sum of a player's exile zone: normal numbers, 0 for others (F-CARD-3)."""
    total = 0
    slot = mask_slot(Z_EXILE, player)
    for word in range(MASK_WORDS):
        bits = state[slot + word] & NORMAL_WORDS[word]
        while bits != 0:
            total += original_number((word << WORD_SHIFT) + lowest_bit(bits))
            bits &= bits - 1
    return total


@kernel_jit
def _leave_as_exile(state, rules, card):
    """An Alien effect exiles a field card (FA-20 may bury a Human's card instead)."""
    from_zone = state[C_ZONE + card]
    from_ctrl = state[C_CTRL + card]
    if not is_alien(state, owner_of(card)) and rules[R_FA20] == FA20_GRAVEYARD:
        leave_field(state, rules, card)
    else:
        exile_card(state, rules, card, from_zone, from_ctrl)


@kernel_jit
def _abyss_row_hit(state, rules, row, target):
    """F-JOK-A-2 with FA-22 and FA-25: exile the row, then each takes their exile sum."""
    player = state[S_ACTIVE]
    defender = 1 - player
    if rules[R_FA22] == FA22_ALSO and count_normals(state, rules, defender, target) > 0:
        plain_row_hit(state, rules, row, target)
        if state[S_PHASE] == PH_OVER or state[S_PENDING + P_KIND] == PENDING_TIE:
            return  # over, or the attacker picks the victim first (FA-6 "choice")
    _abyss_exile_row(state, rules, row, target)


@kernel_jit
def _abyss_exile_row(state, rules, row, target):
    """F-JOK-A-2 after any F-ATK-4 hit: the row is exiled, each takes their exile sum."""
    defender = 1 - state[S_ACTIVE]
    exiled = 0
    exiled_sum = 0
    per_player = cards_per_player_in_play(rules)
    for owner in range(2):
        base = owner * CARDS_PER_PLAYER
        for card in range(base, base + per_player):
            if not on_field_row(state, card, defender, target) or not is_normal_card(card):
                continue
            _leave_as_exile(state, rules, card)
            if state[C_ZONE + card] == Z_EXILE:
                exiled += 1
                exiled_sum += original_number(card)
    leave_faces(state, rules, defender, target)
    state[S_COUNTERS + CT_ABYSS_EXILES] += exiled
    damage0 = 0
    damage1 = 0
    if rules[R_FA25] == FA25_WHOLE_ZONE:
        damage0 = exile_points(state, rules, 0)
        damage1 = exile_points(state, rules, 1)
    elif defender == 0:
        damage0 = exiled_sum
    else:
        damage1 = exiled_sum
    if row == 0 and target == 2:  # F-TGT-4: the defender's share is doubled
        if defender == 0:
            damage0 *= 2
        else:
            damage1 *= 2
    deal_damage_both(state, rules, damage0, damage1)


@kernel_jit
def _abyss_direct(state, rules, defender):
    """F-JOK-A-3 / FA-19: five random deck cards of the defender leave; they take the points."""
    points = 0
    times = min(DIRECT_EXILE_CARDS, state[S_DECK_COUNT + defender])
    for _ in range(times):
        index = nb_below(state, S_RNG, state[S_DECK_COUNT + defender])
        card = deck_remove_at(state, defender, index)
        if is_normal_card(card):
            points += original_number(card)
            if not is_alien(state, defender) and rules[R_FA20] == FA20_GRAVEYARD:
                move_card(state, card, Z_GRAVE, defender)
            else:
                exile_card(state, rules, card, Z_DECK, defender)
                state[S_COUNTERS + CT_ABYSS_EXILES] += 1
        elif not is_face_card(card) and rules[R_FA19] == FA19_EXILED_ZERO:
            exile_card(state, rules, card, Z_DECK, defender)
        else:  # face cards, and jokers read like face cards: graveyard, 1 point
            points += 1
            move_card(state, card, Z_GRAVE, defender)
    deal_damage(state, rules, defender, points)


@kernel_jit
def joker_attack(state, rules, row, target):
    """F-JOK-H-1/2, F-JOK-A-2/3: the attack of a big-joker row (it always succeeds)."""
    player = state[S_ACTIVE]
    defender = 1 - player
    if is_human(state, player):
        if target == DIRECT:  # F-JOK-H-2, FA-21
            every = rules[R_FA21] == FA21_ALL
            per_player = cards_per_player_in_play(rules)
            for owner in range(2):  # faces never change sides: ascending id is owner-major
                if not every and owner != defender:
                    continue
                base = owner * CARDS_PER_PLAYER
                for card in range(base, base + per_player):
                    zone = state[C_ZONE + card]
                    if Z_ROW0 <= zone < Z_ROW0 + N_ROWS and state[C_CTRL + card] == owner and is_face_card(card):
                        leave_field(state, rules, card)
            return
        leave_faces(state, rules, defender, target)  # F-JOK-H-1
        plain_row_hit(state, rules, row, target)
        return
    if target == DIRECT:
        _abyss_direct(state, rules, defender)
    else:
        _abyss_row_hit(state, rules, row, target)


@kernel_jit
def _after_attack(state, rules, row):
    """F-JOK-A-4: the attacking Alien big joker is exiled and heals 10."""
    joker = big_joker_in(state, rules, state[S_ACTIVE], row)
    if joker >= 0 and is_alien(state, owner_of(joker)) and state[S_PHASE] != PH_OVER:
        joker_leaves(state, rules, joker)


@kernel_jit
def attack(state, rules, row, target):
    """F-ATK-3..7, F-TGT-4 (doubling); big-joker rows: F-JOK-2, the duel, the joker attacks."""
    player = state[S_ACTIVE]
    defender = 1 - player
    state[S_COUNTERS + CT_ATTACKS] += 1
    joker = big_joker_in(state, rules, player, row)
    if target == DIRECT:
        state[S_COUNTERS + CT_DIRECT_ATTACKS] += 1
    if joker >= 0:
        if target != DIRECT and big_joker_in(state, rules, defender, target) >= 0:
            _open_duel(state, row, target)  # F-JOK-D-1
            return
        joker_attack(state, rules, row, target)
        if state[S_PENDING + P_KIND] != PENDING_TIE:  # else after the victim pick (FA-6)
            _after_attack(state, rules, row)
    elif target == DIRECT:  # F-ATK-7 (the row sum is only read here)
        deal_damage(state, rules, defender, row_sum(state, rules, player, row))
    else:
        plain_row_hit(state, rules, row, target)


# ---- F-JOK-D-1 the joker duel ------------------------------------------------------------

@kernel_jit
def _open_duel(state, row, target):
    state[S_COUNTERS + CT_JOKER_DUELS] += 1
    state[S_PENDING + P_KIND] = PENDING_DUEL
    state[S_PENDING + P_PLAYER] = state[S_ACTIVE]
    state[S_PENDING + P_TARGET] = row
    state[S_PENDING + P_COUNT] = target
    state[S_PENDING + P_OWNER] = state[S_ACTIVE]
    state[S_PENDING + P_FLAGS] = 0


@kernel_jit
def _lose_duel(state, rules, player, joker_row):
    """The loser's joker is destroyed, they take 10, their joker row's face cards go."""
    joker = big_joker_in(state, rules, player, joker_row)
    if joker < 0:
        return
    joker_leaves(state, rules, joker)
    deal_damage(state, rules, player, JOKER_DUEL_DAMAGE)
    leave_faces(state, rules, player, joker_row)


@kernel_jit
def _duel_put_down(state, rules, player, row):
    """FA-23: the hand cards of the joker row's suit go into that row."""
    reading = rules[R_FA23]
    placed = 0
    base = player * CARDS_PER_PLAYER
    for card in range(base, base + cards_per_player_in_play(rules)):
        if state[C_ZONE + card] != Z_HAND:
            continue
        suit = suit_of_card(card)
        normal = is_normal_card(card)
        fits = normal and suit == row
        if reading == FA23_WITH_HEARTS and normal and suit == HEART and row < 2:
            fits = True
        if (reading == FA23_WITH_FACES and is_face_card(card) and suit == row
                and count_faces(state, rules, player, row) < rules[R_FACES_PER_ROW]):
            fits = True
        if fits:
            enter_row(state, card, player, row)
            placed += 1
    if reading == FA23_SPECIAL and is_alien(state, player):
        special_placement_cost(state, rules, player, placed)


@kernel_jit
def duel_choice(state, rules, commit):
    """Attacker, then defender: commit or give up; both committed → the hand duel."""
    chooser = state[S_PENDING + P_PLAYER]
    attacker = state[S_ACTIVE]
    row = state[S_PENDING + P_TARGET]
    target = state[S_PENDING + P_COUNT]
    if commit and chooser == attacker:
        state[S_PENDING + P_PLAYER] = 1 - attacker
        state[S_DECIDER] = 1 - attacker
        return
    clear_pending(state, attacker)
    defender_lost = False
    if not commit:
        _lose_duel(state, rules, chooser, row if chooser == attacker else target)
        defender_lost = chooser != attacker
    else:
        _duel_put_down(state, rules, attacker, row)
        _duel_put_down(state, rules, 1 - attacker, target)
        sum_attacker = row_sum(state, rules, attacker, row)
        sum_defender = row_sum(state, rules, 1 - attacker, target)
        if sum_attacker < sum_defender:
            _lose_duel(state, rules, attacker, row)
        elif sum_defender < sum_attacker:
            _lose_duel(state, rules, 1 - attacker, target)
            defender_lost = True
        elif rules[R_FA27] == FA27_BOTH_LOSE:
            _lose_duel(state, rules, attacker, row)
            _lose_duel(state, rules, 1 - attacker, target)
    if (defender_lost and state[S_PHASE] != PH_OVER and rules[R_FA28] == FA28_RESOLVES
            and big_joker_in(state, rules, attacker, row) >= 0):
        joker_attack(state, rules, row, target)
    if state[S_PHASE] != PH_OVER and state[S_PENDING + P_KIND] != PENDING_TIE:
        _after_attack(state, rules, row)


@kernel_jit
def finish_joker_row_hit(state, rules, row, target):
    """What follows the F-ATK-4 hit of a big-joker row once the victim was picked
    (FA-6 "choice"): Abyss Magic's exile step, then the Abyss joker leaves."""
    if big_joker_in(state, rules, state[S_ACTIVE], row) < 0:
        return  # a plain attack
    if not is_human(state, state[S_ACTIVE]):
        if state[S_PHASE] == PH_OVER:
            return
        _abyss_exile_row(state, rules, row, target)
    if state[S_PHASE] != PH_OVER:
        _after_attack(state, rules, row)

