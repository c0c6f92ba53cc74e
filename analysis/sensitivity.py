"""Global sensitivity of headline metrics to declared parameters, through SALib.

Designs (`design`):
- `sobol`:  Saltelli/Sobol' sampling (SALib.sample.sobol, first-order and total indices,
            no second order): N·(D + 2) points in REPLICATES independent designs, each played
            on COPIES independent deal sets; indices of the expected metric with Fieller
            intervals over the replicates (below). The reference method, and the most expensive.
- `morris`: Morris elementary-effects screening (SALib.sample.morris, 4 levels): r·(D + 1)
            points; μ* with its bootstrap interval and σ (SALib.analyze.morris). For many
            parameters on a small budget: it ranks, it does not apportion variance.
- `lhs`:    a Latin hypercube of N points (SALib.sample.latin), a quadratic ridge
            surrogate fitted to it, and Sobol' indices of the surrogate (SALib again, on
            a large design of the cheap surrogate); intervals by refitting on bootstrap
            resamples of the points. For when a full Sobol' design costs more than the
            budget; valid as far as the surrogate fits (its leave-one-out R² is reported).

Parameters are integers, reals or categorical readings: SALib samples the unit-free box
[low, high + 1) (integers) or [0, k) (k readings) and `to_values` floors each coordinate,
so every integer and every reading is equally likely; a real parameter is sampled on
[low, high] and kept (rounded to 6 decimals, so equal design rows share one point). Morris and
LHS indices are of the metric as measured: the match noise of each point adds variance no
parameter explains (reported as `noise_share`, its estimated fraction of Var(Y)); Sobol'
indices are of the expected metric (the noise cancels between the two deal sets) at the cost
of wider intervals.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from sim.errors import CardbalanceError
from sim.fair.params import REAL

METHODS = ("sobol", "morris", "lhs")
MIN_SOBOL_BASE = 64      # below it total-effect intervals covered 84–89 % (tests/test_calibration_sensitivity.py)
MIN_MORRIS_TRAJECTORIES = 4
MIN_LHS_FACTOR = 3       # LHS points per surrogate coefficient at least


def check_method(method: str) -> str:
    if method not in METHODS:
        raise CardbalanceError("--method must be one of %s (got %r)." % (", ".join(METHODS), method))
    return method


def problem(params) -> dict:
    """SALib's problem dict for `sim.fair.params.Param`s."""
    bounds = [[p.low, p.high] if p.kind == REAL else [p.low, p.high + 1] if p.numeric else [0, len(p.levels)]
              for p in params]
    return {"num_vars": len(params), "names": [p.name for p in params], "bounds": bounds}


def to_values(params, X) -> list[tuple]:
    """Each design row -> one value per parameter (an integer or a reading)."""
    rows = []
    for row in np.atleast_2d(X):
        values = []
        for p, x in zip(params, row):
            if p.kind == REAL:
                values.append(round(float(min(max(x, p.low), p.high)), 6))  # rounded: a stable design key
            elif p.numeric:
                values.append(int(min(max(math.floor(x), p.low), p.high)))
            else:
                values.append(p.levels[int(min(max(math.floor(x), 0), len(p.levels) - 1))])
        rows.append(tuple(values))
    return rows


def surrogate_terms(problem_: dict) -> int:
    d = problem_["num_vars"]
    return 1 + 2 * d + d * (d - 1) // 2


def design_points(method: str, problem_: dict, n: int) -> int:
    d = problem_["num_vars"]
    return {"sobol": n * (d + 2), "morris": n * (d + 1), "lhs": n}[method]


def check_budget(method: str, problem_: dict, n: int, matches_per_point: int, budget: int) -> int:
    """Matches the design needs; one clear error when it cannot estimate what it promises."""
    d = problem_["num_vars"]
    if d < 2:
        raise CardbalanceError("sensitivity needs at least two --param (got %d)." % d)
    minimum = {"sobol": MIN_SOBOL_BASE, "morris": MIN_MORRIS_TRAJECTORIES,
               "lhs": MIN_LHS_FACTOR * surrogate_terms(problem_)}[method]
    what = {"sobol": "Saltelli base samples", "morris": "trajectories", "lhs": "points"}[method]
    if n < minimum:
        raise CardbalanceError("--n %d is too small to estimate %s indices of %d parameters: give at least %d %s "
                               "(%s matches at %d per point)." % (n, method, d, minimum, what,
                                                                 format(design_points(method, problem_, minimum)
                                                                        * matches_per_point, ","), matches_per_point))
    if method == "sobol" and n & (n - 1):
        raise CardbalanceError("--n %d: a Sobol' design needs a power of two (e.g. %d)." % (n, 2 ** round(math.log2(n))))
    needed = design_points(method, problem_, n) * matches_per_point
    if needed > budget:
        hint = " (try --method lhs: a surrogate needs fewer points)" if method == "sobol" else ""
        raise CardbalanceError("the %s design needs %s matches (%d points x %d), above --max-matches %s%s."
                               % (method, format(needed, ","), design_points(method, problem_, n), matches_per_point,
                                  format(budget, ","), hint))
    return needed


def design(method: str, problem_: dict, n: int, seed: int) -> np.ndarray:
    from SALib.sample import latin, morris, sobol
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if method == "sobol":
            return sobol.sample(problem_, n, calc_second_order=False, seed=seed)
        if method == "morris":
            return morris.sample(problem_, n, num_levels=4, seed=seed)
        return latin.sample(problem_, n, seed=seed)


# ---- replicated Sobol' designs (issue 37, item 3) ------------------------------------------
#
# SALib's bootstrap resamples the rows of one design and covers too little (the issue: 55 % for
# an interacting parameter at N = 256), and over noisy match outcomes it estimates the indices
# of the metric *plus its match noise*, which inflates every total index (0–67 % coverage of the
# expected metric's ST for weak inputs once the noise is 10–50 % of the variance). Instead the `sobol` method plays R = REPLICATES
# independent Saltelli designs (independent scrambles), each under COPIES = 2 independent deal
# sets; an index is a ratio of sums over the replicates of unbiased numerators and a variance,
# each a product of the two copies, whose noise is independent and of mean zero at every point —
# so the indices are those of the *expected* response, E[metric | parameters]; the interval is
# Fieller's for that ratio across the R independent replicates, with a t on R − 1 degrees of
# freedom. Calibrated on Ishigami and Sobol' G with noise (tests/test_calibration_sensitivity.py):
# S1 covers ≥ 93.9 % at n = 64, ST 92–96 % (heavy-tailed total effects at the low end).
# The trade-off: at equal matches each deal set has half of them, so the intervals are wider
# than the row bootstrap's (which were of another quantity); S1 needs about 1.5× the base
# samples of the old design for its old width, ST the same.

REPLICATES = 8   # independent Saltelli designs; their spread is the interval
COPIES = 2       # independent deal sets per replicate, whose products remove the match noise


def replicate_base(n: int) -> int:
    """Base samples of one replicate when the design has `n` in all (a power of two, ≥ REPLICATES)."""
    return max(n // REPLICATES, 1)


def replicated_design(problem_: dict, n: int, seed: int, replicates: int = REPLICATES) -> np.ndarray:
    """`replicates` independent Saltelli designs (SALib.sample.sobol, each its own Owen scramble)
    of `replicate_base(n)` base samples each, stacked: replicate r's rows are r·b(D + 2) …
    (r + 1)·b(D + 2) − 1, in SALib's layout (per base sample A, AB_1 … AB_D, B). Independent
    scrambles make the replicates independent and each one's estimates unbiased; a random
    digital shift of one net instead (100× cheaper) covered Ishigami's S1 of x1 in only 91 %
    of designs at n = 128."""
    from SALib.sample import sobol
    generator = np.random.default_rng([seed, 37])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.vstack([sobol.sample(problem_, replicate_base(n), calc_second_order=False, seed=generator)
                          for _ in range(replicates)])


def replicate_estimates(problem_: dict, Y, replicates: int = REPLICATES):
    """(V_r, V1_r, VT_r): each replicate's variance (..., R) and first-order and total-effect
    numerators (..., R, D) from a `replicated_design`'s outputs.

    Y: (COPIES, ..., rows) — the metric measured on each copy's independent deals (leading axes:
    several designs at once); a noise-free function's outputs (..., rows) serve as both copies.
    Per replicate, with the two copies' outputs y, z centred on their grand means (Saltelli
    2010 and Jansen, as SALib's `first_order` and `total_order`, each square a product across
    the copies, whose noise is independent):
        V_r   = mean over all rows of y·z                         (every row is a uniform draw)
        V1_ir = mean_j ½[y_B (z_ABi − z_A) + z_B (y_ABi − y_A)]   (first-order numerator)
        VT_ir = mean_j ½ (y_A − y_ABi)(z_A − z_ABi)               (total-effect numerator)"""
    d = problem_["num_vars"]
    Y = np.asarray(Y, dtype=float)
    if Y.ndim == 1 or Y.shape[0] != COPIES:
        Y = np.stack([Y, Y])
    blocks = Y.reshape(Y.shape[:-1] + (replicates, -1, d + 2))     # copy, ..., replicate, base sample, slot
    blocks = blocks - blocks.mean(axis=(-3, -2, -1), keepdims=True)
    y, z = blocks[0], blocks[1]
    a_y, b_y, ab_y = y[..., 0], y[..., d + 1], y[..., 1:d + 1]
    a_z, b_z, ab_z = z[..., 0], z[..., d + 1], z[..., 1:d + 1]
    values = replicates * y.shape[-2] * (d + 2)  # the grand mean takes one degree of freedom
    variance = (y * z).mean(axis=(-2, -1)) * values / (values - 1)
    first = 0.5 * (b_y[..., None] * (ab_z - a_z[..., None]) + b_z[..., None] * (ab_y - a_y[..., None])).mean(axis=-2)
    total = 0.5 * ((a_y[..., None] - ab_y) * (a_z[..., None] - ab_z)).mean(axis=-2)
    return variance, first, total


def ratio_interval(numerators, variances, level: float = 0.95):
    """(index, low, high) of Σ numerators / Σ variances over independent replicates (last axis):
    Fieller's interval with t_{R−1} — every θ with |mean numerator − θ·mean V| within t·se of 0,
    the se from the replicates' covariance of (numerator, V). It holds the variance's own
    uncertainty (the linearised ratio interval covered 76 % for Ishigami's ST of x1 at n = 16,
    Fieller 84 %); the bounds are ±inf when mean V is not clearly positive (the parameters move
    the expected metric too little to apportion)."""
    from scipy.stats import t as student
    numerators, variances = np.asarray(numerators, dtype=float), np.asarray(variances, dtype=float)
    replicates = variances.shape[-1]
    q = student.ppf(0.5 + level / 2, replicates - 1)
    mean_n, mean_v = numerators.mean(axis=-1), variances.mean(axis=-1)
    dev_n, dev_v = numerators - mean_n[..., None], variances - mean_v[..., None]
    scale = q * q / (replicates * (replicates - 1))  # q² × the covariance of the means
    a = mean_v ** 2 - scale * (dev_v * dev_v).sum(axis=-1)
    b = -2 * (mean_n * mean_v - scale * (dev_n * dev_v).sum(axis=-1))
    c = mean_n ** 2 - scale * (dev_n * dev_n).sum(axis=-1)
    discriminant = b * b - 4 * a * c
    bounded = (a > 0) & (discriminant >= 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        index = np.where(mean_v > 0, mean_n / mean_v, np.nan)
        root = np.sqrt(np.where(bounded, discriminant, 0.0))
        low = np.where(bounded, (-b - root) / (2 * a), -np.inf)
        high = np.where(bounded, (-b + root) / (2 * a), np.inf)
    return index, low, high


def replicated_indices(problem_: dict, Y, level: float = 0.95) -> list[dict]:
    """One row per parameter: S1, S1_low, S1_high, ST, ST_low, ST_high (`ratio_interval` over the
    replicates) and S1_conf, ST_conf (half the interval's width, for error bars)."""
    variance, first, total = replicate_estimates(problem_, Y)
    found = {"S1": ratio_interval(first.T, variance, level), "ST": ratio_interval(total.T, variance, level)}
    rows = []
    for i, name in enumerate(problem_["names"]):
        row = {"name": name}
        for key, (index, low, high) in found.items():
            row[key], row[key + "_low"], row[key + "_high"] = float(index[i]), float(low[i]), float(high[i])
            row[key + "_conf"] = (row[key + "_high"] - row[key + "_low"]) / 2
        rows.append(row)
    return rows


def bounds(row: dict, key: str) -> tuple[float, float]:
    """An index's 95 % interval: stored bounds (replicated sobol) or the estimate ± its half-width."""
    if key + "_low" in row:
        return row[key + "_low"], row[key + "_high"]
    return row[key] - row[key + "_conf"], row[key] + row[key + "_conf"]


def no_measurable_effect(row: dict, key: str) -> bool:
    """The index's interval holds 0 (or it could not be estimated)."""
    low, high = bounds(row, key)
    return not (low > 0 or high < 0)


def indices(method: str, problem_: dict, X: np.ndarray, Y: np.ndarray, seed: int) -> list[dict]:
    """One row per parameter: sobol/lhs: S1, S1_conf, ST, ST_conf; morris: mu_star, mu_star_conf, sigma.
    `*_conf` is the half-width of the 95 % bootstrap interval."""
    from SALib.analyze import morris, sobol
    Y = np.asarray(Y, dtype=float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if method == "sobol":
            out = sobol.analyze(problem_, Y, calc_second_order=False, num_resamples=200, conf_level=0.95, seed=seed)
            return [{"name": name, "S1": float(out["S1"][i]), "S1_conf": float(out["S1_conf"][i]),
                     "ST": float(out["ST"][i]), "ST_conf": float(out["ST_conf"][i])}
                    for i, name in enumerate(problem_["names"])]
        if method == "morris":
            out = morris.analyze(problem_, X, Y, num_resamples=200, conf_level=0.95, num_levels=4, seed=seed)
            return [{"name": name, "mu_star": float(out["mu_star"][i]), "mu_star_conf": float(out["mu_star_conf"][i]),
                     "sigma": float(out["sigma"][i])} for i, name in enumerate(problem_["names"])]
    return surrogate_indices(problem_, X, Y, seed)


# ---- the LHS surrogate ---------------------------------------------------------------------

def _features(problem_: dict, X: np.ndarray) -> np.ndarray:
    bounds = np.asarray(problem_["bounds"], dtype=float)
    u = (np.atleast_2d(X) - bounds[:, 0]) / (bounds[:, 1] - bounds[:, 0]) - 0.5
    d = u.shape[1]
    columns = [np.ones(len(u))] + [u[:, i] for i in range(d)] + [u[:, i] ** 2 for i in range(d)]
    columns += [u[:, i] * u[:, j] for i in range(d) for j in range(i + 1, d)]
    return np.column_stack(columns)


def fit_surrogate(problem_: dict, X, Y, ridge: float = 1e-6):
    F = _features(problem_, X)
    A = F.T @ F + ridge * np.eye(F.shape[1])
    coefficients = np.linalg.solve(A, F.T @ np.asarray(Y, dtype=float))
    return coefficients


def loo_r2(problem_: dict, X, Y, ridge: float = 1e-6) -> float:
    """Leave-one-out R² of the surrogate (the hat-matrix shortcut)."""
    F = _features(problem_, X)
    Y = np.asarray(Y, dtype=float)
    A_inv = np.linalg.inv(F.T @ F + ridge * np.eye(F.shape[1]))
    hat = np.einsum("ij,jk,ik->i", F, A_inv, F)
    residual = (Y - F @ (A_inv @ (F.T @ Y))) / np.maximum(1 - hat, 1e-9)
    total = float(np.sum((Y - Y.mean()) ** 2))
    return 1.0 - float(np.sum(residual ** 2)) / total if total > 0 else float("nan")


def _surrogate_sobol(problem_: dict, coefficients, seed: int, base: int = 2048):
    from SALib.analyze import sobol
    from SALib.sample import sobol as sobol_sample
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        Xs = sobol_sample.sample(problem_, base, calc_second_order=False, seed=seed)
        out = sobol.analyze(problem_, _features(problem_, Xs) @ coefficients, calc_second_order=False,
                            num_resamples=2, seed=seed)
    return np.asarray(out["S1"]), np.asarray(out["ST"])


def surrogate_indices(problem_: dict, X, Y, seed: int, resamples: int = 40) -> list[dict]:
    X, Y = np.atleast_2d(X), np.asarray(Y, dtype=float)
    s1, st = _surrogate_sobol(problem_, fit_surrogate(problem_, X, Y), seed)
    rng = np.random.default_rng(seed)
    boot1, boott = [], []
    for _ in range(resamples):
        pick = rng.integers(0, len(Y), len(Y))
        b1, bt = _surrogate_sobol(problem_, fit_surrogate(problem_, X[pick], Y[pick]), seed)
        boot1.append(b1)
        boott.append(bt)
    conf1 = (np.percentile(boot1, 97.5, axis=0) - np.percentile(boot1, 2.5, axis=0)) / 2
    conft = (np.percentile(boott, 97.5, axis=0) - np.percentile(boott, 2.5, axis=0)) / 2
    r2 = loo_r2(problem_, X, Y)
    return [{"name": name, "S1": float(s1[i]), "S1_conf": float(conf1[i]), "ST": float(st[i]),
             "ST_conf": float(conft[i]), "surrogate_loo_r2": r2} for i, name in enumerate(problem_["names"])]


def ranking(rows: list[dict], method: str) -> list[dict]:
    """Rows by total effect (sobol, lhs) or μ* (morris), largest first."""
    key = "mu_star" if method == "morris" else "ST"
    return sorted(rows, key=lambda row: -row[key] if np.isfinite(row[key]) else 0.0)


def interval_label(row: dict, key: str) -> str:
    """'[0.123, 0.456]', with ' no measurable effect' when the interval holds 0 (the reports' text)."""
    low, high = bounds(row, key)
    text = "[%.3f, %.3f]" % (low, high)
    return text + (" no measurable effect" if no_measurable_effect(row, key) else "")
