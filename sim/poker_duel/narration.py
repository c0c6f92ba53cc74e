"""Poker Duel actions in words, for a reader: which card, on what, and why it counts as it does.

`describe(m, action)` says what `action` does in the match `m` (before it is applied): the
cards by name rather than by slot number ("attacks D9 (ATK 9) with S7 (ATK 7)", "boosts with
S4 on the defender (+12 ATK: value 4, same number x3, D-DS-4)"). Used by the play log
(strategies/poker_duel/playlog.py) and the scenario sandbox's --log (position.py).
"""

from sim.cards import code_text
from sim.poker_duel import actions as A
from sim.poker_duel import layout as L


def name(card: int) -> str:
    return code_text(card % L.N_CODES)


def names(cards) -> str:
    return " ".join(name(c) for c in sorted(cards)) or "-"


def describe(m, action) -> str:
    kind, a, b = A.decode(action)
    p = m.decider
    if kind == A.ATTACK:
        attacker = m.monster[p][a]
        if b == L.DIRECT:
            return "attacks the player directly with %s (ATK %d)" % (name(attacker), m.atk(attacker))
        defender = m.monster[1 - p][b]
        return "attacks %s (ATK %d) with %s (ATK %d)" % (name(defender), m.atk(defender),
                                                        name(attacker), m.atk(attacker))
    if kind in (A.ACT_SET, A.BOOST):
        card = m.back[p][a]
        if kind == A.ACT_SET:
            what = "activates set %s" % name(card)
        else:
            target = m.attacker if b == 0 else m.target if b == 1 else m.monster[(b - 2) // 5][(b - 2) % 5]
            what = "boosts with %s on the %s%s" % (name(card), "attacker" if b == 0 else "defender" if b == 1
                                                   else name(target), boost_reason(m, card, target))
        return what + (" (response)" if m.pend_kind == L.PK_RESPONSE else "")
    if kind == A.PASS and m.pend_kind == L.PK_RESPONSE:
        return "does not respond"
    if kind == A.PASS and m.pend_kind == L.PK_DRAW:
        return "does not draw (D-AMB-11)"
    if kind == A.PASS and m.pend_kind == L.PK_MULLIGAN:
        return "keeps the opening hand"
    if kind == A.ACT_HAND:
        return "activates %s from hand" % code_text(a)
    if kind == A.BUMP:
        return "bumps %s" % name(m.monster[p][a])
    if kind == A.TARGET and m.pend_kind != L.PK_NONE:
        card = m.monster[1 - p][a] if a < 5 else m.back[1 - p][a - 5]
        if 0 <= a < 10 and card >= 0:
            return "targets %s%s (%s)" % ("" if a < 5 else "the set ", name(card), A.to_text(action))
    if kind == A.COUNT:
        return "chooses %d (%s)" % (a, A.to_text(action))
    return A.to_text(action)


MULTIPLIER_REASONS = {6: "same suit and number ×6, D-DS-6", 3: "same number ×3, D-DS-4",
                      2: "same suit ×2, D-DS-5", 1: "no suit or number in common ×1, D-DS-7"}


def boost_reason(m, card: int, target: int) -> str:
    """' (+10 ATK: value 5, same suit ×2, D-DS-5)': what the boost adds and which rule multiplies it."""
    if target < 0:
        return ""
    amount, value = m.boost_amount(card, target), m.value(card)
    factor = amount // value if value and amount % value == 0 else None
    return " (+%d ATK: value %d, %s)" % (amount, value, MULTIPLIER_REASONS.get(factor, "×%s" % factor))


def atk_words(m, card: int, atk: int) -> str:
    boost = atk - m.value(card)
    return "ATK %d" % atk + (" (value %d %+d boost)" % (m.value(card), boost) if boost else "")
