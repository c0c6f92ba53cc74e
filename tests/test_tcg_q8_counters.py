"""The counters §18.3 Q8 reads (the person as a fighter), on both engines: Weapons equipped, the damage a
person deals to characters attacking and blocking, the characters it defeats each way and their stars, and
the duelist HP each seat lost. Each test sets up a position (tests/tcg_harness.both compares the reference
and the kernel after every action, counters included: a position starts them at 0) and asserts exact values.
Characters are the default balanced curve: "N" is N★ N/N; Blade +3 ATK, Weapon ATK 3, d = 3."""

from sim.novel_tcg import layout as L
from sim.novel_tcg.rules import Rules
from tests.tcg_harness import both, front, pos, walk_both


def counters(match, *slots) -> list[int]:
    return [match.counters[slot - L.G_SIZE] for slot in slots]


def test_T_ZONE_13_T_AMB_15_weapon_equips_counts_weapons_apart_from_blades():
    me = {"front": front("4"), "hand": ["blade", "weapon", "weapon"]}
    match = both(pos(phase="action", me=me), ["equip 60 0", "equip 62 person"])
    assert counters(match, L.C_EQUIPS, L.C_WEAPON_EQUIPS) == [2, 1]
    match = both(pos(phase="action", me=me), ["equip 62 person", "equip 62 person"])  # the second replaces the first
    assert counters(match, L.C_EQUIPS, L.C_WEAPON_EQUIPS) == [2, 2] and match.duelists[0].graveyard == 1


def test_T_BATTLE_13_T_AMB_64_person_char_dmg_and_person_kills_attacking():
    # ATK 3 against a 3★ 3/3: defeated, 3 hit back; against a 10★: 3 dealt, nothing defeated
    match = both(pos(me={"weapon": 3}, them={"front": front("3", "10")}), ["attack person 0"])
    assert counters(match, L.C_PERSON_CHAR_DMG, L.C_PERSON_KILLS, L.C_PERSON_KILL_STARS, L.C_DESTROYED) == [3, 1, 3, 1]
    assert counters(match, L.C_PERSON_BLOCK_DMG, L.C_PERSON_BLOCK_KILLS) == [0, 0]
    match = both(pos(me={"weapon": 3}, them={"front": front("10")}), ["attack person 0"])
    assert counters(match, L.C_PERSON_CHAR_DMG, L.C_PERSON_KILLS, L.C_PERSON_KILL_STARS, L.C_DESTROYED) == [3, 0, 0, 0]


def test_T_BATTLE_12_T_EQUIP_8_person_block_dmg_and_block_kills_hitting_back_a_direct_attacker():
    # a 2★ 2/2 attacks the armed person directly: 2 to the duelist, ATK 3 back defeats it (overflow 1 to
    # the attacker's duelist, T-AMB-87 (a)); a 5★ survives the 3
    match = both(pos(me={"front": front("2")}, them={"weapon": 3}), ["attack 0 person"])
    assert counters(match, L.C_PERSON_BLOCK_DMG, L.C_PERSON_BLOCK_KILLS, L.C_PERSON_KILL_STARS) == [3, 1, 2]
    assert counters(match, L.C_PERSON_CHAR_DMG, L.C_PERSON_KILLS, L.C_DESTROYED) == [0, 0, 1]
    assert counters(match, L.C_HP_LOST0, L.C_HP_LOST1) == [1, 2]
    match = both(pos(me={"front": front("5")}, them={"weapon": 3}), ["attack 0 person"])
    assert counters(match, L.C_PERSON_BLOCK_DMG, L.C_PERSON_BLOCK_KILLS, L.C_PERSON_KILL_STARS) == [3, 0, 0]
    match = both(pos(me={"front": front("2")}), ["attack 0 person"])  # an unarmed person (ATK 0) does not block
    assert counters(match, L.C_PERSON_BLOCK_DMG, L.C_PERSON_BLOCK_KILLS, L.C_HP_LOST1) == [0, 0, 2]


def test_T_BATTLE_5_T_AMB_86_T_AMB_07_hp_lost_per_seat_from_every_source():
    match = both(pos(rules={"star_mod": 0}, me={"front": front("4")}, them={"front": front("5")}), ["attack 0 0"])
    assert counters(match, L.C_HP_LOST0, L.C_HP_LOST1) == [1, 0]                    # the attacker's overflow
    match = both(pos(rules={"person_base_atk": 2}), ["attack person person"])
    assert counters(match, L.C_HP_LOST0, L.C_HP_LOST1) == [2, 2]                    # dealt, and hit back
    rules = {"ambiguities": {"T-AMB-07": "fatigue"}}
    match = both(pos(rules=rules, them={"deck": []}), ["end"])                       # seat 1 draws from nothing
    assert counters(match, L.C_HP_LOST0, L.C_HP_LOST1, L.C_DMG_FATIGUE) == [0, 1, 1]


def test_T_CHAR_5_T_AMB_64_q8_counters_agree_with_the_state_in_whole_matches():
    # every step of random matches on both engines: HP lost per seat is the start HP less the HP now and the
    # Q7 damage sources added up, a person's kills are among all defeats, and Weapons among all equipment
    def check(before, match, action, legal):
        lost = counters(match, L.C_HP_LOST0, L.C_HP_LOST1)
        assert lost == [d.hp_start - d.hp for d in match.duelists]
        assert sum(lost) == sum(counters(match, L.C_DMG_OVERFLOW, L.C_DMG_DIRECT, L.C_DMG_PERSON, L.C_DMG_HITBACK,
                                         L.C_DMG_FATIGUE))           # Q7's sources, split by seat instead
        kills = counters(match, L.C_PERSON_KILLS, L.C_PERSON_BLOCK_KILLS)
        assert sum(kills) <= counters(match, L.C_DESTROYED)[0]
        assert counters(match, L.C_WEAPON_EQUIPS)[0] <= counters(match, L.C_EQUIPS)[0]

    rules = Rules().with_changes(person_base_atk=1)   # an unarmed person fights too: more person battles
    for seed in (3, 4):
        match = walk_both(rules, seed, templates=("curve", "swarm"), check=check)
        assert min(counters(match, L.C_PERSON_KILLS, L.C_PERSON_BLOCK_KILLS, L.C_WEAPON_EQUIPS)) > 0  # all exercised
