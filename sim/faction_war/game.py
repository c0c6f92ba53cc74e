"""Faction War's declaration for the game registry (`sim/registry.py`).

Everything the shared layers (sweep, compare, bench, analysis, reports, CLI)
need to run and read Faction War, and nothing else: names of end types and
counters come from `layout.py` so they cannot drift from the kernel's codes.

The match loop and strategies live one layer up, in `strategies/faction_war/`
(the loop binds the strategy switch at compile time); they are named here by
dotted path (`lazy`), so no module of `sim/faction_war/` imports `strategies/`.
"""

from sim.faction_war import layout, rules
from sim.registry import CHOICE, PER_SEAT, SEAT, Dimension, GameSpec, lazy

# END_* codes of layout.py, in index order, lower-case.
END_TYPE_NAMES = tuple(
    name[len("END_"):].lower()
    for name, value in sorted(((n, v) for n, v in vars(layout).items()
                               if n.startswith("END_") and isinstance(v, int)), key=lambda item: item[1]))
assert len(END_TYPE_NAMES) == layout.N_END_TYPES, END_TYPE_NAMES

COUNTER_NAMES = tuple(layout.COUNTER_NAMES) + tuple(
    "unused_%d" % k for k in range(len(layout.COUNTER_NAMES), layout.N_COUNTERS))

PAIRINGS = {
    "human_vs_human": (layout.HUMAN, layout.HUMAN),
    "human_vs_alien": (layout.HUMAN, layout.ALIEN),
    "alien_vs_human": (layout.ALIEN, layout.HUMAN),
    "alien_vs_alien": (layout.ALIEN, layout.ALIEN),
}


def _factions(pairing: str) -> dict:
    faction0, faction1 = PAIRINGS[pairing]
    return {"faction0": layout.FACTION_NAMES[faction0], "faction1": layout.FACTION_NAMES[faction1]}


# ---- grid dimensions (cell order: pairing → life → first) ------------------------------------
PAIRING = Dimension("pairing", CHOICE, "pairing (seat 0's faction vs seat 1's)", values=tuple(PAIRINGS),
                    key="pairings", columns=_factions)
LIFE = Dimension("life", PER_SEAT, "starting life", low=rules.LIFE_MIN, high=rules.LIFE_MAX,
                 default=(30, 40, 50, 60, 70, 80, 90, 100), single=rules.DEFAULT_LIFE)  # F-SET-1; the source plays 30-100
FIRST = Dimension("first", SEAT, "first player", default=(0, 1))  # F-SET-2: both orders in every sweep

# The built-in default sweep (`cardbalance sweep` with no file). Sized to finish
# in about a minute on a 2-core laptop, numba compilation included (cached after
# the first run). Change the numbers here, and only here.
DEFAULT_SWEEP = {
    "name": "default",
    "game": "faction_war",
    "pairings": ["human_vs_human", "human_vs_alien", "alien_vs_alien"],
    "life": list(LIFE.default),
    "life_pairs": [[40, 60], [60, 40]],   # a handicap study: seat 0 down, then up, 20 life
    "strategies": ["greedy:greedy"],
    "rules": ["default"],
    "matches": 2000,
    "chunk_size": 1000,
    "seed": 1,
}


# The default ladder (`cardbalance ladder` without --agents), roughly weakest first.
# Agents added later join by name: add them here.
LADDER_AGENTS = ("random", "greedy", "tuned", "destiny", "exile", "pimc:64", "ismcts:100", "ismcts")


GAME_SPEC = GameSpec(
    name="faction_war",
    dimensions=(PAIRING, LIFE, FIRST),
    end_types=END_TYPE_NAMES,
    special_end_types=("destiny", "deep_sea"),
    counter_names=COUNTER_NAMES,
    length_bins=512,  # strategies.faction_war.batch.LENGTH_BINS (checked there)
    behaviour_version=rules.BEHAVIOUR_VERSION,
    load_rules=rules.load_rules,
    rules_presets=tuple(rules.PRESETS),
    rules_text=rules.rules_to_toml,
    strategy_names=lazy("strategies.faction_war:strategy_names"),
    strategy_id=lazy("strategies.faction_war:strategy_id"),
    cell_array=lazy("strategies.faction_war.batch:cell_of"),
    play_batch=lazy("strategies.faction_war.batch:play_batch"),
    play_paired_batch=lazy("strategies.faction_war.batch:play_paired_batch"),
    replay_log=lazy("strategies.faction_war.playlog:replay_log"),
    reference_play_match=lazy("strategies.faction_war.playlog:reference_record"),
    players=("human:greedy", "alien:greedy"),
    parse_players=lazy("strategies.faction_war:parse_players"),
    run_scenario=lazy("sim.faction_war.position:run_scenario"),
    load_stored_rules=rules.load_stored_rules,
    stored_rules_match=rules.stored_values_match,
    default_sweep=DEFAULT_SWEEP,
    extra={"tune_agent": lazy("strategies.faction_war.tuning:tune"),  # `cardbalance tune-agent`
           "bench_agents": lazy("strategies.faction_war.speed:bench_agents"),  # `cardbalance bench`'s agent rows
           "bench_compile_strategies": ("ismcts",),  # the search loop compiles apart (strategies/faction_war/dispatch.py)
           "compile_ahead": (lazy("strategies.faction_war.batch:compile_ahead"),)},  # sim/warmup.start_ahead
    ladder_agents=LADDER_AGENTS,
    examples={"p0": "human:greedy", "p1": "alien:random", "setup": "--life 50", "setup2": "--life 30,60 --first 1",
              "scope": "human_vs_alien", "scope_axis": "human_vs_alien@life50", "choices": "--pairings human_vs_alien",
              "end_type": "destiny", "series": "pairing", "axis": "life", "preset": "two-packs"},
)
