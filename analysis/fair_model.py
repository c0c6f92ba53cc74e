"""A model-based fair value: one monotone binomial fit over every played point and match, beside
the guaranteed finder (analysis/fair_value.py; method and calibration: docs/fair-value.md).

The model of a (point, first-player order) cell, x the parameter value:

    share(x, order) = F(a + b·x + c·s_order),   s = −½ / +½ for the two orders (absent with one)

F the logistic (default) or normal distribution function, fitted by maximum likelihood
(statsmodels' binomial GLM) over the cells of both stages. The fair value is the root r of the
order-averaged share, ½·Σ_o F(a + b·r + c·s_o) = target, the metric's own equal weighting.

Interval on the root: Fieller's. r is in it when the test of θ(r) = a + b·r − g(c) = 0 is not
rejected at z, g(c) the linear predictor where the two orders average to the target (its
dependence on c by the delta method). The set is a quadratic inequality in r, so it is closed
form: a 1,000-replication calibration runs in seconds, which a profile likelihood (a constrained
fit per trial root) or a parametric bootstrap (hundreds of fits per interval) would not. Unlike
the delta method on r̂ = (g − a)/b it widens as the slope weakens, and it is unbounded, so the model
is rejected, exactly when the slope is not significant at z. The calibration tests measure it.

The trade-off: the model uses every match, so on a curve of its shape its interval is narrower
than the guaranteed one at the same budget; it is only as right as the shape. It is *rejected*,
and the caller reports the guaranteed interval, when the fit fails, when the slope is not
confidently in the metric's direction, when the fitted root lies outside the range, or when a
Pearson χ² lack-of-fit test over the cells rejects the shape at `LACK_OF_FIT_LEVEL`.

The cells must be independent binomials. Points played on common deals are not: a shift common
to every point would pass for precision, so `fair --estimator model` plays each point on deals
of its own (cmd GameSource).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import brentq
from scipy.stats import chi2, norm

from analysis.fair_value import CONFIRM, SEARCH

Z95 = float(norm.ppf(0.975))
LACK_OF_FIT_LEVEL = 0.05   # the Pearson χ² test's level: how often a right shape still falls back to the guaranteed interval
MIN_EXPECTED = 5.0         # a cell enters the χ² sum only with ≥ 5 expected successes and failures (its χ² approximation)
LINKS = ("logit", "probit")


@dataclass
class ModelFair:
    accepted: bool
    reason: str                   # why the model was rejected ("" when accepted)
    link: str
    estimate: float | None        # the fitted root
    lower: float | None           # Fieller interval on the root, clipped to the range
    upper: float | None
    z: float
    slope: float | None           # d(order-averaged share)/dx at the root
    share_variance: float | None  # mean over the orders of p(1 − p) at the root: one trial's share variance
    lack_of_fit: float | None     # Pearson χ² over the counted cells
    lack_of_fit_df: int
    lack_of_fit_p: float | None
    level: float
    cells: int
    trials: int
    shape_p: float | None = None  # the likelihood-ratio test of a bend at the root (`_shape_test`)
    target: float = 0.5
    design_scale: tuple = (0.0, 1.0)  # (centre, scale) of the standardised parameter the coefficients use
    coefficients: list = field(default_factory=list)   # (a, b, c) on the standardised parameter (x − centre) / scale

    @property
    def width(self) -> float | None:
        return None if self.lower is None else self.upper - self.lower


def _distribution(link: str):
    """(F, its density, the statsmodels link) of a link name."""
    from statsmodels.genmod.families import links
    if link == "logit":
        return (lambda u: 1.0 / (1.0 + np.exp(-u)), lambda u: np.exp(-np.abs(u)) / (1.0 + np.exp(-np.abs(u))) ** 2,
                links.Logit())
    if link == "probit":
        return norm.cdf, norm.pdf, links.Probit()
    raise ValueError("link must be one of %s (got %r)" % (", ".join(LINKS), link))


def order_offsets(orders: int) -> np.ndarray:
    """s per first-player order index: the orders enter symmetrically, so a + b·x is their middle."""
    return np.array([-0.5, 0.5]) if orders == 2 else np.zeros(1)


def averaged_root(c: float, target: float, orders: int, cdf) -> float:
    """g(c): the linear predictor u where the orders' average ½·Σ F(u + c·s_o) is the target."""
    offsets = order_offsets(orders)
    return brentq(lambda u: float(np.mean(cdf(u + c * offsets))) - target, -60.0, 60.0, xtol=1e-12)


def fit(values, order_index, successes, trials, *, target: float, direction: int, orders: int, low: float,
        high: float, z: float = Z95, link: str = "logit", level: float = LACK_OF_FIT_LEVEL) -> ModelFair:
    """Fit the cells (one entry per point and order) and return the root with its interval, or why not."""
    x = np.asarray(values, dtype=float)
    order_index = np.asarray(order_index, dtype=int)
    successes, trials = np.asarray(successes, dtype=float), np.asarray(trials, dtype=float)
    keep = trials > 0
    x, order_index, successes, trials = x[keep], order_index[keep], successes[keep], trials[keep]
    cdf, density, link_function = _distribution(link)
    parameters = 3 if orders == 2 else 2
    base = dict(link=link, z=z, level=level, cells=len(x), trials=int(trials.sum()), target=float(target))

    def rejected(reason, **known):
        empty = dict(estimate=None, lower=None, upper=None, slope=None, share_variance=None, lack_of_fit=None,
                     lack_of_fit_df=0, lack_of_fit_p=None)
        return ModelFair(accepted=False, reason=reason, **{**base, **empty, **known})

    if len(np.unique(x)) < 2 or len(x) <= parameters:
        return rejected("too few played points to fit a curve")
    centre, scale = float(x.mean()), float(x.std()) or 1.0
    u = (x - centre) / scale
    columns = [np.ones_like(u), u] + ([order_offsets(2)[order_index]] if orders == 2 else [])
    import statsmodels.api as sm  # on first use: its import costs most of a second (as analysis/decisions.py)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # perfect separation and overflow warnings: judged below from the result
        try:
            result = sm.GLM(np.column_stack([successes, trials - successes]), np.column_stack(columns),
                            family=sm.families.Binomial(link=link_function)).fit()
        except Exception as error:  # statsmodels raises several kinds (separation, singular matrix)
            return rejected("the fit failed (%s)" % type(error).__name__)
    params, covariance = np.asarray(result.params, dtype=float), np.asarray(result.cov_params(), dtype=float)
    if not (np.all(np.isfinite(params)) and np.all(np.isfinite(covariance))):
        return rejected("the fit did not converge")
    a, b = params[0], params[1]
    c = params[2] if orders == 2 else 0.0
    coefficients = [float(a), float(b), float(c)]

    # lack of fit: Pearson χ² over the cells whose χ² approximation holds
    fitted = cdf(np.column_stack(columns) @ params)
    expected = trials * fitted
    counted = (expected >= MIN_EXPECTED) & (trials - expected >= MIN_EXPECTED)
    pearson = float(np.sum((successes - expected)[counted] ** 2 / (expected * (1 - fitted))[counted]))
    degrees = int(counted.sum()) - parameters
    p_value = float(chi2.sf(pearson, degrees)) if degrees > 0 else None
    fit_known = dict(lack_of_fit=pearson, lack_of_fit_df=max(degrees, 0), lack_of_fit_p=p_value,
                     coefficients=coefficients, design_scale=(centre, scale))

    g = averaged_root(c, target, orders, cdf)
    offsets = order_offsets(orders)
    weights = density(g + c * offsets)
    delta = float(np.sum(weights * offsets) / np.sum(weights))  # −g'(c): θ's derivative in c
    slope = float(b / scale * np.mean(weights))
    share = cdf(g + c * offsets)
    variance = float(np.mean(share * (1 - share)))
    estimate = centre + scale * (g - a) / b if b != 0 else math.nan
    fit_known.update(slope=slope, share_variance=variance, estimate=float(estimate))
    if degrees <= 0:
        return rejected("too few cells with enough matches to test the fit", **fit_known)
    if p_value < level:
        return rejected("the %s curve does not fit (Pearson χ² %.1f on %d df, p = %.3g < %g)"
                        % (link, pearson, degrees, p_value, level), **fit_known)
    if b != 0:
        shape_p = _shape_test(successes, trials, columns, result.deviance, (g - a) / b, link_function)
        fit_known["shape_p"] = shape_p
        if shape_p is not None and shape_p < level:
            return rejected("the %s curve bends where it crosses the target: the slopes on the two sides of the root "
                            "differ or the curve is curved there (likelihood-ratio test, p = %.3g < %g)"
                            % (link, shape_p, level), **fit_known)
    interval = _fieller(a - g, b, covariance, delta, orders, z)
    if interval is None or np.sign(b) != np.sign(direction):
        return rejected("the slope is not confidently %s at z = %.2f (b = %.3g ± %.3g)"
                        % ("rising" if direction > 0 else "falling", z, b, math.sqrt(covariance[1, 1])), **fit_known)
    if not low <= estimate <= high:
        return rejected("the fitted root %.4g lies outside the range %g..%g" % (estimate, low, high), **fit_known)
    lower, upper = (max(low, centre + scale * interval[0]), min(high, centre + scale * interval[1]))
    return ModelFair(accepted=True, reason="", lower=float(lower), upper=float(upper), **{**base, **fit_known})


def _shape_test(successes, trials, columns, deviance, root, link_function) -> float | None:
    """p of the likelihood-ratio test (2 df) of the shape near the root: the model plus a hinge
    (u − r)₊ (a different slope above the root) and (u − r)² (curvature). The root's estimate rests
    on the curve's shape on both sides of it; the omnibus χ² spreads its power over every cell and
    misses a bend there that moves the root by more than the interval's width (a 3:2 kink: flagged
    83 % by the χ², and the model covered 14 % of the rest)."""
    import statsmodels.api as sm
    u = columns[1]
    extended = np.column_stack(columns + [np.maximum(u - root, 0.0), (u - root) ** 2])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            wider = sm.GLM(np.column_stack([successes, trials - successes]), extended,
                           family=sm.families.Binomial(link=link_function)).fit()
        except Exception:
            return None
    if not np.isfinite(wider.deviance):
        return None
    return float(chi2.sf(max(deviance - wider.deviance, 0.0), 2))


def _fieller(shift: float, b: float, covariance: np.ndarray, delta: float, orders: int, z: float):
    """The r (standardised) with (shift + b·r)² ≤ z²·Var(θ(r)), or None when unbounded (slope not
    significant at z). θ(r) = a − g(c) + b·r has gradient (1, r, δ) in (a, b, c)."""
    s = covariance
    if orders == 2:
        q0 = s[0, 0] + 2 * delta * s[0, 2] + delta * delta * s[2, 2]
        q1 = s[0, 1] + delta * s[1, 2]
    else:
        q0, q1 = s[0, 0], s[0, 1]
    q2 = s[1, 1]
    z2 = z * z
    quadratic = b * b - z2 * q2
    if quadratic <= 0:
        return None
    linear = shift * b - z2 * q1
    constant = shift * shift - z2 * q0
    half = math.sqrt(max(linear * linear - quadratic * constant, 0.0))
    return (-linear - half) / quadratic, (-linear + half) / quadratic


def matches_for_width(model: ModelFair, width: float, matches: int, current_width: float | None) -> dict | None:
    """Matches the fitted curve says an interval `width` wide needs, two ways: `at_root`, every
    match at the root (the least any design needs: width = 2z·√(p(1−p)/n) / |slope|, from the fit's
    slope and p(1−p) there), and `this_design`, more rounds of the run's own design, whose width
    (`current_width`, None when it is open) shrinks as 1/√matches. Counted as the run counts
    matches: scaled by its matches per trial (a draw is no trial of a decided share). None when
    the fit gave no slope in the metric's direction."""
    if model.slope is None or model.share_variance is None or not model.slope or model.trials <= 0:
        return None
    per_trial = matches / model.trials
    at_root = model.share_variance * (2 * model.z / (width * abs(model.slope))) ** 2 * per_trial
    this_design = None if not current_width else int(math.ceil(matches * (current_width / width) ** 2))
    return {"width": float(width), "at_root": int(math.ceil(at_root)), "this_design": this_design}


DESIGN = 2                 # the finder's stage number of the model's own design points (after SEARCH, CONFIRM)
DESIGN_SHARE_STEP = 0.15   # the design's outer points sit where the fitted order-averaged share is target ± this
MAX_DESIGN_ROUNDS = 20
# Fit only the search points inside the confirmation grid's span? No (measured, docs/fair-value.md):
# it accepts the first game's life curve, which the fit over the whole range rejects, but it misses the
# Gompertz curve's skew (covers-or-flagged 90 % of 300, below the bound).
NEAR_ROOT = False


def played_cells(source, found, orders: int, design=(), near_root: bool = False):
    """(values, order index, successes, trials) of every point played, both finder stages and the
    model's design points: `source.counts(stage, value)` gives a point's successes and trials per order.
    `near_root`: only the search points inside the confirmation grid's span (the design's are near it)."""
    rows = []
    searched = [v for v, *_ in found.search if not near_root or min(found.grid) <= v <= max(found.grid)]
    for stage, values in ((SEARCH, searched), (CONFIRM, found.grid), (DESIGN, design)):
        for value in values:
            successes, trials = source.counts(stage, value)
            for index in range(orders):
                rows.append((value, index, successes[index], trials[index]))
    return tuple(np.array(column) for column in zip(*rows))


def fit_found(source, found, orders: int, design=(), near_root: bool = NEAR_ROOT, **options) -> ModelFair:
    """The model over everything played on `source`: `fair_value.find`'s points and `design`'s."""
    values, order_index, successes, trials = played_cells(source, found, orders, design, near_root)
    return fit(values, order_index, successes, trials, target=found.target, direction=found.direction,
               orders=orders, low=found.low, high=found.high, **options)


def design_points(model: ModelFair, low: int, high: int) -> list[int]:
    """Where the next round goes: the integers nearest the fitted root and where the fitted
    order-averaged share is target ± DESIGN_SHARE_STEP. The root's variance is least with every
    match at the root, but a slope is then unmeasured; the outer pair measures it where the
    binomial noise is still near its largest and the fitted shape is least extrapolated."""
    cdf, _, _ = _distribution(model.link)
    a, b, c = model.coefficients
    offsets = order_offsets(2 if c else 1)
    centre_scale = model.design_scale

    def value_at(share):
        u = averaged_root(c, share, len(offsets), cdf)
        return centre_scale[0] + centre_scale[1] * (u - a) / b

    shares = [model.target - DESIGN_SHARE_STEP, model.target + DESIGN_SHARE_STEP]
    chosen = {int(round(model.estimate))} | {int(round(value_at(share))) for share in shares if 0 < share < 1}
    return sorted(min(max(v, low), high) for v in chosen)


def refine(source, found, model: ModelFair, *, orders: int, budget: int, width: float, matches: int) -> tuple:
    """The sequential design (`--estimator model`): while the model is accepted, its interval wider
    than `width`, and the budget pays for a round, play `matches`·2^round more per order at
    `design_points` (stage DESIGN, each point on deals of its own) and refit over everything.
    Deterministic given the played counts, so a resumed run takes the same decisions.
    Returns (model, the design's points with their matches per order, rounds)."""
    played: dict[int, int] = {}
    rounds = 0
    while model.accepted and model.width > width and rounds < MAX_DESIGN_ROUNDS:
        points = design_points(model, found.low, found.high)
        more = matches * 2 ** rounds  # doubling, as the confirmation rounds: few refits for a large budget
        if source.matches() + len(points) * orders * more > budget:
            break
        for value in points:
            played[value] = played.get(value, 0) + more
            source.measure(DESIGN, [value], played[value])
        rounds += 1
        model = fit_found(source, found, orders, design=sorted(played), link=model.link, z=model.z,
                          level=model.level)
    return model, played, rounds
