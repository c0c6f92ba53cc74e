"""Differential test: the reference engine and the numba kernel agree step by step.

Over 10,000 seeded random matches (all four faction pairings, random rule
variants drawn from the FA switches the engines implement) both engines must
list identical legal actions and hold identical packed states after every
action. The matches are split into shards so pytest-xdist spreads them over
both cores.
"""

import random

import numpy as np
import budget
import pytest

from sim.faction_war import actions as A
from sim.faction_war import kernel
from sim.faction_war import layout as L
from sim.faction_war.reference import Match
from sim.faction_war.rules import AMBIGUITIES, Rules

TOTAL_MATCHES = budget.matches(10_000, 3_000)  # full count: CARDBALANCE_FULL_TESTS=1 (tests/budget.py)
SHARDS = 20
SWITCHED = {  # FA switches of the base rules, with their readings
    "FA-1": ("turn_player", "both"), "FA-2": ("draw", "skip"), "FA-3": ("lose", "continue", "draw"),
    "FA-6": ("earliest", "random", "choice"), "FA-7": ("no_damage", "faces_lost", "not_allowed"),
    "FA-8": ("normal_or_joker", "any_card", "normal_only"), "FA-14": ("owner", "controller"),
    "FA-24": ("draw", "turn_player_wins", "turn_player_loses"), "FA-29": ("each_step", "after_action"),
    "FA-34": ("one", "two"),
}
# Faction and joker switches (issues 3-5): every reading of each, a random subset per match.
FACTION_SWITCHED = ("FA-4", "FA-5", "FA-9", "FA-10", "FA-11", "FA-12", "FA-13", "FA-15", "FA-16",
                    "FA-17", "FA-18", "FA-19", "FA-20", "FA-21", "FA-22", "FA-23", "FA-25",
                    "FA-26", "FA-27", "FA-28", "FA-30", "FA-31", "FA-32", "FA-33", "FA-35",
                    "FA-36")
SWITCHED.update({fa: AMBIGUITIES[fa][1] for fa in FACTION_SWITCHED})


def random_rules(chooser: random.Random) -> Rules:
    """Default rules most of the time; otherwise a random variant (also short matches)."""
    if chooser.random() < 0.3:
        return Rules()
    ambiguities = {fa: chooser.choice(readings) for fa, readings in SWITCHED.items()
                   if fa not in FACTION_SWITCHED or chooser.random() < 0.5}
    return Rules().with_changes(ambiguities=ambiguities, turn_cap=chooser.choice([400, 30]),
                                hand_limit_trigger=chooser.choice([7, 6]),
                                draws_per_turn=chooser.choice([2, 1, 3]))


def play_both(seed: int, rules: Rules | None = None, taken: dict | None = None) -> int:
    """Play one random match on both engines, comparing after every action; returns steps.

    `rules` replaces the random variant; `taken` counts the FA-4/FA-6 decisions played
    (key: (kind, a) of MANDATORY_TIMING, (kind, site) of TIE_PICK)."""
    chooser = random.Random(seed)
    rules = random_rules(chooser) if rules is None else rules
    rules_array = rules.to_array()
    factions = (chooser.randrange(2), chooser.randrange(2))
    lives = (chooser.choice([30, 50, 100]), chooser.choice([30, 50, 100]))
    first = chooser.randrange(2)
    reference = Match.new(rules, factions[0], factions[1], lives[0], lives[1], first, seed)
    state = np.zeros(L.STATE_SIZE, dtype=np.int64)
    kernel.new_match(state, rules_array, factions[0], factions[1], lives[0], lives[1], first, np.uint64(seed))
    buffer = np.zeros(1024, dtype=np.int64)
    steps = 0
    while True:
        expected_state = reference.to_array()
        if not np.array_equal(expected_state, state):
            slots = np.nonzero(expected_state != state)[0][:10]
            raise AssertionError("seed %d step %d: states differ at slots %s (reference %s, kernel %s)" % (
                seed, steps, slots.tolist(), expected_state[slots].tolist(), state[slots].tolist()))
        legal = reference.legal_actions()
        n = kernel.legal_actions(state, rules_array, buffer)
        assert legal == buffer[:n].tolist(), "seed %d step %d: legal actions differ" % (seed, steps)
        if not legal:
            assert reference.is_over() and kernel.is_over(state)
            return steps
        action = legal[chooser.randrange(len(legal))]
        if taken is not None:
            kind, a, _, _ = A.decode(action)
            if kind in (A.MANDATORY_TIMING, A.TIE_PICK):
                key = (kind, a if kind == A.MANDATORY_TIMING else int(state[L.S_PENDING + L.P_TIE_SITE]))
                taken[key] = taken.get(key, 0) + 1
        reference.apply(action)
        kernel.apply_action(state, rules_array, action)
        steps += 1


@pytest.mark.slow
@pytest.mark.parametrize("shard", range(SHARDS))
def test_engines_agree_on_random_matches(shard):
    per_shard = TOTAL_MATCHES // SHARDS
    steps = sum(play_both(seed) for seed in range(shard * per_shard, (shard + 1) * per_shard))
    assert steps > per_shard * 20  # the matches really were played out


CHOICE_MATCHES = 150


@pytest.mark.slow
@pytest.mark.parametrize("fa4", ["choice", "preparation", "placement_start"])
def test_engines_agree_on_fa4_and_fa6_decisions(fa4):
    """FA-6 "choice" in Human matches (where its ties arise), with each FA-4 reading:
    both engines agree, and every decision site is reached and played."""
    taken: dict = {}
    for seed in range(CHOICE_MATCHES):
        chooser = random.Random(seed)
        rules = Rules().with_changes(ambiguities={
            "FA-4": fa4, "FA-6": "choice", "FA-29": chooser.choice(AMBIGUITIES["FA-29"][1]),
            "FA-22": chooser.choice(AMBIGUITIES["FA-22"][1]), "FA-1": chooser.choice(AMBIGUITIES["FA-1"][1])})
        play_both(seed, rules, taken)
    sites = {L.TIE_SITE_ATTACK, L.TIE_SITE_MIND_MAGIC, L.TIE_SITE_SELF_DESTRUCT, L.TIE_SITE_CULL}
    assert {site for kind, site in taken if kind == A.TIE_PICK} == sites, taken
    timings = {a for kind, a in taken if kind == A.MANDATORY_TIMING}
    assert timings == ({0, 1} if fa4 == "choice" else set()), taken
