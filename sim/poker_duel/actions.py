"""Integer action encoding of Poker Duel (docs/engine-contract.md: legal
actions are listed in ascending integer order).

    action = kind * 10000 + a * 100 + b

`a` and `b` are small numbers whose meaning depends on the kind; a card is
named by its *code* (0..53, sim/cards.py) in the decider's own deck. Under
D-AMB-60 "k_searches_both" a K may take a card from the opponent's
graveyard, so a decider may also act with a card of the other deck: then
`b` has OTHER (50) added ("the opponent's card of that code"; for SUMMON on
top of the bump slot + 1). Under every other reading b < OTHER. Field
positions of the opponent (J targets) are 0..4 for monster slots and
5..9 for back-row slots, so a J's user names a face-down card by its slot,
never by what it is (D-AMB-21).

| kind        | a              | b                           | when                                   |
|-------------|----------------|-----------------------------|----------------------------------------|
| PASS        | –              | –                           | end main / end battle / pass / done / keep |
| SUMMON      | card code      | bump slot + 1 (0: no bump)  | main phase (D-SUM-*), K placement (D-K-2) |
| SET         | card code      | –                           | main phase (D-SET-1), battle-step Q/K (D-BS-2/6) |
| ACT_HAND    | card code      | –                           | function card from hand (D-FN-2/3)      |
| ACT_SET     | back-row slot  | –                           | set function card (D-FN-5, D-BS-1, D-FN-8) |
| TARGET      | field position | –                           | J targets, K redirect (D-BS-5)          |
| ATTACK      | attacker slot  | target slot, 5 = the player | attack declaration (D-ATK-1/2)          |
| COUNT       | cards          | –                           | Q's draw count (D-Q-2)                  |
| PICK        | card code      | –                           | K's graveyard picks (D-K-3)             |
| BOOST       | back-row slot  | 0 attacker, 1 defender      | damage judgement (D-DS-2)               |
| DISCARD     | card code      | –                           | hand limit (D-END-1)                    |
| REVEAL      | –              | –                           | straight flush under D-AMB-55 "main_phase_declaration" |
| BUMP        | monster slot   | –                           | stand-alone bump, D-AMB-15 "any_time_main" |
| DRAW        | –              | –                           | take the draw, D-AMB-11 "optional"      |
| REDRAW      | –              | –                           | redraw the opening hand, D-AMB-07 "one_redraw" |
"""

from sim.cards import code_text

PASS, SUMMON, SET, ACT_HAND, ACT_SET, TARGET, ATTACK, COUNT, PICK, BOOST, DISCARD, REVEAL, BUMP, DRAW, REDRAW = range(15)
OTHER = 50  # added to b: the card named is the decider's opponent's (D-AMB-60 "k_searches_both")
CARD_KINDS = (SUMMON, SET, ACT_HAND, PICK, DISCARD)  # kinds whose `a` is a card code
KIND_NAMES = ("pass", "summon", "set", "act_hand", "act_set", "target", "attack", "count", "pick", "boost",
              "discard", "reveal", "bump", "draw", "redraw")
KIND_OF_NAME = {name: kind for kind, name in enumerate(KIND_NAMES)}


def encode(kind: int, a: int = 0, b: int = 0) -> int:
    return kind * 10000 + a * 100 + b


def decode(action: int) -> tuple[int, int, int]:
    return action // 10000, (action // 100) % 100, action % 100


def card_of(decider: int, a: int, b: int) -> int:
    """The card id a card kind's (a, b) names for `decider` (OTHER: the opponent's)."""
    return (1 - decider if b >= OTHER else decider) * 54 + a


def name_bits(decider: int, card: int) -> int:
    """The OTHER bit naming `card` for `decider` (0 for their own card)."""
    return OTHER if card // 54 != decider else 0


def bump_of(b: int) -> int:
    """A SUMMON's bump slot, -1 for none."""
    return b % OTHER - 1


def to_text(action: int) -> str:
    """Readable notation, also accepted by `from_text`: "summon S7", "summon S7 bump 2",
    "attack 0 5", "boost 3 1", "act_set 2", "target 6", "count 2", "pick HK", "pass";
    the opponent's card (D-AMB-60 "k_searches_both") is written with a trailing
    apostrophe: "pick S7'", "summon S7' bump 2"."""
    kind, a, b = decode(action)
    if not 0 <= kind < len(KIND_NAMES) or a >= 54 and kind in CARD_KINDS:
        return "action %d" % action
    name = KIND_NAMES[kind]
    if kind in (PASS, REVEAL, DRAW, REDRAW):
        return name
    mark = "'" if kind in CARD_KINDS and b >= OTHER else ""
    if kind in (SET, ACT_HAND, PICK, DISCARD):
        return "%s %s%s" % (name, code_text(a), mark)
    if kind == SUMMON:
        return "summon %s%s" % (code_text(a), mark) + (" bump %d" % bump_of(b) if bump_of(b) >= 0 else "")
    if kind in (ATTACK, BOOST):
        return "%s %d %d" % (name, a, b)
    return "%s %d" % (name, a)


def from_text(text: str) -> int:
    """Inverse of `to_text`; raises ValueError on anything else."""
    from sim.cards import parse_code
    parts = str(text).strip().lower().split()
    if not parts or parts[0] not in KIND_OF_NAME:
        raise ValueError(text)
    kind = KIND_OF_NAME[parts[0]]
    rest = parts[1:]

    def code(word):
        value, pack = parse_code(word.rstrip("'"))
        if pack:
            raise ValueError(text)
        return value

    def other(word):
        return OTHER if word.endswith("'") else 0

    if kind in (PASS, REVEAL, DRAW, REDRAW) and not rest:
        return encode(kind)
    if kind in (SET, ACT_HAND, PICK, DISCARD) and len(rest) == 1:
        return encode(kind, code(rest[0]), other(rest[0]))
    if kind == SUMMON and len(rest) == 1:
        return encode(kind, code(rest[0]), other(rest[0]))
    if kind == SUMMON and len(rest) == 3 and rest[1] == "bump":
        return encode(kind, code(rest[0]), int(rest[2]) + 1 + other(rest[0]))
    if kind in (ATTACK, BOOST) and len(rest) == 2:
        return encode(kind, int(rest[0]), int(rest[1]))
    if kind in (ACT_SET, TARGET, COUNT, BUMP) and len(rest) == 1:
        return encode(kind, int(rest[0]))
    raise ValueError(text)
