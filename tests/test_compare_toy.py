"""`cardbalance compare` end to end on the toy game (fast): gate verdicts, exit codes,
sequential stopping, baselines, outputs. The Faction War cases are in
test_compare_faction_war.py."""

import json
import re

import numpy as np
import pytest

from sim.cli import main
from sim.compare import load_baseline, prepare, result_json, run
from sim.errors import CardbalanceError

TOY = ["--game", "toy", "--quiet"]


def _compare(capsys, *argv):
    code = main(["compare", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_identical_rule_sets_pass_with_exactly_zero_deltas(capsys, tmp_path):
    out = tmp_path / "r.json"
    code, _, _ = _compare(capsys, "default", "default", *TOY, "--batch", "300",
                          "--fail-if", "all.win_rate.abs_delta > 0.02", "--fail-if", "all.turns.delta > 0.5",
                          "--json", str(out))
    data = json.loads(out.read_text())
    assert code == 0 and data["exit_code"] == 0
    assert all(row["delta"] == 0.0 for row in data["metrics"])
    assert data["matches_per_cell"] == 300 and data["stop_reason"] == "every gate decided"
    assert [gate["verdict"] for gate in data["gates"]] == ["pass", "pass"]


def test_a_tweak_that_matters_fails_naming_metric_value_and_threshold(capsys, tmp_path):
    summary = tmp_path / "summary.md"
    # "short": turn cap 12 instead of 60, so every match is drawn.
    code, out, err = _compare(capsys, "default", "short", "--game", "toy", "--batch", "300",
                              "--fail-if", "all.draws.delta > 0.05", "--summary-md", str(summary))
    assert code == 1
    text = summary.read_text()
    assert text.startswith("## Balance comparison: FAIL")
    assert re.search(r"all\.draws\.delta = \+1 \(95 % one-sided sequential bounds \+0\.9\d* to \+1\) > 0\.05: "
                     r"shown at 300 matches per cell", text)
    assert "`turn_cap: 60 → 12`" in text
    assert out == text  # without --quiet the summary is also printed
    assert "fail: all.draws.delta = +1" in err


@pytest.mark.parametrize("expression, named", [
    ("all.draws.delta >> 0.02", "unexpected token '>' at column 18"),
    ("all.draws.delta > 0.02 and", "unexpected end of expression"),
    ("all.draw.delta > 0.02", "unknown metric 'draw'; allowed metrics: win_rate, seat1_win_rate, draws"),
    ("human_vs_alien.win_rate.delta > 0.02", "unknown scope 'human_vs_alien'; allowed scopes: all, red_vs_red"),
])
def test_malformed_or_unknown_expression_exits_2_before_playing(capsys, expression, named):
    code, out, err = _compare(capsys, "default", "short", *TOY, "--fail-if", expression)
    assert code == 2
    assert err.startswith("cardbalance compare: error: gate expression")
    assert named in err and out == ""


def test_usage_errors_exit_2(capsys):
    assert _compare(capsys, "default", *TOY)[0] == 2                      # TWEAK missing
    assert _compare(capsys, "default", "no-such-preset", *TOY)[0] == 2    # rules neither preset nor file
    code, _, err = _compare(capsys, "default", "short", *TOY, "--min-matches", "5", "--max-matches", "4")
    assert code == 2 and "--min-matches" in err


def test_paired_interval_is_narrower_than_unpaired_on_the_same_matches():
    setup = prepare("default", "big-die", game="toy", batch=2000, max_matches=2000)
    table = run(setup).table.set_index(["scope", "metric"])
    for metric in ("win_rate", "turns", "first_player_win_rate"):
        row = table.loc[("all", metric)]
        paired_width = row["delta_high"] - row["delta_low"]
        unpaired_width = row["unpaired_high"] - row["unpaired_low"]
        assert paired_width < 0.8 * unpaired_width, metric


def test_sequential_stopping_adds_batches_until_decided_or_reports_inconclusive_at_the_cap():
    # A clear effect is decided at the first look.
    clear = run(prepare("default", "big-die", game="toy", batch=200, max_matches=2000,
                        fail_if=["all.turns.delta < -1"]))
    assert (clear.rounds, clear.exit_code) == (1, 1)
    # A threshold right at the true difference cannot be decided: play to the cap, exit 3.
    # (A bigger die for both seats of a mirror pairing cannot favour seat 0: the true delta is 0.)
    undecided = run(prepare("default", "big-die", game="toy", batch=200, max_matches=600,
                            fail_if=["red_vs_red.win_rate.delta > 0"]))
    assert undecided.rounds == 3 and undecided.matches_per_cell == 600
    assert undecided.exit_code == 3 and undecided.gate_results[0]["verdict"] == "inconclusive"
    assert [h["matches_per_cell"] for h in undecided.history] == [200, 400, 600]
    # An effect near the threshold needs more than one batch, then is decided.
    needed = run(prepare("default", "big-die", game="toy", batch=100, max_matches=20000,
                         fail_if=["red_vs_blue.win_rate.delta > 0.1"]))
    assert needed.exit_code == 1 and needed.rounds > 1


def test_min_matches_delays_the_first_decision():
    result = run(prepare("default", "big-die", game="toy", batch=100, min_matches=300, max_matches=1000,
                         fail_if=["all.turns.delta < -1"]))
    assert result.matches_per_cell == 300 and result.exit_code == 1


def test_results_do_not_depend_on_the_number_of_jobs():
    one = run(prepare("default", "no-heal", game="toy", batch=150, max_matches=300, min_matches=300), n_jobs=1)
    two = run(prepare("default", "no-heal", game="toy", batch=150, max_matches=300, min_matches=300), n_jobs=2)
    assert np.array_equal(one.sums, two.sums)


def test_baseline_round_trip_and_unpaired_comparison(capsys, tmp_path):
    snapshot = tmp_path / "baseline.json"
    code, _, _ = _compare(capsys, "default", *TOY, "--write-baseline", str(snapshot), "--min-matches", "400",
                          "--batch", "200")
    assert code == 0
    stored = json.loads(snapshot.read_text())
    assert stored["rules"]["source"] == "default" and stored["matches_per_cell"] == [400] * 6
    assert stored["behaviour_version"] == 1 and "all" in stored["metrics"]
    # The same rules against the snapshot replay the same seeds: deltas exactly 0, marked unpaired.
    out = tmp_path / "same.json"
    code, _, _ = _compare(capsys, "default", *TOY, "--baseline", str(snapshot), "--fail-if",
                          "all.turns.abs_delta > 1", "--json", str(out))
    data = json.loads(out.read_text())
    assert code == 0 and data["mode"] == "baseline" and data["paired"] is False
    assert all(row["delta"] == 0.0 for row in data["metrics"])
    # A tweak against the snapshot fails the gate.
    summary = tmp_path / "s.md"
    code, _, _ = _compare(capsys, "big-die", *TOY, "--baseline", str(snapshot), "--fail-if",
                          "all.turns.delta < -1", "--summary-md", str(summary))
    assert code == 1 and "**Unpaired** comparison against a stored baseline" in summary.read_text()


def test_baseline_from_another_behaviour_version_is_refused(capsys, tmp_path):
    snapshot = tmp_path / "baseline.json"
    assert _compare(capsys, "default", *TOY, "--write-baseline", str(snapshot), "--batch", "50")[0] == 0
    data = json.loads(snapshot.read_text())
    data["behaviour_version"] = 99
    snapshot.write_text(json.dumps(data))
    code, _, err = _compare(capsys, "short", *TOY, "--baseline", str(snapshot))
    assert code == 2 and "behaviour version 99" in err
    with pytest.raises(CardbalanceError, match="not a compare baseline"):
        (tmp_path / "other.json").write_text("{}")
        load_baseline(tmp_path / "other.json")


def test_sweep_file_grid_replaces_the_built_in_one_and_ignores_its_rules(tmp_path):
    from sim.sweep.grid import load_sweep
    sweep = tmp_path / "grid.toml"
    sweep.write_text('game = "toy"\npairings = ["red_vs_blue"]\nlife = [10, 20]\nrules = ["short"]\nseed = 5\n')
    setup = prepare("default", "big-die", grid=load_sweep(sweep), batch=100, max_matches=100)
    assert [(c["life0"], c["first"]) for c in setup.cells] == [(10, 0), (10, 1), (20, 0), (20, 1)]
    assert setup.seed == 5 and "red_vs_blue@life20" in setup.scopes
    data = result_json(run(setup))
    assert data["grid_source"] == "default" and data["tweak"]["source"] == "big-die"
    json.dumps(data)  # machine-readable as is


def test_figures_replay_exactly_the_compared_matches_for_both_arms(tmp_path):
    import pandas as pd
    from sim import aggregate as agg
    from sim.compare import figures

    result = run(prepare("default", "big-die", game="toy", batch=150, min_matches=300, max_matches=300))
    shown = figures.write_side_by_side(result, tmp_path / "fig")
    assert set(shown) >= {"win_rates_vs_axis", "match_lengths"}
    assert all((tmp_path / "fig" / arm / ("%s.png" % name)).is_file()
               for name in shown for arm in ("base", "tweak", "side_by_side"))
    for arm, column in (("base", agg.P_SUM_A), ("tweak", agg.P_SUM_B)):
        results = pd.read_parquet(tmp_path / "fig" / ("%s-run" % arm) / "results.parquet")
        seat0_wins = results[[c for c in results.columns if c.startswith("seat0_")]].sum(axis=1).to_numpy()
        assert list(results["matches"]) == [300] * len(result.setup.cells)
        assert np.array_equal(seat0_wins, result.sums[:, agg.METRIC_SEAT0_WIN, column])
        assert np.array_equal(results["turns_sum"].to_numpy(), result.sums[:, agg.METRIC_TURNS, column])
    # drawn again into the same folder: the stored chunks are read, nothing is played
    import json as json_module
    figures.write_side_by_side(result, tmp_path / "fig")
    meta = json_module.loads((tmp_path / "fig" / "base-run" / "meta.json").read_text())
    assert meta["counts"]["chunks_resumed"] == meta["counts"]["chunks"] == 2 * len(result.setup.cells)


def test_cli_with_a_sweep_file_and_json_on_stdout(capsys, tmp_path):
    sweep = tmp_path / "grid.toml"
    sweep.write_text('game = "toy"\npairings = ["red_vs_blue", "blue_vs_blue"]\nlife = [15]\n'
                     'strategies = ["greedy:greedy", "cautious:greedy"]\n')
    code = main(["compare", "default", "no-heal", "--sweep", str(sweep), "--batch", "100", "--quiet", "--json", "-",
                 "--fail-if", "red_vs_blue@cautious:greedy.win_rate.delta < -0.02 or all.turns.abs_delta > 3"])
    data = json.loads(capsys.readouterr().out)
    assert code == data["exit_code"] and data["grid_source"] == str(sweep)
    assert len(data["grid"]) == 8 and {row["scope"] for row in data["metrics"]} >= {
        "red_vs_blue@life15", "red_vs_blue@cautious:greedy", "blue_vs_blue@greedy:greedy"}
    # Greedy players never heal, so only the cautious cells can differ between the arms.
    rows = {(row["scope"], row["metric"]): row for row in data["metrics"]}
    assert rows[("blue_vs_blue@greedy:greedy", "turns")]["delta"] == 0.0


def test_compare_resumes_from_its_folder_and_refuses_another_comparison(capsys, tmp_path):
    """--resume DIR keeps every finished batch: a second run plays nothing and gives the same
    numbers; a killed run (some batch files missing) plays only those; another comparison is refused."""
    folder = tmp_path / "batches"
    argv = ["default", "short", *TOY, "--batch", "200", "--min-matches", "600", "--json", "-", "--resume", str(folder)]
    code, first, _ = _compare(capsys, *argv)
    stored = sorted(path.name for path in folder.glob("c*.npy"))
    assert code == 0 and len(stored) == 3 * 2 * 3  # 3 pairings x 2 first players x 3 rounds
    (folder / stored[0]).unlink()
    (folder / stored[-1]).unlink()
    code, second, _ = _compare(capsys, *argv)
    strip = lambda text: {k: v for k, v in json.loads(text).items() if k not in ("seconds", "timings")}  # noqa: E731
    assert code == 0 and strip(first)["metrics"] == strip(second)["metrics"]
    assert sorted(path.name for path in folder.glob("c*.npy")) == stored
    code, _, err = _compare(capsys, "default", "big-die", *TOY, "--batch", "200", "--resume", str(folder))
    assert code == 2 and "holds the batches of another comparison" in err


def test_compare_on_dask_gives_the_numbers_of_loky(capsys, tmp_path):
    pytest.importorskip("distributed")
    argv = ["default", "short", *TOY, "--batch", "300", "--json", "-"]
    _, loky, _ = _compare(capsys, *argv)
    _, dask, _ = _compare(capsys, *argv, "--backend", "dask", "--jobs", "1")
    assert json.loads(loky)["metrics"] == json.loads(dask)["metrics"]
def test_must_not_move_gates_pass_on_identical_pairs_at_the_first_look(capsys, tmp_path):
    """Issue 17: a threshold-0 gate was inconclusive for identical rules however many matches."""
    out = tmp_path / "r.json"
    code, _, _ = _compare(capsys, "default", "default", *TOY, "--batch", "200",
                          "--fail-if", "all.draws.delta > 0", "--fail-if", "all.win_rate.abs_delta > 0",
                          "--json", str(out))
    data = json.loads(out.read_text())
    assert code == 0 and data["rounds"] == 1
    parts = [part for gate in data["gates"] for part in gate["comparisons"]]
    assert all(part["decided_by"] == "identical pairs" for part in parts)
    assert "every paired match identical in this metric" in parts[0]["message"]
    assert data["gate_family"].startswith("2 gate comparisons, Holm-corrected")


def test_a_change_that_never_touches_a_metric_passes_its_must_not_move_gate():
    # Greedy players never heal: "no-heal" changes nothing in greedy:greedy cells.
    result = run(prepare("default", "no-heal", game="toy", batch=200, max_matches=2000,
                         fail_if=["red_vs_blue.turns.delta > 0"]))
    assert result.exit_code == 0 and result.rounds == 1


def test_old_metric_names_get_a_migration_message(capsys):
    code, _, err = _compare(capsys, "default", "short", *TOY, "--fail-if", "all.winrate.delta > 0.02")
    assert code == 2
    assert "metric 'winrate' was renamed 'win_rate'" in err and "all.win_rate.delta" in err


def test_gate_decisions_are_final_and_the_family_is_stated(capsys, tmp_path):
    out = tmp_path / "r.json"
    code, _, err = main(["compare", "default", "big-die", "--game", "toy", "--batch", "200", "--max-matches", "2000",
                         "--json", str(out), "--fail-if", "all.turns.delta < -1", "--fail-if",
                         "red_vs_red.win_rate.delta > 0.3"]), None, capsys.readouterr().err
    data = json.loads(out.read_text())
    decided = {part["field"]: part for gate in data["gates"] for part in gate["comparisons"]}
    assert decided["all.turns.delta"]["outcome"] == "fail"
    first = decided["all.turns.delta"]["decided_at_matches"]
    assert first is not None and first <= data["matches_per_cell"]
    assert "p: fail" in decided["all.turns.delta"]["message"]  # Holm's repeated p-values are shown
    assert data["adjust"] == "holm" and "2 gate comparisons, Holm-corrected" in data["gate_family"]
    assert "Holm-corrected" in err
