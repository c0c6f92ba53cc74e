"""The Novel TCG's `tuned` agent: greedy with the weights of the rules array's policy block.

- registered beside greedy, random and defensive; its weights a `WeightTable` (weights.py);
- greedy's own weights play greedy exactly, and greedy and defensive ignore the block;
- other weights change what `tuned` plays, and a plain rules array gets the shipped ones;
- `tuned` reads only its view (two deals of the same view, one decision);
- the shipped weights load with their provenance (strength against greedy, re-checked on
  fresh seeds with Wilson intervals), and the shared study tunes it deterministically.
"""

import json

import numpy as np
import pytest

from sim.cli import main
from sim.novel_tcg import actions as A
from sim.novel_tcg import layout as L
from sim.novel_tcg.position import match_from_position
from sim.novel_tcg.rules import Rules
from strategies.novel_tcg import (STRATEGY_DEFENSIVE, STRATEGY_GREEDY, STRATEGY_RANDOM, STRATEGY_TUNED,
                                  strategy_id, strategy_names)
from strategies.novel_tcg import tuning as T
from strategies.novel_tcg import weights as W
from strategies.novel_tcg.batch import cell_of, play_batch
from strategies.novel_tcg.policies import choose, nb_view


def _odd():
    """Weights unlike greedy's in every slot (each at the bound farthest from its default)."""
    return np.array([low if default - low > high - default else high for _, default, low, high in W.WEIGHTS],
                    dtype=np.int64)


def _cell(strategy0, strategy1, decks="curve-swarm", first=0):
    return cell_of({"rank": (10, 10), "deck": decks.replace("-", "/"), "first": first}, strategy0, strategy1)


def test_tuned_is_registered_with_a_weight_table():
    assert strategy_names()[:4] == ("greedy", "random", "defensive", "tuned")  # the search agents follow (ids grow at the end)
    assert strategy_id("tuned") == STRATEGY_TUNED == 3
    assert W.POLICY_RULES_SIZE == len(Rules().to_array()) + W.N_WEIGHTS
    assert W.TABLE.groups == () and W.WEIGHT_NAMES[W.K_WEAPON_FIRST] == "weapon_first"


@pytest.mark.parametrize("decks", ["curve-swarm", "advance-advance"])
def test_greedys_weights_play_greedy_exactly_and_greedy_ignores_the_block(decks):
    rules = Rules().to_array()
    defaults, odd = W.with_policy(rules, W.DEFAULTS), W.with_policy(rules, _odd())
    for first in (0, 1):
        greedy = play_batch(defaults, _cell(STRATEGY_GREEDY, STRATEGY_RANDOM, decks, first), 5, 0, 40)
        assert np.array_equal(play_batch(defaults, _cell(STRATEGY_TUNED, STRATEGY_RANDOM, decks, first), 5, 0, 40),
                              greedy)
        for strategy in (STRATEGY_GREEDY, STRATEGY_DEFENSIVE):
            cell = _cell(strategy, STRATEGY_GREEDY, decks, first)
            assert np.array_equal(play_batch(odd, cell, 5, 0, 40), play_batch(defaults, cell, 5, 0, 40))


def test_other_weights_change_what_tuned_plays_and_a_plain_array_gets_the_shipped_ones():
    rules = Rules().to_array()
    cell = _cell(STRATEGY_TUNED, STRATEGY_GREEDY)
    assert not np.array_equal(play_batch(W.with_policy(rules, _odd()), cell, 5, 0, 60),
                              play_batch(W.with_policy(rules, W.DEFAULTS), cell, 5, 0, 60))
    assert np.array_equal(play_batch(rules, cell, 5, 0, 60), play_batch(W.with_policy(rules), cell, 5, 0, 60))


def test_tuned_reads_only_its_view():
    base = {"turn": 3, "phase": "battle", "seats": [
        {"front": [{"slot": 0, "card": "8"}], "deck": ["1", "2"]},
        {"hand": ["4", "blade"], "deck": ["3", "9"], "front": [{"slot": 0, "card": "5", "position": "set"}]}]}
    other = {"turn": 3, "phase": "battle", "seats": [
        {"front": [{"slot": 0, "card": "8"}], "deck": ["2", "1"]},
        {"hand": ["9", "3"], "deck": ["blade", "5"], "front": [{"slot": 0, "card": "4", "position": "set"}]}]}
    decisions = []
    for position in (base, other):
        match = match_from_position(position)
        legal = np.array(match.legal_actions(), dtype=np.int64)
        view = np.zeros(L.STATE_SIZE, dtype=np.int64)
        nb_view(match.pack(), match.active, view)
        rules = W.with_policy(match.rules.to_array(), _odd())
        decisions.append(A.to_text(legal[choose(np.int64(STRATEGY_TUNED), view, rules, legal, np.int64(len(legal)),
                                                np.zeros(2, dtype=np.int64), np.int64(match.active))]))
    assert decisions[0] == decisions[1]


def test_the_shipped_weights_load_with_their_measured_strength():
    document = W.load_tuned_file()
    assert set(document["weights"]) == set(W.WEIGHT_NAMES)
    provenance = document["provenance"]
    assert provenance["game"] == "novel_tcg" and provenance["opponent"] == "greedy"
    assert provenance["command"].startswith("cardbalance tune-agent --game novel_tcg")
    rows = provenance["recheck"]["settings"]
    assert {row["setting"] for row in rows} >= {"curve-curve rank 10", "swarm-advance rank 10", "curve-curve rank 20"}
    for row in rows:
        assert row["wins"] + row["losses"] + row["draws"] == row["matches"]
        assert row["wilson_low"] <= row["win_share"] <= row["wilson_high"]


TINY = dict(matches=36, seed=3, recheck_matches=8, command="test")


def test_the_shared_study_tunes_it_deterministically(tmp_path):
    first = T.tune(tmp_path / "a", trials=3, **TINY)
    second = T.tune(tmp_path / "b", trials=3, **TINY)
    study = [(e["trial"], e["params"], e["wins"], e["losses"]) for e in T.study_summary(tmp_path / "a")]
    assert study == [(e["trial"], e["params"], e["wins"], e["losses"]) for e in T.study_summary(tmp_path / "b")]
    assert study[0][1] == W.as_dict(W.DEFAULTS) and len(study) == 3  # trial 0: greedy's weights
    assert first["weights"] == second["weights"] and first["provenance"]["recheck"] == second["provenance"]["recheck"]
    assert W.load_tuned_file(tmp_path / "a" / T.RESULT_NAME)["weights"] == first["weights"]


def test_tune_agent_for_the_tcg_on_the_command_line(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["tune-agent", "--game", "novel_tcg", "--trials", "1", "--matches", "36", "--recheck", "4",
                 "--out", str(out)]) == 0
    stdout = capsys.readouterr().out
    assert "re-check on fresh seeds (4 matches per setting" in stdout and "curve-curve rank 20" in stdout
    assert json.loads((out / T.RESULT_NAME).read_text())["provenance"]["trials"] == 1
    assert main(["tune-agent", "--game", "novel_tcg", "--matches", "35", "--out", str(tmp_path / "bad")]) == 2
    assert "--matches must be at least 36" in capsys.readouterr().err
