"""Hidden information of Poker Duel: a full state sampled from one seat's view.

A search agent never reads the true state. It holds only its seat's view
(`layout.build_view`, D-AMB-08 "hidden": the opponent's hand and face-down
back-row cards, every deck card, both deck orders and the rule generator are
hidden; a J's target among hidden cards is hidden too) and asks this module
for a *determinization*: a full state that gives the seat exactly that view,
with what the seat cannot see drawn uniformly:

- the seat's own deck: its contents are known (the own cards the view marks
  hidden, less those flagged F_TAKEN: under D-AMB-60 "k_searches_both" the
  opponent's K took them, so they are in the opponent's hand or back row;
  the seat's hand and back row are visible), its order uniform;
- the opponent's hidden cards (their own, ascending id, then the seat's
  taken ones) are split uniformly into the face-down back-row slots the
  view shows as occupied, the deck (its size is public; only the
  opponent's own cards, never a taken one) in a uniform order, and the
  hand (the rest). A hidden card flagged F_BOOSTING (a set monster played
  as a boost, face up, waiting for the graveyard: D-AMB-39) is in the back
  row, so it takes one of those slots (drawn uniformly) before the others
  are dealt. Each card dealt to a slot gets that slot's set turn, which the
  view shows (`layout.face_down`, D-DS-8: the table saw when it was set);
- a J's target the view hides is a face-down card of the opponent's back
  row: drawn uniformly among them (distinct within one J). Only a J's
  targets are read: the other chain entries' target slots are always 0
  (both engines clear an entry when it leaves the chain, so a new link
  never holds an earlier chain's targets; a Q's CH_COUNT is its draw count);
- the opponent cannot hold a straight flush in hand (and back row under
  D-AMB-58) while the match goes on when the win is automatic (D-AMB-55
  "automatic": it would have ended the match), so such deals are redrawn
  (at most MAX_REDRAWS times);
- the rule generator: a fresh word from the agent's stream (Poker Duel draws
  from it only to shuffle a deck: at the start and for a D-AMB-07 redraw).

Everything public stays as the view says: HP, turn, phase, chain, pending
choice, monsters, graveyards, banished cards, cards on the chain, boosts and
flags (F_TAKEN included: which cards a K took is public), zone sizes.
Hidden cards carry no boost and no F_COMMITTED / F_JUST_SET mark in the view
(D-AMB-32/36 "simultaneous" commitments and D-AMB-18 marks are private), so a
world has none on them: an opponent's hidden simultaneous commitment is not
sampled. What the view discards cannot be used: which card a bump sent to
the bottom of a deck (D-AMB-14 "deck"), which of its own graveyard cards an
opponent's K returned face down or to hand. Inferences from the opponent's past choices
are not used (the usual PIMC/ISMCTS determinization), so the sample is a
function of the view and the agent's generator alone.

`sample_world` is numba-compiled, allocation-free (it works inside `out`:
the deck regions serve as the card lists) and callable from compiled code.
Its draws, in this order: Fisher-Yates over the own deck (ascending id, i
from n-1 down to 1, j = below(i+1)); then per deal of the opponent's cards:
for each F_BOOSTING card (ascending id) below(free hidden slots) picks its
slot among the still free hidden slots (ascending), Fisher-Yates over the
other hidden cards of the opponent's own (ascending id); each remaining
slot (ascending) takes the next of those, except while taken cards are
left unplaced: then below(untaken cards still to place outside the deck +
taken cards left) picks the next untaken card (below that count) or the
k-th unplaced taken card (ascending id); the next `deck count` untaken
cards are the deck bottom-first, the rest and the unplaced taken cards the
hand; a straight flush there redraws the deal; then for each chain
entry and each hidden target in order below(candidates) over the face-down
cards (ascending slot) not yet named by that entry; last one word for S_RNG.
`sample_world_reference` is the same in plain Python (tests check the two
agree).
"""

import numba as nb
import numpy as np

from sim.poker_duel import engine_cache
from sim.poker_duel import layout as L
from sim.poker_duel.rules import FLAG_SLOTS, amb_slot
from sim.rng import PyRng, nb_below, nb_next, splitmix_next, to_signed

engine_cache.install()

N = L.N_CODES
Z = L.ZONE_SLOTS
MAX_REDRAWS = 32  # deals with an opponent straight flush redrawn; a cap so a forced one cannot loop
R_ADVANCED = FLAG_SLOTS["advanced_rules"]
R_SF_FLAG = FLAG_SLOTS["straight_flush"]
R48, R55, R56, R57, R58 = (amb_slot("D-AMB-48"), amb_slot("D-AMB-55"), amb_slot("D-AMB-56"),
                           amb_slot("D-AMB-57"), amb_slot("D-AMB-58"))
R60 = amb_slot("D-AMB-60")


@nb.njit(cache=True, inline="always")
def _span(rules):
    """kernel.span: own cards, and the other deck's under D-AMB-60 "k_searches_both"."""
    return 2 * N if rules[R60] == 1 else N


@nb.njit(cache=True, inline="always")
def _controller(state, card):
    return card // N ^ (1 if state[L.C_FLAGS + card] & L.F_TAKEN else 0)


@nb.njit(cache=True)
def automatic_straight_flush(rules):
    """A hand's straight flush would have ended the match (kernel.straight_flush_on and D-AMB-55 "automatic")."""
    module = rules[R48]
    on = rules[R_ADVANCED] != 0 if module == 0 else (rules[R_SF_FLAG] != 0 if module == 1 else True)
    return on and rules[R55] == 0


@nb.njit(cache=True)
def holds_straight_flush(state, rules, p):
    """kernel.has_straight_flush without its scratch array (D-SF-1..3, D-AMB-56/57/58)."""
    m0 = np.int64(0)
    m1 = np.int64(0)
    m2 = np.int64(0)
    m3 = np.int64(0)
    jokers = 0
    with_back = rules[R58] == 1
    for i in range(_span(rules)):
        card = (p * N + i) % L.N_CARDS
        zone = state[L.C_ZONE + card]
        if (zone == L.Z_HAND or (with_back and zone == L.Z_BACK)) and _controller(state, card) == p:
            code = card % N
            if code >= 52:
                jokers += 1
            else:
                bit = np.int64(1) << (code % 13)
                suit = code // 13
                if suit == 0:
                    m0 |= bit
                elif suit == 1:
                    m1 |= bit
                elif suit == 2:
                    m2 |= bit
                else:
                    m3 |= bit
    if rules[R57] == 0:
        jokers = 0
    starts = 13 if rules[R56] == 1 else 10
    for suit in range(4):
        mask = m0 if suit == 0 else (m1 if suit == 1 else (m2 if suit == 2 else m3))
        for start in range(starts):
            missing = 0
            for k in range(5):
                if not (mask >> ((start + k) % 13)) & 1:
                    missing += 1
            if missing <= jokers:
                return True
    return False


@nb.njit(cache=True)
def _shuffle(out, start, count, rng, rng_slot):
    for i in range(count - 1, 0, -1):
        j = nb_below(rng, rng_slot, i + 1)
        swap = out[start + i]
        out[start + i] = out[start + j]
        out[start + j] = swap


@nb.njit(cache=True)
def _place(out, card, zone, pos, set_turn):
    out[L.C_ZONE + card] = zone
    out[L.C_POS + card] = pos
    out[L.C_SET_TURN + card] = set_turn


@nb.njit(cache=True)
def _deal_opponent(view, rules, out, opponent, rng, rng_slot):
    """One uniform deal of the opponent's hidden cards into back row, deck and hand."""
    region = L.S_DECK + opponent * N
    back = L.S_BACK + opponent * Z
    pool = 0  # the opponent's own hidden cards, flagged (F_BOOSTING) ones first, each group ascending
    for flagged in (True, False):
        for card in range(opponent * N, opponent * N + N):
            if view[L.C_ZONE + card] == L.Z_HIDDEN and ((view[L.C_FLAGS + card] & L.F_BOOSTING) != 0) == flagged:
                out[region + pool] = card
                pool += 1
    taken = 0  # the seat's cards the opponent's K took (D-AMB-60): in their hand or back row, never the deck
    for card in range((1 - opponent) * N, (2 - opponent) * N):
        if view[L.C_ZONE + card] == L.Z_HIDDEN and view[L.C_FLAGS + card] & L.F_TAKEN:
            out[L.C_ZONE + card] = L.Z_HIDDEN  # unplaced (a redraw)
            taken += 1
    slots = 0
    for i in range(Z):
        if L.HIDDEN >= view[back + i]:  # layout.is_face_down
            out[back + i] = L.HIDDEN  # free again (a redraw)
            slots += 1
    n_flagged = 0
    while n_flagged < pool and (view[L.C_FLAGS + out[region + n_flagged]] & L.F_BOOSTING) != 0 and n_flagged < slots:
        k = nb_below(rng, rng_slot, slots - n_flagged)
        for i in range(Z):
            if out[back + i] == L.HIDDEN:
                if k == 0:
                    card = out[region + n_flagged]
                    out[back + i] = card
                    _place(out, card, L.Z_BACK, i, L.HIDDEN - view[back + i])
                    break
                k -= 1
        n_flagged += 1
    _shuffle(out, region + n_flagged, pool - n_flagged, rng, rng_slot)
    deck_count = view[L.S_DECK_COUNT + opponent]
    loose = pool - deck_count  # own cards that are not in the deck: slots (after the flagged ones) and hand
    next_card = n_flagged
    for i in range(Z):
        if out[back + i] != L.HIDDEN:
            continue
        left = loose - next_card
        if left + taken <= 0:
            break
        k = nb_below(rng, rng_slot, left + taken) if taken > 0 else 0
        if k < left:
            card = out[region + next_card]
            next_card += 1
        else:  # the (k - left)-th unplaced taken card
            k -= left
            card = -1
            for c in range((1 - opponent) * N, (2 - opponent) * N):
                if out[L.C_ZONE + c] == L.Z_HIDDEN and view[L.C_FLAGS + c] & L.F_TAKEN:
                    if k == 0:
                        card = c
                        break
                    k -= 1
            taken -= 1
        out[back + i] = card
        _place(out, card, L.Z_BACK, i, L.HIDDEN - view[back + i])
    for c in range((1 - opponent) * N, (2 - opponent) * N):  # the taken cards left: the hand
        if out[L.C_ZONE + c] == L.Z_HIDDEN and view[L.C_FLAGS + c] & L.F_TAKEN:
            _place(out, c, L.Z_HAND, 0, 0)
    for i in range(next_card + deck_count, pool):  # the hand, before the deck moves down
        _place(out, out[region + i], L.Z_HAND, 0, 0)
    for i in range(deck_count):  # the deck bottom-first at the region's start
        card = out[region + next_card + i]
        out[region + i] = card
        _place(out, card, L.Z_DECK, i, 0)
    for i in range(deck_count, N):
        out[region + i] = 0


@nb.njit(cache=True)
def _named(out, entry_base, upto, card):
    for k in range(upto):
        if out[entry_base + L.CH_T0 + k] == card:
            return True
    return False


@nb.njit(cache=True)
def _fill_hidden_targets(view, out, opponent, rng, rng_slot):
    back = L.S_BACK + opponent * Z
    for entry in range(view[L.S_CHAIN_LEN]):
        base = L.S_CHAIN + entry * L.CH_SIZE
        if view[base + L.CH_KIND] != L.FN_J:
            continue  # only a J has targets (layout.build_view hides no other entry's slots)
        for k in range(min(view[base + L.CH_COUNT], L.CH_TARGETS)):
            if view[base + L.CH_T0 + k] != L.HIDDEN:
                continue
            candidates = 0
            for i in range(Z):
                card = out[back + i]
                if L.HIDDEN >= view[back + i] and card >= 0 and not _named(out, base, k, card):
                    candidates += 1
            chosen = -1
            if candidates > 0:
                pick = nb_below(rng, rng_slot, candidates)
                for i in range(Z):
                    card = out[back + i]
                    if L.HIDDEN >= view[back + i] and card >= 0 and not _named(out, base, k, card):
                        if pick == 0:
                            chosen = card
                            break
                        pick -= 1
            else:  # the view allows no face-down card (the target moved): any hidden card keeps the view
                for card in range(L.N_CARDS):
                    if view[L.C_ZONE + card] == L.Z_HIDDEN and not _named(out, base, k, card):
                        chosen = card
                        break
            out[base + L.CH_T0 + k] = chosen


@nb.njit(cache=True)
def sample_world(view, rules, seat, rng, rng_slot, out):
    """Fill `out` (STATE_SIZE) with a full state consistent with `seat`'s `view`, drawing
    from the SplitMix64 word rng[rng_slot] (the module docstring lists the draws). Returns `out`."""
    opponent = 1 - seat
    for slot in range(L.STATE_SIZE):
        out[slot] = view[slot]
    # own deck: known contents, uniform order
    own = L.S_DECK + seat * N
    count = 0
    for card in range(seat * N, seat * N + N):
        if view[L.C_ZONE + card] == L.Z_HIDDEN and not view[L.C_FLAGS + card] & L.F_TAKEN:
            out[own + count] = card
            count += 1
    _shuffle(out, own, count, rng, rng_slot)
    for i in range(count):
        _place(out, out[own + i], L.Z_DECK, i, 0)
    for i in range(count, N):
        out[own + i] = 0
    _deal_opponent(view, rules, out, opponent, rng, rng_slot)
    if automatic_straight_flush(rules):
        for _ in range(MAX_REDRAWS):
            if not holds_straight_flush(out, rules, opponent):
                break
            _deal_opponent(view, rules, out, opponent, rng, rng_slot)
    _fill_hidden_targets(view, out, opponent, rng, rng_slot)
    out[L.S_RNG] = np.int64(nb_next(rng, rng_slot))
    return out


# ---------------------------------------------------------------- the plain-Python twin
def _straight_flush_reference(zones, flags, rules, p) -> bool:
    with_back = int(rules[R58]) == 1
    span = 2 * N if int(rules[R60]) == 1 else N
    cards = [c for c in ((p * N + i) % L.N_CARDS for i in range(span))
             if (zones[c] == L.Z_HAND or (with_back and zones[c] == L.Z_BACK)) and L.controller(c, flags[c]) == p]
    jokers = sum(1 for c in cards if c % N >= 52) if int(rules[R57]) == 1 else 0
    held = {(c % N // 13, c % N % 13) for c in cards if c % N < 52}
    starts = 13 if int(rules[R56]) == 1 else 10
    return any(sum((suit, (start + k) % 13) not in held for k in range(5)) <= jokers
               for suit in range(4) for start in range(starts))


def sample_world_reference(view: np.ndarray, rules: np.ndarray, seat: int, rng: PyRng) -> np.ndarray:
    """`sample_world` in plain Python (same draws from a `PyRng`): the executable spec."""
    opponent = 1 - seat
    out = np.array(view, dtype=np.int64)
    zones = {c: int(view[L.C_ZONE + c]) for c in range(L.N_CARDS)}

    def shuffled(cards):
        for i in range(len(cards) - 1, 0, -1):
            j = rng.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return cards

    def place(card, zone, pos, set_turn):
        out[L.C_ZONE + card], out[L.C_POS + card], out[L.C_SET_TURN + card] = zone, pos, set_turn
        zones[card] = zone

    flags = {c: int(view[L.C_FLAGS + c]) for c in range(L.N_CARDS)}
    own = shuffled([c for c in range(seat * N, seat * N + N)
                    if view[L.C_ZONE + c] == L.Z_HIDDEN and not flags[c] & L.F_TAKEN])
    out[L.S_DECK + seat * N:L.S_DECK + (seat + 1) * N] = own + [0] * (N - len(own))
    for i, card in enumerate(own):
        place(card, L.Z_DECK, i, 0)

    def deal():
        hidden = [c for c in range(opponent * N, opponent * N + N) if view[L.C_ZONE + c] == L.Z_HIDDEN]
        taken = [c for c in range(seat * N, seat * N + N) if view[L.C_ZONE + c] == L.Z_HIDDEN and flags[c] & L.F_TAKEN]
        flagged = [c for c in hidden if view[L.C_FLAGS + c] & L.F_BOOSTING]
        free = [i for i in range(Z) if L.is_face_down(view[L.S_BACK + opponent * Z + i])]
        flagged, extra = flagged[:len(free)], flagged[len(free):]  # more than slots: cannot happen; dealt as the rest
        rest = extra + [c for c in hidden if not view[L.C_FLAGS + c] & L.F_BOOSTING]

        def into_slot(card, slot):
            out[L.S_BACK + opponent * Z + slot] = card
            place(card, L.Z_BACK, slot, L.set_turn_of(int(view[L.S_BACK + opponent * Z + slot])))

        for card in flagged:
            into_slot(card, free.pop(rng.below(len(free))))
        rest = shuffled(rest)
        deck_count = int(view[L.S_DECK_COUNT + opponent])
        loose = len(rest) - deck_count  # own cards outside the deck
        for slot in free:
            if loose + len(taken) <= 0:
                break
            k = rng.below(loose + len(taken)) if taken else 0
            if k < loose:
                into_slot(rest.pop(0), slot)
                loose -= 1
            else:
                into_slot(taken.pop(k - loose), slot)
        deck, hand = rest[:deck_count], rest[deck_count:]
        for card in taken + hand:
            place(card, L.Z_HAND, 0, 0)
        out[L.S_DECK + opponent * N:L.S_DECK + (opponent + 1) * N] = deck + [0] * (N - len(deck))
        for i, card in enumerate(deck):
            place(card, L.Z_DECK, i, 0)

    deal()
    if automatic_straight_flush(rules):
        for _ in range(MAX_REDRAWS):
            if not _straight_flush_reference(zones, flags, rules, opponent):
                break
            deal()
    for entry in range(int(view[L.S_CHAIN_LEN])):
        base = L.S_CHAIN + entry * L.CH_SIZE
        for k in range(min(int(view[base + L.CH_COUNT]), L.CH_TARGETS)):
            if view[base + L.CH_T0 + k] != L.HIDDEN or view[base + L.CH_KIND] != L.FN_J:
                continue
            named = [int(out[base + L.CH_T0 + j]) for j in range(k)]
            candidates = [int(out[L.S_BACK + opponent * Z + i]) for i in range(Z)
                          if L.is_face_down(view[L.S_BACK + opponent * Z + i]) and out[L.S_BACK + opponent * Z + i] >= 0
                          and int(out[L.S_BACK + opponent * Z + i]) not in named]
            if candidates:
                chosen = candidates[rng.below(len(candidates))]
            else:
                chosen = next((c for c in range(L.N_CARDS) if view[L.C_ZONE + c] == L.Z_HIDDEN and c not in named), -1)
            out[base + L.CH_T0 + k] = chosen
    rng.state, word = splitmix_next(rng.state)
    out[L.S_RNG] = to_signed(word)
    return out
