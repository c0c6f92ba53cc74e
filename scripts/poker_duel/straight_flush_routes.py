"""Poker Duel: how the straight flush comes in greedy play (§17 Q4 of the reference).

    python scripts/poker_duel/straight_flush_routes.py 2000 [advanced] [greedy:greedy] [--k-cannot-return-q]

Plays seeded matches on the reference engine (seeds 1..N, first player
alternating) and, for every straight-flush win, records the match turn and the
route: "deal" (the opening hand), "draws only" (no Q used by the winner that
turn), "Q digs" (Q's used, no K brought a Q back) or "K->Q loop" (a K returned a
used Q from the graveyard and the escalating Q's went on digging, D-FN-7,
D-Q-2, D-K-1/3/4). Also prints how many cards the winner had taken from the
deck by then. Slow (plain Python): about a minute per 1,000 matches.

`--k-cannot-return-q` is a counterfactual for sizing the loop, not a rules
reading (no reading of the reference forbids it): the reference engine's K
is patched, for this run only, so that it never offers a Q.
"""

import sys
from collections import Counter

from sim.cards import rank_of
from sim.poker_duel import actions as A
from sim.poker_duel import layout as L
from sim.poker_duel import reference
from sim.poker_duel.rules import load_rules
from strategies.poker_duel import STRATEGIES
from strategies.poker_duel.batch import play_match

Q_INDEX = 1  # Match.uses[p] = [J, Q, K] uses this turn


def main(n: int, preset: str, pairing: str):
    rules = load_rules(preset)
    ids = [STRATEGIES.index(name) for name in pairing.split(":")]
    routes, turns, seen = Counter(), Counter(), []
    sf = 0
    for seed in range(1, n + 1):
        first = seed % 2
        k_q_picks = {}  # (turn, player) -> Q's returned by K

        def on_step(m, action):
            kind, a, _ = A.decode(action)
            if kind == A.PICK and a < 52 and rank_of(a) == 12:
                key = (m.turn, m.decider)
                k_q_picks[key] = k_q_picks.get(key, 0) + 1

        m = play_match(rules, [40, 40, first, ids[0], ids[1]], seed, on_step)
        if m.end_type != L.END_STRAIGHT_FLUSH:
            continue
        sf += 1
        w = m.winner
        taken = L.N_CODES - len(m.deck[w])
        if taken == rules.start_hand:
            route = "deal"
        elif m.uses[w][Q_INDEX] == 0:
            route = "draws only"
        elif k_q_picks.get((m.turn, w), 0) == 0:
            route = "Q digs"
        else:
            route = "K->Q loop"
        routes[route] += 1
        turns[m.turn] += 1
        seen.append(taken)
    print("%s %s: %d matches, straight flush %d (%.1f %%)" % (preset, pairing, n, sf, 100.0 * sf / n))
    for turn in sorted(turns):
        print("  match turn %2d: %4d (%.1f %% of matches)" % (turn, turns[turn], 100.0 * turns[turn] / n))
    for route, count in routes.most_common():
        print("  route %-10s: %4d (%.1f %% of matches, %.0f %% of straight flushes)"
              % (route, count, 100.0 * count / n, 100.0 * count / max(sf, 1)))
    if seen:
        seen.sort()
        print("  cards the winner had taken from the deck: median %d, min %d, max %d"
              % (seen[len(seen) // 2], seen[0], seen[-1]))


def forbid_k_returning_q():
    eligible = reference.Match._k_eligible

    def without_q(match, p):
        return [c for c in eligible(match, p) if rank_of(reference.code_of(c)) != 12]

    reference.Match._k_eligible = without_q


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--k-cannot-return-q"]
    if "--k-cannot-return-q" in sys.argv[1:]:
        forbid_k_returning_q()
    main(int(args[0]) if args else 2000, args[1] if len(args) > 1 else "advanced",
         args[2] if len(args) > 2 else "greedy:greedy")
