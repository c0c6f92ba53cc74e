"""The per-cell balance verdict: balanced, imbalanced or undecided.

A verdict compares a rate's 95 % Wilson interval with the band
[½ − δ, ½ + δ] (δ = `DEFAULT_DELTA` unless the designer says otherwise):

- balanced    — the whole interval lies inside the band: the data show the
                rate is within δ of a fair ½;
- imbalanced  — the whole interval lies outside the band (entirely above
                ½ + δ or entirely below ½ − δ): the data show an advantage
                larger than δ;
- undecided   — the interval overlaps an edge of the band: more matches are
                needed to tell. Zero decisive matches is always undecided.

Which rate ("relevant rate"), decided here once for every report:

- The verdict cell is a *group*: one pairing, starting lives, strategies and
  rule set, with both first-player orders pooled (the sweep always plays
  both), so that the first-player advantage cancels out of the faction
  question instead of being mistaken for it. The two orders weigh equally
  even when they got different numbers of matches (precision rounds work per
  cell): `analysis.stats.stratified_rate`, Wilson at the effective n.
- The rate is seat 0's **decisive win share**: seat-0 wins / (seat-0 wins +
  seat-1 wins). Draws are excluded from this rate — they are reported as
  their own rate next to it, never hidden. Why not count a draw as half a
  win: the decisive share is an exact binomial proportion given the number of
  decisive matches, so its Wilson interval is exact in meaning, whereas
  "wins + ½ draws" is not binomial. Both agree when there are no draws.
- Non-mirror series (the two seats hold different sides, e.g. two factions):
  seat 0 holds the series' first side, so this is "the first side's share of
  the decided matches against the second". Mirror series (the same side in
  both seats): it is the seat-0 share, which is
  ½ by symmetry when lives and strategies are equal — any verdict other than
  balanced/undecided there flags an asymmetry of lives, strategies or the
  engine itself (a useful check, not a result about a side).
- The first-player verdict uses the same rule on the first player's decisive
  win share, pooled over both first-player orders (so it cancels faction).
"""

from __future__ import annotations

import numpy as np

from sim.errors import CardbalanceError

DEFAULT_DELTA = 0.02
BALANCED, IMBALANCED, UNDECIDED = "balanced", "imbalanced", "undecided"
VERDICTS = (BALANCED, UNDECIDED, IMBALANCED)


def check_delta(delta) -> float:
    """δ as a float, or CardbalanceError when it is not in (0, 0.5)."""
    try:
        value = float(delta)
    except (TypeError, ValueError):
        raise CardbalanceError("delta must be a number between 0 and 0.5 (got %r)." % (delta,)) from None
    if not 0.0 < value < 0.5:
        raise CardbalanceError("delta must be a number between 0 and 0.5, e.g. 0.02 (got %r)." % (delta,))
    return value


def classify(low, high, delta: float = DEFAULT_DELTA) -> np.ndarray:
    """Verdict strings for interval(s) [low, high] against ½ ± delta (see module docstring)."""
    delta = check_delta(delta)
    low = np.atleast_1d(np.asarray(low, dtype=float))
    high = np.atleast_1d(np.asarray(high, dtype=float))
    band_low, band_high = 0.5 - delta, 0.5 + delta
    # A tiny tolerance so that an interval computed to sit exactly on the band
    # edge is not flipped by the last bit of floating point.
    eps = 1e-12
    inside = (low >= band_low - eps) & (high <= band_high + eps)
    outside = (high < band_low - eps) | (low > band_high + eps)
    out = np.full(low.shape, UNDECIDED, dtype=object)
    out[inside] = BALANCED
    out[outside] = IMBALANCED
    return out
