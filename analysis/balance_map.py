"""Balance-region maps: a 2-D grid of design points, each a rate with its verdict, decided
as one family.

The verdict of a point is analysis.verdict's, made as tests (issue 17):
`score_p_values(share, n_eff, delta)` gives each point's p-values for "imbalanced"
(|p − ½| > δ) and "balanced" (|p − ½| < δ, equivalence), and `decide_family(...,
adjust="holm")` corrects the whole map together, so the probability that any point
labelled balanced (or imbalanced) is wrong stays at most 5 % over the map, however
many points it has. The 50 % contour is drawn through the point estimates.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analysis.verdict import BALANCED, DEFAULT_ADJUST, DEFAULT_DELTA, decide_family, score_p_values


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


def family_verdicts(share, n_eff, delta: float = DEFAULT_DELTA, adjust: str = DEFAULT_ADJUST) -> np.ndarray:
    """Verdict words of every point of the map (any shape), as one Holm-corrected family."""
    share = np.asarray(share, dtype=float)
    p_imbalanced, p_balanced = score_p_values(share.ravel(), np.asarray(n_eff, dtype=float).ravel(), delta)
    return decide_family(p_imbalanced, p_balanced, adjust).reshape(share.shape)
