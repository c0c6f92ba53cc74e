"""The compare gate's error rate and power, measured (issue 17): seeded, no engine, seconds.

A synthetic paired source (analysis/calibration.py) replays thousands of
comparisons through the shipped looks, bounds, paired variance and decision
rule. Targets: a gate whose threshold sits exactly on the true difference
fails wrongly at most 5 % (+ 3 Monte Carlo standard errors), for the default
batches and for --batch 500; a true difference 0.01 beyond the threshold is
caught (fail) by --max-matches at least 90 % of the time.
"""

import math

import numpy as np
import pytest

from analysis import calibration, decisions, gate, sequential
from analysis.gate import Comparison, Field

RUNS = 2000


@pytest.mark.parametrize("batch", [1000, 500])
def test_false_fail_at_the_threshold_is_at_most_five_percent(batch):
    measured = calibration.simulate(calibration.Case(threshold=0.02, delta=0.02, batch=batch), runs=RUNS, seed=17)
    assert measured.fail <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / RUNS), measured
    assert measured.inconclusive > 0.5  # a difference exactly on the threshold is rarely decided


@pytest.mark.parametrize("batch", [1000, 500])
def test_power_one_point_beyond_the_threshold_is_at_least_ninety_percent(batch):
    measured = calibration.simulate(calibration.Case(threshold=0.02, delta=0.03, batch=batch), runs=RUNS, seed=18)
    assert measured.fail >= 0.90, measured
    assert measured.passed == 0.0
    # Sequential stopping pays off: on average well before the cap.
    assert measured.mean_matches < 0.75 * measured.case.max_matches


def test_no_effect_against_a_zero_threshold_fails_at_most_five_percent():
    measured = calibration.simulate(calibration.Case(threshold=0.0, delta=0.0), runs=RUNS, seed=19)
    assert measured.fail <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / RUNS), measured


def test_the_old_fixed_interval_at_every_look_would_fail_the_threshold_case_far_more_often():
    """What issue 17 measured (13 %): a 95 % interval checked at 20 looks. Shows the test can fail."""
    case = calibration.Case(threshold=0.02, delta=0.02)
    plan = sequential.Plan(calibration.looks_of(case), case.max_matches, 0.025)
    plan.bounds = np.full(plan.n_looks, 1.959963984540054)  # the old rule: lower bound of a two-sided 95 % CI
    generator = np.random.default_rng(5)
    # Brownian motion in information time at the planned looks, on the threshold.
    steps = np.diff(np.concatenate([[0.0], plan.fractions]))
    paths = np.cumsum(generator.normal(size=(RUNS, plan.n_looks)) * np.sqrt(steps), axis=1) / np.sqrt(plan.fractions)
    code, _ = decisions.first_decisions(paths, -paths, plan)
    assert np.mean(code == 1) > 0.09


def test_bounds_match_published_obrien_fleming_spending_values():
    # Lan-DeMets O'Brien-Fleming spending, 5 equally spaced looks, one-sided 2.5 %
    # (gsDesign sfLDOF; Jennison & Turnbull 2000, table 7.6).
    expected = [4.8769, 3.3569, 2.6803, 2.2898, 2.0310]
    assert sequential.bounds([0.2, 0.4, 0.6, 0.8, 1.0], 0.025) == pytest.approx(expected, abs=2e-4)
    assert sequential.bounds([1.0], 0.05)[0] == pytest.approx(1.6449, abs=1e-4)  # one look: fixed sample


def test_repeated_p_value_is_the_level_whose_bound_is_reached():
    plan = sequential.Plan(list(range(1000, 20001, 1000)), 20000, 0.05, family_size=4)
    for level in (0.05, 0.05 / 4, 0.003):
        at = sequential.bounds(plan.fractions, level)
        assert plan.p_value(at[12], 12) == pytest.approx(level, rel=2e-2)
    assert plan.p_value(plan.bounds[19], 19) == pytest.approx(0.05, rel=1e-4)  # α and α/j are grid nodes
    assert plan.p_value(-3.0, 5) == 1.0


def test_the_per_run_gate_family_decides_like_the_vectorised_replay():
    case = calibration.Case(threshold=0.02, delta=0.025, batch=2000)
    looks = calibration.looks_of(case)
    plan = sequential.Plan(looks, case.max_matches, 0.05)
    generator = np.random.default_rng(3)
    runs = 40
    z_fail = generator.normal(0.4, 1.0, size=(runs, plan.n_looks)) * 2.5
    z_pass = -z_fail
    codes, look_index = decisions.first_decisions(z_fail, z_pass, plan)
    comparison = gate.parse("all.draws.delta > 0.02")
    spec = type("Spec", (), {"node": comparison, "text": "all.draws.delta > 0.02"})
    for run in range(runs):
        family = decisions.GateFamily([spec], plan, "none")
        for look in range(plan.n_looks):
            # value − threshold = z · se with se = 1: the family recomputes the same z.
            family.update(look, looks[look], lambda field, z=z_fail[run, look]: (0.02 + z, 1.0, False, False))
        decision = family.decisions[family.key(comparison)]
        expected = {1: gate.TRUE, -1: gate.FALSE, 0: gate.UNDECIDED}[int(codes[run])]
        assert decision.truth is expected
        if expected is not gate.UNDECIDED:
            assert decision.look == look_index[run]


def test_holm_keeps_the_family_wise_error_of_five_gates_on_their_thresholds():
    """Five comparisons, each with its truth exactly on its threshold: without a correction
    some gate fails wrongly in about a fifth of the runs; with Holm at most 5 %."""
    runs, m = 400, 5
    case = calibration.Case(threshold=0.0, delta=0.0, batch=2000)
    looks = calibration.looks_of(case)
    plan = sequential.Plan(looks, case.max_matches, 0.05, family_size=m)
    steps = np.diff(np.concatenate([[0.0], plan.fractions]))
    generator = np.random.default_rng(23)
    paths = np.cumsum(generator.normal(size=(runs, m, plan.n_looks)) * np.sqrt(steps), axis=2) / np.sqrt(plan.fractions)
    specs = [type("Spec", (), {"node": gate.parse("s%d.m.delta > 0" % i), "text": "s%d" % i}) for i in range(m)]
    any_fail = {"none": 0, "holm": 0}
    for adjust in any_fail:
        for run in range(runs):
            family = decisions.GateFamily(specs, plan, adjust)
            for look in range(plan.n_looks):
                family.update(look, looks[look],
                              lambda field, r=run, k=look: (paths[r, int(field.scope[1:]), k], 1.0, False, False))
            any_fail[adjust] += any(d.truth is gate.TRUE for d in family.decisions.values())
    assert any_fail["holm"] / runs <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / runs)
    assert any_fail["none"] / runs > 0.12
    assert "Holm" in decisions.GateFamily(specs, plan, "holm").statement()


def test_family_statement_names_the_count_and_the_rate():
    assert decisions.family_statement(1, 0.05, "none") == "1 decision (decisions), wrong with probability at most 5 %."
    assert "family-wise error rate at most 5 %" in decisions.family_statement(30, 0.05, "holm")
    assert "can reach 100 %" in decisions.family_statement(30, 0.05, "none")
    assert "false-discovery rate at most 5 %" in decisions.family_statement(30, 0.05, "bh")


def test_abs_delta_statistics_are_two_sided():
    comparison = Comparison(Field("all", "draws", "abs_delta"), ">", 0.02, "0.02")
    fail, passing = decisions.statistics(comparison, -0.05, 0.01)
    assert fail == pytest.approx(3.0) and passing == pytest.approx(-3.0)  # |−0.05| is 3 se beyond 0.02
    fail, passing = decisions.statistics(comparison, 0.0, 0.005)
    assert passing == pytest.approx(4.0)  # both sides 4 se inside ±0.02
