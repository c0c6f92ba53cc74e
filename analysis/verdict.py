"""The per-cell balance verdict: balanced, imbalanced or undecided.

A verdict compares a rate with the band [½ − δ, ½ + δ] (δ = `DEFAULT_DELTA`
unless the designer says otherwise). Without a multiplicity correction:

- balanced    — the rate's 90 % Wilson interval lies inside the band: each
                edge is ruled out by a one-sided test at 5 %, which is the
                equivalence test TOST at α = 5 % (see below why that is a
                5 % test): the data show the rate is within δ of a fair ½;
- imbalanced  — the 95 % interval lies outside the band (entirely above
                ½ + δ or entirely below ½ − δ): the data show an advantage
                larger than δ (each side at 2.5 %, since either side would do);
- undecided   — neither: more matches are needed to tell (the table says
                about how many, `analysis/verdict_design.py`). Zero decisive
                matches is always undecided.

`classify` is that interval rule for one interval; a sweep's table decides
with the p-values below, corrected over the whole table (Holm by default).

Which rate ("relevant rate"), decided here once for every report:

- The verdict cell is a *group*: one series, per-seat axis values (e.g.
  starting lives), strategies and rule set, with both first-player orders
  pooled (the sweep always plays both), so that the first-player advantage
  cancels out of the sides' question instead of being mistaken for it. The two orders weigh equally
  even when they got different numbers of matches (precision rounds work per
  cell): `analysis.stats.stratified_rate`, Wilson at the effective n for the interval shown,
  and `stratified_score_p_values` for the claims (its variance fitted to each band edge: the
  effective n of the observed rates over-labelled 'balanced' with a first player near 100 %).
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

from analysis.stats import stratified_null_variance, stratified_rates
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


# ---- verdicts as tests, for a family of cells (issues 17, 27) --------------------------
#
# Each row makes two claims, each a test:
#
# - "imbalanced" rejects |p − ½| ≤ δ: the rate is above ½ + δ *or* below ½ − δ, a union
#   of two one-sided claims, so each side is tested at α/2 (p = 2 · the smaller side's p,
#   Bonferroni) — exactly the 95 % interval rule above;
# - "balanced" rejects |p − ½| ≥ δ: the rate is above ½ − δ *and* below ½ + δ. That is
#   an intersection of two one-sided claims, and the two one-sided tests (TOST,
#   Schuirmann 1987) at α *each* make a level-α test: the null |p − ½| ≥ δ is two disjoint
#   half-lines, at any point of it at most one of the two one-sided nulls is false-rejected
#   with probability ≤ α, and the claim needs both rejected (intersection-union test,
#   Berger 1982). So p = the larger side's p, with no factor 2 — the 90 % interval inside
#   the band, not the 95 % one. Testing each side at α/2 (issue 17's rule) only cost
#   matches: a fair row needed about 12,700 decided matches instead of about 11,000
#   for the same 80 % chance of "balanced" in the first game's default family (56 claims).
#
# A sweep makes one such pair of claims per row and per verdict column, so with 30 rows
# some claim would be wrong far more often than 5 %: `decide_family` corrects the whole
# table with Holm or Benjamini-Hochberg (vectorised: a 2-D array is many tables at once,
# which the calibration tests use).

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


def stratified_score_p_values(groups, successes, trials, n_groups: int, delta: float = DEFAULT_DELTA):
    """(p_imbalanced, p_balanced) per group of an equal-weight rate over strata (the two
    first-player orders; analysis.stats.stratified_rates' grouping) against ½ ± δ: score tests
    whose variance at each band edge is the strata's restricted fit to that edge
    (analysis.stats.stratified_null_variance), not the Kish n_eff of the observed rates, which
    over-labels 'balanced' when a stratum is near 0 or 1. With one stratum per group it is
    `score_p_values` at the stratum's trials."""
    from scipy.special import ndtr

    share = stratified_rates(groups, successes, trials, n_groups)[0]
    edges = []
    for edge in (0.5 - delta, 0.5 + delta):
        variance = stratified_null_variance(groups, successes, trials, n_groups, edge)
        with np.errstate(divide="ignore", invalid="ignore"):
            edges.append((share - edge) / np.sqrt(variance))
    return _two_claims(edges[0], edges[1], ndtr, share, np.isfinite(share).astype(float))


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
    # balanced: above ½−δ and below ½+δ, both shown (TOST, each side at α)
    p_balanced = np.minimum(1.0, np.maximum(1.0 - ndtr(z_low_edge), ndtr(z_high_edge)))
    unknown = ~np.isfinite(estimate) | ~(np.asarray(size) > 0)
    return np.where(unknown, 1.0, p_imbalanced), np.where(unknown, 1.0, p_balanced)


def check_adjust(adjust: str) -> str:
    if adjust not in ADJUST_CHOICES:
        raise CardbalanceError("adjust must be one of %s (got %r)." % (", ".join(ADJUST_CHOICES), adjust))
    return adjust


def reject_family(p, adjust: str = DEFAULT_ADJUST, alpha: float = FAMILY_ALPHA) -> np.ndarray:
    """Which p-values of a family (the last axis) are rejected by Holm, Benjamini-Hochberg or
    no correction. The same rules as statsmodels' multipletests ("holm", "fdr_bh"; a test
    compares them), vectorised so that many replayed tables are decided in one call."""
    adjust = check_adjust(adjust)
    p = np.asarray(p, dtype=float)
    if adjust == "none" or p.shape[-1] == 0:
        # the interval rule's tolerance: a p-value a rounding error above α still decides
        return p <= alpha * (1 + 1e-9)
    m = p.shape[-1]
    order = np.argsort(p, axis=-1, kind="stable")
    ordered = np.take_along_axis(p, order, axis=-1)
    rank = np.arange(m)
    if adjust == "holm":  # step down: reject while p_(j) ≤ α/(m − j)
        passing = ordered <= alpha / (m - rank)
        rejected_sorted = np.cumprod(passing, axis=-1).astype(bool)
    else:  # BH step up: reject every p_(j) up to the largest j with p_(j) ≤ α(j+1)/m
        passing = ordered <= alpha * (rank + 1) / m
        last = np.where(passing.any(axis=-1), m - 1 - np.argmax(passing[..., ::-1], axis=-1), -1)
        rejected_sorted = rank <= last[..., None]
    rejected = np.empty_like(rejected_sorted)
    np.put_along_axis(rejected, order, rejected_sorted, axis=-1)
    return rejected


def decide_family(p_imbalanced, p_balanced, adjust: str = DEFAULT_ADJUST, alpha: float = FAMILY_ALPHA):
    """Verdict strings for a family of claims (the last axis), corrected together.

    Each family (the imbalanced claims, the balanced claims) is corrected on its own; a row
    whose two claims are both rejected cannot happen (the two need opposite evidence)."""
    adjust = check_adjust(adjust)
    p_imbalanced = np.atleast_1d(np.asarray(p_imbalanced, dtype=float))
    p_balanced = np.atleast_1d(np.asarray(p_balanced, dtype=float))
    out = np.full(p_imbalanced.shape, UNDECIDED, dtype=object)
    if p_imbalanced.shape[-1] == 0:
        return out
    out[reject_family(p_balanced, adjust, alpha)] = BALANCED
    out[reject_family(p_imbalanced, adjust, alpha)] = IMBALANCED
    return out
