"""The TCG greedy's judgement calls as a weight vector, read at run time (the `tuned` agent).

`tuned` is greedy (policies.py, §18.4) with other values for the numbers that steer it;
greedy passes `DEFAULTS` (its own constants, so it plays bit-identically to before),
`tuned` the *policy block* appended after the rules array's slots
(`strategies.weight_table.WeightTable`: one vector, both seats). A rules array without
the block (a test calling the compiled loop directly) gives `tuned` the defaults.
Rule facts (the star modifier, the battle reading, overflow) stay in the policies.
Values are in tenths of a star: a star of a character is worth `star_value` (10), one
HP of damage 1.
"""

from __future__ import annotations

from sim.novel_tcg.rules import RULES_ARRAY_SIZE
from strategies.weight_table import WeightTable

# (name, greedy's value, tuning range low, high)
WEIGHTS = (
    # battle: an attack is made when its trade value is above attack_threshold; the value
    # counts each star of an opposing character it defeats kill_star_value, each of an own
    # character it loses loss_star_value, overflow damage dealt (overflow_dealt) and taken
    # (overflow_taken) per HP, a direct attack's damage direct_weight per HP
    ("attack_threshold", 0, -40, 60),
    ("kill_star_value", 10, 0, 40),
    ("loss_star_value", 10, 0, 40),
    ("overflow_dealt", 1, 0, 10),
    ("overflow_taken", 1, 0, 10),
    ("direct_weight", 10, 0, 40),
    ("person_hit_back", 1, 0, 10),  # the person attacking a character: per HP it takes back
    # a character counts as threatened by an opposing face-up attacker of at least its star
    # plus threat_margin (greedy 1: a higher star; defensive plays 0: the same star trades it)
    ("threat_margin", 1, -3, 4),
    # 1: set a summon face-down when it is threatened (0: always face-up attack)
    ("set_when_threatened", 1, 0, 1),
    # 1: turn a threatened attacker to defense, and an unthreatened one back (0: never change)
    ("change_positions", 1, 0, 1),
    # 1: equip the person's Weapon first when it has none (0: equipment by the host's star only)
    ("weapon_first", 1, 0, 1),
)

TABLE = WeightTable("strategies.novel_tcg", WEIGHTS, RULES_ARRAY_SIZE)
# what the compiled policies read (numba freezes module globals, not attributes of an object)
N_WEIGHTS, WEIGHT_NAMES, DEFAULTS, RANGES = TABLE.n_weights, TABLE.names, TABLE.defaults, TABLE.ranges
POLICY_BASE, POLICY_RULES_SIZE = TABLE.policy_base, TABLE.policy_rules_size
(K_ATTACK_THRESHOLD, K_KILL_STAR_VALUE, K_LOSS_STAR_VALUE, K_OVERFLOW_DEALT, K_OVERFLOW_TAKEN, K_DIRECT_WEIGHT,
 K_PERSON_HIT_BACK, K_THREAT_MARGIN, K_SET_WHEN_THREATENED, K_CHANGE_POSITIONS, K_WEAPON_FIRST) = range(N_WEIGHTS)
assert WEIGHT_NAMES.index("weapon_first") == K_WEAPON_FIRST

TUNED_FILE = TABLE.file_name
check_weights, as_dict, with_policy, load_tuned_file = TABLE.check, TABLE.as_dict, TABLE.with_policy, TABLE.load_document
