"""The "ismcts:N" strategy (strategies/faction_war/ismcts.py, issue 14 item 3).

- names: "ismcts" (default budget) and "ismcts:N" parse to kernel ids and back;
  bad budgets (ismcts:0, ismcts:abc) get one clear error line and exit 2;
- no peeking: two states that give the decider the same view produce the same
  decision and the same root statistics for the same agent generator;
- the budget is N iterations: the root children's visits add up to N, and a
  workspace with room for exactly N + 2 nodes suffices (it is allocated once per
  batch, `workspace.py`); the choice is the most visited action;
- the batch kernel and the reference-driven loop make the same decisions, and a
  sweep is bit-identical with --jobs 1 and --jobs 2;
- it plays: with a small budget it beats random;
- the play log narrates each search decision's top candidates.
"""

import numpy as np
import pandas as pd
import pytest

from sim.cli import main
from sim.errors import CardbalanceError
from sim.faction_war import kernel
from sim.faction_war import layout as L
from sim.faction_war.rules import Rules
from sim.rng import PyRng, to_signed
from strategies.faction_war import (ISMCTS_DEFAULT_BUDGET, PARAM_SHIFT, STRATEGY_ISMCTS, STRATEGY_RANDOM,
                                    parse_player, strategy_id, strategy_name)
from strategies.faction_war import batch as B
from strategies.faction_war.dispatch import choose_in_loop
from strategies.faction_war.playlog import replay_log
from strategies.faction_war.view import build_view
from strategies import search_tree as T
from strategies.faction_war.workspace import new_workspace

from hidden_info import hide_differently
from test_sampler import decision_states
from test_strategies_factions import ALIEN, HUMAN, play


def test_names_and_ids():
    assert strategy_id("ismcts") == STRATEGY_ISMCTS and strategy_name(STRATEGY_ISMCTS) == "ismcts"
    assert strategy_id("ISMCTS:400") == STRATEGY_ISMCTS | 400 << PARAM_SHIFT
    assert strategy_name(strategy_id("ismcts:400")) == "ismcts:400"
    assert parse_player("human:ismcts:8") == (0, STRATEGY_ISMCTS | 8 << PARAM_SHIFT)
    assert ISMCTS_DEFAULT_BUDGET > 0
    for bad, words in (("ismcts:0", "from 1 to 100000"), ("ismcts:abc", "must be an integer"),
                       ("ismcts:100001", "from 1 to")):
        with pytest.raises(CardbalanceError, match=words):
            strategy_id(bad)


@pytest.mark.parametrize("player", ["human:ismcts:0", "human:ismcts:abc"])
def test_a_bad_budget_is_one_error_line_and_exit_2(capsys, player):
    assert main(["play", "--p0", player, "--p1", "alien:greedy"]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    assert player in lines[0] and "N (iterations per decision) must be an integer from 1 to 100000" in lines[0]
    assert captured.out == ""


def _decide(view, rules_array, seat, legal, agent_seed, budget):
    strategy = STRATEGY_ISMCTS | budget << PARAM_SHIFT
    policy = np.array([to_signed(agent_seed), to_signed(agent_seed + 1)], dtype=np.int64)
    workspace = new_workspace(strategy, strategy)
    assert workspace[T.W_NODES] == budget + T.SPARE_NODES
    legal = np.array(legal, dtype=np.int64)
    index = choose_in_loop(strategy, view.copy(), rules_array, legal, len(legal), policy, seat, workspace)
    assert workspace[T.W_N_STATS] == len(legal)
    visits = T.visits_of(workspace)[:len(legal)].copy()
    points = T.points_of(workspace)[:len(legal)].copy()
    return index, visits, points, policy


def test_the_same_view_gives_the_same_decision_and_the_budget_is_iterations():
    rules = Rules().with_changes(ambiguities={"FA-6": "choice", "FA-4": "choice"})
    rules_array = rules.to_array()
    rng = PyRng(19)
    buffer = np.zeros(L.STATE_SIZE, dtype=np.int64)
    legal_buffer = np.zeros(B.LEGAL_CAPACITY, dtype=np.int64)
    checked = 0
    for k, (state, decider) in enumerate(decision_states(rules, 6, every=9, seed0=40)):
        n = kernel.legal_actions(state.copy(), rules_array, legal_buffer)
        legal = [int(a) for a in legal_buffer[:n]]
        other = hide_differently(state, decider, rng)
        view = build_view(state, rules_array, decider, buffer).copy()
        other_view = build_view(other, rules_array, decider, buffer).copy()
        assert np.array_equal(other_view, view)
        budget = 8 + k % 20
        first = _decide(view, rules_array, decider, legal, 300 + k, budget)
        second = _decide(other_view, rules_array, decider, legal, 300 + k, budget)
        assert first[0] == second[0]
        for a, b in zip(first[1:], second[1:]):
            assert np.array_equal(a, b)
        index, visits, points, _ = first
        assert visits.sum() == budget  # one root child per iteration
        assert visits[index] == visits.max()  # final move by visit count
        assert np.all(points <= 2 * visits)
        if budget >= n:
            assert visits.min() >= 1  # every root action is tried before any is repeated
        checked += 1
    assert checked > 20


def test_non_search_decisions_leave_no_statistics():
    workspace = new_workspace(strategy_id("greedy"), strategy_id("ismcts:4"))
    workspace[T.W_N_STATS] = 7
    rules_array = Rules().to_array()
    state, decider = decision_states(Rules(), 1, every=5)[0]
    legal = np.zeros(B.LEGAL_CAPACITY, dtype=np.int64)
    n = kernel.legal_actions(state.copy(), rules_array, legal)
    view = build_view(state, rules_array, decider, np.zeros(L.STATE_SIZE, dtype=np.int64))
    choose_in_loop(strategy_id("greedy"), view, rules_array, legal, n, np.zeros(2, dtype=np.int64), decider, workspace)
    assert workspace[T.W_N_STATS] == 0


def test_kernel_batch_and_reference_driven_loop_agree_and_batches_repeat():
    rules = Rules()
    agent = strategy_id("ismcts:6")
    for factions in [(HUMAN, ALIEN), (ALIEN, HUMAN)]:
        reference = []
        play(rules, factions, (agent, STRATEGY_RANDOM), 5,
             on_decision=lambda m, s, d, actions, i: reference.append(actions[i]))
        cell = B.cell_array(factions[0], factions[1], 50, 50, 5 % 2, agent, STRATEGY_RANDOM)
        traced = [action for _, action, legal in B.trace_match(rules.to_array(), cell, 5) if len(legal) > 1]
        assert traced == reference
    cell = B.cell_array(HUMAN, HUMAN, 50, 50, 0, agent, strategy_id("greedy"))
    assert np.array_equal(B.play_batch(rules.to_array(), cell, 5, 0, 4), B.play_batch(rules.to_array(), cell, 5, 0, 4))
    # a batch of 4 equals its matches played one by one (each with a fresh workspace)
    whole = B.play_batch(rules.to_array(), cell, 5, 0, 4)
    parts = sum(B.play_batch(rules.to_array(), cell, 5, i, 1) for i in range(4))
    assert np.array_equal(whole, parts)


def test_a_sweep_is_bit_identical_across_jobs(tmp_path):
    grid = tmp_path / "grid.toml"
    grid.write_text('game = "faction_war"\npairings = ["human_vs_alien"]\nlife = [30]\n'
                    'strategies = ["ismcts:4:greedy", "greedy:pimc-greedy:2"]\nrules = ["default"]\n'
                    'matches = 8\nchunk_size = 2\nseed = 3\n')
    for jobs in ("1", "2"):
        assert main(["sweep", str(grid), "--out", str(tmp_path / jobs), "--jobs", jobs, "--quiet",
                     "--no-report"]) == 0
    one, two = (pd.read_parquet(tmp_path / jobs / "results.parquet") for jobs in ("1", "2"))
    pd.testing.assert_frame_equal(one, two, check_exact=True)
    assert len(one) == 4  # two strategy pairs x both first players


def test_ismcts_beats_random():
    rules = Rules().to_array()
    agent = strategy_id("ismcts:24")
    wins = decided = 0
    for seat in (0, 1):
        strategies = (agent, STRATEGY_RANDOM) if seat == 0 else (STRATEGY_RANDOM, agent)
        aggregate = B.play_batch(rules, B.cell_array(HUMAN, HUMAN, 50, 50, seat, *strategies), 11, 0, 12)
        won = [int(sum(aggregate[5 + k * L.N_END_TYPES + e] for e in range(L.N_END_TYPES))) for k in range(2)]
        wins += won[seat]
        decided += sum(won)
    assert decided >= 20 and wins >= 0.8 * decided, (wins, decided)


def test_the_play_log_narrates_search_decisions():
    rules = Rules()
    agent = strategy_id("ismcts:12")
    cell = B.cell_array(HUMAN, ALIEN, 30, 30, 0, agent, strategy_id("greedy"))
    lines = replay_log(rules, cell, 9)
    searched = [line for line in lines if line.startswith("p0 ismcts:12 weighs")]
    assert searched and not any(line.startswith("p1") and "weighs" in line for line in lines)
    assert "visits" in searched[0] and "value" in searched[0]
    # the narrated match is the kernel's match
    from strategies.faction_war.playlog import reference_record
    from sim import aggregate
    record = reference_record(rules, cell, 9)
    _, kernel_record = B.play_one(rules.to_array(), cell, 9)
    assert np.array_equal(record[:aggregate.REC_COUNTERS], kernel_record[:aggregate.REC_COUNTERS])


def test_the_bench_counts_the_agents_decisions_and_rollout_actions():
    from strategies.faction_war import speed
    rules_array = Rules().to_array()
    cell = B.cell_array(HUMAN, ALIEN, 30, 30, 0, strategy_id("ismcts:3"), strategy_id("greedy"))
    seed = 77
    from sim.rng import match_seed
    traced = sum(1 for decider, _, legal in B.trace_match(rules_array, cell, match_seed(seed, 0))
                 if decider == 0 and len(legal) > 1)
    assert speed._agent_batch(rules_array, cell, np.uint64(seed), 0, 1) == traced > 0
    random_cell = B.cell_array(HUMAN, ALIEN, 50, 50, 0, STRATEGY_RANDOM, STRATEGY_RANDOM)
    actions = speed._rollout_batch(rules_array, random_cell, np.uint64(seed), 3)
    assert 3 * 40 < actions < 3 * 5000  # whole random matches (about 150 actions each)
    rows = speed.bench_agents.agent_rows(rules_array, 0.001)
    assert [row["agent"] for row in rows] == list(speed.bench_agents.agents)
    assert all(row["matches"] >= 1 and row["decisions_per_s"] > 0 for row in rows)
