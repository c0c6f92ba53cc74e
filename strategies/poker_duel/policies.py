"""Poker Duel seat policies: each reads only its seat's view (layout.build_view)
and the legal action list, and returns an index into that list.

greedy, in words (one rule per decision, first match wins):
- main phase: summon the highest-value monster it may summon (bumping the
  weakest own monster only when the newcomer is stronger); then the Big Joker
  when the opponent has two or more monsters, the Small Joker when they have
  two or more set cards, J, Q (while its deck holds more than 10 cards), K;
  then set monster cards of value 5 or less as boosts and function cards for
  the opponent's turn while the back row has a free slot (keeping one free
  for activations from hand); else end the main phase.
- J targets: the strongest opponent monster first, then set cards; Q count:
  the most it may draw while its deck holds more than 10 cards, else 1;
  K picks: the strongest monster (of either graveyard under D-AMB-60
  "k_searches_both"); K placement: summon monsters, keep the rest;
  battle-step Q: keep; responses: answer a J with the first set card it may
  activate, pass anything else; redirect: the first option.
- attack declaration: a direct attack with the strongest monster; else the
  attack that wins by the colour rule (D-DC-2/3) with the largest
  difference; else end the battle phase.
- battle step: pass. Damage step: the boost that turns a lost or tied battle
  into a won one (the largest), else pass.
- hand limit: discard the lowest-value monster card, jokers and K last.
- the optional draw (D-AMB-11 "optional", `draw_wanted`): take it, unless the
  hand already holds `hand_limit` cards (the end phase would make it discard
  as many), or the deck would be left with DRAW_DECK_LOW (10) cards or fewer
  and fewer than the opponent's (in a stall it would deck out first,
  D-DRAW-3; the second player's deck is always the smaller one early on,
  hence the low-deck condition).

The numbers in these rules (10, 5, "two or more", the free slots, the keep
values, the bump margin) are weights (`weights.py`): greedy passes today's
values (`weights.DEFAULTS`), `tuned` the rules array's policy block.
"""

from sim import rng as rng_module
from sim.cards import rank_of, suit_of
from sim.poker_duel import actions as A
from sim.poker_duel import layout as L
from sim.poker_duel.rules import NUMBER_SLOTS, amb_slot
from strategies.poker_duel import weights as W

N = L.N_CODES
DRAW_DECK_LOW = 10  # the optional draw is skipped only with this few cards left (and fewer than the opponent's)


def random_index(view, legal, rules_array, policy_rng) -> int:
    return policy_rng.below(len(legal))


def _value(code: int, rules_array) -> int:
    rank = rank_of(code)
    return (1, 14, 11)[int(rules_array[amb_slot("D-AMB-06")])] if rank == 1 else rank


def _colour(code: int) -> int:
    return 1 if suit_of(code) in (1, 2) else 0


def _card_at(view, p, slot, base):
    return int(view[base + p * L.ZONE_SLOTS + slot])


def draw_wanted(view, rules_array, me: int, count: int) -> bool:
    """greedy's D-AMB-11 "optional" choice (module docstring): draw `count` cards or not."""
    span = 2 * N if int(rules_array[amb_slot("D-AMB-60")]) == 1 else N
    hand = sum(1 for i in range(span) if view[L.C_ZONE + (me * N + i) % L.N_CARDS] == L.Z_HAND
               and L.controller((me * N + i) % L.N_CARDS, int(view[L.C_FLAGS + (me * N + i) % L.N_CARDS])) == me)
    if hand >= int(rules_array[NUMBER_SLOTS["hand_limit"]]):
        return False
    after = int(view[L.S_DECK_COUNT + me]) - count
    return not (after <= DRAW_DECK_LOW and after < int(view[L.S_DECK_COUNT + 1 - me]))


def greedy_index(view, legal, rules_array, policy_rng, weights=W.DEFAULTS) -> int:
    """greedy (the module docstring) with `weights` (weights.py; `tuned` passes its own)."""
    w = [int(x) for x in weights]
    me = int(view[L.S_DECIDER])
    opponent = 1 - me
    phase = int(view[L.S_PHASE])
    pending = int(view[L.S_PEND_KIND])
    decoded = [A.decode(a) for a in legal]

    def pick(predicate_order):
        for wanted in predicate_order:
            for i, (kind, a, b) in enumerate(decoded):
                if wanted(kind, a, b):
                    return i
        return None

    def first_of(kind_wanted):
        return pick([lambda k, a, b: k == kind_wanted])

    pass_index = first_of(A.PASS)
    deck = int(view[L.S_DECK_COUNT + me])
    if pending == L.PK_J_TARGETS:
        targets = [(i, a) for i, (k, a, b) in enumerate(decoded) if k == A.TARGET]
        if not targets:
            return pass_index
        def score(t):
            if t < L.ZONE_SLOTS:
                return w[W.K_J_MONSTER_BASE] + _value(_card_at(view, opponent, t, L.S_MONSTER) % N, rules_array)
            return 0
        return max(targets, key=lambda item: score(item[1]))[0]
    if pending == L.PK_Q_COUNT:
        counts = [(a, i) for i, (k, a, b) in enumerate(decoded) if k == A.COUNT]
        return max(counts)[1] if deck > w[W.K_Q_DRAW_MOST_DECK_ABOVE] else min(counts)[1]
    if pending == L.PK_RESPONSE:
        chain_top = int(view[L.S_CHAIN_LEN]) - 1
        kind = int(view[L.S_CHAIN + chain_top * L.CH_SIZE + L.CH_KIND])
        if kind == L.FN_J:
            index = first_of(A.ACT_SET)
            if index is not None:
                return index
        return pass_index
    if pending == L.PK_K_PICKS:
        picks = [(i, a) for i, (k, a, b) in enumerate(decoded) if k == A.PICK]
        if not picks:
            return pass_index
        monster_bonus = w[W.K_K_PICK_MONSTER_BONUS]
        return max(picks, key=lambda item: (monster_bonus if rank_of(item[1]) <= 10 else 0)
                   + _value(item[1], rules_array))[0]
    if pending == L.PK_K_PLACE:
        index = pick([lambda k, a, b: k == A.SUMMON and A.bump_of(b) < 0])
        return index if index is not None else pass_index
    if pending == L.PK_DRAW:
        index = first_of(A.DRAW if draw_wanted(view, rules_array, me, int(view[L.S_PEND_MAX])) else A.PASS)
        return index if index is not None else 0
    if pending in (L.PK_Q_SET, L.PK_REDIRECT):
        return pass_index if pass_index is not None else 0
    if phase == L.PH_MAIN:
        return _greedy_main(view, decoded, rules_array, me, opponent, pass_index, w)
    if phase == L.PH_DECLARE:
        return _greedy_attack(view, decoded, rules_array, me, opponent, pass_index)
    if phase == L.PH_DAMAGE:
        return _greedy_boost(view, decoded, rules_array, me, pass_index)
    if phase == L.PH_DISCARD:
        def keep_value(code):
            if code >= 52:
                return w[W.K_KEEP_JOKER]
            if rank_of(code) == 13:
                return w[W.K_KEEP_KING]
            return _value(code, rules_array) + (w[W.K_KEEP_FUNCTION_BONUS] if rank_of(code) > 10 else 0)
        return min(((keep_value(a), i) for i, (k, a, b) in enumerate(decoded)))[1]
    return pass_index if pass_index is not None else 0


def _greedy_main(view, decoded, rules_array, me, opponent, pass_index, w):
    monsters = [_card_at(view, me, s, L.S_MONSTER) for s in range(L.ZONE_SLOTS)]
    summons = []
    for i, (k, a, b) in enumerate(decoded):
        if k != A.SUMMON:
            continue
        value = _value(a, rules_array)
        if value < w[W.K_SUMMON_MIN_VALUE]:
            continue
        score = value * 100  # integer scores: the numba twin ranks them identically
        if A.bump_of(b) >= 0:
            bumped = monsters[A.bump_of(b)]
            if bumped < 0 or value - _value(bumped % N, rules_array) < w[W.K_BUMP_MIN_GAIN]:
                continue
            score -= _value(bumped % N, rules_array)  # bump the weakest
        summons.append((score, -i, i))
    if summons:
        return max(summons)[2]
    opp_monsters = sum(1 for s in range(L.ZONE_SLOTS) if view[L.S_MONSTER + opponent * L.ZONE_SLOTS + s] >= 0)
    opp_set = sum(1 for s in range(L.ZONE_SLOTS) if view[L.S_BACK + opponent * L.ZONE_SLOTS + s] != -1)
    deck = int(view[L.S_DECK_COUNT + me])

    def activation_code(k, a):
        if k == A.ACT_HAND:
            return a
        if k == A.ACT_SET:
            return int(view[L.S_BACK + me * L.ZONE_SLOTS + a]) % N
        return -1

    wishes = [lambda c: c == 52 and opp_monsters >= w[W.K_BIG_JOKER_MIN_MONSTERS],
              lambda c: c == 53 and opp_set >= w[W.K_SMALL_JOKER_MIN_SET],
              lambda c: c < 52 and rank_of(c) == 11 and opp_monsters + opp_set >= w[W.K_J_MIN_OPPONENT_CARDS],
              lambda c: c < 52 and rank_of(c) == 12 and deck > w[W.K_Q_ACTIVATE_DECK_ABOVE],
              lambda c: c < 52 and rank_of(c) == 13]
    for wish in wishes:
        for i, (k, a, b) in enumerate(decoded):
            if k in (A.ACT_HAND, A.ACT_SET) and wish(activation_code(k, a)):
                return i
    free = sum(1 for s in range(int(rules_array[NUMBER_SLOTS["back_row"]])) if view[L.S_BACK + me * L.ZONE_SLOTS + s] == -1)
    if free >= w[W.K_SET_MIN_FREE_SLOTS]:
        for i, (k, a, b) in enumerate(decoded):
            if k == A.SET and (a >= 52 or rank_of(a) > 10 or _value(a, rules_array) <= w[W.K_BOOST_SET_MAX_VALUE]):
                return i
    return pass_index


def _greedy_attack(view, decoded, rules_array, me, opponent, pass_index):
    best, best_score = pass_index, 0
    for i, (k, a, b) in enumerate(decoded):
        if k != A.ATTACK:
            continue
        attacker = _card_at(view, me, a, L.S_MONSTER)
        atk = _value(attacker % N, rules_array) + int(view[L.C_BOOST + attacker])
        if b == L.DIRECT:
            score = 1000 + atk
        else:
            defender = _card_at(view, opponent, b, L.S_MONSTER)
            dfn = _value(defender % N, rules_array) + int(view[L.C_BOOST + defender])
            same = _colour(attacker % N) == _colour(defender % N)
            wins = (atk > dfn) == same and atk != dfn
            score = abs(atk - dfn) if wins else 0
        if score > best_score:
            best, best_score = i, score
    return best if best is not None else 0


def _greedy_boost(view, decoded, rules_array, me, pass_index):
    attacker, target = int(view[L.S_ATTACKER]), int(view[L.S_TARGET])
    if target < 0:
        return pass_index
    values = {c: _value(c % N, rules_array) + int(view[L.C_BOOST + c]) for c in (attacker, target)}
    mine = attacker if int(view[L.S_ACTIVE]) == me else target  # by controller (a K may have taken it)
    same = _colour(attacker % N) == _colour(target % N)

    def i_win(atk_mine, atk_theirs):
        return atk_mine != atk_theirs and ((atk_mine > atk_theirs) == same)

    other = target if mine == attacker else attacker
    if i_win(values[mine], values[other]):
        return pass_index
    best, best_margin = pass_index, None
    for i, (k, a, b) in enumerate(decoded):
        if k != A.BOOST or b > 1:  # greedy only boosts the two battlers (D-AMB-37 "any_monster" adds others)
            continue
        card = _card_at(view, me, a, L.S_BACK)
        boosted = attacker if b == 0 else target
        amount = _boost_amount(card % N, boosted % N, rules_array)
        new = dict(values)
        new[boosted] += amount
        if i_win(new[mine], new[other]):
            margin = abs(new[mine] - new[other])
            if best_margin is None or margin > best_margin:
                best, best_margin = i, margin
    return best


def _boost_amount(card: int, target: int, rules_array) -> int:
    value = _value(card, rules_array)
    same_number = value == _value(target, rules_array)
    if int(rules_array[amb_slot("D-AMB-40")]) == 1:
        same_suit = _colour(card) == _colour(target)
    else:
        same_suit = suit_of(card) == suit_of(target)
    return value * (6 if same_number and same_suit else 3 if same_number else 2 if same_suit else 1)


POLICIES = (greedy_index, random_index)  # indexed by strategy id (strategies.poker_duel.STRATEGIES)
