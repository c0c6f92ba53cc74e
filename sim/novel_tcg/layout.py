"""The Novel TCG match state: one int64 array, slots named here.

    +---------------------------- globals (G_SIZE) ----------------------------+
    | RNG | TURN | ACTIVE | FIRST | PHASE | WINNER | END_TYPE | SUMMONS_USED |  |
    +---------------------------- counters (N_COUNTERS) ------------------------+
    | summons advance_summons bases_used sets equips attacks ... max_star0/1    |
    +---------------------------- seat 0 (SEAT_SIZE), then seat 1 -------------+
    | RANK HP HP_START DECK_COUNT HAND_COUNT GY_COUNT WEAPON WEAPON_DUR         |
    | PERSON_ATTACKED FATIGUE                                                   |
    | HAND: copies held of each card kind (N_KINDS)                             |
    | DECK: card kinds, bottom first, top = DECK[DECK_COUNT - 1] (MAX_DECK)     |
    | FRONT: MAX_FRONT slots x FRONT_FIELDS                                     |
    |   kind(-1 empty) hp_now position summoned_turn changed_turn               |
    |   attacked_turn atk_bonus hp_bonus n_equips                               |
    | BACK: MAX_BACK slots x BACK_FIELDS  kind(-1 empty) host_slot durability   |
    +---------------------------------------------------------------------------+

The hand is held as copies per kind: two copies of one card are the same
card (a vanilla pool), so each choice is one action and listing is canonical.
"This turn" flags are turn stamps (`summoned_turn == S_TURN`), so nothing
has to be reset between turns. Rules slots are in `rules.py` (R_*), the
card pool's fields in `card_pool.py` (F_*).
"""

from sim.novel_tcg.rules import N_KINDS

MAX_DECK = 80    # rules.NUMBERS deck_size maximum
MAX_FRONT = 9    # front_slots maximum
MAX_BACK = 7     # back_slots maximum
NONE = -1

# ---- globals ----
S_RNG, S_TURN, S_ACTIVE, S_FIRST, S_PHASE, S_WINNER, S_END_TYPE, S_SUMMONS_USED = range(8)
G_SIZE = 8
# S_SUMMONS_USED bits: the normal summon, and the face-down set when T-AMB-20 = "no"; under T-AMB-23
# "summon_set_activate" also the stage reached: a set was made, an equipment card was played
USED_SUMMON, USED_SET, ORDER_SET, ORDER_ACTIVATE = 1, 2, 4, 8

PH_ACTION, PH_BATTLE, PH_DISCARD, PH_OVER = 1, 2, 3, 4
POS_ATTACK, POS_DEFENSE, POS_FACEDOWN = 0, 1, 2
POSITION_NAMES = ("attack", "defense", "set")

END_NONE, END_HP, END_DECK_OUT, END_TURN_CAP, END_DOUBLE_KO, END_LIMIT = range(6)
END_TYPE_NAMES = ("none", "hp", "deck_out", "turn_cap", "double_ko", "limit")
N_END_TYPES = len(END_TYPE_NAMES)
DRAW = 2  # S_WINNER of a drawn match

# ---- a seat's view (strategies.novel_tcg.policies.nb_view; sim/novel_tcg/sampler.py redeals it)
VIEW_HIDDEN = -2        # an opposing face-down character's kind
VIEW_HIDDEN_COUNT = -1  # each kind slot of the opponent's hand (its size stays public)
VIEW_UNSEEN = -3        # a deck slot holds VIEW_UNSEEN - kind: one unseen card of that side, ascending

# ---- counters (the record's effect counters, sim/aggregate.py) ----
COUNTER_NAMES = (
    "summons",            # normal summons without bases (face-up or set)
    "advance_summons",    # summons with bases (T-SUMMON-5)
    "bases_used",         # characters sent to the graveyard as bases
    "sets",               # characters set face-down (also counted above)
    "equips",             # equipment cards attached
    "attacks",            # attack declarations (characters and persons)
    "direct_attacks",     # a character attacking the person (T-BATTLE-9)
    "person_attacks",     # the person attacking (T-AMB-64)
    "destroyed",          # characters defeated in battle (T-CHAR-5)
    "dmg_overflow",       # duelist damage from battle overflow (T-BATTLE-5)
    "dmg_direct",         # duelist damage from direct character attacks (T-BATTLE-11)
    "dmg_person",         # duelist damage dealt by a person (person vs person, T-AMB-86)
    "dmg_hitback",        # duelist damage from a character hitting back an attacking person
    "dmg_fatigue",        # T-AMB-07 "fatigue"
    "discards",           # cards sent to the graveyard by the hand limit (T-PHASE-12)
    "front_full",         # Action phases begun with characters in hand and a full front row
    "back_full",          # Action phases begun with character equipment in hand and a full back row
    "max_star0",          # highest star seat 0 put on the field
    "max_star1",
    # §18.3 Q8, the person as a fighter (appended: the counters above keep their slots)
    "weapon_equips",      # Weapons equipped (person equipment; also counted in equips)
    "person_char_dmg",    # damage a person's attacks deal to characters (its ATK, before overflow)
    "person_kills",       # characters a person defeats by attacking them
    "person_block_dmg",   # damage a person deals hitting back a character's direct attack (blocking)
    "person_block_kills",  # characters a person defeats by hitting them back
    "person_kill_stars",  # the stars of the characters a person defeats, both ways (their mean size)
    "hp_lost0",           # duelist HP seat 0 lost, every source (the first player is S_FIRST)
    "hp_lost1",
)
N_COUNTERS = len(COUNTER_NAMES)
(C_SUMMONS, C_ADVANCE, C_BASES, C_SETS, C_EQUIPS, C_ATTACKS, C_DIRECT, C_PERSON_ATTACKS, C_DESTROYED,
 C_DMG_OVERFLOW, C_DMG_DIRECT, C_DMG_PERSON, C_DMG_HITBACK, C_DMG_FATIGUE, C_DISCARDS, C_FRONT_FULL,
 C_BACK_FULL, C_MAX_STAR0, C_MAX_STAR1, C_WEAPON_EQUIPS, C_PERSON_CHAR_DMG, C_PERSON_KILLS, C_PERSON_BLOCK_DMG,
 C_PERSON_BLOCK_KILLS, C_PERSON_KILL_STARS, C_HP_LOST0, C_HP_LOST1) = range(G_SIZE, G_SIZE + N_COUNTERS)

# ---- seats ----
SEAT_BASE = G_SIZE + N_COUNTERS
P_RANK, P_HP, P_HP_START, P_DECK_COUNT, P_HAND_COUNT, P_GY_COUNT, P_WEAPON, P_WEAPON_DUR = range(8)
P_PERSON_ATTACKED, P_FATIGUE = 8, 9
P_HAND = 10
P_DECK = P_HAND + N_KINDS
P_FRONT = P_DECK + MAX_DECK
FRONT_FIELDS = 9
F_KIND, F_HP_NOW, F_POS, F_SUMMONED, F_CHANGED, F_ATTACKED, F_ATK_BONUS, F_HP_BONUS, F_EQUIPS = range(FRONT_FIELDS)
P_BACK = P_FRONT + MAX_FRONT * FRONT_FIELDS
BACK_FIELDS = 3
B_KIND, B_HOST, B_DUR = range(BACK_FIELDS)
# B_HOST = HOST_OPPONENT + slot: the host is the opposing seat's front slot (T-AMB-31 "true"; the card stays in
# the back row of the seat that played it)
HOST_OPPONENT = 16
SEAT_SIZE = P_BACK + MAX_BACK * BACK_FIELDS
STATE_SIZE = SEAT_BASE + 2 * SEAT_SIZE


def seat_base(seat: int) -> int:
    return SEAT_BASE + seat * SEAT_SIZE


def front_slot(seat: int, slot: int) -> int:
    """First array index of front-row slot `slot` of `seat` (add F_*)."""
    return SEAT_BASE + seat * SEAT_SIZE + P_FRONT + slot * FRONT_FIELDS


def back_slot(seat: int, slot: int) -> int:
    return SEAT_BASE + seat * SEAT_SIZE + P_BACK + slot * BACK_FIELDS


def slot_name(index: int) -> str:
    """The name of a state index, for differential-test messages."""
    if index < G_SIZE:
        return ("rng", "turn", "active", "first", "phase", "winner", "end_type", "summons_used")[index]
    if index < SEAT_BASE:
        return "counter " + COUNTER_NAMES[index - G_SIZE]
    seat, offset = divmod(index - SEAT_BASE, SEAT_SIZE)
    if offset < P_HAND:
        return "seat%d %s" % (seat, ("rank", "hp", "hp_start", "deck_count", "hand_count", "gy_count", "weapon",
                                     "weapon_dur", "person_attacked", "fatigue")[offset])
    if offset < P_DECK:
        return "seat%d hand kind %d" % (seat, offset - P_HAND)
    if offset < P_FRONT:
        return "seat%d deck %d" % (seat, offset - P_DECK)
    if offset < P_BACK:
        slot, field = divmod(offset - P_FRONT, FRONT_FIELDS)
        return "seat%d front %d %s" % (seat, slot, ("kind", "hp_now", "pos", "summoned", "changed", "attacked",
                                                     "atk_bonus", "hp_bonus", "n_equips")[field])
    slot, field = divmod(offset - P_BACK, BACK_FIELDS)
    return "seat%d back %d %s" % (seat, slot, ("kind", "host", "durability")[field])
