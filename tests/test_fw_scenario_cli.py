"""The scenario sandbox and play log from the command line (issue 2, parts 5 and 6)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sim.cli import main

ROOT = Path(__file__).resolve().parent.parent


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "sim", *args], capture_output=True, text=True, cwd=ROOT)


def test_scenario_example_applies_actions_and_lists_legal(capsys):
    assert main(["scenario", str(ROOT / "docs/examples/attack.json"), "--legal", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["players"][1]["life"] == 46 and "D4" in out["players"][1]["graveyard"]
    assert out["turn"] == 4 and out["active"] == 1 and out["legal"]


def test_scenario_output_is_a_loadable_position(tmp_path, capsys):
    assert main(["scenario", str(ROOT / "docs/examples/placement.json"), "--json"]) == 0
    dumped = capsys.readouterr().out
    (tmp_path / "again.json").write_text(dumped)
    assert main(["scenario", str(tmp_path / "again.json"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(dumped)


BAD_POSITIONS = {
    "card in two places": ({"players": [{"hand": ["D5"], "rows": [["D5"], [], []]}, {}]}, "also in"),
    "third face card": ({"players": [{"rows": [["DJ", "DQ", "DK"], [], []]}, {}]}, "face cards"),
    "unknown card code": ({"players": [{"hand": ["X9"]}, {}]}, "unknown card code"),
    "life not a number": ({"players": [{"life": "fifty"}, {}]}, "players[0].life"),
    "illegal action": ({"phase": "attack", "players": [{}, {}], "actions": ["attack row1 direct"]}, "not legal"),
    "bad notation": ({"players": [{}, {}], "actions": ["fly away"]}, "not valid notation"),
    "unknown key": ({"players": [{}, {}], "colour": 1}, "unknown key 'colour'"),
}


@pytest.mark.parametrize("case", BAD_POSITIONS)
def test_malformed_positions_fail_with_one_line_and_exit_2(tmp_path, case):
    data, phrase = BAD_POSITIONS[case]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    result = run_cli("scenario", str(path))
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and phrase in lines[0] and result.stdout == ""


def test_play_log_is_readable_and_repeatable():
    first = run_cli("play", "--p0", "human:greedy", "--p1", "alien:random", "--life", "50", "--seed", "7")
    second = run_cli("play", "--p0", "human:greedy", "--p1", "alien:random", "--life", "50", "--seed", "7")
    assert first.returncode == 0 and first.stdout == second.stdout
    log = first.stdout
    for phrase in ("opening hand", "draws", "places", "attacks", "takes", "match over"):
        assert phrase in log
    other = run_cli("play", "--p0", "human:greedy", "--p1", "alien:random", "--life", "50", "--seed", "8")
    assert other.stdout != log


@pytest.mark.parametrize("args, phrase", [(["--p0", "orc:greedy"], "faction 'orc'"),
                                          (["--p1", "alien:smart"], "strategy 'smart'"),
                                          (["--life", "0"], "--life"),
                                          (["--rules", "nope"], "preset")])
def test_play_bad_input_exits_2(args, phrase):
    result = run_cli("play", *args)
    assert result.returncode == 2 and phrase in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_rules_check_reports_the_bad_key(tmp_path):
    path = tmp_path / "r.toml"
    path.write_text('[ambiguities]\n"FA-3" = "maybe"\n')
    result = run_cli("rules", "--check", str(path))
    assert result.returncode == 2 and "FA-3" in result.stderr and "lose, continue, draw" in result.stderr
    path.write_text("colour = 3\n")
    result = run_cli("rules", "--check", str(path))
    assert result.returncode == 2 and "unknown key 'colour'" in result.stderr
    path.write_text("life = [30, 60]\nturn_cap = 300\n")
    result = run_cli("rules", "--check", str(path))  # issue 13: life is the grid's, not the rules'
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert "'life' is no longer a rules field" in result.stderr and "play --life" in result.stderr
    path.write_text("turn_cap = 300\n")
    result = run_cli("rules", str(path))
    assert result.returncode == 0 and "turn_cap = 300" in result.stdout and "CHANGED from default 400" in result.stdout
    assert "\nlife" not in result.stdout
