"""Issue 37, item 7 (b): the ladder's rating and first-mover intervals under its common-deal design.

Seeded, no engine. `cardbalance ladder` plays every ordered agent pair on the same deals at a
grid point (sim/sweep/grid.py: Plan.deal, each cell's seeds from the first cell of its grid
point; the seat-swapped A:B and B:A play the same deals with seats exchanged), so one deal's
luck reaches every pair that played it. The synthetic ladder below has exactly that
structure: at each grid point (one series, both first movers) deal j has

- a seat luck u_j ~ N(0, σ_u²): how much its cards favour seat 0, whoever sits there, and
- a style luck v_j,a,s ~ N(0, σ_v²): how well it suits agent a in seat s,

and a match of a (seat 0) against b (seat 1) is won by seat 0 with probability
logistic(θ_a − θ_b + h·s + u_j + v_j,a,0 − v_j,b,1) (s: ±1 by who moves first). The truth
the ladder estimates is the model's limit: the first-mover fit of the expected scores
(the deal luck averaged out by quadrature), which `true_parameters` computes.

Each replay is rated with the shipped fit (analysis/ladder.py: first_mover_design,
fit_first_mover) and bootstrapped two ways at the shipped 200 resamples: over cells (each
cell's matches redrawn independently, `resample_cells`, shipped before) and over deal blocks
(`resample_deal_blocks`: the chunks of deals, drawn with replacement within each grid point,
all pairs' outcomes of a block together). Coverage of each agent's percentile interval and of
the first mover's (estimate ± 1.96 bootstrap s.d.) is counted against the truth.
"""

import math

import numpy as np
import pytest

from analysis import ladder

RESAMPLES = ladder.DEFAULT_BOOTSTRAP
BATCH = 250  # replays bootstrapped together: (resamples, replays, cells, 3) floats stay near 100 MB


def pairs_and_cells(agents: int):
    """(agent0, agent1, first) per cell: every ordered pair at each first mover (grid point)."""
    pairs = [(a, b) for a in range(agents) for b in range(agents) if a != b]
    cells = [(a, b, first) for first in (0, 1) for a, b in pairs]
    return tuple(np.array(column) for column in zip(*cells))


def true_parameters(elo, edge, seat_luck, style_luck):
    """(Elo ratings, first-mover Elo) the fit converges to under the model: the fit of the
    expected scores, each a logistic averaged over the deal's luck N(0, σ_u² + 2σ_v²)."""
    elo = np.asarray(elo, dtype=float)
    agent0, agent1, first = pairs_and_cells(len(elo))
    nodes, weights = np.polynomial.hermite_e.hermegauss(80)
    spread = math.sqrt(seat_luck ** 2 + 2 * style_luck ** 2)
    logit = (elo[agent0] - elo[agent1] + np.where(first == 0, edge, -edge)) / ladder.ELO_PER_UNIT
    score = (weights[None, :] / (1.0 + np.exp(-(logit[:, None] + spread * nodes[None, :])))).sum(axis=1)
    score /= weights.sum()
    matches = 1e9  # the ridge is nothing against a billion expected matches
    rows, to_rows = ladder.first_mover_design(list(range(len(elo))), agent0, agent1, first)
    ratings, offset = ladder.fit_first_mover(rows, to_rows, matches * score, matches * (1 - score), 0 * score)
    return ratings, float(offset)


def simulate(elo, edge, seat_luck, style_luck, per_cell, blocks, replays, generator):
    """(replays, blocks·2, cells, 3) win/loss/draw counts per deal block; the stratum (grid
    point) of each block. Each grid point's `per_cell` deals are cut into `blocks` chunks."""
    elo = np.asarray(elo, dtype=float)
    k = len(elo)
    agent0, agent1, first = pairs_and_cells(k)
    cells = len(agent0)
    counts = np.zeros((replays, 2 * blocks, cells, 3))
    for point in (0, 1):  # the grid point: who moves first
        in_point = np.flatnonzero(first == point)
        u = generator.normal(0.0, seat_luck, size=(replays, per_cell, 1))
        v = generator.normal(0.0, style_luck, size=(replays, per_cell, k, 2))
        logit = ((elo[agent0[in_point]] - elo[agent1[in_point]] + (edge if point == 0 else -edge)) / ladder.ELO_PER_UNIT
                 + u + v[:, :, agent0[in_point], 0] - v[:, :, agent1[in_point], 1])
        seat0_won = generator.random(logit.shape) < 1.0 / (1.0 + np.exp(-logit))   # (replays, deals, cells here)
        by_block = seat0_won.reshape(replays, blocks, per_cell // blocks, len(in_point)).sum(axis=2)
        counts[:, point * blocks:(point + 1) * blocks, in_point, 0] = by_block
        counts[:, point * blocks:(point + 1) * blocks, in_point, 1] = per_cell // blocks - by_block
    return counts, np.repeat([0, 1], blocks)


def replay(elo, edge, seat_luck, style_luck, per_cell, blocks, replays, seed):
    """Per replay: coverage (agents + 1: the ratings, then the first mover) of both bootstraps,
    and the first mover's interval of the deal-block bootstrap."""
    generator = np.random.default_rng(seed)
    k = len(elo)
    agent0, agent1, first = pairs_and_cells(k)
    rows, to_rows = ladder.first_mover_design(list(range(k)), agent0, agent1, first)
    truth_elo, truth_edge = true_parameters(elo, edge, seat_luck, style_luck)
    truth = np.append(truth_elo, truth_edge)
    covered = {"cells": [], "deal blocks": []}
    edge_low = []
    for start in range(0, replays, BATCH):
        block_counts, stratum = simulate(elo, edge, seat_luck, style_luck, per_cell, blocks,
                                         min(BATCH, replays - start), generator)
        totals = block_counts.sum(axis=1)
        point_elo, point_edge = ladder.fit_first_mover(rows, to_rows, *np.moveaxis(totals, -1, 0))
        for method in covered:
            if method == "cells":
                redrawn = ladder.resample_cells(totals[..., 0], totals[..., 1], totals[..., 2], RESAMPLES, generator)
            else:
                redrawn = ladder.resample_deal_blocks(block_counts, stratum, RESAMPLES, generator)
            samples, edge_samples = ladder.fit_first_mover(rows, to_rows, *np.moveaxis(redrawn, -1, 0))
            low, high = np.percentile(samples, [2.5, 97.5], axis=0)
            first_low, first_high = ladder.gap_interval(point_edge, edge_samples)
            inside = np.concatenate([(low <= truth_elo) & (truth_elo <= high),
                                     ((first_low <= truth_edge) & (truth_edge <= first_high))[:, None]], axis=1)
            covered[method].append(inside)
            if method == "deal blocks":
                edge_low.append(first_low)
    return {method: np.concatenate(parts) for method, parts in covered.items()}, np.concatenate(edge_low), truth
