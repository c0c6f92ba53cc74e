"""`cardbalance fair`, `map` and `sensitivity` end to end on the toy game (tests/toygame.py):
generic over games, bad input refused before any match, same numbers for any --jobs,
resume plays nothing twice."""

from __future__ import annotations

import json

import pytest

from sim.cli import main
from sim.fair.runner import PointRunner

TOY = ["--game", "toy", "--pairing", "red_vs_blue", "--skill", "greedy", "--chunk-size", "50"]


@pytest.fixture
def no_matches(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a match was played before the input was checked")
    monkeypatch.setattr(PointRunner, "play", refuse)


@pytest.mark.parametrize("command, message", [
    (["fair", "--param", "nosuch"], "unknown parameter 'nosuch' for toy; allowed: life0, life1, life, die_sides"),
    (["fair", "--param", "life0=0:40"], "range 0..40 is outside the range"),
    (["fair", "--param", "die_sides"], "the rules declare no range for it"),
    (["fair", "--param", "life0=2:40", "--target", "1.5"], "no value reaches 1.5"),
    (["fair", "--param", "life0=2:40", "--metric", "length", "--target", "0"], "no value reaches 0"),
    (["fair", "--param", "life0=2:40", "--max-matches", "500"], "--max-matches 500 is too small"),
    (["fair", "--param", "life0=2:40", "--first", "2"], "--first must be 0 or 1"),
    (["fair", "--param", "life0=2:40", "--metric", "length", "--target", "9", "--estimator", "model"],
     "--estimator model fits a rate"),
    (["fair", "--param", "life0=2:40", "--width", "0"], "--width must be a number of parameter units above 0"),
    (["fair", "--param", "life0=2:40", "--scheduler", "tcp://127.0.0.1:1"], "--scheduler needs --backend dask"),
    (["map", "--x", "life0=2:40:2", "--y", "life1=2:40:2", "--matches", "1000"], "above --max-matches"),
    (["map", "--x", "life0=2:40:2", "--y", "life0=2:40:2"], "name the same parameter"),
    (["map", "--x", "life0=2:40", "--y", "life1=2:40:2"], "--x must be NAME=LOW:HIGH:STEP"),
    (["sensitivity", "--param", "life0=2:40", "--param", "die_sides=2:8", "--method", "sobol", "--n", "8"],
     "--n 8 is too small to estimate sobol indices of 2 parameters"),
    (["sensitivity", "--param", "life0=2:40", "--param", "die_sides=2:8", "--n", "1024"], "above --max-matches"),
    (["sensitivity", "--param", "life0=2:40"], "at least two --param"),
    (["sensitivity", "--param", "life0=2:40", "--param", "heal=0:4", "--spread-over", "life"],
     "--spread-over 'life' must be a choice dimension"),
    (["sensitivity", "--param", "life0=2:40", "--param", "heal=0:4", "--method", "fast"], "--method must be one of"),
])
def test_bad_input_is_one_line_exit_2_nothing_written_before_any_match(command, message, tmp_path, capsys, no_matches):
    out = tmp_path / "run"
    assert main(command + TOY + ["--out", str(out)]) == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1, error
    assert not out.exists()


def _result(folder):
    data = json.loads((folder / "result.json").read_text())
    data.pop("cost")
    return data


def test_fair_on_the_toy_game_same_for_any_jobs_and_resumed_without_replaying(tmp_path, capsys):
    args = ["fair", "--param", "life0=2:40", "--life", "12", "--round-matches", "100", "--max-matches", "12000",
            "--precision", "1"] + TOY
    assert main(args + ["--jobs", "1", "--out", str(tmp_path / "one")]) == 0
    assert main(args + ["--jobs", "2", "--out", str(tmp_path / "two")]) == 0
    first = _result(tmp_path / "one")
    assert first == _result(tmp_path / "two")
    assert first["lower"] < first["estimate"] < first["upper"]
    assert (tmp_path / "one" / "fair.png").is_file() and "Fair value of Red's starting life (life0)" in (tmp_path / "one" / "summary.md").read_text()
    need = first["model"]["to_width"]  # the guaranteed estimator states the matches to a width (--precision) too
    assert not first["model"]["used"] and need["width"] == 1 and need["at_root"] < need["this_design"]
    assert ("matches to reach an interval 1 wide: about %s" % format(need["at_root"], ",")
            in (tmp_path / "one" / "summary.md").read_text())
    assert main(args + ["--jobs", "1", "--out", str(tmp_path / "one")]) == 0  # resume: every chunk is stored
    again = json.loads((tmp_path / "one" / "result.json").read_text())
    assert again["cost"]["matches_played_now"] == 0 and _result(tmp_path / "one") == first
    bigger = [a if a != "12000" else "24000" for a in args]  # a larger budget resumes and goes on
    assert main(bigger + ["--jobs", "1", "--out", str(tmp_path / "one")]) == 0
    more = json.loads((tmp_path / "one" / "result.json").read_text())
    assert more["matches"] > first["matches"] and more["cost"]["matches_played_now"] < more["matches"]
    assert main(args + ["--jobs", "1", "--seed", "5", "--out", str(tmp_path / "one")]) == 2  # other settings
    assert "holds a run with other settings" in capsys.readouterr().err


def test_fair_with_the_model_estimator_on_the_toy_game(tmp_path, capsys):
    """--estimator model: each point on deals of its own (other chunks than a guaranteed run's), the
    model's interval beside the guaranteed one, the matches to reach --width; same for any --jobs,
    resumed without replaying, and a guaranteed run on the same folder is refused (other deals)."""
    args = ["fair", "--param", "life0=2:40", "--life", "12", "--round-matches", "100", "--max-matches", "12000",
            "--precision", "1", "--estimator", "model", "--width", "0.2"] + TOY
    assert main(args + ["--jobs", "1", "--out", str(tmp_path / "one")]) == 0
    line = capsys.readouterr().out
    assert main(args + ["--jobs", "2", "--out", str(tmp_path / "two")]) == 0
    first = _result(tmp_path / "one")
    assert first == _result(tmp_path / "two")
    model = first["model"]
    design = {int(value): matches for value, matches in model["design"].items()}
    assert model["used"] and model["cells"] == 2 * (len(first["search"]) + len(first["grid"]) + len(design))
    assert model["design_rounds"] >= 1  # the sequential design ran (the model's interval was wider than 0.2)
    assert model["matches"] == first["matches"] + 2 * sum(design.values())  # its matches beside the finder's
    if model["accepted"]:
        assert model["lower"] < model["estimate"] < model["upper"]
        assert "model-based 95 % interval on the value" in line and "; guaranteed: " in line
    else:
        assert "(model rejected: " in line
    assert model["to_width"]["width"] == 0.2 and model["to_width"]["at_root"] > 0
    summary = (tmp_path / "one" / "summary.md").read_text()
    assert "matches to reach an interval 0.2 wide: about %s" % format(model["to_width"]["at_root"], ",") in summary
    assert "sequential design: %d rounds" % model["design_rounds"] in summary
    assert "Matches to reach an interval 0.2 wide" in (tmp_path / "one" / "report.html").read_text()
    assert main(args + ["--jobs", "1", "--out", str(tmp_path / "one")]) == 0  # resume: every chunk is stored
    again = json.loads((tmp_path / "one" / "result.json").read_text())
    assert again["cost"]["matches_played_now"] == 0 and _result(tmp_path / "one") == first
    guaranteed = [a for a in args if a not in ("--estimator", "model")]
    assert main(guaranteed + ["--jobs", "1", "--out", str(tmp_path / "one")]) == 2
    assert "holds a run with other settings" in capsys.readouterr().err


def test_map_and_sensitivity_on_the_toy_game(tmp_path):
    assert main(["map", "--x", "life0=4:16:4", "--y", "life1=4:16:4", "--matches", "100", "--jobs", "1",
                 "--out", str(tmp_path / "map")] + TOY) == 0
    data = json.loads((tmp_path / "map" / "result.json").read_text())
    assert len(data["verdict"]) == 4 and (tmp_path / "map" / "map.png").is_file()
    # seat 0's share rises with its own life and falls with the opponent's
    assert data["estimate"][0][3] > data["estimate"][0][0] and data["estimate"][3][0] < data["estimate"][0][0]
    assert main(["sensitivity", "--param", "life0=4:16", "--param", "heal=0:4", "--method", "morris", "--n", "4",
                 "--matches", "50", "--life", "10", "--jobs", "1", "--out", str(tmp_path / "sens")] + TOY) == 0
    ranked = json.loads((tmp_path / "sens" / "result.json").read_text())["results"]["seat0"]["rows"]
    assert ranked[0]["name"] == "life0"
    assert main(["sensitivity", "--param", "life0=4:16", "--param", "heal=0:4", "--method", "morris", "--n", "4",
                 "--matches", "50", "--life", "10", "--spread-over", "pairing", "--jobs", "1",
                 "--out", str(tmp_path / "spread")] + TOY) == 0
    results = json.loads((tmp_path / "spread" / "result.json").read_text())["results"]
    assert results["spread"]["rows"] and results["seat0"] == json.loads(
        (tmp_path / "sens" / "result.json").read_text())["results"]["seat0"]  # the base pairing's points are the same


def test_a_target_no_value_in_the_range_reaches_is_one_line_and_exit_2(tmp_path, capsys):
    # seat 0 at life 2..6 against life 50: it never wins half the matches
    assert main(["fair", "--param", "life0=2:6", "--life", "50", "--round-matches", "50", "--max-matches", "5000",
                 "--jobs", "1", "--quiet", "--out", str(tmp_path / "run")] + TOY) == 2  # no progress lines
    error = capsys.readouterr().err
    assert "no value of the parameter in 2..6 reaches the target 0.5" in error and error.count("\n") == 1
    assert not (tmp_path / "run" / "result.json").exists()  # no invented value; the played chunks stay for a rerun


def test_a_target_just_beyond_the_range_end_is_refused_by_the_confirmation_grid(tmp_path, capsys):
    """Issue 37 item 1 on the toy game (the fair life0 at life 12 is about 13.6): over 2..13 stage 0
    cannot tell the end 13 from ½ at 100 matches, and the old finder printed a fair value at the
    range end. The confirmation grid finds 13 confidently below ½: one line, exit 2, and the folder's
    earlier result from a smaller budget (an interval open at 13) no longer claims a value."""
    args = ["fair", "--param", "life0=2:13", "--life", "12", "--round-matches", "100", "--precision", "1",
            "--jobs", "1", "--quiet", "--out", str(tmp_path / "run")] + TOY  # --quiet: stderr holds the refusal alone
    assert main(args + ["--max-matches", "1800"]) == 0  # one confirmation round: not yet confident
    small = json.loads((tmp_path / "run" / "result.json").read_text())
    assert small["upper_open"] and small["estimate"] is None
    assert "life0 > " in capsys.readouterr().out  # the interval only, no point estimate beside the open side
    assert main(args + ["--max-matches", "12000"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "no value of the parameter in 2..13 reaches the target 0.5" in error
    assert "confidently below it at 13" in error and "at 2 (search, 95 %)" in error
    assert "matches played stay in %s" % (tmp_path / "run") in error
    summary = (tmp_path / "run" / "summary.md").read_text()
    assert summary.startswith("# Fair value: not reached") and "confirm | 13 |" in summary
    assert not any((tmp_path / "run" / name).exists() for name in ("result.json", "fair.png", "report.html"))
    assert main(args + ["--max-matches", "1800"]) == 0  # back to the small budget: its result, and no stale refusal
    assert _result(tmp_path / "run") == {k: v for k, v in small.items() if k != "cost"}
    assert not (tmp_path / "run" / "not-reached.txt").exists()


def test_a_map_point_is_decided_by_the_sweep_tables_pooled_test():
    """The map's verdicts take the pooled-row test of the sweep's verdict table (issue 37): a point
    whose first player wins 99 % is tested at the strata fitted to each band edge, not at the Kish
    n_eff of its observed orders, which claims far more certainty there (p_balanced 0 before)."""
    import numpy as np

    from analysis.stats import stratified_rate
    from analysis.verdict import score_p_values, stratified_score_p_values
    from sim import aggregate as agg
    from sim.fair import metrics
    from sim.registry import get_game

    game = get_game("toy")
    n_end = len(game.end_types)
    seat0_wins = np.array([8_930.0, 70.0])  # seat 0 first, then second: the first player wins 99 %
    vectors = []
    for wins in seat0_wins:
        vector = agg.empty_aggregate(n_end, len(game.counter_names), 4)
        vector[agg.A_MATCHES] = 9_000
        vector[agg.A_OUTCOMES] = wins  # seat-0 wins, first end type
        vector[agg.A_OUTCOMES + n_end] = 9_000 - wins  # seat-1 wins
        vectors.append(vector)
    trials = np.full(2, 9_000.0)
    got = metrics.verdict_p_values("seat0", vectors, game, 0.02)
    expected = stratified_score_p_values(np.zeros(2, dtype=np.int64), seat0_wins, trials, 1, 0.02)
    assert got == pytest.approx((float(expected[0][0]), float(expected[1][0])), rel=1e-12)
    share, _, _, n_eff = stratified_rate(seat0_wins, trials)
    kish = score_p_values(share, n_eff, 0.02)
    assert float(kish[1]) < got[1] / 1e10  # the old test's certainty, which the band edge did not bear out


def test_the_model_estimator_gives_every_point_deals_of_its_own():
    """GameSource.place: by default a finder stage's points share its deals (the runner stage is the
    finder's, as before issue 42); with own_deals every (stage, point) is a runner stage of its own,
    none of them a default stage, so no two points (and no guaranteed run's chunks) share deals."""
    from types import SimpleNamespace

    from sim.cli.fair_cmd import OWN_DEALS_STAGE, GameSource
    from sim.fair.params import NUMBER, Param
    param = Param("life0", NUMBER, 2, 40)
    b = SimpleNamespace(rules=None, values={})
    shared, own = GameSource(None, b, param, "seat0"), GameSource(None, b, param, "seat0", own_deals=True)
    assert [shared.place(stage, value) for stage, value in ((0, 2), (1, 40))] == [(0, 0), (1, 38)]
    places = {own.place(stage, value) for stage in (0, 1, 2) for value in range(2, 41)}
    assert len({stage for stage, _ in places}) == 3 * 39 and min(stage for stage, _ in places) == OWN_DEALS_STAGE
