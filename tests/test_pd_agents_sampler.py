"""Poker Duel's hidden-information sampler (sim/poker_duel/sampler.py, issue 16 item 4).

- A sampled world always agrees with the view (default readings, advanced, the
  readings with hidden commitments, marks and extra decisions, a full chain, open
  hands): it gives the seat the same view
  (layout.build_view), it is a consistent state (every card in one place, the
  stacks and zones agree), zone sizes are the true ones, the seat's legal
  actions are unchanged, and the world plays on to the end.
- Uniform: over many samples each unseen card lands in the opponent's hand
  with frequency hand size / unseen cards, and each own deck card is on top
  with frequency 1 / deck size.
- No peeking: two states that give the seat the same view give the same
  samples for the same agent generator (the sampler never reads hidden truth).
- The compiled sampler equals its plain-Python twin draw for draw.
"""

import random

import numpy as np
import pytest

from sim.poker_duel import kernel as K
from sim.poker_duel import kernel_chain as KC
from sim.poker_duel import layout as L
from sim.poker_duel.rules import load_rules
from sim.poker_duel.sampler import holds_straight_flush, sample_world, sample_world_reference
from sim.rng import PyRng, to_signed

N = L.N_CODES
Z = L.ZONE_SLOTS
OPEN = {"ambiguities": {"D-AMB-08": "open"}}


def rule_sets():
    core, advanced = load_rules("core"), load_rules("advanced")
    boosts_now = core.with_changes(ambiguities={"D-AMB-62": "yes", "D-AMB-37": "any_monster"})
    # readings that add decisions, hidden commitments or marks (D-AMB-07/11/18/32/36/52), and a longer chain
    private = core.with_changes(ambiguities={"D-AMB-07": "one_redraw", "D-AMB-11": "optional",
                                             "D-AMB-18": "must_at_once", "D-AMB-32": "simultaneous",
                                             "D-AMB-36": "simultaneous", "D-AMB-52": "also_defending"})
    chain = core.with_changes(ambiguities={"D-AMB-24": "full_chain", "D-AMB-25": "both_freely"})
    # D-AMB-60 "k_searches_both": cards a K took from the other graveyard, in the taker's hand and zones
    taken = advanced.with_changes(ambiguities={"D-AMB-60": "k_searches_both", "D-AMB-14": "hand",
                                               "D-AMB-58": "hand_and_back_row"})
    return {"core": core, "advanced": advanced, "boosts_now": boosts_now, "open": core.with_changes(**OPEN),
            "private": private, "full_chain": chain, "taken": taken}


def decision_states(rules, matches, every=2, seed0=0):
    """(state, decider) at every `every`-th decision (two or more legal actions) of random kernel matches."""
    rules_array = rules.to_array()
    legal = np.zeros(512, dtype=np.int64)
    out = []
    for seed in range(seed0, seed0 + matches):
        chooser = random.Random(seed)
        state = L.new_state()
        K.new_match(rules_array, 30 + seed % 3 * 10, 40, seed % 2, np.int64(seed), state)
        step = 0
        while state[L.S_PHASE] != L.PH_OVER:
            n = KC.legal_actions(state, rules_array, legal)
            if n > 1:
                if step % every == 0:
                    out.append((state.copy(), int(state[L.S_DECIDER])))
                step += 1
            KC.apply_action(state, rules_array, legal[chooser.randrange(n)])
    return out


def open_info(rules_array) -> bool:
    from sim.poker_duel.rules import amb_slot
    return int(rules_array[amb_slot("D-AMB-08")]) == 1


def view_of(state, rules_array, seat):
    return L.build_view(state, seat, open_info(rules_array))


def sample(view, rules_array, seat, agent_seed):
    rng = np.array([0, 0], dtype=np.int64)
    rng[seat] = to_signed(agent_seed)
    return sample_world(view.copy(), rules_array, seat, rng, seat, L.new_state())


def hide_differently(state, seat, rng):
    """A copy of `state` that gives `seat` the same view: another generator word, both deck orders
    shuffled, the opponent's own hand, deck and (unflagged, untargeted) face-down cards dealt anew,
    each slot keeping its set turn (public, D-DS-8), the cards a K took left where they are
    (`rng`: a random.Random)."""
    other = state.copy()
    opponent = 1 - seat
    other[L.S_RNG] = 1234567
    targeted = {int(other[L.S_CHAIN + e * L.CH_SIZE + L.CH_T0 + k]) for e in range(int(other[L.S_CHAIN_LEN]))
                for k in range(int(other[L.S_CHAIN + e * L.CH_SIZE + L.CH_COUNT]))}
    back_slots = [i for i in range(Z) if other[L.S_BACK + opponent * Z + i] >= 0
                  and other[L.S_BACK + opponent * Z + i] // N == opponent
                  and other[L.C_ZONE + other[L.S_BACK + opponent * Z + i]] == L.Z_BACK
                  and not other[L.C_FLAGS + other[L.S_BACK + opponent * Z + i]] & L.F_BOOSTING
                  and int(other[L.S_BACK + opponent * Z + i]) not in targeted]
    hand = [c for c in range(opponent * N, opponent * N + N) if other[L.C_ZONE + c] == L.Z_HAND
            and controller(other, c) == opponent]
    deck = [int(other[L.S_DECK + opponent * N + i]) for i in range(int(other[L.S_DECK_COUNT + opponent]))]
    back = [int(other[L.S_BACK + opponent * Z + i]) for i in back_slots]
    turns = [int(other[L.C_SET_TURN + card]) for card in back]
    pool = hand + deck + back
    rng.shuffle(pool)
    new_back, new_deck, new_hand = pool[:len(back)], pool[len(back):len(back) + len(deck)], pool[len(back) + len(deck):]
    for slot, card, turn in zip(back_slots, new_back, turns):
        other[L.S_BACK + opponent * Z + slot] = card
        other[L.C_ZONE + card], other[L.C_POS + card] = L.Z_BACK, slot
        other[L.C_SET_TURN + card] = turn
        other[L.C_BOOST + card] = other[L.C_FLAGS + card] = 0
    for i, card in enumerate(new_deck):
        other[L.S_DECK + opponent * N + i] = card
        other[L.C_ZONE + card], other[L.C_POS + card], other[L.C_SET_TURN + card] = L.Z_DECK, i, 0
    for card in new_hand:
        other[L.C_ZONE + card], other[L.C_POS + card], other[L.C_SET_TURN + card] = L.Z_HAND, 0, 0
    own = [int(other[L.S_DECK + seat * N + i]) for i in range(int(other[L.S_DECK_COUNT + seat]))]
    rng.shuffle(own)
    for i, card in enumerate(own):
        other[L.S_DECK + seat * N + i] = card
        other[L.C_POS + card] = i
    return other


def assert_consistent(state):
    """Every card in exactly one place; stacks, zones and positions agree."""
    for p in range(2):
        count = int(state[L.S_DECK_COUNT + p])
        stack = [int(state[L.S_DECK + p * N + i]) for i in range(count)]
        assert sorted(stack) == sorted(c for c in range(p * N, p * N + N) if state[L.C_ZONE + c] == L.Z_DECK)
        assert all(state[L.C_POS + card] == i for i, card in enumerate(stack))
        assert all(state[L.S_DECK + p * N + i] == 0 for i in range(count, N))
        for i in range(Z):
            monster, back = int(state[L.S_MONSTER + p * Z + i]), int(state[L.S_BACK + p * Z + i])
            if monster >= 0:
                assert controller(state, monster) == p and state[L.C_ZONE + monster] == L.Z_MONSTER
                assert state[L.C_POS + monster] == i
            if back >= 0:
                assert controller(state, back) == p and state[L.C_ZONE + back] in (L.Z_BACK, L.Z_CHAIN)
        for c in range(p * N, p * N + N):
            zone = int(state[L.C_ZONE + c])
            assert zone in L.ZONE_NAMES and zone != L.Z_HIDDEN
            if zone == L.Z_BACK:
                assert state[L.S_BACK + controller(state, c) * Z + state[L.C_POS + c]] == c
            if state[L.C_FLAGS + c] & L.F_TAKEN:  # a K's catch (D-AMB-60): in its taker's zones only
                assert zone in (L.Z_HAND, L.Z_MONSTER, L.Z_BACK, L.Z_CHAIN)


def controller(state, card):
    return L.controller(int(card), int(state[L.C_FLAGS + card]))


def hand_size(state, p):
    return sum(1 for c in range(L.N_CARDS) if state[L.C_ZONE + c] == L.Z_HAND and controller(state, c) == p)


@pytest.fixture(scope="module")
def states():
    return {name: (rules, decision_states(rules, 14, seed0=3 * i)) for i, (name, rules) in enumerate(rule_sets().items())}


def test_a_sampled_world_agrees_with_the_view(states):
    legal_true, legal_world, scratch = (np.zeros(512, dtype=np.int64) for _ in range(3))
    seen = {"chain_hidden_target": 0, "opponent_face_down": 0, "boosting_hidden": 0, "damage_step": 0,
            "taken_hidden": 0}
    for name, (rules, collected) in states.items():
        rules_array = rules.to_array()
        assert len(collected) > 100
        for k, (state, seat) in enumerate(collected):
            assert_consistent(state)
            opponent = 1 - seat
            view = view_of(state, rules_array, seat)
            world = sample(view, rules_array, seat, 1000 + k)
            assert np.array_equal(view_of(world, rules_array, seat), view), (name, k)
            assert_consistent(world)
            assert hand_size(world, opponent) == hand_size(state, opponent)
            assert hand_size(world, seat) == hand_size(state, seat)
            for p in range(2):
                assert world[L.S_DECK_COUNT + p] == state[L.S_DECK_COUNT + p]
                for i in range(Z):
                    assert (world[L.S_BACK + p * Z + i] >= 0) == (state[L.S_BACK + p * Z + i] >= 0)
            n = KC.legal_actions(state, rules_array, legal_true)
            assert KC.legal_actions(world, rules_array, legal_world) == n
            assert np.array_equal(legal_true[:n], legal_world[:n]), (name, k)
            seen["chain_hidden_target"] += int(any(view[L.S_CHAIN + e * L.CH_SIZE + L.CH_T0 + t] == L.HIDDEN
                                                   for e in range(int(view[L.S_CHAIN_LEN])) for t in range(L.CH_TARGETS)))
            seen["opponent_face_down"] += int(any(L.is_face_down(view[L.S_BACK + opponent * Z + i]) for i in range(Z)))
            seen["taken_hidden"] += int(any(view[L.C_ZONE + c] == L.Z_HIDDEN and view[L.C_FLAGS + c] & L.F_TAKEN
                                            for c in range(L.N_CARDS)))
            seen["boosting_hidden"] += int(any(view[L.C_ZONE + c] == L.Z_HIDDEN and view[L.C_FLAGS + c] & L.F_BOOSTING
                                               for c in range(L.N_CARDS)))
            seen["damage_step"] += int(state[L.S_PHASE] == L.PH_DAMAGE)
            if k % 7 == 0:  # the world plays on to the end (every decision random)
                chooser = random.Random(k)
                steps = 0
                while world[L.S_PHASE] != L.PH_OVER:
                    m = KC.legal_actions(world, rules_array, scratch)
                    assert m > 0
                    KC.apply_action(world, rules_array, scratch[chooser.randrange(m)])
                    steps += 1
                assert steps < 100_000
    assert seen["opponent_face_down"] > 50 and seen["damage_step"] > 10 and seen["boosting_hidden"] > 0, seen
    assert seen["taken_hidden"] > 5, seen


def test_hidden_chain_targets_are_face_down_cards_of_the_opponent():
    """A J of the seat that named a face-down card: the view hides which; the world names one."""
    rules = load_rules("core")
    rules_array = rules.to_array()
    found = 0
    for state, seat in decision_states(rules, 120, every=1, seed0=500):
        view = view_of(state, rules_array, seat)
        hidden = [(e, t) for e in range(int(view[L.S_CHAIN_LEN])) for t in range(int(view[L.S_CHAIN + e * L.CH_SIZE + L.CH_COUNT]))
                  if view[L.S_CHAIN + e * L.CH_SIZE + L.CH_T0 + t] == L.HIDDEN
                  and view[L.S_CHAIN + e * L.CH_SIZE + L.CH_KIND] == L.FN_J]
        if not hidden:
            continue
        found += 1
        for agent_seed in range(5):
            world = sample(view, rules_array, seat, agent_seed)
            for e, t in hidden:
                card = int(world[L.S_CHAIN + e * L.CH_SIZE + L.CH_T0 + t])
                assert card // N == 1 - seat and world[L.C_ZONE + card] == L.Z_BACK
            assert np.array_equal(view_of(world, rules_array, seat), view)
        if found >= 5:
            break
    assert found >= 1


def test_the_sampler_is_uniform_over_the_unseen_cards():
    rules = load_rules("core")
    rules_array = rules.to_array()
    state, seat = next((s, p) for s, p in decision_states(rules, 6, every=1, seed0=40)
                       if hand_size(s, 1 - p) >= 4 and s[L.S_DECK_COUNT + p] >= 30
                       and any(s[L.S_BACK + (1 - p) * Z + i] >= 0 and s[L.C_ZONE + s[L.S_BACK + (1 - p) * Z + i]] == L.Z_BACK
                               for i in range(Z)))
    opponent = 1 - seat
    view = view_of(state, rules_array, seat)
    hidden = [c for c in range(opponent * N, opponent * N + N) if view[L.C_ZONE + c] == L.Z_HIDDEN]
    boosting = [c for c in hidden if view[L.C_FLAGS + c] & L.F_BOOSTING]  # face up as a boost: in the back row
    unseen = [c for c in hidden if c not in boosting]
    own_deck = [c for c in range(seat * N, seat * N + N) if view[L.C_ZONE + c] == L.Z_HIDDEN]
    hand = hand_size(state, opponent)
    samples = 3000
    in_hand = dict.fromkeys(unseen, 0)
    on_top = dict.fromkeys(own_deck, 0)
    rng = np.array([0, 0], dtype=np.int64)
    rng[seat] = to_signed(99)
    world = L.new_state()
    for _ in range(samples):
        sample_world(view, rules_array, seat, rng, seat, world)
        for c in unseen:
            in_hand[c] += world[L.C_ZONE + c] == L.Z_HAND
        assert all(world[L.C_ZONE + c] == L.Z_BACK for c in boosting)
        on_top[int(world[L.S_DECK + seat * N + world[L.S_DECK_COUNT + seat] - 1])] += 1
    p = hand / len(unseen)
    sigma = (samples * p * (1 - p)) ** 0.5
    assert all(abs(count - samples * p) < 5 * sigma for count in in_hand.values()), (p, in_hand)
    chi2 = sum((count - samples * p) ** 2 / (samples * p * (1 - p)) for count in in_hand.values())
    assert chi2 < len(unseen) + 5 * (2 * len(unseen)) ** 0.5  # the sum of the squared z-scores, ~ chi2(n)
    q = 1 / len(own_deck)
    assert all(abs(count - samples * q) < 5 * (samples * q * (1 - q)) ** 0.5 for count in on_top.values())


def test_two_states_with_the_same_view_give_the_same_samples(states):
    chooser = random.Random(5)
    checked = 0
    for name, (rules, collected) in states.items():
        if name == "open":
            continue
        rules_array = rules.to_array()
        for k, (state, seat) in enumerate(collected[::3]):
            other = hide_differently(state, seat, chooser)
            assert_consistent(other)
            view = view_of(state, rules_array, seat)
            assert np.array_equal(view_of(other, rules_array, seat), view)
            assert not np.array_equal(other, state) or state[L.S_DECK_COUNT + 1 - seat] <= 1
            assert np.array_equal(sample(view, rules_array, seat, k), sample(view_of(other, rules_array, seat),
                                                                             rules_array, seat, k))
            checked += 1
    assert checked > 100


def test_the_compiled_sampler_equals_its_python_twin(states):
    for name, (rules, collected) in states.items():
        rules_array = rules.to_array()
        for k, (state, seat) in enumerate(collected[::2]):
            view = view_of(state, rules_array, seat)
            reference_rng = PyRng(7 + k)
            expected = sample_world_reference(view, rules_array, seat, reference_rng)
            rng = np.array([0, 0], dtype=np.int64)
            rng[seat] = to_signed(7 + k)
            got = sample_world(view.copy(), rules_array, seat, rng, seat, L.new_state())
            assert np.array_equal(got, expected), (name, k, np.nonzero(got != expected))
            assert rng[seat] == to_signed(reference_rng.state)  # the same number of draws


def _straight_flush_pool(rules):
    """A decision of the seat where the opponent's unseen cards are a suit's A-5 and one other card,
    five in hand and one in the deck (the true hand holds no straight flush)."""
    rules_array = rules.to_array()
    for state, seat in decision_states(rules, 20, every=1, seed0=900):
        o = 1 - seat
        if state[L.S_CHAIN_LEN] or state[L.S_PEND_KIND] or any(state[L.S_BACK + o * Z + i] >= 0 for i in range(Z)):
            continue
        unseen = [c for c in range(o * N, o * N + N) if state[L.C_ZONE + c] in (L.Z_DECK, L.Z_HAND)]
        for suit in range(4):
            run = [o * N + suit * 13 + r for r in range(5)]
            other = next((c for c in unseen if c % N < 52 and (c % N) // 13 != suit), None)
            if other is None or not all(c in unseen for c in run):
                continue
            world = state.copy()
            for c in unseen:
                world[L.S_SEQ] += 1
                world[L.C_ZONE + c], world[L.C_POS + c] = L.Z_GRAVE, world[L.S_SEQ]
            for c in run[1:] + [other]:
                world[L.C_ZONE + c], world[L.C_POS + c] = L.Z_HAND, 0
            world[L.S_DECK + o * N:L.S_DECK + (o + 1) * N] = 0
            world[L.S_DECK + o * N] = run[0]
            world[L.S_DECK_COUNT + o] = 1
            world[L.C_ZONE + run[0]], world[L.C_POS + run[0]] = L.Z_DECK, 0
            assert_consistent(world)
            assert not holds_straight_flush(world, rules_array, o)
            return world, seat
    raise AssertionError("no suitable state")


def test_no_opponent_straight_flush_in_hand_when_it_would_have_won():
    """D-AMB-55 "automatic" (advanced): a straight flush in hand ends the match at once, so a world
    cannot hold one: such deals are redrawn. Without the module they stay (about 1 in 6 here)."""
    advanced = load_rules("advanced")
    state, seat = _straight_flush_pool(advanced)
    for rules, low, high in ((advanced, 0, 0), (load_rules("core"), 0.10, 0.25)):
        rules_array = rules.to_array()
        view = view_of(state, rules_array, seat)
        held = 0
        for agent_seed in range(600):
            world = sample(view, rules_array, seat, agent_seed)
            assert np.array_equal(view_of(world, rules_array, seat), view)
            held += holds_straight_flush(world, advanced.to_array(), 1 - seat)
        assert low * 600 <= held <= high * 600, held


def test_D_DS_8_each_face_down_slot_shows_its_set_turn_and_a_world_keeps_it(states):
    """The opponent saw when a card was set, not which (D-DS-8 needs it): the view shows each
    face-down slot's set turn (layout.face_down) and every world gives the card it deals there
    that turn."""
    checked = 0
    for name, (rules, collected) in states.items():
        rules_array = rules.to_array()
        for k, (state, seat) in enumerate(collected):
            opponent = 1 - seat
            view = view_of(state, rules_array, seat)
            world = sample(view, rules_array, seat, 77 + k)
            for i in range(Z):
                card = int(state[L.S_BACK + opponent * Z + i])
                if card < 0 or state[L.C_ZONE + card] != L.Z_BACK or name == "open":
                    continue
                assert L.set_turn_of(view[L.S_BACK + opponent * Z + i]) == state[L.C_SET_TURN + card]
                assert view[L.C_SET_TURN + card] == L.HIDDEN  # per card it stays hidden
                dealt = int(world[L.S_BACK + opponent * Z + i])
                assert world[L.C_SET_TURN + dealt] == state[L.C_SET_TURN + card], (name, k, i)
                checked += 1
    assert checked > 200


def test_D_DS_8_states_that_differ_only_in_which_card_is_face_down_give_one_view():
    from tests.test_pd_switch_clauses import pos
    from sim.poker_duel.position import load_position
    a = load_position(pos({}, {"hand": ["D4"], "back_row": [{"card": "HQ", "set_turn": 2}]})).to_array()
    b = load_position(pos({}, {"hand": ["HQ"], "back_row": [{"card": "D4", "set_turn": 2}]})).to_array()
    c = load_position(pos({}, {"hand": ["D4"], "back_row": [{"card": "HQ", "set_turn": 3}]})).to_array()
    assert not np.array_equal(a, b)
    assert np.array_equal(L.build_view(a, 0), L.build_view(b, 0))
    assert not np.array_equal(L.build_view(a, 0), L.build_view(c, 0))  # set this turn: public
    assert L.set_turn_of(L.build_view(c, 0)[L.S_BACK + Z]) == 3


def test_D_DS_8_a_search_world_gives_the_opponent_no_boost_set_this_turn():
    """p0 sets ♦3 this turn and attacks; in the damage step p1 (searching) boosts with its ♣4 set
    earlier. In truth p0 then may only pass (D-DS-8: a boost set this turn waits); every world p1
    samples agrees (before, a world said "set before this turn" and let p0 answer with ♦3)."""
    from tests.test_pd_switch_clauses import pos
    from sim.poker_duel.position import apply_texts, load_position
    m = load_position(pos({"hand": ["D3", "HQ"], "monsters": ["S7"]},
                          {"monsters": ["H9"], "back_row": [{"card": "C4", "set_turn": 2}]}))
    apply_texts(m, ["set D3", "pass", "attack 0 0", "pass", "pass", "pass"])
    assert m.phase == L.PH_DAMAGE and m.decider == 1
    rules_array = m.rules.to_array()
    view = m.view(1)
    state = m.to_array()
    truth = state.copy()
    legal = np.zeros(512, dtype=np.int64)
    KC.apply_action(truth, rules_array, 90001)  # "boost 0 1": ♣4 on p1's ♥9
    assert [int(a) for a in legal[:KC.legal_actions(truth, rules_array, legal)]] == [0]  # pass only
    boosts = 0
    for agent_seed in range(200):
        world = sample(view, rules_array, 1, agent_seed)
        KC.apply_action(world, rules_array, 90001)
        n = KC.legal_actions(world, rules_array, legal)
        boosts += any(a // 10000 == 9 for a in legal[:n])
    assert boosts == 0


def test_D_AMB_60_a_card_the_opponent_took_is_dealt_to_their_hand_or_back_row_uniformly():
    """p1's ♠9, taken by p0's K (public), is among the cards p0 holds unseen: hand or face-down
    slot, never a deck; it sits in the one face-down slot with frequency 1 / (cards p0 holds
    unseen: hand + face-down slots)."""
    from tests.test_pd_switch_clauses import pos
    from sim.poker_duel.position import apply_texts, load_position
    m = load_position(pos({"hand": ["SK", "D2", "D3", "C5"], "back_row": ["HQ"]}, {"graveyard": ["S9"]},
                          amb={"D-AMB-60": "k_searches_both"}))
    apply_texts(m, ["act_hand SK", "pick S9'", "pass"])
    taken = L.card_id(1, 21)
    assert m.zone[taken] == L.Z_HAND and m.controller(taken) == 0
    rules_array = m.rules.to_array()
    view = m.view(1)
    held = [c for c in range(L.N_CARDS) if m.zone[c] in (L.Z_HAND, L.Z_BACK) and m.controller(c) == 0]
    assert taken in held and len(held) == 5
    in_slot = 0
    samples = 2000
    for agent_seed in range(samples):
        world = sample(view, rules_array, 1, agent_seed)
        assert world[L.C_ZONE + taken] in (L.Z_HAND, L.Z_BACK)
        assert taken not in [int(world[L.S_DECK + p * N + i]) for p in (0, 1) for i in range(int(world[L.S_DECK_COUNT + p]))]
        assert np.array_equal(view_of(world, rules_array, 1), view)
        assert_consistent(world)
        assert hand_size(world, 0) == 4 and world[L.S_DECK_COUNT + 1] == m.to_array()[L.S_DECK_COUNT + 1]
        in_slot += int(world[L.S_BACK]) == taken
    q = 1 / len(held)
    assert abs(in_slot - samples * q) < 5 * (samples * q * (1 - q)) ** 0.5, in_slot
