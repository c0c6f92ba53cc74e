"""The compare gate's decisions: every comparison of every --fail-if, decided once, at a stated error.

Each distinct comparison (`field operator threshold`) is one decision of the
family. At every planned look (analysis/sequential.py) it gets two
standardised statistics from the comparison table — Z_fail (evidence that the
statement holds) and Z_pass (evidence that it does not) — and is decided the
first time one of them reaches its group-sequential bound: **fail** or
**pass**. A decision is final: later looks (played because other gates are
still open) never flip it. Still open at --max-matches: *inconclusive*.

Multiplicity: with `adjust="holm"` (family-wise error) or `"bh"`
(false-discovery rate) the repeated p-values of the family are corrected with
`statsmodels.stats.multitest.multipletests`, separately for the fail side and
the pass side; `"none"` decides each comparison at α on its own, so with m
comparisons up to m·α of them may be wrong in a run (`family_statement`).

Exact answers, no statistics needed:

- a zero-width interval (every paired match moved the metric by the same
  amount, e.g. match length unchanged in every pair) decides at once;
- **identical pairs**: in a paired comparison, when no paired match of the
  scope differs in the metric, `delta` and `abs_delta` are exactly 0 *in the
  matches played*. That lets "must not move" gates such as
  `all.draws.delta > 0` pass for identical rules or a change that never
  touches draws. It is a statement about the n matches played: a change that
  touches fewer than about 3/N of the N matches of the scope can go unseen
  (rule of three), which --min-matches controls. That limit is printed with
  each such decision and in the family statement: identical-pairs decisions
  are exact for the matches played and are *not* part of the 5 % claim.

Two-sided claims spend α/2 per side: the `abs_delta` statement "|Δ| > t" is
shown when Δ is beyond t *or* beyond −t, the union of two one-sided tests, so
each is taken at α/2 (Bonferroni; its repeated p-value is twice the smaller
side's). Without that, `abs_delta > 0` failed wrongly 10.1 % of the time at a
true Δ = 0 (issue 27). The opposite claim "|Δ| ≤ t" needs both sides shown
(two one-sided tests, an intersection-union test): each side at α keeps it at
α (Berger 1982), so that side keeps the one-sided bounds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from analysis import gate as gates
from analysis.sequential import Plan
from sim.errors import CardbalanceError

ADJUSTMENTS = {"none": None, "holm": "holm", "bh": "fdr_bh"}
ADJUST_NAMES = {"none": "no correction", "holm": "Holm (family-wise error)", "bh": "Benjamini-Hochberg (false-discovery rate)"}
DEFAULT_ADJUST = "holm"


def _multipletests(p, alpha, method):
    """statsmodels' multipletests, imported on first use: the import costs 0.8 s and the
    sweep's report reaches this module only for its names (ADJUST_NAMES)."""
    from statsmodels.stats.multitest import multipletests
    return multipletests(p, alpha=alpha, method=method)


def check_adjust(adjust: str) -> str:
    if adjust not in ADJUSTMENTS:
        raise CardbalanceError("--adjust must be one of %s (got %r)." % (", ".join(ADJUSTMENTS), adjust))
    return adjust


def family_statement(m: int, alpha: float, adjust: str, what: str = "decisions") -> str:
    """One sentence: how many decisions, and the error rate the family is controlled at."""
    if m == 0:
        return "No %s." % what
    if m == 1:
        return "1 decision (%s), wrong with probability at most %g %%." % (what, 100 * alpha)
    if adjust == "holm":
        return ("%d %s, Holm-corrected: family-wise error rate at most %g %% (the chance that any of them is "
                "wrong)." % (m, what, 100 * alpha))
    if adjust == "bh":
        return ("%d %s, Benjamini-Hochberg: false-discovery rate at most %g %% (expected share of wrong ones among "
                "those claimed); the family-wise error rate is not controlled (up to %g %%)."
                % (m, what, 100 * alpha, min(100.0, 100 * m * alpha)))
    return ("%d %s, each at %g %% with no correction: the chance that at least one is wrong can reach %g %% "
            "(m·α; use the Holm option for %g %%)." % (m, what, 100 * alpha, min(100.0, 100 * m * alpha), 100 * alpha))


def two_sided_sides(comparison: gates.Comparison) -> tuple[bool, bool]:
    """(fail side, pass side): which of the two is a two-sided claim (α/2 per side)."""
    if comparison.field.stat != "abs_delta":
        return False, False
    greater = comparison.operator in (">", ">=")
    return greater, not greater  # "|Δ| beyond t" is the union claim


def statistics(comparison: gates.Comparison, value: float, se: float):
    """(Z_fail, Z_pass) of one comparison: standardised distance of the estimate from the
    threshold in the direction that would show the statement true (fail) or false (pass).
    Works on numpy arrays of values and standard errors too (analysis/calibration.py)."""
    t = comparison.threshold
    greater = comparison.operator in (">", ">=")
    if comparison.field.stat == "abs_delta":
        beyond = np.maximum((value - t) / se, (-t - value) / se)  # |Δ| > t shown on either side
        within = np.minimum((t - value) / se, (value + t) / se)   # |Δ| ≤ t shown on both sides (two one-sided tests)
        return (beyond, within) if greater else (within, beyond)
    above = (value - t) / se
    return (above, -above) if greater else (-above, above)


@dataclass
class Decision:
    comparison: gates.Comparison
    truth: object = gates.UNDECIDED  # TRUE fail / FALSE pass / UNDECIDED open
    look: int | None = None           # index of the look that decided it
    matches: int | None = None        # matches per cell then
    how: str = ""                     # "sequential bound", "exact", "identical pairs"
    scope_matches: int | None = None  # matches of the scope (both arms paired) at the last look
    p_fail: float = 1.0               # running repeated p-values (adjusted when a correction is on)
    p_pass: float = 1.0
    value: float = math.nan
    se: float = math.nan
    low: float = math.nan             # the sequential bounds at α of the current look
    high: float = math.nan
    is_rate: bool = False


def first_decisions(z_fail, z_pass, plan: Plan, two_sided=(False, False)):
    """Vectorised decision of one comparison replayed many times: z_* are (runs, looks).
    Returns (truth codes: 1 fail, −1 pass, 0 inconclusive; index of the deciding look, or
    the last look). The same rule as GateFamily without a correction: the first look at
    which a statistic reaches its bound decides, fail before pass at the same look.
    `two_sided` (`two_sided_sides`): a side that is a two-sided claim uses the α/2 bounds."""
    fail = np.asarray(z_fail) >= (plan.half_bounds if two_sided[0] else plan.bounds)
    passing = np.asarray(z_pass) >= (plan.half_bounds if two_sided[1] else plan.bounds)
    either = fail | passing
    decided = either.any(axis=1)
    look = np.where(decided, either.argmax(axis=1), plan.n_looks - 1)
    rows = np.arange(len(look))
    code = np.where(~decided, 0, np.where(fail[rows, look], 1, -1))
    return code, look


class GateFamily:
    """The decisions of all gates of a run; `update` at each look, `verdicts` after."""

    def __init__(self, gate_specs, plan: Plan, adjust: str = DEFAULT_ADJUST):
        self.gate_specs = list(gate_specs)
        self.plan = plan
        self.adjust = check_adjust(adjust)
        self.decisions: dict[tuple, Decision] = {}
        for spec in self.gate_specs:
            for comparison in gates.comparisons(spec.node):
                self.decisions.setdefault(self.key(comparison), Decision(comparison))
        m = len(self.decisions)
        sides = [two_sided_sides(d.comparison) for d in self.decisions.values()]
        self._two_sided_fail = np.array([s[0] for s in sides], dtype=bool)
        self._two_sided_pass = np.array([s[1] for s in sides], dtype=bool)
        self._raw_fail = np.ones(m)
        self._raw_pass = np.ones(m)
        self._crossed_fail = np.zeros(m, dtype=bool)
        self._crossed_pass = np.zeros(m, dtype=bool)

    @staticmethod
    def key(comparison: gates.Comparison) -> tuple:
        return (str(comparison.field), comparison.operator, comparison.threshold)

    @property
    def size(self) -> int:
        return len(self.decisions)

    def statement(self) -> str:
        text = family_statement(self.size, self.plan.alpha, self.adjust if self.size > 1 else "none",
                                "gate comparisons")
        identical = [d for d in self.decisions.values() if d.how == "identical pairs"]
        if identical:
            text += (" %d of them decided on identical pairs: exact for the matches played, outside that error "
                     "claim: %s." % (len(identical), "; ".join(
                         "%s: %s" % (d.comparison.field, identical_limit(d.scope_matches)) for d in identical)))
        return text

    def update(self, look: int, matches: int, lookup) -> None:
        """Decide what the table at look `look` shows. `lookup(field)` -> (value, se, identical, is_rate)."""
        bound, half_bound = float(self.plan.bounds[look]), float(self.plan.half_bounds[look])
        z_fail, z_pass, exact = [], [], []
        for decision in self.decisions.values():
            found = lookup(decision.comparison.field)
            value, se, identical, decision.is_rate = found[:4]
            decision.scope_matches = int(found[4]) if len(found) > 4 else decision.scope_matches
            stat = decision.comparison.field.stat
            if identical and stat in ("delta", "abs_delta"):
                value, se = 0.0, 0.0
            decision.value, decision.se = value, se
            if se == 0.0 or not math.isfinite(se):
                shown = abs(value) if stat == "abs_delta" else value
                decision.value = shown
                truth = (gates.compare_interval(gates.Interval(shown, shown, shown), decision.comparison.operator,
                                                decision.comparison.threshold) if se == 0.0 else gates.UNDECIDED)
                decision.low = decision.high = shown if se == 0.0 else math.nan
                z_fail.append(math.inf if truth is gates.TRUE else -math.inf)
                z_pass.append(math.inf if truth is gates.FALSE else -math.inf)
                exact.append("identical pairs" if identical and stat in ("delta", "abs_delta") else "exact")
                continue
            if stat == "abs_delta":  # shown at the bounds of its two-sided claim (α/2 per side)
                low, high = value - half_bound * se, value + half_bound * se
            else:
                low, high = value - bound * se, value + bound * se
            if stat == "abs_delta":  # shown as |delta| and the absolute value of its interval
                decision.value = abs(value)
                low, high = (0.0 if low <= 0.0 <= high else min(abs(low), abs(high))), max(abs(low), abs(high))
            if decision.is_rate:
                low, high = max(low, -1.0), min(high, 1.0)
            decision.low, decision.high = low, high
            fail, passing = statistics(decision.comparison, value, se)
            z_fail.append(fail)
            z_pass.append(passing)
            exact.append("")
        z_fail, z_pass = np.asarray(z_fail), np.asarray(z_pass)
        self._crossed_fail |= np.where(self._two_sided_fail, z_fail >= half_bound, self.plan.crossed(z_fail, look))
        self._crossed_pass |= np.where(self._two_sided_pass, z_pass >= half_bound, self.plan.crossed(z_pass, look))
        method = ADJUSTMENTS[self.adjust] if self.size > 1 else None
        if method is None:
            reject_fail, reject_pass = self._crossed_fail, self._crossed_pass
        else:
            self._raw_fail = np.minimum(self._raw_fail, self._p_value(z_fail, look, self._two_sided_fail))
            self._raw_pass = np.minimum(self._raw_pass, self._p_value(z_pass, look, self._two_sided_pass))
            reject_fail = self._correct(self._raw_fail, method)
            reject_pass = self._correct(self._raw_pass, method)
        for index, decision in enumerate(self.decisions.values()):
            if decision.truth is not gates.UNDECIDED:
                continue  # final
            truth = gates.TRUE if reject_fail[index] else gates.FALSE if reject_pass[index] else gates.UNDECIDED
            if truth is not gates.UNDECIDED:
                decision.truth, decision.look, decision.matches = truth, look, int(matches)
                decision.how = exact[index] or "sequential bound"

    def _p_value(self, z: np.ndarray, look: int, two_sided: np.ndarray) -> np.ndarray:
        """Repeated p-values at a look; a two-sided claim's is twice its side's (Bonferroni)."""
        p = np.minimum(1.0, self.plan.p_value(z, look) * np.where(two_sided, 2.0, 1.0))
        return np.where(np.isposinf(z), 0.0, p)

    def _correct(self, p: np.ndarray, method: str):
        """Which hypotheses the correction rejects (statsmodels). When no p-value reaches the
        first critical level (α/m for Holm, whose first step it is; α for BH) nothing can be
        rejected: that common case skips the call, whose Holm branch runs gc.collect()
        (0.1 s in a large process)."""
        first_level = self.plan.alpha / len(p) if method == "holm" else self.plan.alpha
        if np.all(p > first_level):
            return np.zeros(len(p), dtype=bool)
        return _multipletests(p, alpha=self.plan.alpha, method=method)[0]

    def truth(self, comparison: gates.Comparison):
        return self.decisions[self.key(comparison)].truth

    def results(self, confidence: float) -> list[dict]:
        """Per gate: expression, verdict and one entry per comparison (for JSON and Markdown)."""
        method = ADJUSTMENTS[self.adjust] if self.size > 1 else None
        if method is not None:  # the corrected repeated p-values, for display
            adjusted_fail = _multipletests(self._raw_fail, alpha=self.plan.alpha, method=method)[1]
            adjusted_pass = _multipletests(self._raw_pass, alpha=self.plan.alpha, method=method)[1]
            for index, decision in enumerate(self.decisions.values()):
                decision.p_fail, decision.p_pass = float(adjusted_fail[index]), float(adjusted_pass[index])
        out = []
        for spec in self.gate_specs:
            outcome = gates.combine(spec.node, self.truth)
            parts = []
            for comparison in gates.comparisons(spec.node):
                decision = self.decisions[self.key(comparison)]
                part = {"field": str(comparison.field), "operator": comparison.operator,
                        "threshold": comparison.threshold, "threshold_text": comparison.threshold_text,
                        "value": decision.value, "se": decision.se, "low": decision.low, "high": decision.high,
                        "outcome": gates.verdict_word(decision.truth), "decided_at_matches": decision.matches,
                        "decided_by": decision.how or None}
                if self.adjust != "none" and self.size > 1:
                    part["p_fail"], part["p_pass"] = decision.p_fail, decision.p_pass
                part["message"] = self.describe(decision, confidence)
                parts.append(part)
            out.append({"expression": spec.text, "verdict": gates.verdict_word(outcome), "comparisons": parts})
        return out

    def describe(self, decision: Decision, confidence: float) -> str:
        comparison = decision.comparison
        relation = {gates.TRUE: "shown", gates.FALSE: "ruled out", gates.UNDECIDED: "not decided"}[decision.truth]
        if decision.how in ("identical pairs",):
            detail = "every paired match identical in this metric; %s" % identical_limit(decision.scope_matches)
        elif decision.se == 0.0:
            detail = "exact: zero-width interval"
        elif comparison.field.stat == "abs_delta":
            detail = "%g %% two-sided sequential bounds %s to %s" % (
                100 * confidence, gates._number(decision.low), gates._number(decision.high))
        else:
            detail = "%g %% one-sided sequential bounds %s to %s" % (
                100 * confidence, gates._number(decision.low), gates._number(decision.high))
        text = "%s = %s (%s) %s %s: %s" % (comparison.field, gates._number(decision.value), detail,
                                            comparison.operator, comparison.threshold_text, relation)
        if decision.matches is not None:
            text += " at %s matches per cell" % "{:,}".format(decision.matches)
        if self.adjust != "none" and self.size > 1:
            text += " (%s p: fail %.3g, pass %.3g)" % (self.adjust, decision.p_fail, decision.p_pass)
        return text


def identical_limit(matches: int | None) -> str:
    """The rule of three in words: what identical pairs in N matches cannot rule out."""
    if not matches:
        return "a change in a small share of the matches can pass unseen (rule of three: about 3/N of N matches)"
    return ("a change in fewer than about 3 in {:,} matches (3/N, N = {:,} paired matches of the scope) can pass "
            "unseen".format(matches, matches))
