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


def test_the_log_gives_the_rule_behind_each_attack_and_each_human_face_card_cost():
    from strategies.faction_war.playlog import with_reasons
    from sim.faction_war.layout import ALIEN, HUMAN
    lines = ["p1 attacks p0 row1 with row2: 4 vs 1", "  DA leaves the field", "  p0 takes 1: life 29 / 30",
             "p0 attacks p1 row3 with row1: 9 vs 3", "  C3 leaves the field", "  p1 takes 6: life 30 / 24",
             "p0 uses HJ: removes p1:SK", "  p0 takes 1: life 28 / 30",
             "p1 uses HQ: removes p0:DK", "  p1 takes 1: life 28 / 29",
             "p1 attacks p0 row2 with row1: 0 vs 12", "  S5 leaves the field", "  S6 leaves the field",
             "  both take damage: life 20 / 20"]
    out = with_reasons(lines, (HUMAN, ALIEN))
    assert out[0].endswith("(sum 4 > 1: a row may attack a row of smaller sum, F-ATK-3)")
    assert out[1].endswith("(the attacked row's smallest normal card, F-ATK-4/5)")
    assert out[2].endswith("(the removed card's number, F-ATK-4)")
    assert out[5].endswith("(twice the removed card's number: row 1 reaching row 3, F-TGT-1)")
    assert out[7].endswith("(a Human face card used up costs 1 life, F-HUP-1)")
    assert out[9] == lines[9]  # the Alien pays nothing for a used face card: no reason invented
    assert out[10].endswith("(its big joker wins regardless of the sums, F-JOK-2)")
    assert out[11:] == lines[11:]  # not an ordinary removal: left as the engine told it
    assert len(out) == len(lines)
