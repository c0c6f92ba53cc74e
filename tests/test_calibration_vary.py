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
