"""Poker Duel greedy's judgement-call constants as a weight vector, read at run time (`tuned`).

Why a vector: `tuned` is greedy (policies.py and its compiled twin kernel_policies.py)
with other values for the numbers that steer it. numba freezes module globals into
the compiled code, so a candidate tried as globals would recompile and leave the disk
cache stale. Instead both greedy twins take the weights as an argument:
- greedy (and the search agents' greedy rollouts) pass `DEFAULTS`, today's constants,
  so greedy plays bit-identically to before;
- `tuned` passes the *policy block* of the rules array: slots POLICY_BASE ..
  POLICY_BASE + N_WEIGHTS, appended after the game's rules slots (which the engine
  never reads past). Poker Duel has no factions: one vector serves both seats.
The batch wrappers (kernel_batch.py, batch.py) append the shipped tuned weights
(tuned_weights.json, package data) to every plain rules array, so `tuned` works
wherever a strategy name does; `cardbalance tune-agent --game poker_duel` appends a
candidate's weights instead. A rules array without the block (a test calling the
compiled kernel directly) gives `tuned` the defaults, i.e. greedy.

Only judgement calls are weights; rule facts (D-K-4: K cannot recover K or jokers,
the boost multipliers D-DS-4..7, the colour rule D-DC-2/3) stay in the policies.
Some defaults are "always" values (monsters first, K and jokers kept last): any value
past the range of card values plays the same (see the comments).
"""

from __future__ import annotations

from sim.poker_duel.rules import RULES_ARRAY_SIZE
from strategies.weight_table import WeightTable

# (name, greedy's value, tuning range low, high): integers, as every score is an integer.
# Card values: monsters 1..10 (an ace 1, 11 or 14 by D-AMB-06), J 11, Q 12, K 13, jokers 0.
WEIGHTS = (
    # main phase, summons: a newcomer bumps an own monster only when it is worth at least
    # this much more (1: "only when the newcomer is stronger"); monsters worth less than
    # summon_min_value stay in hand (0: summon every monster; kept for boosts instead)
    ("bump_min_gain", 1, 0, 14),
    ("summon_min_value", 0, 0, 11),
    # main phase, activations: the Big Joker when the opponent has this many monsters or
    # more, the Small Joker when it has this many set cards or more; a J when the opponent
    # has this many cards on the field (0: whenever one may be activated)
    ("big_joker_min_monsters", 2, 1, 5),
    ("small_joker_min_set", 2, 1, 5),
    ("j_min_opponent_cards", 0, 0, 6),
    # Q: activated in the main phase while the own deck holds more than this many cards,
    # and then draws the most it may (else the fewest) under the second threshold
    ("q_activate_deck_above", 10, 0, 40),
    ("q_draw_most_deck_above", 10, 0, 40),
    # setting: only while the back row has at least this many free slots (one kept free
    # for activations from hand), and monster cards only up to this value (boosts)
    ("set_min_free_slots", 2, 1, 5),
    ("boost_set_max_value", 5, 0, 14),
    # J targets: a monster scores this plus its value, a set card 0 (100: monsters first)
    ("j_monster_base", 100, -20, 100),
    # K picks: a monster card scores this plus its value, J/Q their value (greedy's 1000
    # written as 100: any value of 12 or more plays the same, monsters first)
    ("k_pick_monster_bonus", 100, -14, 100),
    # discard at the hand limit: the lowest keep value goes first; a monster keeps its
    # value, a J or Q its value plus keep_function_bonus, a K and the jokers their own
    ("keep_function_bonus", 20, -12, 40),
    ("keep_king", 100, 0, 100),
    ("keep_joker", 100, 0, 100),
)
TABLE = WeightTable("strategies.poker_duel", WEIGHTS, RULES_ARRAY_SIZE)  # no groups: one vector, both seats
# what the compiled twins read (numba freezes module globals, not attributes of an object)
N_WEIGHTS, WEIGHT_NAMES, DEFAULTS, RANGES = TABLE.n_weights, TABLE.names, TABLE.defaults, TABLE.ranges
POLICY_BASE, POLICY_SLOTS, POLICY_RULES_SIZE = TABLE.policy_base, TABLE.policy_slots, TABLE.policy_rules_size
# index constants the policies read, e.g. K_BUMP_MIN_GAIN = 0
globals().update({"K_" + name.upper(): index for index, name in enumerate(WEIGHT_NAMES)})

TUNED_FILE = TABLE.file_name
check_weights, as_dict, has_policy, with_policy = TABLE.check, TABLE.as_dict, TABLE.has_policy, TABLE.with_policy
shipped_weights = TABLE.shipped_block  # the policy block `tuned` plays with by default (read-only)
policy_weights = TABLE.policy_of  # a rules array's block, else the shipped one


def load_tuned_file(path=None) -> dict:
    """The tuned weights document (shipped package data unless `path`)."""
    return TABLE.load_document(path)
