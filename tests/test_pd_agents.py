"""Poker Duel's search agents (strategies/poker_duel/search.py, issue 16 item 4).

- names: "pimc", "pimc-random", "ismcts" with budgets NAME:N parse to kernel ids and
  back ("pimc-greedy", the old name of "pimc", is an alias); bad budgets are one
  error line, exit 2, on the command line;
- no peeking: two states that give the decider the same view produce the same
  decision and the same per-action statistics for the same agent generator;
- the budget: pimc plays max(N, actions) rollouts, ismcts N iterations (the
  root children's visits), in a workspace of N + 2 nodes; final move by visits;
- the compiled loop and the reference-engine loop make the same matches; batches
  repeat and split into chunks; a sweep is bit-identical with --jobs 1 and 2;
- they play: small budgets beat random, and the bench lists them.
"""

import random

import numpy as np
import pandas as pd
import pytest

from sim import aggregate as agg
from sim import rng as rng_module
from sim.cli import main
from sim.errors import CardbalanceError
from sim.poker_duel import layout as L
from sim.poker_duel.rules import load_rules
from sim.rng import to_signed
from strategies import PARAM_SHIFT
from strategies import search_tree as T
from strategies.poker_duel import (ISMCTS_DEFAULT_BUDGET, PIMC_DEFAULT_BUDGET, STRATEGY_ISMCTS, STRATEGY_PIMC,
                                   STRATEGY_PIMC_RANDOM, STRATEGY_RANDOM, strategy_id, strategy_name, strategy_names)
from strategies.poker_duel import batch as python_loop
from strategies.poker_duel import kernel_batch as KB
from strategies.poker_duel.dispatch import choose, loop_workspace, node_capacity

from test_pd_agents_sampler import decision_states, hide_differently, view_of

GREEDY = strategy_id("greedy")
AGENTS = ("pimc-random:6", "pimc:6", "ismcts:10")


def test_names_and_ids():
    assert strategy_names()[:2] == ("greedy", "random")
    assert {"pimc", "pimc-random", "ismcts"} <= set(strategy_names()) and "pimc-greedy" not in strategy_names()
    assert strategy_id("ismcts:100") == STRATEGY_ISMCTS | 100 << PARAM_SHIFT
    assert strategy_name(strategy_id("PIMC-RANDOM:32")) == "pimc-random:32"
    assert strategy_name(strategy_id("PIMC-GREEDY:32")) == "pimc:32"  # the old name, an alias
    assert strategy_id("pimc-greedy") == strategy_id("pimc") == STRATEGY_PIMC
    assert PIMC_DEFAULT_BUDGET > 0 and ISMCTS_DEFAULT_BUDGET > 0
    for bad, words in (("ismcts:0", "from 1 to 100000"), ("pimc:abc", "must be an integer"),
                       ("greedy:5", "takes no parameter"), ("mcts", "unknown")):
        with pytest.raises(CardbalanceError, match=words):
            strategy_id(bad)
    with pytest.raises(CardbalanceError, match="strategy1 must be a poker_duel strategy id"):
        KB.play_batch(load_rules("core").to_array(), np.array([40, 40, 0, 0, 99], dtype=np.int64), 1, 0, 1)


@pytest.mark.parametrize("bad", ["ismcts:0", "pimc-greedy:x"])
def test_a_bad_budget_on_the_command_line_is_one_line_and_exit_2(bad, capsys):
    assert main(["play", "--game", "poker_duel", "--p0", bad, "--p1", "greedy"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and bad.split(":")[0] in err, err


def _decide(strategy, view, rules_array, legal, seat, agent_seed):
    """(chosen index, per-action visits, per-action points) of one decision."""
    policy = np.zeros(2, dtype=np.int64)
    policy[seat] = to_signed(agent_seed)
    workspace = loop_workspace(strategy, strategy)
    index = choose(np.int64(strategy), view.copy(), rules_array, legal.copy(), np.int64(len(legal)), policy,
                   np.int64(seat), workspace)
    n = int(workspace[T.W_N_STATS])
    assert n == len(legal)
    return int(index), T.visits_of(workspace)[:n].copy(), T.points_of(workspace)[:n].copy(), workspace


def _legal(state, rules_array):
    from sim.poker_duel import kernel_chain as KC
    buffer = np.zeros(512, dtype=np.int64)
    return buffer[:KC.legal_actions(state, rules_array, buffer)].copy()


@pytest.fixture(scope="module")
def positions():
    """Decision states of random matches (core and advanced), with a twin that differs only in hidden cards."""
    chooser = random.Random(8)
    out = []
    for preset in ("core", "advanced"):
        rules_array = load_rules(preset).to_array()
        for state, seat in decision_states(load_rules(preset), 8, every=5, seed0=70)[::2]:
            out.append((rules_array, state, hide_differently(state, seat, chooser), seat))
    return out


@pytest.mark.parametrize("agent", AGENTS)
def test_no_peeking_same_view_same_decision_and_statistics(agent, positions):
    strategy = strategy_id(agent)
    differed = 0
    for k, (rules_array, state, other, seat) in enumerate(positions):
        view, other_view = view_of(state, rules_array, seat), view_of(other, rules_array, seat)
        assert np.array_equal(view, other_view)
        differed += not np.array_equal(state, other)
        legal = _legal(state, rules_array)
        assert np.array_equal(legal, _legal(other, rules_array))
        one = _decide(strategy, view, rules_array, legal, seat, 50 + k)
        two = _decide(strategy, other_view, rules_array, legal, seat, 50 + k)
        assert one[0] == two[0] and np.array_equal(one[1], two[1]) and np.array_equal(one[2], two[2]), (agent, k)
    assert differed > len(positions) // 2


def test_the_budget_is_rollouts_or_iterations(positions):
    for k, (rules_array, state, _, seat) in enumerate(positions[:12]):
        view, legal = view_of(state, rules_array, seat), _legal(state, rules_array)
        for budget in (3, 17):
            for base in (STRATEGY_PIMC_RANDOM, STRATEGY_PIMC):
                _, visits, points, _ = _decide(base | budget << PARAM_SHIFT, view, rules_array, legal, seat, k)
                assert visits.sum() == max(budget, len(legal)) and visits.min() >= 1
                assert (points <= T.WIN_POINTS * visits).all()
            index, visits, points, workspace = _decide(STRATEGY_ISMCTS | budget << PARAM_SHIFT, view, rules_array,
                                                       legal, seat, k)
            assert workspace[T.W_NODES] == budget + T.SPARE_NODES == node_capacity(STRATEGY_ISMCTS | budget << PARAM_SHIFT)
            assert visits.sum() == budget
            assert visits[index] == visits.max()  # the final move is the most visited
    assert node_capacity(strategy_id("ismcts")) == ISMCTS_DEFAULT_BUDGET + T.SPARE_NODES
    assert node_capacity(strategy_id("pimc-greedy:9")) == 0


def test_the_compiled_loop_and_the_reference_loop_play_the_same_matches():
    for preset, agents in (("core", ("ismcts:5", "greedy")), ("advanced", ("random", "pimc-greedy:4")),
                           ("core", ("pimc-random:4", "ismcts:3"))):
        rules = load_rules(preset)
        for i in range(2):
            cell = python_loop.cell_of({"hp": (30, 40), "first": i}, *map(strategy_id, agents))
            seed = rng_module.match_seed(5, i)
            expected = python_loop.reference_record(rules, cell, seed)
            record = np.zeros(python_loop.N_RECORD, dtype=np.int64)
            KB.play_match(rules.to_array(), cell, np.uint64(seed), record, L.new_state())
            assert np.array_equal(record, expected), (preset, agents, i)


def test_batches_repeat_and_split_into_chunks():
    rules_array = load_rules("core").to_array()
    cell = python_loop.cell_of({"hp": (40, 40), "first": 0}, strategy_id("ismcts:6"), strategy_id("pimc-greedy:3"))
    whole = KB.play_batch(rules_array, cell, 5, 0, 4)
    assert np.array_equal(whole, KB.play_batch(rules_array, cell, 5, 0, 4))
    assert np.array_equal(whole, sum(KB.play_batch(rules_array, cell, 5, i, 1) for i in range(4)))
    paired = KB.play_paired_batch(rules_array, load_rules("advanced").to_array(), cell, 5, 0, 3)
    assert paired.sum() > 0


def test_a_sweep_is_bit_identical_across_jobs(tmp_path):
    grid = tmp_path / "grid.toml"
    grid.write_text('game = "poker_duel"\nhp = [30]\nstrategies = ["ismcts:4:greedy", "greedy:pimc-greedy:2"]\n'
                    'rules = ["core"]\nmatches = 8\nchunk_size = 2\nseed = 3\n')
    for jobs in ("1", "2"):
        assert main(["sweep", str(grid), "--out", str(tmp_path / jobs), "--jobs", jobs, "--quiet",
                     "--no-report"]) == 0
    one, two = (pd.read_parquet(tmp_path / jobs / "results.parquet") for jobs in ("1", "2"))
    pd.testing.assert_frame_equal(one, two, check_exact=True)
    assert len(one) == 4  # two strategy pairs x both first players


@pytest.mark.parametrize("agent", ["pimc-greedy:8", "ismcts:12"])
def test_search_agents_beat_random(agent):
    rules_array = load_rules("core").to_array()
    wins = decided = 0
    for seat in (0, 1):
        pair = (strategy_id(agent), STRATEGY_RANDOM) if seat == 0 else (STRATEGY_RANDOM, strategy_id(agent))
        out = KB.play_batch(rules_array, python_loop.cell_of({"hp": (40, 40), "first": seat}, *pair), 11, 0, 12)
        won = [int(out[agg.A_OUTCOMES + k * L.N_END_TYPES:agg.A_OUTCOMES + (k + 1) * L.N_END_TYPES].sum())
               for k in range(2)]
        wins += won[seat]
        decided += sum(won)
    assert decided >= 20 and wins >= 0.8 * decided, (wins, decided)


def test_the_bench_counts_the_agents_decisions_and_lists_them():
    from strategies.poker_duel import speed
    rules_array = load_rules("core").to_array()
    cell = python_loop.cell_of({"hp": (30, 30), "first": 0}, strategy_id("ismcts:3"), GREEDY)
    asked = 0
    seed = rng_module.match_seed(77, 0)

    def count(m, action):
        nonlocal asked
        asked += m.decider == 0 and len(m.legal_actions()) > 1

    python_loop.play_match(load_rules("core"), cell, seed, on_step=count)
    assert speed._agent_batch(rules_array, cell, np.uint64(77), 0, 1) == asked > 0
    rows = speed.bench_agents.agent_rows(rules_array, 0.001)
    assert [row["agent"] for row in rows] == list(speed.bench_agents.agents)
    assert {"pimc", "pimc-random", "ismcts"} <= {row["agent"] for row in rows}
    assert all(row["matches"] >= 1 and row["decisions_per_s"] > 0 for row in rows)
    rollout = speed.bench_agents.rollout_row(rules_array, 0.001)
    assert rollout["actions_per_s"] > 0 and rollout["fastest_actions_per_s"] > 0 and rollout["fastest_repeats"] >= 5


def test_the_play_log_narrates_search_decisions():
    from strategies.poker_duel.playlog import replay_log
    rules = load_rules("core")
    cell = python_loop.cell_of({"hp": (30, 30), "first": 0}, strategy_id("ismcts:12"), GREEDY)
    lines = replay_log(rules, cell, 9)
    searched = [line for line in lines if line.startswith("  p0 ismcts:12 weighs")]
    assert searched and not any(line.startswith("  p1") and "weighs" in line for line in lines)
    assert "visits" in searched[0] and "value" in searched[0]
    record = np.zeros(python_loop.N_RECORD, dtype=np.int64)  # the narrated match is the kernel's match
    KB.play_match(rules.to_array(), cell, np.uint64(9), record, L.new_state())
    assert lines[-1].startswith("end: player %d wins" % record[agg.REC_WINNER]) or record[agg.REC_WINNER] == agg.DRAW
