"""The "greedy" strategy: the best-looking action one step ahead.

Every legal action gets an integer score from the player's view; the highest
wins (ties: the lowest index, i.e. the smallest action integer, so the
choice is deterministic and needs no policy draws). The heuristic, by phase:

- Discard (F-TURN-2): throw away the card worth least *under the base
  rules*: jokers first (not playable yet), then ♥ J/Q/K (the Dispeller is
  not implemented yet), then other face cards (they only occupy slots), then
  the lowest normal card.
- Placement: play every normal card it can, the largest first. Cards of
  ♦/♠/♣ go before ♥ cards because they have only one row; a ♥ card prefers
  row 1 (♦): the front row is what most opponent attacks hit (F-TGT), and a
  higher front sum stops those attacks (F-ATK-3). A higher row sum is both
  offence (it may attack rows with a smaller sum) and defence. Face cards
  are placed while the row has room; it never displaces one (no effects in
  the base rules, so displacing gains nothing). Then it ends the placement.
- Attack: lethal first (damage >= the opponent's life); otherwise the most
  damage: a direct attack deals the row's sum (F-ATK-7), a row attack the
  victim's number (F-ATK-4/5), doubled for row 1 → row 3 (F-TGT-1). Ties go
  to the target row with fewer normal cards (emptying rows opens direct
  attacks). An attack that deals nothing still beats not attacking, since
  attacking costs nothing under the base rules.

Later issues (face-card effects, jokers) will extend the scores.
"""

import numba as nb
import numpy as np

from sim.cards import HEART
from sim.faction_war import actions as A
from sim.faction_war.kernel import (ROW_SUMMARY_SIZE, RS_MIN_NUMBER, RS_NORMALS, RS_SUM, RS_WIDTH,
                                    action_a, action_b, action_kind, effective_number,
                                    is_face_card, is_normal_card, original_number, row_summary,
                                    suit_of_card)
from sim.faction_war.layout import DIRECT, N_ROWS, PH_DISCARD, PH_PLACEMENT, S_LIFE, S_PHASE

# discard: keep values (lowest is thrown away first)
KEEP_JOKER = 0
KEEP_HEART_FACE = 1
KEEP_FACE = 2
KEEP_NORMAL_BASE = 2  # + the card's number
# placement scores
SCORE_END = 0
SCORE_SUITED_NORMAL = 200  # + number: one possible row, place first
SCORE_HEART_NORMAL = 100  # + number
HEART_FRONT_ROW_BONUS = 5
SCORE_FACE = 50
SCORE_DISPLACE = -1  # worse than ending the placement
# attack scores
DAMAGE_WEIGHT = 16
FEWEST_NORMALS_CAP = 8
SCORE_ATTACK_BASE = 2
SCORE_ATTACK_NOTHING = 1
SCORE_LETHAL = 1 << 40
NO_SCORE = -(1 << 62)
DOUBLED_FROM_ROW, DOUBLED_TO_ROW = 0, 2  # F-TGT-1: row 1 attacking row 3


@nb.njit(cache=True)
def keep_value(view, rules, card):
    """How much the greedy player wants to keep a hand card (base rules)."""
    if is_normal_card(card):
        return KEEP_NORMAL_BASE + original_number(card)
    if is_face_card(card):
        return KEEP_HEART_FACE if suit_of_card(card) == HEART else KEEP_FACE
    return KEEP_JOKER


@nb.njit(cache=True)
def _attack_score(view, rules, summary, seat, row, target):
    opponent = 1 - seat
    if target == DIRECT:
        damage = summary[(seat * N_ROWS + row) * RS_WIDTH + RS_SUM]
        fewest_bonus = FEWEST_NORMALS_CAP
    else:
        normals = summary[(opponent * N_ROWS + target) * RS_WIDTH + RS_NORMALS]
        if normals == 0:
            return SCORE_ATTACK_NOTHING
        damage = summary[(opponent * N_ROWS + target) * RS_WIDTH + RS_MIN_NUMBER]  # F-ATK-4/5 victim
        if row == DOUBLED_FROM_ROW and target == DOUBLED_TO_ROW:
            damage *= 2
        fewest_bonus = FEWEST_NORMALS_CAP - min(normals, FEWEST_NORMALS_CAP)
    if damage >= view[S_LIFE + opponent]:
        return SCORE_LETHAL + damage
    return SCORE_ATTACK_BASE + damage * DAMAGE_WEIGHT + fewest_bonus


@nb.njit(cache=True)
def _placement_score(view, rules, action):
    kind = action_kind(action)
    if kind == A.PLACE_NORMAL:
        card = action_a(action)
        number = effective_number(view, rules, card)
        if suit_of_card(card) == HEART:
            return SCORE_HEART_NORMAL + number + (HEART_FRONT_ROW_BONUS if action_b(action) == 0 else 0)
        return SCORE_SUITED_NORMAL + number
    if kind == A.PLACE_FACE:
        return SCORE_FACE if action_b(action) == A.NONE else SCORE_DISPLACE
    return SCORE_END


@nb.njit(cache=True)
def choose_greedy(view, rules, legal, n_legal, policy_rng, seat):
    """Index of the highest-scoring legal action (see the module docstring)."""
    phase = view[S_PHASE]
    best_index = 0
    best_score = NO_SCORE
    if phase == PH_DISCARD:
        for i in range(n_legal):
            score = -keep_value(view, rules, action_a(legal[i]))
            if score > best_score:
                best_score = score
                best_index = i
        return best_index
    if phase == PH_PLACEMENT:
        for i in range(n_legal):
            score = _placement_score(view, rules, legal[i])
            if score > best_score:
                best_score = score
                best_index = i
        return best_index
    summary = np.empty(ROW_SUMMARY_SIZE, dtype=np.int64)
    row_summary(view, rules, summary)
    for i in range(n_legal):
        action = legal[i]
        if action_kind(action) == A.ATTACK:
            score = _attack_score(view, rules, summary, seat, action_a(action), action_b(action))
        else:
            score = SCORE_END
        if score > best_score:
            best_score = score
            best_index = i
    return best_index
