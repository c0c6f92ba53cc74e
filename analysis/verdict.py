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

- The verdict cell is a *group*: one series, per-seat axis values (e.g.
  starting lives), strategies and rule set, with both first-player orders
  pooled (the sweep always plays both), so that the first-player advantage
  cancels out of the sides' question instead of being mistaken for it. The two orders weigh equally
  even when they got different numbers of matches (precision rounds work per
  cell): `analysis.stats.stratified_rate`, Wilson at the effective n.
- The rate is seat 0's **decisive win share**: seat-0 wins / (seat-0 wins +
  seat-1 wins). Draws are excluded from this rate — they are reported as
  their own rate next to it, never hidden. Why not count a draw as half a
  win: the decisive share is an exact binomial proportion given the number of
  decisive matches, so its Wilson interval is exact in meaning, whereas
  "wins + ½ draws" is not binomial. Both agree when there are no draws.
- Non-mirror series (the two seats hold different sides):
  seat 0 holds the series' first side, so this is "the first side's share of
  the decided matches against the second". Mirror series (the same side in
  both seats): it is the seat-0 share, which is
  ½ by symmetry when lives and strategies are equal — any verdict other than
  balanced/undecided there flags an asymmetry of lives, strategies or the
  engine itself (a useful check, not a result about a side).
- The first-player verdict uses the same rule on the first player's decisive
  win share, pooled over both first-player orders (so it cancels the sides).
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


# ---- verdicts as tests, for a family of cells (issue 17) ------------------------------
#
# The interval rule above is two one-sided tests per claim at 2.5 % each: "imbalanced"
# rejects |p − ½| ≤ δ, "balanced" rejects |p − ½| ≥ δ (equivalence). A sweep makes one
# such pair of claims per row and per verdict column, so with 30 rows some claim is wrong
# far more often than 5 %. The p-values below reproduce the interval rule exactly at
# α = 5 % (the Wilson interval is the inversion of the score test), and
# `decide_family` corrects the whole table with Holm or Benjamini-Hochberg.

HANDICAP = "handicap"  # unequal seats and no mirror to compare with: no claim about the sides is made
ADJUST_CHOICES = ("holm", "bh", "none")
DEFAULT_ADJUST = "holm"
FAMILY_ALPHA = 0.05


def score_p_values(share, n_eff, delta: float = DEFAULT_DELTA):
    """(p_imbalanced, p_balanced) of a decided-match share against ½ ± δ (score tests at n_eff)."""
    from scipy.special import ndtr

    share = np.asarray(share, dtype=float)
    n_eff = np.asarray(n_eff, dtype=float)
    edges = []
    for edge in (0.5 - delta, 0.5 + delta):
        with np.errstate(divide="ignore", invalid="ignore"):
            edges.append((share - edge) / np.sqrt(edge * (1 - edge) / n_eff))
    return _two_claims(edges[0], edges[1], ndtr, share, n_eff)


def normal_p_values(effect, se, delta: float = DEFAULT_DELTA):
    """(p_imbalanced, p_balanced) of a difference of shares (e.g. from the mirror) against ±δ."""
    from scipy.special import ndtr

    effect = np.asarray(effect, dtype=float)
    se = np.asarray(se, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        low, high = (effect + delta) / se, (effect - delta) / se
    return _two_claims(low, high, ndtr, effect, np.where(se > 0, 1.0, 0.0))


def _two_claims(z_low_edge, z_high_edge, ndtr, estimate, size):
    # imbalanced: above ½+δ (large z_high_edge) or below ½−δ (very negative z_low_edge)
    p_imbalanced = np.minimum(1.0, 2.0 * np.minimum(1.0 - ndtr(z_high_edge), ndtr(z_low_edge)))
    # balanced: above ½−δ and below ½+δ, both shown
    p_balanced = np.minimum(1.0, 2.0 * np.maximum(1.0 - ndtr(z_low_edge), ndtr(z_high_edge)))
    unknown = ~np.isfinite(estimate) | ~(np.asarray(size) > 0)
    return np.where(unknown, 1.0, p_imbalanced), np.where(unknown, 1.0, p_balanced)


def check_adjust(adjust: str) -> str:
    if adjust not in ADJUST_CHOICES:
        raise CardbalanceError("adjust must be one of %s (got %r)." % (", ".join(ADJUST_CHOICES), adjust))
    return adjust


def decide_family(p_imbalanced, p_balanced, adjust: str = DEFAULT_ADJUST, alpha: float = FAMILY_ALPHA):
    """Verdict strings for a family of claims, corrected together (statsmodels multipletests).

    Each family (the imbalanced claims, the balanced claims) is corrected on its own; a row
    whose two claims are both rejected cannot happen (the two need opposite evidence)."""
    from statsmodels.stats.multitest import multipletests

    adjust = check_adjust(adjust)
    p_imbalanced = np.atleast_1d(np.asarray(p_imbalanced, dtype=float))
    p_balanced = np.atleast_1d(np.asarray(p_balanced, dtype=float))
    out = np.full(p_imbalanced.shape, UNDECIDED, dtype=object)
    if len(out) == 0:
        return out
    if adjust == "none":
        # the interval rule's tolerance: a p-value a rounding error above α still decides
        reject_imbalanced, reject_balanced = p_imbalanced <= alpha * (1 + 1e-9), p_balanced <= alpha * (1 + 1e-9)
    else:
        method = {"holm": "holm", "bh": "fdr_bh"}[adjust]
        # Nothing can be rejected when no p-value reaches the first critical level (α/m for
        # Holm, α for BH); skipping the call then saves its gc.collect() (Holm branch).
        first_level = alpha / len(out) if adjust == "holm" else alpha

        def reject(p):
            if np.all(p > first_level):
                return np.zeros(len(p), dtype=bool)
            return multipletests(p, alpha=alpha, method=method)[0]
        reject_imbalanced, reject_balanced = reject(p_imbalanced), reject(p_balanced)
    out[reject_balanced] = BALANCED
    out[reject_imbalanced] = IMBALANCED
    return out
