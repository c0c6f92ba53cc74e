"""Golden tests of §18.6, before any simulation: the exhaustive one-on-one battle table
(checked against §17 notes 1-2) and the L48 worked example (T-BATTLE-8), on both engines."""

import numpy as np
import pytest

from sim.novel_tcg import kernel
from sim.novel_tcg.card_pool import character_stats
from tests.tcg_harness import both


def duel(rules, attacker, defender, defender_position="attack"):
    """One battle: seat 0's `attacker` (card text) attacks seat 1's `defender`; -> the reference Match."""
    position = {"rules": rules, "turn": 2, "active": 0, "phase": "battle",
                "seats": [{"hp": 1000, "front": [{"slot": 0, "card": attacker}]},
                          {"hp": 1000, "front": [{"slot": 0, "card": defender, "position": defender_position}]}]}
    return both(position, ["attack 0 0"])


def test_T_BATTLE_8_L48_worked_example_both_engines():
    # 10★ 10/10 attacks 9★ 10/10 (a flat curve prints every character 10/10)
    flat = {"atk_base": 10.0, "atk_slope": 0.0, "hp_base": 10.0, "hp_slope": 0.0}
    match = duel(flat, "10", "9")
    to_defender, to_attacker, defender_hp, attacker_hp, defender_overflow, attacker_overflow = match.last_battle
    assert (to_defender, to_attacker) == (15, 5)           # 10 + 5*1 and 10 - 5*1 (R2)
    assert (attacker_hp, defender_hp) == (5, -5)           # "攻击者 10/5, 被攻击者 10/-5"
    assert defender_overflow == 5 and attacker_overflow == 0
    assert match.duelists[1].hp == 1000 - 5                # the attacked duelist takes the 5 overflow
    assert match.duelists[0].front[0].hp == 5 and match.duelists[1].front[0] is None
    assert match.atk(match.duelists[0].front[0]) == 10     # printed ATK unchanged (对方攻击血量不变)


def test_T_AMB_54_R1_fails_the_L48_example():
    flat = {"atk_base": 10.0, "atk_slope": 0.0, "hp_base": 10.0, "hp_slope": 0.0, "ambiguities": {"T-AMB-54": "R1"}}
    match = duel(flat, "10", "9")
    assert match.last_battle[:4] == (15, 10, -5, 0)       # the attacker would end at 10/0, not 10/5
    assert match.duelists[0].front[0] is None


SHAPES = ("balanced", "aggressive", "defensive")


def expected(star_a, star_d, atk_a, atk_d, m, reading):
    delta = star_a - star_d
    to_d = max(0, atk_a + m * delta)
    to_a = max(0, atk_d - m * delta) if reading == "R2" else max(0, atk_d)
    return to_d, to_a


@pytest.mark.parametrize("reading", ["R2", "R1"])
@pytest.mark.parametrize("m,a1", [(0, 1.0), (1, 1.0), (3, 1.0), (5, 1.0), (10, 2.0)])
def test_battle_table_all_stars_and_shapes(reading, m, a1):
    """Every ★ x ★ (1-20) pair and shape pair: exact damages, overflow and survivors; §17 notes 1-2."""
    rules = {"star_mod": m, "atk_slope": a1, "hp_slope": a1, "ambiguities": {"T-AMB-54": reading}}
    from sim.novel_tcg.rules import rules_from_mapping
    parsed = rules_from_mapping(rules)
    for shape_a in SHAPES:
        for shape_d in SHAPES:
            for star_a in range(1, 21):
                for star_d in range(1, 21):
                    atk_a, hp_a = character_stats(parsed, star_a, SHAPES.index(shape_a))
                    atk_d, hp_d = character_stats(parsed, star_d, SHAPES.index(shape_d))
                    match = duel(rules, "%d %s" % (star_a, shape_a), "%d %s" % (star_d, shape_d))
                    to_d, to_a = expected(star_a, star_d, atk_a, atk_d, m, reading)
                    assert match.last_battle[:2] == (to_d, to_a)
                    assert match.duelists[1].hp == 1000 - max(0, to_d - hp_d)   # defender's overflow
                    assert match.duelists[0].hp == 1000 - max(0, to_a - hp_a)   # attacker's overflow (T-AMB-58)
                    if shape_a == shape_d == "balanced" and reading == "R2":
                        low, high = sorted((star_a, star_d))
                        delta = high - low
                        survivors = [match.duelists[s].front[0] is not None for s in (0, 1)]
                        if delta == 0:
                            assert survivors == [False, False]                  # equal stars trade 1-for-1
                            assert match.duelists[0].hp == match.duelists[1].hp == 1000
                        else:  # note 1: the higher star wins whoever attacks; the lower one overflows (m+1)·a1·Δ
                            assert survivors == ([True, False] if star_a > star_d else [False, True])
                            loser = 1 if star_a > star_d else 0
                            assert match.duelists[loser].hp == 1000 - round((m / a1 + 1) * a1 * delta)
                            # note 2: the lower star deals nothing when ★·a1 <= m·Δ
                            low_damage = to_a if star_a > star_d else to_d
                            assert (low_damage == 0) == (a1 * low <= m * delta)
                    if reading == "R1" and shape_a == shape_d == "balanced" and star_a < star_d:
                        # R1: the same winner; the lower attacker's duelist takes Δ overflow
                        assert match.duelists[0].front[0] is None and match.duelists[1].front[0] is not None
                        assert match.duelists[0].hp == 1000 - round(a1 * (star_d - star_a))


def test_battle_table_defense_blocks_overflow_and_hits_back():
    match = duel({}, "12", "6", defender_position="defense")
    assert match.last_battle[:2] == (42, 0) and match.duelists[1].hp == 1000   # T-POS-5: no overflow from defense
    match = duel({}, "6", "12", defender_position="defense")
    assert match.last_battle[:2] == (0, 42) and match.duelists[0].hp == 1000 - 36  # T-AMB-60: defense hits back


# ---- the battle clauses behind the table, each as one named scenario (both engines) -----------
FLAT = {"atk_base": 10.0, "atk_slope": 0.0, "hp_base": 10.0, "hp_slope": 0.0}  # every character prints 10/10


def test_T_BATTLE_4_equal_stars_each_takes_the_others_atk():
    from sim.novel_tcg.rules import rules_from_mapping
    # 9★ aggressive attacks 9★ defensive: Δ = 0, so each deals its printed ATK to the other
    atk_a, hp_a = character_stats(rules_from_mapping({}), 9, SHAPES.index("aggressive"))
    atk_d, hp_d = character_stats(rules_from_mapping({}), 9, SHAPES.index("defensive"))
    match = duel({}, "9 aggressive", "9 defensive")
    assert match.last_battle[:4] == (atk_a, atk_d, hp_d - atk_a, hp_a - atk_d)


def test_T_BATTLE_6_the_lower_star_attacking_deals_atk_minus_5_delta():
    # 8★ 10/10 attacks 10★ 10/10, Δ = 2, m = 5: it deals max(0, 10 - 10) = 0 and takes 10 + 10 = 20
    match = duel(FLAT, "8", "10")
    assert match.last_battle[:4] == (0, 20, 10, -10)
    assert match.duelists[0].front[0] is None and match.duelists[1].front[0].hp == 10
    assert match.duelists[0].hp == 1000 - 10                   # its 10 overflow goes to its duelist (T-AMB-58)
    assert match.atk(match.duelists[1].front[0]) == 10          # printed ATK unchanged (对方攻击血量不变)


def test_T_BATTLE_7_the_higher_star_attacking_deals_atk_plus_5_delta():
    # 10★ 10/10 attacks 8★ 10/10, Δ = 2, m = 5: it deals 10 + 10 = 20 and takes max(0, 10 - 10) = 0
    match = duel(FLAT, "10", "8")
    assert match.last_battle[:4] == (20, 0, -10, 10)
    assert match.duelists[0].front[0].hp == 10 and match.duelists[1].front[0] is None
    assert match.duelists[1].hp == 1000 - 10                   # the defender's duelist takes the 10 overflow
    assert match.atk(match.duelists[0].front[0]) == 10
