"""Poker Duel: the numba kernel against the reference engine over many seeded
random matches (legal lists and packed states after every action).

    python scripts/poker_duel/differential.py 10000 core advanced
    python scripts/poker_duel/differential.py 3000 random          # every match its own implemented readings
    python scripts/poker_duel/differential.py 3000 core:D-AMB-04=attacks_player,D-AMB-11=optional

Prints one line per preset: matches, actions compared, seconds. Exit 1 at the
first difference (with the seed and step). The test suite runs a smaller
sample (tests/test_pd_kernel_differential.py); this is the acceptance run.
"""

import sys
import time

import numpy as np

from sim import rng as rng_module
from sim.poker_duel import kernel as K
from sim.poker_duel import kernel_chain as KC
from sim.poker_duel import layout as L
from sim.poker_duel.reference import Match
import random

from sim.poker_duel.rules import AMBIGUITIES, IMPLEMENTED, load_rules


def one(rules, rules_array, seed, first, out, state):
    reference = Match.new(rules, 40, 40, first, seed)
    K.new_match(rules_array, 40, 40, first, np.int64(rng_module.to_signed(seed)), state)
    if not np.array_equal(state, reference.to_array()):
        return -1, 0
    picker = rng_module.PyRng(seed ^ 0x9E3779B9)
    steps = 0
    while not reference.is_over():
        n = KC.legal_actions(state, rules_array, out)
        legal = reference.legal_actions()
        if [int(a) for a in out[:n]] != legal:
            return -1, steps
        action = legal[picker.below(len(legal))]
        reference.apply(action)
        KC.apply_action(state, rules_array, action)
        if not np.array_equal(state, reference.to_array()):
            return -1, steps
        steps += 1
    return (0 if KC.legal_actions(state, rules_array, out) == 0 else -1), steps


def rules_of(spec, drawer):
    """A preset, "preset:D-AMB-nn=reading,...", or "random" (every ID drawn from IMPLEMENTED)."""
    if spec == "random":
        if drawer is None:
            return load_rules("core")
        amb = {a: drawer.choice(IMPLEMENTED[a]) for a in AMBIGUITIES}
        return load_rules(drawer.choice(["core", "advanced"])).with_changes(
            ambiguities=amb, club_multiplier=drawer.choice([2, 3]))
    preset, _, switches = spec.partition(":")
    amb = dict(item.split("=", 1) for item in switches.split(",") if item)
    return load_rules(preset).with_changes(ambiguities=amb)


def main(argv):
    count = int(argv[0]) if argv else 10000
    presets = argv[1:] or ["core", "advanced"]
    out = np.zeros(512, dtype=np.int64)
    state = L.new_state()
    for preset in presets:
        rules = rules_of(preset, None)
        rules_array = rules.to_array()
        started, actions = time.time(), 0
        drawer = random.Random(20261201)
        for i in range(count):
            seed = rng_module.match_seed(20261201, i)
            if preset == "random":  # the random-rule differential: any implemented reading of every ID
                rules = rules_of(preset, drawer)
                rules_array = rules.to_array()
            status, steps = one(rules, rules_array, seed, i % 2, out, state)
            actions += steps
            if status:
                print("%s: DIFFERENCE at match %d (seed %d) step %d under %s"
                      % (preset, i, seed, steps, rules.differences_from_default()))
                return 1
        print("%s: %d matches, %d actions compared, all equal (%.0f s)" % (preset, count, actions, time.time() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
