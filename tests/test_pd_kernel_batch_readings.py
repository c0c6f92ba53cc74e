"""The compiled match loop (greedy and random) gives the same records as the
plain-Python loop under each reading built in issue 16c and D-AMB-60
"k_searches_both" (the new pending choices, actions naming the other deck's
cards and forced activations reach the policies too)."""

import numpy as np
import pytest

from sim import rng as rng_module
from sim.poker_duel import layout as L
from sim.poker_duel.rules import load_rules
from strategies.poker_duel import batch as python_loop
from strategies.poker_duel import kernel_batch as KB

READINGS = [("core", {"D-AMB-04": "attacks_player", "D-AMB-41": "current_atk"}), ("core", {"D-AMB-07": "one_redraw"}),
            ("core", {"D-AMB-11": "optional"}), ("core", {"D-AMB-12": "per_batch", "D-AMB-15": "any_time_main"}),
            ("core", {"D-AMB-12": "match_field", "D-AMB-18": "set_is_activation"}),
            ("core", {"D-AMB-18": "must_at_once", "D-AMB-24": "full_chain", "D-AMB-25": "both_freely"}),
            ("advanced", {"D-AMB-32": "simultaneous", "D-AMB-36": "simultaneous", "D-AMB-52": "also_defending"}),
            ("core", {"D-AMB-60": "k_searches_both"}),  # greedy summons, sets and discards taken cards too
            ("advanced", {"D-AMB-60": "k_searches_both", "D-AMB-14": "hand", "D-AMB-11": "optional"})]


@pytest.mark.parametrize("preset, amb", READINGS, ids=["-".join(sorted(a)) for _, a in READINGS])
def test_records_equal_the_reference_loop_under_the_new_readings(preset, amb):
    rules = load_rules(preset).with_changes(ambiguities=amb)
    state = L.new_state()
    for i in range(12):
        cell = python_loop.cell_of({"hp": (40, 40), "first": i % 2}, i % 2, (i // 2) % 2)
        seed = rng_module.match_seed(77, i)
        expected = python_loop.reference_record(rules, cell, seed)
        record = np.zeros(python_loop.N_RECORD, dtype=np.int64)
        KB.play_match(rules.to_array(), cell, np.uint64(seed), record, state)
        assert np.array_equal(record, expected), (i, record, expected)
