"""The "destiny" strategy: a Human that assembles Destiny (F-HUW-1), else greedy.

Destiny wins at once when, in one turn, the Human places 8-9-10 (or 10-9-8)
normal cards in rows 1-2-3 (♦ or ♥ in row 1, ♠ or ♥ 9 in row 2, ♣ in row 3)
and J-Q-K (or K-Q-J) face cards of the rows' suits. There are 12 such sets
of six cards (two number orders × two face orders × ♦/♥ in row 1 × ♠/♥ in
row 2, the two ♥ choices not both).

Heuristic (`greedy.plan_destiny`, once per decision, O(12 × 6)):
- Among the sets whose six cards are all still in the own hand or the own
  deck (the view shows both), take the one with most cards in hand.
- **Fire**: all six in hand (or already placed in their rows this turn) and
  every row still takes its normal and face card this turn → those six
  placements score above everything (1000), so they all happen before any
  other card uses a row's per-turn placement.
- **Hold**: at least two of the six in hand → those cards are never placed
  (their placement scores below ending the placement) and are discarded
  last (keep value 100), so the hand keeps them until the set is complete.
- Otherwise (no complete set left, or fewer than two in hand) it plays
  exactly like greedy (`greedy.py`); an Alien "destiny" player is greedy.

Cost: holding up to six cards weakens the board, which is the trade-off
the variant exists to measure.
"""

import numba as nb

from strategies.faction_war.greedy import STYLE_DESTINY, choose_styled


@nb.njit(cache=True)
def choose_destiny(view, rules, legal, n_legal, policy_rng, seat):
    """Index chosen by the Destiny-seeking Human (see the module docstring)."""
    return choose_styled(view, rules, legal, n_legal, seat, STYLE_DESTINY)
