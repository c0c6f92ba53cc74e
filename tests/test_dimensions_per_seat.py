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


# ---- the derived axis as the x axis of a figure (reports/figures.py:win_rates_vs_derived) ----------------

@pytest.fixture(scope="module")
def gap_run(tmp_path_factory):
    """Two rules presets and three rank pairs with gaps 0, 1, 2 (gap 2 from two pairs): the lines must
    keep the presets apart and pool the pairs of one gap."""
    folder = tmp_path_factory.mktemp("gaps")
    sweep = folder / "gaps.toml"
    sweep.write_text('game = "toy_ranks"\ncolour = ["red"]\nhp = [10]\nrank = [0]\n'
                     'rank_pairs = [[0, 1], [0, 2], [1, 3]]\nstrategies = ["greedy:cautious"]\n'
                     'rules = ["default", "big-die"]\nmatches = %d\nchunk_size = 50\nseed = 5\n' % MATCHES)
    run = folder / "run"
    assert main(["sweep", str(sweep), "--out", str(run), "--jobs", "1", "--quiet"]) == 0
    return run


def test_the_derived_table_pools_the_pairs_of_one_gap_and_keeps_rules_apart(gap_run):
    from analysis.tables import DERIVED_TABLE
    table = all_tables(load_run(gap_run))[DERIVED_TABLE]
    assert set(table["derived_axis"]) == {"rank_gap"} and set(table["rules"]) == {"default", "big-die"}
    assert set(table["line"]) == {"red hp 10"}  # colour and hp kept, rank (the gap's dimension) pooled
    matches = table.set_index(["rules", "value"])["matches"].to_dict()
    # per rules value: gap 0 from [0, 0], gap 1 from [0, 1], gap 2 from [0, 2] and [1, 3]; both first players
    assert matches == {(rules, gap): pairs * 2 * MATCHES for rules in ("default", "big-die")
                       for gap, pairs in ((0, 1), (1, 1), (2, 2))}
    assert ((table["seat1_win_rate_low"] <= table["seat1_win_rate"])
            & (table["seat1_win_rate"] <= table["seat1_win_rate_high"])).all()


def test_every_line_of_the_derived_figure_holds_one_rules_value(gap_run):
    from analysis.tables import DERIVED_TABLE
    from reports.figures import win_rates_vs_derived
    tables = all_tables(load_run(gap_run))
    table = tables[DERIVED_TABLE]
    owner = {(int(row["value"]), round(float(row["seat1_win_rate"]), 9)): row["rules"] for _, row in table.iterrows()}
    figure = win_rates_vs_derived(tables)
    lines = [line for axes in figure.axes for line in axes.get_lines() if not line.get_label().startswith("_")]
    assert len(lines) == 2, [line.get_label() for line in lines]  # one per rules value
    for line in lines:
        presets = {owner[(int(x), round(float(y), 9))] for x, y in zip(line.get_xdata(), line.get_ydata())}
        assert len(presets) == 1, "line %r joins the presets %s" % (line.get_label(), sorted(presets))
        assert list(line.get_xdata()) == [0, 1, 2], line.get_label()  # the gap in order, each once
        assert line.get_label().endswith(presets.pop())
    assert figure.axes[0].get_xlabel() == "rank gap (seat 1 - seat 0)"


def test_the_report_draws_the_derived_axis_only_where_the_game_declares_one(gap_run, ranks_run):
    from reports.figures import DERIVED_FIGURE, build_figures
    html = (gap_run / "report" / "report.html").read_text()
    assert (gap_run / "report" / (DERIVED_FIGURE + ".png")).is_file() and 'id="%s"' % DERIVED_FIGURE in html
    assert (ranks_run / "report" / (DERIVED_FIGURE + ".png")).is_file()
    other = build_figures(all_tables(load_run(gap_run)))
    assert DERIVED_FIGURE in other
    toy = {name: table.copy() for name, table in all_tables(load_run(gap_run)).items() if name != "derived_win_rates"}
    assert DERIVED_FIGURE not in build_figures(toy)  # a run without derived axes: no such figure
