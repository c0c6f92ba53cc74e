"""The hidden-information sampler (sim/faction_war/sampler.py, issue 14 item 5).

- A sampled world always agrees with the view: it gives the seat the same view,
  its masks equal a recount, zone sizes are the true ones, the seat's legal
  actions are unchanged, and the world plays on to the end.
- Uniform: over many samples each unseen card lands in the opponent's hand with
  frequency hand size / unseen cards, and each own deck card is on top with
  frequency 1 / deck size.
- No peeking: two states that give the seat the same view give the same samples
  (so the same distribution) for the same agent generator.
- The compiled sampler equals its plain-Python twin draw for draw.
"""

import random

import numba as nb
import numpy as np
import pytest

from sim.faction_war import kernel
from sim.faction_war import layout as L
from sim.faction_war.reference import Match
from sim.faction_war.rules import Rules
from sim.faction_war.sampler import sample_world, sample_world_reference
from sim.rng import PyRng, to_signed
from strategies.faction_war.view import build_view

from hidden_info import hide_differently

RULE_SETS = (Rules(), Rules().with_changes(ambiguities={"FA-34": "two", "FA-6": "choice", "FA-4": "choice"}))


def decision_states(rules, matches, every=3, seed0=0):
    """(state, decider) at every `every`-th step of random reference matches, all pairings."""
    out = []
    for seed in range(seed0, seed0 + matches):
        chooser = random.Random(seed)
        match = Match.new(rules, seed % 2, (seed // 2) % 2, 50, 50, chooser.randrange(2), seed)
        step = 0
        while not match.is_over():
            legal = match.legal_actions()
            if step % every == 0 and len(legal) > 1:
                out.append((match.to_array(), match.decider))
            match.apply(legal[chooser.randrange(len(legal))])
            step += 1
    return out


def view_of(state, rules_array, seat):
    return build_view(state, rules_array, seat, np.zeros(L.STATE_SIZE, dtype=np.int64))


def sample(view, rules_array, seat, agent_seed):
    rng = np.array([to_signed(agent_seed)], dtype=np.int64)
    return sample_world(view.copy(), rules_array, seat, rng, 0, np.zeros(L.STATE_SIZE, dtype=np.int64))


def zone_size(state, zone, ctrl):
    cards = np.arange(L.N_CARDS)
    return int(np.sum((state[L.C_ZONE + cards] == zone) & (state[L.C_CTRL + cards] == ctrl)))


@pytest.mark.parametrize("rules", RULE_SETS, ids=["default", "two-packs-choices"])
def test_a_sampled_world_agrees_with_the_view(rules):
    rules_array = rules.to_array()
    buffer = np.zeros(1024, dtype=np.int64)
    checked = 0
    for k, (state, decider) in enumerate(decision_states(rules, 24)):
        for seat in (0, 1):
            view = view_of(state, rules_array, seat)
            world = sample(view, rules_array, seat, 1000 + k)
            assert np.array_equal(view_of(world, rules_array, seat), view), k
            assert np.array_equal(L.fill_masks(world.copy()), world), k  # masks = a recount
            for zone in (L.Z_HAND, L.Z_DECK):  # the true zone sizes, both players
                for player in (0, 1):
                    assert zone_size(world, zone, player) == zone_size(state, zone, player), k
            for player in (0, 1):  # deck arrays hold exactly the deck cards, then zeros
                count = world[L.S_DECK_COUNT + player]
                deck = world[L.S_DECK + player * L.CARDS_PER_PLAYER:][:L.CARDS_PER_PLAYER]
                assert all(world[L.C_ZONE + c] == L.Z_DECK and world[L.C_CTRL + c] == player for c in deck[:count])
                assert not deck[count:].any()
            if seat == decider:
                n_true = kernel.legal_actions(state.copy(), rules_array, buffer)
                true_legal = buffer[:n_true].copy()
                n = kernel.legal_actions(world, rules_array, buffer)
                assert np.array_equal(buffer[:n], true_legal), k
            expected = sample_world_reference(view, rules_array, seat, PyRng(1000 + k))
            assert np.array_equal(world, expected), k
            checked += 1
            if k % 7 == 0:  # the world is a real state: it plays on to the end
                play_out(world, rules_array, buffer, random.Random(k))
    assert checked > 500


def play_out(state, rules_array, buffer, chooser):
    for _ in range(5000):
        n = kernel.legal_actions(state, rules_array, buffer)
        if n == 0:
            return
        kernel.apply_action(state, rules_array, buffer[chooser.randrange(n)])
    raise AssertionError("a sampled world did not finish")


@nb.njit(cache=True)
def _count_placements(view, rules, seat, samples, agent_seed, in_hand, on_top):
    """Per card id: samples with it in the opponent's hand, and on top of the own deck."""
    rng = np.zeros(1, dtype=np.int64)
    rng[0] = agent_seed
    out = np.zeros(view.size, dtype=np.int64)
    opponent = 1 - seat
    own_count = view[L.S_DECK_COUNT + seat]
    for _ in range(samples):
        sample_world(view, rules, seat, rng, 0, out)
        for card in range(L.N_CARDS):
            if out[L.C_ZONE + card] == L.Z_HAND and out[L.C_CTRL + card] == opponent:
                in_hand[card] += 1
        if own_count > 0:
            on_top[out[L.S_DECK + seat * L.CARDS_PER_PLAYER + own_count - 1]] += 1


def test_each_unseen_card_lands_in_the_opponents_hand_with_the_right_frequency():
    rules = Rules()
    rules_array = rules.to_array()
    state = next(s for s, _ in decision_states(rules, 4, every=1, seed0=40)[30:]
                 if zone_size(s, L.Z_HAND, 1) >= 3)
    seat, opponent = 0, 1
    view = view_of(state, rules_array, seat)
    unseen = [c for c in range(L.N_CARDS) if view[L.C_ZONE + c] == L.Z_HIDDEN]
    hand = zone_size(state, L.Z_HAND, opponent)
    own_deck = [c for c in range(L.N_CARDS) if view[L.C_ZONE + c] == L.Z_DECK and view[L.C_CTRL + c] == seat]
    samples = 20_000
    in_hand = np.zeros(L.N_CARDS, dtype=np.int64)
    on_top = np.zeros(L.N_CARDS, dtype=np.int64)
    _count_placements(view, rules_array, seat, samples, 77, in_hand, on_top)
    assert in_hand.sum() == samples * hand and set(np.flatnonzero(in_hand)) <= set(unseen)
    p = hand / len(unseen)
    sd = np.sqrt(samples * p * (1 - p))
    assert np.max(np.abs(in_hand[unseen] - samples * p)) < 5 * sd, (hand, len(unseen))
    q = 1 / len(own_deck)
    sd = np.sqrt(samples * q * (1 - q))
    assert on_top.sum() == samples and np.max(np.abs(on_top[own_deck] - samples * q)) < 5 * sd


def test_the_same_view_gives_the_same_samples():
    rules = Rules().with_changes(ambiguities={"FA-6": "choice"})
    rules_array = rules.to_array()
    rng = PyRng(5)
    differing = 0
    for k, (state, decider) in enumerate(decision_states(rules, 8, every=5)):
        other = hide_differently(state, decider, rng)
        view = view_of(state, rules_array, decider)
        assert np.array_equal(view_of(other, rules_array, decider), view)
        differing += not np.array_equal(other, state)
        for agent_seed in (1, 2):
            assert np.array_equal(sample(view, rules_array, decider, agent_seed),
                                  sample(view_of(other, rules_array, decider), rules_array, decider, agent_seed))
    assert differing > 20


def test_samples_vary_with_the_agent_generator():
    rules = Rules()
    rules_array = rules.to_array()
    state, decider = decision_states(rules, 1, every=1, seed0=3)[12]
    view = view_of(state, rules_array, decider)
    hands = {tuple(np.flatnonzero((w[L.C_ZONE:L.C_ZONE + L.N_CARDS] == L.Z_HAND)
                                  & (w[L.C_CTRL:L.C_CTRL + L.N_CARDS] == 1 - decider)))
             for w in (sample(view, rules_array, decider, s) for s in range(30))}
    assert len(hands) > 10
