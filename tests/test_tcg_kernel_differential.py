"""The Novel TCG's two engines agree: identical legal action lists and packed states after every
action of seeded random matches, per preset and per switch arm below (a few hundred in the suite;
CARDBALANCE_FULL_TESTS=1 plays 10,000 each), and identical records through the match loops for every agent."""

import os

import numpy as np
import pytest

from sim.novel_tcg.card_pool import TEMPLATES
from sim.novel_tcg.rules import PRESETS, Rules, load_rules
from strategies.novel_tcg import SEARCH_IDS, STRATEGY_GREEDY, STRATEGY_IDS, strategy_id
from strategies.novel_tcg.batch import cell_of, kernel_record, reference_record
from tests.tcg_harness import play_both

FULL = os.environ.get("CARDBALANCE_FULL_TESTS") == "1"
MATCHES_PER_PRESET = 10_000 if FULL else 60
# Switches whose other reading adds code paths of its own, each also played alone at that reading (the
# `alternatives` preset plays them together with every other second reading).
SWITCH_ARMS = {
    "T-AMB-39 also_hand": {"T-AMB-39": "also_hand"},
    "T-AMB-39 also_hand, sum_at_least, full row": {"T-AMB-39": "also_hand", "T-AMB-37": "sum_at_least",
                                                   "T-AMB-82": "yes"},
    "T-AMB-31 true": {"T-AMB-31": "true"},
    "T-AMB-31 true, spent early, attacked spends, subtract": {"T-AMB-31": "true", "T-AMB-81": "no",
                                                              "T-AMB-34": "also_when_attacked", "T-AMB-33": "subtract"},
}
ARMS = {**{name: load_rules(name) for name in PRESETS},
        **{name: Rules().with_changes(ambiguities=switches) for name, switches in SWITCH_ARMS.items()}}


@pytest.mark.parametrize("arm", sorted(ARMS))
def test_engines_agree_on_random_matches(arm):
    rules = ARMS[arm]
    for seed in range(MATCHES_PER_PRESET):
        ranks = (1 + seed % 20, 1 + (seed * 7 + 3) % 20)
        templates = (TEMPLATES[seed % 3], TEMPLATES[(seed // 3) % 3])
        assert play_both(rules, ranks, templates, seed % 2, seed).over


SCRIPTED = [agent for agent in STRATEGY_IDS.values() if agent not in SEARCH_IDS]
# The search agents at small budgets (their default budgets cost about a second a match in each
# loop), each against greedy in both seats: what is compared is the loop, not the search's depth.
SEARCH_PAIRS = [pair for name in ("pimc-random:4", "pimc:4", "ismcts:8")
                for pair in ((strategy_id(name), STRATEGY_GREEDY), (STRATEGY_GREEDY, strategy_id(name)))]


@pytest.mark.parametrize("arm", ["default", "alternatives", "T-AMB-39 also_hand", "T-AMB-31 true"])
def test_match_loops_agree_for_every_agent(arm):
    rules = ARMS[arm]
    pairs = [(s0, s1) for s0 in SCRIPTED for s1 in SCRIPTED] + SEARCH_PAIRS
    for s0, s1 in pairs:
        cell = cell_of({"rank": (10, 8), "deck": "advance/swarm", "first": 1}, s0, s1)
        for seed in range(3):
            assert np.array_equal(kernel_record(rules.to_array(), cell, seed), reference_record(rules, cell, seed))
