"""Bradley–Terry with a first-mover term: agent ratings and the first player's Elo offset, fitted jointly.

The model of one match, seat 0's agent a against seat 1's agent b:

    logit P(seat 0 scores) = θ_a − θ_b + h · s,   s = +1 if seat 0 moves first, −1 if seat 1 does, 0 unknown

so h is the advantage of moving first, shared by every agent (White's advantage in chess
rating fits), and a draw is half a point as in the plain fit (analysis/ladder.py). It is a
logistic regression; statsmodels' GLM fits it one data set at a time
(tests/test_ladder_first_mover.py checks this module against it), but a bootstrap or a
calibration replay needs thousands of fits of the same design, so they are fitted here
together by Newton's method: per iteration, one matrix product and one batched
(agents + 1)-square solve for every data set at once.

A tiny ridge (`RIDGE`, on every parameter) plays the part of choix's regulariser in the plain
fit: it keeps an agent that won every match finite and, since the likelihood does not change
when every θ moves together, centres the ratings at mean 0. At ladder counts (hundreds of
matches per cell) it moves no rating by a tenth of an Elo point.
"""

from __future__ import annotations

import numpy as np

RIDGE = 0.01          # log-strength units²: the penalty ½·RIDGE·|β|²; negligible against hundreds of matches
MAX_STEP = 2.0        # log-strength units: a Newton step is shortened to this (an unbeaten agent's far optimum)
TOLERANCE = 1e-10     # largest parameter change of the last step, log-strength units
MAX_ITERATIONS = 200


def design(agent0, agent1, first, agents: int) -> np.ndarray:
    """Rows (cells, agents + 1): +1 for seat 0's agent, −1 for seat 1's, then s (see above)."""
    agent0, agent1, first = (np.asarray(column, dtype=np.int64) for column in (agent0, agent1, first))
    rows = np.zeros((len(agent0), agents + 1))
    cells = np.arange(len(agent0))
    rows[cells, agent0] += 1.0
    rows[cells, agent1] -= 1.0
    rows[:, agents] = np.where(first == 0, 1.0, np.where(first == 1, -1.0, 0.0))
    return rows


def fit(rows: np.ndarray, points0, matches, ridge: float = RIDGE, start=None) -> np.ndarray:
    """Maximum (penalised) likelihood (..., agents + 1) in log-strength units: ratings, then h.

    `rows` is the shared design (cells, p); `points0` (seat 0's points) and `matches` have any
    leading axes (..., cells), one data set per leading index. `start` (broadcast to (..., p)):
    where Newton begins, e.g. the original data's fit for its bootstrap resamples (fewer
    steps; the optimum is the same)."""
    rows = np.asarray(rows, dtype=float)
    points0, matches = np.broadcast_arrays(np.asarray(points0, dtype=float), np.asarray(matches, dtype=float))
    lead, cells = points0.shape[:-1], points0.shape[-1]
    points0, matches = points0.reshape(-1, cells), matches.reshape(-1, cells)
    p = rows.shape[1]
    outer = (rows[:, :, None] * rows[:, None, :]).reshape(cells, p * p)  # the Hessian is weights @ outer
    beta = np.zeros((points0.shape[0], p)) if start is None else \
        np.broadcast_to(np.asarray(start, dtype=float), lead + (p,)).reshape(-1, p).copy()
    todo = np.arange(points0.shape[0])
    for _ in range(MAX_ITERATIONS):
        b = beta[todo]
        expected = 1.0 / (1.0 + np.exp(-(b @ rows.T)))
        gradient = (points0[todo] - matches[todo] * expected) @ rows - ridge * b
        hessian = ((matches[todo] * expected * (1.0 - expected)) @ outer).reshape(-1, p, p) + ridge * np.eye(p)
        step = np.linalg.solve(hessian, gradient[:, :, None])[:, :, 0]
        largest = np.abs(step).max(axis=1)
        step *= np.minimum(1.0, MAX_STEP / np.maximum(largest, 1e-300))[:, None]
        beta[todo] = b + step
        todo = todo[largest > TOLERANCE]
        if not len(todo):
            return beta.reshape(lead + (p,))
    raise RuntimeError("Bradley-Terry first-mover fit did not converge after %d iterations" % MAX_ITERATIONS)
