"""The `tuned` agent (issue 14 item 1): greedy's weights as run-time data, tuned by self-play.

- the shipped weights file loads and names its provenance (opponent, matches,
  seed, optimizer and version, date, command, the fresh-seed re-check);
- greedy's default weights in the policy block reproduce greedy exactly, and
  greedy ignores the policy block; other weights change play (the kernel reads them);
- `tune-agent` on a tiny budget is deterministic for a seed, and an interrupted
  run (fewer trials, a torn log line) resumed gives the same study;
- bad input: one line, exit 2, nothing written;
- no peeking: states with the same view give the same decision.
"""

import json

import numpy as np
import pytest

from sim import aggregate as agg
from sim.cli import main
from sim.errors import CardbalanceError
from sim.faction_war import kernel as K
from sim.faction_war import layout as L
from sim.faction_war.rules import Rules
from sim.rng import PyRng
from strategies.faction_war import (STRATEGY_GREEDY, STRATEGY_TUNED, parse_player, strategy_id, strategy_name,
                                    strategy_names)
from strategies.faction_war import batch as B
from strategies.faction_war import tuning as T
from strategies.faction_war import weights as W
from strategies.faction_war.dispatch import choose
from strategies.faction_war.view import build_view

from hidden_info import hide_differently

PROVENANCE_FIELDS = ("opponent", "judged_on", "trials_per_faction", "matches_per_trial", "seed", "optimizer",
                     "optimizer_version", "date", "command", "tuning_value", "recheck")


def test_tuned_is_a_registered_strategy():
    assert "tuned" in strategy_names()
    assert strategy_id("tuned") == STRATEGY_TUNED and strategy_name(STRATEGY_TUNED) == "tuned"
    assert parse_player("alien:tuned") == (L.ALIEN, STRATEGY_TUNED)


def test_shipped_weights_load_with_their_provenance():
    document = W.load_tuned_file()
    for faction in L.FACTION_NAMES:
        assert set(document["weights"][faction]) == set(W.WEIGHT_NAMES)
    provenance = document["provenance"]
    for name in PROVENANCE_FIELDS:
        assert provenance.get(name) not in (None, "", {}), name
    assert provenance["opponent"] == "greedy" and provenance["optimizer_version"].startswith("optuna ")
    assert provenance["command"].startswith("cardbalance tune-agent")
    pairings = provenance["recheck"]["pairings"]
    assert {row["pairing"] for row in pairings} == {"human_vs_human", "human_vs_alien", "alien_vs_human",
                                                      "alien_vs_alien"}
    for row in pairings:
        assert row["wins"] + row["losses"] + row["draws"] == row["matches"]
        assert row["wilson_low"] <= row["win_share"] <= row["wilson_high"]
    block = W.shipped_policy_block()
    assert block.shape == (W.POLICY_SLOTS,)
    assert not np.array_equal(block, W.policy_block({})), "the shipped weights are greedy's: nothing was tuned"


def test_weights_file_errors_name_the_field(tmp_path):
    good = W.as_dict(W.DEFAULTS)
    with pytest.raises(CardbalanceError, match="missing weight 'score_small_joker'"):
        W.check_weights({k: v for k, v in good.items() if k != "score_small_joker"}, "weights.human")
    with pytest.raises(CardbalanceError, match="unknown weight 'bogus'"):
        W.check_weights({**good, "bogus": 1}, "weights.human")
    with pytest.raises(CardbalanceError, match="weight low_life must be an integer"):
        W.check_weights({**good, "low_life": 1.5}, "weights.human")
    path = tmp_path / "w.json"
    path.write_text("{not json")
    with pytest.raises(CardbalanceError, match="cannot be read as JSON"):
        W.load_tuned_file(path)


def _cells(strategy0, strategy1):
    for faction0 in (L.HUMAN, L.ALIEN):
        for faction1 in (L.HUMAN, L.ALIEN):
            for first in (0, 1):
                yield B.cell_array(faction0, faction1, 50, 50, first, strategy0, strategy1)


def test_default_weights_reproduce_greedy_exactly():
    rules = Rules().to_array()
    defaults = W.with_policy(rules, W.policy_block({}))
    for tuned_cell, greedy_cell in zip(_cells(STRATEGY_TUNED, STRATEGY_TUNED), _cells(STRATEGY_GREEDY, STRATEGY_GREEDY)):
        assert np.array_equal(B.play_batch(defaults, tuned_cell, 5, 0, 150), B.play_batch(rules, greedy_cell, 5, 0, 150))
    cell = B.cell_array(L.HUMAN, L.ALIEN, 50, 50, 0, STRATEGY_TUNED, STRATEGY_GREEDY)
    greedy = B.cell_array(L.HUMAN, L.ALIEN, 50, 50, 0, STRATEGY_GREEDY, STRATEGY_GREEDY)
    assert B.trace_match(defaults, cell, 77) == B.trace_match(rules, greedy, 77)


def test_greedy_ignores_the_policy_block_and_tuned_reads_it():
    rules = Rules().to_array()
    odd = W.DEFAULTS.copy()
    odd[W.K_KEEP_NORMAL_BASE] = 40  # keep every normal card: discard face cards and jokers first
    odd[W.K_SCORE_SMALL_JOKER] = -5  # never play the small joker
    odd_rules = W.with_policy(rules, W.policy_block({"human": odd, "alien": odd}))
    greedy = list(_cells(STRATEGY_GREEDY, STRATEGY_GREEDY))
    for cell in greedy:
        assert np.array_equal(B.play_batch(odd_rules, cell, 9, 0, 100), B.play_batch(rules, cell, 9, 0, 100))
    changed = [not np.array_equal(B.play_batch(odd_rules, cell, 9, 0, 100), B.play_batch(rules, g, 9, 0, 100))
               for cell, g in zip(_cells(STRATEGY_TUNED, STRATEGY_GREEDY), greedy)]
    assert all(changed)
    # a plain rules array gets the shipped weights (the batch wrappers append them)
    cell = B.cell_array(L.ALIEN, L.HUMAN, 50, 50, 1, STRATEGY_TUNED, STRATEGY_GREEDY)
    assert np.array_equal(B.play_batch(rules, cell, 3, 0, 50), B.play_batch(W.with_policy(rules), cell, 3, 0, 50))
    with pytest.raises(CardbalanceError, match="with a policy block"):
        B.play_batch(np.zeros(5, dtype=np.int64), cell, 3, 0, 1)


def test_tuned_plays_the_same_on_kernel_and_reference():
    """The reference engine's match loop (playlog: `cardbalance play`, the differential
    checks) gives `tuned` the same shipped weights as the batch kernel."""
    from strategies.faction_war.playlog import reference_record
    rules = Rules()
    for cell in _cells(STRATEGY_TUNED, STRATEGY_GREEDY):
        for seed in (1, 2):
            _, record = B.play_one(rules.to_array(), cell, seed)
            assert np.array_equal(reference_record(rules, cell, seed), record), (cell, seed)


def test_tuned_beats_nothing_by_peeking():
    """Two states that give the decider the same view give the same decision."""
    rules = W.with_policy(Rules().to_array())
    rng = PyRng(5)
    legal = np.zeros(B.LEGAL_CAPACITY, dtype=np.int64)
    other_legal = np.zeros(B.LEGAL_CAPACITY, dtype=np.int64)
    view = np.zeros(L.STATE_SIZE, dtype=np.int64)
    other_view = np.zeros(L.STATE_SIZE, dtype=np.int64)
    checked = 0
    for seed in range(8):
        state = np.zeros(L.STATE_SIZE, dtype=np.int64)
        K.new_match(state, rules, seed % 2, 1 - seed // 4, 50, 50, seed % 2, np.uint64(seed))
        policy = np.array([seed, seed + 1], dtype=np.int64)
        while not K.is_over(state):
            n_legal = K.legal_actions(state, rules, legal)
            player = int(state[L.S_DECIDER])
            other = hide_differently(state, player, rng)
            assert K.legal_actions(other, rules, other_legal) == n_legal
            build_view(state, rules, player, view)
            build_view(other, rules, player, other_view)
            assert np.array_equal(view, other_view)
            index = choose(STRATEGY_TUNED, view, rules, legal, n_legal, policy.copy(), player)
            assert choose(STRATEGY_TUNED, other_view, rules, other_legal, n_legal, policy.copy(), player) == index
            K.apply_action(state, rules, legal[index])
            checked += 1
    assert checked > 200


# ---- tune-agent ---------------------------------------------------------------------------------

TINY = dict(matches=8, seed=3, recheck_matches=8, command="test")
TINY_TRIALS = 13  # past TPE's random start (STARTUP_TRIALS + 1), so the model-based proposals are covered


def _study(out):
    return [(e["faction"], e["trial"], e["params"], e["wins"], e["losses"]) for e in T.study_summary(out)]


def test_tune_agent_is_deterministic_for_a_seed(tmp_path):
    first = T.tune(tmp_path / "a", trials=TINY_TRIALS, **TINY)
    second = T.tune(tmp_path / "b", trials=TINY_TRIALS, **TINY)
    assert _study(tmp_path / "a") == _study(tmp_path / "b")
    assert first["weights"] == second["weights"]
    assert first["provenance"]["recheck"] == second["provenance"]["recheck"]
    study = _study(tmp_path / "a")
    assert len(study) == 2 * TINY_TRIALS
    assert study[0][2] == W.as_dict(W.DEFAULTS)  # trial 0: greedy's weights
    assert len({json.dumps(params, sort_keys=True) for _, _, params, _, _ in study}) > TINY_TRIALS  # it searches
    other = T.tune(tmp_path / "c", trials=2, **{**TINY, "seed": 4})
    assert _study(tmp_path / "c")[1][2] != study[1][2]  # another seed, other candidates
    assert other["provenance"]["seed"] == 4


def test_tune_agent_resumes_to_the_same_study(tmp_path):
    whole = T.tune(tmp_path / "whole", trials=TINY_TRIALS, **TINY)
    out = tmp_path / "resumed"
    T.tune(out, trials=5, **TINY)  # "interrupted" after 5 trials per faction
    log = out / T.LOG_NAME
    lines = log.read_text().splitlines(keepends=True)
    log.write_text("".join(lines[:-1]) + lines[-1][:20])  # and a line torn by the interrupt
    resumed = T.tune(out, trials=TINY_TRIALS, **TINY)
    assert _study(out) == _study(tmp_path / "whole")
    assert resumed["weights"] == whole["weights"]


def test_tune_agent_interrupted_mid_run_resumes_to_the_same_study(tmp_path):
    whole = T.tune(tmp_path / "whole", trials=TINY_TRIALS, **TINY)

    def interrupt(faction, entry, best):
        if faction == "human" and entry["trial"] == 8:
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


@pytest.mark.parametrize("args, message", [
    (["--trials", "0"], "--trials must be at least 1"),
    (["--matches", "3"], "--matches must be at least 8"),
    (["--recheck", "0"], "--recheck must be at least 4"),
    (["--seed", "-1"], "--seed must be from 0"),
    (["--game", "chess"], "game 'chess' is unknown"),
])
def test_tune_agent_bad_input_is_one_line_exit_2(tmp_path, capsys, args, message):
    out = tmp_path / "run"
    code, stdout, stderr = _cli(args + ["--out", str(out)], capsys)
    assert code == 2 and stdout == ""
    assert len(stderr.strip().splitlines()) == 1 and message in stderr
    assert not out.exists()


def test_tune_agent_refuses_a_folder_of_another_run_and_a_file(tmp_path, capsys):
    out = tmp_path / "run"
    code, stdout, _ = _cli(["--trials", "1", "--matches", "8", "--recheck", "4", "--out", str(out)], capsys)
    assert code == 0 and "re-check on fresh seeds" in stdout
    before = (out / T.LOG_NAME).read_text()
    code, _, stderr = _cli(["--trials", "2", "--matches", "8", "--recheck", "4", "--seed", "9", "--out", str(out)],
                           capsys)
    assert code == 2 and "holds a tuning run with seed 1" in stderr and len(stderr.strip().splitlines()) == 1
    assert (out / T.LOG_NAME).read_text() == before
    a_file = tmp_path / "file"
    a_file.write_text("x")
    code, _, stderr = _cli(["--out", str(a_file)], capsys)
    assert code == 2 and "is a file" in stderr


def test_paired_result_plays_every_deal_four_ways():
    rules = W.with_policy(Rules().to_array(), W.policy_block({}))
    result = T.paired_result(rules, L.HUMAN, L.ALIEN, 11, 20)
    assert result["matches"] == 80
    # greedy against itself on paired deals: every deal is won by each side equally often
    # when the tuned weights are greedy's (seats swapped, same seeds)
    mirror = T.paired_result(rules, L.HUMAN, L.HUMAN, 11, 20)
    assert mirror["wins"] == mirror["losses"]
    # the re-check's pairing keeps the factions by seat and swaps the agents: with greedy's
    # weights each deal is the same match twice, won once by each agent
    for faction0, faction1 in ((L.HUMAN, L.ALIEN), (L.ALIEN, L.HUMAN)):
        result = T.pairing_result(rules, faction0, faction1, 11, 20)
        assert result["matches"] == 80 and result["wins"] == result["losses"]
    tuned = T.pairing_result(W.with_policy(Rules().to_array()), L.HUMAN, L.ALIEN, 11, 20)
    assert tuned["wins"] != tuned["losses"]  # (the shipped weights play differently)
    assert agg.DRAW == 2
