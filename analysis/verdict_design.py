"""How many matches a verdict needs: the family a sweep plan makes, the power it has, and,
for an undecided row, about how many more matches would likely decide it (issue 27).

The verdicts of a table are one family corrected by Holm (analysis/verdict.py). Holm's
hardest step is its first, α/m, and a claim meets it when no other claim of its family is
rejected — so the sizes here are computed at the Bonferroni level α/m (α/(2m) per side for
"imbalanced", α/m per side for "balanced", TOST). That is a worst case: a real table whose
other claims are decided steps down to easier levels.

With the rate's standard error s and the distance d from the estimate (or the truth) to
a band edge it must clear, a one-sided test at level a clears it with probability
Φ(d/s − z_a) (the balanced claim must clear both edges). The matches a row needs are
found by solving that chance = `POWER` (80 %) for n, with s shrinking as 1/√n from its
value now. An estimate on the very edge (d = 0) cannot be decided by any size: that is
reported as infinite, and so is a size past `ON_EDGE_RATIO` times the row's matches (the
estimate then sits within noise of the edge; the reports say "on the band edge — more
matches will not decide"). Each verdict of a row has its own size (issue 37: the reports
showed the larger of the two, unnamed).
"""

from __future__ import annotations

import numpy as np
from scipy.special import ndtr, ndtri

from analysis.verdict import DEFAULT_DELTA, FAMILY_ALPHA

POWER = 0.80
# Above this many times a row's matches, "more matches" says the row is on the band edge. The size
# grows as ((z_level + z_power) / (d / s))², d the estimate's distance from the band edge and s its
# standard error: past 100× the row's matches, d < (z_level + 0.84) / 10 · s ≈ 0.4 s at the default
# families (z_level ≈ 3.1–3.3), so the data cannot tell which side of the edge the truth lies on,
# and the projection, which takes the estimate for the truth, moves by orders of magnitude within
# one s.e. of noise (d = 0.1 s or 1.4 s: a factor of 200).
ON_EDGE_RATIO = 100
ON_EDGE_WORDS = "on the band edge — more matches will not decide"


def level_z(m: int, alpha: float = FAMILY_ALPHA, two_sided: bool = False) -> float:
    """The one-sided critical z of a claim at the Bonferroni level of a family of m claims."""
    level = alpha / max(int(m), 1) / (2.0 if two_sided else 1.0)
    return float(-ndtri(level))


def matches_to_decide(estimate, se, matches, m: int, delta: float = DEFAULT_DELTA, centre: float = 0.5,
                      alpha: float = FAMILY_ALPHA, power: float = POWER) -> np.ndarray:
    """Matches (per row, in total) a row needs for a `power` chance of deciding the claim
    its estimate points to (balanced inside the band: both edges ruled out; imbalanced
    outside), were the estimate the truth and its spread shrinking as 1/√n; NaN where
    unknown, inf on the band edge. The caller subtracts the matches played."""
    estimate, se = np.broadcast_arrays(np.asarray(estimate, dtype=float), np.asarray(se, dtype=float))
    matches = np.broadcast_to(np.asarray(matches, dtype=float), estimate.shape)
    off = np.abs(estimate - centre)
    inside = off < delta
    c_inside, c_outside = level_z(m, alpha), level_z(m, alpha, two_sided=True)

    def chance(scale):  # decision probability with √(n / matches) = scale
        with np.errstate(divide="ignore", invalid="ignore"):
            near, far = scale * (delta - off) / se - c_inside, scale * (delta + off) / se - c_inside
            beyond = scale * (off - delta) / se - c_outside
        return np.where(inside, ndtr(near) + ndtr(far) - 1.0, ndtr(beyond))

    low, high = np.full(estimate.shape, -10.0), np.full(estimate.shape, 12.0)  # log scale: bisection
    for _ in range(60):
        middle = (low + high) / 2.0
        enough = chance(np.exp(middle)) >= power
        high, low = np.where(enough, middle, high), np.where(enough, low, middle)
    needed = np.ceil(matches * np.exp(2.0 * high))
    needed = np.where((off == delta) | (chance(np.exp(high)) < power), np.inf, needed)
    known = np.isfinite(estimate) & np.isfinite(se) & (se > 0)
    return np.where(known, needed, np.nan)


def more_matches(needed, matches, undecided) -> np.ndarray:
    """Matches beyond the row's to play for an 80 % chance of deciding an undecided claim, from
    `matches_to_decide`: NaN where decided, inf past `ON_EDGE_RATIO` times the row's matches."""
    needed, matches = np.asarray(needed, dtype=float), np.asarray(matches, dtype=float)
    with np.errstate(invalid="ignore"):
        more = np.where(needed > ON_EDGE_RATIO * matches, np.inf, np.maximum(needed - matches, 0))
    return np.where(np.asarray(undecided, dtype=bool), more, np.nan)


def more_matches_text(value) -> str:
    """A "more matches" cell: '' when decided, '+12,345', or the band-edge words."""
    if value is None or value != value:
        return ""
    return ON_EDGE_WORDS if value == float("inf") else "+{:,.0f}".format(value)


def interval_cost_line(half: float = 0.01) -> str:
    """What a ± `half` interval at ½ costs in decided matches, from the reports' own interval
    (Wilson, 95 %): the one line every sweep report states, so a reader can price a precision."""
    from analysis.stats import matches_for_half_width
    return ("Precision costs matches: a 95 %% interval of ±%g point%s at ½ (Wilson, as every rate here) needs "
            "about %s decided matches in the row; ±%g points needs %s (the width falls as 1/√matches)."
            % (100 * half, "" if half == 0.01 else "s", format(matches_for_half_width(half), ","),
               200 * half, format(matches_for_half_width(2 * half), ",")))


def power_balanced(n, m: int, truth: float = 0.5, delta: float = DEFAULT_DELTA, alpha: float = FAMILY_ALPHA) -> float:
    """Chance (normal approximation) that a row of n decided matches at rate `truth`
    inside the band is labelled balanced at the Bonferroni level of m claims."""
    se = np.sqrt(truth * (1 - truth) / n)
    c = level_z(m, alpha)
    upper, lower = (0.5 + delta - truth) / se - c, (truth - 0.5 + delta) / se - c
    return float(max(0.0, ndtr(upper) + ndtr(lower) - 1.0))


def power_imbalanced(n, m: int, truth: float = 0.54, delta: float = DEFAULT_DELTA, alpha: float = FAMILY_ALPHA) -> float:
    """Chance (normal approximation) that a row at rate `truth` outside the band is labelled imbalanced."""
    se = np.sqrt(truth * (1 - truth) / n)
    return float(ndtr((abs(truth - 0.5) - delta) / se - level_z(m, alpha, two_sided=True)))


def plan_family(plan) -> tuple[int, int]:
    """(verdict claims m, rows) of the table a sweep plan's run will have, as analysis/tables.verdicts
    counts them: one first-player claim per row and one balance claim per row, except rows with
    unequal seats that are mirrors or have no mirror to compare with (labelled 'handicap')."""
    from analysis.dimensions import add_roles_to_cells

    cells = add_roles_to_cells([cell.as_dict() for cell in plan.cells], [d.describe() for d in plan.game.dimensions])
    key = ("series", "seat0_name", "seat1_name", "axis0", "axis1", "strategy0", "strategy1", "rules")
    rows = {tuple(cell.get(k) for k in key) for cell in cells}
    mirrors = {(r[1], *r[3:]) for r in rows if r[1] == r[2]}
    judged = 0
    for series, seat0, seat1, axis0, axis1, strategy0, strategy1, rules in rows:
        handicap = axis0 != axis1 or strategy0 != strategy1
        if not handicap:
            judged += 1
        elif seat0 != seat1 and any((side, axis0, axis1, strategy0, strategy1, rules) in mirrors
                                    for side in (seat0, seat1)):
            judged += 1
    return judged + len(rows), len(rows)
