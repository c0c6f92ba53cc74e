"""Group-sequential bounds for the compare gate: error control under repeated looks.

`cardbalance compare` looks at its comparison after every round of matches
and stops as soon as every gate is decided. Checking a fixed 95 % interval at
each of 20 looks lets a gate fail wrongly about 13 % of the time (issue 17).
This module gives the gate bounds that keep the error at the stated level
*whatever look the decision is taken at*.

The design is a one-sided group-sequential test with Lan-DeMets error
spending of O'Brien-Fleming type (Lan & DeMets 1983; Jennison & Turnbull,
"Group Sequential Methods", 2000, ch. 7 and 19):

- the looks are planned before anything is played (one per round from
  --min-matches to --max-matches); look k sits at information fraction t_k
  (matches so far over the cap, for a paired design);
- the error α is *spent* over the looks: by look k at most
  f(t_k) = 2 − 2Φ(z_{1−α/2} / √t_k) has been used, f(1) = α. Early looks get
  very little (a huge bound), the last one nearly all, so the last bound is
  close to the fixed-sample one and the power at the cap is nearly that of a
  single look at --max-matches;
- the bound c_k of the standardised statistic Z_k = (estimate − threshold) / se
  is the value with P(Z_1 < c_1, …, Z_{k−1} < c_{k−1}, Z_k ≥ c_k) = f(t_k) − f(t_{k−1})
  when the truth sits on the threshold, computed by the standard recursive
  numerical integration of the joint normal density of (Z_1, …, Z_k) (the
  increments of a Brownian motion in information time).

Why this one rather than an anytime-valid confidence sequence: the looks of a
compare run are known in advance (a cap and a batch size), and a
confidence sequence that must hold for infinitely many looks is much wider at
the cap (its bound is about 2.8 standard errors at one-sided 5 %, against
about 1.75 here), so reaching 90 % power would need roughly twice the matches.
Why not a generalised SPRT (fishtest): it needs an alternative hypothesis per
gate, which a threshold expression does not state.

Each comparison is two one-sided tests sharing these bounds: "fail" (the
statement is shown to hold, Z_fail ≥ c_k) and "pass" (it is shown not to
hold, Z_pass ≥ c_k). Stopping on one side, or because other gates are
decided, only lowers the chance of crossing the other, so each side's error
stays at most α (the bounds are "non-binding").

Repeated p-values (Jennison & Turnbull §9.1): the smallest α at which a bound
has been crossed at some look so far. They are valid p-values under repeated
looks, so a family of comparisons can be corrected with Holm or
Benjamini-Hochberg (`statsmodels.stats.multitest.multipletests`), which for
Holm is the sequentially rejective group-sequential procedure of Maurer &
Bretz (2013). They are read from a table of bounds over a log-spaced grid of
α levels (interpolated in log α), which contains α itself.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from scipy.special import ndtr, ndtri

# The grid of error levels behind the repeated p-values: log-spaced, dense
# enough (ratio ~1.5) that interpolation moves a p-value by well under 1 %.
_P_FLOOR = 1e-8
_LEVELS = np.unique(np.concatenate([np.geomspace(_P_FLOOR, 0.5, 46), [0.5]]))
# Beyond this a bound is "never crossed" (no error spent at that look).
_NEVER = 38.0
_LOWER = -8.0  # integration starts here: Φ(−8) is negligible
SPACING_PER_SD = 2.0  # grid points per standard deviation of the step between two looks
_KERNEL_REACH = 11.0  # standard deviations of the density kernel that `_next_density` sums


def spent(alpha, fractions):
    """Error spent by information fraction t: O'Brien-Fleming type, 2 − 2Φ(z_{1−α/2}/√t)."""
    alpha = np.asarray(alpha, dtype=float)[..., None]
    t = np.asarray(fractions, dtype=float)
    return 2.0 * ndtr(-ndtri(1.0 - alpha / 2.0) / np.sqrt(t))  # 2 − 2Φ(x), without cancellation


def information_fractions(looks, cap, baseline_matches=None) -> tuple:
    """Information fraction of each look (matches per cell at that look).

    Paired (or single-arm) design: n / cap. Against a stored baseline of
    N_b matches, the difference's variance is ∝ 1/N_b + 1/n, so the
    information is ∝ 1/(1/N_b + 1/n) (equal per-match variances assumed).
    """
    looks = np.asarray(looks, dtype=float)
    if baseline_matches is None:
        fractions = looks / float(cap)
    else:
        info = 1.0 / (1.0 / float(baseline_matches) + 1.0 / looks)
        fractions = info / (1.0 / (1.0 / float(baseline_matches) + 1.0 / float(cap)))
    return tuple(float(min(max(f, 1e-12), 1.0)) for f in fractions)


def planned_looks(batch: int, min_matches: int, max_matches: int) -> list[int]:
    """Matches per cell at each look where a gate may be decided: the end of every round of
    `batch` from `min_matches` on, the last one at `max_matches` (fixed before playing)."""
    looks, matches = [], 0
    while matches < max_matches:
        matches += min(batch, max_matches - matches)
        if matches >= min_matches:
            looks.append(matches)
    return looks


def _simpson_weights(n: int) -> np.ndarray:
    weights = np.ones(n)
    weights[1:-1:2] = 4.0
    weights[2:-1:2] = 2.0
    return weights / 3.0


@lru_cache(maxsize=64)
def _bounds_for_levels(fractions: tuple, levels: tuple) -> np.ndarray:
    """(levels, looks) array of bounds c_k(α), vectorised over the α levels (in chunks,
    to bound the memory of the integration kernel)."""
    chunk = 8
    return np.concatenate([_bounds_chunk(fractions, levels[i:i + chunk]) for i in range(0, len(levels), chunk)])


def _next_density(grid, mass, new_grid, root_prev, root_now, gap):
    """Density of Z_k at `new_grid` from the quadrature masses of Z_{k−1} at `grid`:
    ∫ g_{k−1}(z) φ((z' √t_k − z √t_{k−1}) / gap) √t_k / gap dz, per level.

    Only grid points within `_KERNEL_REACH` standard deviations of the kernel's
    centre are summed (a window of each row's nearest old points): the rest
    weigh less than e^-60 of the peak. With many looks the kernel is narrow
    (200 looks: under 100 of 601 points after the first ten), so `compare
    --batch 100` (200 looks) computes its bounds in 29 s instead of 85, equal
    to the full (levels, points, points) sum to 4e-15.
    """
    n_levels, n_points = grid.shape
    step = grid[:, 1] - grid[:, 0]  # old grid spacing per level (a linspace)
    reach = _KERNEL_REACH * gap / root_prev / step  # half-width in old-grid points, per level
    window = int(min(n_points, 2 * np.ceil(reach.max()) + 3))

    def kernel(old_points):  # φ(...) √t_k / gap between every new point and `old_points`
        argument = (new_grid[:, :, None] * root_now - old_points * root_prev) / gap
        return np.exp(-0.5 * argument * argument) / np.sqrt(2.0 * np.pi) * (root_now / gap)

    if window * 3 > n_points:  # a wide kernel (the first looks, or few looks): the full sum is as cheap
        return np.einsum("lij,lj->li", kernel(grid[:, None, :]), mass)
    # the kernel's centre for each new point, in old-grid index units
    centre = (new_grid * (root_now / root_prev) - grid[:, :1]) / step[:, None]
    first = np.clip(np.rint(centre).astype(np.int64) - window // 2, 0, n_points - window)
    index = first[:, :, None] + np.arange(window)  # (levels, points, window) old-grid indices
    flat = np.arange(n_levels)[:, None, None] * n_points + index
    return np.sum(kernel(grid.ravel()[flat]) * mass.ravel()[flat], axis=2)


def _bounds_chunk(fractions: tuple, levels: tuple) -> np.ndarray:
    t = np.asarray(fractions, dtype=float)
    alphas = np.asarray(levels, dtype=float)
    n_levels, n_looks = len(alphas), len(t)
    increments = np.diff(spent(alphas, t), axis=-1, prepend=0.0)  # (levels, looks)
    bounds = np.empty((n_levels, n_looks))
    bounds[:, 0] = np.where(increments[:, 0] > 1e-300, -ndtri(np.maximum(increments[:, 0], 1e-300)), _NEVER)
    bounds[:, 0] = np.minimum(bounds[:, 0], _NEVER)
    # Grid resolution from the narrowest transition between two looks.
    steps = np.sqrt(np.diff(t, prepend=0.0)[1:] / t[1:]) if n_looks > 1 else np.array([1.0])
    spacing = max(min(float(steps.min()) / SPACING_PER_SD, 0.1), 0.01)
    n_points = int(np.ceil((min(float(bounds[:, 0].max()), 12.0) - _LOWER) / spacing)) | 1
    n_points = min(max(n_points, 101), 601) | 1
    weights = _simpson_weights(n_points)
    # Sub-density of Z_1 on the continuation region (−8, c_1), per level.
    grid = np.linspace(_LOWER, np.minimum(bounds[:, 0], 12.0), n_points).T  # (levels, points)
    width = (grid[:, -1] - grid[:, 0]) / (n_points - 1)
    density = np.exp(-0.5 * grid * grid) / np.sqrt(2.0 * np.pi)
    for k in range(1, n_looks):
        root_prev, root_now = np.sqrt(t[k - 1]), np.sqrt(t[k])
        gap = np.sqrt(t[k] - t[k - 1])
        mass = density * weights * width[:, None]  # quadrature masses at the grid points
        target = increments[:, k]

        def crossing(c):  # P(continue to k − 1, then Z_k ≥ c), per level
            return np.sum(mass * ndtr((grid * root_prev - c[:, None] * root_now) / gap), axis=1)

        low, high = np.full(n_levels, -12.0), np.full(n_levels, _NEVER)
        for _ in range(56):  # bisection, vectorised over the levels (crossing decreases in c)
            middle = 0.5 * (low + high)
            above = crossing(middle) > target
            low = np.where(above, middle, low)
            high = np.where(above, high, middle)
        bounds[:, k] = np.where(target > 1e-300, 0.5 * (low + high), _NEVER)
        if k + 1 < n_looks:
            top = np.minimum(bounds[:, k], 12.0)
            new_grid = np.linspace(_LOWER, top, n_points).T
            density = _next_density(grid, mass, new_grid, root_prev, root_now, gap)
            grid = new_grid
            width = (grid[:, -1] - grid[:, 0]) / (n_points - 1)
    return bounds


def bounds(fractions, alpha: float) -> np.ndarray:
    """The bound c_k of each planned look for one-sided error α."""
    return _bounds_for_levels(tuple(fractions), (float(alpha),))[0]


class Plan:
    """The planned looks of one compare run and their bounds.

    `looks`: matches per cell at each look (increasing, the last one the cap);
    `alpha`: each decision's error (1 − --confidence).
    """

    def __init__(self, looks, cap, alpha: float, baseline_matches=None, family_size: int = 1):
        self.looks = tuple(int(n) for n in looks)
        self.cap = int(cap)
        self.alpha = float(alpha)
        self.fractions = information_fractions(self.looks, cap, baseline_matches)
        self.bounds = bounds(self.fractions, self.alpha)
        # Holm compares p-values with α/j and Benjamini-Hochberg with α·j/m: making those
        # levels grid nodes makes every corrected decision exact (interpolation is monotone
        # and exact at the nodes).
        m = max(int(family_size), 1)
        critical = [self.alpha / j for j in range(1, m + 1)] + [self.alpha * j / m for j in range(1, m + 1)]
        self.levels = tuple(float(a) for a in np.unique(np.concatenate([_LEVELS, critical])))
        self._table = None  # (levels, looks), computed on the first p-value
        self._half_bounds = None

    @property
    def table(self) -> np.ndarray:
        if self._table is None:
            self._table = _bounds_for_levels(self.fractions, self.levels)
        return self._table

    @property
    def n_looks(self) -> int:
        return len(self.looks)

    def look_index(self, matches: int):
        """Index of the look taken at `matches` per cell, or None (no decision then)."""
        try:
            return self.looks.index(int(matches))
        except ValueError:
            return None

    def p_value(self, z, look: int):
        """One-sided repeated p-value of statistic(s) z at one look: the smallest level whose
        bound z reaches (interpolated in log α); 1 when below every bound of the grid."""
        z = np.asarray(z, dtype=float)
        column = self.table[:, look]  # decreasing in α
        log_levels = np.log(np.asarray(self.levels))
        # np.interp needs increasing x: reverse (bounds increasing as α decreases)
        p = np.exp(np.interp(z, column[::-1], log_levels[::-1]))
        p = np.where(z >= column[0], self.levels[0], p)
        p = np.where(z < column[-1], 1.0, p)
        p = np.where(np.isnan(z), 1.0, p)
        return p

    @property
    def half_bounds(self) -> np.ndarray:
        """The bounds at α/2: each side of a two-sided claim (analysis/decisions.py)."""
        if self._half_bounds is None:
            self._half_bounds = bounds(self.fractions, self.alpha / 2.0)
        return self._half_bounds

    def crossed(self, z, look: int):
        """Whether statistic(s) z reach the unadjusted bound at `look`."""
        return np.asarray(z, dtype=float) >= self.bounds[look]
