"""Poker Duel clause tests: components, set-up, turn, draw, main phase,
summoning, setting, end phase and winning (../shared/rules/poker-duel.md)."""

from tests.pd_harness import engine, new_match, play  # noqa: F401  (engine is a fixture)


def pos(p0=None, p1=None, **top):
    return {"players": [p0 or {}, p1 or {}], **top}


def test_D_COMP_1_D_COMP_6_D_SETUP_1_D_SETUP_2_D_SETUP_4_own_decks_five_cards_forty_hp(engine):
    t = new_match(engine, first=0, seed=5)
    for p in (0, 1):
        assert t.hp(p) == 40
        assert t.deck_size(p) + len(t.hand(p)) == 54  # every card of the own 54-card deck
    assert len(t.hand(1)) == 5 and len(t.hand(0)) == 6  # 5 dealt, first player drew 1 (D-DRAW-2)
    other = new_match(engine, first=0, seed=6)
    assert other.hand(0) != t.hand(0)  # shuffled by the seed


def test_D_SETUP_3_first_player_is_a_match_parameter(engine):
    t = new_match(engine, first=1, seed=5)
    assert t.active == 1 and len(t.hand(1)) == 6 and len(t.hand(0)) == 5


def test_D_DRAW_2_first_turn_draws_one(engine):
    t = new_match(engine, first=0, seed=9)
    assert t.deck_size(0) == 54 - 5 - 1 and t.deck_size(1) == 54 - 5


def test_D_COMP_2_D_COMP_3_D_COMP_4_monsters_summon_function_cards_activate(engine):
    t = play(engine, pos({"hand": ["S7", "SJ", "HQ", "BJ", "LJ"]}, {"monsters": ["D5"], "back_row": ["C2"]}))
    assert "summon S7" in t.legal and not any(a.startswith("summon S") and a != "summon S7" for a in t.legal)
    assert {"act_hand SJ", "act_hand HQ", "act_hand BJ", "act_hand LJ"} <= set(t.legal)
    assert "act_hand S7" not in t.legal


def test_D_COMP_5_spades_and_clubs_are_one_colour(engine):
    t = play(engine, pos({"monsters": ["S7"]}, {"monsters": ["C5"]}, phase="declare"),
             ["attack 0 0", "pass", "pass", "pass", "pass"])
    assert t.zone("C5", 1) == "graveyard" and t.zone("S7", 0) == "monster" and t.hp(1) == 38


def test_D_COMP_7_monsters_have_no_effect_in_the_core_game(engine):
    t = play(engine, pos({"hand": ["S10", "H9"]}), ["summon S10"])
    assert t.hp(0) == 40 and t.hp(1) == 40


def test_D_TURN_1_D_TURN_2_D_TURN_3_D_DRAW_1_four_phases_then_the_opponent(engine):
    t = play(engine, pos({"monsters": ["S7"]}, {"deck": ["D2", "D3", "D4"]}), ["pass"])
    assert t.phase == "declare"  # main -> battle
    t = play(engine, pos({"monsters": ["S7"]}, {"deck": ["D2", "D3", "D4"]}), ["pass", "pass"])
    assert t.turn == 4 and t.active == 1 and t.phase == "main"  # end -> no second main, opponent's turn
    assert t.hand(1) == ["D3", "D4"] and t.deck_size(1) == 1  # drew 2 from the top


def test_D_DRAW_3_D_WIN_2_fewer_cards_than_the_draw_loses(engine):
    t = play(engine, pos({}, {"deck": ["D2"]}), ["pass"])
    assert t.winner == 0 and t.end_type == "deck_out"


def test_D_MAIN_1_D_MAIN_2_D_SUM_4_summon_use_a_function_card_summon_again(engine):
    t = play(engine, pos({"hand": ["S7", "S3", "HQ"], "deck": ["D2", "D3", "D4", "D5"]}),
             ["summon S7", "act_hand HQ", "count 1", "summon S3"])
    assert t.monsters(0)[:2] == ["S7", "S3"] and "D5" in t.hand(0) and t.zone("HQ", 0) == "graveyard"


def test_D_SUM_1_hand_summons_share_one_suit_per_turn(engine):
    t = play(engine, pos({"hand": ["S7", "S3", "H5"]}), ["summon S7"])
    assert "summon S3" in t.legal and "summon H5" not in t.legal


def test_D_SUM_2_D_SUM_5_five_monsters_then_only_a_bump(engine):
    full = ["S2", "S3", "S4", "S5", "S6"]
    t = play(engine, pos({"hand": ["S9"], "monsters": full}))
    summons = [a for a in t.legal if a.startswith("summon")]
    assert summons == ["summon S9 bump %d" % i for i in range(5)]
    t = play(engine, pos({"hand": ["S9"], "monsters": full}), ["summon S9 bump 2"])
    assert t.monsters(0) == ["S2", "S3", "S9", "S5", "S6"] and t.zone("S4", 0) == "graveyard"


def test_D_SUM_3_one_position_only(engine):
    t = play(engine, pos({"hand": ["S7"]}))
    assert [a for a in t.legal if "S7" in a and a.startswith("summon")] == ["summon S7"]


def test_D_SUM_6_a_k_summon_ignores_the_suit(engine):
    t = play(engine, pos({"hand": ["SK"], "monsters": ["S7"], "graveyard": ["H5"]}, turn_suit="S"),
             ["act_hand SK", "pick H5"])
    assert "summon H5" in t.legal
    t = play(engine, pos({"hand": ["SK"], "monsters": ["S7"], "graveyard": ["H5"]}, turn_suit="S"),
             ["act_hand SK", "pick H5", "summon H5"])
    assert t.monsters(0)[:2] == ["S7", "H5"]


def test_D_SET_1_any_hand_card_can_be_set(engine):
    t = play(engine, pos({"hand": ["S7", "DJ", "BJ"]}))
    assert {"set S7", "set DJ", "set BJ"} <= set(t.legal)
    t = play(engine, pos({"hand": ["S7", "DJ", "BJ"]}), ["set BJ", "set S7"])
    assert t.back_row(0)[:2] == ["BJ", "S7"]


def test_D_SET_2_a_full_back_row_takes_no_more(engine):
    t = play(engine, pos({"hand": ["S7"], "back_row": ["D2", "D3", "D4", "D5", "D6"]}))
    assert not [a for a in t.legal if a.startswith("set")]


def test_D_SET_3_a_set_monster_card_is_not_a_monster(engine):
    t = play(engine, pos({"monsters": ["S7"]}, {"back_row": ["H5"]}, phase="declare"))
    assert "attack 0 5" in t.legal  # the opponent has no monster: attack the player


def test_D_END_1_D_END_2_turn_player_discards_to_six_then_the_opponent(engine):
    hand = ["D2", "D3", "D4", "D5", "D6", "D7", "D8", "D9"]
    t = play(engine, pos({"hand": hand}, {"hand": ["S2", "S3", "S4", "S5", "S6", "S7", "S8"]}), ["pass"])
    assert t.phase == "discard" and t.decider == 0
    t = play(engine, pos({"hand": hand}, {"hand": ["S2", "S3", "S4", "S5", "S6", "S7", "S8"]}),
             ["pass", "discard D2", "discard D3"])
    assert t.active == 1 and len(t.hand(0)) == 6 and t.graveyard(0) == ["D2", "D3"]
    assert len(t.hand(1)) == 9  # the non-turn player keeps a big hand (D-AMB-46)


def test_D_WIN_1_zero_hp_loses(engine):
    t = play(engine, pos({"monsters": ["D7"]}, {"hp": 7}, phase="declare"), ["attack 0 5", "pass", "pass"])
    assert t.hp(1) == 0 and t.winner == 0 and t.end_type == "life" and t.legal == []
