"""The fair-value finder: the integer parameter value where a noisy metric meets a target,
with a confidence interval on the value (method and guarantee: docs/fair-value.md).

Two stages, on independent deals:

1. Search (stage 0): noisy bisection. Both ends of the range, then midpoints, each with
   `first` matches per first-player order; the bracket moves by the sign of the point
   estimate. Cheap, no guarantee; it only chooses where to look.
2. Confirmation (stage 1): a grid of points around the search's candidate, chosen from
   stage 0 only, played on fresh deals (common to every grid point) in rounds that
   double the matches. Each grid point is tested one-sided at level α/K, K = grid points ×
   rounds (fixed before stage 1 starts). The interval is (v_low, v_high): the largest
   point confidently on the low side of the target and the smallest confidently on the
   high side. If the metric is monotone over the range, every one of the K tests is right
   with probability ≥ 1 − α (union bound, whatever the dependence between them), and then
   the fair value lies strictly between v_low and v_high. A side with no confident point
   is open: the range end bounds it, and no point estimate is given. Stops when
   v_high − v_low ≤ `precision` or when the next round would pass the match budget.

Out of range (NotReached): stage 0 refuses when both ends are confidently on one side of
the target (95 % intervals; wrong, for a monotone metric, only if the end on the target's
side is, ≤ 2.5 %). Stage 1 refuses when a range end in the grid is confidently on the wrong
side of the target (the high end below it for a rising metric, the low end above it) and
no grid point is confidently on the other side: that end's test is one of the K, so the
refusal is wrong with probability ≤ α/K per round it is looked at (within the α of the
union bound). Together: a monotone metric whose target lies inside the range is refused
with probability ≤ 2.5 % + α.

The finder knows nothing of games: a *source* plays and measures
(`measure(stage, values, matches)`, `interval(stage, value, z)`), so the calibration
test drives it with a synthetic logistic curve and the CLI with real matches.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from scipy.stats import norm

from sim.errors import CardbalanceError

SEARCH, CONFIRM = 0, 1
MAX_GRID = 15


class NotReached(CardbalanceError):
    """The target lies confidently outside the metric's values over the whole range.
    `search` and `points`: the measured points behind the refusal, as in FairValue."""

    def __init__(self, message: str, search=(), points=()):
        super().__init__(message)
        self.search, self.points = list(search), list(points)


@dataclass
class FairValue:
    target: float
    low: int                      # the parameter range searched
    high: int
    direction: int                # +1: the metric rises with the parameter
    estimate: float | None        # point estimate (interpolated); None when a side is open
    lower: float                  # interval on the value: (lower, upper), open where a side is unbounded
    upper: float
    lower_open: bool
    upper_open: bool
    candidates: list[int]         # integers inside the interval
    grid: list[int]
    rounds: int
    planned_rounds: int
    z: float
    alpha: float
    matches: int                  # matches used (both stages)
    stopped: str                  # "precision" or "budget"
    monotone: bool = True
    search: list = field(default_factory=list)   # [(value, est, low, high)] of stage 0
    points: list = field(default_factory=list)   # [(value, est, low, high)] of stage 1 at the last round

    @property
    def width(self) -> float:
        return self.upper - self.lower


def one_sided_z(alpha: float, tests: int) -> float:
    return float(norm.ppf(1.0 - alpha / max(tests, 1)))


def search_points(low: int, high: int) -> int:
    """Most points the bisection can play: both ends and one per halving."""
    return 2 + max(0, math.ceil(math.log2(max(high - low, 1))))


def cost_check(low: int, high: int, first: int, orders: int, budget: int) -> None:
    """One clear error before any match when the budget cannot pay for the search and one confirmation round."""
    search = search_points(low, high) * first * orders
    confirm = 3 * first * orders
    if budget < search + confirm:
        raise CardbalanceError("--max-matches %d is too small: the search over %d..%d needs up to %d matches and a "
                               "confirmation round at least %d more (give at least %d, or fewer --round-matches)."
                               % (budget, low, high, search, confirm, search + confirm))


def find(source, low: int, high: int, target: float, *, first: int, budget: int, precision: float = 1.0,
         alpha: float = 0.05, orders: int = 2) -> FairValue:
    """Run both stages against `source`; `budget` counts matches over both orders and stages."""
    cost_check(low, high, first, orders, budget)
    z_look = float(norm.ppf(1 - alpha / 2))

    # ---- stage 0: noisy bisection ----------------------------------------------------
    search = {}

    def look(value):
        source.measure(SEARCH, [value], first)
        search[value] = source.interval(SEARCH, value, z_look)
        return search[value][0]

    at_low, at_high = look(low), look(high)
    direction = 1 if at_high >= at_low else -1
    _check_reached(search, low, high, target, direction)
    a, b = low, high
    while b - a > 1:
        middle = (a + b) // 2
        if direction * (look(middle) - target) < 0:
            a = middle
        else:
            b = middle
    candidate = _interpolate(search, target, a, b)
    spread = _spread(search, candidate, target, first, orders)

    # ---- stage 1: confirmation grid, K one-sided tests fixed now -------------------------
    step = max(1, min(int(precision), int(math.ceil(2 * spread / (MAX_GRID - 1)))))
    half = max(2, int(math.ceil(spread / step)))
    half = min(half, (MAX_GRID - 1) // 2)
    centre = int(round(candidate))
    grid = sorted({min(max(centre + k * step, low), high) for k in range(-half, half + 1)})
    used = source.matches()
    rounds, per_round = 0, first
    while used + len(grid) * orders * (per_round * 2 ** rounds) <= budget:  # cumulative matches per point double
        rounds += 1
        if rounds >= 30:
            break
    if rounds == 0:
        rounds = 1  # cost_check guaranteed a 3-point round; a wider grid still gets its first round
        grid = _narrow(grid, centre, max(1, (budget - used) // (orders * per_round)))
    tests = len(grid) * rounds
    z = one_sided_z(alpha, tests)
    result = None
    for round_number in range(rounds):
        matches = per_round * 2 ** round_number
        source.measure(CONFIRM, grid, matches)
        points = [(v, *source.interval(CONFIRM, v, z)) for v in grid]
        _check_range_ends(points, search, low, high, target, direction, z, round_number + 1, alpha)
        result = _interval(points, target, direction, low, high)
        lower, upper = result[0], result[1]
        done = round_number + 1
        if not result[2] and not result[3] and upper - lower <= precision:
            break
    lower, upper, lower_open, upper_open, monotone = result
    stopped = "precision" if (not lower_open and not upper_open and upper - lower <= precision) else "budget"
    estimate = point_estimate(points, target, direction, lower, upper, lower_open, upper_open, default=candidate)
    inside = [v for v in range(int(math.floor(lower)), int(math.ceil(upper)) + 1)
              if (lower < v or (lower_open and v == lower)) and (v < upper or (upper_open and v == upper))]
    return FairValue(target=target, low=low, high=high, direction=direction, estimate=estimate,
                     lower=float(lower), upper=float(upper), lower_open=lower_open, upper_open=upper_open,
                     candidates=inside, grid=grid, rounds=done, planned_rounds=rounds, z=z, alpha=alpha,
                     matches=source.matches(), stopped=stopped, monotone=monotone,
                     search=sorted((v, *iv) for v, iv in search.items()), points=points)


def _check_reached(search, low, high, target, direction) -> None:
    """Both ends confidently on one side of the target: no value in the range reaches it."""
    (_, low_lo, low_hi), (_, high_lo, high_hi) = search[low], search[high]
    below = max(low_hi, high_hi) < target
    above = min(low_lo, high_lo) > target
    if below or above:
        raise NotReached("no value of the parameter in %d..%d reaches the target %.4g: the metric is %s it at both "
                         "ends (%.4g [%.4g, %.4g] at %d, %.4g [%.4g, %.4g] at %d; search, 95 %%); wrong with "
                         "probability at most 2.5 %% if the metric is monotone; widen the range or change the target."
                         % (low, high, target, "below" if below else "above", search[low][0], low_lo, low_hi, low,
                            search[high][0], high_lo, high_hi, high),
                         search=sorted((v, *iv) for v, iv in search.items()))


def _check_range_ends(points, search, low, high, target, direction, z, round_number, alpha) -> None:
    """A range end in the grid confidently on the wrong side of the target (the far end of a
    rising metric below it, the near end above it) with no grid point confidently on the
    other side: under monotonicity no value in the range reaches the target."""
    below, above = _sides(points, target, direction)
    measured = {v: (e, lo, hi) for v, e, lo, hi in points}
    if high in below and not above:
        wrong, other = high, low
    elif low in above and not below:
        wrong, other = low, high
    else:
        return
    side = "below" if (wrong == high) == (direction > 0) else "above"
    shown = lambda v: "%.4g [%.4g, %.4g]" % measured[v] if v in measured else "%.4g [%.4g, %.4g]" % tuple(search[v])
    where = "confirmation" if other in measured else "search, 95 %"
    raise NotReached(
        "no value of the parameter in %d..%d reaches the target %.4g: the metric is confidently %s it at %d (%s, "
        "confirmation round %d, z = %.2f) and is %s at %d (%s); wrong with probability at most %g %% if the metric "
        "is monotone; widen the range or change the target."
        % (low, high, target, side, wrong, shown(wrong), round_number, z, shown(other), other, where, 100 * alpha),
        search=sorted((v, *iv) for v, iv in search.items()), points=points)


def _interpolate(points: dict, target: float, a, b, default=None) -> float:
    """Where the line through the estimates at the nearest evaluated points around (a, b) meets the target."""
    values = sorted(points)
    left = [v for v in values if v <= a] or values[:1]
    right = [v for v in values if v >= b] or values[-1:]
    x0, x1 = left[-1], right[0]
    y0, y1 = points[x0][0], points[x1][0]
    if x1 == x0 or y1 == y0 or not (math.isfinite(y0) and math.isfinite(y1)):
        return float(default if default is not None else (a + b) / 2)
    x = x0 + (target - y0) * (x1 - x0) / (y1 - y0)
    return float(min(max(x, min(a, b)), max(a, b)))


def point_estimate(points, target: float, direction: int, lower: float, upper: float, lower_open: bool,
                   upper_open: bool, default: float) -> float | None:
    """`crossing`, or None beside an open side: the range end bounds the interval there, and a
    line through the estimates would claim a value the data do not bracket."""
    if lower_open or upper_open:
        return None
    return crossing(points, target, direction, lower, upper, default)


def crossing(points, target: float, direction: int, lower: float, upper: float, default: float) -> float:
    """The point estimate: where the line between the two neighbouring grid estimates that straddle
    the target (inside the interval, nearest its middle) meets it; `default` if none straddle."""
    inside = sorted((v, e) for v, e, _, _ in points if lower <= v <= upper and math.isfinite(e))
    middle = (lower + upper) / 2
    best = None
    for (x0, y0), (x1, y1) in zip(inside, inside[1:]):
        if direction * (y0 - target) <= 0 <= direction * (y1 - target) and y1 != y0:
            x = x0 + (target - y0) * (x1 - x0) / (y1 - y0)
            if best is None or abs(x - middle) < abs(best - middle):
                best = x
    return float(best if best is not None else default)


def _spread(search: dict, candidate: float, target: float, first: int, orders: int) -> float:
    """How far the true value may plausibly sit from the candidate: 4 standard errors of the
    crossing, from the metric's noise at `first` matches and the steepest significant slope
    of the search points around the candidate (the ends as a fallback)."""
    noise = math.sqrt(max(target * (1 - target), 0.01) / (first * orders)) if 0 < target < 1 else None
    values = sorted(search)
    left = [v for v in values if v <= candidate][::-1]
    right = [v for v in values if v > candidate]
    for x0, x1 in zip(left, right):
        (y0, lo0, hi0), (y1, lo1, hi1) = search[x0], search[x1]
        if lo1 > hi0 or lo0 > hi1:  # the two estimates differ clearly
            slope = abs(y1 - y0) / (x1 - x0)
            se = noise if noise is not None else ((hi0 - lo0) + (hi1 - lo1)) / 7.84
            return 4.0 * se / slope
    return (values[-1] - values[0]) / 4.0


def _narrow(grid, centre, points):
    keep = sorted(grid, key=lambda v: (abs(v - centre), v))[:max(points, 1)]
    return sorted(keep)


def _interval(points, target, direction, low, high):
    """(lower, upper, lower_open, upper_open, monotone) from the confirmation points' intervals."""
    below, above = _sides(points, target, direction)
    lower = max(below) if below else low
    upper = min(above) if above else high
    monotone = not (below and above and max(below) > min(above))
    if not monotone:  # a crossing of confident points: report the hull of the disagreement
        lower, upper = min(min(above), max(below)), max(min(above), max(below))
    return lower, upper, not below, not above, monotone


def _sides(points, target, direction):
    """The grid points confidently on the low side of the target and on the high side (for a
    falling metric, low side = metric above the target)."""
    below = [v for v, _, lo, hi in points if (hi < target if direction > 0 else lo > target)]
    above = [v for v, _, lo, hi in points if (lo > target if direction > 0 else hi < target)]
    return below, above
