"""Issue 27, part 6: `[vary]` effect intervals clustered by deal cover at 95 %.

Seeded, no engine. A synthetic common-deal design: G clusters (deal cell × chunk) of m
matches; each match has a latent outcome (rate ½) and every arm — the base rule sets A_i
and the variants B_i of k pooled pairs — keeps it except for a share `changed` of the
matches, flipped independently per arm, so every arm has the same rate and the true effect
is 0. Per cluster, given the latent count L, an arm's wins are L − Bin(L, c) + Bin(m − L, c)
exactly. 4,000 replications per case through analysis/vary_effects.clustered_difference.

Targets: coverage ≥ 95 % − 3 MC s.e. for one pair and for 4 pooled pairs at 23 % and 46 %
of matches changed (the independent-arms interval: 85 % and 68 %); and the paired interval
much narrower than the independent one for one pair.
"""

import math

import numpy as np
import pytest

from analysis.game_sections import difference_interval
from analysis.vary_effects import clustered_difference

RUNS, CLUSTERS, MATCHES = 4000, 32, 500
FLOOR = 0.95 - 3 * math.sqrt(0.95 * 0.05 / RUNS)


def arms(pairs, changed, seed, shared):
    """(RUNS, CLUSTERS) wins of the pooled A arms and of the pooled B arms, and their trials.
    shared: the varied value changes the same matches in every pooled pair (the same deal
    reacts the same way to it; the pairs differ in another varied value) — the case where
    pooling repeats the deals; else each arm's changes are its own."""
    generator = np.random.default_rng(seed)
    latent = generator.binomial(MATCHES, 0.5, size=(RUNS, CLUSTERS))
    def flipped(base, share):
        return base - generator.binomial(base, share) + generator.binomial(MATCHES - base, share)
    if shared:
        moved = flipped(latent, changed)  # the change's effect on each deal, the same in every pair
        wins_a = sum(flipped(latent, 0.02) for _ in range(pairs))
        wins_b = sum(flipped(moved, 0.02) for _ in range(pairs))
    else:
        wins_a = sum(flipped(latent, changed) for _ in range(pairs))
        wins_b = sum(flipped(latent, changed) for _ in range(pairs))
    trials = np.full((RUNS, CLUSTERS), float(MATCHES * pairs))
    return wins_a, trials, wins_b, trials


@pytest.mark.parametrize("pairs, changed, shared", [(1, 0.05, False), (4, 0.23, False), (4, 0.23, True),
                                                    (4, 0.46, True)])
def test_clustered_interval_covers_the_true_effect(pairs, changed, shared):
    s_a, t_a, s_b, t_b = arms(pairs, changed, 2770 + pairs + int(100 * changed) + 7 * shared, shared)
    delta, low, high, se = clustered_difference(s_a, t_a, s_b, t_b)
    covered = float(np.mean((low <= 0) & (0 <= high)))
    n_a = t_a.sum(axis=1)
    old = [difference_interval(a, n, b, n) for a, b, n in zip(s_a.sum(axis=1), s_b.sum(axis=1), n_a)]
    old_covered = float(np.mean([lo <= 0 <= hi for _, lo, hi in old]))
    width_ratio = float(np.mean([(hi - lo) for _, lo, hi in old]) / np.mean(high - low))
    print("%d pair(s), %.0f %% changed%s: clustered coverage %.4f, independent-arms %.4f, width ratio %.2f"
          % (pairs, 100 * changed, " (shared)" if shared else "", covered, old_covered, width_ratio))
    assert covered >= FLOOR
    if pairs == 1:
        assert width_ratio > 2.0  # the independent interval ignores the pairing


def test_a_one_point_effect_is_found_with_the_paired_interval():
    generator = np.random.default_rng(2780)
    latent = generator.binomial(MATCHES, 0.5, size=(RUNS, CLUSTERS))
    wins_a = latent
    up = generator.binomial(MATCHES - latent, 0.02)  # the tweak wins 2 % of the lost matches: +1 point
    wins_b = latent + up
    trials = np.full((RUNS, CLUSTERS), float(MATCHES))
    _, low, _, _ = clustered_difference(wins_a, trials, wins_b, trials)
    found = float(np.mean(low > 0))
    print("1-point effect, 5 %% of matches touched: found %.4f" % found)
    assert found >= 0.95


# ---- issue 37, item 4: the "changes outcomes" flag's family-wise rate ------------------------
# A table of `rows` effect rows × METRICS tests, each test a paired one-pair null design of
# FLAG_CLUSTERS clusters (the G = 16 of the issue), independent across tests (the case where
# Bonferroni is closest to its level). The flag is Poker Duel's `_flag` with the report's kit:
# Bonferroni on each test's t p-value (G − 1 degrees of freedom). The cut-off it replaced —
# |delta| / (half-width / 1.96) against a normal Bonferroni quantile — flags 7.8 % of 12-test
# tables and 11.7 % of 40-test ones (per test 0.0067 against 0.0042 nominal at 12).
FLAG_RUNS, FLAG_CLUSTERS = 4000, 16
FLAG_CEILING = 0.05 + 3 * math.sqrt(0.05 * 0.95 / FLAG_RUNS)


def flag_tables(rows, seed, effect=0.0):
    """(FLAG_RUNS, rows·METRICS) p-values of `clustered_test`; with `effect`, the first test's
    variant wins that share of the matches it lost (an effect of effect/2 in share)."""
    from analysis.vary_effects import clustered_test
    from sim.poker_duel.report_sections import METRICS
    generator = np.random.default_rng(seed)
    shape = (FLAG_RUNS, rows * METRICS, FLAG_CLUSTERS)
    latent = generator.binomial(MATCHES, 0.5, size=shape)
    def flipped(base, share):
        return base - generator.binomial(base, share) + generator.binomial(MATCHES - base, share)
    wins_a, wins_b = flipped(latent, 0.05), flipped(latent, 0.05)
    if effect:
        wins_b[:, 0] += generator.binomial(MATCHES - wins_b[:, 0], effect)
    trials = np.full(shape, float(MATCHES))
    return clustered_test(wins_a, trials, wins_b, trials)[3]


def flagged(p_values):
    """Per table: which rows Poker Duel's report flags 'changes outcomes'."""
    from analysis.game_sections import kit_for
    from sim.poker_duel.report_sections import METRICS, _flag
    kit = kit_for()
    out = []
    for table in p_values:
        rows = [{"_p": list(table[i:i + METRICS])} for i in range(0, len(table), METRICS)]
        out.append([row["changes outcomes"] == "yes" for row in _flag(rows, kit)])
    return np.array(out)


@pytest.mark.parametrize("rows", [1, 3, 10])
def test_changes_outcomes_flags_at_most_five_percent_of_null_tables(rows):
    p = flag_tables(rows, 3700 + rows)
    family = float(np.mean(flagged(p).any(axis=1)))
    per_test = float(np.mean(p < 0.05 / p.shape[1]))
    print("%d rows x 4 tests, G = %d: tables with a false flag %.4f (ceiling %.4f); per test %.5f (nominal %.5f)"
          % (rows, FLAG_CLUSTERS, family, FLAG_CEILING, per_test, 0.05 / p.shape[1]))
    assert family <= FLAG_CEILING


def test_changes_outcomes_finds_a_two_point_effect_in_a_twelve_test_table():
    # +2 points on one test (the variant wins 4 % of the matches it lost) among 3 rows × 4 tests.
    found = float(np.mean(flagged(flag_tables(3, 3790, effect=0.04))[:, 0]))
    print("2-point effect, 12 tests, G = %d clusters of %d: flagged %.4f" % (FLAG_CLUSTERS, MATCHES, found))
    assert found >= 0.90


def test_a_p_value_at_the_interval_edge_is_five_percent():
    # The test and the interval are one t: delta whose 95 % interval ends at 0 has p = 0.05 exactly.
    from analysis.vary_effects import bonferroni_flags, clustered_test, normal_test
    generator = np.random.default_rng(5)
    wins_a, wins_b = generator.binomial(MATCHES, 0.5, size=(2, 8)).astype(float)
    trials = np.full(8, float(MATCHES))
    _, low, _, _ = clustered_test(wins_a, trials, wins_b, trials)
    shifted = wins_b - low * MATCHES  # every cluster's difference moves by -low: the same se, the interval at 0
    delta, low, high, p = clustered_test(wins_a, trials, shifted, trials)
    assert low == pytest.approx(0.0, abs=1e-12) and p == pytest.approx(0.05, rel=1e-9)
    assert normal_test(0.02, 0.0, 0.04)[3] == pytest.approx(0.05, rel=1e-9)
    assert bonferroni_flags([0.012, 0.013, float("nan"), 0.9]) == [True, False, False, False]
