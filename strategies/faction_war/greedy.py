"""The "greedy" strategy: the best-looking action one step ahead, for every mechanic.

Every legal action gets an integer score from the player's view; the highest
wins (ties: the lowest index, i.e. the smallest action integer, so the
choice is deterministic and needs no policy draws). The view is summarised
once per decision (`features.summarize`, O(cards), into the view's scratch
slots); each score is then O(1), except the special-placement search (a
bitset subset sum over numbers 1..10, done once per decision). Nothing is
allocated. One heuristic per decision kind:

- Discard (F-TURN-2): throw away the card worth least: the lowest normal
  card first, then face cards, ♥ J/Q/K (Dispellers), the small joker, the
  big joker last.
- Normal cards (F-PLC-1/2): play every normal card it can, the largest
  first; ♦/♠/♣ before ♥ (one possible row), ♥ prefers row 1 (the row most
  attacks hit). An Alien extra-zone pair (F-EXT-4) beats a single card in
  the same row when its sum (the zone card's number) is larger.
- Human face cards (F-HUJ/Q/K, F-HUC, F-HUP-1): the row's effect is valued
  before and after (`features.human_effect_value`): Polymorph J = what the
  opponent's row loses minus what the own row loses (so it is placed only
  where it hurts the opponent's big cards more than the own); Q = twice the
  card it would steal (only when the opponent's row has a target); K = the
  opponent's largest when that is the largest of both rows, else minus the
  own largest; combinations by their expected swing. The card is placed
  only when the value rises; displacing an own face card must gain more
  than the 1 life it costs (F-HUP-1).
- Alien face cards: J (Split Rebirth), Q (Call of the Abyss), K (Outer
  Charge) are placed while the row has room (no penalty, but a displaced
  effect is lost, so it never displaces).
- ♥ Dispeller (F-HRT-1): value = the threat of the removed opposing face
  cards (`features.face_threat`, +1 per Human card: its owner's penalty)
  minus the value of own face cards removed (and their penalty) minus the
  Human user's own 1 life (FA-9 "damage"); used on the most harmful row when the
  value is at least DISPEL_MIN.
- Extra zone (F-EXT-1/3): a surplus card (its row already got this turn's
  normal card), the largest, never one that pushes out an own zone card
  that still has a pair in hand.
- Abyss caution (all own exiles: extra-zone push-outs, Rebirth push-outs,
  Outer Charge): none while an opposing Alien big joker is unseen or on the
  field and the own exile points would reach a quarter of the life — an
  Abyss Magic hit makes each player take their own exile points (F-JOK-A-2).
- Split Rebirth (F-ALJ-1/2): always when it pushes out the opponent's zone
  card (they take its number); otherwise when a 3-card exact completion
  exists, life is comfortable (the move turns one field card into three
  for 3 life) and the deck is not short. Special placement (F-ALJ-4): each SPECIAL_PICK is scored by
  the fewest cards an exact completion then needs (at least 3 in all:
  fewer cards = less self-damage, F-ALN-1), found by a bitset subset-sum
  search over the sources' numbers; ties prefer the graveyard, then the own
  extra zone, then hand cards, the deck last (deck-out, FA-3), and ♥ cards
  the emptier row. It declines
  (END) only when the completion would cost nearly all its life.
- Outer Charge (F-ALK-2): mode 2 with the largest card when life is low
  (heal); mode 3 when the opponent's cheapest cards it forces out are worth
  more than the own row, with a bonus when it empties the opponent's field;
  mode 1 (a neutral trade) is not used.
- Answering the opponent's K (F-ALK-2 modes 1 and 3): give up the least
  valuable card — the smallest effective number, not the last card of a row.
- Big joker (F-JOK-H-1, F-JOK-A-1): in the row whose joker attack would hit
  hardest now over the targets F-TGT allows (`best_joker_hit`), row 1
  preferred on ties; a Human places it at once (the Grail stays), an Alien
  only when that attack favours it (the Abyss joker leaves after one attack). Small joker (F-JOK-S-1):
  used in the own turn whenever legal (free). Response (F-JOK-S-2): used
  when the placed joker's best attack this turn (its row's F-TGT targets;
  Abyss Magic's direct attack from the known own deck points) threatens
  more than 5 life (the response's cost) and the response does not kill.
- Joker duel (F-JOK-D-1): commit when the own joker row plus the hand's
  normal cards of that suit (known) is at least the opponent's row plus the
  expected value of their hand cards of that suit (their unseen cards of
  the suit × hand size / unseen cards), else give up.
- Attacks: lethal first (damage >= the opponent's life); otherwise the most
  damage: direct = the row's sum (F-ATK-7), row attack = the victim's number
  (F-ATK-4/5), doubled row 1 → row 3 (F-TGT-1). Joker rows: the Holy Grail
  counts the face cards it destroys (and their owners' penalty); a direct
  Grail attack is valued as the face cards it destroys on both sides;
  Abyss Magic row attacks are valued as (the defender's exile points after
  the exile, doubled when row 1 hits row 3) minus the own exile points
  (F-JOK-A-2), plus its heal of 10: taken only when the exile sums favour
  it, never when the own share is lethal; its direct attack as five times
  the mean points of the opponent's unseen cards. A joker attack into the
  opponent's joker row adds the expected duel result. Ties go to the target
  row with fewer normal cards (emptying rows opens direct attacks).
- FA-6 "choice" (`tie CARD` among cards tied for an effect): a card the
  opponent controls first (only Self-Destruct's candidates mix both sides:
  destroy theirs), else the lowest card id. FA-4 "choice": `effects now`
  (the reference's default timing; a one-ply heuristic has nothing to weigh).

`choose_styled` is shared with the variants (`destiny.py`, `exile.py`):
they change a few scores (documented there) and otherwise play greedy.
"""

import numba as nb

from sim.cards import HEART, JACK, KING, QUEEN
from sim.faction_war import actions as A
from sim.faction_war.layout import (C_ARRIVAL, C_CTRL, C_ZONE, CARDS_PER_PLAYER, DIRECT, N_ROWS,
                                    P_COUNT, P_EXCLUDED, P_KEPT_EXCLUDED, P_KEPT_TARGET, P_KIND,
                                    P_TARGET,
                                    PENDING_DUEL, PENDING_K1_ANSWER, PENDING_K3_ANSWER,
                                    PENDING_NONE, PENDING_RESPOND, PENDING_SPECIAL, PENDING_TIE, PH_ATTACK,
                                    PH_DISCARD, S_ACTIVE, S_DECK_COUNT, S_FACE_PLACED, S_LIFE,
                                    S_NORMAL_PLACED, S_PENDING, S_PHASE, S_TURN, Z_DECK, Z_EXTRA,
                                    Z_GRAVE, Z_HAND, Z_HIDDEN, Z_ROW0)
from sim.faction_war.rules import FA9_DAMAGE, FA23_WITH_HEARTS, FA33_WITH_EXILE, R_FA9, R_FA23, R_FA33
from strategies.faction_war import features as F
from strategies.faction_war import weights as W

STYLE_GREEDY = 0
STYLE_DESTINY = 1
STYLE_EXILE = 2
STYLE_TUNED = 3  # greedy's play with the weights of the rules array's policy block

NO_SCORE = -(1 << 62)
# The judgement-call constants (placement and attack scores, thresholds, discard keep
# values) are weights read from the view's scratch: strategies/faction_war/weights.py.
SCORE_END = 0
SCORE_NEVER = -1  # worse than ending: legal, but the strategy does not want it
# placement
REBIRTH_CARDS = 3
EXILE_LIFE_MARGIN = 8
HUMAN_PENALTY = 1  # F-HUP-1
# special placement (pending)
SCORE_PICK = 500
PICK_CARD_COST = 40
SCORE_DECLINE = 600
# attack
SCORE_ATTACK_BASE = 2
SCORE_ATTACK_NOTHING = 1
SCORE_LETHAL = 1 << 40
DOUBLED_FROM_ROW, DOUBLED_TO_ROW = 0, 2  # F-TGT-1: row 1 attacking row 3
JOKER_DUEL_DAMAGE = 10
ABYSS_HEAL = 10
ABYSS_DIRECT_CARDS = 5
RESPONSE_COST = 5  # F-JOK-S-2
# discard: keep values (lowest goes first)
KEEP_HELD = 100
# scratch (features.WORK onwards)
W_COUNTS = F.WORK  # + number 1..10: special-placement source counts
W_PICK_TOTAL = F.WORK + 11  # + number 1..10: fewest cards after picking that number (-1)
W_PLAN = F.WORK + 22  # destiny plan: 6 cards
W_PLAN_STATE = F.WORK + 28  # 0 none, 1 hold, 2 fire
W_SPECIAL_MIN = F.WORK + 29  # fewest cards of the open special placement (-1 none)
PLAN_NONE, PLAN_HOLD, PLAN_FIRE = 0, 1, 2
# greedy's weights as a global array (numba freezes it into constant data): copied from the
# global tuple by the loop index, greedy's mirrors measured ~5 % slower (docs/performance.md)
DEFAULT_WEIGHTS = W.DEFAULTS


# ---- helpers ----------------------------------------------------------------------------------
@nb.njit(cache=True, inline="always")
def _life(view, player):
    return view[S_LIFE + player]


@nb.njit(cache=True, inline="always")
def _w(view, k):
    """Weight k (weights.K_*) of the current decision (loaded by `load_weights`)."""
    return view[W.W_WEIGHTS + k]


@nb.njit(cache=True)
def load_weights(view, rules, seat, style):
    """Put this decision's weights into the view's scratch: greedy's defaults, or for
    STYLE_TUNED the seat's faction block of the rules array's policy block (the
    defaults when the array has none)."""
    if style == STYLE_TUNED and rules.shape[0] >= W.POLICY_RULES_SIZE:
        base = W.POLICY_BASE + (0 if F.is_human(view, seat) else W.N_WEIGHTS)
        for k in range(W.N_WEIGHTS):
            view[W.W_WEIGHTS + k] = rules[base + k]
        return
    for k in range(W.N_WEIGHTS):
        view[W.W_WEIGHTS + k] = DEFAULT_WEIGHTS[k]


@nb.njit(cache=True)
def abyss_threat(view, rules, seat, extra_points, style):
    """True when exiling own cards worth `extra_points` more is dangerous: the opponent
    is an Alien whose big joker is unseen or on the field (F-JOK-A-2 hits with the
    own exile points) and the own exile points would reach a quarter of the life
    (the "exile" style accepts up to the life minus a margin)."""
    opp = 1 - seat
    if F.is_human(view, opp):
        return False
    live = False
    base = opp * CARDS_PER_PLAYER
    for pack_start in range(0, F.cards_in_play(rules), 54):
        zone = view[C_ZONE + base + pack_start + 52]
        if zone == Z_HIDDEN or (Z_ROW0 <= zone < Z_ROW0 + N_ROWS):
            live = True
    if not live:
        return False
    F.pool_stats(view, rules)
    points = view[F.G_EXILE_POINTS + seat] + extra_points
    if style == STYLE_EXILE:
        return points + EXILE_LIFE_MARGIN >= _life(view, seat)
    return _w(view, W.K_ABYSS_FRACTION) * points >= _life(view, seat)


@nb.njit(cache=True)
def held_by_plan(view, card):
    """True for a card the destiny plan keeps in hand."""
    if view[W_PLAN_STATE] == PLAN_NONE:
        return False
    for k in range(6):
        if view[W_PLAN + k] == card:
            return True
    return False


@nb.njit(cache=True)
def keep_value(view, card, style):
    if style == STYLE_DESTINY and held_by_plan(view, card):
        return KEEP_HELD
    if F.is_normal(card):
        return _w(view, W.K_KEEP_NORMAL_BASE) + F.rank_of(card)
    if F.is_face(card):
        if F.suit_of(card) == HEART:
            return _w(view, W.K_KEEP_HEART_FACE)
        if style == STYLE_EXILE and F.rank_of(card) != JACK:
            return _w(view, W.K_KEEP_BIG_JOKER)
        return _w(view, W.K_KEEP_FACE)
    return _w(view, W.K_KEEP_BIG_JOKER) if F.code_of(card) == 52 else _w(view, W.K_KEEP_SMALL_JOKER)


@nb.njit(cache=True)
def duel_margin(view, rules, seat, my_row, their_row):
    """Own joker row after the duel put-down minus the opponent's expected (FA-23)."""
    F.pool_stats(view, rules)
    mine = F.rs(view, seat, my_row, F.F_SUM) + view[F.G_HAND_SUM + my_row]
    with_hearts = rules[R_FA23] == FA23_WITH_HEARTS
    if with_hearts and my_row < 2:
        mine += view[F.G_HAND_SUM + HEART]
    opp = 1 - seat
    theirs = F.rs(view, opp, their_row, F.F_SUM)
    hidden = view[F.G_HIDDEN_TOTAL]
    if hidden > 0:
        suit_sum = view[F.G_HIDDEN_SUM + their_row]
        if with_hearts and their_row < 2:
            suit_sum += view[F.G_HIDDEN_SUM + HEART]
        theirs += F.opponent_hand_size(view, seat) * suit_sum // hidden
    return mine - theirs


@nb.njit(cache=True)
def _field_card_worth(view, card, seat):
    """How much `seat` loses when its field card `card` is exiled (K answers)."""
    row = view[C_ZONE + card] - Z_ROW0
    worth = F.effective(view, card) * 4
    if F.rs(view, seat, row, F.F_NORM) == 1:
        worth += 20  # the last normal card of a row: the row stops attacking and blocking
    return worth


# ---- special placement (F-ALJ-4) ---------------------------------------------------------------
@nb.njit(cache=True)
def prepare_special(view, rules, seat, target, count, excluded):
    """Per number 1..10: the fewest cards in all if the next pick has that number
    (-1: no exact completion with at least 3 cards); the minimum at W_SPECIAL_MIN."""
    F.own_source_counts(view, rules, seat, excluded, -1, rules[R_FA33] == FA33_WITH_EXILE, W_COUNTS)
    best = -1
    for number in range(1, 11):
        total = -1
        if number <= target and view[W_COUNTS + number] > 0:
            more = F.fewest_cards_for(view, W_COUNTS, number, target - number, REBIRTH_CARDS - count - 1)
            if more >= 0:
                total = count + 1 + more
        view[W_PICK_TOTAL + number] = total
        if total >= 0 and (best < 0 or total < best):
            best = total
    view[W_SPECIAL_MIN] = best


@nb.njit(cache=True)
def _pick_score(view, seat, card, row):
    total = view[W_PICK_TOTAL + F.rank_of(card)]
    if total < 0:
        total = 20  # the engine lists it, so a completion exists; our search missed it
    zone = view[C_ZONE + card]
    source = 0  # deck: last (every deck card taken brings deck-out closer, FA-3)
    if zone == Z_GRAVE:
        source = 3
    elif zone == Z_EXTRA:
        source = 2
    elif zone == Z_HAND:
        source = 1
    emptier = 3 - min(F.rs(view, seat, row, F.F_NORM), 3)
    return SCORE_PICK - PICK_CARD_COST * total + source * 4 + emptier


# ---- placement ---------------------------------------------------------------------------------
@nb.njit(cache=True)
def _dispel_value(view, rules, seat, target, where):
    opp = 1 - seat
    value = 0
    user_cost = HUMAN_PENALTY if F.is_human(view, seat) and rules[R_FA9] == FA9_DAMAGE else 0
    if target == A.NONE:  # FA-18 "one_card": `where` is the face card
        ctrl = view[C_CTRL + where]
        worth = _w(view, W.K_FACE_CARD_WORTH) + (HUMAN_PENALTY if F.is_human(view, ctrl) else 0)
        value = worth if ctrl == opp else -worth
        return value - user_cost
    for p in range(2):
        if target != A.BOTH_PLAYERS and target != p:
            continue
        faces = F.rs(view, p, where, F.F_FACES)
        if faces == 0:
            continue
        penalty = faces * HUMAN_PENALTY if F.is_human(view, p) else 0
        if p == opp:
            value += F.face_threat(view, p, where) + penalty
        else:
            own = _w(view, W.K_FACE_CARD_WORTH) * faces
            if F.is_human(view, p):
                own = F.human_effect_value(view, p, where, F.rs(view, p, where, F.F_RANKS))
            value -= own + penalty
    return value - user_cost  # FA-9


@nb.njit(cache=True)
def _human_face_score(view, seat, card, displaced):
    row = F.suit_of(card)
    ranks = F.rs(view, seat, row, F.F_RANKS)
    after = ranks
    cost = 0
    if displaced != A.NONE:
        after = ranks & ~F.rank_bit(F.rank_of(displaced))
        cost = HUMAN_PENALTY * _w(view, W.K_FACE_VALUE_WEIGHT)
    after |= F.rank_bit(F.rank_of(card))
    gain = (F.human_effect_value(view, seat, row, after) - F.human_effect_value(view, seat, row, ranks)) \
        * _w(view, W.K_FACE_VALUE_WEIGHT) - cost
    if gain <= 0:
        return SCORE_NEVER
    return _w(view, W.K_SCORE_FACE) + gain


@nb.njit(cache=True)
def _alien_face_score(view, seat, card, displaced, style):
    if displaced != A.NONE:
        return SCORE_NEVER
    rank = F.rank_of(card)
    if style == STYLE_EXILE:
        return _w(view, W.K_SCORE_FACE) + (40 if rank == QUEEN else 35 if rank == KING else 30)
    return _w(view, W.K_SCORE_FACE) + (2 if rank == KING else 1 if rank == JACK else 0)


@nb.njit(cache=True)
def _pair_in_hand(view, rules, seat, suit, number, skip):
    """True when the own hand holds two normal cards of `suit` (not `skip`) adding up to number."""
    base = seat * CARDS_PER_PLAYER
    seen = 0  # bit n: a card of number n seen
    for card in range(base, base + F.cards_in_play(rules)):
        if card == skip or view[C_ZONE + card] != Z_HAND or not F.is_normal(card) or F.suit_of(card) != suit:
            continue
        n = F.rank_of(card)
        if 0 < number - n <= 10 and (seen >> (number - n)) & 1:
            return True
        seen |= 1 << n
    return False


@nb.njit(cache=True)
def _extra_score(view, rules, seat, card, style):
    suit = F.suit_of(card)
    number = F.rank_of(card)
    holder = view[F.G_ZONE_HOLDER + suit]
    pushes_own = holder >= 0 and view[C_CTRL + holder] == seat
    surplus = (view[S_NORMAL_PLACED] >> suit) & 1
    if pushes_own and abyss_threat(view, rules, seat, F.rank_of(holder), style):
        return SCORE_NEVER
    if style == STYLE_EXILE:
        return _w(view, W.K_SCORE_EXTRA) + number + (30 if pushes_own else 0) - (0 if surplus else 40)
    if not surplus:
        return SCORE_NEVER
    if pushes_own and _pair_in_hand(view, rules, seat, suit, F.rank_of(holder), card):
        return SCORE_NEVER
    bonus = _w(view, W.K_PAIR_IN_HAND_BONUS) if _pair_in_hand(view, rules, seat, suit, number, card) else 0
    return _w(view, W.K_SCORE_EXTRA) + number + bonus


@nb.njit(cache=True)
def _rebirth_score(view, rules, seat, card, style):
    row = F.suit_of(card)
    number = F.rank_of(card)
    holder = view[F.G_ZONE_HOLDER + row]
    opp = 1 - seat
    if holder >= 0 and view[C_CTRL + holder] == opp:  # F-ALJ-2
        damage = F.rank_of(holder)
        if damage >= _life(view, opp):
            return SCORE_LETHAL
        return _w(view, W.K_SCORE_REBIRTH_PUSH) + damage
    # an own zone card is exiled by the move (F-ALJ-3): not a source
    if holder >= 0 and abyss_threat(view, rules, seat, F.rank_of(holder), style):
        return SCORE_NEVER
    if view[S_DECK_COUNT + seat] < _w(view, W.K_SHORT_DECK) and style != STYLE_EXILE:
        return SCORE_NEVER
    F.own_source_counts(view, rules, seat, card, holder, rules[R_FA33] == FA33_WITH_EXILE, W_COUNTS)
    cards = F.fewest_cards_for(view, W_COUNTS, 0, number, REBIRTH_CARDS)
    if cards < 0:
        return SCORE_NEVER if style != STYLE_EXILE or holder < 0 else _w(view, W.K_SCORE_REBIRTH)
    last_card = F.rs(view, seat, row, F.F_NORM) == 1
    if style == STYLE_EXILE:
        if _life(view, seat) < cards + _w(view, W.K_LOW_LIFE):
            return SCORE_NEVER
        return _w(view, W.K_SCORE_REBIRTH) + (30 if holder >= 0 else 0) - (10 if last_card else 0)
    if cards > REBIRTH_CARDS or _life(view, seat) < _w(view, W.K_REBIRTH_MIN_LIFE):
        return SCORE_NEVER
    return _w(view, W.K_SCORE_REBIRTH) + number - (20 if last_card else 0)


@nb.njit(cache=True)
def _charge_score(view, rules, seat, mode, card, row, style):
    life = _life(view, seat)
    opp = 1 - seat
    exiled = F.rs(view, seat, row, F.F_ORIGSUM) if mode == 3 else F.rank_of(card)
    if abyss_threat(view, rules, seat, exiled, style):
        return SCORE_NEVER
    if mode == 2:
        if style == STYLE_EXILE:
            return _w(view, W.K_SCORE_CHARGE) + F.effective(view, card)
        if life > _w(view, W.K_LOW_LIFE):
            return SCORE_NEVER
        return _w(view, W.K_SCORE_CHARGE) + 30 + F.effective(view, card)
    if mode == 1:
        if style == STYLE_EXILE:
            return _w(view, W.K_SCORE_CHARGE) + 20 + F.effective(view, card)
        return SCORE_NEVER
    mine = F.rs(view, seat, row, F.F_NORM)
    theirs = 0
    for r in range(N_ROWS):
        theirs += F.rs(view, opp, r, F.F_NORM)
    wanted = min(mine, theirs)
    if style == STYLE_EXILE:
        return _w(view, W.K_SCORE_CHARGE) + 25 + 2 * (mine + wanted)
    value = F.opponent_smallest_sum(view, wanted) - F.rs(view, seat, row, F.F_SUM)
    if theirs <= mine:
        value += _w(view, W.K_STRIP_BONUS)
    if value <= 0:
        return SCORE_NEVER
    return _w(view, W.K_SCORE_CHARGE) + value


@nb.njit(cache=True)
def joker_hit(view, rules, attacker, row, target):
    """Net damage (to the defender, minus the attacker's own share) of a big-joker
    attack from `attacker`'s `row` into `target` (a row or DIRECT), from the board."""
    defender = 1 - attacker
    doubled = row == DOUBLED_FROM_ROW and target == DOUBLED_TO_ROW
    if F.is_human(view, attacker):
        if target == DIRECT:  # F-JOK-H-2: every face card goes
            return _faces_worth(view, defender) - _faces_worth(view, attacker)
        hit = F.rs(view, defender, target, F.F_MINEFF) if F.rs(view, defender, target, F.F_NORM) else 0
        hit = hit * 2 if doubled else hit
        faces = F.rs(view, defender, target, F.F_FACES)
        return hit + faces * (_w(view, W.K_FACE_CARD_WORTH) + (HUMAN_PENALTY if F.is_human(view, defender) else 0))
    if target == DIRECT:  # F-JOK-A-3: five deck cards of the defender
        return ABYSS_DIRECT_CARDS * 5
    F.pool_stats(view, rules)
    theirs = view[F.G_EXILE_POINTS + defender] + F.rs(view, defender, target, F.F_ORIGSUM)
    return (theirs * 2 if doubled else theirs) - view[F.G_EXILE_POINTS + attacker]


@nb.njit(cache=True)
def best_joker_hit(view, rules, attacker, row):
    """The best `joker_hit` over the targets F-TGT allows that row (-1 when none)."""
    mask = F.target_mask(view, rules, attacker, row)
    best = -1
    for target in range(4):
        bit = F.DIRECT_BIT if target == DIRECT else 1 << target
        if mask & bit:
            best = max(best, joker_hit(view, rules, attacker, row, target))
    return best


@nb.njit(cache=True)
def _joker_row_score(view, rules, seat, row):
    """Big joker placement: the row whose joker attack would hit hardest now; a Human
    places it anyway (it stays), an Alien only when that attack favours it."""
    hit = best_joker_hit(view, rules, seat, row)
    if not F.is_human(view, seat) and hit <= 0:
        return SCORE_NEVER
    return _w(view, W.K_SCORE_BIG_JOKER) + max(hit, 0) + (_w(view, W.K_JOKER_FRONT_ROW_BONUS) if row == 0 else 0)


@nb.njit(cache=True)
def placement_score(view, rules, action, seat, style):
    kind = F.kind_of(action)
    a = F.field_a(action)
    b = F.field_b(action)
    if kind == A.PLACE_NORMAL:
        if style == STYLE_DESTINY and held_by_plan(view, a):
            return SCORE_NEVER
        number = F.effective(view, a)
        if F.suit_of(a) == HEART:
            return _w(view, W.K_SCORE_HEART_NORMAL) + number + (_w(view, W.K_HEART_FRONT_ROW_BONUS) if b == 0 else 0)
        return _w(view, W.K_SCORE_SUITED_NORMAL) + number
    if kind == A.PLACE_FACE:
        if style == STYLE_DESTINY and held_by_plan(view, a):
            return SCORE_NEVER
        if F.is_human(view, seat):
            return _human_face_score(view, seat, a, b)
        return _alien_face_score(view, seat, a, b, style)
    if kind == A.EXTRA_PAIR:
        return _w(view, W.K_SCORE_PAIR) + F.rank_of(a) + F.rank_of(b)
    if kind == A.SMALL_JOKER:
        return _w(view, W.K_SCORE_SMALL_JOKER)
    if kind == A.PLACE_BIG_JOKER:
        return _joker_row_score(view, rules, seat, b)
    if kind == A.DISPEL:
        value = _dispel_value(view, rules, seat, b, F.field_c(action))
        if value < _w(view, W.K_DISPEL_MIN):
            return SCORE_NEVER
        return _w(view, W.K_SCORE_DISPEL) + value
    if kind == A.EXTRA_PLACE:
        return _extra_score(view, rules, seat, a, style)
    if kind == A.ALIEN_J_MOVE:
        return _rebirth_score(view, rules, seat, a, style)
    if kind == A.K_ACTIVATE:
        return _charge_score(view, rules, seat, a, b, F.field_c(action), style)
    if kind == A.SPECIAL_PICK:  # FA-15 "kept": a later special placement
        return _pick_score(view, seat, a, b) - SCORE_PICK + _w(view, W.K_SCORE_REBIRTH)
    return SCORE_END


# ---- attack ------------------------------------------------------------------------------------
@nb.njit(cache=True)
def _faces_worth(view, player):
    total = 0
    for r in range(N_ROWS):
        faces = F.rs(view, player, r, F.F_FACES)
        total += faces * (_w(view, W.K_FACE_CARD_WORTH) + (HUMAN_PENALTY if F.is_human(view, player) else 0))
    return total


@nb.njit(cache=True)
def _rated(view, seat, damage, own_damage, fewest_bonus):
    """Score of an attack that deals `damage` (and costs `own_damage`)."""
    opp = 1 - seat
    if own_damage >= _life(view, seat):
        return SCORE_NEVER - 1
    if damage >= _life(view, opp) and damage > 0:
        return SCORE_LETHAL + damage
    net = damage - own_damage
    if net <= 0:
        return SCORE_ATTACK_NOTHING if net == 0 else SCORE_NEVER
    return SCORE_ATTACK_BASE + net * _w(view, W.K_DAMAGE_WEIGHT) + fewest_bonus


@nb.njit(cache=True)
def attack_score(view, rules, seat, row, target, style):
    opp = 1 - seat
    joker = F.rs(view, seat, row, F.F_JOKER) == 1
    human = F.is_human(view, seat)
    doubled = row == DOUBLED_FROM_ROW and target == DOUBLED_TO_ROW
    if target == DIRECT:
        if not joker:
            return _rated(view, seat, F.rs(view, seat, row, F.F_SUM), 0, _w(view, W.K_FEWEST_NORMALS_CAP))
        if human:  # F-JOK-H-2: every face card on the field is destroyed (FA-21 "all")
            net = _faces_worth(view, opp) - _faces_worth(view, seat)
            return SCORE_ATTACK_BASE + net * _w(view, W.K_DAMAGE_WEIGHT) if net > 0 else SCORE_NEVER
        F.pool_stats(view, rules)
        hidden = view[F.G_HIDDEN_TOTAL]  # F-JOK-A-3: five random deck cards
        damage = 0
        if hidden > 0:
            damage = min(ABYSS_DIRECT_CARDS, view[S_DECK_COUNT + opp]) * view[F.G_HIDDEN_POINTS] // hidden
        return _rated(view, seat, damage, 0, _w(view, W.K_FEWEST_NORMALS_CAP)) + ABYSS_HEAL
    normals = F.rs(view, opp, target, F.F_NORM)
    fewest_bonus = _w(view, W.K_FEWEST_NORMALS_CAP) - min(normals, _w(view, W.K_FEWEST_NORMALS_CAP))
    victim = F.rs(view, opp, target, F.F_MINEFF) if normals > 0 else 0
    duel = 0
    if joker and F.rs(view, opp, target, F.F_JOKER) == 1:  # F-JOK-D-1
        if duel_margin(view, rules, seat, row, target) < _w(view, W.K_DUEL_MARGIN):
            return SCORE_NEVER
        duel = JOKER_DUEL_DAMAGE
    if joker and not human:  # F-JOK-A-2: exile the row, both take their exile points
        F.pool_stats(view, rules)
        theirs = view[F.G_EXILE_POINTS + opp] + F.rs(view, opp, target, F.F_ORIGSUM)
        if doubled:
            theirs *= 2
        mine = view[F.G_EXILE_POINTS + seat]
        bonus = normals * 2 * _w(view, W.K_DAMAGE_WEIGHT) if style == STYLE_EXILE else 0
        score = _rated(view, seat, theirs + duel, mine, fewest_bonus)
        if score < SCORE_ATTACK_BASE:
            return score
        return score + bonus + ABYSS_HEAL
    damage = victim * 2 if doubled else victim
    if joker:  # F-JOK-H-1: the row's face cards go too
        faces = F.rs(view, opp, target, F.F_FACES)
        penalty = faces * HUMAN_PENALTY if F.is_human(view, opp) else 0
        score = _rated(view, seat, damage + duel + penalty, 0, fewest_bonus)
        return score + faces * _w(view, W.K_FACE_CARD_WORTH) * _w(view, W.K_DAMAGE_WEIGHT)
    if normals == 0:
        return SCORE_ATTACK_NOTHING
    score = _rated(view, seat, damage, 0, fewest_bonus)
    if not human and F.rs(view, seat, row, F.F_RANKS) & F.RANK_BIT_Q and style == STYLE_EXILE:
        score += 2 * _w(view, W.K_DAMAGE_WEIGHT)  # F-ALQ-1: the victim is exiled
    return score


# ---- pending decisions -------------------------------------------------------------------------
@nb.njit(cache=True)
def response_threat(view, rules, seat):
    """Damage the opponent's just-placed big joker could deal this turn (F-JOK-S-2):
    its best attack from its row over the targets F-TGT allows (Abyss Magic's direct
    attack: five of the own deck cards, whose points the player knows)."""
    opp = 1 - seat
    for row in range(N_ROWS):
        if F.rs(view, opp, row, F.F_JOKER):
            mask = F.target_mask(view, rules, opp, row)
            if not F.is_human(view, opp) and mask & F.DIRECT_BIT:
                deck = view[S_DECK_COUNT + seat]
                F.pool_stats(view, rules)
                return min(ABYSS_DIRECT_CARDS, deck) * view[F.G_OWN_DECK_POINTS] // max(deck, 1)
            return best_joker_hit(view, rules, opp, row)
    return 0


@nb.njit(cache=True)
def pending_score(view, rules, action, seat, pending):
    kind = F.kind_of(action)
    a = F.field_a(action)
    if pending == PENDING_SPECIAL:
        if kind == A.END:
            best = view[W_SPECIAL_MIN]
            if best < 0 or _life(view, seat) - best <= _w(view, W.K_SPECIAL_LIFE_MARGIN):
                return SCORE_DECLINE
            return SCORE_NEVER
        return _pick_score(view, seat, a, F.field_b(action))
    if pending == PENDING_K1_ANSWER or pending == PENDING_K3_ANSWER:
        return -_field_card_worth(view, a, seat)
    if pending == PENDING_RESPOND:
        threat = response_threat(view, rules, seat)
        use = threat > _w(view, W.K_RESPONSE_MIN_THREAT) and _life(view, seat) > RESPONSE_COST
        return 1 if (a == 1) == use else 0
    if pending == PENDING_DUEL:
        attacker = view[S_ACTIVE]
        attack_row = view[S_PENDING + P_TARGET]
        defend_row = view[S_PENDING + P_COUNT]
        if seat == attacker:
            margin = duel_margin(view, rules, seat, attack_row, defend_row)
        else:
            margin = duel_margin(view, rules, seat, defend_row, attack_row)
        commit = margin >= _w(view, W.K_DUEL_MARGIN)
        return 1 if (a == 1) == commit else 0
    if pending == PENDING_TIE:  # the opponent's card first (Self-Destruct: destroy theirs)
        return 1 if view[C_CTRL + a] != seat else 0
    return SCORE_END  # also PENDING_TIMING: the lowest index, `effects now`


# ---- the shared chooser ----------------------------------------------------------------------
@nb.njit(cache=True, inline="always")
def _lists_kind(legal, n_legal, kind):
    """Some legal action is of `kind`."""
    for i in range(n_legal):
        if F.kind_of(legal[i]) == kind:
            return True
    return False


@nb.njit(cache=True)
def choose_styled(view, rules, legal, n_legal, seat, style):
    """Index of the highest-scoring legal action for greedy or a variant."""
    F.summarize(view, rules, seat)
    load_weights(view, rules, seat, style)
    view[W_PLAN_STATE] = PLAN_NONE
    if style == STYLE_DESTINY:
        plan_destiny(view, rules, seat)
    phase = view[S_PHASE]
    pending = view[S_PENDING + P_KIND]
    if pending == PENDING_SPECIAL:
        prepare_special(view, rules, seat, view[S_PENDING + P_TARGET], view[S_PENDING + P_COUNT],
                        view[S_PENDING + P_EXCLUDED])
    elif view[S_PENDING + P_KEPT_TARGET] > 0 and _lists_kind(legal, n_legal, A.SPECIAL_PICK):
        # FA-15 "kept": only the listed picks read the search (not attacks or discards)
        prepare_special(view, rules, seat, view[S_PENDING + P_KEPT_TARGET], 0,
                        view[S_PENDING + P_KEPT_EXCLUDED])
    best_index = 0
    best_score = NO_SCORE
    for i in range(n_legal):
        action = legal[i]
        kind = F.kind_of(action)
        if phase == PH_DISCARD and kind == A.DISCARD:
            score = -keep_value(view, F.field_a(action), style)
        elif pending != PENDING_NONE:
            score = pending_score(view, rules, action, seat, pending)
        elif kind == A.END:
            score = SCORE_END
        elif phase == PH_ATTACK:
            score = attack_score(view, rules, seat, F.field_a(action), F.field_b(action), style)
        else:
            score = placement_score(view, rules, action, seat, style)
            if style == STYLE_DESTINY and view[W_PLAN_STATE] == PLAN_FIRE:
                bonus = destiny_bonus(view, action)
                if bonus > 0:
                    score = bonus
        if score > best_score:
            best_score = score
            best_index = i
    return best_index


@nb.njit(cache=True)
def choose_greedy(view, rules, legal, n_legal, policy_rng, seat):
    """Index of the highest-scoring legal action (see the module docstring)."""
    return choose_styled(view, rules, legal, n_legal, seat, STYLE_GREEDY)


@nb.njit(cache=True)
def choose_tuned(view, rules, legal, n_legal, policy_rng, seat):
    """greedy with the tuned weights of the rules array's policy block (weights.py)."""
    return choose_styled(view, rules, legal, n_legal, seat, STYLE_TUNED)


# ---- Destiny plan (used by the "destiny" variant, strategies/destiny.py) -------------------------
SCORE_DESTINY = 1000
# F-HUW-1 slots: (row-1 normal, row-2 normal, row-3 normal, row-1 face, row-2 face, row-3 face)
DESTINY_NUMBERS = ((8, 9, 10), (10, 9, 8))
DESTINY_FACES = ((JACK, QUEEN, KING), (KING, QUEEN, JACK))


@nb.njit(cache=True, inline="always")
def _card(seat, suit, rank):
    return seat * CARDS_PER_PLAYER + suit * 13 + rank - 1


@nb.njit(cache=True, inline="always")
def _placed_now(view, seat, card, row):
    return view[C_ZONE + card] == Z_ROW0 + row and view[C_CTRL + card] == seat \
        and view[C_ARRIVAL + card] == view[S_TURN]


@nb.njit(cache=True)
def _availability(view, seat, card, row):
    """2 in the own hand (or placed in its row this turn), 1 in the own deck, 0 gone."""
    zone = view[C_ZONE + card]
    if zone == Z_HAND and view[C_CTRL + card] == seat:
        return 2
    if _placed_now(view, seat, card, row):
        return 2
    if zone == Z_DECK:
        return 1
    return 0


@nb.njit(cache=True)
def plan_destiny(view, rules, seat):
    """Pick the Destiny set (F-HUW-1) with most cards in hand among those still
    complete (every card in hand or deck); hold it, or fire it when all six are in hand
    and every row still takes a normal and a face card this turn."""
    if not F.is_human(view, seat):
        return
    best_in_hand = -1
    for numbers_order in range(2):
        for faces_order in range(2):
            for row0_suit in (0, HEART):
                for row1_suit in (1, HEART):
                    if row0_suit == HEART and row1_suit == HEART:
                        continue
                    numbers = DESTINY_NUMBERS[numbers_order]
                    faces = DESTINY_FACES[faces_order]
                    c0 = _card(seat, row0_suit, numbers[0])
                    c1 = _card(seat, row1_suit, numbers[1])
                    c2 = _card(seat, 2, numbers[2])
                    f0 = _card(seat, 0, faces[0])
                    f1 = _card(seat, 1, faces[1])
                    f2 = _card(seat, 2, faces[2])
                    in_hand = 0
                    complete = True
                    for k in range(6):
                        card = (c0, c1, c2, f0, f1, f2)[k]
                        where = _availability(view, seat, card, k % 3)
                        if where == 0:
                            complete = False
                        elif where == 2:
                            in_hand += 1
                    if complete and in_hand > best_in_hand:
                        best_in_hand = in_hand
                        view[W_PLAN] = c0
                        view[W_PLAN + 1] = c1
                        view[W_PLAN + 2] = c2
                        view[W_PLAN + 3] = f0
                        view[W_PLAN + 4] = f1
                        view[W_PLAN + 5] = f2
    if best_in_hand < 0:
        return
    if best_in_hand == 6:
        placed_normals = view[S_NORMAL_PLACED]
        placed_faces = view[S_FACE_PLACED]
        # rows already used this turn by the plan's own cards still count (FA-10 pattern only)
        ok = True
        for k in range(3):
            card = view[W_PLAN + k]
            if (placed_normals >> k) & 1 and not _placed_now(view, seat, card, k):
                ok = False
            face = view[W_PLAN + 3 + k]
            if (placed_faces >> k) & 1 and not _placed_now(view, seat, face, k):
                ok = False
        if ok:
            view[W_PLAN_STATE] = PLAN_FIRE
            return
    if best_in_hand >= 2:
        view[W_PLAN_STATE] = PLAN_HOLD


@nb.njit(cache=True)
def destiny_bonus(view, action):
    """Fire: the plan's six placements go before anything else."""
    kind = F.kind_of(action)
    a = F.field_a(action)
    if kind == A.PLACE_NORMAL:
        for k in range(3):
            if view[W_PLAN + k] == a and F.field_b(action) == k:
                return SCORE_DESTINY
        return 0
    if kind == A.PLACE_FACE:
        for k in range(3, 6):
            if view[W_PLAN + k] == a:
                return SCORE_DESTINY + (1 if F.field_b(action) == A.NONE else 0)
    return 0
