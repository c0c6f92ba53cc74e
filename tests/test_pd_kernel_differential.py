"""The numba kernel against the reference engine, slot for slot (what exists of
the kernel so far: new match, begin turn, main-phase legal actions)."""

import random

import numpy as np
import budget
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
    from sim.poker_duel import kernel_chain as KC
    out = np.zeros(512, dtype=np.int64)
    n = KC.legal_actions(state, rules.to_array(), out)
    return [int(a) for a in out[:n]]


@pytest.mark.parametrize("preset", ["core", "advanced"])
def test_new_match_and_first_legal_actions_agree_slot_for_slot(preset):
    rules = load_rules(preset)
    for seed in range(budget.matches(2000, 600)):
        first = seed % 2
        reference = Match.new(rules, 40, 40 - seed % 3, first, seed * 7919)
        state = kernel_new(rules, 40, 40 - seed % 3, first, seed * 7919)
        expected = reference.to_array()
        assert np.array_equal(state, expected), (seed, np.nonzero(state != expected)[0][:10])
        if not reference.is_over():
            assert kernel_legal(state, rules) == reference.legal_actions(), seed


def test_new_match_agrees_under_random_switches_and_numbers():
    rnd = random.Random(5)
    for trial in range(budget.matches(300, 120)):
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


def _differential_play(rules, seed, first, max_steps=20000):
    """Random play restricted to what the kernel has ported (no function-card
    activations), comparing legal lists and packed states after every action."""
    from sim.poker_duel import actions as A
    from sim.poker_duel import kernel_battle as KB
    reference = Match.new(rules, 40, 40, first, seed)
    state = kernel_new(rules, 40, 40, first, seed)
    rules_array = rules.to_array()
    picker = rng_module.PyRng(seed ^ 0x5DEECE66D)
    out = np.zeros(512, dtype=np.int64)
    steps = 0
    while not reference.is_over() and steps < max_steps:
        from sim.poker_duel import kernel_chain as KC
        n = KC.legal_actions(state, rules_array, out)
        legal = reference.legal_actions()
        assert [int(a) for a in out[:n]] == legal, (seed, steps)
        allowed = [a for a in legal if A.decode(a)[0] not in (A.ACT_HAND, A.ACT_SET, A.REVEAL)]
        allowed = allowed or legal  # D-AMB-18 "must_at_once" may leave only a forced activation
        action = allowed[picker.below(len(allowed))]
        reference.apply(action)
        KC.apply_action(state, rules_array, action)  # the whole entry point: pending draws/redraws too
        expected = reference.to_array()
        assert np.array_equal(state, expected), (seed, steps, A.to_text(action), np.nonzero(state != expected)[0][:8])
        steps += 1
    assert reference.is_over() and KB.legal_actions(state, rules_array, out) == 0
    return steps


@pytest.mark.parametrize("preset", ["core", "advanced"])
def test_matches_without_function_cards_agree_after_every_action(preset):
    rules = load_rules(preset)
    total = sum(_differential_play(rules, seed * 104729 + 3, seed % 2) for seed in range(budget.matches(150, 60)))
    assert total > 60 * 20


def test_matches_without_function_cards_agree_under_random_switches():
    rnd = random.Random(17)
    for trial in range(budget.matches(100, 50)):
        amb = {a: rnd.choice(IMPLEMENTED[a]) for a in AMBIGUITIES}
        rules = load_rules(rnd.choice(["core", "advanced"])).with_changes(ambiguities=amb,
                                                                         club_multiplier=rnd.choice([2, 3]))
        _differential_play(rules, rnd.getrandbits(63), trial % 2)


def _full_play(rules, seed, first, max_steps=5000):
    """Random play over every action: legal lists and packed states after every action."""
    from sim.poker_duel import actions as A
    from sim.poker_duel import kernel_chain as KC
    reference = Match.new(rules, 40, 40, first, seed)
    state = kernel_new(rules, 40, 40, first, seed)
    rules_array = rules.to_array()
    picker = rng_module.PyRng(seed ^ 0x2545F491)
    out = np.zeros(512, dtype=np.int64)
    steps = 0
    while not reference.is_over() and steps < max_steps:
        n = KC.legal_actions(state, rules_array, out)
        legal = reference.legal_actions()
        assert [int(a) for a in out[:n]] == legal, (seed, steps)
        action = legal[picker.below(len(legal))]
        reference.apply(action)
        KC.apply_action(state, rules_array, action)
        expected = reference.to_array()
        assert np.array_equal(state, expected), (seed, steps, A.to_text(action), np.nonzero(state != expected)[0][:8])
        steps += 1
    assert reference.is_over() and KC.legal_actions(state, rules_array, out) == 0
    return steps


@pytest.mark.parametrize("preset", ["core", "advanced"])
def test_full_random_matches_agree_after_every_action(preset):
    rules = load_rules(preset)
    for seed in range(budget.matches(200, 80)):
        _full_play(rules, seed * 15485863 + 11, seed % 2)


def test_full_random_matches_agree_under_random_switches():
    rnd = random.Random(23)
    for trial in range(budget.matches(150, 80)):
        amb = {a: rnd.choice(IMPLEMENTED[a]) for a in AMBIGUITIES}
        rules = load_rules(rnd.choice(["core", "advanced"])).with_changes(ambiguities=amb,
                                                                         club_multiplier=rnd.choice([2, 3]))
        _full_play(rules, rnd.getrandbits(63), trial % 2)
