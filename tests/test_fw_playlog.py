"""The play log replays exactly the match a sweep kernel played (issue 2 part 5, issue 6 replay).

`cardbalance play` runs the reference engine with the compiled strategies;
the batch kernels run the numba engine with the same strategies, views and
policy generators. Same (rules, cell, seed) → same match: same winner, end
type, turn count, lives and counters.
"""

import numpy as np
import pytest

from sim import aggregate
from strategies.faction_war import batch
from sim.faction_war import layout as L
from strategies.faction_war.playlog import reference_record
from sim.faction_war.rules import Rules, rules_from_array
from sim.rng import match_seed
from strategies.faction_war import strategy_id


def test_rules_array_round_trip():
    rules = Rules().with_changes(turn_cap=77, ambiguities={"FA-3": "draw", "FA-26": "on_arrival"})
    assert rules_from_array(rules.to_array()) == rules


@pytest.mark.parametrize("factions", [(0, 0), (0, 1), (1, 0), (1, 1)])
@pytest.mark.parametrize("strategy", ["random", "greedy"])
def test_reference_replay_equals_the_kernel_match_by_match(factions, strategy):
    rules_array = Rules().to_array()
    sid = strategy_id(strategy)
    cell = batch.cell_array(factions[0], factions[1], 40, 60, 1, sid, sid)
    chunk_seed = 987654321
    for index in range(25):
        kernel_agg = batch.play_batch(rules_array, cell, np.uint64(chunk_seed), index, 1)
        record = reference_record(rules_array, cell, match_seed(chunk_seed, index))
        single = aggregate.empty_aggregate(L.N_END_TYPES, L.N_COUNTERS, batch.LENGTH_BINS)
        aggregate.accumulate(single, record, L.N_END_TYPES, L.N_COUNTERS, batch.LENGTH_BINS)
        assert np.array_equal(kernel_agg, single), "match %d of %s %s differs" % (index, factions, strategy)


def test_reference_record_takes_a_rules_object_or_its_array():
    rules = Rules()
    cell = batch.cell_array(0, 1, 50, 50, 0, strategy_id("greedy"), strategy_id("greedy"))
    assert np.array_equal(reference_record(rules, cell, 11), reference_record(rules.to_array(), cell, 11))
