"""Skill levels in sweeps: the `skills` notation, the skill-robust report section, the
skill handicap of mixed pairs, and `compare --skill`.

Known outcomes come from hand-written runs (analysis/synthetic.py); the toy game
plays the end-to-end sweeps (cheap agents only)."""

import json

import pandas as pd
import pytest

from analysis import skill, tables
from analysis.runs import load_run
from analysis.synthetic import write_synthetic_run
from sim.cli import main
from sim.errors import CardbalanceError
from sim.sweep.grid import parse_sweep, skill_pairs


# ---- the notation ------------------------------------------------------------------------

def test_skills_name_the_strategies_dimension_in_one_notation():
    assert skill_pairs(["greedy", "pimc-greedy:64", "pimc-greedy:64/greedy"]) == (
        "greedy:greedy", "pimc-greedy:64:pimc-greedy:64", "pimc-greedy:64:greedy")
    spec = parse_sweep({"game": "toy", "pairings": ["red_vs_blue"], "skills": ["greedy", "cautious/random"]})
    assert spec.strategies == ("greedy:greedy", "cautious:random")
    # stored as strategies, so a run's spec re-reads (resume) without the skills key
    assert "skills" not in spec.as_dict() and parse_sweep(spec.as_dict()).strategies == spec.strategies
    # old sweep files keep working
    assert parse_sweep({"game": "toy", "pairings": ["red_vs_blue"], "strategies": ["greedy:random"]}).strategies == ("greedy:random",)


@pytest.mark.parametrize("data, words", [
    ({"skills": ["greedy"], "strategies": ["greedy:greedy"]}, "give 'skills' or 'strategies', not both"),
    ({"skills": ["a/b/c"]}, "must be an agent (both seats) or 'seat0/seat1'"),
    ({"skills": ["greedy/"]}, "must be an agent (both seats) or 'seat0/seat1'"),
    ({"skills": "greedy", "common_deals": "yes"}, "'common_deals' must be true or false"),
])
def test_bad_skills_entries_are_one_clear_error(data, words):
    with pytest.raises(CardbalanceError, match=words.replace("(", r"\(").replace(")", r"\)")):
        parse_sweep({"game": "toy", "pairings": ["red_vs_blue"], **data})


@pytest.mark.parametrize("skills, words", [
    (["greedy", "nobody"], "strategy 'nobody' is unknown; known strategies"),
    (["greedy", "pimc-greedy:0"], "must be an integer from 1"),
    (["greedy", "pimc-greedy:-4/greedy"], "must be an integer from 1"),
])
def test_a_skill_level_the_game_does_not_offer_is_one_line_exit_2(tmp_path, capsys, skills, words):
    (tmp_path / "s.toml").write_text("pairings = ['human_vs_alien']\nlife = [50]\nskills = %s\nmatches = 10\n"
                                     % json.dumps(skills))
    out = tmp_path / "never"
    assert main(["sweep", str(tmp_path / "s.toml"), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and words in err, err
    assert not out.exists()


# ---- hand-written runs with known verdicts ---------------------------------------------------

def _cells(life, strategy0, strategy1, share, n, pairing=("red_vs_blue", "red", "blue")):
    """Both first-player orders, n decided matches each, seat 0 winning `share` of them."""
    wins = round(share * n)
    return [{"pairing": pairing[0], "faction0": pairing[1], "faction1": pairing[2], "life0": life, "life1": life,
             "first": first, "strategy0": strategy0, "strategy1": strategy1,
             "seat0_knockout": wins, "seat1_knockout": n - wins} for first in (0, 1)]


@pytest.fixture
def levels_run(tmp_path, toy_game):
    cells = []
    # life 10: greedy balanced, cautious Blue-favoured -> skill-dependent, drifting toward blue
    cells += _cells(10, "cautious", "cautious", 0.40, 4000) + _cells(10, "greedy", "greedy", 0.50, 4000)
    # life 20: balanced at both -> holds
    cells += _cells(20, "cautious", "cautious", 0.50, 4000) + _cells(20, "greedy", "greedy", 0.502, 4000)
    # life 30: balanced at cautious, undecided at greedy (few matches), within the intervals -> unsettled
    cells += _cells(30, "cautious", "cautious", 0.50, 4000) + _cells(30, "greedy", "greedy", 0.515, 200)
    return write_synthetic_run(tmp_path / "levels", cells)


def test_verdicts_side_by_side_with_holds_skill_dependent_and_unsettled(levels_run):
    verdicts = tables.verdicts(load_run(levels_run))
    assert set(verdicts["skill"]) == {"cautious", "greedy"}  # the label column every table carries
    order = skill.levels(verdicts)
    assert order == ["cautious", "greedy"]  # the run's order without a ladder
    robust = skill.robustness(verdicts, order).set_index("axis")
    assert robust.loc["10", "mark"] == skill.DEPENDENT
    assert robust.loc["10", "verdict@cautious"] == "imbalanced (blue)" and robust.loc["10", "verdict@greedy"] == "balanced"
    assert robust.loc["10", "drift"] == pytest.approx(0.10) and robust.loc["10", "drift_towards"] == "red"
    assert robust.loc["20", "mark"] == skill.HOLDS
    assert robust.loc["30", "mark"] == skill.UNSETTLED
    assert robust.loc["10", "strongest"] == "greedy" and robust.loc["10", "headline"] == "balanced"


def test_ladder_ratings_reorder_the_levels_and_must_rate_every_level(levels_run):
    verdicts = tables.verdicts(load_run(levels_run))
    assert skill.levels(verdicts, {"greedy": -50.0, "cautious": 80.0}) == ["greedy", "cautious"]
    robust = skill.robustness(verdicts, ["greedy", "cautious"]).set_index("axis")
    assert robust.loc["10", "drift"] == pytest.approx(-0.10) and robust.loc["10", "drift_towards"] == "blue"
    with pytest.raises(CardbalanceError, match="rates no agent cautious"):
        skill.levels(verdicts, {"greedy": 0.0})


def test_summary_and_report_headline_use_the_strongest_level_and_name_it(levels_run, tmp_path):
    import analysis
    from reports import build_report
    text = analysis.summary_text(levels_run)
    assert "At the strongest skill level, greedy:" in text
    assert "Headline verdicts use the strongest, greedy" in text
    assert "1 of 3 pairing x life verdicts hold across skill, 1 are skill-dependent, 1 undecided" in text
    assert "skill-dependent red_vs_blue at life 10: imbalanced (blue) at cautious, balanced at greedy; " \
           "seat-0 share drifts +10.0 pts toward red from cautious to greedy" in text
    page = build_report(levels_run, out=tmp_path / "report").read_text()
    assert "Does the verdict hold as skill rises?" in page and "strongest skill level, greedy" in page
    assert "skill-dependent" in page
    assert (tmp_path / "report" / "skill.png").is_file()
    robust = pd.read_csv(tmp_path / "report" / "tables" / "skill_robustness.csv")
    assert sorted(robust["mark"]) == ["holds", "skill-dependent", "undecided"]


def test_a_run_with_one_level_gets_no_skill_section(tmp_path, toy_game):
    run = write_synthetic_run(tmp_path / "one", _cells(10, "greedy", "greedy", 0.5, 1000))
    import analysis
    assert "Skill:" not in analysis.summary_text(run)
    from reports import build_report
    page = build_report(run, out=tmp_path / "r").read_text()
    # the headline may point to the section (how to get one); the section itself is absent
    assert '<section id="skill">' not in page and not (tmp_path / "r" / "skill.png").exists()


def test_skill_handicap_is_the_weakest_mixed_pair_whose_interval_contains_a_half(tmp_path, toy_game):
    cells = []
    for name in ("random", "cautious", "greedy"):
        cells += _cells(10, name, name, 0.35, 3000)
        cells += _cells(10, name, name, 0.5, 3000, pairing=("red_vs_red", "red", "red"))
        cells += _cells(10, name, name, 0.5, 3000, pairing=("blue_vs_blue", "blue", "blue"))
    # red (seat 0) stronger than blue: one step is not enough, two are
    cells += _cells(10, "cautious", "random", 0.44, 3000) + _cells(10, "greedy", "cautious", 0.45, 3000)
    cells += _cells(10, "greedy", "random", 0.50, 3000)
    listed = ["random:random", "cautious:cautious", "greedy:greedy", "cautious:random", "greedy:cautious",
              "greedy:random"]
    run = write_synthetic_run(tmp_path / "mixed", cells, meta_updates={"strategies": listed})
    verdicts = tables.verdicts(load_run(run))
    assert skill.levels(verdicts) == ["cautious", "greedy", "random"]  # without the run's order: the table's
    order = skill.levels(verdicts, order=skill.listed(load_run(run).meta))
    assert order == ["random", "cautious", "greedy"]
    even = skill.handicap(verdicts, order)
    assert len(even) == 1  # mirrors are never asked
    row = even.iloc[0]
    assert row["even_at"] == "greedy/random" and row["seat0_agent"] == "greedy" and row["seat1_agent"] == "random"
    # with ratings the gap is in Elo: a big cautious-random gap makes greedy/cautious the weakest pair tried first
    by_rating = skill.handicap(verdicts, order, {"random": -500.0, "cautious": 0.0, "greedy": 10.0}).iloc[0]
    assert by_rating["even_at"] == "greedy/random" and by_rating["tried"].startswith("greedy/cautious")
    import analysis
    assert "Handicap: red_vs_blue at life 10 is even" in analysis.summary_text(run)


# ---- end to end on the toy game --------------------------------------------------------------

SKILL_SWEEP = """game = "toy"
pairings = ["red_vs_blue", "blue_vs_blue"]
life = [10]
skills = ["random", "greedy", "greedy/random"]
matches = 120
chunk_size = 40
seed = 4
"""


def test_a_toy_skill_sweep_is_bit_identical_for_jobs_1_and_2_and_reports_skill(tmp_path, toy_game, capsys):
    (tmp_path / "skill.toml").write_text(SKILL_SWEEP)
    runs = []
    for jobs in ("1", "2"):
        out = tmp_path / ("run" + jobs)
        assert main(["sweep", str(tmp_path / "skill.toml"), "--out", str(out), "--jobs", jobs]) == 0
        runs.append(out)
    text = capsys.readouterr().out
    assert "Skill: 2 levels, weakest to strongest by the sweep's order: random < greedy" in text
    assert pd.read_parquet(runs[0] / "results.parquet").equals(pd.read_parquet(runs[1] / "results.parquet"))
    meta = json.loads((runs[0] / "meta.json").read_text())
    assert meta["strategies"] == ["random:random", "greedy:greedy", "greedy:random"]
    page = (runs[0] / "report" / "report.html").read_text()
    assert "Does the verdict hold as skill rises?" in page and "Skill handicap" in page
    assert set(pd.read_csv(runs[0] / "report" / "tables" / "win_rates.csv")["skill"]) == {
        "random", "greedy", "greedy/random"}


def test_sweep_skills_option_and_ladder_option(tmp_path, toy_game, capsys):
    (tmp_path / "skill.toml").write_text(SKILL_SWEEP)
    ladder = tmp_path / "ladder"
    assert main(["ladder", "--game", "toy", "--agents", "random,greedy", "--matches", "48", "--bootstrap", "0",
                 "--out", str(ladder), "--quiet", "--jobs", "1"]) == 0
    out = tmp_path / "run"
    assert main(["sweep", str(tmp_path / "skill.toml"), "--skills", "greedy", "random", "--out", str(out),
                 "--jobs", "1", "--ladder", str(ladder)]) == 0
    text = capsys.readouterr().out
    assert "weakest to strongest by ladder ratings: random < greedy" in text
    assert json.loads((out / "meta.json").read_text())["strategies"] == ["greedy:greedy", "random:random"]
    # a sweep run is no ladder: one line, exit 2, before anything runs
    assert main(["sweep", str(tmp_path / "skill.toml"), "--out", str(tmp_path / "never"), "--ladder", str(out)]) == 2
    assert "is a sweep run, not a ladder run" in capsys.readouterr().err
    assert not (tmp_path / "never").exists()


def test_compare_gates_at_the_skill_level_given(tmp_path, toy_game, capsys):
    result = tmp_path / "c.json"
    assert main(["compare", "--game", "toy", "default", "big-die", "--skill", "cautious", "--max-matches", "200",
                 "--batch", "100", "--json", str(result), "--quiet"]) == 0
    data = json.loads(result.read_text())
    assert {(c["strategy0"], c["strategy1"]) for c in data["grid"]} == {("cautious", "cautious")}
    mixed = tmp_path / "m.json"
    assert main(["compare", "--game", "toy", "default", "big-die", "--skill", "greedy/random", "--max-matches", "200",
                 "--batch", "100", "--json", str(mixed), "--quiet"]) == 0
    assert {(c["strategy0"], c["strategy1"]) for c in json.loads(mixed.read_text())["grid"]} == {
        ("greedy", "random")}
    assert main(["compare", "--game", "toy", "default", "big-die", "--skill", "nobody", "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "strategy 'nobody' is unknown" in err


def test_the_documented_example_sweep_plans_with_the_agents_the_game_offers():
    from pathlib import Path

    from sim.sweep.grid import build_plan, load_sweep
    plan = build_plan(load_sweep(Path(__file__).resolve().parents[1] / "docs/examples/skill-sweep.toml"))
    assert {cell.strategy0 for cell in plan.cells} == {"random", "greedy", "pimc:64"}
    assert len(plan.cells) == 3 * 3 * 4 * 2  # pairings x skill levels x lives 30, 50, 70, 100 x first player


def test_the_documented_poker_duel_example_sweep_plans_three_levels_on_both_presets():
    from pathlib import Path

    from sim.sweep.grid import build_plan, load_sweep
    plan = build_plan(load_sweep(Path(__file__).resolve().parents[1] / "docs/examples/pd-skill-sweep.toml"))
    assert {cell.strategy0 for cell in plan.cells} == {"random", "greedy", "ismcts:100"}
    assert {cell.rules for cell in plan.cells} == {"core", "advanced"}
    assert len(plan.cells) == 3 * 2 * 4 * 2  # skill levels x presets x HP 20, 40, 60, 30/50 x first player


def test_a_skill_sweep_resumes_to_the_uninterrupted_result(tmp_path, toy_game, capsys):
    (tmp_path / "skill.toml").write_text(SKILL_SWEEP)
    whole = tmp_path / "whole"
    assert main(["sweep", str(tmp_path / "skill.toml"), "--out", str(whole), "--jobs", "1", "--no-report",
                 "--quiet"]) == 0
    import shutil
    cut = tmp_path / "cut"
    shutil.copytree(whole, cut)
    chunks = sorted((cut / "chunks").iterdir())
    for path in chunks[1::3]:  # a killed sweep: some chunks missing, no tables, complete = false
        path.unlink()
    (cut / "results.parquet").unlink()
    meta = json.loads((cut / "meta.json").read_text())
    meta["complete"] = False
    (cut / "meta.json").write_text(json.dumps(meta))
    assert main(["sweep", "--resume", str(cut), "--jobs", "1", "--no-report"]) == 0
    assert "%d chunks resumed" % (len(chunks) - len(chunks[1::3])) in capsys.readouterr().out
    assert pd.read_parquet(cut / "results.parquet").equals(pd.read_parquet(whole / "results.parquet"))
