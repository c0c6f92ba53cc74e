"""The Poker Duel match state: one flat int64 array with named slots.

Both engines agree on this layout: the coming numba kernel works on it
directly, the reference engine packs its Python objects into it
(`reference.Match.to_array`) so a differential test can compare the two
after every action. Every size is fixed (no slot depends on the rules), so
one compiled kernel serves every rule set.

Cards: `card = owner * 54 + code` (code as in sim/cards.py: suit*13 + rank-1,
52 big joker, 53 small joker). Each player plays their own deck (D-COMP-1),
so a card's owner never changes; decks and graveyards are their owner's
(D-AMB-60). A card's *controller* is its owner, except for a card a K took
from the opponent's graveyard under D-AMB-60 "k_searches_both": flag
F_TAKEN marks it as controlled by its owner's opponent (in whose hand,
monster zone, back row or chain it then is) until it goes back to its
owner's graveyard or deck. Without that reading no card has the flag.

    ┌──────────────── globals (S_*) ─────────────────┐┌─ decks ──────────┐
    │ rng turn active first phase decider winner end ││ count0 count1    │
    │ hp0 hp1 start_hp0 start_hp1 seq                ││ deck0[54] (top = │
    │ uses[2][3] (J/Q/K this turn, D-FN-7)           ││  deck_p[count-1])│
    │ turn_suit new_attacks attacker target passes   ││ deck1[54]        │
    │ priority_owner redirect extra_attacker ...     │└──────────────────┘
    │ counters[16]                                   │┌─ zones ──────────┐
    └────────────────────────────────────────────────┘│ monster[2][5]    │
    ┌─ chain (D-FN-8, last in first out) ────────────┐│ back_row[2][5]   │
    │ length, 16 entries × (card player kind n count ││  card id or -1   │
    │                       t0 .. t9)                │└──────────────────┘
    └────────────────────────────────────────────────┘┌─ per card ───────┐
    ┌─ pending choice ───────────────────────────────┐│ zone[108]        │
    │ kind player entry max chosen return list[12]   ││ pos[108]         │
    └────────────────────────────────────────────────┘│ set_turn[108]    │
                                                      │ boost[108]       │
                                                      │ flags[108]       │
                                                      └──────────────────┘
Conventions:
- zone[c] is where card c is; pos[c] its slot in the monster zone or back
  row, its index in the deck stack, or its arrival sequence number in the
  graveyard (S_SEQ counts up), else 0.
- A function card being resolved is Z_CHAIN and keeps its back-row slot
  (D-FN-2, D-AMB-23 "occupied"): the slot is freed when it reaches the
  graveyard (D-FN-4).
- set_turn[c] is the turn a back-row card was set (D-DS-8), else 0.
- boost[c] is the ATK a monster gains from boosts until they expire
  (D-DS-3, D-AMB-38); for a set A-10 committed face-down under D-AMB-36
  "simultaneous" (flag F_COMMITTED) it is the boost's target + 1 until the
  reveal (a seat's view shows 0 for the opponent's hidden cards); else 0.
- an opponent's face-down back-row slot shows, in a seat's view, not HIDDEN
  but `face_down(set_turn)` = HIDDEN - set turn (D-DS-8: the table saw when a
  card was set, not which): `is_face_down(v)` is v <= HIDDEN, `set_turn_of(v)`.
- flags F_COMMITTED also mark a card committed in a D-AMB-32 "simultaneous"
  battle-step round, F_EXTRA_EARNED a defending diamond's earned attack
  (D-AMB-52 "also_defending"); both are bits of the existing flags slots.
- The generator word (S_RNG) is SplitMix64 state (sim/rng.py).
"""

import numpy as np

N_CODES = 54
N_CARDS = 2 * N_CODES
ZONE_SLOTS = 5  # rules.MAX_ZONE: monster zone and back row sizes the layout holds
DIRECT = 5      # attack / field target "the player" (monster slots are 0..4)
NO_CARD = -1

# ---- zones (values of zone[c]) -----------------------------------------------------------
Z_DECK = 1
Z_HAND = 2
Z_MONSTER = 3
Z_BACK = 4       # set face-down in the back row
Z_CHAIN = 5      # activated, on the chain, still holding its back-row slot
Z_GRAVE = 6
Z_BANISHED = 7   # discarded under D-AMB-47 "banished"
Z_HIDDEN = 8     # only in a seat's view: a card that seat cannot see
ZONE_NAMES = {Z_DECK: "deck", Z_HAND: "hand", Z_MONSTER: "monster", Z_BACK: "back_row", Z_CHAIN: "chain",
              Z_GRAVE: "graveyard", Z_BANISHED: "banished", Z_HIDDEN: "hidden"}

# ---- card flags (bits of flags[c]) ----------------------------------------------------------
F_NEW = 1            # summoned or special-summoned this turn (D-BP-2)
F_ATTACKED = 2       # attacked this battle phase (D-AMB-30)
F_EXTRA_USED = 4     # diamond extra attack used this battle phase (D-AMB-52)
F_BOOSTING = 8       # a set A-10 played as a boost, waiting for the graveyard (D-AMB-39)
F_NEW_ATTACKER = 16  # the one new monster that used the D-BP-2 attack
F_EXTRA_EARNED = 32  # D-AMB-52 "also_defending": a diamond that destroyed its attacker, one more
                     # attack (on a monster) in its owner's next battle phase
F_COMMITTED = 64     # D-AMB-36 "simultaneous": a set A-10 committed face-down as a boost; the
                     # card's boost slot holds its target (which + 1) until both reveal
F_JUST_SET = 128     # D-AMB-18 "must_at_once": a function card just set, to be activated at once
F_TAKEN = 256        # D-AMB-60 "k_searches_both": controlled by the owner's opponent (a K took it from the
                     # owner's graveyard); cleared when it goes back to its owner's graveyard or deck

# ---- phases (value of S_PHASE) --------------------------------------------------------------
PH_MAIN = 0
PH_DECLARE = 1   # battle step 1: the turn player declares an attack or ends the battle phase
PH_BATTLE = 2    # battle step 2: priority loop with set J/Q/K (D-BS-1, D-AMB-32)
PH_DAMAGE = 3    # battle step 3: boosts (D-DS-2, D-AMB-36)
PH_DISCARD = 4   # end phase: hand limit (D-END-1)
PH_OVER = 5
PHASE_NAMES = ("main", "declare", "battle_step", "damage_step", "discard", "over")

# ---- pending choices (value of S_PEND_KIND) -------------------------------------------------
PK_NONE = 0
PK_J_TARGETS = 1  # the activator picks J's targets one by one (D-J-2)
PK_Q_COUNT = 2    # the activator picks how many Q draws (D-Q-2)
PK_RESPONSE = 3   # the decider may respond with a set J/Q/K (D-FN-8)
PK_K_PICKS = 4    # K resolves: pick graveyard cards one by one (D-K-3)
PK_K_PLACE = 5    # each picked card: keep, summon (monster, D-K-2) or set (battle step, D-BS-6)
PK_Q_SET = 6      # each card a battle-step Q drew: keep or set (D-BS-2)
PK_REDIRECT = 7   # the defender picks the new attack target among K-summoned monsters (D-BS-5)
PK_DRAW = 8       # D-AMB-11 "optional": the turn player draws (pend_max cards) or not
PK_MULLIGAN = 9   # D-AMB-07 "one_redraw": before turn 1, keep the hand or redraw it once
PENDING_NAMES = ("none", "j_targets", "q_count", "response", "k_picks", "k_place", "q_set", "redirect", "draw",
                 "mulligan")

# ---- function-card kinds on the chain --------------------------------------------------------
FN_J, FN_Q, FN_K, FN_BIG, FN_SMALL = 0, 1, 2, 3, 4

# ---- end types (value of S_END_TYPE); the registry names them --------------------------------
END_NONE = 0
END_LIFE = 1            # HP reached 0 (D-WIN-1)
END_DECK_OUT = 2        # could not draw (D-WIN-2)
END_STRAIGHT_FLUSH = 3  # revealed a straight flush (D-WIN-3)
END_DRAW_SF = 4         # draw: both straight flushes at once (D-AMB-45)
END_TURN_CAP = 5        # draw: the safety cap
END_DRAW_HP = 6         # draw: both at 0 HP at once (only via D-AMB-42 variants; D-AMB-45)
N_END_TYPES = 7
END_TYPE_NAMES = ("none", "life", "deck_out", "straight_flush", "draw_straight_flush", "turn_cap", "draw_hp")
assert len(END_TYPE_NAMES) == N_END_TYPES

# ---- effect counters (S_COUNTERS + k) ---------------------------------------------------------
COUNTER_NAMES = ("summons", "k_summons", "bumps", "sets", "j_uses", "q_uses", "k_uses", "big_jokers",
                 "small_jokers", "responses", "attacks", "direct_attacks", "boosts", "ties",
                 "spade_burn", "heart_heal")
N_COUNTERS = 16
assert len(COUNTER_NAMES) == N_COUNTERS

# ---- global slots -----------------------------------------------------------------------------
S_RNG = 0
S_TURN = 1
S_ACTIVE = 2
S_FIRST = 3
S_PHASE = 4
S_DECIDER = 5
S_WINNER = 6
S_END_TYPE = 7
S_HP = 8             # + p
S_START_HP = 10      # + p
S_SEQ = 12
S_USES = 13          # + p*3 + FN_J/FN_Q/FN_K (escalation counters, D-FN-7)
S_TURN_SUIT = 19     # suit of this turn's hand summons, -1 before the first (D-SUM-1)
S_NEW_ATTACKS = 20   # attacks made by monsters summoned this turn (D-BP-2, D-AMB-31)
S_ATTACKER = 21      # attacking card, or -1
S_TARGET = 22        # attacked card, DIRECT_TARGET for the player, or -1
S_PASSES = 23        # consecutive passes in a priority loop
S_PRIORITY_OWNER = 24  # who started the chain now resolving (gets priority back, D-BS-3)
S_REDIRECTED = 25    # 1 once a K redirect moved this attack (D-AMB-35 "first_wins")
S_EXTRA_ATTACKER = 26  # diamond that may attack again, or -1 (D-ADV-4)
S_CHAIN_LEN = 27
S_PEND_KIND = 28
S_PEND_PLAYER = 29
S_PEND_ENTRY = 30    # the chain entry / card the choice belongs to
S_PEND_MAX = 31
S_PEND_CHOSEN = 32
S_PEND_RETURN = 33   # phase the chain returns to
S_PEND_LIST = 34     # 6 cards (K picks, Q draws, K-summoned monsters) or J target positions
PEND_LIST_SIZE = 12
S_COUNTERS = S_PEND_LIST + PEND_LIST_SIZE
S_DECK_COUNT = S_COUNTERS + N_COUNTERS            # + p
S_DECK = S_DECK_COUNT + 2                         # + p*54 + i
S_MONSTER = S_DECK + 2 * N_CODES                  # + p*5 + i
S_BACK = S_MONSTER + 2 * ZONE_SLOTS               # + p*5 + i
S_CHAIN = S_BACK + 2 * ZONE_SLOTS                 # + i*CH_SIZE
CH_CARD, CH_PLAYER, CH_KIND, CH_N, CH_COUNT, CH_T0 = range(6)
CH_TARGETS = 10  # a J under D-AMB-19 "global" may name up to the whole opponent field
CH_SIZE = CH_T0 + CH_TARGETS
CHAIN_MAX = 16
C_ZONE = S_CHAIN + CHAIN_MAX * CH_SIZE
C_POS = C_ZONE + N_CARDS
C_SET_TURN = C_POS + N_CARDS
C_BOOST = C_SET_TURN + N_CARDS
C_FLAGS = C_BOOST + N_CARDS
STATE_SIZE = C_FLAGS + N_CARDS
DIRECT_TARGET = -2
HIDDEN = -3  # a value a seat's view does not show


def card_id(owner: int, code: int) -> int:
    return owner * N_CODES + code


def new_state() -> np.ndarray:
    return np.zeros(STATE_SIZE, dtype=np.int64)


def controller(card: int, flags: int) -> int:
    """The player whose zones hold `card`: its owner unless F_TAKEN (D-AMB-60)."""
    return card // N_CODES ^ (1 if flags & F_TAKEN else 0)


def face_down(set_turn: int) -> int:
    """A view's value for an occupied face-down slot of the opponent: public set turn, hidden card (D-DS-8)."""
    return HIDDEN - set_turn


def is_face_down(value: int) -> bool:
    return value <= HIDDEN


def set_turn_of(value: int) -> int:
    return HIDDEN - value


def build_view(state: np.ndarray, seat: int, open_info: bool = False) -> np.ndarray:
    """The state as `seat` sees it (D-AMB-08 "hidden"): the cards in the opponent's
    hand and back row (by controller: a card a K took is in its controller's
    zones, D-AMB-60), both decks' order and the generator are hidden; counts,
    monsters, graveyards, HP, the chain and when each face-down card was set
    (`face_down`, D-DS-8) stay public. `open_info` (D-AMB-08 "open") hides only
    the deck order and the generator."""
    view = state.copy()
    view[S_RNG] = HIDDEN
    opponent = 1 - seat
    for p in (0, 1):
        view[S_DECK + p * N_CODES:S_DECK + (p + 1) * N_CODES] = HIDDEN
    zones = state[C_ZONE:C_ZONE + N_CARDS]
    flags = state[C_FLAGS:C_FLAGS + N_CARDS]
    controllers = (np.arange(N_CARDS) // N_CODES) ^ ((flags & F_TAKEN) != 0)
    hide = (zones == Z_DECK) | ((not open_info) & (controllers == opponent) & ((zones == Z_HAND) | (zones == Z_BACK)))
    for base, marker in ((C_ZONE, Z_HIDDEN), (C_POS, HIDDEN), (C_SET_TURN, HIDDEN)):
        view[base:base + N_CARDS][hide] = marker
    # D-AMB-32/36 "simultaneous" commitments and D-AMB-18 "must_at_once" marks (which would tell a
    # function card from an A-10) show as none on hidden cards (a no-op under the other readings);
    # F_TAKEN stays: which cards a K took is public
    view[C_BOOST:C_BOOST + N_CARDS][hide] = 0
    view[C_FLAGS:C_FLAGS + N_CARDS][hide] &= ~(F_COMMITTED | F_JUST_SET)
    for entry in range(int(state[S_CHAIN_LEN])):  # a J's target named by slot, not by what it is
        base = S_CHAIN + entry * CH_SIZE
        if state[base + CH_KIND] != FN_J:
            continue  # only a J has targets (a Q's CH_COUNT is its draw count, its target slots 0)
        for k in range(min(int(state[base + CH_COUNT]), CH_TARGETS)):
            target = int(state[base + CH_T0 + k])
            if target >= 0 and hide[target]:
                view[base + CH_T0 + k] = HIDDEN
    if not open_info:
        for i in range(ZONE_SLOTS):  # which opponent slots are occupied and since when stays public, not by what
            card = state[S_BACK + opponent * ZONE_SLOTS + i]
            if card >= 0 and state[C_ZONE + card] == Z_BACK:
                view[S_BACK + opponent * ZONE_SLOTS + i] = face_down(int(state[C_SET_TURN + card]))
    return view
