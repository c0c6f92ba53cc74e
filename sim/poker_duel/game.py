"""Poker Duel's declaration for the game registry (`sim/registry.py`).

Dimensions: starting HP per seat (D-SETUP-4; equal and handicapped) and the
first player (D-SETUP-3, D-AMB-05: a sweep plays both). The match loop and
strategies live in `strategies/poker_duel/` and are named by dotted path:
batches run on the numba kernel (`kernel_batch`), one-match commands (play,
bench's reference column) on the reference engine (`batch`, `playlog`).
"""

from sim.poker_duel import layout, rules
from sim.registry import PER_SEAT, SEAT, Dimension, GameSpec, lazy

END_TYPE_NAMES = ("none", "life", "deck_out", "straight_flush", "draw_straight_flush", "turn_cap", "draw_hp")
assert len(END_TYPE_NAMES) == layout.N_END_TYPES

HP = Dimension("hp", PER_SEAT, "starting HP", low=rules.HP_MIN, high=rules.HP_MAX,
               default=(20, 30, 40, 50, 60, 80), single=rules.DEFAULT_HP)  # §17 Q2
FIRST = Dimension("first", SEAT, "first player", default=(0, 1))

# §17 Q1/Q2 in both rule presets: first-player advantage by HP, a handicap pair.
DEFAULT_SWEEP = {
    "name": "default",
    "game": "poker_duel",
    "hp": [20, 30, 40, 50, 60, 80],
    "hp_pairs": [[30, 50], [50, 30]],
    "strategies": ["greedy:greedy"],
    "rules": ["core", "advanced"],
    "matches": 2000,
    "chunk_size": 1000,
    "seed": 1,
}


GAME_SPEC = GameSpec(
    name="poker_duel",
    dimensions=(HP, FIRST),
    end_types=END_TYPE_NAMES,
    special_end_types=("straight_flush",),
    counter_names=layout.COUNTER_NAMES,
    length_bins=128,  # strategies.poker_duel.batch.LENGTH_BINS
    behaviour_version=rules.BEHAVIOUR_VERSION,
    load_rules=rules.load_rules,
    rules_presets=tuple(rules.PRESETS),
    rules_text=rules.rules_to_toml,
    strategy_names=lazy("strategies.poker_duel:strategy_names"),
    strategy_id=lazy("strategies.poker_duel:strategy_id"),
    cell_array=lazy("strategies.poker_duel.batch:cell_of"),
    play_batch=lazy("strategies.poker_duel.kernel_batch:play_batch"),
    play_paired_batch=lazy("strategies.poker_duel.kernel_batch:play_paired_batch"),
    replay_log=lazy("strategies.poker_duel.playlog:replay_log"),
    reference_play_match=lazy("strategies.poker_duel.batch:reference_record"),
    players=("greedy", "greedy"),
    run_scenario=lazy("sim.poker_duel.position:run_scenario"),
    default_sweep=DEFAULT_SWEEP,
    modules=("sim.poker_duel.game", "strategies.poker_duel.kernel_batch"),
    ladder_agents=("random", "greedy", "pimc-random", "pimc:32", "pimc", "ismcts:50", "ismcts"),
    examples={"p0": "greedy", "p1": "random", "setup": "--hp 40", "setup2": "--hp 30,50 --first 1",
              "preset": "advanced", "end_type": "straight_flush", "axis": "hp"},
    # §17's questions as report sections (analysis/game_sections.py calls it with its kit)
    extra={"bench_agents": lazy("strategies.poker_duel.speed:bench_agents"),  # `cardbalance bench`'s agent rows
           "tune_agent": lazy("strategies.poker_duel.tuning:tune"),  # `cardbalance tune-agent --game poker_duel`
           "report_sections": lazy("sim.poker_duel.report_sections:report_sections"),
           "compile_ahead": (lazy("strategies.poker_duel.kernel_batch:compile_ahead"),)},  # sim/warmup.start_ahead
)
