"""Faction War's entry in the game registry (`sim/registry.py`).

Everything generic code (sweep runner, analysis, reports, compare) needs to
run and read Faction War, and nothing else: names of end types and counters
come from `layout.py` so they cannot drift from the kernel's codes.
"""

from sim.faction_war import batch, layout, playlog, rules
from sim.registry import GameSpec
from strategies import strategy_id, strategy_names

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

GAME_SPEC = GameSpec(
    name="faction_war",
    factions=layout.FACTION_NAMES,
    pairings=PAIRINGS,
    end_types=END_TYPE_NAMES,
    special_end_types=("destiny", "deep_sea"),
    counter_names=COUNTER_NAMES,
    length_bins=batch.LENGTH_BINS,
    behaviour_version=rules.BEHAVIOUR_VERSION,
    load_rules=rules.load_rules,
    strategy_names=strategy_names,
    strategy_id=strategy_id,
    cell_array=batch.cell_array,
    play_batch=batch.play_batch,
    play_paired_batch=batch.play_paired_batch,
    replay_log=playlog.replay_log,
    extra={"reference_play_match": playlog.reference_record},
)
