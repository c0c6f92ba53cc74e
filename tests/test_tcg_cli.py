"""The Novel TCG through the command line: scenario sandbox, play, bad input (one line, exit 2, nothing written)."""

import json
import subprocess
import sys

import numpy as np
import pytest

from sim.errors import CardbalanceError
from sim.novel_tcg.card_pool import build_deck
from sim.novel_tcg.rules import Rules, load_rules
from sim.registry import get_game


def run_cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "sim", *args], capture_output=True, text=True, cwd=cwd)


def test_scenario_file_plays_the_L48_example(tmp_path):
    position = {"rules": {"atk_base": 10.0, "atk_slope": 0.0, "hp_base": 10.0, "hp_slope": 0.0},
                "turn": 2, "active": 0, "phase": "battle",
                "seats": [{"front": [{"slot": 0, "card": "10"}]}, {"front": [{"slot": 0, "card": "9"}]}],
                "actions": ["attack 0 0"]}
    path = tmp_path / "l48.json"
    path.write_text(json.dumps(position))
    result = run_cli("scenario", "--game", "novel_tcg", str(path), "--json")  # the CLI prints a summary without it
    assert result.returncode == 0, result.stderr
    output = json.loads(result.stdout)
    assert output["hp"] == [150, 145] and output["front"][0][0]["hp"] == 5 and output["front"][1][0] is None


@pytest.mark.parametrize("position,needle", [
    ({"seats": [{"rank": 21}, {}]}, "rank must be an integer from 1 to 20"),
    ({"phase": "end"}, "'phase' must be one of action, battle"),
    ({"seats": [{"hand": ["25"]}, {}]}, "must be a star 1-20"),
    ({"rules": {"ambiguities": {"T-AMB-99": "x"}}}, "unknown ambiguity 'T-AMB-99'"),
    ({"rules": {"ambiguities": {"T-AMB-39": "hand"}}}, "T-AMB-39 (bases_from) must be one of front_row, also_hand"),
    ({"rules": {"ambiguities": {"T-AMB-31": "yes"}}}, "T-AMB-31 (equip_opponent_chars) must be one of false, true"),
    ({"actions": ["attack 0 0"]}, "action 'attack 0 0' is not legal here"),
])
def test_bad_positions_one_line_exit_2(tmp_path, position, needle):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(position))
    result = run_cli("scenario", "--game", "novel_tcg", str(path))
    assert result.returncode == 2 and needle in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_impossible_deck_parameters_refused_in_one_line():
    with pytest.raises(CardbalanceError, match="above copy_limit 3"):
        build_deck(Rules().with_changes(copy_limit=3), "swarm", 10)
    with pytest.raises(CardbalanceError, match="must be from 1 to deck_size 60"):
        build_deck(Rules().with_changes(swarm_characters=61), "swarm", 10)
    with pytest.raises(CardbalanceError, match="rank must be an integer from 1 to 20"):
        build_deck(Rules(), "curve", 0)
    with pytest.raises(CardbalanceError, match="'atk_slope' must be a number from 0 to 50"):
        Rules().with_changes(atk_slope=-0.5)


def test_unknown_switch_in_a_rules_file(tmp_path):
    path = tmp_path / "r.toml"
    path.write_text('[ambiguities]\n"T-AMB-22" = "both"\n')
    with pytest.raises(CardbalanceError, match="no v1 switch"):
        load_rules(str(path))


def test_two_rule_sets_differ_through_one_compiled_kernel():
    game = get_game("novel_tcg")
    cell = game.cell_array({"rank": (10, 10), "deck": "swarm/advance", "first": 0}, 0, 0)
    a = game.play_batch(Rules().to_array(), cell, 5, 0, 50)
    b = game.play_batch(Rules().with_changes(star_mod=0).to_array(), cell, 5, 0, 50)
    assert not np.array_equal(a, b)


def test_play_narrates_a_match():
    result = run_cli("play", "--game", "novel_tcg", "--p0", "swarm:greedy", "--p1", "advance:greedy", "--seed", "3")
    assert result.returncode == 0, result.stderr
    assert "advance-summons" in result.stdout and "star difference" in result.stdout and "match over" in result.stdout


def test_play_bad_player_one_line():
    result = run_cli("play", "--game", "novel_tcg", "--p0", "control:greedy")
    assert result.returncode == 2 and "TEMPLATE:STRATEGY" in result.stderr


def test_impossible_deck_refused_by_every_command_before_any_output(tmp_path):
    """A template the rules cannot fill: one line, exit 2, nothing on stdout and no run folder
    (play used to print its header first), for play, sweep and compare alike."""
    rules = tmp_path / "limit.toml"
    rules.write_text("copy_limit = 3\n")
    sweep = tmp_path / "s.toml"
    sweep.write_text('name = "limit"\ngame = "novel_tcg"\ndeck = ["swarm"]\nrank = [10]\n'
                     'strategies = ["greedy:greedy"]\nrules = ["%s"]\nmatches = 10\n' % rules)
    commands = (("play", "--game", "novel_tcg", "--rules", str(rules), "--p0", "swarm:greedy", "--p1", "curve:greedy"),
                ("sweep", str(sweep), "--out", str(tmp_path / "run"), "--jobs", "1"),
                ("compare", "default", str(rules), "--game", "novel_tcg"))
    for command in commands:
        result = run_cli(*command)
        assert result.returncode == 2 and result.stdout == "", (command, result.stdout)
        assert result.stderr.strip().splitlines()[-1].endswith("(no limit, §18.6).") and "above copy_limit 3" in result.stderr
    assert not (tmp_path / "run").exists()


def test_scenario_summary_by_default_names_the_result(tmp_path):
    """Without --json the sandbox prints the short summary (issue 29 part 5), for the TCG too."""
    position = {"rules": {"atk_base": 10.0, "atk_slope": 0.0, "hp_base": 10.0, "hp_slope": 0.0},
                "turn": 2, "active": 0, "phase": "battle",
                "seats": [{"front": [{"slot": 0, "card": "10"}]}, {"front": [{"slot": 0, "card": "9"}]}],
                "actions": ["attack 0 0"]}
    path = tmp_path / "l48.json"
    path.write_text(json.dumps(position))
    result = run_cli("scenario", "--game", "novel_tcg", str(path))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("What happened") and "Result:" in result.stdout
