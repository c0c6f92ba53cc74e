"""`cardbalance play --game novel_tcg`: one match narrated on the reference engine.

Each line says what happened: summons with their bases, battles with the
star modifier and the overflow written out, equipment and its durability,
and the duelists' HP after every change.
"""

from sim.novel_tcg import actions as A
from sim.novel_tcg import layout as L
import numpy as np

from sim.novel_tcg.card_pool import TEMPLATES, kind_name, pool_table
from strategies.novel_tcg import strategy_name
from strategies.novel_tcg.batch import C_RANK0, C_STRATEGY0, C_TEMPLATE0, checked_cell, play_match, played_with


def _name(match, kind):
    return kind_name(match.pool, kind)


def _hp(match):
    return "HP %d / %d" % (match.duelists[0].hp, match.duelists[1].hp)


def replay_log(rules, cell, match_seed, data=None) -> list[str]:
    """The narrated match (`data`: a run's game data: its stored decks, batch.played_with)."""
    lines = []
    _, *decks = played_with(rules.to_array(), checked_cell(cell), data)
    for seat in (0, 1):
        template, rank = TEMPLATES[int(cell[C_TEMPLATE0 + seat])], int(cell[C_RANK0 + seat])
        counts = dict(zip(*np.unique(decks[seat], return_counts=True)))
        lines.append("p%d: rank %d, %s deck (star ceiling %d): %s"
                     % (seat, rank, template, rules.star_ceiling(rank),
                        "; ".join("%d x %s" % (copies, kind_name(pool_table(rules), int(kind)))
                                  for kind, copies in counts.items())))
    state = {"turn": None}

    def step(match, action):
        if state["turn"] != match.turn:
            state["turn"] = match.turn
            d = match.duelists[match.active]
            lines.append("turn %d: p%d (hand %d, deck %d) %s" % (match.turn, match.active, sum(d.hand), len(d.deck),
                                                                 _hp(match)))
        p = match.active
        if getattr(match, "search_candidates", None):  # a search agent's top three candidates
            top = sorted(match.search_candidates, key=lambda c: (-c[1], -c[2]))[:3]
            lines.append("  p%d %s weighs %d actions: %s" % (
                p, strategy_name(int(cell[C_STRATEGY0 + p])), len(match.search_candidates),
                ", ".join("%s (value %.2f, visits %d)" % (A.to_text(int(x)), points / (2 * visits) if visits else 0,
                                                         visits) for x, visits, points in top)))
        family, a, b = A.decode(action)
        before = [d.hp for d in match.duelists]
        if family in (A.A_SUMMON, A.A_ADVANCE):
            text = "  p%d %s %s in %s position" % (p, "advance-summons" if family == A.A_ADVANCE else "summons",
                                                   _name(match, a), L.POSITION_NAMES[b])
            if family == A.A_ADVANCE:
                bases, hand_bases = match.canonical_base_set(p, match.star(a), a)
                text += " with bases " + " + ".join(
                    ["%d★ (slot %d)" % (match.star(match.duelists[p].front[s].kind), s) for s in bases]
                    + ["%d★ (from the hand, T-AMB-39)" % match.star(k) for k in hand_bases])
            lines.append(text)
        elif family == A.A_EQUIP:
            where = "the person" if b == A.PERSON else "slot %d" % b
            lines.append("  p%d equips %s on %s" % (p, _name(match, a), where))
        elif family == A.A_EQUIP_OPPONENT:
            lines.append("  p%d equips %s on the opponent's slot %d (T-AMB-31)" % (p, _name(match, a), b))
        elif family == A.A_CHANGE:
            lines.append("  p%d changes slot %d to %s" % (p, a, L.POSITION_NAMES[b]))
        elif family == A.A_DISCARD:
            lines.append("  p%d discards %s (hand limit)" % (p, _name(match, a)))
        elif family == A.A_ATTACK:
            q = 1 - p
            who = "the person" if a == A.PERSON else _name(match, match.duelists[p].front[a].kind)
            if b == A.PERSON:
                lines.append("  p%d attacks with %s directly" % (p, who))
            else:
                target = match.duelists[q].front[b]
                lines.append("  p%d attacks with %s into %s (%s)" % (p, who, _name(match, target.kind),
                                                                     L.POSITION_NAMES[target.position]))
                if a != A.PERSON:
                    delta = match.star(match.duelists[p].front[a].kind) - match.star(target.kind)
                    lines.append("    star difference %+d, modifier %+d per star" % (delta, match.rules.numbers["star_mod"]))
        match.last_battle = None
        state["before"] = before

    def after(match, action):
        family, a, b = A.decode(action)
        p, before = match_turn_player(match, action), state["before"]
        if family == A.A_ATTACK:
            if match.last_battle is not None:
                to_d, to_a, hp_d, hp_a, over_d, over_a = match.last_battle
                lines.append("    deals %d, takes %d; defender at %d, attacker at %d; overflow %d / %d"
                             % (to_d, to_a, hp_d, hp_a, over_d, over_a))
            after = [d.hp for d in match.duelists]
            if after != before:
                lines.append("    %s" % _hp(match))
            weapon = match.duelists[p]
            if a == A.PERSON:
                lines.append("    weapon durability %d" % weapon.weapon_durability if weapon.weapon != L.NONE
                             else "    the weapon is spent")
        if match.over:
            winner = "draw" if match.winner == L.DRAW else "p%d wins" % match.winner
            lines.append("match over on turn %d: %s by %s, %s" % (match.turn, winner, L.END_TYPE_NAMES[match.end_type],
                                                                  _hp(match)))

    def match_turn_player(match, action):
        return state["player"]

    def before_step(match, action):
        state["player"] = match.active
        step(match, action)

    match = play_match(rules, cell, match_seed, on_step=before_step, after_step=after, data=data)
    if not lines[-1].startswith("match over"):
        lines.append("match over: %s" % _hp(match))
    return lines
