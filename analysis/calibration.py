"""Calibration of the compare gate: its error rate and power measured on a synthetic paired source.

No game engine: each simulated comparison draws, per cell and per batch, the
four paired outcomes of a 0/1 metric (base, tweak) ∈ {0,1}² from a
multinomial, and keeps exactly the sums the paired kernel keeps
(sim/aggregate.py): Σd and Σd² of d = tweak − base. The source is set by

- `base_rate`: P(base = 1) (e.g. a win rate of ½);
- `changed`: the share of paired matches whose outcome the tweak changes
  (discordant pairs). A tweak that touches few matches is measured very
  precisely by the paired design; `changed = 0.5` is as bad as unpaired
  arms at a rate of ½;
- `delta`: the true difference P(tweak = 1) − P(base = 1).

The gate logic replayed is the shipped one: the planned looks
(analysis/sequential.planned_looks, as sim/compare/runner uses them), the bounds (analysis/sequential.Plan), the
paired rate variance (analysis/paired.pooled_paired_rate) and the decision
rule (analysis/decisions.first_decisions, which tests show equal to the
per-run GateFamily). Everything is vectorised over the replays, so 2,000
comparisons of 20 looks take well under a second.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analysis import decisions, paired, sequential
from analysis import gate as gates


@dataclass(frozen=True)
class Case:
    threshold: float = 0.02
    delta: float = 0.02
    batch: int = 1000
    max_matches: int = 20_000
    min_matches: int | None = None  # default: one batch, as `cardbalance compare`
    cells: int = 2                  # e.g. one series' two first-player orders
    base_rate: float = 0.5
    changed: float = 0.3
    confidence: float = 0.95
    operator: str = ">"
    stat: str = "delta"             # or "abs_delta" (a two-sided fail side: α/2 per side)


@dataclass(frozen=True)
class Measured:
    case: Case
    runs: int
    fail: float
    passed: float
    inconclusive: float
    mean_matches: float  # per cell, at the decision (or the cap)

    def se(self, rate: float) -> float:
        """Monte Carlo standard error of a measured rate."""
        return float(np.sqrt(max(rate * (1 - rate), 1e-12) / self.runs))


def looks_of(case: Case) -> list[int]:
    minimum = case.batch if case.min_matches is None else case.min_matches
    return sequential.planned_looks(case.batch, minimum, case.max_matches)


def _pair_probabilities(case: Case) -> np.ndarray:
    up, down = (case.changed + case.delta) / 2.0, (case.changed - case.delta) / 2.0  # 0→1, 1→0
    both = case.base_rate - down
    probabilities = np.array([1.0 - up - down - both, up, down, both])  # (0,0) (0,1) (1,0) (1,1)
    if np.any(probabilities < -1e-12) or not 0 <= case.delta + case.changed <= 2:
        raise ValueError("impossible paired source: %r" % (case,))
    return np.clip(probabilities, 0.0, 1.0) / np.clip(probabilities, 0.0, 1.0).sum()


def simulate(case: Case, runs: int = 2000, seed: int = 2024) -> Measured:
    """Replay `runs` comparisons of one gate `all.<metric>.<stat> <op> threshold` on the source."""
    generator = np.random.default_rng(seed)
    looks = looks_of(case)
    plan = sequential.Plan(looks, case.max_matches, 1.0 - case.confidence)
    sizes = np.diff(np.concatenate([[0], looks]))
    # Rounds before the first look (when --min-matches spans several batches) are one draw.
    counts = np.stack([generator.multinomial(size, _pair_probabilities(case), size=(runs, case.cells))
                       for size in sizes], axis=1)  # (runs, looks, cells, 4)
    counts = np.cumsum(counts, axis=1)
    up, down = counts[..., 1], counts[..., 2]
    n = np.broadcast_to(np.asarray(looks, dtype=float)[None, :, None], up.shape)
    delta, se = paired.pooled_paired_rate(n, up - down, up + down)
    comparison = gates.parse("all.metric.%s %s %r" % (case.stat, case.operator, case.threshold))
    z_fail, z_pass = decisions.statistics(comparison, delta, se)
    code, look = decisions.first_decisions(z_fail, z_pass, plan, decisions.two_sided_sides(comparison))
    matches = np.asarray(looks)[look]
    return Measured(case, runs, float(np.mean(code == 1)), float(np.mean(code == -1)), float(np.mean(code == 0)),
                    float(np.mean(matches)))


def table(rows: list[Measured]) -> str:
    """Markdown table of measured rates (for docs/ci-gate.md and the report)."""
    lines = ["| gate | true Δ | batch | changed | fail | pass | inconclusive | mean matches per cell |",
             "|---|---|---|---|---|---|---|---|"]
    for row in rows:
        c = row.case
        lines.append("| `delta %s %g` | %g | %d | %g | %.2f %% ± %.2f | %.2f %% | %.2f %% | %s |" % (
            c.operator, c.threshold, c.delta, c.batch, c.changed, 100 * row.fail, 100 * row.se(row.fail),
            100 * row.passed, 100 * row.inconclusive, "{:,.0f}".format(row.mean_matches)))
    return "\n".join(lines)
