"""Calibration of the model-based fair value (analysis/fair_model.py) on synthetic curves with a
known root, the points placed as `cardbalance fair` places them (analysis/fair_value.find:
search, then the confirmation grid), each point on deals of its own (tests/curve_source.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from analysis import fair_model, fair_value
from tests.curve_source import CurveSource, gompertz_shares, logistic_shares

REPLICATIONS = 1000
LEAST = 0.95 - 3 * math.sqrt(0.95 * 0.05 / REPLICATIONS)  # 95 % less 3 binomial standard errors


def _replicate(make_shares, seed):
    """Per replication: (truth, the guaranteed FairValue, the ModelFair) at the settings of
    tests/test_fair_value.py (range 1..100, 200 matches per order and point, 60,000 matches)."""
    rng = np.random.default_rng(seed)
    for replication in range(REPLICATIONS):
        truth = float(rng.uniform(30, 70))
        source = CurveSource(make_shares(truth), seed=seed * 10_000 + replication)
        found = fair_value.find(source, 1, 100, 0.5, first=200, budget=60_000, precision=2)
        yield truth, found, fair_model.fit_found(source, found, orders=2)


def _guaranteed_covers(found, truth) -> bool:
    if found.lower_open or found.upper_open:
        return found.lower <= truth <= found.upper
    return found.lower < truth < found.upper


def test_model_interval_covers_the_root_of_a_logistic_curve_with_a_first_player_edge():
    """Measured (1,000 replications): the model is accepted in 885 and covers 94.2 % of them (the
    bound is 92.9 %); rejected (lack of fit or bend, 5 % each) in 11.5 %, where the guaranteed
    interval is reported; the reported interval covers 94.7 %. Median widths 0.49 (model)
    against 4.0 (guaranteed) on the same 60,000-match budget."""
    covered = reported = accepted = 0
    model_widths, guaranteed_widths = [], []
    for truth, found, model in _replicate(lambda truth: logistic_shares(truth, 12.0, 0.3), seed=4201):
        guaranteed_widths.append(found.width)
        if model.accepted:
            accepted += 1
            hit = model.lower <= truth <= model.upper
            covered += hit
            reported += hit
            model_widths.append(model.width)
        else:
            reported += _guaranteed_covers(found, truth)
    print("model covers %.3f of %d accepted; reported %.3f; median widths model %.3f, guaranteed %.3f"
          % (covered / accepted, accepted, reported / REPLICATIONS, np.median(model_widths),
             np.median(guaranteed_widths)))
    assert accepted >= 0.85 * REPLICATIONS  # the right shape is rarely rejected (two tests at 5 %)
    assert covered / accepted >= LEAST
    assert reported / REPLICATIONS >= LEAST
    assert np.median(model_widths) <= np.median(guaranteed_widths) / 4  # what the model buys


def test_on_a_curve_that_is_not_logistic_the_model_covers_or_is_flagged():
    """A Gompertz (complementary log-log) curve, smooth and monotone but skewed. Measured (1,000):
    covers-or-flagged 98.9 %, flagged 95.2 %; the accepted model covers only 37 of its 48 cases
    (77 %), so without the lack-of-fit tests this would fail."""
    covers_or_flagged = flagged = accepted_covering = 0
    for truth, found, model in _replicate(lambda truth: gompertz_shares(truth, 12.0, 0.3), seed=4202):
        if model.accepted:
            hit = model.lower <= truth <= model.upper
            covers_or_flagged += hit
            accepted_covering += hit
        else:
            flagged += 1
            covers_or_flagged += 1
    accepted = REPLICATIONS - flagged
    print("covers or flagged %.3f; flagged %.3f; accepted cover %d of %d"
          % (covers_or_flagged / REPLICATIONS, flagged / REPLICATIONS, accepted_covering, accepted))
    assert covers_or_flagged / REPLICATIONS >= LEAST
    assert accepted == 0 or accepted_covering / accepted < LEAST  # the flag is what makes it pass


def test_a_flat_curve_is_rejected_not_given_a_narrow_interval():
    """No slope: the Fieller set is unbounded unless noise makes the slope significant, which a
    two-sided z = 1.96 allows in the rising direction 2.5 % of the time; then it is wide."""
    rng = np.random.default_rng(4203)
    values = np.repeat(np.arange(10, 60, 5), 2)
    orders = np.tile([0, 1], len(values) // 2)
    trials = np.full(len(values), 400)
    replications, accepted, reasons = 400, 0, set()
    for _ in range(replications):
        wins = rng.binomial(trials, np.where(orders == 0, 0.55, 0.45))
        model = fair_model.fit(values, orders, wins, trials, target=0.5, direction=1, orders=2, low=1, high=100)
        if model.accepted:
            accepted += 1
            assert model.width > 10  # a chance slope this weak leaves the root loose
        else:
            reasons.add(model.reason.split(" (")[0].split(" %")[0][:40])
            assert model.lower is None
    assert accepted / replications <= 0.025 + 3 * math.sqrt(0.025 * 0.975 / replications), accepted
    assert any("not confidently rising" in reason for reason in reasons), reasons


def test_an_exact_logistic_fit_finds_the_root_where_the_orders_average_to_the_target():
    """Counts equal to their expectations: the fit is exact, so the root is the curve's own,
    also for a target other than ½ (where the orders' edge moves the root)."""
    shares = logistic_shares(40.0, 8.0, 0.5)
    values = np.repeat(np.arange(20, 61, 4), 2).astype(float)
    orders = np.tile([0, 1], len(values) // 2)
    trials = np.full(len(values), 10_000.0)
    p = np.array([shares(v)[o] for v, o in zip(values, orders)])
    from scipy.optimize import brentq
    truth = brentq(lambda v: shares(v).mean() - 0.6, 20, 60)
    model = fair_model.fit(values, orders, p * trials, trials, target=0.6, direction=1, orders=2, low=1, high=100)
    assert model.accepted
    assert model.estimate == pytest.approx(truth, abs=1e-6)
    assert model.lower < truth < model.upper


def test_matches_for_width_follow_the_fitted_slope():
    """Halving the width asks four times the matches; the root bound is below this design's."""
    shares = logistic_shares(50.0, 10.0, 0.3)
    source = CurveSource(shares, seed=11)
    found = fair_value.find(source, 1, 100, 0.5, first=200, budget=40_000, precision=2)
    model = fair_model.fit_found(source, found, orders=2)
    assert model.accepted
    one, half = (fair_model.matches_for_width(model, w, found.matches, model.width) for w in (1.0, 0.5))
    assert half["at_root"] == pytest.approx(4 * one["at_root"], rel=0.01)
    assert one["at_root"] < one["this_design"]
    # p(1 − p) = 0.25 − ε at the root, slope ≈ 0.25/10 per unit: (2 · 1.96 / (1 · 0.025))² · 0.24 ≈ 5,900
    assert 4_000 < one["at_root"] < 8_000


@pytest.mark.slow
def test_the_sequential_design_keeps_the_coverage_and_narrows_the_interval():
    """fair_model.refine (the `--estimator model` design) on the logistic curve: the budget the
    finder left (40,000 in all) goes to rounds at the fitted root and target ± 0.15 until the
    interval is 0.3 wide. Measured (1,000 replications): accepted in 85.6 %, covering 96.0 %
    of them; median width 0.561 before the design, 0.522 after (where both fits were accepted)."""
    rng = np.random.default_rng(4204)
    accepted = covered = 0
    before, after = [], []
    for replication in range(REPLICATIONS):
        truth = float(rng.uniform(30, 70))
        source = CurveSource(logistic_shares(truth, 12.0, 0.3), seed=42040_000 + replication)
        found = fair_value.find(source, 1, 100, 0.5, first=200, budget=40_000, precision=2)
        first_fit = fair_model.fit_found(source, found, orders=2)
        model, design, rounds = fair_model.refine(source, found, first_fit, orders=2, budget=40_000, width=0.3,
                                                  matches=200)
        assert source.matches() <= 40_000
        if first_fit.accepted and model.accepted:
            before.append(first_fit.width)
            after.append(model.width)
        if model.accepted:
            accepted += 1
            covered += model.lower <= truth <= model.upper
    print("accepted %d, covered %.3f, median width before %.3f after %.3f"
          % (accepted, covered / accepted, np.median(before), np.median(after)))
    assert accepted >= 0.75 * REPLICATIONS
    assert covered / accepted >= LEAST
    assert np.median(after) < 0.95 * np.median(before)
