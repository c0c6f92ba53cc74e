"""`cardbalance bench` on the toy game: every measurement is present and consistent (no timing asserts)."""

import json
import time

import pytest

from sim.bench import format_report, run_bench
from sim.cli import main
from sim.errors import CardbalanceError


def test_bench_measures_both_engines_all_cores_compile_and_memory(toy_game):
    result = run_bench("toy", seconds=0.05, all_cores_seconds=0.2, jobs=2)
    rows = result["per_core"]
    assert [(row["pairing"], row["strategies"]) for row in rows] == [
        (pairing, "%s:%s" % (s, s)) for pairing in toy_game.dimension("pairing").values for s in ("random", "greedy")]
    for row in rows:
        assert row["numba_matches"] > 0 and row["reference_matches"] > 0
        assert row["ratio"] > 0  # no assertion on a timing ratio: timings vary with the machine's load
    assert result["all_cores"]["workers"] == 2 and result["all_cores"]["matches"] > 0
    for kind in ("cold", "cached"):  # fresh interpreters: empty NUMBA_CACHE_DIR, then the normal cache
        assert set(result["compile"][kind]) == {"import_s", "first_batch_s"}, result["compile"][kind]
    assert result["peak_rss_bytes"]["self"] > 0
    json.loads(json.dumps(result))
    text = format_report(result)
    assert "numba m/s/core" in text and "compile cold:" in text and "peak RSS" in text


def test_bench_cli_json_and_bad_input(capsys, toy_game):
    assert main(["bench", "--game", "toy", "--seconds", "0.02", "--all-cores-seconds", "0.1", "--jobs", "1",
                 "--pairings", "red_vs_blue", "--no-compile", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert [row["pairing"] for row in result["per_core"]] == ["red_vs_blue", "red_vs_blue"]
    assert result["compile"] == {}
    assert main(["bench", "--game", "toy", "--pairings", "red_vs_green"]) == 2
    assert "pairing 'red_vs_green' is unknown" in capsys.readouterr().err
    with pytest.raises(CardbalanceError, match="'life' values must be integers from 1 to 100000"):
        run_bench("toy", values={"life": 0})
    assert main(["bench", "--game", "toy", "--life", "0"]) == 2
    assert "--life must be an integer from 1 to 100000" in capsys.readouterr().err
    for bad in ("nan", "inf", "0"):  # nan and inf would never end a measurement
        assert main(["bench", "--game", "toy", "--seconds", bad]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "--seconds must be a positive, finite number" in err


def test_bench_scaling_plays_the_same_matches_on_one_and_all_workers(capsys, toy_game):
    """--scaling-matches: 1 worker vs all, same matches (the issue's 10^6-match speed-up check)."""
    result = run_bench("toy", seconds=0.02, all_cores_seconds=0.1, jobs=2, compile_times=False,
                       scaling_matches=5000)
    scaling = result["scaling"]
    assert scaling["matches"] == 6000  # whole chunks of 2,000
    assert scaling["workers"] == 2 and scaling["one_worker_s"] > 0 and scaling["all_workers_s"] > 0
    assert scaling["speedup"] > 0  # its value depends on the machine's load: never asserted
    assert "scaling: 6000 matches" in format_report(result)
    assert run_bench("toy", seconds=0.02, all_cores_seconds=0.1, jobs=1, compile_times=False)["scaling"] is None
    assert main(["bench", "--game", "toy", "--scaling-matches", "-5"]) == 2
    assert "--scaling-matches must be 0 (skip) or a positive number" in capsys.readouterr().err


def test_bench_results_keep_raw_timings_and_only_the_report_rounds():
    """A 4 ms timing rounded to 3 decimals is off by 10 %: the result keeps it whole."""
    result = {"game": "toy", "behaviour_version": 1, "rules": "default", "rules_hash": "abc", "life": 50,
              "seconds_per_measurement": 0.02,
              "per_core": [{"pairing": "red_vs_blue", "cell": "red_vs_blue", "strategies": "random:random", "numba_matches_per_s": 12345.678,
                            "numba_matches": 99, "reference_matches_per_s": 12.3456, "reference_matches": 5,
                            "ratio": 12345.678 / 12.3456}],
              "reference_engine": "available",
              "all_cores": {"workers": 2, "matches_per_s": 23456.789, "matches": 100, "cells": "all"},
              "scaling": {"matches": 6000, "workers": 2, "one_worker_s": 0.00449, "all_workers_s": 0.00201,
                          "speedup": 0.00449 / 0.00201},
              "compile": {}, "peak_rss_bytes": {"self": 2**20, "children": 0}, "wall_s": 1.23456}
    before = json.dumps(result)
    text = format_report(result)
    assert json.dumps(result) == before  # the report does not round the stored values
    assert "12346" in text and "12.3" in text and "1000x" in text
    assert "scaling: 6000 matches in 0.0 s on 1 worker, 0.0 s on 2: 2.23x" in text


def test_fastest_rate_repeats_the_same_work_and_keeps_its_fastest_repeat():
    """The fastest repeat of identical work (timeit's minimum) is at least its mean rate."""
    from sim.bench_timing import fastest_rate
    calls = []

    def work():  # identical busy work; every third repeat does three times as much for the same units
        calls.append(1)
        slow = 3 if len(calls) % 3 == 0 else 1
        started = time.process_time()
        while time.process_time() - started < 0.002 * slow:
            pass
        return 1000

    started = time.process_time()
    repeats, units, fastest = fastest_rate(work, 0.03, least_repeats=7)
    mean = repeats * units / (time.process_time() - started)
    assert repeats == len(calls) >= 7 and units == 1000
    assert fastest >= 1.5 * mean  # a third of the repeats took three times as long
    assert fastest <= 1000 / 0.002 * 1.01  # never faster than the fastest repeat really ran


def test_rollout_rates_gives_the_mean_over_fresh_seeds_and_the_fastest_same_seed_repeat():
    from sim.bench_timing import FASTEST_BATCH, rollout_rates
    seen = []

    def rollouts(seed, n):  # 10 actions a rollout, a few microseconds each
        seen.append((seed, n))
        started = time.process_time()
        while time.process_time() - started < 2e-6 * n:
            pass
        return 10 * n

    row = rollout_rates(rollouts, 2024, 0.01)
    assert row["actions"] == 10 * row["rollouts"] > 0 and row["actions_per_s"] > 0
    assert row["fastest_batch_rollouts"] == FASTEST_BATCH and row["fastest_batch_actions"] == 10 * FASTEST_BATCH
    repeats = [call for call in seen if call == (2024, FASTEST_BATCH)]
    assert len(repeats) >= row["fastest_repeats"] >= 5  # the same seed every repeat: identical work
    assert len({seed for seed, _ in seen[:3]}) == 3  # the mean's batches start at ever new matches
    assert row["fastest_actions_per_s"] > 0
