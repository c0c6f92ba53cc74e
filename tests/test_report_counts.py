"""Issue 38 items 1 and 2: a verdict row shows one verdict everywhere — the heatmap cell's colour and
text, the page's verdict cell, the page's counts and the terminal's (analysis/shown_verdict.py).

Synthetic runs of the toy game with known counts: an unequal-seat row whose seat 0 wins 65 % while the
mirrors' seat 0 wins 80 % (it favours seat 1's side by 15 points, as Human 60 / Alien 40 did in the
default Faction War report), one at its mirrors' share (balanced) with seat 1 winning 77 %, and
mirrors whose first player wins 70 % with seats even. Then a tiny real Faction War run: its terminal
prints the page's headline and counts (the Poker Duel and Novel TCG tests sit beside those games'
report fixtures). About 20 s, most of it the Faction War sweep and report.
"""

import contextlib
import io
import re

import pytest
from matplotlib.colors import to_rgba

import analysis
from analysis.runs import load_run
from analysis.synthetic import write_synthetic_run
from analysis.tables import all_tables
from reports.figures import SIDE_COLOURS, verdict_heatmap
from reports import build_report
from reports.html import display_tables
from sim.cli import main
from tests.report_counts import assert_terminal_opens_like_the_page, page_counts


def _both_orders(pairing, faction0, faction1, life0, life1, seat0_wins, seat1_wins, first_edge=0):
    """A cell per first player; the first player wins `first_edge` more of the seat's matches."""
    return [{"pairing": pairing, "faction0": faction0, "faction1": faction1, "life0": life0, "life1": life1,
             "first": first, "seat0_knockout": seat0_wins + (first_edge if first == 0 else -first_edge),
             "seat1_knockout": seat1_wins - (first_edge if first == 0 else -first_edge)} for first in (0, 1)]


@pytest.fixture(scope="module")
def verdicts_run(tmp_path_factory):
    cells = []
    for pairing, faction0, faction1 in (("red_vs_red", "red", "red"), ("blue_vs_blue", "blue", "blue")):
        cells += _both_orders(pairing, faction0, faction1, 20, 20, 5000, 5000, first_edge=2000)  # 1st wins 70 %
        cells += _both_orders(pairing, faction0, faction1, 30, 10, 8000, 2000)  # the handicap: seat 0 wins 80 %
        cells += _both_orders(pairing, faction0, faction1, 10, 30, 2300, 7700)
    cells += _both_orders("red_vs_blue", "red", "blue", 20, 20, 5000, 5000)
    cells += _both_orders("red_vs_blue", "red", "blue", 30, 10, 6500, 3500)  # 15 points behind its mirrors
    cells += _both_orders("red_vs_blue", "red", "blue", 10, 30, 2300, 7700)  # at its mirrors' share
    return load_run(write_synthetic_run(tmp_path_factory.mktemp("verdicts") / "run", cells))


@pytest.fixture(scope="module")
def verdict_tables(verdicts_run):
    return all_tables(verdicts_run)


def _row(tables, series, axis):
    table = tables["verdicts"]
    return table[(table["series"] == series) & (table["axis"] == axis)].iloc[0]


def _balance_cells(figure, tables) -> dict:
    """{(series, axis): (fill colour, text)} of the heatmap's balance panel (its first axes)."""
    axes = figure.axes[0]
    series = [label.get_text().replace(" (mirror)", "") for label in axes.get_yticklabels()]
    axis = [label.get_text() for label in axes.get_xticklabels()]
    fills = {(round(p.get_x() + 0.5), round(p.get_y() + 0.5)): p.get_facecolor() for p in axes.patches}
    texts = {(round(t.get_position()[0]), round(t.get_position()[1])): t.get_text() for t in axes.texts}
    return {(series[i], axis[j]): (fills[(j, i)], texts[(j, i)]) for (j, i) in fills}


def test_a_handicap_cell_is_coloured_and_labelled_by_its_difference_from_the_mirror(verdict_tables):
    row = _row(verdict_tables, "red_vs_blue", "30/10")
    # the table's claim: 65 % against the mirrors' 80 %, so blue (seat 1's side) is favoured by 15 points
    assert row["verdict"] == "imbalanced" and row["favoured"] == "blue" and row["seat0_share"] == pytest.approx(0.65)
    fill, text = _balance_cells(verdict_heatmap(verdict_tables), verdict_tables)[("red_vs_blue", "30/10")]
    # the old heatmap: seat 0's colour and "red 65%", the handicap's effect read as red's advantage
    assert fill == to_rgba(SIDE_COLOURS["seat1"])
    assert text == "blue\n+15.0 pts"


def test_a_handicap_row_balanced_against_its_mirror_is_green_without_the_raw_share(verdict_tables):
    row = _row(verdict_tables, "red_vs_blue", "10/30")
    assert row["verdict"] == "balanced" and row["seat0_share"] == pytest.approx(0.23)
    fill, text = _balance_cells(verdict_heatmap(verdict_tables), verdict_tables)[("red_vs_blue", "10/30")]
    assert fill == to_rgba(SIDE_COLOURS["balanced"])
    assert text.endswith("+0.0 pts") and "77%" not in text  # the old cell: green "blue 77%"


def test_a_mirror_cell_shows_its_first_player_in_the_heatmap_and_the_table(verdict_tables):
    row = _row(verdict_tables, "red_vs_red", "20")
    assert row["verdict"] == "balanced" and row["first_player_verdict"] == "imbalanced"  # set-up fine, 1st wins 70 %
    fill, text = _balance_cells(verdict_heatmap(verdict_tables), verdict_tables)[("red_vs_red", "20")]
    assert fill == to_rgba(SIDE_COLOURS["first"]) and text == "1st\n70%"  # the old cell: green "seat 0 50%"
    table = display_tables(verdict_tables)["verdicts"]
    cell = {(r[0][0], r[1][0]): r[5] for r in table.rows}
    words, css = cell[("red_vs_red", "20")]
    assert css == "verdict-first"  # the old cell: verdict-balanced (the set-up check's colour)
    assert words.startswith("mirror — first player imbalanced — the first player wins 70.0 %")
    assert "set-up check, seat 0 vs seat 1: balanced" in words
    words, css = cell[("red_vs_blue", "30/10")]
    assert css == "verdict-seat1" and "favours blue" in words and "-15.0 pts" in words


def test_the_terminal_prints_the_pages_counts_and_no_set_up_check_as_a_balance_verdict(verdicts_run, verdict_tables,
                                                                                       tmp_path):
    text = analysis.summary_text(verdicts_run, run_tables=verdict_tables)
    page = page_counts(build_report(verdicts_run.path, out=tmp_path / "report", csv=False).read_text(encoding="utf-8"))
    # 3 non-mirror rows: 20 balanced, 10/30 balanced, 30/10 imbalanced; 6 mirror rows are not balance verdicts
    assert page[0] == "Balance (3 non-mirror rows): 1 imbalanced, 2 balanced, 0 undecided."
    assert page[1].startswith("First player (9 rows, mirrors included): 2 favour the first player")
    for line in page:
        assert line in text.splitlines()
    # the old line counted the mirrors' set-up checks: "7 balanced, 0 undecided, 2 imbalanced of 9."
    assert not re.search(r"\d+ balanced, \d+ undecided, \d+ imbalanced", text)


FW_SWEEP = """
game = "faction_war"
pairings = ["human_vs_human", "human_vs_alien", "alien_vs_alien"]
life = [30]
life_pairs = [[30, 40]]
strategies = ["greedy:greedy"]
matches = 60
chunk_size = 60
seed = 3
"""


def test_faction_war_terminal_prints_the_pages_headline_and_counts(tmp_path):
    (tmp_path / "fw.toml").write_text(FW_SWEEP)
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["sweep", str(tmp_path / "fw.toml"), "--out", str(tmp_path / "run"), "--jobs", "1",
                     "--quiet", "--no-report"]) == 0
    counts = assert_terminal_opens_like_the_page(tmp_path / "run", tmp_path / "report")
    assert counts[0].startswith("Balance (2 non-mirror rows): ")  # human_vs_alien at 30 and 30/40


def test_a_mirror_whose_seat_0_wins_is_marked_as_a_failed_set_up_check(tmp_path):
    from reports.figures import SET_UP_NOTE
    cells = _both_orders("red_vs_red", "red", "red", 20, 20, 6000, 4000)  # seat 0 wins 60 %: a broken set-up
    cells += _both_orders("red_vs_blue", "red", "blue", 20, 20, 5000, 5000)
    run_tables = all_tables(load_run(write_synthetic_run(tmp_path / "run", cells)))
    assert _row(run_tables, "red_vs_red", "20")["verdict"] == "imbalanced"
    figure = verdict_heatmap(run_tables)
    fill, text = _balance_cells(figure, run_tables)[("red_vs_red", "20")]
    assert fill == to_rgba(SIDE_COLOURS["balanced"]) and text == "1st\n50% †"  # the first player: balanced
    assert SET_UP_NOTE in [entry.get_text() for entry in figure.legends[0].get_texts()]
    words, css = {(r[0][0], r[1][0]): r[5] for r in display_tables(run_tables)["verdicts"].rows}[("red_vs_red", "20")]
    assert css == "verdict-balanced" and "(† set-up check, seat 0 vs seat 1: imbalanced — favours seat 0;" in words
    assert "Set-up check: 1 mirror row(s) with equal seats favour a seat: check the set-up." in \
        analysis.summary_text(tmp_path / "run", run_tables=run_tables)
