"""Calibration of the fair-value finder (analysis/fair_value.py) on synthetic logistic
win curves with a known fair value: no real matches, seconds to run."""

from __future__ import annotations

import math

import numpy as np
import pytest

from analysis import fair_value
from sim.errors import CardbalanceError
from tests.curve_source import CurveSource, logistic_shares


def LogisticSource(truth: float, scale: float, first_edge: float, seed: int) -> CurveSource:
    """Seat 0's decided share per first-player order: logistic((v - truth) / scale ± first_edge).
    The equal-weight mean over the two orders is exactly ½ at v = truth (the two are symmetric)."""
    return CurveSource(logistic_shares(truth, scale, first_edge), seed)


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
        if found.estimate is not None:  # None only beside an open side (test below)
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


def _refused(truth, scale, seed) -> tuple[bool, bool]:
    """(refused, refused by the confirmation stage) of one find over 1..100 at the settings of the coverage test."""
    try:
        fair_value.find(LogisticSource(truth, scale, 0.3, seed), 1, 100, 0.5, first=200, budget=60_000, precision=2)
    except fair_value.NotReached as error:
        return True, bool(error.points)
    return False, False


def test_a_root_outside_the_range_is_refused_in_95_percent_of_1000_replications():
    """Issue 37 item 1: the old finder said 'not reached' only when stage 0's two ends were both
    confident, and otherwise printed the range end as the fair value ("(36, 36]"). The root here
    lies 2 to 5 units beyond either end, on rising and falling curves (the end's share 0.46 to
    0.40). Measured: refused in 1,000 of 1,000, 236 of them by the confirmation stage's end test;
    stage 0 alone (the old finder) refuses 76 %, so this test fails on it. Power by hand (1,000
    replications each): 14 % at 0.5 units beyond, 63 % at 1 unit (share 0.48), 99.7 % at 2."""
    rng = np.random.default_rng(3701)
    replications, refused, by_confirmation = 1000, 0, 0
    for replication in range(replications):
        beyond = float(rng.uniform(2, 5))
        truth = 100 + beyond if rng.random() < 0.5 else 1 - beyond
        scale = 12.0 if rng.random() < 0.5 else -12.0
        said, late = _refused(truth, scale, seed=100_000 + replication)
        refused += said
        by_confirmation += late
    least = 0.95 - 3 * math.sqrt(0.95 * 0.05 / replications)
    print("refused %.3f, by the confirmation stage %d" % (refused / replications, by_confirmation))
    assert refused / replications >= least
    assert (refused - by_confirmation) / replications < least  # stage 0's check alone would not pass


def test_a_root_inside_the_range_is_refused_at_most_5_percent_of_1000_replications():
    """The refusal's error: roots anywhere in 1..100, the ends included, where an end is nearly at
    the target (measured: 0 refusals of 1,000; the bound is 2.5 % + α)."""
    rng = np.random.default_rng(3702)
    replications = 1000
    refused = sum(_refused(float(rng.uniform(1, 100)), 12.0 if k % 2 else -12.0, seed=200_000 + k)[0]
                  for k in range(replications))
    assert refused / replications <= 0.05, refused


def test_no_point_estimate_beside_an_open_side():
    """A root just inside the top end: no grid point is confidently above the target, so the
    interval is open at 100 and the finder gives the interval only (it used to print a value)."""
    found = fair_value.find(LogisticSource(99.8, 12.0, 0.3, seed=7), 1, 100, 0.5, first=200, budget=60_000)
    assert found.upper_open and found.upper == 100 and found.lower == 98
    assert found.estimate is None


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
