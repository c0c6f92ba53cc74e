"""Novel TCG policies (numba), each reading only its seat's view (docs/engine-contract.md).

The view (`nb_view`) is the state with what the seat cannot see hidden
(T-AMB-16 (a), T-AMB-84 (a)): the generator word, both deck orders, the
opponent's hand by kind (its size stays public) and every field of an
opposing face-down character but its slot being occupied (kind = HIDDEN);
each side's unseen cards are listed as a multiset in its deck slots (the
sampler, `sim/novel_tcg/sampler.py`, redeals them). The match loops give the
scripted policies `nb_field_view`, the same view without those lists (they
never read a deck slot; building the lists was most of a greedy step).

Policies return an index into the legal list (ascending action integers).
Greedy (§18.4), in this order of preference:
1. Action phase: the summon of the highest star (advance included; ties:
   face-up attack, the lowest kind), face-down instead when the opponent has
   a face-up attack-position character of higher star (it would die without
   killing); then a Weapon when the person has none; then a Blade or Armour
   on the highest-star own character; then the position changes: attack ->
   defense when threatened (an opposing face-up attacker of higher star),
   defense/face-down -> attack when not; then END.
2. Battle phase: the attack of the best positive trade value, else END.
   Value = stars of opposing characters it defeats + overflow it deals -
   stars of own characters it loses - overflow it takes (the damage formula
   of T-BATTLE-6/7 under the rules' m and reading); a direct attack is worth
   its ATK; a face-down target counts as a free_summon_max_star character.
3. End phase: discard the lowest kind (lowest-star characters go first).
Defensive: the same, but cautious: a character counts as threatened already by
an opposing face-up attacker of the same star (which would trade it), so it is
set or kept in defense more often, and an attack is made only when the
attacker survives it.
Tuned: greedy with the numbers of its judgement calls (a star is worth 10 HP, attack
above value 0, "threatened" = a higher star ...) read from the rules array's policy
block (`weights.py`; greedy and defensive pass `weights.DEFAULTS`).
"""

import numba as nb

from sim.novel_tcg import engine_cache
from sim.novel_tcg import layout as L
from sim.novel_tcg import rules as R
from sim.novel_tcg.actions import A_ADVANCE, A_ATTACK, A_CHANGE, A_EQUIP, A_SUMMON, PERSON
from sim.novel_tcg.card_pool import CAT_WEAPON, F_ATK, F_CATEGORY, F_HP, F_STAR
from sim.novel_tcg.kernel import atk_of, fs, person_atk, pool, seat_at
from sim.rng import nb_below
from strategies.novel_tcg import STRATEGY_DEFENSIVE, STRATEGY_RANDOM, STRATEGY_TUNED
from strategies.novel_tcg import weights as W

engine_cache.install()  # before any cached kernel is defined: rules.py constants are frozen in

HIDDEN, HIDDEN_COUNT, UNSEEN = L.VIEW_HIDDEN, L.VIEW_HIDDEN_COUNT, L.VIEW_UNSEEN  # the view's markers (layout.py)
VALUE_NONE = -(1 << 40)
DEFAULT_WEIGHTS = W.DEFAULTS  # a numba global: frozen into the code as constants (greedy's own values)


@nb.njit(cache=True)
def nb_view(state, seat, view):
    """Copy `state` into `view` with what `seat` cannot see hidden (T-AMB-16 (a), T-AMB-84 (a)).

    Hidden: the generator word, both deck orders, the opponent's hand by kind (HIDDEN_COUNT;
    its size is public) and every field of an opposing face-down character but its slot and
    position (kind HIDDEN). What the seat knows stays: the cards of each side it has not
    seen, as a multiset (deck lists are printed before play and the graveyard is public, so
    this is the deck list minus every card seen; the layout keeps the graveyard only as a
    count, so the view lists the rest directly). Each side's deck slots hold them ascending,
    encoded UNSEEN - kind: one's own deck, and for the opponent its deck, hand and face-down
    characters pooled (deck_count + hand_count + face-down entries)."""
    view[:] = state
    view[L.S_RNG] = 0
    q = 1 - seat
    hand = seat_at(q, L.P_HAND)  # the opponent's hand slots count each side's unseen cards in turn (no allocation)
    for slot in range(L.MAX_FRONT):
        i = fs(q, slot)
        if state[i + L.F_KIND] != L.NONE and state[i + L.F_POS] == L.POS_FACEDOWN:
            view[hand + state[i + L.F_KIND]] += 1
            for f in range(L.FRONT_FIELDS):
                view[i + f] = 0
            view[i + L.F_KIND] = HIDDEN
            view[i + L.F_POS] = L.POS_FACEDOWN
    for p in (q, seat):
        if p == seat:
            view[hand:hand + R.N_KINDS] = 0
        deck = seat_at(p, L.P_DECK)
        for i in range(state[seat_at(p, L.P_DECK_COUNT)]):
            view[hand + state[deck + i]] += 1
        at = 0
        for kind in range(R.N_KINDS):
            for _ in range(view[hand + kind]):
                view[deck + at] = UNSEEN - kind
                at += 1
        view[deck + at:deck + L.MAX_DECK] = 0
    view[hand:hand + R.N_KINDS] = HIDDEN_COUNT


@nb.njit(cache=True)
def nb_field_view(state, seat, view):
    """`nb_view` without the unseen-card lists: every slot as `nb_view` writes it, but both
    decks' slots are 0. The scripted policies (greedy, defensive) read only the field, the
    persons and the phase, never a deck slot, so they decide the same on either view
    (tests/test_tcg_agents.py holds them to it); this view costs a copy, where listing the
    unseen cards walks both decks and every kind (most of a greedy step's time)."""
    q = 1 - seat
    for i in range(L.STATE_SIZE):  # one plain loop (a vectorised copy); numba's slice copies cost more
        view[i] = state[i]
    view[L.S_RNG] = 0
    for p in (0, 1):
        deck = seat_at(p, L.P_DECK)
        for i in range(L.MAX_DECK):
            view[deck + i] = 0
    hand = seat_at(q, L.P_HAND)
    for kind in range(R.N_KINDS):
        view[hand + kind] = HIDDEN_COUNT
    for slot in range(L.MAX_FRONT):
        i = fs(q, slot)
        if state[i + L.F_KIND] != L.NONE and state[i + L.F_POS] == L.POS_FACEDOWN:
            for f in range(L.FRONT_FIELDS):
                view[i + f] = 0
            view[i + L.F_KIND] = HIDDEN
            view[i + L.F_POS] = L.POS_FACEDOWN


@nb.njit(cache=True)
def policy_view(strategy, state, seat, view):
    """Fill `view` with what `strategy` reads of seat's view before `choose`: nothing for random,
    the field view (`nb_field_view`) for the scripted policies."""
    if strategy != STRATEGY_RANDOM:
        nb_field_view(state, seat, view)


@nb.njit(cache=True)
def _star(view, rules, seat, slot):
    kind = view[fs(seat, slot) + L.F_KIND]
    if kind == HIDDEN:
        return rules[R.R_FREE_MAX]
    return pool(rules, kind, F_STAR)


@nb.njit(cache=True)
def _atk(view, rules, seat, slot):
    kind = view[fs(seat, slot) + L.F_KIND]
    if kind == HIDDEN:
        return pool(rules, rules[R.R_FREE_MAX] - 1, F_ATK)  # the balanced free-cap character
    return atk_of(view, rules, seat, slot)


@nb.njit(cache=True)
def _hp(view, rules, seat, slot):
    kind = view[fs(seat, slot) + L.F_KIND]
    if kind == HIDDEN:
        return pool(rules, rules[R.R_FREE_MAX] - 1, F_HP)
    return view[fs(seat, slot) + L.F_HP_NOW]


@nb.njit(cache=True)
def _threatened(view, rules, seat, star, margin):
    """Does the opponent hold a face-up attack-position character of at least `star` + `margin`
    stars (greedy 1: a higher star; cautious 0: the same star, which trades it)?"""
    q = 1 - seat
    for slot in range(rules[R.R_FRONT_SLOTS]):
        i = fs(q, slot)
        kind = view[i + L.F_KIND]
        if kind >= 0 and view[i + L.F_POS] == L.POS_ATTACK:
            if pool(rules, kind, F_STAR) >= star + margin:
                return True
    return False


@nb.njit(cache=True)
def _damage(rules, atk, bonus):
    d = atk + bonus
    return d if d > 0 else 0


@nb.njit(cache=True)
def attack_value(view, rules, seat, attacker, target, need_survival, w):
    """Trade value of ATTACK attacker target for `seat` (the module docstring; weights `w`)."""
    q = 1 - seat
    if attacker == PERSON:
        my_atk = person_atk(view, rules, seat)
        if target == PERSON:
            return my_atk * w[W.K_DIRECT_WEIGHT]
        their_hp = _hp(view, rules, q, target)
        value = 0
        if my_atk >= their_hp:
            value += _star(view, rules, q, target) * w[W.K_KILL_STAR_VALUE]
        hit_back = _atk(view, rules, q, target)
        value -= hit_back * w[W.K_PERSON_HIT_BACK]  # HP is worth a tenth of a star
        if need_survival and hit_back >= view[seat_at(seat, L.P_HP)]:
            return VALUE_NONE
        return value
    my_atk = atk_of(view, rules, seat, attacker)
    my_hp = view[fs(seat, attacker) + L.F_HP_NOW]
    my_star = pool(rules, view[fs(seat, attacker) + L.F_KIND], F_STAR)
    if target == PERSON:
        return my_atk * w[W.K_DIRECT_WEIGHT]
    their_star = _star(view, rules, q, target)
    delta = my_star - their_star
    m = rules[R.R_STAR_MOD]
    to_them = _damage(rules, my_atk, m * delta)
    bonus_back = -m * delta if rules[R.R_STAR_READING] == 0 else 0
    to_me = _damage(rules, _atk(view, rules, q, target), bonus_back)
    their_hp = _hp(view, rules, q, target)
    value = 0
    if to_them >= their_hp:
        value += their_star * w[W.K_KILL_STAR_VALUE]
        if view[fs(q, target) + L.F_POS] == L.POS_ATTACK:
            value += (to_them - their_hp) * w[W.K_OVERFLOW_DEALT]
    if to_me >= my_hp:
        if need_survival:
            return VALUE_NONE
        value -= my_star * w[W.K_LOSS_STAR_VALUE] + (to_me - my_hp) * w[W.K_OVERFLOW_TAKEN]
    return value


@nb.njit(cache=True)
def random_index(view, rules, legal, n, policy, seat):
    return nb_below(policy, seat, n)


@nb.njit(cache=True)
def scripted_index(view, rules, legal, n, seat, defensive, w):
    """Greedy (defensive=False) or defensive (True) with weights `w`: see the module docstring."""
    margin = 0 if defensive else w[W.K_THREAT_MARGIN]
    phase = view[L.S_PHASE]
    if phase == L.PH_DISCARD:
        return 0
    if phase == L.PH_BATTLE:
        best, best_value = 0, w[W.K_ATTACK_THRESHOLD]
        for i in range(n):
            action = legal[i]
            if action // 10000 * 10000 != A_ATTACK:
                continue
            rest = action - A_ATTACK
            value = attack_value(view, rules, seat, rest // 16, rest % 16, defensive, w)
            if value > best_value:
                best, best_value = i, value
        return best
    # Action phase
    best, best_star = -1, -1
    for i in range(n):
        family = legal[i] // 10000 * 10000
        if family == A_SUMMON or family == A_ADVANCE:
            rest = legal[i] - family
            star = pool(rules, rest // 4, F_STAR)
            position = rest % 4
            set_it = w[W.K_SET_WHEN_THREATENED] != 0 and _threatened(view, rules, seat, star, margin)
            wanted = L.POS_FACEDOWN if set_it else L.POS_ATTACK
            if position != wanted and position != L.POS_ATTACK:
                continue
            if star > best_star or (star == best_star and position == wanted):
                best, best_star = i, star
    if best >= 0:
        # keep the wanted position of the chosen star when it is listed
        return best
    best, best_target_star, weapon = -1, -1, -1
    for i in range(n):
        if legal[i] // 10000 * 10000 != A_EQUIP:
            continue
        rest = legal[i] - A_EQUIP
        kind, target = rest // 16, rest % 16
        if pool(rules, kind, F_CATEGORY) == CAT_WEAPON:
            if view[seat_at(seat, L.P_WEAPON)] == L.NONE:
                if w[W.K_WEAPON_FIRST] != 0:
                    return i
                if weapon < 0:
                    weapon = i
            continue
        star = pool(rules, view[fs(seat, target) + L.F_KIND], F_STAR)
        if star > best_target_star:
            best, best_target_star = i, star
    if best >= 0:
        return best
    if weapon >= 0:
        return weapon
    if w[W.K_CHANGE_POSITIONS] == 0:
        return 0  # END
    for i in range(n):
        if legal[i] // 10000 * 10000 != A_CHANGE:
            continue
        rest = legal[i] - A_CHANGE
        slot, position = rest // 4, rest % 4
        current = view[fs(seat, slot) + L.F_POS]
        threatened = _threatened(view, rules, seat, pool(rules, view[fs(seat, slot) + L.F_KIND], F_STAR), margin)
        if current == L.POS_ATTACK and position == L.POS_DEFENSE and threatened:
            return i
        if current != L.POS_ATTACK and position == L.POS_ATTACK and not threatened:
            return i
    return 0  # END


@nb.njit(cache=True)
def choose(strategy, view, rules, legal, n, policy, seat):
    """Strategy id -> index into the legal list."""
    if strategy == STRATEGY_RANDOM:
        return random_index(view, rules, legal, n, policy, seat)
    if strategy == STRATEGY_TUNED and rules.shape[0] >= W.POLICY_RULES_SIZE:  # weights from the policy block
        return scripted_index(view, rules, legal, n, seat, False, rules[W.POLICY_BASE:W.POLICY_RULES_SIZE])
    return scripted_index(view, rules, legal, n, seat, strategy == STRATEGY_DEFENSIVE, DEFAULT_WEIGHTS)
