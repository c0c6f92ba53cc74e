"""A synthetic source for the fair-value finders (analysis/fair_value.py, analysis/fair_model.py):
seat 0's share per first-player order is a known function of the parameter, each point's
matches are independent binomials (as `fair --estimator model` plays them: deals of their own),
so the true root is known exactly."""

from __future__ import annotations

import numpy as np

from analysis.stats import stratified_rate


class CurveSource:
    """`shares(value)` -> the two orders' true shares; the finder's source interface plus `counts`."""

    def __init__(self, shares, seed):
        self.shares = shares
        self.rng = np.random.default_rng(seed)
        self.wins, self.trials = {}, {}
        self.used = 0

    def measure(self, stage, values, matches):
        for value in values:
            have = self.trials.get((stage, value), np.zeros(2))
            extra = matches - have
            if extra[0] <= 0:
                continue
            wins = self.rng.binomial(extra.astype(int), self.shares(value))
            self.wins[(stage, value)] = self.wins.get((stage, value), np.zeros(2)) + wins
            self.trials[(stage, value)] = have + extra
            self.used += int(extra.sum())

    def interval(self, stage, value, z):
        estimate, low, high, _ = stratified_rate(self.wins[(stage, value)], self.trials[(stage, value)], z)
        return estimate, low, high

    def counts(self, stage, value):
        return self.wins[(stage, value)], self.trials[(stage, value)]

    def matches(self):
        return self.used


def logistic_shares(truth: float, scale: float, first_edge: float):
    """logistic((v − truth)/scale ± first_edge): the orders' average is exactly ½ at v = truth."""
    def shares(value):
        u = (value - truth) / scale
        return 1 / (1 + np.exp(-np.array([u + first_edge, u - first_edge])))
    return shares


def steep_then_flat_shares(truth: float, steep: float, flat: float, first_edge: float):
    """Piecewise linear, not logistic: slope `steep` per unit below the root and `flat` above it, the
    orders ± first_edge in share, clipped to [0.02, 0.98]; the average is ½ at v = truth."""
    def shares(value):
        d = value - truth
        middle = 0.5 + (steep * d if d < 0 else flat * d)
        return np.clip(np.array([middle + first_edge, middle - first_edge]), 0.02, 0.98)
    return shares


def gompertz_shares(truth: float, scale: float, first_edge: float):
    """A smooth monotone curve the logistic does not describe: 1 − exp(−exp(u ± first_edge)) with
    u = (v − truth)/scale + g0, g0 placing the orders' average at ½ exactly at v = truth
    (complementary log-log: slow to rise, fast to saturate)."""
    from scipy.optimize import brentq
    cdf = lambda u: 1 - np.exp(-np.exp(u))
    g0 = brentq(lambda u: (cdf(u + first_edge) + cdf(u - first_edge)) / 2 - 0.5, -10, 10, xtol=1e-13)

    def shares(value):
        u = (value - truth) / scale + g0
        return cdf(np.array([u + first_edge, u - first_edge]))
    return shares
