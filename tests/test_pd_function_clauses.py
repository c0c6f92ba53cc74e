"""Poker Duel clause tests: function cards J, Q, K, the jokers and the
response window (../shared/rules/poker-duel.md §7)."""

from tests.pd_harness import engine, play  # noqa: F401  (engine is a fixture)


def pos(p0=None, p1=None, **top):
    return {"players": [p0 or {}, p1 or {}], **top}


DECK = ["D2", "D3", "D4", "D5", "D6", "D7"]


def test_D_FN_1_function_cards_ignore_the_summoned_suit(engine):
    t = play(engine, pos({"hand": ["S7", "HJ"]}, {"monsters": ["D5"]}), ["summon S7"])
    assert "act_hand HJ" in t.legal


def test_D_FN_2_an_activation_from_hand_holds_a_back_row_slot(engine):
    t = play(engine, pos({"hand": ["HJ"]}, {"monsters": ["D5"], "back_row": ["SQ"]}), ["act_hand HJ", "target 0"])
    assert t.pending == "response" and t.back_row(0)[0] == "HJ" and t.zone("HJ", 0) == "chain"


def test_D_FN_3_a_full_back_row_blocks_hand_activations(engine):
    t = play(engine, pos({"hand": ["HJ"], "back_row": ["D2", "D3", "D4", "D5", "D6"]}, {"monsters": ["D5"]}))
    assert "act_hand HJ" not in t.legal


def test_D_FN_4_D_J_1_j_destroys_one_card_and_goes_to_the_graveyard(engine):
    t = play(engine, pos({"hand": ["HJ"]}, {"monsters": ["D5", "D6"]}), ["act_hand HJ"])
    assert t.legal == ["target 0", "target 1"]  # a first J takes exactly one target, no "done"
    t = play(engine, pos({"hand": ["HJ"]}, {"monsters": ["D5", "D6"]}), ["act_hand HJ", "target 1"])
    assert t.monsters(1)[:2] == ["D5", None] and t.graveyard(1) == ["D6"] and t.graveyard(0) == ["HJ"]
    assert t.back_row(0)[0] is None  # the slot is free again


def test_D_FN_5_D_FN_6_a_set_function_card_can_be_activated_the_turn_it_is_set(engine):
    t = play(engine, pos({"hand": ["HJ"]}, {"monsters": ["D5"]}), ["set HJ"])
    assert "act_set 0" in t.legal
    t = play(engine, pos({"hand": ["HJ"]}, {"monsters": ["D5"]}), ["set HJ", "act_set 0", "target 0"])
    assert t.graveyard(1) == ["D5"]


def test_D_FN_7_D_J_2_the_nth_j_destroys_up_to_n(engine):
    start = pos({"hand": ["HJ"]}, {"monsters": ["D5", "D6", "D7"]}, uses=[[1, 0, 0], [0, 0, 0]])
    t = play(engine, start, ["act_hand HJ", "target 0"])
    assert t.legal == ["pass", "target 1", "target 2"]  # a second J: 1 or 2 targets
    t = play(engine, start, ["act_hand HJ", "target 0", "target 2"])
    assert t.graveyard(1) == ["D5", "D7"] and t.uses(0) == [2, 0, 0]
    t = play(engine, start, ["act_hand HJ", "target 0", "pass"])
    assert t.graveyard(1) == ["D5"]


def test_D_Q_1_first_q_draws_one_or_two(engine):
    t = play(engine, pos({"hand": ["HQ"], "deck": DECK}), ["act_hand HQ"])
    assert t.legal == ["count 1", "count 2"]
    t = play(engine, pos({"hand": ["HQ"], "deck": DECK}), ["act_hand HQ", "count 2"])
    assert t.hand(0) == ["D6", "D7"]


def test_D_Q_2_the_nth_q_draws_up_to_n_plus_one(engine):
    t = play(engine, pos({"hand": ["HQ"], "deck": DECK}, uses=[[0, 2, 0], [0, 0, 0]]), ["act_hand HQ"])
    assert t.legal == ["count 1", "count 2", "count 3", "count 4"]


def test_D_K_1_D_K_2_k_returns_a_card_and_a_monster_may_be_summoned(engine):
    start = pos({"hand": ["HK"], "graveyard": ["S9", "DQ"]})
    t = play(engine, start, ["act_hand HK"])
    assert t.legal == ["pick DQ", "pick S9"] and t.pending == "k_picks"
    t = play(engine, start, ["act_hand HK", "pick S9"])
    assert t.legal == ["pass", "summon S9"]
    t = play(engine, start, ["act_hand HK", "pick S9", "pass"])
    assert "S9" in t.hand(0) and t.graveyard(0) == ["DQ", "HK"]
    t = play(engine, start, ["act_hand HK", "pick S9", "summon S9"])
    assert t.monsters(0)[0] == "S9"


def test_D_K_3_the_nth_k_recovers_up_to_n(engine):
    start = pos({"hand": ["HK"], "graveyard": ["S9", "S8", "S7"]}, uses=[[0, 0, 1], [0, 0, 0]])
    t = play(engine, start, ["act_hand HK", "pick S9", "pick S8"])
    assert t.pending == "k_place"  # 2 picks reached, placement begins
    t = play(engine, start, ["act_hand HK", "pick S9", "pick S8", "pass", "pass"])
    assert {"S9", "S8"} <= set(t.hand(0)) and t.graveyard(0) == ["HK", "S7"]


def test_D_K_4_k_cannot_recover_k_or_jokers(engine):
    t = play(engine, pos({"hand": ["HK"], "graveyard": ["SK", "BJ", "LJ", "S5"]}), ["act_hand HK"])
    assert t.legal == ["pick S5"]
    t = play(engine, pos({"hand": ["HK"], "graveyard": ["SK", "BJ"]}))
    assert "act_hand HK" not in t.legal  # nothing to recover (D-AMB-20)


def test_D_JOKER_1_small_joker_destroys_every_set_card(engine):
    t = play(engine, pos({"hand": ["LJ"]}, {"back_row": ["SQ", "H5", "DJ"], "monsters": ["C3"]}), ["act_hand LJ"])
    assert t.graveyard(1) == ["DJ", "H5", "SQ"] and t.monsters(1)[0] == "C3" and t.graveyard(0) == ["LJ"]


def test_D_JOKER_2_nothing_responds_to_the_small_joker(engine):
    t = play(engine, pos({"hand": ["LJ"]}, {"back_row": ["SQ"]}), ["act_hand LJ"])
    assert t.pending == "none" and t.graveyard(1) == ["SQ"] and t.counter("responses") == 0


def test_D_JOKER_3_big_joker_destroys_every_monster_not_set_cards(engine):
    t = play(engine, pos({"hand": ["BJ"]}, {"monsters": ["C3", "H9"], "back_row": ["H5"]}), ["act_hand BJ"])
    assert t.graveyard(1) == ["C3", "H9"] and t.back_row(1)[0] == "H5"


def test_D_FN_8_responses_resolve_last_in_first_out(engine):
    # p0's J targets p1's set Q; p1 answers with that Q: Q resolves first (draws),
    # so the J's target has left the field and that part of J does nothing.
    start = pos({"hand": ["HJ"]}, {"back_row": ["SQ"], "monsters": ["C3"], "deck": ["D2", "D3"]})
    t = play(engine, start, ["act_hand HJ", "target 5"])
    assert t.pending == "response" and t.decider == 1 and t.legal == ["pass", "act_set 0"]
    t = play(engine, start, ["act_hand HJ", "target 5", "act_set 0", "count 1"])
    assert t.hand(1) == ["D3"] and t.monsters(1)[0] == "C3"
    assert t.graveyard(1) == ["SQ"] and t.graveyard(0) == ["HJ"]
    assert t.uses(1) == [0, 1, 0] and t.counter("responses") == 1  # counts toward the responder's own Q
    t = play(engine, start, ["act_hand HJ", "target 5", "pass"])
    assert t.graveyard(1) == ["SQ"] and t.hand(1) == []  # not answered: destroyed
