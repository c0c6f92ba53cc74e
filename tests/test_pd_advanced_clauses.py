"""Poker Duel clause tests: the advanced module (suit effects, straight
flush) and the club multiplier D-AMB-01 (../shared/rules/poker-duel.md §11-§13)."""

from tests.pd_harness import engine, new_match, play  # noqa: F401  (engine is a fixture)

FIGHT = ["pass", "pass", "pass", "pass"]


def pos(p0=None, p1=None, **top):
    return {"players": [p0 or {}, p1 or {}], **top}


def test_D_ADV_0_the_module_is_one_switch(engine):
    core = play(engine, pos({"hand": ["S9"]}, preset="core"), ["summon S9"])
    advanced = play(engine, pos({"hand": ["S9"]}, preset="advanced"), ["summon S9"])
    assert core.hp(1) == 40 and advanced.hp(1) == 35


def test_D_ADV_1_spade_entering_burns_half_rounded_up(engine):
    t = play(engine, pos({"hand": ["S7", "SK"], "graveyard": ["S3"]}, preset="advanced"),
             ["summon S7", "act_hand SK", "pick S3", "summon S3"])
    assert t.hp(1) == 40 - 4 - 2 and t.counter("spade_burn") == 6


def test_D_ADV_2_heart_entering_heals_its_value(engine):
    t = play(engine, pos({"hand": ["H8"], "hp": 30}, preset="advanced"), ["summon H8"])
    assert t.hp(0) == 38


def test_D_ADV_3_D_AMB_01_club_damage_multiplier(engine):
    start = pos({"monsters": ["C6"]}, phase="declare", preset="advanced")
    assert play(engine, start, ["attack 0 5", "pass", "pass"]).hp(1) == 28  # §14.3 example 3: 6 x 2
    tripled = dict(start, rules={"club_multiplier": 3})
    assert play(engine, tripled, ["attack 0 5", "pass", "pass"]).hp(1) == 22
    assert play(engine, dict(start, preset="core"), ["attack 0 5", "pass", "pass"]).hp(1) == 34


def test_D_ADV_4_a_diamond_that_destroys_attacks_once_more_monsters_only(engine):
    start = pos({"monsters": ["D8"]}, {"monsters": ["H3", "H5"]}, phase="declare", preset="advanced")
    t = play(engine, start, ["attack 0 0"] + FIGHT)   # red vs red: higher wins, H3 destroyed
    assert t.zone("H3", 1) == "graveyard" and t.phase == "declare" and t.legal == ["pass", "attack 0 1"]
    t = play(engine, start, ["attack 0 0"] + FIGHT + ["attack 0 1"] + FIGHT)
    assert t.zone("H5", 1) == "graveyard" and t.active == 1  # no third attack
    t = play(engine, dict(start, preset="core"), ["attack 0 0"] + FIGHT)
    assert t.active == 1


def test_D_SF_1_D_WIN_3_a_straight_flush_in_hand_wins(engine):
    start = pos({"hand": ["S3", "S4", "S5", "S6", "HQ"], "deck": ["D2", "S7"]}, preset="advanced")
    t = play(engine, start, ["act_hand HQ", "count 1"])
    assert t.winner == 0 and t.end_type == "straight_flush"
    t = play(engine, dict(start, preset="core"), ["act_hand HQ", "count 1"])
    assert t.winner == -1


def test_D_SF_2_ace_high_or_low(engine):
    for hand in (["HA", "H2", "H3", "H4", "DQ"], ["HJ", "HQ", "HK", "H10", "DQ"]):
        t = play(engine, pos({"hand": hand, "deck": ["D2", "H5" if "H2" in hand else "HA"]}, preset="advanced"),
                 ["act_hand DQ", "count 1"])
        assert t.end_type == "straight_flush", hand


def test_D_SF_3_faces_count_11_to_13_jokers_do_not(engine):
    t = play(engine, pos({"hand": ["C9", "C10", "CJ", "CQ", "SQ"], "deck": ["D2", "CK"]}, preset="advanced"),
             ["act_hand SQ", "count 1"])
    assert t.end_type == "straight_flush"
    t = play(engine, pos({"hand": ["C9", "C10", "CJ", "CQ", "SQ"], "deck": ["D2", "BJ"]}, preset="advanced"),
             ["act_hand SQ", "count 1"])
    assert t.winner == -1


def _opening(reading):
    from sim.poker_duel.position import load_position
    from sim.poker_duel.reference import GameOver
    m = load_position(pos({"hand": ["S2", "S3", "S4", "S5", "S6"]}, {"hand": ["H9", "H10", "HJ", "HQ", "HK"]},
                          preset="advanced", rules={"ambiguities": {"D-AMB-45": reading}}))
    try:
        m._opening_straight_flush()  # the check Match.new runs right after the deal
    except GameOver:
        pass
    return m


def test_D_AMB_45_both_opening_hands_straight_flushes(engine):
    assert (_opening("draw").winner, _opening("draw").end_type) == (-1, 4)             # draw_straight_flush
    assert (_opening("turn_player_wins").winner, _opening("turn_player_wins").end_type) == (0, 3)


# The route that makes the straight flush the advanced module's main end in greedy play
# (docs/poker-duel.md, "Why the straight flush dominates"): a K brings a used Q back from the
# graveyard (D-K-1/3: any card but a K or a joker, D-K-4; S51 even lets a recovered Q be set
# and fired at once), and every Q this turn draws one more than the last (D-FN-7, D-Q-2).
# Two Q's and two K's in hand dig 2+3+4+5+6 = 20 cards in one main phase; the hand limit
# binds only in the end phase (D-END-1) and the check runs after every card (D-AMB-55/59).
LOOP_DRAWS = ["S3", "D2", "C4", "S4", "H2", "D6", "S5", "C8", "H6", "D10",
              "S6", "C2", "H10", "D4", "C6", "H4", "D8", "C10", "H8", "S7"]  # top of the deck first
LOOP = ["act_hand DQ", "count 2", "act_hand HQ", "count 3",          # Q #1 draws 2, Q #2 draws 3
        "act_hand SK", "pick DQ", "pass",                            # K #1 returns 1 card: the used DQ
        "act_hand DQ", "count 4",                                    # Q #3 draws 4
        "act_hand CK", "pick DQ", "pick HQ", "pass", "pass",         # K #2 returns 2: both Q's
        "act_hand DQ", "count 5", "act_hand HQ", "count 6"]          # Q #4 draws 5, Q #5 draws 6 -> S7


def _loop_position(preset="advanced"):
    deck = ["H9", "C9", "D9", "S9"] + list(reversed(LOOP_DRAWS))  # listed bottom to top
    return pos({"hand": ["DQ", "HQ", "SK", "CK"], "deck": deck}, preset=preset)


def test_D_SF_1_D_FN_7_D_Q_2_D_K_1_D_K_3_D_K_4_the_K_Q_loop_digs_a_straight_flush_in_one_turn(engine):
    start = _loop_position()
    t = play(engine, start, LOOP[:5])
    assert t.legal == ["pick DQ", "pick HQ"] and t.uses(0) == [0, 2, 1]  # a used Q may come back
    t = play(engine, start, LOOP[:10])
    assert t.graveyard(0) == ["DQ", "HQ", "SK"] and t.uses(0) == [0, 3, 2]
    assert t.legal == ["pick DQ", "pick HQ"]                           # D-K-4: the used SK is not offered
    t = play(engine, start, LOOP[:17])
    assert t.legal == ["count %d" % n for n in range(1, 7)]            # the 5th Q of the turn draws 1-6
    assert t.deck_size(0) == 4 + 20 - 14 and t.winner == -1
    t = play(engine, start, LOOP)
    assert (t.winner, t.end_type, t.turn) == (0, "straight_flush", play(engine, start).turn)  # the same turn
    assert t.uses(0) == [0, 5, 2] and t.deck_size(0) == 4 and len(t.hand(0)) == 20
    assert {"S3", "S4", "S5", "S6", "S7"} <= set(t.hand(0))
    core = play(engine, _loop_position("core"), LOOP)               # same dig, no special victory
    assert core.winner == -1 and len(core.hand(0)) == 20
