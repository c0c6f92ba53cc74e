"""One match played on the reference engine with the compiled strategies: the play log.

`cardbalance play` uses this so that its log narrates every rule step
(`Match.events`), while the decisions come from the same numba strategies,
views and policy generators as the batch kernels (engine contract, "Match
loop"). The same (rules, cell, seed) therefore gives the same match here and
inside a sweep; `tests/test_fw_playlog.py` checks that.
"""

from __future__ import annotations

import numpy as np

from sim import rng as rng_module
from sim.faction_war import actions as A
from sim.faction_war import layout as L
from sim.faction_war.reference import Match
from sim.faction_war.rules import Rules


def play_logged(rules: Rules, factions: tuple[int, int], lives: tuple[int, int], first: int,
                strategies: tuple[int, int], seed: int) -> Match:
    """Play a whole match; the returned Match holds the log in `events`."""
    from strategies.dispatch import choose
    from strategies.view import build_view

    match = Match.new(rules, factions[0], factions[1], lives[0], lives[1], first, seed)
    rules_array = rules.to_array()
    policy_rng = np.array([rng_module.to_signed(rng_module.match_seed(seed, seat + 1)) for seat in (0, 1)],
                          dtype=np.int64)
    view = np.zeros(L.STATE_SIZE, dtype=np.int64)
    while not match.is_over():
        legal = match.legal_actions()
        decider = match.decider
        if len(legal) == 1:
            action = legal[0]
        else:
            build_view(match.to_array(), rules_array, decider, view)
            legal_array = np.array(legal, dtype=np.int64)
            index = choose(strategies[decider], view, rules_array, legal_array, len(legal), policy_rng, decider)
            action = legal[int(index)]
        if A.decode(action)[0] == A.END and match.phase == L.PH_PLACEMENT:
            match.events.append("p%d ends placement" % decider)
        match.apply(action)
    return match
