"""Interval statistics for balance rates: the 95 % Wilson score interval.

Every rate the reports show carries a Wilson interval. Wilson (rather than the
textbook p ± z·sqrt(p(1-p)/n)) stays inside [0, 1], is not degenerate at
0 or n successes (0 wins in 20 still gives an upper bound of 16 %), and its
coverage is close to nominal already for a few dozen matches — which matters
for small cells and for special victories, which are rare.

The functions are vectorised over numpy arrays / pandas Series so that a
whole table gets its intervals in one call. A rate over zero trials is
unknown: its estimate is NaN and its interval is the whole of [0, 1].
"""

from __future__ import annotations

import numpy as np
import pandas as pd

# Two-sided 95 %: the 0.975 quantile of the standard normal distribution.
Z95 = 1.959963984540054


def wilson_interval(successes, trials, z: float = Z95):
    """Wilson score interval (low, high) for `successes` out of `trials`.

    Works on scalars and arrays; `successes` may be fractional (not used by
    this package's tables, which count whole matches). Zero trials -> (0, 1).
    """
    successes = np.asarray(successes, dtype=float)
    trials = np.asarray(trials, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        p_hat = successes / trials
        z2_over_n = z * z / trials
        centre = (p_hat + z2_over_n / 2.0) / (1.0 + z2_over_n)
        half_width = (z / (1.0 + z2_over_n)) * np.sqrt(
            np.maximum(p_hat * (1.0 - p_hat), 0.0) / trials + z * z / (4.0 * trials * trials))
        low = np.clip(centre - half_width, 0.0, 1.0)
        high = np.clip(centre + half_width, 0.0, 1.0)
    empty = trials <= 0
    low = np.where(empty, 0.0, low)
    high = np.where(empty, 1.0, high)
    # Exact ends: floating point must not put 0/n above 0 or n/n below 1.
    low = np.where(~empty & (successes <= 0), 0.0, low)
    high = np.where(~empty & (successes >= trials), 1.0, high)
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def rate(successes, trials):
    """successes / trials, NaN where there were no trials."""
    successes = np.asarray(successes, dtype=float)
    trials = np.asarray(trials, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(trials > 0, successes / np.where(trials > 0, trials, 1.0), np.nan)
    return float(out) if out.ndim == 0 else out


def add_rate_columns(table: pd.DataFrame, name: str, successes_column: str, trials_column: str,
                     z: float = Z95) -> pd.DataFrame:
    """Add `<name>`, `<name>_low`, `<name>_high` (rate and Wilson interval) to `table` in place."""
    successes = table[successes_column].to_numpy(dtype=float)
    trials = table[trials_column].to_numpy(dtype=float)
    low, high = wilson_interval(successes, trials, z)
    table[name] = rate(successes, trials)
    table[name + "_low"] = np.atleast_1d(low)
    table[name + "_high"] = np.atleast_1d(high)
    return table


def half_width(successes, trials, z: float = Z95):
    """Half the width of the Wilson interval (the 'precision' of a rate)."""
    low, high = wilson_interval(successes, trials, z)
    return (np.asarray(high) - np.asarray(low)) / 2.0


def matches_for_half_width(half: float, rate: float = 0.5, z: float = Z95) -> int:
    """The fewest trials whose Wilson interval at an observed `rate` is at most ± `half` wide
    (at ½ and ± 0.01: 9,600, the textbook (z / 0.01)² · ¼ ≈ 9,604 less Wilson's z² term)."""
    def wide(trials):
        return float(half_width(rate * trials, trials, z)) > half
    low, high = 1, 2
    while wide(high):  # the width falls as 1/√trials: double, then bisect
        low, high = high, 2 * high
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if wide(middle) else (low, middle)
    return high


def stratified_rate(successes, trials, z: float = Z95):
    """Equal-weight rate over strata (here: the two first-player orders) with a Wilson interval.

    The estimate is the plain mean of the strata's rates (strata without trials
    are left out), so a stratum that happened to get more matches — precision
    rounds add matches per cell — cannot tilt it. The interval is Wilson's at
    the Kish effective sample size n_eff = p(1−p) / Var(p̂), Var(p̂) = Σ p_i(1−p_i)/n_i / k²
    (Wilson with a design-effect-adjusted n, as recommended for survey
    proportions by Korn & Graubard 1998 and Dean & Pagano 2015). With equal
    strata of equal rates it is exactly the pooled Wilson interval; when every
    stratum is at 0 or 1 the variance vanishes and n_eff falls back to Σ n_i.

    Returns (rate, low, high, n_eff); (NaN, 0, 1, 0) when no stratum has trials.
    """
    trials = np.asarray(trials, dtype=float)
    rate, low, high, n_eff = stratified_rates(np.zeros(len(trials), dtype=np.int64), successes, trials, 1, z)
    return float(rate[0]), float(low[0]), float(high[0]), float(n_eff[0])


def stratified_rates(groups, successes, trials, n_groups: int, z: float = Z95):
    """`stratified_rate` for many groups at once: row i is a stratum of group `groups[i]`
    (0 .. n_groups − 1). Returns arrays (rate, low, high, n_eff) by group, each group's
    strata summed in row order (the report's tables call this for every pooled rate:
    a per-group loop was half of their time)."""
    groups = np.asarray(groups, dtype=np.int64)
    successes = np.asarray(successes, dtype=float)
    trials = np.asarray(trials, dtype=float)
    used = trials > 0
    safe_trials = np.where(used, trials, 1.0)
    p = np.where(used, successes / safe_trials, 0.0)
    k = np.bincount(groups, weights=used.astype(float), minlength=n_groups)
    with np.errstate(divide="ignore", invalid="ignore"):
        estimate = np.bincount(groups, weights=p, minlength=n_groups) / k
        spread = np.where(used, p * (1.0 - p) / safe_trials, 0.0)
        variance = np.bincount(groups, weights=spread, minlength=n_groups) / (k * k)
        total = np.bincount(groups, weights=np.where(used, trials, 0.0), minlength=n_groups)
        n_eff = np.where(variance > 0, estimate * (1.0 - estimate) / variance, total)
    low, high = wilson_interval(estimate * n_eff, n_eff, z)
    none = k == 0
    return (np.where(none, np.nan, estimate), np.where(none, 0.0, low), np.where(none, 1.0, high),
            np.where(none, 0.0, n_eff))


def stratified_null_variance(groups, successes, trials, n_groups: int, target):
    """Var of `stratified_rates`' equal-weight rate with the strata's rates fitted under the null
    that their mean is `target` (a scalar or one per group): the restricted maximum-likelihood
    rates, as the score test of a stratified rate uses (Miettinen & Nurminen 1985; with one
    stratum it is target(1 − target)/n, the plain score test's).

    Why not the Kish n_eff's plug-in variance: it comes from the observed rates, and a stratum
    near 0 or 1 (a first-player order at 3 %) looks more precise the further its estimate falls,
    so an estimate far from the edge gets a too small standard error: 7.2 % wrong 'balanced'
    labels at a 97 % first player for a stated 5 % (tests/test_calibration_verdicts.py). Shifting
    every stratum by the same amount onto the edge keeps that fault (7.5 %): the fit moves each
    stratum by its own variance, so the noisy stratum absorbs the gap.

    The fit: maximise Σ x_i log p_i + (n_i − x_i) log(1 − p_i) subject to mean(p_i) = target.
    Stationarity gives (x_i − n_i p_i) / (p_i (1 − p_i)) = μ, one multiplier for the whole group:
    each p_i(μ) is the root in [0, 1] of μ p² − (μ + n_i) p + x_i = 0, decreasing in μ, and μ is
    found per group by Newton's method kept inside a bisection bracket (in arctan(μ / Σ n_i), so
    the bracket is finite). Strata without trials are left out, as in `stratified_rates`.
    Returns the variance per group (NaN where a group has no trials)."""
    groups = np.asarray(groups, dtype=np.int64)
    successes = np.asarray(successes, dtype=float)
    trials = np.asarray(trials, dtype=float)
    used = trials > 0
    groups, successes, trials = groups[used], successes[used], trials[used]
    k = np.bincount(groups, minlength=n_groups).astype(float)
    safe_k = np.maximum(k, 1.0)
    scale = np.maximum(np.bincount(groups, weights=trials, minlength=n_groups), 1.0)
    target = np.broadcast_to(np.asarray(target, dtype=float), (n_groups,))
    low, high = np.full(n_groups, -np.pi / 2), np.full(n_groups, np.pi / 2)
    mu = np.zeros(n_groups)
    active = k > 0
    for _ in range(200):
        rows = active[groups]  # only the strata of groups not yet solved: after a few steps, few are left
        g, x, n = groups[rows], successes[rows], trials[rows]
        p, slope = _fitted_rates(mu[g], x, n)
        gap = np.bincount(g, weights=p, minlength=n_groups) / safe_k - target
        # the mean falls as μ grows: a mean above target puts the root at a larger μ
        angle = np.arctan(mu / scale)
        above = active & (gap > 0)
        below = active & (gap <= 0)
        low, high = np.where(above, angle, low), np.where(below, angle, high)
        active &= (np.abs(gap) > 1e-12) & (high - low > 1e-15)
        if not active.any():
            break
        derivative = np.bincount(g, weights=slope, minlength=n_groups) / safe_k
        with np.errstate(divide="ignore", invalid="ignore"):
            newton = np.arctan((mu - gap / derivative) / scale)
        inside = np.isfinite(newton) & (newton > low) & (newton < high)
        # Newton where it stays inside the bracket, else bisect (a stratum near 0 or 1 bends the
        # mean sharply, and plain Newton from the observed rates overshoots it)
        mu = np.where(active, scale * np.tan(np.where(inside, newton, (low + high) / 2)), mu)
    p, _ = _fitted_rates(mu[groups], successes, trials)
    variance = np.bincount(groups, weights=p * (1.0 - p) / trials, minlength=n_groups) / (safe_k * safe_k)
    return np.where(k > 0, variance, np.nan)


def _fitted_rates(mu, successes, trials):
    """Each stratum's rate at multiplier μ — the root in [0, 1] of μ p² − (μ + n) p + x = 0 —
    and dp/dμ there (negative: the rate falls as μ grows)."""
    b = mu + trials
    root = np.sqrt(np.maximum(b * b - 4.0 * mu * successes, 0.0))
    with np.errstate(divide="ignore", invalid="ignore"):
        # one root written two ways so that neither cancels: b ≥ 0 divides by b + root > 0
        p = np.where(b >= 0, 2.0 * successes / (b + root), (b - root) / (2.0 * mu))
        p = np.clip(np.nan_to_num(p, nan=0.0), 0.0, 1.0)
        slope = np.nan_to_num(p * (1.0 - p) / (2.0 * mu * p - b), nan=0.0)
    return p, slope
