"""`cardbalance play --game poker_duel`: one match narrated action by action
(draws, summons, sets, activations and responses, each battle with the values
compared, HP after each change)."""

from sim.cards import code_text
from sim.poker_duel import actions as A
from sim.poker_duel import layout as L
from strategies.poker_duel import strategy_name
from strategies.poker_duel.batch import play_match

END_NAMES = ("none", "life", "deck_out", "straight_flush", "draw_straight_flush", "turn_cap", "draw_hp")


def _describe(m, action) -> str:
    kind, a, b = A.decode(action)
    p = m.decider
    if kind == A.ATTACK:
        attacker = m.monster[p][a]
        if b == L.DIRECT:
            return "attacks the player directly with %s (ATK %d)" % (code_text(attacker % 54), m.atk(attacker))
        defender = m.monster[1 - p][b]
        return "attacks %s (ATK %d) with %s (ATK %d)" % (code_text(defender % 54), m.atk(defender),
                                                        code_text(attacker % 54), m.atk(attacker))
    if kind in (A.ACT_SET, A.BOOST):
        card = m.back[p][a]
        what = "activates set %s" % code_text(card % 54) if kind == A.ACT_SET else "boosts with %s on the %s" % (
            code_text(card % 54), "attacker" if b == 0 else "defender" if b == 1
            else code_text(m.monster[(b - 2) // 5][(b - 2) % 5] % 54))
        return what + (" (response)" if m.pend_kind == L.PK_RESPONSE else "")
    if kind == A.PASS and m.pend_kind == L.PK_RESPONSE:
        return "does not respond"
    if kind == A.ACT_HAND:
        return "activates %s from hand" % code_text(a)
    return A.to_text(action)


def replay_log(rules, cell, match_seed) -> list[str]:
    lines = []
    state = {"turn": 0, "hp": None}

    def on_step(m, action):
        if m.turn != state["turn"]:
            state["turn"] = m.turn
            lines.append("turn %d: player %d (hand %d, deck %d) HP %d / %d"
                         % (m.turn, m.active, len(m.hand(m.active)), len(m.deck[m.active]), *m.hp))
        state["hp"] = tuple(m.hp)
        if getattr(m, "search_candidates", None):  # a search agent's top three candidates
            top = sorted(m.search_candidates, key=lambda c: (-c[1], -c[2]))[:3]
            lines.append("  p%d %s weighs %d actions: %s" % (
                m.decider, strategy_name(int(cell[3 + m.decider])), len(m.search_candidates),
                ", ".join("%s (value %.2f, visits %d)" % (A.to_text(a), p / (2 * v) if v else 0, v) for a, v, p in top)))
        lines.append("  p%d %s: %s" % (m.decider, L.PHASE_NAMES[m.phase], _describe(m, action)))

    def after(m):
        if state["hp"] is not None and tuple(m.hp) != state["hp"]:
            lines.append("    HP now %d / %d" % tuple(m.hp))

    class Watch:
        last = None

    def step(m, action):
        if Watch.last is not None:
            after(Watch.last)
        Watch.last = m
        on_step(m, action)

    m = play_match(rules, cell, match_seed, on_step=step)
    after(m)
    winner = "player %d wins" % m.winner if m.winner >= 0 else "draw"
    lines.append("end: %s by %s on turn %d, HP %d / %d" % (winner, END_NAMES[m.end_type], m.turn, *m.hp))
    return lines
