"""The "random" strategy: a uniform choice over the legal actions.

The baseline every other strategy is measured against. It draws from its
seat's own policy generator (`policy_rng[seat]`, seeded per the engine
contract from `match_seed(seed, seat + 1)`), never from the rule generator,
so swapping a seat's strategy does not change the deck shuffle or any rule
draw. It reads nothing of the view.
"""

import numba as nb

from sim.faction_war import engine_cache
from sim.rng import nb_below

engine_cache.install()  # this module does not import the kernel, which would install it


@nb.njit(cache=True)
def choose_random(view, rules, legal, n_legal, policy_rng, seat):
    """Index 0..n_legal-1, uniform."""
    return nb_below(policy_rng, seat, n_legal)
