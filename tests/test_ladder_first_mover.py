"""Issue 37, item 7 (a): the ladder's first-mover term, fitted jointly with the ratings.

analysis/first_mover_fit.py fits logit P(seat 0 scores) = θ_a − θ_b + h·s by batched Newton;
these tests hold it to statsmodels' GLM, to a known truth, and to the plain Bradley–Terry fit
when no first mover is recorded, and check the report says it.
"""

import numpy as np
import pandas as pd
import pytest

from analysis import first_mover_fit, ladder

# Elo points: the ridge (first_mover_fit.RIDGE = 0.01) against ~100 matches per cell moves an
# estimate by about RIDGE / (n/4) of itself: well under a tenth of a point here
AGAINST_UNPENALISED = 0.1


def _cells(elo, edge, per_cell, draw_share=0.0, generator=None):
    """Every ordered pair, both first movers; expected counts, or drawn ones with `generator`."""
    rows = []
    agents = list(elo)
    for a in agents:
        for b in agents:
            if a == b:
                continue
            for first in (0, 1):
                logit = (elo[a] - elo[b] + (edge if first == 0 else -edge)) / ladder.ELO_PER_UNIT
                score = 1.0 / (1.0 + np.exp(-logit))
                shares = [score - draw_share / 2, 1.0 - score - draw_share / 2, draw_share]
                if generator is None:
                    w0, w1, d = (per_cell * share for share in shares)
                else:
                    w0, w1, d = generator.multinomial(per_cell, shares)
                rows.append({"strategy0": a, "strategy1": b, "first": first, "seat0_name": "red", "seat1_name": "blue",
                             "seat0_wins": w0, "seat1_wins": w1, "draws": d, "matches": per_cell})
    return pd.DataFrame(rows)


def test_the_batched_newton_fit_equals_statsmodels_glm():
    import statsmodels.api as sm
    generator = np.random.default_rng(3701)
    cells = _cells({"A": 150.0, "B": 0.0, "C": -80.0, "D": -300.0}, 40.0, 120, draw_share=0.1, generator=generator)
    frame = ladder.meetings(cells)
    agents = ["A", "B", "C", "D"]
    rows, to_rows = ladder.first_mover_design(agents, frame["agent0"], frame["agent1"], frame["first"])
    elo, offset = ladder.fit_first_mover(rows, to_rows, frame["wins0"], frame["wins1"], frame["draws"])
    points0 = (frame["wins0"] + 0.5 * frame["draws"]).to_numpy(float) @ to_rows
    matches = frame[["wins0", "wins1", "draws"]].sum(axis=1).to_numpy(float) @ to_rows
    exog = np.delete(rows, 3, axis=1)  # D's strength is the reference (0) for the unpenalised fit
    glm = sm.GLM(points0 / matches, exog, family=sm.families.Binomial(), var_weights=matches).fit()
    reference = np.append(glm.params[:3], 0.0) * ladder.ELO_PER_UNIT
    assert np.abs((elo - elo[3]) - reference).max() <= AGAINST_UNPENALISED
    assert abs(offset - glm.params[3] * ladder.ELO_PER_UNIT) <= AGAINST_UNPENALISED


def test_a_known_first_mover_edge_and_ratings_are_recovered_from_expected_counts():
    truth = {"A": 200.0, "B": 0.0, "C": -200.0}
    result = ladder.ladder(_cells(truth, 60.0, 100_000), list(truth), root_seed=1, bootstrap=0)
    assert result.first_mover["elo"] == pytest.approx(60.0, abs=0.01)
    assert dict(zip(result.ratings["agent"], result.ratings["elo"])) == pytest.approx(truth, abs=0.01)
    # the plain fit on pooled points shrinks a 400-Elo spread when first moving matters: the joint fit does not
    plain = ladder.bradley_terry(ladder._points_matrix(list(truth), *(ladder.meetings(_cells(truth, 60.0, 100_000))[c]
                                                                       for c in ("agent0", "agent1", "wins0", "wins1",
                                                                                 "draws"))))
    assert plain[0] - plain[2] < 399.0


def test_the_first_mover_interval_is_seeded_and_contains_the_estimate():
    cells = _cells({"A": 100.0, "B": 0.0, "C": -100.0}, 50.0, 200, generator=np.random.default_rng(3702))
    one = ladder.ladder(cells, ["A", "B", "C"], root_seed=5, bootstrap=100).first_mover
    two = ladder.ladder(cells, ["A", "B", "C"], root_seed=5, bootstrap=100).first_mover
    assert one == two
    assert one["elo_low"] < one["elo"] < one["elo_high"] and one["note"] == ""
    assert 0.0 < one["elo_low"]  # a 50-Elo edge over 2,400 matches is shown


def test_without_a_recorded_first_mover_the_ratings_are_the_plain_fit_and_the_report_says_why():
    from reports.ladder import first_mover_words
    cells = _cells({"A": 100.0, "B": 0.0, "C": -100.0}, 0.0, 300, generator=np.random.default_rng(3703)).drop(
        columns="first")
    result = ladder.ladder(cells, ["A", "B", "C"], root_seed=1, bootstrap=0)
    frame = ladder.meetings(cells)
    plain = ladder.bradley_terry(ladder._points_matrix(["A", "B", "C"], frame["agent0"], frame["agent1"],
                                                       frame["wins0"], frame["wins1"], frame["draws"]))
    assert np.abs(result.ratings["elo"].to_numpy() - plain).max() <= 0.5  # two regularisers, both negligible
    assert np.isnan(result.first_mover["elo"])
    assert first_mover_words(result) == "No first-mover offset: the run does not record who moved first."


def test_an_unbeaten_agent_stays_finite():
    rows = first_mover_fit.design([0, 1, 0, 1], [1, 0, 1, 0], [0, 0, 1, 1], 2)
    beta = first_mover_fit.fit(rows, [50.0, 0.0, 50.0, 0.0], [50.0, 50.0, 50.0, 50.0])
    assert np.all(np.isfinite(beta)) and beta[0] - beta[1] > 5.0
