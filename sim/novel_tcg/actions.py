"""Novel TCG actions: one integer each (§18.4), and their text notation.

    END                        0       end the Action or Battle phase
    SUMMON kind position       10000 + kind*4 + position      normal summon, star <= free cap
    ADVANCE kind position      20000 + kind*4 + position      bases chosen by the engine (T-AMB-89)
    EQUIP kind target          30000 + kind*16 + target       target: own front slot, or PERSON
    CHANGE slot position       40000 + slot*4 + position      T-POS-1
    ATTACK attacker target     50000 + attacker*16 + target   front slots or PERSON on either side
    DISCARD kind               60000 + kind                   End phase hand limit (T-PHASE-12)
    EQUIP kind opponent slot   70000 + kind*16 + slot         on an opposing character (T-AMB-31 "true")

Positions are layout.POS_* (0 attack, 1 defense, 2 set face-down). Lists of
legal actions are always in ascending integer order, in both engines.
Text: "end", "summon 9 attack", "advance 11 set", "equip 60 2", "equip 62 person",
"change 3 defense", "attack 0 person", "attack person 4", "discard 61", "equip 60 opponent 2".
"""

from sim.errors import IllegalActionError
from sim.novel_tcg.layout import POSITION_NAMES

PERSON = 15
A_END = 0
A_SUMMON, A_ADVANCE, A_EQUIP, A_CHANGE, A_ATTACK, A_DISCARD = 10000, 20000, 30000, 40000, 50000, 60000
A_EQUIP_OPPONENT = 70000
FAMILY_NAMES = {A_SUMMON: "summon", A_ADVANCE: "advance", A_EQUIP: "equip", A_CHANGE: "change",
                A_ATTACK: "attack", A_DISCARD: "discard", A_EQUIP_OPPONENT: "equip"}


def summon(kind, position):
    return A_SUMMON + kind * 4 + position


def advance(kind, position):
    return A_ADVANCE + kind * 4 + position


def equip(kind, target):
    return A_EQUIP + kind * 16 + target


def equip_opponent(kind, slot):
    return A_EQUIP_OPPONENT + kind * 16 + slot


def change(slot, position):
    return A_CHANGE + slot * 4 + position


def attack(attacker, target):
    return A_ATTACK + attacker * 16 + target


def discard(kind):
    return A_DISCARD + kind


def decode(action: int) -> tuple[int, int, int]:
    """-> (family, a, b); END is (A_END, 0, 0)."""
    family = (action // 10000) * 10000
    rest = action - family
    if family in (A_SUMMON, A_ADVANCE, A_CHANGE):
        return family, rest // 4, rest % 4
    if family in (A_EQUIP, A_ATTACK, A_EQUIP_OPPONENT):
        return family, rest // 16, rest % 16
    return family, rest, 0


def _side(value: int) -> str:
    return "person" if value == PERSON else str(value)


def to_text(action: int) -> str:
    family, a, b = decode(action)
    if family == A_END:
        return "end"
    if family in (A_SUMMON, A_ADVANCE, A_CHANGE):
        return "%s %d %s" % (FAMILY_NAMES[family], a, POSITION_NAMES[b])
    if family in (A_EQUIP, A_ATTACK):
        return "%s %s %s" % (FAMILY_NAMES[family], _side(a), _side(b))
    if family == A_EQUIP_OPPONENT:
        return "equip %d opponent %d" % (a, b)
    return "discard %d" % a


def parse(text: str) -> int:
    """Text notation -> action integer; a malformed action raises IllegalActionError in one line."""
    words = str(text).strip().lower().split()
    usage = ("action '%s' is not understood; write end, summon KIND POSITION, advance KIND POSITION, equip KIND "
             "SLOT|person, equip KIND opponent SLOT, change SLOT POSITION, attack SLOT|person SLOT|person or discard "
             "KIND "
             "(POSITION: attack, defense, set)." % text)

    def number(word, high):
        if word == "person":
            return PERSON
        if not word.isdigit() or int(word) > high:
            raise IllegalActionError(usage)
        return int(word)

    def position(word):
        if word not in POSITION_NAMES:
            raise IllegalActionError(usage)
        return POSITION_NAMES.index(word)

    if words == ["end"]:
        return A_END
    if len(words) == 3 and words[0] in ("summon", "advance"):
        return (summon if words[0] == "summon" else advance)(number(words[1], 62), position(words[2]))
    if len(words) == 3 and words[0] == "equip":
        return equip(number(words[1], 62), number(words[2], 8))
    if len(words) == 4 and words[0] == "equip" and words[2] == "opponent":
        return equip_opponent(number(words[1], 62), number(words[3], 8))
    if len(words) == 3 and words[0] == "change":
        return change(number(words[1], 8), position(words[2]))
    if len(words) == 3 and words[0] == "attack":
        return attack(number(words[1], 8), number(words[2], 8))
    if len(words) == 2 and words[0] == "discard":
        return discard(number(words[1], 62))
    raise IllegalActionError(usage)
