"""The HTML report of `fair`, `sensitivity` and `map` run folders (reports/design_html.py), rendered
from small toy-game runs: self-contained (figure inlined, no script, nothing fetched), the method, its
guarantee and the budget stated; `cardbalance report RUN` works on these folders; bad input is one
line and exit 2. Also: real and named-choice parameters declared by a rules module (the Novel TCG's
card-pool curve and deck shape), and the map's band cost."""

from __future__ import annotations

import json
import re

import pytest

from sim.cli import main

TOY = ["--game", "toy", "--pairing", "red_vs_blue", "--skill", "greedy", "--chunk-size", "50", "--jobs", "1",
       "--quiet"]


def _self_contained(html: str) -> None:
    assert "<script" not in html.lower()
    assert not re.search(r"""(src|href)=["']https?:""", html)  # nothing fetched from outside
    assert 'src="data:image/png;base64,' in html  # the figure is inlined


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("design")
    assert main(["fair", "--param", "life0=2:40", "--life", "12", "--round-matches", "100", "--max-matches", "12000",
                 "--precision", "1", "--out", str(root / "fair")] + TOY) == 0
    assert main(["map", "--x", "life0=4:16:4", "--y", "life1=4:16:4", "--matches", "100", "--out", str(root / "map")]
                + TOY) == 0
    assert main(["map", "--x", "life0=4:16:4", "--y", "life1=4:16:4", "--matches", "100", "--delta", "0.05",
                 "--out", str(root / "map05")] + TOY) == 0
    assert main(["sensitivity", "--param", "life0=4:16", "--param", "heal=0:4", "--method", "morris", "--n", "4",
                 "--matches", "50", "--life", "10", "--out", str(root / "sens")] + TOY) == 0
    return root


def test_fair_report_states_value_interval_method_guarantee_and_budget(runs):
    html = (runs / "fair" / "report.html").read_text(encoding="utf-8")  # the command writes it
    result = json.loads((runs / "fair" / "result.json").read_text())
    _self_contained(html)
    assert "Fair value of Red&#39;s starting life (life0)" in html and "%.1f" % result["estimate"] in html
    assert "Guarantee: if the metric is monotone in life0" in html and "union bound" in html
    assert "K = %d" % (len(result["grid"]) * result["planned_rounds"]) in html
    assert format(result["cost"]["matches"], ",") in html and "Budget spent" in html
    assert "cardbalance fair --param life0=2:40" in html  # how to reproduce
    assert 'class="headline" id="headline"' in html and "_style" not in html  # the sweep report's house style


def test_map_report_states_family_band_and_its_cost_per_point(runs):
    html = (runs / "map" / "report.html").read_text(encoding="utf-8")
    _self_contained(html)
    assert "of 16 points are balanced (½ ± 0.02, holm over the map)" in html
    assert "matches per point (Holm&#39;s first step over 16 points); this map played 200 per point" in html
    assert "verdict-" in html and "at most 5 %" in html
    summary = (runs / "map" / "summary.md").read_text(encoding="utf-8")
    assert "band cost: a point at exactly ½ is called balanced with 80 % chance at about 10,080 matches" in summary
    # a band other than the sweep's says what the sweep's would cost (the same deals: the same estimates)
    wider = (runs / "map05" / "report.html").read_text(encoding="utf-8")
    assert "½ ± 0.05 — wider than the sweep&#39;s ½ ± 0.02, which would need about 10,080 matches per point" in wider
    assert "the sweep's band ½ ± 0.02 would need about 10,080 per point" in \
        (runs / "map05" / "summary.md").read_text(encoding="utf-8")
    same = json.loads((runs / "map" / "result.json").read_text())
    assert json.loads((runs / "map05" / "result.json").read_text())["estimate"] == same["estimate"]


def test_sensitivity_report_ranks_with_intervals_and_states_the_design(runs):
    html = (runs / "sens" / "report.html").read_text(encoding="utf-8")
    _self_contained(html)
    assert "Morris elementary-effects screening" in html and "μ*" in html
    assert "Parameters (2): life0 in 4..16; heal in 0..4." in html
    assert re.search(r"is moved most by life0 \(μ\* [0-9.]+ \[[0-9.]+, [0-9.]+\]\)", html)  # its interval, as the table


def test_report_command_works_on_design_folders(runs, tmp_path, capsys):
    for name in ("fair", "map", "sens"):
        out = tmp_path / name
        assert main(["report", str(runs / name), "--out", str(out), "--quiet"]) == 0
        assert capsys.readouterr().out.strip() == str(out / "report.html")
        _self_contained((out / "report.html").read_text(encoding="utf-8"))
    assert main(["report", str(runs / "fair"), "--quiet"]) == 0  # default: RUN/report/report.html
    assert (runs / "fair" / "report" / "report.html").is_file()


@pytest.mark.parametrize("extra, message", [
    (["--delta", "0.05"], "--delta applies to sweep runs"),
    (["--ladder", "somewhere"], "--ladder applies to sweep runs"),
    (["--adjust", "bh"], "--adjust applies to sweep runs"),
    (["--game", "poker_duel"], "--game poker_duel: run"),
])
def test_report_options_of_sweeps_are_refused_on_design_runs(runs, tmp_path, capsys, extra, message):
    out = tmp_path / "out"
    assert main(["report", str(runs / "map"), "--out", str(out)] + extra) == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1, error
    assert not out.exists()


def test_report_of_an_unfinished_design_run_is_one_line(tmp_path, capsys):
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "settings.json").write_text(json.dumps({"command": "fair"}))
    assert main(["report", str(folder), "--out", str(tmp_path / "out")]) == 2
    error = capsys.readouterr().err
    assert "holds no result.json to report" in error and error.count("\n") == 1
    assert not (tmp_path / "out").exists()


# ---- what a rules module declares: real numbers and named choices (the Novel TCG) -------------------

def _tcg():
    from sim.registry import get_game
    game = get_game("novel_tcg")
    return game, game.load_rules("default")


def test_tcg_declares_its_card_pool_reals_and_deck_shape_to_the_designs():
    from sim.fair import params
    game, rules = _tcg()
    slope = params.resolve(game, rules, "atk_slope", 0.5, 2.0, factors=True)
    assert slope.kind == params.REAL and (slope.low, slope.high) == (0.5, 2.0)
    assert params.resolve(game, rules, "curve_exponent", factors=True).describe() == "curve_exponent in [0.1, 3]"
    shape = params.resolve(game, rules, "deck_shape", factors=True)
    assert shape.kind == params.FACTOR and shape.levels == ("balanced", "aggressive", "defensive")
    assert params.resolve(game, rules, "T-AMB-54", factors=True).levels == ("R2", "R1")
    for name in ("star_mod", "hp_per_rank", "summon_limit_offset", "free_summon_max_star", "opening_hand",
                 "hand_limit", "front_slots", "back_slots", "swarm_characters", "rank0", "rank1"):
        assert params.resolve(game, rules, name).kind in (params.NUMBER, params.SEAT_VALUE)
    point = params.apply(rules, {}, [slope, shape], [1.25, "aggressive"])
    assert point.rules.reals["atk_slope"] == 1.25 and point.rules.deck_shape == "aggressive"
    assert point.rules.to_array().tolist() != rules.to_array().tolist()  # the pool follows the parameter


@pytest.mark.parametrize("name, low, high, factors, message", [
    ("atk_slope", None, None, False, "parameter 'atk_slope' is a real number; this command takes an integer"),
    ("deck_shape", None, None, False, "parameter 'deck_shape' is categorical"),
    ("atk_slope", 0.5, 60.0, True, "range 0.5..60 is outside the range the rules declare (0..50"),
    ("star_mod", 2.5, 8, False, "parameter 'star_mod' is an integer; its range must be LOW:HIGH integers (got 2.5)"),
])
def test_parameters_of_the_wrong_kind_or_range_are_one_line(name, low, high, factors, message):
    from sim.errors import CardbalanceError
    from sim.fair import params
    game, rules = _tcg()
    with pytest.raises(CardbalanceError) as error:
        params.resolve(game, rules, name, low, high, factors=factors)
    assert message in str(error.value) and "\n" not in str(error.value)


def test_real_ranges_parse_and_bad_ones_are_refused():
    from sim.errors import CardbalanceError
    from sim.fair import params
    assert params.parse_spec("atk_slope=0.5:2") == ("atk_slope", 0.5, 2.0, None)
    assert params.parse_spec("star_mod=2:8") == ("star_mod", 2, 8, None)
    for text in ("atk_slope=nan:2", "atk_slope=a:b", "atk_slope=inf:2"):
        with pytest.raises(CardbalanceError):
            params.parse_spec(text)


def test_real_parameters_are_sampled_continuously_in_their_range():
    import numpy as np
    from analysis import sensitivity
    from sim.fair.params import FACTOR, NUMBER, REAL, Param
    chosen = [Param("a", REAL, 0.5, 2.0), Param("n", NUMBER, 1, 3), Param("f", FACTOR, levels=("x", "y"))]
    problem = sensitivity.problem(chosen)
    assert problem["bounds"] == [[0.5, 2.0], [1, 4], [0, 2]]
    rows = sensitivity.to_values(chosen, sensitivity.design("lhs", problem, 200, 1))
    reals = np.array([row[0] for row in rows])
    assert 0.5 <= reals.min() < 0.6 and 1.9 < reals.max() <= 2.0 and len(set(reals)) == 200
    assert {row[1] for row in rows} == {1, 2, 3} and {row[2] for row in rows} == {"x", "y"}


def test_tcg_sensitivity_with_reals_and_choices_refuses_bad_input_before_any_match(tmp_path, capsys, monkeypatch):
    from sim.fair.runner import PointRunner

    def refuse(*args, **kwargs):
        raise AssertionError("a match was played before the input was checked")
    monkeypatch.setattr(PointRunner, "play", refuse)
    base = ["sensitivity", "--game", "novel_tcg", "--param", "atk_slope=0.5:2", "--param", "T-AMB-07",
            "--out", str(tmp_path / "run")]
    for extra, message in ((["--param", "curve_exponent=0:2"], "range 0..2 is outside the range the rules declare"),
                           (["--param", "deck_shape=balanced,round"], "reading 'round' is not one the rules play"),
                           (["--param", "deck_shape", "--n", "4"], "--n 4 is too small")):
        assert main(base + extra) == 2
        error = capsys.readouterr().err
        assert message in error and error.count("\n") == 1, error
        assert not (tmp_path / "run").exists()


def test_map_band_cost_per_point():
    from analysis.balance_map import matches_to_call_fair_point_balanced
    from analysis.verdict_design import power_balanced
    need = matches_to_call_fair_point_balanced(64, 0.02)
    assert power_balanced(need, 64, 0.5, 0.02) >= 0.8 > power_balanced(need - 1, 64, 0.5, 0.02)
    # the sweep's band costs about (0.05 / 0.02)² = 6.25 times the old map band's matches
    assert 6.0 < need / matches_to_call_fair_point_balanced(64, 0.05) < 6.5


def test_map_delta_bad_values_are_one_line_exit_2(tmp_path, capsys):
    for delta in ("0.7", "0", "nan"):
        assert main(["map", "--x", "life0=4:16:4", "--y", "life1=4:16:4", "--delta", delta,
                     "--out", str(tmp_path / "map")] + TOY) == 2
        error = capsys.readouterr().err
        assert "delta" in error and error.count("\n") == 1, error
        assert not (tmp_path / "map").exists()
