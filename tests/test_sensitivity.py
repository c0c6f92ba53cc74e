"""SALib through analysis/sensitivity.py on functions with known indices (no matches)."""

from __future__ import annotations

import numpy as np
import pytest

from analysis import sensitivity
from sim.errors import CardbalanceError
from sim.fair.params import FACTOR, NUMBER, Param

# Ishigami (a = 7, b = 0.1) on [-π, π]³: analytic first-order and total indices.
ISHIGAMI_S1 = np.array([0.3139, 0.4424, 0.0])
ISHIGAMI_ST = np.array([0.5576, 0.4424, 0.2437])


def test_sobol_indices_of_ishigami_lie_within_their_bootstrap_intervals():
    from SALib.test_functions import Ishigami
    problem = {"num_vars": 3, "names": ["x1", "x2", "x3"], "bounds": [[-np.pi, np.pi]] * 3}
    X = sensitivity.design("sobol", problem, 4096, seed=7)
    rows = sensitivity.indices("sobol", problem, X, Ishigami.evaluate(X), seed=7)
    for row, s1, st in zip(rows, ISHIGAMI_S1, ISHIGAMI_ST):
        assert abs(row["S1"] - s1) <= row["S1_conf"] + 1e-3, row
        assert abs(row["ST"] - st) <= row["ST_conf"] + 1e-3, row
    assert [row["name"] for row in sensitivity.ranking(rows, "sobol")] == ["x1", "x2", "x3"]


def test_the_lhs_surrogate_recovers_the_indices_of_a_noisy_quadratic():
    # Y = 3 u1 + u2 + 2 u3² with u uniform on [-½, ½]: Var parts 9/12, 1/12, 4·(1/80 - 1/144).
    parts = np.array([9 / 12, 1 / 12, 4 * (1 / 80 - 1 / 144)])
    truth = parts / parts.sum()
    problem = {"num_vars": 3, "names": ["a", "b", "c"], "bounds": [[0, 1]] * 3}
    X = sensitivity.design("lhs", problem, 200, seed=3)
    u = X - 0.5
    Y = 3 * u[:, 0] + u[:, 1] + 2 * u[:, 2] ** 2 + np.random.default_rng(1).normal(0, 0.02, len(X))
    rows = sensitivity.indices("lhs", problem, X, Y, seed=3)
    for row, s in zip(rows, truth):
        assert abs(row["ST"] - s) <= max(row["ST_conf"], 0.01) + 0.01, row
    assert rows[0]["surrogate_loo_r2"] > 0.99


def test_morris_ranks_the_influential_parameter_first():
    problem = {"num_vars": 3, "names": ["a", "b", "c"], "bounds": [[0, 1]] * 3}
    X = sensitivity.design("morris", problem, 20, seed=2)
    rows = sensitivity.indices("morris", problem, X, 5 * X[:, 1] + 0.1 * X[:, 0], seed=2)
    assert sensitivity.ranking(rows, "morris")[0]["name"] == "b"
    assert rows[2]["mu_star"] == pytest.approx(0.0, abs=1e-12)


def test_integer_and_categorical_parameters_take_every_value_equally_often():
    params = [Param("hp0", NUMBER, 20, 23), Param("D-AMB-42", FACTOR, levels=("both_destroyed", "nothing"))]
    problem = sensitivity.problem(params)
    values = sensitivity.to_values(params, sensitivity.design("lhs", problem, 400, seed=1))
    numbers = [v[0] for v in values]
    readings = [v[1] for v in values]
    assert sorted(set(numbers)) == [20, 21, 22, 23] and all(numbers.count(k) == 100 for k in range(20, 24))
    assert readings.count("nothing") == 200


def test_a_budget_too_small_for_a_sobol_index_is_refused():
    problem = {"num_vars": 3, "names": ["a", "b", "c"], "bounds": [[0, 1]] * 3}
    with pytest.raises(CardbalanceError, match="--n 32 is too small to estimate sobol indices of 3 parameters"):
        sensitivity.check_budget("sobol", problem, 32, 100, 10**9)
    with pytest.raises(CardbalanceError, match="the sobol design needs 32,000 matches .* above --max-matches 1,000"):
        sensitivity.check_budget("sobol", problem, 64, 100, 1000)
    with pytest.raises(CardbalanceError, match="power of two"):
        sensitivity.check_budget("sobol", problem, 96, 100, 10**9)


TOY = ["--game", "toy", "--pairing", "red_vs_blue", "--skill", "greedy", "--chunk-size", "50", "--life", "10",
       "--jobs", "1"]


def test_a_sobol_run_plays_replicates_on_two_deal_sets_resumes_and_refuses_an_older_folder(tmp_path, capsys):
    import json
    from sim.cli import main
    from sim.fair.setup import SETTINGS
    command = ["sensitivity", "--param", "life0=4:16", "--param", "heal=0:4", "--method", "sobol", "--n", "64",
               "--matches", "20", "--out", str(tmp_path / "run")] + TOY
    assert main(command) == 0
    data = json.loads((tmp_path / "run" / "result.json").read_text())
    assert data["settings"]["replicates"] == sensitivity.REPLICATES and data["settings"]["copies"] == 2
    # 8 replicates x 2 deal sets, each deal set 10 matches per point and order: 20 per point in all
    assert data["settings"]["matches"] == 20 and data["cost"]["design_points"] == 64 * 4
    top, other = data["results"]["seat0"]["rows"]
    assert top["name"] == "life0" and top["ST_low"] > 0 and other["name"] == "heal"
    summary = (tmp_path / "run" / "summary.md").read_text()
    assert "| 2 | heal | 0.000 | [0.000, 0.000] no measurable effect |" in summary  # heal is inert in the toy
    assert "8 independent replicates of 8" in summary
    assert "no measurable effect" in (tmp_path / "run" / "report.html").read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(command) == 0  # resumed: every chunk is stored, nothing is played again
    again = json.loads((tmp_path / "run" / "result.json").read_text())
    assert again["cost"]["matches_played_now"] == 0 and again["results"] == data["results"]
    settings = tmp_path / "run" / SETTINGS  # a folder of the one-design bootstrap version has no replicates
    old = json.loads(settings.read_text())
    del old["replicates"], old["copies"]
    settings.write_text(json.dumps(old))
    capsys.readouterr()
    assert main(command) == 2
    assert "holds a run with other settings" in capsys.readouterr().err
