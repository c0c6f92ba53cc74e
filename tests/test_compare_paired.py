"""Paired differences and their intervals (analysis/paired.py), on numbers known in advance."""

import math

import numpy as np
import pytest

from analysis import paired
import toygame
from sim import aggregate as agg


def _sums(a, b):
    """Paired sums (1 cell, 1 metric, 5) of per-match values a and b."""
    a, b = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
    return np.array([[[a.sum(), b.sum(), (a * a).sum(), (b * b).sum(), (a * b).sum()]]], dtype=np.int64)


TURNS = paired.Metric("turns", 0, paired.MEAN, "")
DRAWS = paired.Metric("draws", 0, paired.RATE, "")
# cells as analysis reads them: the neutral roles of analysis/dimensions.py
CELL = [{"series": "p", "axis_name": "life", "axis0": 50, "axis1": 50, "strategy0": "g", "strategy1": "g", "first": 0}]


def test_identical_arms_give_exactly_zero_delta():
    values = np.random.default_rng(3).integers(5, 60, size=1000)
    row = paired.paired_table(CELL, [1000], _sums(values, values), {"turns": TURNS}).iloc[0]
    assert row["delta"] == 0.0 and row["delta_low"] == 0.0 and row["delta_high"] == 0.0
    assert row["unpaired_high"] > 0.5  # the unpaired design cannot see that the arms are the same matches


def test_paired_mean_interval_matches_direct_computation_and_beats_unpaired():
    generator = np.random.default_rng(7)
    a = generator.integers(10, 40, size=2000)
    b = a + generator.integers(-1, 3, size=2000)  # a small tweak, strongly correlated with base
    row = paired.paired_table(CELL, [2000], _sums(a, b), {"turns": TURNS}).iloc[0]
    d = b - a
    assert row["delta"] == pytest.approx(d.mean())
    assert row["delta_se"] == pytest.approx(d.std(ddof=1) / math.sqrt(len(d)))
    unpaired_se = math.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
    assert row["unpaired_se"] == pytest.approx(unpaired_se)
    assert row["delta_se"] < row["unpaired_se"] / 5


def test_rate_with_no_event_in_either_arm_still_has_an_interval():
    zeros = np.zeros(500, dtype=np.int64)
    row = paired.paired_table(CELL, [500], _sums(zeros, zeros), {"draws": DRAWS}).iloc[0]
    assert row["delta"] == 0.0
    assert 0.0 < row["delta_high"] < 0.01  # about 2/n: a never-seen difference is small, not proven zero
    assert row["base_low"] == 0.0 and row["base_high"] > 0.0  # Wilson


def test_paired_rate_variance_matches_the_textbook_value_for_many_discordant_pairs():
    generator = np.random.default_rng(11)
    a = generator.integers(0, 2, size=4000)
    b = np.where(generator.random(4000) < 0.1, 1 - a, a)
    row = paired.paired_table(CELL, [4000], _sums(a, b), {"draws": DRAWS}).iloc[0]
    d = b - a
    # Agresti-Min pseudo-counts change the variance by O(1/n) only.
    assert row["delta_se"] == pytest.approx(d.std(ddof=1) / math.sqrt(len(d)), rel=0.01)
    assert -1.0 <= row["delta_low"] <= row["delta"] <= row["delta_high"] <= 1.0


def test_scopes_pool_first_player_orders_and_name_lives():
    cells = [{"series": series, "axis_name": "life", "axis0": life, "axis1": life1, "strategy0": "g",
              "strategy1": "g", "first": first}
             for series in ("x_vs_y", "x_vs_x") for life, life1 in ((30, 30), (30, 60)) for first in (0, 1)]
    scopes = paired.scope_cells(cells)
    assert scopes["all"] == list(range(8))
    assert scopes["x_vs_y"] == [0, 1, 2, 3]
    assert scopes["x_vs_y@life30"] == [0, 1]
    assert scopes["x_vs_x@life30-60"] == [6, 7]
    # a game without a per-seat dimension has series scopes only
    flat = paired.scope_cells([{**cell, "axis_name": ""} for cell in cells])
    assert set(flat) == {"all", "x_vs_y", "x_vs_x"}


def test_single_arm_sums_from_an_aggregate_equal_the_paired_kernels_base_column(toy_game):
    rules = toy_game.load_rules("default").to_array()
    cell = toygame.cell_array(0, 1, 20, 20, 1, 1, 0)
    vector = toy_game.play_batch(rules, cell, 12345, 0, 400)
    sums = toy_game.play_paired_batch(rules, toy_game.load_rules("big-die").to_array(), cell, 12345, 0, 400)
    single = paired.arm_sums_from_aggregate(vector, len(toy_game.end_types))
    assert np.array_equal(single[:, 0], sums[:, agg.P_SUM_A])
    assert np.array_equal(single[:, 1], sums[:, agg.P_SQ_A])
