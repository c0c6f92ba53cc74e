"""The Faction War match state: one flat int64 array with named slots.

Both engines agree on this layout: the numba kernel works on it directly, the
reference engine packs its Python objects into it (`reference.Match.to_array`)
so the differential test can compare the two after every action.

Cards are identified by a global *card id*:

    card = owner * CARDS_PER_PLAYER + pack * 54 + code      (see sim/cards.py)

With one pack per player (FA-34 default) the ids pack*54+code >= 54 are unused
and sit in zone Z_NONE.

    ┌──────────── globals ────────────┐┌── deck stacks ──┐┌──── per card ────┐
    │ rng turn active first phase ... ││ count0 count1   ││ zone[216]        │
    │ life0 life1 faction0 faction1   ││ deck0[108]      ││ ctrl[216]        │
    │ per-turn usage bits, counters   ││ deck1[108]      ││ order[216]       │
    └─────────────────────────────────┘└─────────────────┘│ arrival[216]     │
                                                          │ masks[zone][ctrl]│
                                                          └──────────────────┘
    Table (per player p, rows seen from the player):
        row 0 ♦ | row 1 ♠ | row 2 ♣        extra zones ♦ ♠ ♣ (shared)
        hand, deck (stack, top = deck_p[count_p - 1]), graveyard, exile

Conventions both engines follow:
- zone[c] is where card c is; ctrl[c] is whose hand/row/pile it is in (the
  owner everywhere except a stolen card on the opponent's field, or piles
  under FA-14 "controller").
- order[c] is the global placement sequence number while c is on a row or in
  an extra zone (from S_SEQ, incremented per entry), else 0. arrival[c] is
  the turn number it entered the field, else 0.
- The generator word (S_RNG) is SplitMix64 state (sim/rng.py).
"""

import numpy as np

from sim.cards import CARDS_PER_PACK

MAX_PACKS = 2
CARDS_PER_PLAYER = CARDS_PER_PACK * MAX_PACKS  # 108 id slots per player
N_CARDS = 2 * CARDS_PER_PLAYER  # 216
N_ROWS = 3
DIRECT = 3  # attack target "the player" (rows are 0..2)

# ---- zones (values of zone[c]) ------------------------------------------------
Z_NONE = 0  # id not in play (second pack unused)
Z_DECK = 1
Z_HAND = 2
Z_ROW0 = 3  # row r is Z_ROW0 + r
Z_ROW1 = 4
Z_ROW2 = 5
Z_GRAVE = 6
Z_EXILE = 7
Z_EXTRA = 8  # the shared extra zone of the card's suit (♦/♠/♣)
Z_HIDDEN = 9  # only in a strategy's view: opponent hand or deck card

# ---- phases (value of S_PHASE) ------------------------------------------------
PH_DISCARD = 0  # preparation: the decider discards down to the target (F-TURN-2)
PH_PLACEMENT = 1
PH_ATTACK = 2
PH_OVER = 3

# ---- end types (value of S_END_TYPE); the registry names them -----------------
END_NONE = 0
END_LIFE = 1  # a player reached 0 life (F-WIN-1)
END_DECK_OUT = 2  # a player could not draw (FA-3 "lose")
END_DESTINY = 3  # Human special victory (F-HUW-1)
END_DEEP_SEA = 4  # Alien special victory (F-ALW-1)
END_DOUBLE_KO = 5  # draw: both at 0 life (FA-24 "draw")
END_TURN_CAP = 6  # draw: turn cap reached (F-WIN-4)
END_DECK_OUT_DRAW = 7  # draw: short deck under FA-3 "draw"
END_DEEP_SEA_DRAW = 8  # draw: Deep-Sea Era in Alien vs Alien under FA-17 "draw"
N_END_TYPES = 9

# ---- factions -------------------------------------------------------------------
HUMAN = 0
ALIEN = 1
FACTION_NAMES = ("human", "alien")
# the grid's pairing values (game.py's PAIRING dimension): name -> (seat 0's faction, seat 1's)
PAIRINGS = {
    "human_vs_human": (HUMAN, HUMAN),
    "human_vs_alien": (HUMAN, ALIEN),
    "alien_vs_human": (ALIEN, HUMAN),
    "alien_vs_alien": (ALIEN, ALIEN),
}

# ---- effect counters (S_COUNTERS + k): how often each thing happened -------------
CT_ATTACKS = 0
CT_DIRECT_ATTACKS = 1
CT_DOUBLED_ATTACKS = 2
CT_EMPTY_ROW_HITS = 3  # successful attack on a row without normal cards (F-ATK-6)
CT_FACE_DISPLACED = 4
CT_DISCARDS = 5
CT_DISPELS = 6
CT_POLYMORPH_PLACED = 7
CT_MIND_MAGIC = 8
CT_SELF_DESTRUCT = 9
CT_COMBO_JQ = 10
CT_COMBO_JK = 11
CT_COMBO_QK = 12
CT_HUMAN_PENALTY = 13
CT_EXTRA_PLACED = 14
CT_EXTRA_PAIRS = 15
CT_SPLIT_REBIRTH = 16
CT_SPECIAL_PLACED = 17
CT_ABYSS_EXILES = 18
CT_OUTER_CHARGE = 19
CT_BIG_JOKER_PLACED = 20
CT_SMALL_JOKER_USED = 21
CT_SMALL_JOKER_RESPONSES = 22
CT_JOKER_DUELS = 23
CT_K_ACTIVATIONS = 24
N_COUNTERS = 32  # room for later effects
COUNTER_NAMES = (
    "attacks", "direct_attacks", "doubled_attacks", "empty_row_hits", "face_displaced",
    "discards", "dispels", "polymorph_placed", "mind_magic", "self_destruct",
    "combo_jq", "combo_jk", "combo_qk", "human_penalty", "extra_placed", "extra_pairs",
    "split_rebirth", "special_placed", "abyss_exiles", "outer_charge", "big_joker_placed",
    "small_joker_used", "small_joker_responses", "joker_duels", "outer_charge_activations",
)

# ---- global slots -----------------------------------------------------------------
S_RNG = 0
S_TURN = 1  # 1-based number of the current turn (both players' turns count)
S_ACTIVE = 2  # turn player
S_FIRST = 3  # who moved first
S_PHASE = 4
S_DECIDER = 5  # who must choose the next action
S_WINNER = 6  # -1 running, 0/1 winner, 2 draw
S_END_TYPE = 7
S_SEQ = 8  # next placement sequence number (starts at 1)
S_LIFE = 9  # S_LIFE + p
S_FACTION = 11  # S_FACTION + p
S_START_LIFE = 13  # S_START_LIFE + p (FA-36 "starting_life" cap)
# per-turn usage (reset at the start of each turn)
S_NORMAL_PLACED = 15  # bit r set: a normal card was placed in row r this turn (F-PLC-1)
S_FACE_PLACED = 16  # bit r set: a face card was placed in row r this turn (F-PLC-3)
S_HEARTS_USED = 17  # ♥ J/Q/K used this turn (FA-5)
S_EXTRA_USED = 18  # F-EXT-1 placement used this turn
S_PAIRS_USED = 19  # bit z: extra-zone pair of zone z used this turn (F-EXT-4)
S_J_USED = 20  # bit r: Alien J of row r used this turn
S_K_USED = 21  # bit r: Alien K of row r activated this turn
S_K_SPENT = 22  # bit k: Alien K number k used its activation (FA-30 "once_per_k"); see k_spent_bit
S_PENDING = 23  # 10 slots for multi-step decisions (P_* below)
N_PENDING = 10
S_COUNTERS = S_PENDING + N_PENDING  # 31
S_DECK_COUNT = S_COUNTERS + N_COUNTERS  # S_DECK_COUNT + p
S_DECK = S_DECK_COUNT + 2  # deck of p at S_DECK + p*CARDS_PER_PLAYER, bottom first
C_ZONE = S_DECK + 2 * CARDS_PER_PLAYER
C_CTRL = C_ZONE + N_CARDS
C_ORDER = C_CTRL + N_CARDS
C_ARRIVAL = C_ORDER + N_CARDS
# Zone masks (kernel_masks.py): derived bitsets of the card ids in each (zone,
# controller), MASK_WORDS int64 words each, kept in step with zone/ctrl.
MASK_WORDS = 4  # ids 0..215 as bits
N_MASK_ZONES = Z_HIDDEN + 1  # Z_HIDDEN only in a strategy's view
C_MASKS = C_ARRIVAL + N_CARDS
STATE_SIZE = C_MASKS + N_MASK_ZONES * 2 * MASK_WORDS


def card_id(owner: int, pack: int, code: int) -> int:
    return owner * CARDS_PER_PLAYER + pack * CARDS_PER_PACK + code


def card_owner(card: int) -> int:
    return card // CARDS_PER_PLAYER


def card_code(card: int) -> int:
    return card % CARDS_PER_PACK


def card_pack(card: int) -> int:
    return (card % CARDS_PER_PLAYER) // CARDS_PER_PACK

END_NAMES = ("none", "life", "deck_out", "destiny", "deep_sea", "double_ko", "turn_cap",
             "deck_out_draw", "deep_sea_draw")
PHASE_NAMES = ("discard", "placement", "attack", "over")


# ---- pending multi-step decisions (S_PENDING + P_*) ---------------------------------
# While P_KIND is not PENDING_NONE, the legal actions are those of the pending
# decision only (Alien J special placement, answers to an Alien K).
P_KIND = 0
P_PLAYER = 1  # who must decide (also S_DECIDER)
P_TARGET = 2  # SPECIAL: remaining sum; K1: the number to match; K3: cards still to exile
P_COUNT = 3  # SPECIAL: cards placed so far; K3: cards exiled by both sides so far
P_EXCLUDED = 4  # SPECIAL: the card just moved (not a source); K: the K's row
P_FLAGS = 5  # SPECIAL: 1 once a deck card was taken (the deck is shuffled at the end)
P_OWNER = 6  # K: the K's owner (who heals)
P_KEPT_TARGET = 7  # FA-15 "kept": the sum a later special placement must reach (0: none)
P_KEPT_EXCLUDED = 8  # FA-15 "kept": the moved card, not a source
P_SPARE = 9
PENDING_NONE = 0
PENDING_SPECIAL = 1  # F-ALJ-4 special placement (SPECIAL_PICK ... / END to decline)
PENDING_K1_ANSWER = 2  # F-ALK-2 (1): the opponent picks a card of the same number
PENDING_K3_ANSWER = 3  # F-ALK-2 (3): the opponent picks cards to exile, one at a time
PENDING_RESPOND = 4  # F-JOK-S-2: the opponent may answer a big joker with the small joker
PENDING_DUEL = 5  # F-JOK-D-1: commit or give up (attacker first, P_TARGET/P_COUNT = the two rows)
PENDING_TIMING = 6  # FA-4 "choice": the Human turn player resolves its mandatory effects now or after the draw
PENDING_TIE = 7  # FA-6 "choice": the effect's controller picks one of the tied cards (TIE_PICK)

# PENDING_TIE slots: the candidates (normal cards of row P_TIE_ROW controlled by the
# players in bit set P_TIE_PLAYERS, except P_TIE_EXCLUDED, tied on the smallest or,
# with P_TIE_LARGEST, the largest key) and where the interrupted effect goes on.
P_TIE_ROW = P_TARGET
P_TIE_PLAYERS = P_COUNT
P_TIE_EXCLUDED = P_EXCLUDED  # -1: none
P_TIE_LARGEST = P_FLAGS
P_TIE_SITE = P_OWNER  # TIE_SITE_* below
P_TIE_CONTEXT = P_SPARE  # attack: the attacking row; mandatory effects: `tie_context`
TIE_SITE_ATTACK = 1  # F-ATK-5: the victim of a row hit (chooser: the attacker)
TIE_SITE_MIND_MAGIC = 2  # F-HUQ-1 (chooser: the Human turn player, as for the next two)
TIE_SITE_SELF_DESTRUCT = 3  # F-HUK-1
TIE_SITE_CULL = 4  # F-HUC-JK: the two cards each side keeps
STAGE_BEFORE_DRAW = 0  # mandatory effects resolving at preparation (FA-4)
STAGE_AFTER_DRAW = 1  # ... at the start of placement


def tie_context(stage: int, step: int, keep_a: int, keep_b: int) -> int:
    """P_TIE_CONTEXT of a mandatory effect: its FA-4 stage, the J+K cull's pick step
    (0..3: own first, own second, opponent's first, opponent's second) and the cards
    the cull keeps so far (-1: none yet)."""
    return stage | step << 1 | (keep_a + 1) << 3 | (keep_b + 1) << 11


def tie_context_fields(context: int) -> tuple[int, int, int, int]:
    """Inverse of `tie_context`: (stage, step, keep_a, keep_b)."""
    return context & 1, (context >> 1) & 3, ((context >> 3) & 255) - 1, ((context >> 11) & 255) - 1


def k_spent_bit(card: int) -> int:
    """Bit of S_K_SPENT for an Alien K card: (owner, pack, suit) → 0..11."""
    return (card_owner(card) * MAX_PACKS + card_pack(card)) * 3 + card_code(card) // 13


def fill_masks(state: np.ndarray) -> np.ndarray:
    """Recompute every mask of a packed state from its zone/ctrl slots (in place)."""
    cards = np.flatnonzero(state[C_ZONE:C_ZONE + N_CARDS] != Z_NONE)
    zones = state[C_ZONE + cards]
    ctrls = state[C_CTRL + cards]
    masks = np.zeros(N_MASK_ZONES * 2 * MASK_WORDS, dtype=np.uint64)
    np.bitwise_or.at(masks, (zones * 2 + ctrls) * MASK_WORDS + (cards >> 6),
                     np.left_shift(np.uint64(1), (cards & 63).astype(np.uint64)))
    state[C_MASKS:C_MASKS + masks.size] = masks.view(np.int64)
    return state
