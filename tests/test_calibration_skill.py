"""Issue 27, part 4: skill marks with a stated error rate and a stated power.

Seeded, no engine: per replication, 12 cells × 3 skill levels of decided-match shares are
drawn from binomials and marked with the shipped test and correction
(analysis/skill.trend_p_values, analysis/verdict.reject_family — what
skill.robustness applies). 4,000 replications per case.

- the same true share (0.40) at all three levels in all 12 cells, 200 decided matches per
  level: some cell marked "skill-dependent" in at most 5 % + 3 MC s.e. of the tables (the
  old rule marked at least one in 75 %);
- a 10-point drift (0.35, 0.40, 0.45) in one cell: found as often as `skill.drift_power`
  states (within 3 s.e. + 2 points of normal approximation), at 200 and at 1,000 per level;
- issue 27's case 0.44 → 0.54 at 1,000 per level (it read "holds" 78 % of the time): marked
  skill-dependent ≥ 90 % (measured 94.5 %; 99 % was the uncorrected figure) and as stated.
"""

import math

import numpy as np
import pytest

from analysis import skill
from analysis.verdict import reject_family

RUNS, CELLS, LEVELS = 4000, 12, 3
LIMIT = 0.05 + 3 * math.sqrt(0.05 * 0.95 / RUNS)


def marked(truths, n, seed, adjust="holm"):
    """(RUNS, CELLS) skill-dependent marks; `truths` (CELLS, LEVELS) true shares."""
    generator = np.random.default_rng(seed)
    shares = generator.binomial(n, np.asarray(truths, dtype=float), size=(RUNS, CELLS, LEVELS)) / n
    p = skill.trend_p_values(shares, np.full(shares.shape, float(n)))
    return reject_family(p, adjust)


def test_no_drift_marks_some_cell_at_most_five_percent_of_tables():
    marks = marked(np.full((CELLS, LEVELS), 0.40), 200, seed=2741)
    some = float(marks.any(axis=1).mean())
    uncorrected = float(marked(np.full((CELLS, LEVELS), 0.40), 200, seed=2741, adjust="none").any(axis=1).mean())
    print("no drift: some cell marked %.4f with Holm, %.4f without" % (some, uncorrected))
    assert some <= LIMIT
    assert uncorrected > 0.3  # the correction is what keeps it: the test can fail


@pytest.mark.parametrize("n", [200, 1000])
def test_a_ten_point_drift_is_found_as_often_as_stated(n):
    truths = np.full((CELLS, LEVELS), 0.40)
    truths[0] = (0.35, 0.40, 0.45)
    found = float(marked(truths, n, seed=2742 + n)[:, 0].mean())
    stated = skill.drift_power(n, LEVELS, CELLS, centre=0.40)
    print("10-point drift at %d per level: found %.4f, stated %.4f" % (n, found, stated))
    assert abs(found - stated) <= 3 * math.sqrt(stated * (1 - stated) / RUNS) + 0.02


def test_issue_27_drift_at_1000_per_level_is_marked():
    truths = np.full((CELLS, LEVELS), 0.49)
    truths[0] = (0.44, 0.49, 0.54)
    found = float(marked(truths, 1000, seed=2743)[:, 0].mean())
    stated = skill.drift_power(1000, LEVELS, CELLS, centre=0.49)
    print("0.44 -> 0.54 at 1,000 per level: marked %.4f, stated %.4f" % (found, stated))
    assert found >= 0.90 and abs(found - stated) <= 3 * math.sqrt(stated * (1 - stated) / RUNS) + 0.02
