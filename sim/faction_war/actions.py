"""Faction War actions: one integer each, and a text notation for people.

    action = kind << 24 | a << 16 | b << 8 | c        (every field 0..255)

Both engines list legal actions in ascending integer order, so the lists can
be compared element by element and a strategy's index means the same action
in both. The notation is what positions (`docs/scenario-format.md`), play
logs and error messages use.

| kind              | a            | b                      | c    | notation                     |
|-------------------|--------------|------------------------|------|------------------------------|
| END               | -            | -                      | -    | `end`                        |
| DISCARD           | card         | -                      | -    | `discard D7`                 |
| PLACE_NORMAL      | card         | row 0..2               | -    | `place H7 row2`              |
| PLACE_FACE        | card         | displaced card or NONE | -    | `face DJ` / `face DJ displace DQ` |
| DISPEL            | ♥ J/Q/K card | target player, BOTH_PLAYERS or NONE | row, or the face card for NONE | `dispel HQ p1 row2` / `dispel HQ both row2` / `dispel HQ p1:DJ` |
| PLACE_BIG_JOKER   | card         | row                    | -    | `joker BJ row1` (F-JOK-H-1, F-JOK-A-1) |
| SMALL_JOKER       | card         | -                      | -    | `small-joker LJ` (F-JOK-S-1) |
| RESPOND_SMALL_JOKER | 0 pass / 1 use | -                  | -    | `pass` / `respond` (F-JOK-S-2, the opponent's decision) |
| DUEL              | 0 give up / 1 commit | -              | -    | `give-up` / `commit` (F-JOK-D-1) |
| EXTRA_PLACE       | card         | -                      | -    | `extra D7` (F-EXT-1)         |
| EXTRA_PAIR        | card (lower id) | card                | -    | `pair D2 D3` (F-EXT-4)       |
| ALIEN_J_MOVE      | card         | -                      | -    | `rebirth D7` (F-ALJ-1)       |
| SPECIAL_PICK      | card         | row                    | -    | `special S2 row2` (F-ALJ-4)  |
| K_ACTIVATE        | mode 1..3    | card or NONE           | K row | `charge1 row1 D5` / `charge3 row2` (F-ALK-2) |
| K_ANSWER          | card         | -                      | -    | `answer C5` (the opponent's choice) |
| MANDATORY_TIMING  | 0 now / 1 after the draw | -          | -    | `effects now` / `effects after-draw` (FA-4 "choice") |
| TIE_PICK          | card         | -                      | -    | `tie C5` (FA-6 "choice": one of the tied cards) |
| ATTACK            | from row     | target row or DIRECT   | -    | `attack row1 row2` / `attack row1 direct` |

Rows are 0..2 inside, `row1..row3` in text (row1 = ♦, row2 = ♠, row3 = ♣).
Card text is `sim.cards.code_text`, prefixed `p0:`/`p1:` when the card is not
the acting player's own.
Kinds reserved for later issues keep their numbers here so encodings never
change meaning.
"""

from sim.cards import code_text, parse_code
from sim.errors import CardbalanceError
from sim.faction_war.layout import (CARDS_PER_PLAYER, DIRECT, card_code, card_id, card_owner,
                                    card_pack)

END = 0
DISCARD = 1
PLACE_NORMAL = 2
PLACE_FACE = 3
DISPEL = 4
PLACE_BIG_JOKER = 5
SMALL_JOKER = 6
EXTRA_PLACE = 7
EXTRA_PAIR = 8
ALIEN_J_MOVE = 9
SPECIAL_PICK = 10
K_ACTIVATE = 11
K_ANSWER = 12
MANDATORY_TIMING = 13
TIE_PICK = 14
ATTACK = 16
RESPOND_SMALL_JOKER = 17
DUEL = 18
NONE = 255  # "no card" in a field
BOTH_PLAYERS = 2  # DISPEL target under FA-18 "both_players_row"

KIND_NAMES = {END: "end", DISCARD: "discard", PLACE_NORMAL: "place", PLACE_FACE: "face",
              DISPEL: "dispel", PLACE_BIG_JOKER: "joker", SMALL_JOKER: "small-joker",
              ATTACK: "attack"}


def encode(kind: int, a: int = 0, b: int = 0, c: int = 0) -> int:
    return (kind << 24) | (a << 16) | (b << 8) | c


def decode(action: int) -> tuple[int, int, int, int]:
    return (action >> 24) & 255, (action >> 16) & 255, (action >> 8) & 255, action & 255


def card_text(card: int, actor: int) -> str:
    text = code_text(card_code(card), card_pack(card))
    owner = card_owner(card)
    return text if owner == actor else "p%d:%s" % (owner, text)


def row_text(row: int) -> str:
    return "direct" if row == DIRECT else "row%d" % (row + 1)


def to_text(action: int, actor: int) -> str:
    """Notation of an action taken by player `actor`."""
    kind, a, b, c = decode(action)
    if kind == END:
        return "end"
    if kind == DISCARD:
        return "discard " + card_text(a, actor)
    if kind == PLACE_NORMAL:
        return "place %s %s" % (card_text(a, actor), row_text(b))
    if kind == PLACE_FACE:
        text = "face " + card_text(a, actor)
        return text if b == NONE else text + " displace " + card_text(b, actor)
    if kind == DISPEL:
        if b == NONE:  # FA-18 "one_card": c is the face card
            return "dispel %s %s" % (card_text(a, actor), card_text(c, actor))
        return "dispel %s %s %s" % (card_text(a, actor), "both" if b == BOTH_PLAYERS else "p%d" % b, row_text(c))
    if kind == PLACE_BIG_JOKER:
        return "joker %s %s" % (card_text(a, actor), row_text(b))
    if kind == SMALL_JOKER:
        return "small-joker " + card_text(a, actor)
    if kind == ATTACK:
        return "attack %s %s" % (row_text(a), row_text(b))
    if kind == EXTRA_PLACE:
        return "extra " + card_text(a, actor)
    if kind == EXTRA_PAIR:
        return "pair %s %s" % (card_text(a, actor), card_text(b, actor))
    if kind == ALIEN_J_MOVE:
        return "rebirth " + card_text(a, actor)
    if kind == SPECIAL_PICK:
        return "special %s %s" % (card_text(a, actor), row_text(b))
    if kind == K_ACTIVATE:
        card = "" if b == NONE else " " + card_text(b, actor)
        return "charge%d %s%s" % (a, row_text(c), card)
    if kind == K_ANSWER:
        return "answer " + card_text(a, actor)
    if kind == RESPOND_SMALL_JOKER:
        return "respond" if a else "pass"
    if kind == DUEL:
        return "commit" if a else "give-up"
    if kind == MANDATORY_TIMING:
        return "effects after-draw" if a else "effects now"
    if kind == TIE_PICK:
        return "tie " + card_text(a, actor)
    return "action(%d,%d,%d,%d)" % (kind, a, b, c)


def _parse_card(token: str, actor: int) -> int:
    owner = actor
    if ":" in token:
        prefix, _, token = token.partition(":")
        if prefix not in ("p0", "p1"):
            raise ValueError(prefix)
        owner = int(prefix[1])
    code, pack = parse_code(token)
    if pack * 54 + code >= CARDS_PER_PLAYER:
        raise ValueError(token)
    return card_id(owner, pack, code)


def _parse_row(token: str, allow_direct: bool = False) -> int:
    if allow_direct and token == "direct":
        return DIRECT
    if token in ("row1", "row2", "row3"):
        return int(token[3]) - 1
    raise ValueError(token)


def from_text(text: str, actor: int) -> int:
    """Parse notation; raises CardbalanceError naming the bad text."""
    words = text.split()
    try:
        if not words:
            raise ValueError(text)
        verb, args = words[0].lower(), words[1:]
        if verb == "end" and not args:
            return encode(END)
        if verb == "discard" and len(args) == 1:
            return encode(DISCARD, _parse_card(args[0], actor))
        if verb == "place" and len(args) == 2:
            return encode(PLACE_NORMAL, _parse_card(args[0], actor), _parse_row(args[1]))
        if verb == "face" and len(args) == 1:
            return encode(PLACE_FACE, _parse_card(args[0], actor), NONE)
        if verb == "face" and len(args) == 3 and args[1] == "displace":
            return encode(PLACE_FACE, _parse_card(args[0], actor), _parse_card(args[2], actor))
        if verb == "dispel" and len(args) == 3 and args[1] in ("p0", "p1", "both"):
            target = BOTH_PLAYERS if args[1] == "both" else int(args[1][1])
            return encode(DISPEL, _parse_card(args[0], actor), target, _parse_row(args[2]))
        if verb == "dispel" and len(args) == 2:
            return encode(DISPEL, _parse_card(args[0], actor), NONE, _parse_card(args[1], actor))
        if verb == "extra" and len(args) == 1:
            return encode(EXTRA_PLACE, _parse_card(args[0], actor))
        if verb == "pair" and len(args) == 2:
            first, second = sorted((_parse_card(args[0], actor), _parse_card(args[1], actor)))
            return encode(EXTRA_PAIR, first, second)
        if verb == "rebirth" and len(args) == 1:
            return encode(ALIEN_J_MOVE, _parse_card(args[0], actor))
        if verb == "special" and len(args) == 2:
            return encode(SPECIAL_PICK, _parse_card(args[0], actor), _parse_row(args[1]))
        if verb in ("charge1", "charge2") and len(args) == 2:
            return encode(K_ACTIVATE, int(verb[-1]), _parse_card(args[1], actor), _parse_row(args[0]))
        if verb == "charge3" and len(args) == 1:
            return encode(K_ACTIVATE, 3, NONE, _parse_row(args[0]))
        if verb == "answer" and len(args) == 1:
            return encode(K_ANSWER, _parse_card(args[0], actor))
        if verb in ("respond", "pass") and not args:
            return encode(RESPOND_SMALL_JOKER, 1 if verb == "respond" else 0)
        if verb == "effects" and args in (["now"], ["after-draw"]):
            return encode(MANDATORY_TIMING, 1 if args[0] == "after-draw" else 0)
        if verb == "tie" and len(args) == 1:
            return encode(TIE_PICK, _parse_card(args[0], actor))
        if verb in ("commit", "give-up") and not args:
            return encode(DUEL, 1 if verb == "commit" else 0)
        if verb == "joker" and len(args) == 2:
            return encode(PLACE_BIG_JOKER, _parse_card(args[0], actor), _parse_row(args[1]))
        if verb == "small-joker" and len(args) == 1:
            return encode(SMALL_JOKER, _parse_card(args[0], actor))
        if verb == "attack" and len(args) == 2:
            return encode(ATTACK, _parse_row(args[0]), _parse_row(args[1], allow_direct=True))
    except ValueError:
        pass
    raise CardbalanceError(
        "action '%s' is not valid notation; expected e.g. 'end', 'discard D7', 'place H7 row2', "
        "'face DJ displace DQ', 'dispel HQ p1 row2', 'attack row1 row2' or 'attack row1 direct'." % text)
