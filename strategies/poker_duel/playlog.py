"""`cardbalance play --game poker_duel`: one match narrated action by action
(draws, summons, sets, activations and responses; each battle with the values
compared and the rule that decided it — the colour rule or the tie reading —,
each boost with its multiplier and clause, HP after each change), in the order
things happened: a battle's result before the next turn's header and draw.

The narrator sees everything (both hands, every draw): the log is for a
designer reading a match, not a seat's view. Effects that happen inside an
action (the turn's draw, a Q's cards, destroyed monsters, the battle's
result) are found by comparing the table before and after that action."""

from sim.poker_duel import actions as A
from sim.poker_duel import layout as L
from sim.poker_duel.narration import atk_words as _atk_words, describe as _describe, name as _name, names as _names
from sim.poker_duel.reference import colour
from strategies.poker_duel import strategy_name
from strategies.poker_duel.batch import play_match

END_NAMES = ("none", "life", "deck_out", "straight_flush", "draw_straight_flush", "turn_cap", "draw_hp")


class _Before:
    """What the table looked like just before an action."""

    def __init__(self, m):
        self.zone = list(m.zone)
        self.hp = tuple(m.hp)
        self.turn = m.turn
        self.attacker, self.target = m.attacker, m.target
        self.values = self.words = None
        if (m.phase in (L.PH_BATTLE, L.PH_DAMAGE) and m.attacker >= 0 and m.target >= 0
                and m.zone[m.attacker] == L.Z_MONSTER and m.zone[m.target] == L.Z_MONSTER):
            self.values = (m.atk(m.attacker), m.atk(m.target))  # compared if this action ends the attack
            self.words = (_atk_words(m, m.attacker, self.values[0]), _atk_words(m, m.target, self.values[1]))
            self.same_colour = colour(m.attacker) == colour(m.target)
            self.tie_reading = m.rules.reading("D-AMB-42")


def _battle_reason(before: _Before) -> str:
    """Which rule compared the two ATK values: the colour rule, or the tie reading."""
    a, d = before.values
    if a == d:
        return "equal ATK: D-AMB-42 reading '%s'" % before.tie_reading
    if before.same_colour:
        return "same colour, so the higher ATK wins (D-DC-2)"
    return "different colours, so the lower ATK wins (D-DC-3)"


def _effects(before: _Before, m) -> list[str]:
    """Lines for what one action caused, in the order it happened: the battle's values and the
    rule that decided it, cards destroyed, HP; then a new turn's header and its draws."""
    lines = []
    if before.values is not None and m.attacker != before.attacker:
        lines.append("    battle: %s %s vs %s %s — %s" % (_name(before.attacker), before.words[0],
                                                         _name(before.target), before.words[1],
                                                         _battle_reason(before)))
    elif before.target == L.DIRECT_TARGET and m.attacker != before.attacker and m.hp != before.hp:
        lines.append("    direct attack by %s" % _name(before.attacker))
    destroyed = [c for c in range(L.N_CARDS) if before.zone[c] == L.Z_MONSTER and m.zone[c] == L.Z_GRAVE]
    if destroyed:
        lines.append("    to the graveyard from the field: %s" % _names(destroyed))
    if tuple(m.hp) != before.hp:
        change = ", ".join("p%d %+d" % (p, m.hp[p] - before.hp[p]) for p in (0, 1) if m.hp[p] != before.hp[p])
        lines.append("    HP now %d / %d (%s)" % (*m.hp, change))
    if m.turn != before.turn:
        lines.append("turn %d: player %d (hand %d, deck %d) HP %d / %d"
                     % (m.turn, m.active, len(m.hand(m.active)), len(m.deck[m.active]), *m.hp))
    for p in (0, 1):
        drawn = [c for c in range(p * L.N_CODES, (p + 1) * L.N_CODES)
                 if before.zone[c] == L.Z_DECK and m.zone[c] == L.Z_HAND]
        if drawn:
            lines.append("    p%d draws %s (hand %d, deck %d)" % (p, _names(drawn), len(m.hand(p)), len(m.deck[p])))
        redrawn = [c for c in range(p * L.N_CODES, (p + 1) * L.N_CODES)
                   if before.zone[c] == L.Z_HAND and m.zone[c] == L.Z_DECK]
        if redrawn:
            lines.append("    p%d shuffles %s back into the deck" % (p, _names(redrawn)))
    return lines


def replay_log(rules, cell, match_seed) -> list[str]:
    lines = []
    watch = {"before": None, "match": None}

    def step(m, action):
        if watch["before"] is None:
            lines.append("turn %d: player %d (hand %d, deck %d) HP %d / %d"
                         % (m.turn, m.active, len(m.hand(m.active)), len(m.deck[m.active]), *m.hp))
            for p in (0, 1):
                lines.append("    p%d holds %s" % (p, _names(m.hand(p))))
        else:
            lines.extend(_effects(watch["before"], m))
        if getattr(m, "search_candidates", None):  # a search agent's top three candidates
            top = sorted(m.search_candidates, key=lambda c: (-c[1], -c[2]))[:3]
            lines.append("  p%d %s weighs %d actions: %s" % (
                m.decider, strategy_name(int(cell[3 + m.decider])), len(m.search_candidates),
                ", ".join("%s (value %.2f, visits %d)" % (A.to_text(a), p / (2 * v) if v else 0, v) for a, v, p in top)))
        lines.append("  p%d %s: %s" % (m.decider, L.PHASE_NAMES[m.phase], _describe(m, action)))
        watch["before"], watch["match"] = _Before(m), m

    m = play_match(rules, cell, match_seed, on_step=step)
    if watch["before"] is not None:
        lines.extend(_effects(watch["before"], m))
    winner = "player %d wins" % m.winner if m.winner >= 0 else "draw"
    lines.append("end: %s by %s on turn %d, HP %d / %d" % (winner, END_NAMES[m.end_type], m.turn, *m.hp))
    return lines
