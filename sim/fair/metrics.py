"""Target metrics of a design point, from its aggregate vectors (one per first-player order).

- `seat0`:   seat 0's share of the decided matches, both first-player orders weighted
             equally (analysis.stats.stratified_rate: Wilson at the effective n);
- `first`:   the first player's share of the decided matches, the same way;
- `special`: the special-victory rate (the game's `special_end_types`, either seat) over all matches;
- `length`:  mean match length in turns (normal interval from the sums of turns and turns²).

Every metric returns (estimate, low, high) at a given z, and `bounded` says whether it
is a rate (a target must then lie strictly between 0 and 1).
"""

from __future__ import annotations

import math

import numpy as np

from analysis.stats import stratified_rate
from analysis.verdict import stratified_score_p_values
from sim import aggregate as agg
from sim.errors import CardbalanceError

METRICS = ("seat0", "first", "special", "length")
DESCRIPTIONS = {"seat0": "seat 0's share of decided matches", "first": "first player's share of decided matches",
                "special": "special-victory rate", "length": "mean length (turns)",
                "spread": "matchup spread (largest minus smallest seat-0 share over the matchups)"}


def check_metric(name: str) -> str:
    if name not in METRICS:
        raise CardbalanceError("--metric must be one of %s (got %r)." % (", ".join(METRICS), name))
    return name


def check_target(metric: str, target: float) -> float:
    """A target the metric can reach at all (a rate strictly inside 0..1, a length above 0)."""
    if metric == "length":
        if not 0 < target < math.inf:  # inf: no match is infinitely long (it was refused only after the search)
            raise CardbalanceError("--target: a mean length is a finite number of turns above 0; no value reaches %r."
                                   % (target,))
    elif not 0.0 < target < 1.0:
        raise CardbalanceError("--target: %s is a rate strictly between 0 and 1; no value reaches %r."
                               % (DESCRIPTIONS[metric], target))
    return float(target)


def _outcomes(vector, n_end):
    block = vector[agg.A_OUTCOMES:agg.A_OUTCOMES + 3 * n_end].reshape(3, n_end)
    return block


def counts(metric: str, vectors, game) -> tuple[np.ndarray, np.ndarray]:
    """(successes, trials) per first-player order of a rate metric."""
    n_end = len(game.end_types)
    successes, trials = [], []
    for vector in vectors:
        vector = np.asarray(vector, dtype=np.int64)
        block = _outcomes(vector, n_end)
        decided = int(block[0].sum() + block[1].sum())
        if metric == "seat0":
            successes.append(int(block[0].sum()))
            trials.append(decided)
        elif metric == "first":
            successes.append(int(vector[agg.first_win_slot(n_end)]))
            trials.append(decided)
        elif metric == "special":
            special = [game.end_types.index(name) for name in game.special_end_types]
            successes.append(int(block[0, special].sum() + block[1, special].sum()))
            trials.append(int(vector[agg.A_MATCHES]))
        else:
            raise ValueError(metric)
    return np.asarray(successes, dtype=float), np.asarray(trials, dtype=float)


def interval(metric: str, vectors, game, z: float) -> tuple[float, float, float]:
    """(estimate, low, high) of the metric over the first-player orders, at normal quantile z."""
    if metric == "length":
        n = sum(int(v[agg.A_MATCHES]) for v in vectors)
        if n == 0:
            return float("nan"), 0.0, float("inf")
        total = sum(float(v[agg.A_TURNS_SUM]) for v in vectors)
        squares = sum(float(v[agg.A_TURNS_SQ]) for v in vectors)
        mean = total / n
        variance = max(squares / n - mean * mean, 0.0)
        half = z * math.sqrt(variance / n) if n > 1 else float("inf")
        return mean, mean - half, mean + half
    successes, trials = counts(metric, vectors, game)
    estimate, low, high, _ = stratified_rate(successes, trials, z)
    return float(estimate), float(low), float(high)


def verdict_p_values(metric: str, vectors, game, delta: float) -> tuple[float, float]:
    """(p_imbalanced, p_balanced) of a rate metric against ½ ± delta: the pooled-row test the
    sweep's verdict table uses (analysis.verdict.stratified_score_p_values, the first-player
    orders as its strata), so a map point keeps the stated error however strong the first player is."""
    successes, trials = counts(metric, vectors, game)
    p_imbalanced, p_balanced = stratified_score_p_values(np.zeros(len(trials), dtype=np.int64), successes, trials, 1,
                                                         delta)
    return float(p_imbalanced[0]), float(p_balanced[0])
