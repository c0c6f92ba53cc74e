"""The Novel TCG's declaration for the game registry (`sim/registry.py`).

Dimensions (cell order): the deck templates of both seats (a pairing
"swarm-advance", seat 0 first: today's registry has no per-seat choice
dimension), each seat's duelist rank (T-AMB-09: ranks may differ) and the
first player (T-SETUP-1: a sweep plays both). Batches run on the numba
kernel, `play` and the bench's reference column on the reference engine.
"""

from sim.contract_data import PolicyData
from sim.novel_tcg import layout, rules
from sim.novel_tcg.card_pool import TEMPLATES
from sim.novel_tcg.contract_face import NovelTcgEngine
from sim.registry import CHOICE, PER_SEAT, SEAT, Dimension, GameSpec, lazy

PAIRINGS = tuple("%s-%s" % (a, b) for a in TEMPLATES for b in TEMPLATES)


def _templates(pairing: str) -> dict:
    deck0, deck1 = pairing.split("-")
    return {"deck0": deck0, "deck1": deck1}


DECKS = Dimension("decks", CHOICE, "deck templates (seat 0's vs seat 1's)", values=PAIRINGS, key="deck_pairs",
                  default=PAIRINGS, single="curve-curve", columns=_templates)
RANK = Dimension("rank", PER_SEAT, "duelist rank", low=rules.RANK_MIN, high=rules.RANK_MAX,
                 default=(2, 5, 10, 15, 20), single=(rules.DEFAULT_RANK, rules.DEFAULT_RANK))  # §18.2
FIRST = Dimension("first", SEAT, "first player", default=(0, 1))

# §18.3 Q1/Q2/Q10: seat advantage by template and rank, the rank gap, the template matrix.
DEFAULT_SWEEP = {
    "name": "default",
    "game": "novel_tcg",
    "deck_pairs": list(PAIRINGS),
    "rank": [2, 5, 10, 15, 20],
    "rank_pairs": [[11, 10], [12, 10], [13, 10], [15, 10]],
    "strategies": ["greedy:greedy"],
    "rules": ["default"],
    "matches": 1000,
    "chunk_size": 500,
    "seed": 1,
}


def parse_players(p0: str, p1: str):
    """`play --p0 swarm:greedy --p1 advance:defensive` -> ({"decks": "swarm-advance"}, strategies)."""
    from sim.errors import CardbalanceError
    from strategies.novel_tcg import strategy_id

    templates, strategies = [], []
    for seat, text in enumerate((p0, p1)):
        template, _, strategy = str(text).partition(":")
        if template not in TEMPLATES or not strategy:
            raise CardbalanceError("--p%d '%s' must be TEMPLATE:STRATEGY with templates %s, e.g. swarm:greedy."
                                   % (seat, text, ", ".join(TEMPLATES)))
        strategy_id(strategy)
        templates.append(template)
        strategies.append(strategy)
    return {"decks": "%s-%s" % tuple(templates)}, tuple(strategies)


# ---- game data: the tuned agent's weights (sim/contract_data.py) -----------------------------
WEIGHTS = PolicyData.of_weight_table("strategies.novel_tcg", rules.RULES_ARRAY_SIZE)


GAME_SPEC = GameSpec(
    name="novel_tcg",
    dimensions=(DECKS, RANK, FIRST),
    end_types=layout.END_TYPE_NAMES,
    special_end_types=("limit",),
    counter_names=layout.COUNTER_NAMES,
    length_bins=128,  # strategies.novel_tcg.batch.LENGTH_BINS
    behaviour_version=rules.BEHAVIOUR_VERSION,
    load_rules=rules.load_rules,
    rules_presets=tuple(rules.PRESETS),
    rules_text=rules.rules_to_toml,
    strategy_names=lazy("strategies.novel_tcg:strategy_names"),
    strategy_id=lazy("strategies.novel_tcg:strategy_id"),
    cell_array=lazy("strategies.novel_tcg.batch:cell_of"),
    play_batch=WEIGHTS.batch(lazy("strategies.novel_tcg.batch:play_batch")),
    play_paired_batch=WEIGHTS.batch(lazy("strategies.novel_tcg.batch:play_paired_batch"), arrays=2),
    replay_log=WEIGHTS.one_match(lazy("strategies.novel_tcg.playlog:replay_log")),
    reference_play_match=WEIGHTS.one_match(lazy("strategies.novel_tcg.batch:reference_record")),
    game_data=(WEIGHTS.game_data,),
    players=("curve:greedy", "curve:greedy"),
    parse_players=parse_players,
    run_scenario=lazy("sim.novel_tcg.position:run_scenario"),
    default_sweep=DEFAULT_SWEEP,
    modules=("sim.novel_tcg.game", "strategies.novel_tcg.batch"),
    ladder_agents=("random", "defensive", "greedy", "tuned"),
    examples={"p0": "swarm:greedy", "p1": "advance:greedy", "setup": "--rank 10", "setup2": "--rank 12,10 --first 1",
              "preset": "loose_limit", "end_type": "deck_out", "axis": "rank"},
    engine=NovelTcgEngine,
    extra={"bench_agents": lazy("strategies.novel_tcg.speed:bench_agents"),  # `cardbalance bench`'s agent rows
           "tune_agent": lazy("strategies.novel_tcg.tuning:tune")},  # `cardbalance tune-agent --game novel_tcg`
)
