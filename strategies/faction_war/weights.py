"""Greedy's hand-set constants as a weight vector, read at run time (the `tuned` agent).

Why a vector: `tuned` is greedy (strategies/faction_war/greedy.py) with other values
for the constants that steer it. numba freezes module globals into the compiled
code, so constants tuned as globals would recompile per candidate and leave the
disk cache stale. Instead every score reads its constant from the view's scratch
(`W_WEIGHTS + index`), which `greedy.choose_styled` fills once per decision:
- greedy (and its destiny / exile variants, pimc's greedy parts) copy `DEFAULTS`,
  the old constants, so greedy plays bit-identically to before;
- `tuned` copies its seat's faction block from the *policy block* of the rules
  array (`strategies.weight_table.WeightTable`, one vector per faction): faction f's
  weight k is at POLICY_BASE + f * N_WEIGHTS + k (f: 0 human, 1 alien).
The batch wrappers (strategies/faction_war/batch.py) append the shipped tuned
weights (tuned_weights.json, package data) to every plain rules array, so
`tuned` works wherever a strategy name does; `cardbalance tune-agent` appends a
candidate's weights instead. A rules array without the block (a test calling
the kernel directly) gives `tuned` the defaults, i.e. greedy.

Only constants that are judgement calls are here; rule facts (the Human's 1-life
penalty F-HUP-1, the small joker's 5-life cost F-JOK-S-2, Abyss Magic's heal)
stay constants in greedy.py.
"""

from __future__ import annotations

from sim.faction_war.layout import FACTION_NAMES
from sim.faction_war.rules import RULES_ARRAY_SIZE
from strategies.faction_war import features as F
from strategies.weight_table import WeightTable

# (name, greedy's value, tuning range low, high): integers, as every score is an integer.
WEIGHTS = (
    ("score_small_joker", 300, 50, 500),
    ("score_suited_normal", 200, 50, 400),
    ("score_heart_normal", 100, 20, 300),
    ("heart_front_row_bonus", 5, -20, 30),
    ("score_pair", 201, 50, 400),
    ("score_rebirth_push", 250, 50, 500),
    ("score_big_joker", 150, 20, 400),
    ("joker_front_row_bonus", 20, -30, 60),
    ("score_dispel", 80, 10, 300),
    ("dispel_min", 3, -3, 15),
    ("score_charge", 60, 10, 300),
    ("score_face", 50, 5, 300),
    ("face_value_weight", 4, 1, 12),
    ("score_extra", 70, 10, 300),
    ("pair_in_hand_bonus", 10, 0, 40),
    ("score_rebirth", 40, 5, 300),
    ("rebirth_min_life", 20, 4, 60),
    ("low_life", 12, 0, 40),
    ("short_deck", 24, 0, 60),
    ("strip_bonus", 8, -10, 30),
    ("damage_weight", 16, 2, 40),
    ("fewest_normals_cap", 8, 0, 30),
    ("face_card_worth", 3, 0, 12),
    ("response_min_threat", 5, 0, 20),  # small-joker response when the threat exceeds this
    ("duel_margin", 0, -10, 10),  # commit to a joker duel when the expected margin reaches this
    ("special_life_margin", 3, 0, 15),
    ("abyss_fraction", 4, 1, 10),  # exiles are dangerous once fraction * own exile points >= life
    ("keep_normal_base", 2, 0, 20),
    ("keep_face", 8, 0, 30),
    ("keep_heart_face", 9, 0, 30),
    ("keep_small_joker", 10, 0, 30),
    ("keep_big_joker", 13, 0, 30),
)
TABLE = WeightTable("strategies.faction_war", WEIGHTS, RULES_ARRAY_SIZE, groups=FACTION_NAMES)
# what the compiled greedy reads (numba freezes module globals, not attributes of an object)
N_WEIGHTS, WEIGHT_NAMES, DEFAULTS, RANGES = TABLE.n_weights, TABLE.names, TABLE.defaults, TABLE.ranges
POLICY_BASE, POLICY_SLOTS, POLICY_RULES_SIZE = TABLE.policy_base, TABLE.policy_slots, TABLE.policy_rules_size
# index constants the kernel reads, e.g. K_SCORE_SMALL_JOKER = 0
globals().update({"K_" + name.upper(): index for index, name in enumerate(WEIGHT_NAMES)})

# Where the current decision's weights sit in the view's scratch (after greedy's own work slots).
W_WEIGHTS = F.WORK + 40
assert W_WEIGHTS + N_WEIGHTS <= F.SCRATCH + F.SCRATCH_SIZE

TUNED_FILE = TABLE.file_name
check_weights, as_dict, shipped_policy_block, with_policy = (TABLE.check, TABLE.as_dict, TABLE.shipped_block,
                                                             TABLE.with_policy)


def load_tuned_file(path=None) -> dict:
    """The tuned weights document (shipped package data unless `path`)."""
    return TABLE.load_document(path)


def policy_block(by_faction: dict):
    """{faction name: weight vector} (a missing faction: the defaults) -> POLICY_SLOTS values."""
    return TABLE.block(by_faction)
