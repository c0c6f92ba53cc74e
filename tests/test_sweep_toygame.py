"""The toy game other tests rely on: its kernel equals its plain-Python twin, its
paired batches equal two single batches, and its numbers behave as documented."""

import numpy as np
import pytest

import toygame
from sim import aggregate as agg
from sim.errors import CardbalanceError
from sim.rng import match_seed


@pytest.mark.parametrize("rules_name", ["default", "short", "big-die", "no-heal"])
def test_kernel_equals_the_plain_python_twin_match_by_match(toy_game, rules_name):
    rules = toy_game.load_rules(rules_name)
    reference = toy_game.reference_play_match
    n_end, n_counters, bins = len(toy_game.end_types), len(toy_game.counter_names), toy_game.length_bins
    for strategies in ((0, 0), (1, 2), (2, 1), (1, 1)):
        cell = toygame.cell_array(1, 0, 9, 14, 1, *strategies)
        total = agg.empty_aggregate(n_end, n_counters, bins)
        for index in range(200):
            record = reference(rules, cell, match_seed(99, 50 + index))
            agg.accumulate(total, record, n_end, n_counters, bins)
            # one match through the kernel: the same outcome
            single = toy_game.play_batch(rules.to_array(), cell, np.uint64(99), 50 + index, 1)
            assert single[agg.A_OUTCOMES + record[agg.REC_WINNER] * n_end + record[agg.REC_END_TYPE]] == 1
        assert np.array_equal(total, toy_game.play_batch(rules.to_array(), cell, np.uint64(99), 50, 200))


def test_paired_batch_is_two_single_batches_on_the_same_seeds(toy_game):
    cell = toygame.cell_array(0, 1, 12, 12, 0, 1, 0)
    rules_a, rules_b = toy_game.load_rules("default").to_array(), toy_game.load_rules("short").to_array()
    paired = toy_game.play_paired_batch(rules_a, rules_b, cell, np.uint64(5), 0, 3000)
    n_end = len(toy_game.end_types)
    for column, rules in ((agg.P_SUM_A, rules_a), (agg.P_SUM_B, rules_b)):
        single = toy_game.play_batch(rules, cell, np.uint64(5), 0, 3000)
        assert paired[agg.METRIC_SEAT0_WIN, column] == single[agg.A_OUTCOMES:agg.A_OUTCOMES + n_end].sum()
        assert paired[agg.METRIC_TURNS, column] == single[agg.A_TURNS_SUM]
        assert paired[agg.METRIC_FIRST_WIN, column] == single[agg.first_win_slot(n_end)]
    # common random numbers: the short rule set changes only matches longer than 12 turns
    assert paired[agg.METRIC_SEAT0_WIN, agg.P_CROSS] > 0


def test_documented_degenerate_cases(toy_game):
    n_end, n_counters = len(toy_game.end_types), len(toy_game.counter_names)
    rules = toy_game.load_rules("default").to_array()
    # 1 life against a greedy attacker who moves first: every match is won on turn 1
    vector = toy_game.play_batch(rules, toygame.cell_array(0, 0, 50, 1, 0, 0, 0), np.uint64(1), 0, 500)
    seat0 = vector[agg.A_OUTCOMES:agg.A_OUTCOMES + n_end]
    assert seat0.sum() == 500 and vector[agg.A_TURNS_SUM] == 500
    # "exact" (the special victory) exactly when the roll is 1 == the remaining life; the rest are knockouts
    assert 0 < seat0[1] < 500 and seat0[0] + seat0[1] == 500 and seat0[2] == 0
    # turn cap 12 with 1000 life each: every match is a turn_cap draw of 12 turns
    short = toy_game.load_rules("short").to_array()
    vector = toy_game.play_batch(short, toygame.cell_array(0, 0, 1000, 1000, 0, 0, 0), np.uint64(1), 0, 100)
    assert vector[agg.A_OUTCOMES + 2 * n_end + 2] == 100 and vector[agg.A_TURNS_SUM] == 1200
    hist = agg.hist_slot(n_end, n_counters)
    assert vector[hist + 12] == 100
    with pytest.raises(CardbalanceError, match="strategy 'x' is unknown"):
        toy_game.strategy_id("x")
    with pytest.raises(CardbalanceError, match="'die_sides' must be an integer from 2"):
        type(toy_game.load_rules("default"))(die_sides=1)
