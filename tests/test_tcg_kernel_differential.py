"""The Novel TCG's two engines agree: identical legal action lists and packed states after every
action of seeded random matches, per preset (a few hundred in the suite; CARDBALANCE_FULL_TESTS=1 plays
10,000 per preset), and identical records through the match loops for every agent."""

import os

import numpy as np
import pytest

from sim.novel_tcg.card_pool import TEMPLATES
from sim.novel_tcg.rules import PRESETS, load_rules
from strategies.novel_tcg import STRATEGY_IDS
from strategies.novel_tcg.batch import cell_of, kernel_record, reference_record
from tests.tcg_harness import play_both

FULL = os.environ.get("CARDBALANCE_FULL_TESTS") == "1"
MATCHES_PER_PRESET = 10_000 if FULL else 60


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_engines_agree_on_random_matches(preset):
    rules = load_rules(preset)
    for seed in range(MATCHES_PER_PRESET):
        ranks = (1 + seed % 20, 1 + (seed * 7 + 3) % 20)
        templates = (TEMPLATES[seed % 3], TEMPLATES[(seed // 3) % 3])
        assert play_both(rules, ranks, templates, seed % 2, seed).over


@pytest.mark.parametrize("preset", ["default", "alternatives"])
def test_match_loops_agree_for_every_agent(preset):
    rules = load_rules(preset)
    for s0 in STRATEGY_IDS.values():
        for s1 in STRATEGY_IDS.values():
            cell = cell_of({"rank": (10, 8), "deck": "advance/swarm", "first": 1}, s0, s1)
            for seed in range(3):
                assert np.array_equal(kernel_record(rules.to_array(), cell, seed), reference_record(rules, cell, seed))
