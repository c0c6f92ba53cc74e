"""Issue 27, part 5: ladder rungs ("beats the agent below") at a stated family rate.

Seeded, no engine. Equal agents in a round robin, every ordered pair at the same number
of matches: the Bradley-Terry order is the order of total points (in a balanced round
robin total points are BT's sufficient statistics; checked below against the shipped
fit), so each replication ranks the agents by points and decides the rungs with the
shipped test and Holm correction (analysis/ladder.rung_beats). 4,000 replications.

Targets: with equal agents some false "beats" in at most 5 % + 3 MC s.e. of ladders (the
uncorrected rule: 6.7 % with 5 agents, 13.7 % with 8); a real 100-Elo step is still found.
"""

import math

import numpy as np
import pytest

from analysis import ladder

RUNS = 4000
LIMIT = 0.05 + 3 * math.sqrt(0.05 * 0.95 / RUNS)


def replay(elo, matches_per_pair, seed, adjust="holm"):
    """(RUNS, agents − 1) rung decisions and the rung pairs' true score, strongest first."""
    elo = np.asarray(elo, dtype=float)
    k = len(elo)
    generator = np.random.default_rng(seed)
    truth = 1.0 / (1.0 + 10.0 ** (-(elo[:, None] - elo[None, :]) / 400.0))
    upper = np.triu_indices(k, 1)
    wins = generator.binomial(matches_per_pair, truth[upper], size=(RUNS, len(upper[0])))
    points = np.zeros((RUNS, k, k))
    points[:, upper[0], upper[1]] = wins
    points[:, upper[1], upper[0]] = matches_per_pair - wins
    order = np.argsort(-points.sum(axis=2), axis=1, kind="stable")  # strongest first
    above, below = order[:, :-1], order[:, 1:]
    rows = np.arange(RUNS)[:, None]
    score = points[rows, above, below] / matches_per_pair
    beats = ladder.rung_beats(score, np.full(score.shape, matches_per_pair), adjust)
    return beats, truth[above, below], points


@pytest.mark.parametrize("agents", [5, 8])
def test_equal_agents_give_some_false_beats_at_most_five_percent(agents):
    beats, _, _ = replay(np.zeros(agents), 2000, seed=2750 + agents)
    none_corrected, _, _ = replay(np.zeros(agents), 2000, seed=2750 + agents, adjust="none")
    some = float(beats.any(axis=1).mean())
    print("%d equal agents: some false beats %.4f (uncorrected two-sided %.4f)"
          % (agents, some, float(none_corrected.any(axis=1).mean())))
    assert some <= LIMIT


def test_a_real_hundred_elo_step_is_found():
    beats, truth, _ = replay([100.0, 0.0, -400.0], 2000, seed=2760)
    found = float(beats[:, 0].mean())
    print("100-Elo rung at 2,000 matches: beats %.4f" % found)
    assert found >= 0.99


def test_points_order_is_the_bradley_terry_order_of_a_balanced_round_robin():
    _, _, points = replay(np.zeros(5), 2000, seed=2761)
    for sample in points[:20]:
        by_fit = np.argsort(-ladder.bradley_terry(sample), kind="stable")
        totals = sample.sum(axis=1)[by_fit]
        assert np.all(np.diff(totals) <= 0)  # the fit's order sorts the points (ties in any order)
