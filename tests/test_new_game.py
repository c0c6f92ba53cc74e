"""A new game goes through every command with no line changed outside its own file.

"toy_duel" (tests/toygame.py) is the toy engine declared with dimensions unlike
Faction War's — a `bonus` choice, starting `hp` per seat, the first player; no
factions, pairings or life — and registered by one line. Each command runs it
in-process: sweep → report → compare → play → scenario → rules → bench →
ladder → tune-agent (all nine). The
"Adding a game" section of docs/architecture.md is checked against what this
test does.
"""

import json
import re
from pathlib import Path

import pandas as pd
import pytest

from sim.cli import main

ROOT = Path(__file__).resolve().parents[1]
GAME = ["--game", "toy_duel"]
COMMANDS = ("sweep", "report", "compare", "play", "scenario", "rules", "bench", "ladder", "tune-agent")


def _run(capsys, *argv):
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(scope="module")
def duel_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("duel")
    sweep = folder / "duel.toml"
    sweep.write_text('game = "toy_duel"\nbonus = ["none", "seat1"]\nhp = [8, 12]\nhp_pairs = [[8, 16]]\n'
                     'strategies = ["greedy:cautious"]\nmatches = 300\nchunk_size = 100\nseed = 4\n')
    run = folder / "run"
    assert main(["sweep", str(sweep), "--out", str(run), "--jobs", "1", "--quiet"]) == 0
    return run


def test_sweep_stores_the_games_own_dimensions(duel_run):
    meta = json.loads((duel_run / "meta.json").read_text())
    assert [d["name"] for d in meta["dimensions"]] == ["bonus", "hp", "first"]
    assert meta["cell_columns"] == ["cell", "bonus", "hp0", "hp1", "first", "strategy0", "strategy1", "rules"]
    results = pd.read_parquet(duel_run / "results.parquet")
    assert not {"pairing", "faction0", "life0"} & set(results.columns)
    # 2 bonus values x 3 hp combinations x 2 first players, cell order bonus -> hp -> first
    assert list(zip(results["bonus"], results["hp0"], results["hp1"], results["first"]))[:3] == [
        ("none", 8, 8, 0), ("none", 8, 8, 1), ("none", 12, 12, 0)]
    assert len(results) == 12 and (results["matches"] == 300).all()
    assert (duel_run / "report" / "report.html").is_file()


def test_sweep_without_a_file_runs_the_games_own_default_sweep(tmp_path, capsys):
    code, _, _ = _run(capsys, "sweep", *GAME, "--out", str(tmp_path / "run"), "--jobs", "1", "--quiet", "--no-report")
    meta = json.loads((tmp_path / "run" / "meta.json").read_text())
    assert code == 0 and meta["game"] == "toy_duel" and meta["sweep"]["hp"] == [8, 12]
    assert meta["counts"] == {**meta["counts"], "cells": 8, "matches": 8 * 400}
    sweep = tmp_path / "fw.toml"
    sweep.write_text('pairings = ["human_vs_alien"]\nmatches = 10\n')
    code, _, err = _run(capsys, "sweep", str(sweep), *GAME, "--out", str(tmp_path / "no"))
    assert code == 2 and "--game toy_duel differs from the sweep file's game faction_war" in err


def test_report_renders_the_run_from_its_metadata(duel_run, tmp_path, capsys):
    code, out, _ = _run(capsys, "report", str(duel_run), "--out", str(tmp_path / "rep"), *GAME)
    assert code == 0
    html = (tmp_path / "rep" / "report.html").read_text()
    assert "seat1" in html and "8/16" in html  # the bonus series and the one label format of hp
    assert "seat1" in out
    # Titles, axis and headers in the game's own words (its stored dimensions), none of Faction War's.
    assert "Win rates vs starting hp" in html and "<th>bonus</th>" in html and "<th>hp</th>" in html
    assert not re.search(r"pairing|starting life|faction", html, re.I)
    assert any(line.split()[:2] == ["bonus", "hp"] for line in out.splitlines())  # the summary header
    verdicts = pd.read_csv(tmp_path / "rep" / "tables" / "verdicts.csv")
    assert {"series", "seat0_name", "axis0", "axis1", "axis"} <= set(verdicts.columns)
    assert set(verdicts["series"]) == {"none", "seat1"} and set(verdicts["axis"]) == {"8", "12", "8/16"}
    from analysis import load_run
    from reports.figures import titles
    from analysis.tables import all_tables
    assert titles(all_tables(load_run(duel_run)))["first_player_advantage"] == "First-player advantage vs starting hp"
    code, _, err = _run(capsys, "report", str(duel_run), "--game", "toy")
    assert code == 2 and "is of game toy_duel" in err


def test_compare_plays_the_built_in_grid_of_the_game(tmp_path, capsys):
    out = tmp_path / "c.json"
    code, _, _ = _run(capsys, "compare", "default", "big-die", *GAME, "--batch", "200", "--quiet",
                      "--fail-if", "seat1@hp12.turns.abs_delta > 0.5", "--json", str(out))
    data = json.loads(out.read_text())
    assert code == 1 and data["gates"][0]["verdict"] == "fail"  # a d10 instead of a d6: shorter matches
    assert [cell["bonus"] for cell in data["grid"]] == ["none", "none", "seat0", "seat0", "seat1", "seat1",
                                                         "both", "both"]
    assert {cell["hp0"] for cell in data["grid"]} == {12}
    code, _, err = _run(capsys, "compare", "default", "short", *GAME, "--fail-if", "human_vs_alien.win_rate.delta > 0")
    assert code == 2 and "unknown scope 'human_vs_alien'" in err


def test_play_takes_the_games_dimensions_and_replays_a_sweep_match(duel_run, capsys):
    argv = ["play", *GAME, "--hp", "9,11", "--bonus", "seat0", "--p0", "random", "--p1", "cautious", "--seed", "5"]
    code, out, _ = _run(capsys, *argv)
    assert code == 0 and out.startswith("# p0 = random, p1 = cautious, hp 9/11, seed 5")
    assert "life 9-11" in out.splitlines()[1]  # the engine's own log line
    assert _run(capsys, *argv)[1] == out
    code, _, err = _run(capsys, "play", *GAME, "--life", "50")
    assert code == 2 and "--life does not apply to game toy_duel" in err
    code, _, err = _run(capsys, "play", *GAME, "--hp", "0")
    assert code == 2 and "--hp must be an integer from 1 to 500" in err
    code, out, _ = _run(capsys, "play", "--from", str(duel_run), "--cell", "3", "--match", "7")
    assert code == 0 and out.startswith("# replay of") and "life 12-12" in out


def test_scenario_applies_actions_in_the_games_position_format(tmp_path, capsys):
    position = tmp_path / "p.json"
    position.write_text(json.dumps({"hp": [30, 20], "active": 1, "rng": 9, "actions": ["attack", "heal"]}))
    code, out, err = _run(capsys, "scenario", str(position), *GAME, "--legal", "--log", "--json")
    state = json.loads(out)
    assert code == 0 and state["turn"] == 3 and state["active"] == 1 and 24 <= state["hp"][0] <= 30
    assert state["hp"][1] == 20 and state["legal"] == ["attack", "heal"] and "seat 1 attacks" in err
    assert _run(capsys, "scenario", str(position), *GAME, "--legal", "--json")[1] == out  # deterministic from "rng"
    position.write_text(json.dumps({"hp": [3, 20], "actions": ["fly"]}))
    code, out, err = _run(capsys, "scenario", str(position), *GAME)
    assert code == 2 and "allowed: attack, heal" in err and out == ""


def test_rules_prints_and_checks_the_games_rules(capsys):
    code, out, _ = _run(capsys, "rules", "big-die", *GAME)
    assert code == 0 and "die_sides = 10  # changed from default" in out and "heal = 2" in out
    code, _, err = _run(capsys, "rules", "nope", *GAME)
    assert code == 2 and "neither a preset" in err


def test_bench_measures_every_value_of_the_games_choice_dimension(capsys):
    code, out, _ = _run(capsys, "bench", *GAME, "--seconds", "0.02", "--all-cores-seconds", "0.1", "--jobs", "1",
                        "--no-compile", "--json")
    result = json.loads(out)
    assert code == 0 and [row["bonus"] for row in result["per_core"]] == [
        "none", "none", "seat0", "seat0", "seat1", "seat1", "both", "both"]
    assert result["hp"] == "12" and all(row["reference_matches"] > 0 for row in result["per_core"])


def test_ladder_rates_every_agent_of_the_game(tmp_path, capsys):
    code, out, _ = _run(capsys, "ladder", *GAME, "--matches", "200", "--hp", "10", "--bootstrap", "20", "--jobs", "1",
                        "--out", str(tmp_path / "lad"), "--quiet")
    meta = json.loads((tmp_path / "lad" / "meta.json").read_text())
    assert code == 0 and meta["game"] == "toy_duel" and meta["ladder"]["agents"] == ["greedy", "random", "cautious",
                                                                                     "tuned"]
    assert {cell["bonus"] for cell in meta["cells"]} == {"none", "seat1"}  # the default sweep's series
    ratings = pd.read_csv(tmp_path / "lad" / "ladder" / "tables" / "ratings.csv").sort_values("rank")
    assert list(ratings["agent"])[0] == "greedy" and list(ratings["agent"])[-1] == "random"  # greedy never heals
    assert (tmp_path / "lad" / "ladder" / "ladder.html").is_file()


def test_tune_agent_tunes_the_games_tuned_agent_and_resumes(tmp_path, capsys):
    argv = ["tune-agent", *GAME, "--matches", "200", "--recheck", "200", "--out", str(tmp_path / "tune")]
    code, out, _ = _run(capsys, *argv, "--trials", "5")
    document = json.loads((tmp_path / "tune" / "tuned_weights.json").read_text())
    assert code == 0 and "re-check on fresh seeds" in out and set(document["weights"]) == {"heal_below"}
    log = (tmp_path / "tune" / "trials.jsonl").read_text().splitlines()
    assert len(log) == 5 and json.loads(log[0])["params"] == {"heal_below": 5}  # trial 0: the untuned threshold
    code, _, _ = _run(capsys, *argv, "--trials", "7")  # resumed: the first five trials stand, two more follow
    assert code == 0 and (tmp_path / "tune" / "trials.jsonl").read_text().splitlines()[:5] == log
    code, _, err = _run(capsys, "tune-agent", *GAME, "--matches", "999", "--out", str(tmp_path / "tune"), "--trials", "7")
    assert code == 2 and "matches" in err  # another setting: refused, one line


def test_game_data_is_stored_with_its_hash_and_played_again_from_the_run(tmp_path, capsys, monkeypatch):
    """toy_duel's tuned weights are game data (GameSpec.game_data): a sweep stores them with their
    hash; --resume and `play --from` play the stored copy after the shipped file changed."""
    import toygame
    from sim.registry import data_hash
    sweep = tmp_path / "data.toml"
    sweep.write_text('game = "toy_duel"\nbonus = ["none"]\nhp = [12]\nstrategies = ["tuned:greedy"]\n'
                     'matches = 400\nchunk_size = 100\nseed = 2\n')
    run = tmp_path / "run"
    assert main(["sweep", str(sweep), "--out", str(run), "--jobs", "1", "--quiet"]) == 0
    shipped = toygame.SHIPPED_DUEL_WEIGHTS
    meta = json.loads((run / "meta.json").read_text())
    assert meta["game_data"] == {"tuned_weights.json": {
        "description": "the tuned agent's healing threshold", "sha256": data_hash(shipped), "bytes": len(shipped),
        "copy": "data/tuned_weights.json"}}
    assert (run / "data" / "tuned_weights.json").read_bytes() == shipped
    assert data_hash(shipped) in (run / "report" / "report.html").read_text()  # the report's metadata
    results = pd.read_parquet(run / "results.parquet")
    replay = ["play", "--from", str(run), "--cell", "0", "--match", "5"]
    _, played, _ = _run(capsys, *replay)

    monkeypatch.setattr(toygame, "SHIPPED_DUEL_WEIGHTS", b'{"heal_below": 11}\n')  # the shipped file changes
    assert _run(capsys, *replay)[1] == played  # the run's own copy
    for chunk in (run / "chunks").glob("c000000-*.npy"):
        chunk.unlink()
    assert main(["sweep", "--resume", str(run), "--jobs", "1", "--quiet", "--no-report"]) == 0
    assert pd.read_parquet(run / "results.parquet").equals(results)  # replayed with the stored weights
    assert main(["sweep", str(sweep), "--out", str(tmp_path / "new"), "--jobs", "1", "--quiet", "--no-report"]) == 0
    fresh = pd.read_parquet(tmp_path / "new" / "results.parquet")
    assert not fresh["seat0_knockout"].equals(results["seat0_knockout"])  # a new run plays the new weights
    (run / "data" / "tuned_weights.json").write_bytes(b'{"heal_below": 2}\n')
    code, _, err = _run(capsys, *replay)
    assert code == 2 and "game data data/tuned_weights.json has hash" in err


def test_nothing_outside_the_games_file_names_it():
    for folder in ("sim", "analysis", "reports", "strategies", "scripts"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            assert "toy_duel" not in text and "BONUS_SEATS" not in text and "toygame" not in text, path


def test_architecture_doc_describes_what_this_test_does():
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    match = re.search(r"^## Adding a game\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert match, "docs/architecture.md lacks its 'Adding a game' section"
    section = match.group(1)
    # every command this test drives is named, in this order
    positions = [section.find("`%s`" % command) for command in COMMANDS]
    assert -1 not in positions and positions == sorted(positions), positions
    # the registry line it shows is the form toygame.py uses
    shown = re.search(r'register\("(\w+)", "([\w.]+):(\w+)"\)', section)
    assert shown, "the section shows no registry line"
    source = (ROOT / "tests" / "toygame.py").read_text(encoding="utf-8")
    assert re.search(r'^register\("toy_duel", "toygame:DUEL_SPEC"\)', source, re.M)
    # the GameSpec fields it lists exist
    from sim.registry import GameSpec
    fields = set(GameSpec.__dataclass_fields__)
    named = set(re.findall(r"`GameSpec\.(\w+)`", section))
    assert named and named <= fields, named - fields
    assert "tests/test_new_game.py" in section
