"""Tables from hand-written run folders (analysis.synthetic): exact known counts give exact rates."""

import json
import math

import numpy as np
import pandas as pd
import pytest

import analysis
from analysis import tables
from analysis.runs import load_run
from analysis.synthetic import write_synthetic_run
from sim.errors import CardbalanceError

MIRROR = dict(pairing="red_vs_red", faction0="red", faction1="red")
CROSS = dict(pairing="red_vs_blue", faction0="red", faction1="blue")


def swapped_seat_mirror(first_wins: int, second_wins: int, life: int = 20, **extra):
    """A mirror pairing played both ways: the first player wins `first_wins`, the other `second_wins`."""
    return [dict(MIRROR, life0=life, life1=life, first=0, seat0_knockout=first_wins, seat1_knockout=second_wins, **extra),
            dict(MIRROR, life0=life, life1=life, first=1, seat0_knockout=second_wins, seat1_knockout=first_wins, **extra)]


def test_mirror_with_swapped_seats_is_exactly_half_and_first_player_advantage_is_exact(tmp_path):
    run = load_run(write_synthetic_run(tmp_path / "run", swapped_seat_mirror(600, 400)))
    verdict = tables.verdicts(run).iloc[0]
    assert verdict["seat0_share"] == 0.5
    assert verdict["seat0_share_low"] < 0.5 < verdict["seat0_share_high"]
    advantage = tables.first_player_advantage(run).iloc[0]
    assert advantage["first_player_wins"] == 1200 and advantage["decisive"] == 2000
    assert advantage["advantage"] == pytest.approx(0.1)
    assert advantage["advantage_low"] < 0.1 < advantage["advantage_high"]
    assert verdict["first_player_verdict"] == "imbalanced"


def test_rigged_cell_gives_exactly_one_and_imbalanced_towards_that_faction(tmp_path):
    cells = [dict(CROSS, first=0, seat0_knockout=300), dict(CROSS, first=1, seat0_exact=300)]
    run = load_run(write_synthetic_run(tmp_path / "run", cells))
    verdict = tables.verdicts(run).iloc[0]
    assert verdict["seat0_share"] == 1.0 and verdict["seat0_share_high"] == 1.0
    assert verdict["verdict"] == "imbalanced" and verdict["favoured"] == "red"
    win = tables.win_rates(run).iloc[0]
    assert (win["seat0_win_rate"], win["seat1_win_rate"], win["draw_rate"]) == (1.0, 0.0, 0.0)
    special = tables.special_victories(run)
    red = special[special["seat"] == 0].iloc[0]
    assert red["end_type"] == "exact" and red["count"] == 300 and red["rate"] == 0.5
    assert special[special["seat"] == 1]["count"].tolist() == [0]


def test_draws_are_shown_and_only_draws_is_undecided(tmp_path):
    cells = [dict(CROSS, first=0, draw_turn_cap=50), dict(CROSS, first=1, draw_turn_cap=50)]
    run = load_run(write_synthetic_run(tmp_path / "run", cells))
    verdict = tables.verdicts(run).iloc[0]
    assert verdict["decisive"] == 0 and math.isnan(verdict["seat0_share"])
    assert verdict["verdict"] == "undecided" and verdict["first_player_verdict"] == "undecided"
    assert verdict["draw_rate"] == 1.0
    win = tables.win_rates(run).iloc[0]
    assert win["draws"] == 100 and win["draw_rate"] == 1.0


def test_zero_match_cells_do_not_break_tables(tmp_path):
    run = load_run(write_synthetic_run(tmp_path / "run", [dict(CROSS, first=0), dict(CROSS, first=1)], complete=False))
    assert not run.complete
    every = tables.all_tables(run)
    assert set(every) == set(tables.TABLES)
    assert every["verdicts"]["verdict"].tolist() == ["undecided"]
    assert every["length_histogram"].empty


def test_shares_add_up_and_win_types_partition_matches(tmp_path):
    cells = [dict(CROSS, life0=life, life1=life, first=first, seat0_knockout=100 + life, seat0_exact=7,
                  seat1_knockout=90, seat1_exact=3 * first, draw_turn_cap=5)
             for life in (10, 20) for first in (0, 1)]
    run = load_run(write_synthetic_run(tmp_path / "run", cells))
    win = tables.win_rates(run)
    np.testing.assert_allclose(win["seat0_win_rate"] + win["seat1_win_rate"] + win["draw_rate"], 1.0)
    types = tables.win_types(run)
    np.testing.assert_allclose(types.groupby(["axis0"])["rate"].sum(), 1.0)
    assert types.groupby("axis0")["count"].sum().tolist() == win["matches"].tolist()
    assert (types["rate_low"] <= types["rate"]).all() and (types["rate"] <= types["rate_high"]).all()


def test_pooling_is_per_life_and_pairing_and_keeps_first_orders_apart_in_cells(tmp_path):
    cells = swapped_seat_mirror(60, 40, life=10) + swapped_seat_mirror(70, 30, life=30) + [
        dict(CROSS, life0=10, life1=30, first=0, seat0_knockout=10, seat1_knockout=90),
        dict(CROSS, life0=10, life1=30, first=1, seat0_knockout=20, seat1_knockout=80)]
    run = load_run(write_synthetic_run(tmp_path / "run", cells))
    advantage = tables.first_player_advantage(run)
    assert advantage["axis"].tolist() == ["10", "30", "10/30"]
    assert advantage["advantage"].round(6).tolist() == [0.1, 0.2, pytest.approx((10 + 80) / 200 - 0.5)]
    assert tables.cells(run)["first"].tolist() == [0, 1, 0, 1, 0, 1]
    assert tables.win_rates(run)["first_orders"].tolist() == [2, 2, 2]


def test_match_lengths_from_sums_and_histogram(tmp_path):
    histogram = {2: 10, 4: 80, 9: 10}
    cells = [dict(CROSS, first=0, seat0_knockout=50, seat1_knockout=50, lengths=histogram)]
    run = load_run(write_synthetic_run(tmp_path / "run", cells))
    lengths = tables.match_lengths(run).iloc[0]
    assert lengths["mean_turns"] == pytest.approx((2 * 10 + 4 * 80 + 9 * 10) / 100)
    assert (lengths["p10_turns"], lengths["median_turns"], lengths["p90_turns"]) == (2, 4, 4)
    shares = tables.length_histogram(run)
    assert shares["share"].tolist() == [0.1, 0.8, 0.1]


def test_counters_per_match(tmp_path):
    cells = [dict(CROSS, first=0, seat0_knockout=40, ct_attacks=400, ct_heals=0)]
    run = load_run(write_synthetic_run(tmp_path / "run", cells))
    counters = tables.counters(run).set_index("counter")
    assert counters.loc["attacks", "per_match"] == 10.0 and counters.loc["heals", "total"] == 0


def test_verdict_depends_on_delta(tmp_path):
    # 5 200 of 10 000 decided: share 0.52, 95 % CI ≈ [0.510, 0.530].
    cells = [dict(CROSS, first=0, seat0_knockout=2600, seat1_knockout=2400),
             dict(CROSS, first=1, seat0_knockout=2600, seat1_knockout=2400)]
    run = load_run(write_synthetic_run(tmp_path / "run", cells))
    assert tables.verdicts(run, 0.05)["verdict"].tolist() == ["balanced"]
    assert tables.verdicts(run, 0.02)["verdict"].tolist() == ["undecided"]
    assert tables.verdicts(run, 0.005)["verdict"].tolist() == ["imbalanced"]


def test_csv_export_round_trips(tmp_path):
    run = load_run(write_synthetic_run(tmp_path / "run", swapped_seat_mirror(55, 45)))
    every = tables.all_tables(run)
    paths = tables.write_csv(every, tmp_path / "csv")
    assert set(paths) == set(tables.TABLES)
    for name, path in paths.items():
        assert pd.read_csv(path).shape == every[name].shape


def test_summary_text_lists_every_pairing_life_and_the_report_path(tmp_path):
    cells = swapped_seat_mirror(55, 45, life=10) + swapped_seat_mirror(55, 45, life=40)
    text = analysis.summary_text(write_synthetic_run(tmp_path / "run", cells), report_path="here/report.html")
    lines = text.splitlines()
    assert any(line.startswith("red_vs_red") and " 10 " in line for line in lines)
    assert any(line.startswith("red_vs_red") and " 40 " in line for line in lines)
    assert lines[-1] == "Report: here/report.html"
    assert "50.0%" in text and "+5.0 pts" in text  # 55 of 100 decided go to the first player


# ---- bad run folders ------------------------------------------------------------------------

def _edit_meta(path, **changes):
    meta = json.loads((path / "meta.json").read_text())
    meta.update(changes)
    (path / "meta.json").write_text(json.dumps(meta))


@pytest.mark.parametrize("breakage, message", [
    ("missing_folder", "no such directory"),
    ("no_meta", "has no meta.json"),
    ("bad_json", "not valid JSON"),
    ("other_format", "has format"),
    ("format_version", "run format version 999"),
    ("behaviour_version", "behaviour version 999"),
    ("unknown_game", "does not know"),
    ("no_results", "results.parquet is missing"),
    ("unfinished", "cardbalance sweep --resume"),
    ("missing_column", "lacks column(s) first_player_wins"),
])
def test_load_run_refuses_with_one_sentence(tmp_path, breakage, message):
    path = write_synthetic_run(tmp_path / "run", swapped_seat_mirror(5, 5))
    if breakage == "missing_folder":
        path = tmp_path / "nowhere"
    elif breakage == "no_meta":
        (path / "meta.json").unlink()
    elif breakage == "bad_json":
        (path / "meta.json").write_text("{not json")
    elif breakage == "other_format":
        _edit_meta(path, format="something-else")
    elif breakage == "format_version":
        _edit_meta(path, format_version=999)
    elif breakage == "behaviour_version":
        _edit_meta(path, behaviour_version=999)
    elif breakage == "unknown_game":
        _edit_meta(path, game="no_such_game")
    elif breakage == "no_results":
        (path / "results.parquet").unlink()
    elif breakage == "unfinished":
        (path / "results.parquet").unlink()
        _edit_meta(path, complete=False)
    elif breakage == "missing_column":
        pd.read_parquet(path / "results.parquet").drop(columns="first_player_wins").to_parquet(path / "results.parquet")
    with pytest.raises(CardbalanceError) as error:
        load_run(path)
    assert message in str(error.value)
    assert "\n" not in str(error.value)


def test_unequal_first_order_counts_do_not_tilt_the_faction_rate(tmp_path):
    # Precision rounds can give one first-player order more matches. Here the first
    # player wins 90 % either way, so the pairing is fair between the factions;
    # a plain pooled ratio would say red wins 82.7 % of decided matches.
    cells = [dict(CROSS, first=0, seat0_knockout=9000, seat1_knockout=1000),
             dict(CROSS, first=1, seat0_knockout=100, seat1_knockout=900)]
    run = load_run(write_synthetic_run(tmp_path / "run", cells))
    verdict = tables.verdicts(run).iloc[0]
    assert verdict["seat0_share"] == pytest.approx(0.5)
    assert verdict["seat0_share_low"] < 0.5 < verdict["seat0_share_high"]
    assert verdict["verdict"] != "imbalanced"
    assert verdict["first_share"] == pytest.approx(0.9) and verdict["first_player_verdict"] == "imbalanced"
    assert tables.win_rates(run).iloc[0]["seat0_wins"] == 9100  # counts stay plain sums


def test_verdict_share_excludes_draws_which_are_reported_beside_it(tmp_path):
    # Half the matches are draws; the decided ones split evenly. The documented rule
    # (analysis/verdict.py): the verdict reads wins over *decided* matches, so this is
    # balanced, while the draw rate (½) is its own column, not hidden in the share.
    cells = [dict(CROSS, first=first, seat0_knockout=5000, seat1_knockout=5000, draw_turn_cap=10_000)
             for first in (0, 1)]
    run = load_run(write_synthetic_run(tmp_path / "run", cells))
    verdict = tables.verdicts(run).iloc[0]
    assert verdict["seat0_share"] == 0.5 and verdict["verdict"] == "balanced"
    assert verdict["draw_rate"] == 0.5
    win = tables.win_rates(run).iloc[0]
    assert win["seat0_win_rate"] == 0.25 and win["draw_rate"] == 0.5
