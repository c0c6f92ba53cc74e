"""Wilson intervals and the verdict rule on known cases."""

import math

import numpy as np
import pytest

from analysis.stats import Z95, half_width, rate, wilson_interval
from analysis.verdict import BALANCED, IMBALANCED, UNDECIDED, check_delta, classify
from sim.errors import CardbalanceError

# Newcombe (1998), "Two-sided confidence intervals for the single proportion",
# Stat. Med. 17:857-872, Table II, method 3 (Wilson score, no continuity
# correction); published to 4 decimals, hence the tolerance.
NEWCOMBE_TABLE_II = [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0000, 0.1611),
    (1, 29, 0.0061, 0.1718),
    (29, 29, 0.8830, 1.0000),
]
PUBLISHED_DECIMALS_TOLERANCE = 5e-5


@pytest.mark.parametrize("successes, trials, low, high", NEWCOMBE_TABLE_II)
def test_wilson_matches_newcombe_reference_values(successes, trials, low, high):
    got_low, got_high = wilson_interval(successes, trials)
    assert got_low == pytest.approx(low, abs=PUBLISHED_DECIMALS_TOLERANCE)
    assert got_high == pytest.approx(high, abs=PUBLISHED_DECIMALS_TOLERANCE)


def test_wilson_closed_form_at_zero_successes():
    # 0 of n: the upper bound is exactly z²/(n + z²).
    for n in (1, 7, 100, 10_000):
        low, high = wilson_interval(0, n)
        assert low == 0.0
        assert high == pytest.approx(Z95 ** 2 / (n + Z95 ** 2), rel=1e-12)


def test_wilson_exact_degenerate_ends_and_empty():
    assert wilson_interval(0, 50)[0] == 0.0
    assert wilson_interval(50, 50)[1] == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)  # no trials: nothing is known
    assert math.isnan(rate(0, 0))
    assert rate(3, 4) == 0.75


def test_wilson_is_symmetric_and_contains_the_estimate():
    trials = np.full(101, 100)
    successes = np.arange(101)
    low, high = wilson_interval(successes, trials)
    mirrored_low, mirrored_high = wilson_interval(trials - successes, trials)
    np.testing.assert_allclose(low, 1.0 - mirrored_high, atol=1e-12)
    np.testing.assert_allclose(high, 1.0 - mirrored_low, atol=1e-12)
    assert np.all(low <= successes / trials) and np.all(successes / trials <= high)
    assert np.all((0 <= low) & (high <= 1))


def test_interval_width_shrinks_like_one_over_sqrt_n():
    # At p = ½ the half-width tends to z·½/√n; quadrupling n halves it (up to
    # Wilson's z²/n terms: the ratio is 1.97 at n = 100, within 1 % of 2 from n = 400).
    widths = {n: half_width(n // 2, n) for n in (100, 400, 1600, 6400, 25600, 1_000_000)}
    assert widths[100] > widths[400] > widths[1600] > widths[6400] > widths[25600]
    for n in (400, 1600, 6400):
        assert widths[n] / widths[4 * n] == pytest.approx(2.0, rel=0.01)
    assert widths[1_000_000] * math.sqrt(1_000_000) == pytest.approx(Z95 * 0.5, rel=1e-4)


def test_wilson_coverage_is_near_95_percent():
    # Fixed seed; 20 000 binomial samples; Monte Carlo sd of the coverage is
    # about 0.0015, and Wilson's true coverage at (n=200, p=0.3) is within
    # ±1 point of 95 %, so [0.935, 0.965] fails only on a real error.
    generator = np.random.default_rng(20260101)
    n, p = 200, 0.3
    successes = generator.binomial(n, p, size=20_000)
    low, high = wilson_interval(successes, np.full(successes.shape, n))
    coverage = np.mean((low <= p) & (p <= high))
    assert 0.935 <= coverage <= 0.965


def test_verdict_rule_inside_outside_and_overlapping():
    delta = 0.02
    verdicts = classify([0.49, 0.30, 0.53, 0.47, 0.45, 0.0], [0.51, 0.40, 0.60, 0.49, 0.55, 1.0], delta)
    assert list(verdicts) == [BALANCED, IMBALANCED, IMBALANCED, UNDECIDED, UNDECIDED, UNDECIDED]
    # The band edges belong to the band.
    assert list(classify([0.48], [0.52], delta)) == [BALANCED]


def test_verdict_delta_is_configurable_and_checked():
    assert list(classify([0.46], [0.54], 0.05)) == [BALANCED]
    assert list(classify([0.46], [0.54], 0.02)) == [UNDECIDED]
    for bad in (0, -0.1, 0.5, 2, "x", None):
        with pytest.raises(CardbalanceError, match="delta"):
            check_delta(bad)


def test_stratified_rate_reduces_to_pooled_wilson_for_equal_strata():
    from analysis.stats import stratified_rate
    estimate, low, high, n_eff = stratified_rate([300, 300], [1000, 1000])
    assert estimate == 0.3 and n_eff == pytest.approx(2000)
    assert (low, high) == pytest.approx(wilson_interval(600, 2000), abs=1e-12)


def test_stratified_rate_weights_strata_equally_and_handles_degenerate_ones():
    from analysis.stats import stratified_rate
    # 90 % of 10 000 and 10 % of 1 000: the plain pooled ratio (0.827) is an artefact of the counts.
    estimate, low, high, _ = stratified_rate([9000, 100], [10_000, 1000])
    assert estimate == pytest.approx(0.5) and low < 0.5 < high
    assert stratified_rate([0, 0], [0, 0])[:3] == (pytest.approx(float("nan"), nan_ok=True), 0.0, 1.0)
    estimate, low, high, n_eff = stratified_rate([40, 0], [40, 0])  # one stratum empty, the other all wins
    assert (estimate, high, n_eff) == (1.0, 1.0, 40.0) and low == pytest.approx(wilson_interval(40, 40)[0])


def test_stratified_rates_equal_stratified_rate_per_group_exactly():
    """The vectorised form the report's tables use returns, for every group, the very
    numbers `stratified_rate` gives on its strata: degenerate groups (no trials, all wins,
    one order empty) and random ones, up to five strata, groups in any row order."""
    from analysis.stats import stratified_rate, stratified_rates
    rng = np.random.default_rng(29)
    strata = [([0, 0], [0, 0]), ([40, 0], [40, 0]), ([0, 5], [7, 5]), ([300, 300], [1000, 1000])]
    for _ in range(200):
        k = int(rng.integers(1, 6))
        trials = rng.integers(0, 3000, size=k) * (rng.random(k) > 0.1)
        strata.append((rng.binomial(trials, rng.random()), trials))
    groups = np.concatenate([[g] * len(s[0]) for g, s in enumerate(strata)])
    order = rng.permutation(len(groups))  # strata of a group need not be adjacent
    successes = np.concatenate([s[0] for s in strata])[order]
    trials = np.concatenate([s[1] for s in strata])[order]
    got = stratified_rates(groups[order], successes, trials, len(strata))
    for g in range(len(strata)):
        rows = groups[order] == g
        expected = stratified_rate(successes[rows], trials[rows])
        assert [float(column[g]) for column in got] == pytest.approx(expected, rel=0, abs=0, nan_ok=True)


def test_stratified_null_variance_is_the_restricted_fit_of_each_group():
    """The variance comes from the strata's maximum-likelihood rates under mean = target: checked
    against the fit solved another way — the constrained log-likelihood's derivative in p_1, with
    p_2 = 2·target − p_1, solved by scipy's brentq (the maximum at a bound when the derivative does
    not change sign) — for random groups of two strata (near 0 and 1, unequal trials, all wins, no
    wins) in any row order; one stratum gives the plain score test's target(1 − target)/n; no trials, NaN."""
    from scipy.optimize import brentq

    from analysis.stats import stratified_null_variance

    rng = np.random.default_rng(37)
    strata = [([0, 0], [10, 10]), ([40, 40], [40, 40]), ([0, 31], [50, 31]), ([8900, 400], [9000, 9000])]
    for _ in range(60):
        trials = rng.integers(1, 20_000, size=2)
        strata.append((rng.binomial(trials, rng.choice([0.005, 0.3, 0.5, 0.97, 0.999], size=2)), trials))
    groups = np.repeat(np.arange(len(strata)), 2)
    successes = np.concatenate([s[0] for s in strata]).astype(float)
    trials = np.concatenate([s[1] for s in strata]).astype(float)
    order = rng.permutation(len(groups))
    for target in (0.48, 0.52):
        got = stratified_null_variance(groups[order], successes[order], trials[order], len(strata), target)
        for g, (x, n) in enumerate(strata):
            x, n = np.asarray(x, dtype=float), np.asarray(n, dtype=float)

            def slope(p_1):  # d/dp_1 of the log-likelihood along the constraint: decreasing (concave)
                p = np.array([p_1, 2 * target - p_1])
                score = x / p - (n - x) / (1 - p)
                return float(score[0] - score[1])
            low, high = max(0.0, 2 * target - 1) + 1e-15, min(1.0, 2 * target) - 1e-15
            if slope(low) <= 0:
                best = low
            elif slope(high) >= 0:
                best = high
            else:
                best = brentq(slope, low, high, xtol=1e-15, rtol=1e-15)
            p = np.array([best, 2 * target - best])
            assert got[g] == pytest.approx(float(np.sum(p * (1 - p) / n)) / 4, rel=1e-7), (g, x, n, target)
    one = stratified_null_variance([0, 1, 1], [3, 0, 7], [10, 0, 20], 3, 0.48)
    assert one[0] == pytest.approx(0.48 * 0.52 / 10, rel=1e-12) and one[1] == pytest.approx(0.48 * 0.52 / 20, rel=1e-12)
    assert np.isnan(one[2])


def test_the_stratified_score_test_is_the_plain_score_test_for_one_stratum():
    from analysis.verdict import score_p_values, stratified_score_p_values

    wins, trials = np.array([30.0, 5100.0, 0.0, 9000.0, 0.0]), np.array([100.0, 10_000.0, 50.0, 9000.0, 0.0])
    got = stratified_score_p_values(np.arange(5), wins, trials, 5, 0.02)
    expected = score_p_values(wins / np.maximum(trials, 1), trials, 0.02)
    assert np.allclose(got, expected, rtol=1e-9, atol=1e-15)
    assert got[0][4] == got[1][4] == 1.0  # no trials: no claim
