"""Issue 25, part 4: any number of per-seat dimensions, a per-seat choice and a derived axis,
and nothing summed across a dimension silently.

"toy_ranks" (tests/toygame.py) declares a colour per seat (a per-seat choice), starting hp
per seat and a rank per seat (two per-seat dimensions) and the rank gap (derived). A sweep
over all of them must keep every combination apart in the results, in every analysis table
(first player pooled, nothing else) and in the report, and write the derived axis beside
the dimensions' columns.
"""

import json

import pandas as pd
import pytest

import toygame  # noqa: F401  (registers toy_ranks)
from analysis import load_run
from analysis.dimensions import add_roles, labels
from analysis.tables import all_tables
from sim.cli import main
from sim.errors import CardbalanceError
from sim.registry import get_game, per_seat_choice_values

MATCHES = 100
COLOURS, HPS, RANKS = ["red", "red/blue"], [(10, 10), (10, 14)], [(0, 0), (2, 2), (0, 2)]


@pytest.fixture(scope="module")
def ranks_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ranks")
    sweep = folder / "ranks.toml"
    sweep.write_text('game = "toy_ranks"\ncolour = ["red", "red/blue"]\nhp = [10]\nhp_pairs = [[10, 14]]\n'
                     'rank = [0, 2]\nrank_pairs = [[0, 2]]\nstrategies = ["greedy:cautious"]\n'
                     'matches = %d\nchunk_size = 50\nseed = 3\n' % MATCHES)
    run = folder / "run"
    assert main(["sweep", str(sweep), "--out", str(run), "--jobs", "1", "--quiet"]) == 0
    return run


def test_a_per_seat_choice_is_a_choice_over_the_seat_pairs():
    colour = get_game("toy_ranks").dimension("colour")
    assert colour.values == per_seat_choice_values(("red", "blue")) == ("red", "red/blue", "blue/red", "blue")
    assert colour.cell_columns("red/blue") == {"colour": "red/blue", "colour0": "red", "colour1": "blue"}
    assert colour.cell_columns("blue") == {"colour": "blue", "colour0": "blue", "colour1": "blue"}
    with pytest.raises(CardbalanceError, match="known colours: red, red/blue, blue/red, blue"):
        colour.check("green")
    cell = get_game("toy_ranks").cell_array({"colour": "red/blue", "hp": (10, 14), "rank": (0, 2), "first": 1}, 0, 0)
    assert cell.tolist()[:5] == [0, 3, 10, 14, 1]  # seat 1: blue (+1 side) and rank 2 (+2 sides)


def test_every_combination_is_a_cell_with_both_per_seat_dimensions_and_the_derived_axis(ranks_run):
    meta = json.loads((ranks_run / "meta.json").read_text())
    assert meta["cell_columns"] == ["cell", "colour", "colour0", "colour1", "hp0", "hp1", "rank0", "rank1", "first",
                                    "rank_gap", "strategy0", "strategy1", "rules"]
    assert meta["derived_axes"] == [{"name": "rank_gap", "of": "rank", "description": "rank gap (seat 1 - seat 0)",
                                     "op": "difference"}]
    results = pd.read_parquet(ranks_run / "results.parquet")
    assert len(results) == len(COLOURS) * len(HPS) * len(RANKS) * 2 and (results["matches"] == MATCHES).all()
    assert (results["rank_gap"] == results["rank1"] - results["rank0"]).all()
    assert set(results["rank_gap"]) == {0, 2}


def test_no_table_sums_across_a_dimension(ranks_run):
    run = load_run(ranks_run)
    roles = add_roles(run.results, run.dimensions)
    # the axis is the first per-seat dimension (hp); the second (rank) is part of the series
    assert set(roles["series"]) == {"%s rank %s" % (c, r) for c in COLOURS for r in ("0", "2", "0/2")}
    assert labels(run.dimensions)["series"] == "colour rank" and labels(run.dimensions)["axis"] == "hp"
    assert set(zip(roles["seat0_name"], roles["seat1_name"])) == {("red", "red"), ("red", "blue")}
    verdicts = all_tables(run)["verdicts"]
    # one row per (colour, hp, rank): only the first player is pooled, 2 x MATCHES each
    assert len(verdicts) == len(COLOURS) * len(HPS) * len(RANKS)
    assert (verdicts["matches"] == 2 * MATCHES).all()
    assert not verdicts.duplicated(["series", "axis"]).any()
    # the derived axis groups the results by itself (here: gap 2 = the [0, 2] rank pairs)
    by_gap = run.results.groupby("rank_gap")["matches"].sum().to_dict()
    assert by_gap == {0: 2 * 2 * 2 * 2 * MATCHES, 2: 2 * 2 * 2 * MATCHES}


def test_the_report_renders_both_per_seat_dimensions(ranks_run):
    html = (ranks_run / "report" / "report.html").read_text()
    assert "rank 0/2" in html and "10/14" in html and "red/blue" in html
