"""`cardbalance ladder`: a round-robin on common deals, rated with Bradley–Terry.

The toy game plays the tournaments (cheap); Faction War is used only for
input checks that need its strategy table (budgets), which compile nothing.
"""

import json
import math

import numpy as np
import pandas as pd
import pytest

from analysis import ladder as ladder_analysis
from sim.cli import main
from sim.sweep import runfolder

AGENTS = "greedy,random,cautious"


def _ladder(tmp_path, name, *extra):
    out = tmp_path / name
    code = main(["ladder", "--game", "toy", "--agents", AGENTS, "--matches", "240", "--chunk-size", "10",
                 "--bootstrap", "20", "--out", str(out), "--quiet", *extra])
    assert code == 0
    return out


@pytest.fixture(scope="module")
def toy_ladder(tmp_path_factory, toy_game):
    return _ladder(tmp_path_factory.mktemp("ladder"), "run", "--jobs", "1")


def test_the_toy_game_goes_through_the_ladder_into_a_run_folder_and_report(toy_ladder):
    meta = json.loads((toy_ladder / "meta.json").read_text())
    assert meta["complete"] and meta["ladder"]["agents"] == ["greedy", "random", "cautious"]
    assert meta["sweep"]["common_deals"] is True
    results = pd.read_parquet(toy_ladder / "results.parquet")
    # every ordered pair of distinct agents, every pairing of the default sweep, both first players
    pairs = set(zip(results["strategy0"], results["strategy1"]))
    assert pairs == {(a, b) for a in AGENTS.split(",") for b in AGENTS.split(",") if a != b}
    assert set(results["pairing"]) == {"red_vs_red", "red_vs_blue", "blue_vs_blue"}
    assert set(results["first"]) == {0, 1}
    # >= the asked matches per comparison: 240 over 2 seat orders x 3 pairings x 2 first players
    assert set(results["matches"]) == {20}
    for page in ("ladder.html", "ladder.md", "ratings.png", "pairwise.png", "tables/ratings.csv", "tables/pairwise.csv",
                 "tables/first_mover.csv"):
        assert (toy_ladder / "ladder" / page).is_file(), page
    by_series = pd.read_csv(toy_ladder / "ladder" / "tables" / "pairwise_by_series.csv")
    assert set(by_series["series"]) == {"red_vs_red", "red_vs_blue", "blue_vs_blue"}
    assert set(by_series["matches"]) == {80}  # per pairing: 2 seat orders x 2 first players x 20
    overall = pd.read_csv(toy_ladder / "ladder" / "tables" / "pairwise.csv")
    assert by_series.groupby(["agent_a", "agent_b"])["a_wins"].sum().to_dict() == \
        overall.set_index(["agent_a", "agent_b"])["a_wins"].to_dict()
    html = (toy_ladder / "ladder" / "ladder.html").read_text()
    assert "Ladder report" in html and "Rungs" in html and "By faction played" in html
    # the first mover's Elo offset, fitted with the ratings (issue 37), on the page and in its table
    first = pd.read_csv(toy_ladder / "ladder" / "tables" / "first_mover.csv")
    assert first["elo_low"].iloc[0] < first["elo"].iloc[0] < first["elo_high"].iloc[0]
    assert 'id="first_mover">First mover: %+.0f Elo [' % first["elo"].iloc[0] in html
    assert "First mover: %+.0f Elo [" % first["elo"].iloc[0] in (toy_ladder / "ladder" / "ladder.md").read_text()
    # --chunk-size 10 leaves 2 chunks a cell: too few deal blocks, so the page warns that it redrew cells
    assert '<p class="warning" id="resampling">WARNING: intervals redraw each cell' in html


def test_common_deals_every_agent_pair_plays_the_same_match_seeds(toy_ladder):
    from sim.sweep.seeds import chunk_seed
    meta = runfolder.load_meta(toy_ladder)
    plan = runfolder.plan_from_meta(meta, toy_ladder)
    by_point = {}
    for cell in plan.cells:
        point = (cell.pairing, cell.first, cell.life0, cell.life1)
        by_point.setdefault(point, set()).add(int(chunk_seed(plan.spec.seed, plan.deal(cell.cell), 0)))
    assert all(len(seeds) == 1 for seeds in by_point.values())  # one deal per grid point
    assert len({next(iter(s)) for s in by_point.values()}) == len(by_point)  # different points, different deals
    # and the replay locator agrees with the deal the runner played
    game, rules, cell_array, seed = runfolder.locate_match(toy_ladder, len(plan.cells) - 1, 0)
    from sim.sweep.seeds import match_seed
    assert seed == match_seed(plan.spec.seed, plan.deal(len(plan.cells) - 1), 0, plan.spec.chunk_size)


def test_jobs_1_and_2_give_bit_identical_runs_and_ratings(tmp_path, toy_ladder):
    other = _ladder(tmp_path, "two", "--jobs", "2")
    assert pd.read_parquet(toy_ladder / "results.parquet").equals(pd.read_parquet(other / "results.parquet"))
    for table in ("ratings.csv", "pairwise.csv", "by_seat_name.csv"):
        assert (toy_ladder / "ladder/tables" / table).read_bytes() == (other / "ladder/tables" / table).read_bytes()


def test_resume_redoes_only_the_missing_chunks(tmp_path, toy_ladder, capsys):
    import shutil
    copy = tmp_path / "interrupted"
    shutil.copytree(toy_ladder, copy)
    chunks = sorted((copy / "chunks").iterdir())
    for path in chunks[::2]:  # what a kill mid-run leaves: some chunks, no tables, complete = false
        path.unlink()
    (copy / "results.parquet").unlink()
    meta = json.loads((copy / "meta.json").read_text())
    meta["complete"] = False
    (copy / "meta.json").write_text(json.dumps(meta))
    assert main(["ladder", "--resume", str(copy), "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "%d chunks resumed" % (len(chunks) - len(chunks[::2])) in out
    assert pd.read_parquet(copy / "results.parquet").equals(pd.read_parquet(toy_ladder / "results.parquet"))


def test_printed_ladder_names_ratings_rungs_and_cycles(tmp_path, toy_game, capsys):
    out = tmp_path / "printed"
    assert main(["ladder", "--game", "toy", "--agents", "greedy,random", "--matches", "200", "--bootstrap", "10",
                 "--out", str(out), "--jobs", "1", "--no-report"]) == 0
    text = capsys.readouterr().out
    assert "Bradley-Terry" in text and "95% bootstrap CI" in text and "beats it?" in text
    assert "No intransitive cycle" in text
    assert "First mover: " in text and "(95% bootstrap CI)" in text
    assert "Pairwise:" in text and "greedy   random" in text  # the strength table of two agents
    assert not (out / "ladder").exists()


def test_a_default_ladder_keeps_its_deals_in_blocks_and_the_intervals_redraw_them(tmp_path, toy_game, capsys):
    from analysis.runs import load_run
    from analysis.tables import _cell_frame
    out = tmp_path / "blocks"
    assert main(["ladder", "--game", "toy", "--agents", AGENTS, "--matches", "240", "--bootstrap", "20",
                 "--out", str(out), "--jobs", "1", "--no-report"]) == 0
    text = capsys.readouterr().out
    assert "the bootstrap redrawing blocks of deals (chunks) whole" in text and "WARNING: intervals" not in text
    assert json.loads((out / "meta.json").read_text())["sweep"]["chunk_size"] == 1  # 20 matches a cell in 20 chunks
    run = load_run(out)
    frame = ladder_analysis.meetings(_cell_frame(run))
    blocks = ladder_analysis.deal_blocks(run, frame)
    assert blocks.kind == "deal blocks" and blocks.blocks.shape == (6 * 20, len(frame), 3)  # 3 pairings x 2 first x 20
    assert np.array_equal(blocks.blocks.sum(axis=0), frame[["wins0", "wins1", "draws"]].to_numpy(dtype=float))
    results = run.results.set_index("cell").loc[frame["cell"]]
    for block, point in zip(blocks.blocks, blocks.stratum):
        played = block.sum(axis=1)
        assert sorted(played) == [0.0] * (len(frame) - 6) + [1.0] * 6  # one deal, all six ordered pairs of its point
        assert len(set(zip(results["pairing"][played > 0], results["first"][played > 0]))) == 1
    assert blocks.multiplier == pytest.approx(1.9810 * math.sqrt(120 / 114), abs=1e-4)  # t(114) 97.5 % point
    (out / "chunks" / "c000000-k000003.npy").unlink()
    lost = ladder_analysis.deal_blocks(run, frame)
    assert lost.kind == "cells" and lost.note == "chunk 3 of cell 0 is missing or unreadable"


# ---- the ratings themselves ------------------------------------------------------------

def _frame(rows):
    """Cell rows (agent0, agent1, wins0, wins1, draws) in the cell frame's columns."""
    return pd.DataFrame([{"strategy0": a, "strategy1": b, "seat0_name": "red", "seat1_name": "blue", "seat0_wins": w0,
                          "seat1_wins": w1, "draws": d, "matches": w0 + w1 + d} for a, b, w0, w1, d in rows])


def test_bradley_terry_recovers_known_strengths_on_the_elo_scale():
    # A beats B 76 % of the time (+200 Elo), B beats C 64 % (+100): the Elo expectation 1/(1+10^(-d/400))
    expected = {"A": 200.0, "B": 0.0, "C": -100.0}
    rows = []
    for a, b in (("A", "B"), ("B", "C"), ("A", "C")):
        p = 1 / (1 + 10 ** (-(expected[a] - expected[b]) / 400))
        n = 100_000
        rows += [(a, b, round(p * n), n - round(p * n), 0)]
    result = ladder_analysis.ladder(_frame(rows), ["A", "B", "C"], root_seed=1, bootstrap=0)
    elo = dict(zip(result.ratings["agent"], result.ratings["elo"]))
    centre = np.mean(list(expected.values()))
    for agent, value in expected.items():
        assert elo[agent] == pytest.approx(value - centre, abs=2.0)


def test_draws_count_half_a_win_for_each_side():
    table = ladder_analysis.pairwise_table(ladder_analysis.meetings(_frame([("A", "B", 30, 10, 60)])), ["A", "B"])
    assert table.loc[0, "score"] == pytest.approx(0.6)  # (30 + 60/2) / 100
    elo = ladder_analysis.bradley_terry(np.array([[0.0, 60.0], [40.0, 0.0]]))
    assert elo[0] - elo[1] == pytest.approx(400 * np.log10(60 / 40), abs=0.5)


def test_bootstrap_intervals_are_seeded_and_cover_the_estimate():
    frame = _frame([("A", "B", 120, 80, 0), ("B", "C", 110, 90, 0), ("A", "C", 140, 60, 0)])
    one = ladder_analysis.ladder(frame, ["A", "B", "C"], root_seed=7, bootstrap=50)
    two = ladder_analysis.ladder(frame, ["A", "B", "C"], root_seed=7, bootstrap=50)
    other = ladder_analysis.ladder(frame, ["A", "B", "C"], root_seed=8, bootstrap=50)
    assert one.ratings.equals(two.ratings)
    assert not one.ratings["elo_low"].equals(other.ratings["elo_low"])
    assert (one.ratings["elo_low"] < one.ratings["elo"]).all() and (one.ratings["elo"] < one.ratings["elo_high"]).all()


def test_rungs_say_whether_each_agent_beats_the_one_below():
    frame = _frame([("A", "B", 900, 100, 0), ("B", "C", 505, 495, 0), ("A", "C", 950, 50, 0)])
    rungs = ladder_analysis.ladder(frame, ["C", "B", "A"], root_seed=1, bootstrap=0).rungs
    assert rungs["agent"].tolist() == ["A", "B", "C"]
    assert rungs["beats"].tolist() == [True, False, False]  # B vs C: 50.5 %, its interval contains 50 %


def test_an_intransitive_cycle_is_flagged_and_a_transitive_ladder_is_not():
    cyclic = _frame([("R", "P", 200, 800, 0), ("P", "S", 200, 800, 0), ("S", "R", 200, 800, 0)])
    cycles = ladder_analysis.ladder(cyclic, ["R", "P", "S"], root_seed=1, bootstrap=0).cycles
    assert len(cycles) == 1 and sorted(cycles[0]) == ["P", "R", "S"]
    transitive = _frame([("A", "B", 800, 200, 0), ("B", "C", 800, 200, 0), ("A", "C", 900, 100, 0)])
    assert ladder_analysis.ladder(transitive, ["A", "B", "C"], root_seed=1, bootstrap=0).cycles == []


def test_per_seat_name_ratings_separate_an_agent_strong_with_one_side():
    # X is strong as red only: it beats Y in the red mirror and as red against a blue Y, but as blue it
    # does no better than Y does (the blue mirror is even, and Y as red beats X as blue as red usually does)
    rows = [("X", "Y", 900, 100, 0, "red", "blue"), ("Y", "X", 700, 300, 0, "red", "blue"),
            ("X", "Y", 750, 250, 0, "red", "red"), ("X", "Y", 500, 500, 0, "blue", "blue")]
    frame = _frame([row[:5] for row in rows])
    frame["seat0_name"], frame["seat1_name"] = [row[5] for row in rows], [row[6] for row in rows]
    result = ladder_analysis.ladder(frame, ["X", "Y"], root_seed=1, bootstrap=0)
    side = {(r.agent, r.seat_name): r.elo for r in result.by_seat_name.itertuples()}
    assert side[("X", "red")] - side[("Y", "red")] > 150
    assert abs(side[("X", "blue")] - side[("Y", "blue")]) < 60
    overall = dict(zip(result.ratings["agent"], result.ratings["elo"]))
    assert overall["X"] > overall["Y"]


# ---- bad input: one line, exit 2, nothing written ------------------------------------------

@pytest.mark.parametrize("argv, words", [
    (["--game", "toy", "--agents", "greedy,nobody"], "strategy 'nobody' is unknown; known strategies"),
    (["--agents", "greedy,pimc-greedy:0"], "must be an integer from 1"),
    (["--agents", "greedy,pimc-greedy:x"], "must be an integer from 1"),
    (["--agents", "greedy,random:4"], "takes no parameter"),
    (["--game", "toy", "--agents", "greedy"], "at least two agents"),
    (["--game", "toy", "--agents", "greedy,greedy,random"], "lists greedy twice"),
    (["--agents", "greedy,pimc:64,pimc-greedy:64"], "one agent under two names: pimc:64 = pimc-greedy:64"),
    (["--game", "toy", "--agents", "greedy,random", "--matches", "0"], "--matches must be a positive integer"),
    (["--game", "toy", "--agents", "greedy,random", "--pairings", "green_vs_red"], "pairing 'green_vs_red' is unknown"),
    (["--game", "toy", "--agents", "greedy,random", "--jobs", "0"], "--jobs"),
])
def test_bad_input_is_one_line_exit_2_and_no_run_folder(tmp_path, toy_game, capsys, argv, words):
    out = tmp_path / "never"
    assert main(["ladder", *argv, "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and words in err, err
    assert not out.exists()


def test_resume_refuses_options_that_would_change_the_plan(toy_ladder, capsys):
    assert main(["ladder", "--resume", str(toy_ladder), "--seed", "9"]) == 2
    assert "--resume continues a ladder as it was planned; drop --seed" in capsys.readouterr().err


def test_resume_of_a_sweep_run_is_refused(tmp_path, capsys):
    from analysis.synthetic import write_synthetic_run
    run = write_synthetic_run(tmp_path / "sweep", [{"seat0_knockout": 5, "seat1_knockout": 5}])
    assert main(["ladder", "--resume", str(run)]) == 2
    assert "not a ladder" in capsys.readouterr().err


def test_help_has_worked_examples(capsys):
    with pytest.raises(SystemExit):
        main(["ladder", "--help"])
    text = capsys.readouterr().out
    assert "cardbalance ladder --agents greedy,pimc:64 --matches 2000" in text
    assert "--resume" in text and "half a win" in text


def test_one_non_mirror_pairing_gives_no_per_faction_ratings_and_says_why(tmp_path, toy_game, capsys):
    out = tmp_path / "one-pairing"
    assert main(["ladder", "--game", "toy", "--agents", "greedy,random", "--matches", "48", "--pairings", "red_vs_blue",
                 "--life", "12", "--bootstrap", "5", "--out", str(out), "--jobs", "1"]) == 0
    text = capsys.readouterr().out
    # "greedy as red" only ever meets "random as blue": the per-faction scale is not identified
    assert "No per-faction ratings: per-faction ratings need every (agent, faction) linked" in text
    command = json.loads((out / "meta.json").read_text())["ladder"]["command"]
    assert "--pairings red_vs_blue" in command and "--life 12" in command and "--agents greedy,random" in command
    assert set(pd.read_parquet(out / "results.parquet")["life0"]) == {12}


def test_ratings_per_seat_name_are_worded_from_the_runs_choice_dimension():
    """The seat names' word is the choice dimension's seat columns' own name (Faction War's are its
    factions); a game without a choice dimension (Poker Duel) has no seat names and says so."""
    from analysis.dimensions import labels, run_dimensions
    from reports.ladder import seat_name_header, seat_name_lines
    assert labels(run_dimensions({"game": "faction_war"}))["seat_name"] == "faction"
    assert labels(run_dimensions({"game": "poker_duel"}))["seat_name"] == ""
    rows = [("X", "Y", 600, 400, 0, "red", "blue"), ("Y", "X", 550, 450, 0, "red", "blue"),
            ("X", "Y", 520, 480, 0, "red", "red"), ("X", "Y", 500, 500, 0, "blue", "blue")]
    frame = _frame([row[:5] for row in rows])
    frame["seat0_name"], frame["seat1_name"] = [row[5] for row in rows], [row[6] for row in rows]
    named = ladder_analysis.ladder(frame, ["X", "Y"], root_seed=1, bootstrap=0, words={"seat_name": "faction"})
    assert seat_name_header(named)[1] == "faction played" and seat_name_lines(named, lambda t: [t]) == ["By faction played"]
    frame["seat0_name"] = frame["seat1_name"] = ""
    plain = ladder_analysis.ladder(frame, ["X", "Y"], root_seed=1, bootstrap=0, words={"seat_name": ""})
    assert plain.by_seat_name.empty and len(plain.ratings) == 2
    assert seat_name_lines(plain, None) == ["No ratings per seat name: the game has no seat names (no choice dimension)."]
