"""The sweep runner: exact sums, identical results for any jobs/backend, precision rounds, replay."""

import dataclasses
import json

import numpy as np
import pandas as pd
import pytest

from sim import aggregate as agg
from sim.sweep import locate_match, runfolder
from analysis.stats import half_width as wilson_half_width
from sim.sweep.grid import build_plan, parse_sweep
from sim.cli import main
from sim.errors import CardbalanceError
from sim.sweep.runner import check_dask_workers, chunk_sizes, next_target, run_sweep
from sim.sweep.seeds import chunk_seed

SPEC = {"game": "toy", "pairings": ["red_vs_red", "red_vs_blue"], "life": [6, 15], "life_pairs": [[5, 12]],
        "strategies": ["greedy:greedy", "random:cautious"], "rules": ["default", "short"],
        "matches": 2500, "chunk_size": 1000, "seed": 11}


def _run(tmp_path, name, spec=SPEC, **options):
    plan = build_plan(parse_sweep(spec))
    run_dir = tmp_path / name
    runfolder.create_run_folder(run_dir, runfolder.build_meta(plan, options.get("backend", "loky"), options.get("jobs", 1)))
    run_sweep(plan, run_dir, progress="quiet", **options)
    return plan, run_dir


def _tables(run_dir):
    return pd.read_parquet(run_dir / "results.parquet"), pd.read_parquet(run_dir / "lengths.parquet")


def test_results_are_the_exact_sums_of_the_documented_chunk_seeds(tmp_path, toy_game):
    plan, run_dir = _run(tmp_path, "run", jobs=1)
    results, lengths = _tables(run_dir)
    n_end, n_counters = len(toy_game.end_types), len(toy_game.counter_names)
    hist = agg.hist_slot(n_end, n_counters)
    for cell in plan.cells:
        expected = sum(toy_game.play_batch(plan.rules_array(cell), plan.cell_array(cell), chunk_seed(11, cell.cell, k), 0, n)
                       for k, n in enumerate(chunk_sizes(2500, 1000)))
        row = results.iloc[cell.cell]
        assert row["matches"] == 2500 and row["chunks"] == 3
        assert row[runfolder.aggregate_columns(toy_game)].to_numpy(dtype=np.int64).tolist() == expected[:hist].tolist()
        cell_lengths = lengths[lengths["cell"] == cell.cell]
        histogram = np.zeros(toy_game.length_bins, dtype=np.int64)
        histogram[cell_lengths["turns"].to_numpy()] = cell_lengths["count"].to_numpy()
        assert histogram.tolist() == expected[hist:].tolist()
        # outcome shares add up to all matches
        assert sum(row["%s_%s" % (o, e)] for o in ("seat0", "seat1", "draw") for e in toy_game.end_types) == 2500
    meta = runfolder.load_meta(run_dir)
    assert meta["complete"] and meta["counts"]["matches"] == 2500 * len(plan.cells)
    assert meta["rules"]["short"]["differences"] == {"turn_cap": 12}
    assert meta["cells"][3] == plan.cells[3].as_dict()
    for key in ("seed", "package_version", "git_commit", "machine", "timings", "strategies", "behaviour_version"):
        assert key in meta


def _broken_play_batch(*args):
    raise ValueError("no kernel here")


def test_jobs_one_jobs_two_and_dask_give_bit_identical_results(tmp_path, toy_game):
    from distributed import Client, LocalCluster

    _, one = _run(tmp_path, "one", jobs=1)
    _, two = _run(tmp_path, "two", jobs=2)
    # processes=True: the workers are separate processes that unpickle the game's kernel wrapper
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        # the command line, as a user would point it at a cluster
        (tmp_path / "grid.toml").write_text("\n".join("%s = %s" % (key, json.dumps(value)) for key, value in SPEC.items()))
        assert main(["sweep", str(tmp_path / "grid.toml"), "--out", str(tmp_path / "cli-dask"), "--quiet", "--no-report",
                     "--backend", "dask", "--scheduler", cluster.scheduler_address]) == 0
        with Client(cluster.scheduler_address) as client:
            _dask_library_run(tmp_path, client, toy_game)
    on_dask, cli_dask = tmp_path / "dask", tmp_path / "cli-dask"
    for other in (two, on_dask, cli_dask):
        for mine, theirs in zip(_tables(one), _tables(other)):
            pd.testing.assert_frame_equal(mine, theirs, check_exact=True)
        for chunk in (one / "chunks").iterdir():
            assert np.array_equal(np.load(chunk), np.load(other / "chunks" / chunk.name))


def _dask_library_run(tmp_path, client, toy_game):
    """The library on an active client: the probe match, then the sweep."""
    plan = build_plan(parse_sweep(SPEC))
    check_dask_workers(client, plan)  # the workers can play the game: no error
    broken = build_plan(parse_sweep(SPEC), dataclasses.replace(toy_game, play_batch=_broken_play_batch))
    with pytest.raises(CardbalanceError, match="could not play a probe match .*ValueError: no kernel here"):
        check_dask_workers(client, broken)
    _run(tmp_path, "dask", jobs=-1, backend="dask")


def test_precision_rounds_stop_at_the_target_or_at_max_matches(tmp_path, toy_game):
    spec = {**SPEC, "pairings": ["red_vs_red"], "life": [8], "life_pairs": [[3, 40]], "strategies": ["greedy:greedy"],
            "rules": ["default"], "matches": None, "precision": 0.02, "max_matches": 6000, "chunk_size": 500}
    spec = {k: v for k, v in spec.items() if v is not None}
    plan, run_dir = _run(tmp_path, "precise", spec=spec, jobs=1)
    results, _ = _tables(run_dir)
    for row in results.itertuples():
        wins = [sum(getattr(row, "%s_%s" % (seat, end)) for end in toy_game.end_types) for seat in ("seat0", "seat1")]
        width = max(wilson_half_width(w, row.matches) for w in wins)
        assert row.matches % 500 == 0 and row.matches <= 6000
        assert width <= 0.02 or row.matches == 6000
    # the 3-vs-40 cell is one-sided: it reaches ±0.02 far sooner than the even 8-vs-8 cells
    even, lopsided = results[results.life0 == 8], results[results.life0 == 3]
    assert (lopsided.matches == 500).all() and (even.matches > 500).all()
    # rerunning gives the same numbers of matches (decisions depend only on finished totals)
    _, again = _run(tmp_path, "precise-again", spec=spec, jobs=2)
    pd.testing.assert_frame_equal(results, _tables(again)[0])


def test_next_target_grows_by_whole_chunks_and_respects_max(toy_game):
    vector = agg.empty_aggregate(3, 3, toy_game.length_bins)
    vector[agg.A_MATCHES], vector[agg.A_OUTCOMES] = 1000, 500  # 50 % seat-0 wins, ±0.031
    assert next_target(vector, 1000, 0.05, 10**6, 1000, 3) == 1000          # precise enough
    assert next_target(vector, 1000, 0.01, 10**6, 1000, 3) == 4000          # at most 4x per round
    assert next_target(vector, 1000, 0.01, 2500, 1000, 3) == 2500           # capped at max_matches
    assert next_target(vector, 1000, 0.028, 10**6, 300, 3) % 300 == 0


def test_any_match_replays_from_run_cell_and_number(tmp_path, toy_game):
    spec = {**SPEC, "pairings": ["red_vs_blue"], "life": [9], "life_pairs": [], "strategies": ["random:cautious"],
            "rules": ["short"], "matches": 250, "chunk_size": 100}
    plan, run_dir = _run(tmp_path, "replay", spec=spec, jobs=1)
    results, _ = _tables(run_dir)
    reference = toy_game.reference_play_match
    n_end, n_counters = len(toy_game.end_types), len(toy_game.counter_names)
    for cell in (0, 1):
        total = agg.empty_aggregate(n_end, n_counters, toy_game.length_bins)
        for match in range(250):
            game, rules, cell_array, seed = locate_match(run_dir, cell, match)
            agg.accumulate(total, reference(rules, cell_array, seed), n_end, n_counters, toy_game.length_bins)
        # the plain-Python twin, replaying each match from its coordinates, adds up to the stored row
        assert total[:agg.hist_slot(n_end, n_counters)].tolist() == \
            results.iloc[cell][runfolder.aggregate_columns(toy_game)].to_numpy(dtype=np.int64).tolist()
    assert game.replay_log(rules, cell_array, seed)[0].startswith("Dice Duel")
    with pytest.raises(CardbalanceError, match="--match must be a match number from 0 to 249"):
        locate_match(run_dir, 0, 250)
    with pytest.raises(CardbalanceError, match="--cell must be a cell number from 0 to 1"):
        locate_match(run_dir, 2, 0)
    with pytest.raises(CardbalanceError, match="is not a run folder"):
        locate_match(tmp_path, 0, 0)


def test_resume_refuses_changed_rules_and_redoes_nothing_on_a_finished_run(tmp_path, toy_game):
    (tmp_path / "mine.toml").write_text("die_sides = 8\n")
    spec = {**SPEC, "pairings": ["red_vs_red"], "life": [7], "life_pairs": [], "strategies": ["greedy:greedy"],
            "rules": [str(tmp_path / "mine.toml")], "matches": 300, "chunk_size": 100}
    plan, run_dir = _run(tmp_path, "done", spec=spec, jobs=1)
    before = _tables(run_dir)[0]
    # resuming a finished run plays nothing and gives the same table
    again = run_sweep(runfolder.plan_from_meta(runfolder.load_meta(run_dir), run_dir), run_dir,
                      jobs=1, progress="quiet", resume=True)
    assert again.chunks_played == 0 and again.chunks_resumed == 6
    pd.testing.assert_frame_equal(before, _tables(run_dir)[0])
    # the run resumes from its own copy of the rules file: editing the original changes nothing ...
    (tmp_path / "mine.toml").write_text("die_sides = 9\n")
    assert runfolder.plan_from_meta(runfolder.load_meta(run_dir), run_dir).rules[str(tmp_path / "mine.toml")].die_sides == 8
    # ... and a copy that no longer matches the recorded hash is refused
    copy = run_dir / runfolder.load_meta(run_dir)["rules"][str(tmp_path / "mine.toml")]["copy"]
    assert copy.read_text() == "die_sides = 8\n"
    copy.write_text("die_sides = 9\n")
    with pytest.raises(CardbalanceError, match="changed since run .* was made"):
        runfolder.plan_from_meta(runfolder.load_meta(run_dir), run_dir)
