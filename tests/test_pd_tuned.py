"""Poker Duel's `tuned` agent (issue 16 item 4, issue 14 item 1): greedy's numbers as
run-time weights (strategies/poker_duel/weights.py), tuned by self-play.

- `tuned` is a strategy name with its own id; the shipped weights file loads and
  names its provenance (opponent, matches, seeds, optimizer and version, date,
  command, the fresh-seed re-check);
- both greedy twins (policies.py, kernel_policies.py) with greedy's default weights
  play greedy exactly; greedy ignores the policy block; `tuned` reads it (every
  weight changes play somewhere), a rules array without the block plays greedy, the
  batch wrappers append the shipped weights to a plain array; the reference loop and
  the kernel loop play the same matches with non-default weights;
- no peeking: two states with the same view give the same decision;
- `tune-agent --game poker_duel` on a tiny budget is deterministic for a seed, and an
  interrupted run (fewer trials, a torn log line, Ctrl-C) resumed gives the same
  study; bad input is one line, exit 2, nothing written.
"""

import json

import numpy as np
import pytest

from sim import rng as rng_module
from sim.cli import main
from sim.errors import CardbalanceError
from sim.poker_duel import layout as L
from sim.poker_duel.rules import load_rules
from sim.registry import get_game
from strategies.poker_duel import STRATEGY_GREEDY, STRATEGY_TUNED, strategy_id, strategy_name, strategy_names
from sim.poker_duel import kernel_chain as KC
from strategies.poker_duel import batch as python_loop
from strategies.poker_duel import policies
from strategies.poker_duel import kernel_batch as KB
from strategies.poker_duel import tuning as T
from strategies.poker_duel import weights as W
from strategies.poker_duel.dispatch import choose, loop_workspace

from test_pd_agents_sampler import decision_states, hide_differently, view_of

PROVENANCE_FIELDS = ("game", "rules", "opponent", "judged_on", "trials", "matches_per_trial", "seed",
                     "tuning_chunk_seed", "recheck_chunk_seed", "optimizer", "optimizer_version", "date",
                     "command", "tuning_value", "recheck")


def _cell(strategy0, strategy1, first=0, hp=(40, 40)):
    return python_loop.cell_of({"hp": hp, "first": first}, strategy0, strategy1)


def _cells(strategy0, strategy1):
    for first in (0, 1):
        for hp in ((40, 40), (20, 30)):
            yield _cell(strategy0, strategy1, first, hp)


def _odd_weights():
    """Weights unlike greedy's in every slot (each at the bound farthest from its default)."""
    return np.array([low if default - low > high - default else high for _, default, low, high in W.WEIGHTS],
                    dtype=np.int64)


def test_tuned_is_a_registered_strategy():
    assert "tuned" in strategy_names()
    assert strategy_id("tuned") == STRATEGY_TUNED and strategy_name(STRATEGY_TUNED) == "tuned"
    assert get_game("poker_duel").strategy_id("tuned") == STRATEGY_TUNED
    assert W.POLICY_RULES_SIZE == len(load_rules("core").to_array()) + W.N_WEIGHTS


def test_shipped_weights_load_with_their_provenance():
    document = W.load_tuned_file()
    assert set(document["weights"]) == set(W.WEIGHT_NAMES)
    provenance = document["provenance"]
    for name in PROVENANCE_FIELDS:
        assert provenance.get(name) not in (None, "", {}), name
    assert provenance["game"] == "poker_duel" and provenance["opponent"] == "greedy"
    assert provenance["optimizer_version"].startswith("optuna ")
    assert provenance["command"].startswith("cardbalance tune-agent --game poker_duel")
    recheck = provenance["recheck"]
    assert recheck["by"] == "setting" and recheck["matches_per_setting"] >= 2000
    assert {row["setting"] for row in recheck["settings"]} >= {"core 40 HP", "advanced 40 HP"}
    for row in recheck["settings"]:
        assert row["wins"] + row["losses"] + row["draws"] == row["matches"] == recheck["matches_per_setting"]
        assert row["wilson_low"] <= row["win_share"] <= row["wilson_high"]
    for name, value in document["weights"].items():
        low, high = W.RANGES[name]
        assert low <= value <= high, name
    assert not np.array_equal(W.shipped_weights(), W.DEFAULTS), "the shipped weights are greedy's: nothing was tuned"


def test_weights_file_errors_name_the_field(tmp_path):
    good = W.as_dict(W.DEFAULTS)
    with pytest.raises(CardbalanceError, match="missing weight 'bump_min_gain'"):
        W.check_weights({k: v for k, v in good.items() if k != "bump_min_gain"}, "weights")
    with pytest.raises(CardbalanceError, match="unknown weight 'bogus'"):
        W.check_weights({**good, "bogus": 1}, "weights")
    with pytest.raises(CardbalanceError, match="weight keep_king must be an integer"):
        W.check_weights({**good, "keep_king": 1.5}, "weights")
    path = tmp_path / "w.json"
    path.write_text("{not json")
    with pytest.raises(CardbalanceError, match="cannot be read as JSON"):
        W.load_tuned_file(path)
    path.write_text(json.dumps({"weights": [1, 2]}))
    with pytest.raises(CardbalanceError, match="must be a table of weights"):
        W.load_tuned_file(path)
    with pytest.raises(CardbalanceError, match="policy block must have %d weights" % W.N_WEIGHTS):
        W.with_policy(load_rules("core").to_array(), [1, 2, 3])


# ---- greedy's default weights are greedy, in both twins ---------------------------------------

@pytest.mark.parametrize("preset", ["core", "advanced"])
def test_default_weights_play_greedy_exactly_on_the_kernel(preset):
    rules = load_rules(preset).to_array()
    defaults = W.with_policy(rules, W.DEFAULTS)
    for tuned_cell, greedy_cell in zip(_cells(STRATEGY_TUNED, STRATEGY_TUNED), _cells(STRATEGY_GREEDY, STRATEGY_GREEDY)):
        assert np.array_equal(KB.play_batch(defaults, tuned_cell, 5, 0, 300), KB.play_batch(rules, greedy_cell, 5, 0, 300))


def test_default_weights_play_greedy_exactly_on_the_reference_loop():
    rules = load_rules("core").to_array()
    defaults = W.with_policy(rules, W.DEFAULTS)
    assert np.array_equal(python_loop.play_batch(defaults, _cell(STRATEGY_TUNED, STRATEGY_GREEDY), 4, 0, 12),
                          python_loop.play_batch(rules, _cell(STRATEGY_GREEDY, STRATEGY_GREEDY), 4, 0, 12))


def test_greedy_ignores_the_policy_block_and_tuned_reads_it():
    rules = load_rules("core").to_array()
    odd = W.with_policy(rules, _odd_weights())
    greedy = list(_cells(STRATEGY_GREEDY, STRATEGY_GREEDY))
    for cell in greedy:
        assert np.array_equal(KB.play_batch(odd, cell, 9, 0, 200), KB.play_batch(rules, cell, 9, 0, 200))
    for cell, greedy_cell in zip(_cells(STRATEGY_TUNED, STRATEGY_GREEDY), greedy):
        assert not np.array_equal(KB.play_batch(odd, cell, 9, 0, 200), KB.play_batch(rules, greedy_cell, 9, 0, 200))
    # a plain rules array gets the shipped weights (the batch wrappers append them)
    cell = _cell(STRATEGY_TUNED, STRATEGY_GREEDY, first=1)
    assert np.array_equal(KB.play_batch(rules, cell, 3, 0, 50), KB.play_batch(W.with_policy(rules), cell, 3, 0, 50))
    with pytest.raises(CardbalanceError, match="with a policy block"):
        KB.play_batch(np.zeros(5, dtype=np.int64), cell, 3, 0, 1)


def test_a_rules_array_without_the_block_plays_greedy():
    """The compiled loop called directly with a plain array (no batch wrapper): `tuned` is greedy."""
    rules = load_rules("core").to_array()
    for i in range(40):
        seed = np.uint64(rng_module.match_seed(21, i))
        tuned, greedy = (np.zeros(python_loop.N_RECORD, dtype=np.int64) for _ in range(2))
        KB.play_match(rules, _cell(STRATEGY_TUNED, STRATEGY_TUNED, i % 2), seed, tuned, L.new_state())
        KB.play_match(rules, _cell(STRATEGY_GREEDY, STRATEGY_GREEDY, i % 2), seed, greedy, L.new_state())
        assert np.array_equal(tuned, greedy), i


@pytest.fixture(scope="module")
def random_play_positions():
    """(rules array, view, legal list, seat) at every decision of random kernel matches
    (random play reaches the rarer decisions: full hands to discard, K picks among J and Q)."""
    out = []
    for preset in ("core", "advanced"):
        rules = load_rules(preset)
        for state, seat in decision_states(rules, 40, every=1, seed0=500):
            legal = np.zeros(512, dtype=np.int64)
            n = KC.legal_actions(state, rules.to_array(), legal)
            out.append((rules.to_array(), view_of(state, rules.to_array(), seat), legal[:n].copy(), seat))
    return out


def _tuned_decision(rules_with_block, view, legal, seat):
    return int(choose(np.int64(STRATEGY_TUNED), view.copy(), rules_with_block, legal.copy(), np.int64(len(legal)),
                      np.zeros(2, dtype=np.int64), np.int64(seat), loop_workspace(STRATEGY_TUNED, 0)))


@pytest.mark.parametrize("index", range(W.N_WEIGHTS))
def test_every_weight_changes_decisions_in_both_twins(index, random_play_positions):
    """No dead weight: moving one weight to its far bound changes some of tuned's
    decisions, and the Python twin decides every position as the compiled one."""
    name, default, low, high = W.WEIGHTS[index]
    vector = W.DEFAULTS.copy()
    vector[index] = low if default - low > high - default else high
    changed = 0
    for rules_array, view, legal, seat in random_play_positions:
        moved = _tuned_decision(W.with_policy(rules_array, vector), view, legal, seat)
        python = policies.greedy_index(view, [int(a) for a in legal], W.with_policy(rules_array, vector), None, vector)
        assert python == moved, (name, legal)
        changed += moved != _tuned_decision(W.with_policy(rules_array, W.DEFAULTS), view, legal, seat)
    assert changed > 0, name


@pytest.mark.parametrize("preset", ["core", "advanced"])
def test_tuned_plays_the_same_on_the_kernel_and_the_reference_loop(preset):
    """The Python twin reads the weights as the compiled one: records equal with odd
    weights, and with the shipped ones (a Rules object: `cardbalance play`'s path)."""
    rules = load_rules(preset)
    odd = W.with_policy(rules.to_array(), _odd_weights())
    for i in range(12):
        cell = _cell(STRATEGY_TUNED, STRATEGY_GREEDY if i % 3 else STRATEGY_TUNED, i % 2, (40, 30 + i))
        seed = rng_module.match_seed(31, i)
        for rules_array, reference_rules in ((odd, odd), (W.with_policy(rules.to_array()), rules)):
            record = np.zeros(python_loop.N_RECORD, dtype=np.int64)
            KB.play_match(rules_array, cell, np.uint64(seed), record, L.new_state())
            assert np.array_equal(record, python_loop.reference_record(reference_rules, cell, seed)), (preset, i)


def test_tuned_beats_nothing_by_peeking():
    """Two states that give the decider the same view give the same decision."""
    import random
    chooser = random.Random(3)
    checked = 0
    for preset in ("core", "advanced"):
        rules_array = W.with_policy(load_rules(preset).to_array(), _odd_weights())
        for state, seat in decision_states(load_rules(preset), 6, every=3, seed0=40):
            other = hide_differently(state, seat, chooser)
            view, other_view = view_of(state, rules_array, seat), view_of(other, rules_array, seat)
            assert np.array_equal(view, other_view)
            legal = np.zeros(512, dtype=np.int64)
            n = KC.legal_actions(state, rules_array, legal)
            decisions = [choose(np.int64(STRATEGY_TUNED), v.copy(), rules_array, legal.copy(), np.int64(n),
                                np.zeros(2, dtype=np.int64), np.int64(seat), loop_workspace(STRATEGY_TUNED, 0))
                         for v in (view, other_view)]
            assert decisions[0] == decisions[1]
            checked += 1
    assert checked > 50


# ---- tune-agent --game poker_duel -------------------------------------------------------------

TINY = dict(matches=8, seed=3, recheck_matches=8, command="test")
TINY_TRIALS = 13  # past TPE's random start (STARTUP_TRIALS + 1), so the model-based proposals are covered


def _study(out):
    return [(e["trial"], e["params"], e["wins"], e["losses"]) for e in T.study_summary(out)]


def test_tune_agent_is_deterministic_for_a_seed(tmp_path):
    first = T.tune(tmp_path / "a", trials=TINY_TRIALS, **TINY)
    second = T.tune(tmp_path / "b", trials=TINY_TRIALS, **TINY)
    assert _study(tmp_path / "a") == _study(tmp_path / "b")
    assert first["weights"] == second["weights"]
    assert first["provenance"]["recheck"] == second["provenance"]["recheck"]
    study = _study(tmp_path / "a")
    assert len(study) == TINY_TRIALS
    assert study[0][1] == W.as_dict(W.DEFAULTS)  # trial 0: greedy's weights
    assert study[0][2] == study[0][3]  # greedy against greedy on paired deals: each deal won equally often
    assert len({json.dumps(params, sort_keys=True) for _, params, _, _ in study}) == TINY_TRIALS  # it searches
    other = T.tune(tmp_path / "c", trials=2, **{**TINY, "seed": 4})
    assert _study(tmp_path / "c")[1][1] != study[1][1]  # another seed, other candidates
    assert other["provenance"]["seed"] == 4
    assert {row["setting"] for row in first["provenance"]["recheck"]["settings"]} == {
        "%s %d HP" % (preset, hp[0]) for preset, hp in T.RECHECK_SETTINGS}


def test_tune_agent_resumes_to_the_same_study(tmp_path):
    whole = T.tune(tmp_path / "whole", trials=TINY_TRIALS, **TINY)
    out = tmp_path / "resumed"
    T.tune(out, trials=5, **TINY)  # "interrupted" after 5 trials
    log = out / T.LOG_NAME
    lines = log.read_text().splitlines(keepends=True)
    log.write_text("".join(lines[:-1]) + lines[-1][:20])  # and a line torn by the interrupt
    resumed = T.tune(out, trials=TINY_TRIALS, **TINY)
    assert _study(out) == _study(tmp_path / "whole")
    assert resumed["weights"] == whole["weights"]


def test_tune_agent_interrupted_mid_run_resumes_to_the_same_study(tmp_path):
    whole = T.tune(tmp_path / "whole", trials=TINY_TRIALS, **TINY)

    def interrupt(label, entry, best):
        if entry["trial"] == 8:
            raise KeyboardInterrupt  # Ctrl-C after the trial is logged

    out = tmp_path / "interrupted"
    with pytest.raises(KeyboardInterrupt):
        T.tune(out, trials=TINY_TRIALS, progress=interrupt, **TINY)
    assert not (out / T.RESULT_NAME).exists()
    resumed = T.tune(out, trials=TINY_TRIALS, **TINY)
    assert _study(out) == _study(tmp_path / "whole")
    assert resumed["weights"] == whole["weights"]


def _cli(args, capsys):
    code = main(["tune-agent"] + args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_tune_agent_command_for_poker_duel(tmp_path, capsys):
    out = tmp_path / "run"
    code, stdout, _ = _cli(["--game", "poker_duel", "--trials", "2", "--matches", "8", "--recheck", "8",
                            "--out", str(out)], capsys)
    assert code == 0 and "re-check on fresh seeds (8 matches per setting" in stdout
    assert "core 40 HP" in stdout and "advanced 40 HP" in stdout
    document = json.loads((out / T.RESULT_NAME).read_text())
    assert document["provenance"]["command"].startswith("cardbalance tune-agent --game poker_duel --trials 2")
    assert W.load_tuned_file(out / T.RESULT_NAME)["weights"] == document["weights"]
    # the folder refuses other settings
    code, _, stderr = _cli(["--game", "poker_duel", "--trials", "3", "--matches", "12", "--recheck", "8",
                            "--out", str(out)], capsys)
    assert code == 2 and "holds a tuning run with matches 8" in stderr and len(stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("args, message", [
    (["--game", "poker_duel", "--trials", "0"], "--trials must be at least 1"),
    (["--game", "poker_duel", "--trials", "-3"], "--trials must be at least 1"),
    (["--game", "poker_duel", "--matches", "3"], "--matches must be at least 4"),
    (["--game", "poker_duel", "--recheck", "0"], "--recheck must be at least 4"),
    (["--game", "poker_duel", "--seed", "-1"], "--seed must be from 0"),
    (["--game", "toy"], "--game toy has no tunable agent; games with one: faction_war, novel_tcg, poker_duel"),
    (["--game", "chess"], "game 'chess' is unknown"),
])
def test_tune_agent_bad_input_is_one_line_exit_2(tmp_path, capsys, args, message):
    out = tmp_path / "run"
    code, stdout, stderr = _cli(args + ["--out", str(out)], capsys)
    assert code == 2 and stdout == ""
    assert len(stderr.strip().splitlines()) == 1 and message in stderr, stderr
    assert not out.exists()
