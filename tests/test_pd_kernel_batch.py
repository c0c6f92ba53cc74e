"""The compiled Poker Duel match loop gives the same records as the plain-Python
loop over the reference engine (greedy and random, both presets)."""

import numpy as np
import pytest

from sim import aggregate as agg
from sim import rng as rng_module
from sim.poker_duel import layout as L
from sim.poker_duel.rules import load_rules
from strategies.poker_duel import batch as python_loop
from strategies.poker_duel import kernel_batch as KB


@pytest.mark.parametrize("preset", ["core", "advanced"])
@pytest.mark.parametrize("pair", [(0, 0), (1, 1), (0, 1)])
def test_records_equal_the_reference_loop(preset, pair):
    rules = load_rules(preset)
    rules_array = rules.to_array()
    state = L.new_state()
    for i in range(40):
        cell = python_loop.cell_of({"hp": (40, 30 + i % 20), "first": i % 2}, *pair)
        seed = rng_module.match_seed(99, i)
        expected = python_loop.reference_record(rules, cell, seed)
        record = np.zeros(python_loop.N_RECORD, dtype=np.int64)
        KB.play_match(rules_array, cell, np.uint64(seed), record, state)
        assert np.array_equal(record, expected), (i, record, expected)


def test_batches_equal_the_reference_batches():
    rules = load_rules("advanced")
    cell = python_loop.cell_of({"hp": (40, 40), "first": 1}, 0, 1)
    assert np.array_equal(KB.play_batch(rules.to_array(), cell, 7, 3, 25),
                          python_loop.play_batch(rules.to_array(), cell, 7, 3, 25))
    paired = KB.play_paired_batch(load_rules("core").to_array(), rules.to_array(), cell, 7, 0, 10)
    assert paired.shape == agg.empty_paired(L.N_END_TYPES).shape and paired.sum() > 0
