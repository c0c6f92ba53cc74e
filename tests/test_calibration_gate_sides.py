"""Issue 27, part 3: the gate's two-sided claims and identical pairs keep their stated rates.

Seeded, no engine (analysis/calibration.py replays the shipped looks, bounds and decision
rule on a synthetic paired source), ≥ 2,000 replications, seconds.

- `abs_delta > 0` at a true difference of 0 with pairs that differ (30 % discordant): the
  "beyond" side spends α/2 per side, so it fails wrongly ≤ 5 % + 3 MC s.e. (it was 10.1 %
  when |Z| was compared with the one-sided bound);
- `abs_delta > t` on its threshold (Δ = t): ≤ 5 % + 3 s.e. as well;
- `abs_delta > 0.02` passes (|Δ| ≤ t shown, two one-sided tests at α each) wrongly ≤ 5 % when Δ = t;
- identical pairs: a change in π = 3/N of N matches goes unseen (all pairs identical) with
  probability (1 − π)^N ≈ e^−3 ≈ 5 %, the limit the decision text states.
"""

import math

import numpy as np

from analysis import calibration, decisions, gate

RUNS = 4000
LIMIT = 0.05 + 3 * math.sqrt(0.05 * 0.95 / RUNS)


def test_abs_delta_above_zero_fails_at_most_five_percent_when_nothing_moves():
    measured = calibration.simulate(calibration.Case(threshold=0.0, delta=0.0, stat="abs_delta", changed=0.3),
                                    runs=RUNS, seed=271)
    print("abs_delta > 0 at Δ = 0: false fail %.4f (limit %.4f)" % (measured.fail, LIMIT))
    assert measured.fail <= LIMIT, measured


def test_abs_delta_on_its_threshold_fails_at_most_five_percent():
    measured = calibration.simulate(calibration.Case(threshold=0.02, delta=0.02, stat="abs_delta"),
                                    runs=RUNS, seed=272)
    print("abs_delta > 0.02 at Δ = 0.02: false fail %.4f" % measured.fail)
    assert measured.fail <= LIMIT, measured
    assert measured.fail >= 0.02  # not absurdly conservative: α/2 per side still spends about α


def test_abs_delta_false_pass_on_the_threshold_is_at_most_five_percent():
    measured = calibration.simulate(calibration.Case(threshold=0.02, delta=0.02, stat="abs_delta", changed=0.1),
                                    runs=RUNS, seed=273)
    print("abs_delta > 0.02 at Δ = 0.02: false pass %.4f" % measured.passed)
    assert measured.passed <= LIMIT, measured


def test_the_old_one_sided_bound_would_fail_twice_as_often():
    """Shows the test above can fail: |Z| against the α bound is a test at 2α."""
    case = calibration.Case(threshold=0.0, delta=0.0, stat="abs_delta", changed=0.3)
    original = decisions.two_sided_sides
    decisions.two_sided_sides = lambda comparison: (False, False)
    try:
        measured = calibration.simulate(case, runs=RUNS, seed=271)
    finally:
        decisions.two_sided_sides = original
    assert measured.fail > 0.08


def test_identical_pairs_miss_a_change_in_three_of_n_matches_about_five_percent_of_the_time():
    generator = np.random.default_rng(274)
    n = 2000  # paired matches of the scope at the first look
    changed = 3.0 / n
    discordant = generator.binomial(n, changed, size=RUNS)
    unseen = float(np.mean(discordant == 0))
    print("identical pairs at π = 3/N: unseen %.4f (stated ≈ e^-3 = %.4f)" % (unseen, math.exp(-3)))
    assert unseen <= LIMIT
    assert "3 in 2,000" in decisions.identical_limit(n)


def test_the_gate_family_uses_the_half_bounds_for_abs_delta():
    comparison = gate.parse("all.draws.abs_delta > 0")
    assert decisions.two_sided_sides(comparison) == (True, False)
    assert decisions.two_sided_sides(gate.parse("all.draws.abs_delta < 0.01")) == (False, True)
    assert decisions.two_sided_sides(gate.parse("all.draws.delta > 0")) == (False, False)
