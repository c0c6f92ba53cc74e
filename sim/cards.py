"""Card codes shared by every rule set.

A card *code* identifies the face of a card within one 54-card pack:

    code = suit * 13 + (rank - 1)    for suits 0..3 and ranks 1..13
    code = 52                        big joker  (大王)
    code = 53                        small joker (小王)

Suits are numbered in the order the Faction War rows use them:
0 = ♦ diamond, 1 = ♠ spade, 2 = ♣ club, 3 = ♥ heart.
Ranks: A=1, 2..10, J=11, Q=12, K=13.

Text notation (used by positions, action notation and logs):
suit letter D/S/C/H then rank A,2..10,J,Q,K, e.g. "D7", "HQ", "C10";
jokers are "BJ" (big) and "LJ" (little/small). A card from a player's second
pack carries the suffix "#2" ("D7#2").
"""

DIAMOND, SPADE, CLUB, HEART = 0, 1, 2, 3
SUIT_LETTERS = "DSCH"
SUIT_SYMBOLS = "♦♠♣♥"
RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}
JACK, QUEEN, KING = 11, 12, 13
BIG_JOKER = 52
SMALL_JOKER = 53
CARDS_PER_PACK = 54


def suit_of(code: int) -> int:
    """Suit 0..3 of a code, or -1 for a joker."""
    return code // 13 if code < 52 else -1


def rank_of(code: int) -> int:
    """Rank 1..13 of a code, or 0 for a joker."""
    return code % 13 + 1 if code < 52 else 0


def is_normal(code: int) -> bool:
    """A–10: the normal cards (units) of F-CARD-2."""
    return code < 52 and code % 13 < 10


def is_face(code: int) -> bool:
    """J, Q, K: the face cards of F-CARD-2."""
    return code < 52 and code % 13 >= 10


def is_joker(code: int) -> bool:
    return code >= 52


def code_text(code: int, pack: int = 0) -> str:
    """Text notation of a code ("D7", "HQ", "BJ"), "#2" for the second pack."""
    if code == BIG_JOKER:
        text = "BJ"
    elif code == SMALL_JOKER:
        text = "LJ"
    else:
        rank = rank_of(code)
        text = SUIT_LETTERS[suit_of(code)] + RANK_TEXT.get(rank, str(rank))
    return text + ("#%d" % (pack + 1) if pack else "")


def parse_code(text: str) -> tuple[int, int]:
    """Inverse of `code_text`: returns (code, pack). Raises ValueError."""
    body, _, pack_text = text.strip().partition("#")
    pack = int(pack_text) - 1 if pack_text else 0
    if pack < 0:
        raise ValueError(text)
    body = body.upper()
    if body == "BJ":
        return BIG_JOKER, pack
    if body == "LJ":
        return SMALL_JOKER, pack
    if len(body) < 2 or body[0] not in SUIT_LETTERS:
        raise ValueError(text)
    rank_text = body[1:]
    ranks = {v: k for k, v in RANK_TEXT.items()}
    if rank_text in ranks:
        rank = ranks[rank_text]
    elif rank_text.isdigit() and 2 <= int(rank_text) <= 10:
        rank = int(rank_text)
    else:
        raise ValueError(text)
    return SUIT_LETTERS.index(body[0]) * 13 + rank - 1, pack
