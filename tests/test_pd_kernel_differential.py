"""The numba kernel against the reference engine, slot for slot (what exists of
the kernel so far: new match, begin turn, main-phase legal actions)."""

import random

import numpy as np
import pytest

pytest.importorskip("numba")

from sim import rng as rng_module  # noqa: E402
from sim.poker_duel import kernel as K  # noqa: E402
from sim.poker_duel import layout as L  # noqa: E402
from sim.poker_duel.reference import Match  # noqa: E402
from sim.poker_duel.rules import AMBIGUITIES, IMPLEMENTED, load_rules  # noqa: E402


def kernel_new(rules, hp0, hp1, first, seed):
    state = L.new_state()
    K.new_match(rules.to_array(), hp0, hp1, first, np.int64(rng_module.to_signed(seed)), state)
    return state


def kernel_legal(state, rules):
    out = np.zeros(512, dtype=np.int64)
    n = K.main_legal_actions(state, rules.to_array(), out)
    return [int(a) for a in out[:n]]


@pytest.mark.parametrize("preset", ["core", "advanced"])
def test_new_match_and_first_legal_actions_agree_slot_for_slot(preset):
    rules = load_rules(preset)
    for seed in range(2000):
        first = seed % 2
        reference = Match.new(rules, 40, 40 - seed % 3, first, seed * 7919)
        state = kernel_new(rules, 40, 40 - seed % 3, first, seed * 7919)
        expected = reference.to_array()
        assert np.array_equal(state, expected), (seed, np.nonzero(state != expected)[0][:10])
        if not reference.is_over():
            assert kernel_legal(state, rules) == reference.legal_actions(), seed


def test_new_match_agrees_under_random_switches_and_numbers():
    rnd = random.Random(5)
    for trial in range(300):
        amb = {a: rnd.choice(IMPLEMENTED[a]) for a in AMBIGUITIES}
        rules = load_rules(rnd.choice(["core", "advanced"])).with_changes(
            ambiguities=amb, start_hand=rnd.choice([5, 12, 20]), draw_per_turn=rnd.choice([1, 2, 3]),
            back_row=rnd.choice([1, 5]), monster_zone=rnd.choice([1, 3, 5]))
        seed = rnd.getrandbits(64)
        reference = Match.new(rules, 40, 40, trial % 2, seed)
        state = kernel_new(rules, 40, 40, trial % 2, seed)
        assert np.array_equal(state, reference.to_array()), (trial, amb)
        if not reference.is_over():
            assert kernel_legal(state, rules) == reference.legal_actions(), trial
