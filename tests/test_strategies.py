"""Strategies: coverage of the action kinds, strength, information hiding, names.

- the random strategy reaches every base action kind (end, discard, place,
  face card with and without displacement, row/doubled/direct/empty-row
  attacks);
- greedy beats random clearly in mirror-faction matches, from both seats;
- a decision depends only on what the player may see: permuting or swapping
  the opponent's hidden cards (hand and deck contents), both deck orders and
  the rule generator word changes neither the view nor the chosen action;
- unknown names raise CardbalanceError naming the known ones;
- the kernels also run as plain Python (NUMBA_DISABLE_JIT=1) and give the
  same results.
"""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from sim import aggregate as agg
from sim.cards import CARDS_PER_PACK
from sim.errors import CardbalanceError
from sim.faction_war import actions as A
from strategies.faction_war import batch as B
from sim.faction_war import kernel as K
from sim.faction_war import layout as L
from sim.faction_war.rules import Rules
from sim.registry import get_game
from sim.rng import PyRng
from strategies.faction_war import (STRATEGY_DESTINY, STRATEGY_EXILE, STRATEGY_GREEDY, STRATEGY_RANDOM,
                        parse_player, strategy_id,
                        strategy_name, strategy_names)
from strategies.faction_war.dispatch import choose
from strategies.faction_war.view import build_view

from hidden_info import hide_differently

REPO = Path(__file__).resolve().parents[1]
N_END = L.N_END_TYPES
COUNTERS_AT = agg.counters_slot(N_END)
# Greedy vs random in 2,000 matches per seat order: greedy won ~99 % when the
# heuristic was written; 0.9 leaves room for heuristic tweaks, while a broken
# greedy (or seat mix-up) lands near 0.5.
GREEDY_MIN_WIN_RATE = 0.9


def _counter(vector, index):
    return vector[COUNTERS_AT + index]


def test_random_reaches_every_base_action_kind():
    rules = Rules().with_changes(ambiguities={"FA-8": "any_card"})  # face-only rows become targets
    cell = B.cell_array(0, 0, 50, 50, 0, STRATEGY_RANDOM, STRATEGY_RANDOM)
    kinds = set()
    displaced_face = False
    for seed in range(40):
        for decider, action, legal in B.trace_match(rules.to_array(), cell, seed):
            if len(legal) > 1:
                kinds.add(A.decode(action)[0])
                displaced_face |= A.decode(action)[0] == A.PLACE_FACE and A.decode(action)[2] != A.NONE
    assert {A.END, A.DISCARD, A.PLACE_NORMAL, A.PLACE_FACE, A.ATTACK} <= kinds
    vector = B.play_batch(rules.to_array(), cell, 3, 0, 2000)
    for counter in (L.CT_ATTACKS, L.CT_DIRECT_ATTACKS, L.CT_DOUBLED_ATTACKS, L.CT_EMPTY_ROW_HITS,
                    L.CT_FACE_DISPLACED, L.CT_DISCARDS):
        assert _counter(vector, counter) > 0, L.COUNTER_NAMES[counter]
    assert displaced_face or _counter(vector, L.CT_FACE_DISPLACED) > 0


@pytest.mark.parametrize("faction", [L.HUMAN, L.ALIEN])
def test_greedy_beats_random_in_mirror_matches(faction):
    rules = Rules().to_array()
    for first in (0, 1):
        greedy_seat0 = B.play_batch(rules, B.cell_array(faction, faction, 50, 50, first, STRATEGY_GREEDY,
                                                       STRATEGY_RANDOM), 11, 0, 2000)
        greedy_seat1 = B.play_batch(rules, B.cell_array(faction, faction, 50, 50, first, STRATEGY_RANDOM,
                                                       STRATEGY_GREEDY), 11, 0, 2000)
        wins0 = greedy_seat0[agg.A_OUTCOMES:agg.A_OUTCOMES + N_END].sum() / 2000
        wins1 = greedy_seat1[agg.A_OUTCOMES + N_END:agg.A_OUTCOMES + 2 * N_END].sum() / 2000
        assert wins0 > GREEDY_MIN_WIN_RATE and wins1 > GREEDY_MIN_WIN_RATE, (first, wins0, wins1)


@pytest.mark.parametrize("strategy", [STRATEGY_RANDOM, STRATEGY_GREEDY, STRATEGY_DESTINY, STRATEGY_EXILE])
def test_hidden_cards_never_change_a_decision(strategy):
    rules = Rules().to_array()
    rng = PyRng(99)
    legal = np.zeros(B.LEGAL_CAPACITY, dtype=np.int64)
    other_legal = np.zeros(B.LEGAL_CAPACITY, dtype=np.int64)
    view = np.zeros(L.STATE_SIZE, dtype=np.int64)
    other_view = np.zeros(L.STATE_SIZE, dtype=np.int64)
    checked = 0
    for seed in range(12):
        state = np.zeros(L.STATE_SIZE, dtype=np.int64)
        K.new_match(state, rules, 0, 1, 50, 50, seed % 2, np.uint64(seed))
        policy = np.array([seed, seed + 1], dtype=np.int64)
        while not K.is_over(state):
            n_legal = K.legal_actions(state, rules, legal)
            player = int(state[L.S_DECIDER])
            other = hide_differently(state, player, rng)
            assert K.legal_actions(other, rules, other_legal) == n_legal
            assert np.array_equal(legal[:n_legal], other_legal[:n_legal])
            build_view(state, rules, player, view)
            build_view(other, rules, player, other_view)
            assert np.array_equal(view, other_view)
            policy_copy = policy.copy()
            index = choose(strategy, view, rules, legal, n_legal, policy, player)
            assert choose(strategy, other_view, rules, other_legal, n_legal, policy_copy, player) == index
            K.apply_action(state, rules, legal[index])
            checked += 1
    assert checked > 300


def test_view_hides_exactly_the_hidden_information():
    rules = Rules().to_array()
    state = np.zeros(L.STATE_SIZE, dtype=np.int64)
    K.new_match(state, rules, 0, 0, 50, 50, 0, np.uint64(8))
    view = np.zeros(L.STATE_SIZE, dtype=np.int64)
    build_view(state, rules, 0, view)
    assert view[L.S_RNG] == 0
    assert not view[L.S_DECK:L.C_ZONE].any()
    assert view[L.S_DECK_COUNT] == state[L.S_DECK_COUNT] and view[L.S_DECK_COUNT + 1] == state[L.S_DECK_COUNT + 1]
    for card in range(CARDS_PER_PACK):  # own hand and deck stay visible
        assert view[L.C_ZONE + card] == state[L.C_ZONE + card]
    for card in range(L.CARDS_PER_PLAYER, L.CARDS_PER_PLAYER + CARDS_PER_PACK):
        assert view[L.C_ZONE + card] == L.Z_HIDDEN


def test_unknown_strategy_names_the_known_ones():
    with pytest.raises(CardbalanceError, match="known strategies: random, greedy"):
        strategy_id("smart")
    assert strategy_names() == ("random", "greedy", "destiny", "exile", "pimc-random", "pimc", "tuned", "ismcts")
    assert strategy_name(strategy_id("Greedy")) == "greedy"
    spec = get_game("faction_war")
    with pytest.raises(CardbalanceError, match="random, greedy"):
        spec.strategy_id("minimax")
    with pytest.raises(CardbalanceError):
        B.cell_array(0, 0, 50, 50, 0, 99, 0)  # no strategy has base id 99


def test_parse_player():
    assert parse_player("human:greedy") == (L.HUMAN, STRATEGY_GREEDY)
    assert parse_player("Alien:random") == (L.ALIEN, STRATEGY_RANDOM)
    with pytest.raises(CardbalanceError, match="allowed factions: human, alien"):
        parse_player("orc:greedy")
    with pytest.raises(CardbalanceError, match="known strategies: random, greedy"):
        parse_player("human:clever")
    with pytest.raises(CardbalanceError, match="faction:strategy"):
        parse_player("human")


_NO_JIT_SCRIPT = textwrap.dedent("""
    import json
    import numpy as np
    np.seterr(over="ignore")  # SplitMix64 wraps on purpose; numpy scalars warn
    from strategies.faction_war import batch as B
    from sim.faction_war.rules import Rules
    rules = Rules().with_changes(ambiguities={"FA-6": "random", "FA-1": "both"}).to_array()
    out = []
    for s0, s1 in ((0, 0), (1, 1), (1, 0)):
        cell = B.cell_array(0, 1, 30, 30, 1, s0, s1)
        out.append([int(x) for x in B.play_batch(rules, cell, 2**64 - 77, 5, 3)])
    print(json.dumps(out))
""")


def test_kernels_run_without_jit_and_agree():
    """NUMBA_DISABLE_JIT=1 runs the same code as Python (tracebacks, coverage)."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=str(REPO))
    result = subprocess.run([sys.executable, "-c", _NO_JIT_SCRIPT], cwd=REPO, env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    plain = json.loads(result.stdout.strip().splitlines()[-1])
    env.pop("NUMBA_DISABLE_JIT")
    compiled = subprocess.run([sys.executable, "-c", _NO_JIT_SCRIPT], cwd=REPO, env=env,
                              capture_output=True, text=True, timeout=300)
    assert compiled.returncode == 0, compiled.stderr[-2000:]
    assert plain == json.loads(compiled.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("strategy", [STRATEGY_RANDOM, STRATEGY_GREEDY])
def test_trace_match_makes_the_batch_loops_choices(strategy):
    """`trace_match` (Python stepping) and `play_match` (numba loop) agree."""
    rules = Rules().to_array()
    cell = B.cell_array(1, 0, 40, 60, 1, strategy, STRATEGY_RANDOM)
    seed = 2**63 + 12345
    final, record = B.play_one(rules, cell, seed)
    state = np.zeros(L.STATE_SIZE, dtype=np.int64)
    K.new_match(state, rules, 1, 0, 40, 60, 1, np.uint64(seed))
    for _, action, legal in B.trace_match(rules, cell, seed):
        assert action in legal
        K.apply_action(state, rules, action)
    assert np.array_equal(state, final)
    assert record[agg.REC_TURNS] == final[L.S_TURN]
