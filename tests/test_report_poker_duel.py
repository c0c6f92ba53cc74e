"""Poker Duel's own report sections (§17's questions, sim/poker_duel/report_sections.py)
and the run records they read (the turns of each end type per seat, end_lengths.parquet),
on a small real sweep with rule values varied."""

import numpy as np
import pandas as pd
import pytest

import analysis
from analysis.game_sections import game_sections, one_key_pairs
from analysis.runs import load_run
from analysis import tables as analysis_tables
from reports import build_report
from sim import aggregate as agg
from sim.poker_duel.report_sections import LOW_CONFIDENCE
from sim.sweep import runfolder
from sim.sweep.grid import build_plan, parse_sweep
from sim.sweep.runner import run_sweep

SPEC = {"name": "pd-small", "game": "poker_duel", "hp": [40], "hp_pairs": [[30, 50]], "strategies": ["greedy:greedy"],
        "rules": ["core", "advanced"], "matches": 80, "chunk_size": 40, "seed": 4, "common_deals": True,
        "vary": {"club_multiplier": [2, 3], "D-AMB-42": ["both_destroyed", "nothing"]}}


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    plan = build_plan(parse_sweep(SPEC))
    path = tmp_path_factory.mktemp("pd") / "run"
    runfolder.create_run_folder(path, runfolder.build_meta(plan, "loky", 1))
    run_sweep(plan, path, jobs=1, progress="quiet")
    return path


def test_accumulate_fills_the_end_turn_block_only_when_the_vector_has_it():
    record = np.zeros(agg.REC_COUNTERS + 1, dtype=np.int64)
    record[[agg.REC_WINNER, agg.REC_END_TYPE, agg.REC_TURNS, agg.REC_FIRST]] = (1, 2, 7, 0)
    base = agg.empty_aggregate(3, 1, 10)
    full = agg.empty_aggregate(3, 1, 10, by_end=True)
    agg.accumulate(base, record, 3, 1, 10)
    agg.accumulate(full, record, 3, 1, 10)
    assert base.shape[0] == agg.agg_size(3, 1, 10)  # a vector without the block (Faction War's) is unchanged
    assert np.array_equal(full[:base.shape[0]], base)
    block = full[base.shape[0]:].reshape(3, 3, 10)
    assert block[1, 2, 7] == 1 and block.sum() == 1  # seat 1 won, end type 2, at turn 7


def test_end_lengths_add_up_to_the_outcome_counts_of_every_cell(run_dir):
    run = load_run(run_dir)
    assert run.end_lengths is not None and len(run.end_lengths)
    sums = run.end_lengths.groupby(["cell", "outcome", "end_type"])["count"].sum()
    for _, row in run.results.iterrows():
        for outcome, prefix in enumerate(("seat0", "seat1", "draw")):
            for end in run.end_types:
                assert sums.get((row["cell"], outcome, end), 0) == row["%s_%s" % (prefix, end)]
    # and the turns: their sum per cell is the cell's turns_sum
    turns = (run.end_lengths["turns"] * run.end_lengths["count"]).groupby(run.end_lengths["cell"]).sum()
    assert turns.to_dict() == run.results.set_index("cell")["turns_sum"].to_dict()


def test_the_game_declares_every_section_of_its_balance_questions(run_dir):
    run = load_run(run_dir)
    sections = {s.id: s for s in game_sections(run, analysis_tables.all_tables(run))}
    assert list(sections) == ["pd_first_player", "pd_endings", "pd_straight_flush", "pd_club", "pd_sensitivity"]
    assert all(s.lines for s in sections.values())


def test_straight_flush_counts_are_the_runs_own(run_dir):
    run = load_run(run_dir)
    table = {s.id: s for s in game_sections(run, analysis_tables.all_tables(run))}["pd_straight_flush"].table
    assert set(table["rules"]) == {r for r in run.results["rules"] if r.startswith("advanced")}  # core plays none
    results = run.results
    name = "advanced+club_multiplier=2+D-AMB-42=both_destroyed"
    cells = results[(results["rules"] == name) & (results["hp0"] == 40)]
    wins = int(cells["seat0_straight_flush"].sum() + cells["seat1_straight_flush"].sum())
    row = table[(table["rules"] == name) & (table["starting HP"] == "40")].iloc[0]
    assert row["matches"] == 160 and row["straight-flush wins [95% CI]"].startswith("%.1f%%" % (100 * wins / 160))


def test_an_inert_value_on_common_deals_has_exactly_no_effect(run_dir):
    # the club rule belongs to the advanced module: core variants play the very same matches
    run = load_run(run_dir)
    results = run.results.set_index(["hp0", "hp1", "first", "rules"])
    for changes in ("D-AMB-42=both_destroyed", "D-AMB-42=nothing"):
        two = results.xs("core+club_multiplier=2+" + changes, level="rules")
        three = results.xs("core+club_multiplier=3+" + changes, level="rules")
        assert two.drop(columns="cell").equals(three.drop(columns="cell"))
    club = {s.id: s for s in game_sections(run, analysis_tables.all_tables(run))}["pd_club"].table
    core = club[club["on"] == "core"].iloc[0]
    assert core["Δ first-player share"].startswith("+0.0 ") and core["changes outcomes"] == "not shown"
    assert core["rule-set pairs"] == 2  # both D-AMB-42 readings, pooled


def test_the_sensitivity_table_names_every_low_confidence_switch(run_dir):
    run = load_run(run_dir)
    table = {s.id: s for s in game_sections(run, analysis_tables.all_tables(run))}["pd_sensitivity"].table
    named = " ".join(table["switch"])
    assert all(key in named for key in LOW_CONFIDENCE)
    varied = table[table["change"] != "not varied in this run"]
    assert set(varied["switch"].str.split().str[0]) == {"club_multiplier", "D-AMB-42"}
    assert set(varied["on"]) == {"core", "advanced"} and set(varied["changes outcomes"]) <= {"yes", "not shown"}
    not_varied = table[table["switch"].str.startswith("D-AMB-24")].iloc[0]
    assert not_varied["change"] == "not varied in this run" and "[vary] D-AMB-24" in not_varied["Δ first-player share"]


def test_one_key_pairs_finds_the_rules_that_differ_in_that_key_only(run_dir):
    meta = runfolder.load_meta(run_dir)
    pairs = one_key_pairs(meta, "club_multiplier", 2)
    assert len(pairs) == 4 and all(a.replace("club_multiplier=2", "club_multiplier=3") == b and (va, vb) == (2, 3)
                                   for a, b, va, vb in pairs)
    assert one_key_pairs(meta, "advanced_rules", False)  # core vs advanced: the preset's own switch
    assert not one_key_pairs(meta, "D-AMB-38")


def test_report_page_and_summary_show_the_sections(run_dir, tmp_path):
    page = build_report(run_dir, out=tmp_path / "report").read_text(encoding="utf-8")
    # one first-player section: the shared one (its figure keeps handicaps off the equal-HP line)
    assert page.count('<section id="first_player_advantage">') == 1 and 'id="pd_first_player"' not in page
    for title in ("How matches end, by seat order and turn",
                  "Straight flush: how often", "The club multiplier", "Sensitivity to the low-confidence switches"):
        assert title in page
    assert "advanced+club_multiplier=3+D-AMB-42=nothing" in page  # the variant labels every table
    assert (tmp_path / "report" / "tables" / "pd_sensitivity.csv").is_file()
    text = analysis.summary_text(run_dir)
    assert "Low-confidence switches (§17 Q11): 2 of 8 varied in this run." in text
    assert "How matches end, core (all HP):" in text and "Straight flush, advanced (all HP):" in text


def test_the_terminal_prints_the_pages_headline_and_counts(run_dir, tmp_path):
    # issue 38: the terminal counted the mirrors' set-up checks ("11 balanced" beside the page's counts)
    from tests.report_counts import assert_terminal_opens_like_the_page
    assert_terminal_opens_like_the_page(run_dir, tmp_path / "report")
