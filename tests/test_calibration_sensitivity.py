"""Issue 37, item 3: the `sobol` method's intervals cover the indices of the expected response.

Seeded, no engine. SALib's own test functions with known indices — Ishigami (a = 7, b = 0.1,
analytic) and Sobol' G (a = 0, 1, 4.5, 9, 99, 99; SALib's `sensitivity_index` and
`total_sensitivity_index`) — measured the way the command measures a metric: each of a
replicate's two deal sets adds its own noise, of mean zero at every point, made of a deal-level
random slope in x1 (common to every point of that deal set, as common deals are) and a
per-point part, in all `noise` × Var(f) per deal set at half the matches (a deal set plays half
of --matches). Every interval of RUNS designs through analysis/sensitivity.replicated_design,
replicate_estimates and ratio_interval (the vectorised `replicated_indices`).

Targets: coverage ≥ 95 % − 3 MC s.e. for every S1 of both functions at the command's smallest
design, n = 64 (8 replicates of 8), without noise and at the noise of a seat's share (100 % of
Var(f) per deal set: Poker Duel's seat-0 share had 90 % at 100 matches per deal set). Total
effects fall short of that floor in part: their Jansen squares are heavy-tailed (Ishigami's x1
carries (1 + b·x3⁴)²; Sobol' G's weak inputs the product of the strong ones), and at n = 64
they cover 92.0–96.4 % (Ishigami's x1 92.0–95.1 %, Sobol' G's e and f 93.1–96 %; 2,000 designs
per case) — hence ST_FLOOR, a named lower floor, and the report's statement of it. Below
n = 64 (now refused) Ishigami's x1 fell to 84 % at n = 16 without noise. SALib's row bootstrap
it replaced covered the expected metric's total indices in 0–67 % of designs once the metric
is noisy (the before table in the issue's closing note).
"""

import math

import numpy as np
import pytest

from analysis import sensitivity

RUNS = 2000
FLOOR = 0.95 - 3 * math.sqrt(0.95 * 0.05 / RUNS)

_A, _B = 7.0, 0.1
_V = _A ** 2 / 8 + _B * math.pi ** 4 / 5 + _B ** 2 * math.pi ** 8 / 18 + 0.5
_V1, _V2, _V13 = 0.5 * (1 + _B * math.pi ** 4 / 5) ** 2, _A ** 2 / 8, 8 * _B ** 2 * math.pi ** 8 / 225
G_A = np.array([0, 1, 4.5, 9, 99, 99])


def ishigami():
    from SALib.test_functions import Ishigami
    problem = {"num_vars": 3, "names": ["x1", "x2", "x3"], "bounds": [[-math.pi, math.pi]] * 3}
    return problem, Ishigami.evaluate, _V, np.array([_V1, _V2, 0.0]) / _V, np.array([_V1 + _V13, _V2, _V13]) / _V


def g_function(X):
    """SALib's Sobol_G.evaluate at G_A (the same product, vectorised: SALib's loops rows)."""
    return np.prod((np.abs(4 * X - 2) + G_A) / (1 + G_A), axis=1)


def sobol_g():
    from SALib.test_functions import Sobol_G
    problem = {"num_vars": 6, "names": list("abcdef"), "bounds": [[0, 1]] * 6}
    variance = float(np.prod(1 + 1 / (3 * (1 + G_A) ** 2)) - 1)
    return problem, g_function, variance, Sobol_G.sensitivity_index(G_A), Sobol_G.total_sensitivity_index(G_A)


FUNCTIONS = {"ishigami": ishigami, "sobol_g": sobol_g}


def measured(problem, f, variance, n, noise, seed):
    """(COPIES, RUNS, rows): f at RUNS independent replicated designs, each deal set's noise added."""
    R, d = sensitivity.REPLICATES, problem["num_vars"]
    X = sensitivity.replicated_design(problem, n, seed, replicates=R * RUNS)
    clean = f(X).reshape(RUNS, R, -1)
    if not noise:
        return clean.reshape(RUNS, -1)
    low, high = problem["bounds"][0]
    slope = math.sqrt(3) * (2 * (X[:, 0] - low) / (high - low) - 1)  # standardised x1
    generator = np.random.default_rng(seed)
    sd = math.sqrt(noise * variance)
    copies = []
    for _ in range(sensitivity.COPIES):
        deal = generator.normal(size=(RUNS, R, 1))  # one draw per deal set (replicate and copy)
        point = generator.normal(size=clean.shape)
        copies.append(clean + sd * math.sqrt(0.5) * (point + deal * slope.reshape(clean.shape)))
    return np.stack(copies).reshape(sensitivity.COPIES, RUNS, -1)


def coverage(name, n, noise, seed):
    problem, f, variance, s1, st = FUNCTIONS[name]()
    v, first, total = sensitivity.replicate_estimates(problem, measured(problem, f, variance, n, noise, seed))
    out = {}
    for key, numerators, truth in (("S1", first, s1), ("ST", total, st)):
        index, low, high = sensitivity.ratio_interval(np.moveaxis(numerators, -1, 0), v)  # (D, RUNS)
        out[key] = ((low <= truth[:, None]) & (truth[:, None] <= high)).mean(axis=1)
        out[key + " width"] = float(np.median(high - low))
    return out


CASES = [(name, 64, noise) for name in FUNCTIONS for noise in (0.0, 1.0)]
ST_FLOOR = 0.91  # total effects: measured 0.920–0.964 at n = 64 (above); 0.93 − 3 s.e. would be 0.913


@pytest.mark.parametrize("name, n, noise", CASES)
def test_replicated_sobol_intervals_cover_the_expected_responses_indices(name, n, noise):
    found = coverage(name, n, noise, seed=3700 + n + int(100 * noise) + 7 * len(name))
    print("%s n = %d, noise %.0f %%: S1 coverage %s (median width %.3f), ST coverage %s (median width %.3f)"
          % (name, n, 100 * noise, " ".join("%.3f" % c for c in found["S1"]), found["S1 width"],
             " ".join("%.3f" % c for c in found["ST"]), found["ST width"]))
    assert found["S1"].min() >= FLOOR and found["ST"].min() >= ST_FLOOR


def test_one_design_of_a_noise_free_function_reads_as_both_copies():
    problem, f, _, _, _ = ishigami()
    X = sensitivity.replicated_design(problem, 64, seed=1)
    one = sensitivity.replicated_indices(problem, f(X))
    two = sensitivity.replicated_indices(problem, np.stack([f(X), f(X)]))
    assert one == two and len(X) == 64 * (3 + 2)


def test_a_parameter_that_does_nothing_reads_no_measurable_effect_in_95_percent_of_designs():
    # y = 5·x1 + x2 / 1000 plus noise on each deal set: x3 does nothing, x1 almost everything.
    problem = {"num_vars": 3, "names": ["x1", "x2", "x3"], "bounds": [[0, 1]] * 3}
    designs, nothing, labels = 100, 0, set()
    for seed in range(designs):
        X = sensitivity.replicated_design(problem, 128, seed=seed)
        generator = np.random.default_rng(seed)
        Y = np.stack([5 * X[:, 0] + X[:, 1] / 1000 + generator.normal(0, 0.2, len(X)) for _ in range(2)])
        rows = {row["name"]: row for row in sensitivity.replicated_indices(problem, Y)}
        assert not sensitivity.no_measurable_effect(rows["x1"], "ST") and rows["x1"]["ST_low"] > 0.5
        nothing += sensitivity.no_measurable_effect(rows["x3"], "ST")
        labels.add(sensitivity.interval_label(rows["x3"], "ST").endswith(" no measurable effect")
                   == sensitivity.no_measurable_effect(rows["x3"], "ST"))
    print("x3 (no effect): 'no measurable effect' in %d of %d designs" % (nothing, designs))
    assert nothing >= designs * (0.95 - 3 * math.sqrt(0.95 * 0.05 / designs)) and labels == {True}


def test_a_design_is_its_seed():
    problem = {"num_vars": 2, "names": ["a", "b"], "bounds": [[0, 1], [3, 7]]}
    first = sensitivity.replicated_design(problem, 32, seed=5)
    assert np.array_equal(first, sensitivity.replicated_design(problem, 32, seed=5))
    assert not np.array_equal(first, sensitivity.replicated_design(problem, 32, seed=6))
    blocks = first.reshape(sensitivity.REPLICATES, -1, 4, 2)  # replicate, base sample, A AB_1 AB_2 B, parameter
    assert np.array_equal(blocks[:, :, 1, 0], blocks[:, :, 3, 0]) and np.array_equal(blocks[:, :, 1, 1], blocks[:, :, 0, 1])
    assert first[:, 1].min() >= 3 and first[:, 1].max() <= 7


def test_the_vectorised_g_function_is_salibs():
    from SALib.test_functions import Sobol_G
    X = np.random.default_rng(4).random((50, 6))
    assert np.allclose(g_function(X), Sobol_G.evaluate(X, a=G_A))
