"""Novel TCG agents: what each decides in set positions, that they read only their view, and that
batches give the same numbers however they are split into chunks (workers)."""

import numpy as np

from sim.novel_tcg import actions as A
from sim.novel_tcg import layout as L
from sim.novel_tcg.position import match_from_position
from sim.novel_tcg.rules import Rules, rules_from_mapping, rules_to_toml
from strategies.novel_tcg import STRATEGY_DEFENSIVE, STRATEGY_GREEDY
from sim.novel_tcg.rules import PRESETS, load_rules
from strategies.novel_tcg import STRATEGY_RANDOM
from strategies.novel_tcg.batch import cell_of, play_batch, play_match
from strategies.novel_tcg.policies import choose, nb_field_view, nb_view


def decide(position, strategy=STRATEGY_GREEDY):
    match = match_from_position(position)
    legal = match.legal_actions()
    view = np.zeros(L.STATE_SIZE, dtype=np.int64)
    nb_view(match.pack(), match.active, view)
    index = choose(np.int64(strategy), view, match.rules.to_array(), np.array(legal, dtype=np.int64),
                   np.int64(len(legal)), np.zeros(2, dtype=np.int64), np.int64(match.active))
    return A.to_text(legal[index])


def pos(phase, me, them):
    return {"turn": 3, "phase": phase, "seats": [me, them]}


def test_greedy_summons_the_highest_legal_star():
    assert decide(pos("action", {"hand": ["2", "5", "12"], "front": [{"slot": 0, "card": "6"},
                                                                    {"slot": 1, "card": "6"}]}, {})) == "advance 11 attack"
    assert decide(pos("action", {"hand": ["2", "5"]}, {})) == "summon 4 attack"


def test_greedy_sets_a_summon_that_would_die_without_killing():
    assert decide(pos("action", {"hand": ["3"]}, {"front": [{"slot": 0, "card": "6"}]})) == "summon 2 set"


def test_greedy_guards_a_threatened_character_and_attacks_only_good_trades():
    me = {"front": [{"slot": 0, "card": "3"}]}
    assert decide(pos("action", me, {"front": [{"slot": 0, "card": "6"}]})) == "change 0 defense"
    assert decide(pos("battle", {"front": [{"slot": 0, "card": "3"}]}, {"front": [{"slot": 0, "card": "6"}]})) == "end"
    assert decide(pos("battle", {"front": [{"slot": 0, "card": "8"}]},
                      {"front": [{"slot": 0, "card": "6"}, {"slot": 1, "card": "2"}]})) == "attack 0 0"


def test_defensive_keeps_its_attacker_alive():
    battle = pos("battle", {"front": [{"slot": 0, "card": "6"}]}, {"front": [{"slot": 0, "card": "6"}]})
    assert decide(battle, STRATEGY_DEFENSIVE) == "end"      # an equal trade would lose the attacker
    assert decide(pos("action", {"hand": ["6"]}, {"front": [{"slot": 0, "card": "6"}]}), STRATEGY_DEFENSIVE) == "summon 5 set"


def test_the_view_hides_hands_decks_and_face_down_characters():
    """Two positions that deal the same unseen cards (the opponent's hand, deck and face-down
    character pooled; the own deck) differently give one view and one decision."""
    base = {"turn": 3, "phase": "battle", "seats": [
        {"front": [{"slot": 0, "card": "8"}], "deck": ["1", "2"]},
        {"hand": ["4", "blade"], "deck": ["3", "9"], "front": [{"slot": 0, "card": "5", "position": "set"}]}]}
    other = {"turn": 3, "phase": "battle", "seats": [
        {"front": [{"slot": 0, "card": "8"}], "deck": ["2", "1"]},
        {"hand": ["9", "3"], "deck": ["blade", "5"], "front": [{"slot": 0, "card": "4", "position": "set"}]}]}
    views = []
    for position in (base, other):
        view = np.zeros(L.STATE_SIZE, dtype=np.int64)
        nb_view(match_from_position(position).pack(), 0, view)
        views.append(view)
    assert np.array_equal(views[0], views[1])
    assert decide(base) == decide(other)


def test_scripted_policies_decide_the_same_on_the_field_view():
    """The batch loop gives greedy and defensive `nb_field_view` (nb_view with blank deck slots, no
    unseen-card lists to build): in every decision of seeded random matches under every preset it
    equals nb_view outside the deck slots, and both policies choose the same action on either view."""
    deck_slots = np.zeros(L.STATE_SIZE, dtype=bool)
    for seat in (0, 1):
        start = L.seat_base(seat) + L.P_DECK
        deck_slots[start:start + L.MAX_DECK] = True
    decisions = 0

    def compare(match, action):
        nonlocal decisions
        legal = np.array(match.legal_actions(), dtype=np.int64)
        if len(legal) < 2:
            return
        full, field = np.zeros(L.STATE_SIZE, dtype=np.int64), np.zeros(L.STATE_SIZE, dtype=np.int64)
        nb_view(match.pack(), match.active, full)
        nb_field_view(match.pack(), match.active, field)
        assert np.array_equal(full[~deck_slots], field[~deck_slots]) and not field[deck_slots].any()
        for strategy in (STRATEGY_GREEDY, STRATEGY_DEFENSIVE):
            on_full, on_field = (choose(np.int64(strategy), view, rules_array, legal, np.int64(len(legal)),
                                        np.zeros(2, dtype=np.int64), np.int64(match.active)) for view in (full, field))
            assert on_full == on_field
        decisions += 1

    for preset in sorted(PRESETS):
        rules = load_rules(preset)
        rules_array = rules.to_array()
        for seed, deck in enumerate(("swarm", "advance/curve", "curve/swarm")):
            cell = cell_of({"rank": (10, 12), "deck": deck, "first": seed % 2}, STRATEGY_RANDOM, STRATEGY_RANDOM)
            play_match(rules, cell, seed, on_step=compare)
    assert decisions > 1000


def test_batches_add_up_whatever_the_chunking():
    rules = Rules().to_array()
    cell = cell_of({"rank": (10, 10), "deck": "swarm/advance", "first": 0}, STRATEGY_GREEDY, STRATEGY_GREEDY)
    whole = play_batch(rules, cell, 11, 0, 60)
    parts = play_batch(rules, cell, 11, 0, 25) + play_batch(rules, cell, 11, 25, 35)
    assert np.array_equal(whole, parts)


def test_rules_toml_round_trip_and_presets():
    import tomllib
    from sim.novel_tcg.rules import PRESETS, load_rules
    for name in PRESETS:
        rules = load_rules(name)
        assert rules_from_mapping(tomllib.loads(rules_to_toml(rules))) == rules
    assert load_rules("loose_limit").star_ceiling(10) == 13 and Rules().star_ceiling(10) == 12
    assert Rules().star_ceiling(19) == 20 and Rules().with_changes(summon_limit="off").star_ceiling(1) == 20
