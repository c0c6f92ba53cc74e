"""Calibration of the fair-value finder (analysis/fair_value.py) on synthetic logistic
win curves with a known fair value: no real matches, seconds to run."""

from __future__ import annotations

import math

import numpy as np
import pytest

from analysis import fair_value
from analysis.stats import stratified_rate
from sim.errors import CardbalanceError


class LogisticSource:
    """Seat 0's decided share per first-player order: logistic((v - truth) / scale ± first_edge).
    The equal-weight mean over the two orders is exactly ½ at v = truth (the two are symmetric)."""

    def __init__(self, truth, scale, first_edge, seed):
        self.truth, self.scale, self.edge = truth, scale, first_edge
        self.rng = np.random.default_rng(seed)
        self.wins, self.trials = {}, {}
        self.used = 0

    def probabilities(self, value):
        u = (value - self.truth) / self.scale
        return np.array([1 / (1 + math.exp(-(u + self.edge))), 1 / (1 + math.exp(-(u - self.edge)))])

    def measure(self, stage, values, matches):
        for value in values:
            have = self.trials.get((stage, value), np.zeros(2))
            extra = matches - have
            if extra[0] <= 0:
                continue
            wins = self.rng.binomial(extra.astype(int), self.probabilities(value))
            self.wins[(stage, value)] = self.wins.get((stage, value), np.zeros(2)) + wins
            self.trials[(stage, value)] = have + extra
            self.used += int(extra.sum())

    def interval(self, stage, value, z):
        estimate, low, high, _ = stratified_rate(self.wins[(stage, value)], self.trials[(stage, value)], z)
        return estimate, low, high

    def matches(self):
        return self.used


def test_fair_value_interval_covers_the_true_value_in_95_percent_of_1000_replications():
    replications, covered, widths, used, errors = 1000, 0, [], [], []
    rng = np.random.default_rng(2026)
    for replication in range(replications):
        truth = float(rng.uniform(30, 70))
        source = LogisticSource(truth, scale=12.0, first_edge=0.3, seed=replication)
        found = fair_value.find(source, 1, 100, 0.5, first=200, budget=60_000, precision=2)
        covered += found.lower <= truth <= found.upper if (found.lower_open or found.upper_open) \
            else found.lower < truth < found.upper
        widths.append(found.width)
        errors.append(abs(found.estimate - truth))
        used.append(found.matches)
        assert found.matches <= 60_000
    rate = covered / replications
    se = math.sqrt(0.95 * 0.05 / replications)
    assert rate >= 0.95 - 3 * se, (rate, np.median(widths))
    assert np.median(widths) <= 6  # and it is not covering by being useless
    assert np.median(errors) <= 0.5  # the point estimate sits near the truth (measured: median 0.22)


def test_a_target_no_value_reaches_is_an_error_not_an_invented_value():
    source = LogisticSource(500.0, scale=5.0, first_edge=0.0, seed=1)
    with pytest.raises(fair_value.NotReached, match="no value of the parameter in 1..100 reaches the target 0.5"):
        fair_value.find(source, 1, 100, 0.5, first=200, budget=60_000)


def test_a_budget_below_the_search_and_one_round_is_refused_before_any_match():
    source = LogisticSource(50.0, scale=5.0, first_edge=0.0, seed=1)
    with pytest.raises(CardbalanceError, match="--max-matches 1000 is too small"):
        fair_value.find(source, 1, 100, 0.5, first=200, budget=1000)
    assert source.matches() == 0


def test_a_falling_metric_is_found_as_well():
    source = LogisticSource(40.0, scale=-10.0, first_edge=0.0, seed=3)
    found = fair_value.find(source, 1, 100, 0.5, first=400, budget=100_000, precision=2)
    assert found.direction == -1
    assert found.lower < 40 < found.upper
