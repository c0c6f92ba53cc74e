"""Designs over rule parameters, played on the one executor: the fair-value finder's
points (`cardbalance fair`), sensitivity designs (`cardbalance sensitivity`) and
balance-region maps (`cardbalance map`). Generic over registered games: a parameter
is a per-seat grid value (a game's PER_SEAT dimension) or a number or switch of its
rules (`sim.fair.params`)."""
