"""Balance-region maps: a 2-D grid of design points, each a rate with its verdict, decided
as one family.

The verdict of a point is analysis.verdict's, made as tests (issue 17):
`stratified_score_p_values` (the sweep table's pooled-row test, the first-player orders as
strata; sim.fair.metrics.verdict_p_values) gives each point's p-values for "imbalanced"
(|p − ½| > δ) and "balanced" (|p − ½| < δ, equivalence), and `decide_family(...,
adjust="holm")` corrects the whole map together, so the probability that any point
labelled balanced (or imbalanced) is wrong stays at most 5 % over the map, however
many points it has. The 50 % contour is drawn through the point estimates.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analysis.verdict import BALANCED, DEFAULT_ADJUST, DEFAULT_DELTA, decide_family


@dataclass
class BalanceMap:
    x_values: list
    y_values: list
    estimate: np.ndarray        # [len(y), len(x)]
    low: np.ndarray
    high: np.ndarray
    verdict: np.ndarray | None  # object array of verdict words, or None (a metric without a ½ verdict)
    delta: float
    adjust: str

    def balanced_points(self) -> list[tuple]:
        if self.verdict is None:
            return []
        return [(self.x_values[i], self.y_values[j]) for j in range(len(self.y_values))
                for i in range(len(self.x_values)) if self.verdict[j, i] == BALANCED]


def family_verdicts(p_imbalanced, p_balanced, adjust: str = DEFAULT_ADJUST) -> np.ndarray:
    """Verdict words of every point of the map (any shape) from its points' p-values
    (sim.fair.metrics.verdict_p_values), as one Holm-corrected family."""
    p_imbalanced = np.asarray(p_imbalanced, dtype=float)
    return decide_family(p_imbalanced.ravel(), np.asarray(p_balanced, dtype=float).ravel(),
                         adjust).reshape(p_imbalanced.shape)


def matches_to_call_fair_point_balanced(points: int, delta: float = DEFAULT_DELTA, power: float = 0.80) -> int:
    """Decided matches a point at exactly ½ needs (both first-player orders together) to be called
    balanced with `power` chance when its claim meets Holm's first step over a map of `points`
    points (α/points, the equivalence test's both edges): the cost per point of a band ½ ± delta.
    A worst case, as analysis.verdict_design states its sizes: other rejected claims ease Holm's step."""
    from analysis.verdict_design import power_balanced
    low, high = 1, 2
    while power_balanced(high, points, 0.5, delta) < power:
        low, high = high, high * 2
    while high - low > 1:
        middle = (low + high) // 2
        if power_balanced(middle, points, 0.5, delta) >= power:
            high = middle
        else:
            low = middle
    return high
