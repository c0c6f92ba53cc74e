"""Faction War's declaration for the game registry (`sim/registry.py`).

Everything the shared layers (sweep, compare, bench, analysis, reports, CLI)
need to run and read Faction War, and nothing else: names of end types and
counters come from `layout.py` so they cannot drift from the kernel's codes.

The engine's own parts (rules, layout, positions) are imported directly; the
numba kernels only when the engine contract's face is built (`FactionWarEngine`),
so reading the declaration compiles nothing. The match loop and strategies live
one layer up, in `strategies/faction_war/` (the loop binds the strategy switch at
compile time); they are named here by dotted path (`lazy`), so no module of
`sim/faction_war/` imports `strategies/` (tests/test_layers.py).
"""

import numpy as np

from sim.contract import CardEngine
from sim.contract_data import PolicyData
from sim.faction_war import layout, position, rules
from sim.registry import CHOICE, PER_SEAT, SEAT, Dimension, GameSpec, lazy

# END_* codes of layout.py, in index order, lower-case.
END_TYPE_NAMES = tuple(
    name[len("END_"):].lower()
    for name, value in sorted(((n, v) for n, v in vars(layout).items()
                               if n.startswith("END_") and isinstance(v, int)), key=lambda item: item[1]))
assert len(END_TYPE_NAMES) == layout.N_END_TYPES, END_TYPE_NAMES

COUNTER_NAMES = tuple(layout.COUNTER_NAMES) + tuple(
    "unused_%d" % k for k in range(len(layout.COUNTER_NAMES), layout.N_COUNTERS))

PAIRINGS = layout.PAIRINGS  # beside the faction codes: rules.py's ACTS_ONLY_WHEN reads them too


def _factions(pairing: str) -> dict:
    faction0, faction1 = PAIRINGS[pairing]
    return {"faction0": layout.FACTION_NAMES[faction0], "faction1": layout.FACTION_NAMES[faction1]}


# ---- grid dimensions (cell order: pairing → life → first) ------------------------------------
PAIRING = Dimension("pairing", CHOICE, "pairing (seat 0's faction vs seat 1's)", values=tuple(PAIRINGS),
                    key="pairings", columns=_factions)
LIFE = Dimension("life", PER_SEAT, "starting life", low=rules.LIFE_MIN, high=rules.LIFE_MAX,
                 default=(30, 40, 50, 60, 70, 80, 90, 100), single=rules.DEFAULT_LIFE,
                 domain=(30, 100))  # F-SET-1: the source plays 30-100; the engine takes any life 1..1,000,000
FIRST = Dimension("first", SEAT, "first player", default=(0, 1))  # F-SET-2: both orders in every sweep

# The built-in default sweep (`cardbalance sweep` with no file): 480,000 matches,
# sized so that its verdicts can decide (issue 27) — about 63 s of CPU, half a minute
# on two idle cores once the kernels are cached. Change the numbers here, and only here.
DEFAULT_SWEEP = {
    "name": "default",
    "game": "faction_war",
    "pairings": ["human_vs_human", "human_vs_alien", "alien_vs_alien"],
    "life": list(LIFE.default),
    "life_pairs": [[40, 60], [60, 40]],   # a handicap study: seat 0 down, then up, 20 life
    "strategies": ["greedy:greedy"],
    "rules": ["default"],
    "matches": 8000,      # 16,000 per row: a fair row is "balanced" with >= 80 % at Holm over 56 claims (analysis/verdict_design.py)
    "chunk_size": 1000,
    "seed": 1,
}


# The default ladder (`cardbalance ladder` without --agents), roughly weakest first.
# Agents added later join by name: add them here.
LADDER_AGENTS = ("random", "greedy", "tuned", "destiny", "exile", "pimc:64", "ismcts:100", "ismcts")



# ---- the engine contract (sim/contract.py) ---------------------------------------------------
class FactionWarEngine(CardEngine):
    """Faction War's face of `sim.contract.GameEngine`: the kernel, the reference engine,
    the sampler, and the view and agents of the match loop (named by dotted path: one layer up)."""

    STATE_SIZE, LEGAL_CAPACITY, N_CARDS = layout.STATE_SIZE, 1024, layout.N_CARDS
    C_ZONE, Z_HIDDEN, S_DECIDER, S_WINNER, S_END_TYPE = (layout.C_ZONE, layout.Z_HIDDEN, layout.S_DECIDER,
                                                         layout.S_WINNER, layout.S_END_TYPE)

    def __init__(self):
        from sim.faction_war import actions, kernel, position, reference, sampler
        self.K, self.actions, self.position, self.Match = kernel, actions, position, reference.Match
        self._legal, self._sample = kernel.legal_actions, sampler.sample_world
        self._with_policy = lazy("strategies.faction_war.weights:with_policy")
        self._build_view = lazy("strategies.faction_war.view:build_view")
        self._strategy_id = lazy("strategies.faction_war:strategy_id")
        self._cell_workspace = lazy("strategies.faction_war.batch:cell_workspace")
        self._choose = lazy("strategies.faction_war.dispatch:choose_in_loop")

    def rules_array(self, rules):
        return self._with_policy(rules.to_array())  # as a batch plays it (tuned's weights appended)

    def new_match(self, rules_array, cell, seed):
        state = np.zeros(layout.STATE_SIZE, dtype=np.int64)
        self.K.new_match(state, rules_array, *(int(v) for v in cell[:5]), np.uint64(seed))
        return state

    def apply_action(self, state, rules_array, action):
        self.K.apply_action(state, rules_array, action)

    def is_over(self, state):
        return bool(self.K.is_over(state))

    def invariant_errors(self, state, rules_array):
        L, errors = layout, []
        zones, ctrl = state[L.C_ZONE:L.C_ZONE + L.N_CARDS], state[L.C_CTRL:L.C_CTRL + L.N_CARDS]
        for p in (0, 1):
            count = int(state[L.S_DECK_COUNT + p])
            deck = [int(c) for c in state[L.S_DECK + p * L.CARDS_PER_PLAYER:][:count]]
            in_deck = sorted(c for c in range(L.N_CARDS) if zones[c] == L.Z_DECK and ctrl[c] == p)
            if sorted(deck) != in_deck or len(set(deck)) != count:
                errors.append("seat %d's deck list disagrees with the cards in its deck zone" % p)
            if state[L.S_DECK + p * L.CARDS_PER_PLAYER + count:L.S_DECK + (p + 1) * L.CARDS_PER_PLAYER].any():
                errors.append("seat %d's deck list has slots above its count" % p)
            own = range(p * L.CARDS_PER_PLAYER, (p + 1) * L.CARDS_PER_PLAYER)
            if any(zones[c] in (L.Z_DECK, L.Z_HAND) and ctrl[c] != p for c in own):
                errors.append("a card in seat %d's hand or deck is controlled by the other seat" % p)
        if not ((zones >= L.Z_NONE) & (zones < L.Z_HIDDEN)).all():
            errors.append("a card's zone is out of range (or hidden in a real state)")
        if not (layout.fill_masks(state.copy()) == state).all():
            errors.append("the zone masks disagree with the cards' zones")
        if (state[L.S_COUNTERS:L.S_COUNTERS + L.N_COUNTERS] < 0).any():
            errors.append("a negative counter")
        return errors

    def view(self, state, rules_array, seat):
        return self._build_view(state, rules_array, seat, np.zeros(layout.STATE_SIZE, dtype=np.int64))

    def hidden_cards(self, state, rules_array, seat):
        """The opponent's hand and deck (F-rules §10); which own deck cards remain is known."""
        L = layout
        return frozenset(c for c in range(L.N_CARDS) if state[L.C_CTRL + c] == 1 - seat
                         and state[L.C_ZONE + c] in (L.Z_HAND, L.Z_DECK))

    def reference_new(self, rules, cell, seed):
        return self.Match.new(rules, *(int(v) for v in cell[:5]), int(seed))

    def action_text(self, state, action):
        return self.actions.to_text(int(action), int(state[layout.S_DECIDER]))

    def dump_position(self, reference):
        return self.position.dump_position(reference)

    def load_position(self, data, rules):
        return self.position.load_position(data, rules)[0]

    def agent_names(self):
        return ("random", "greedy", "tuned", "destiny", "exile", "pimc-random:8", "pimc:8", "ismcts:8")

    def _workspace(self, strategy):
        return self._cell_workspace(np.array([0, 0, 50, 50, 0, strategy, strategy], dtype=np.int64))


# ---- game data: the tuned agent's weights (sim/contract_data.py) -----------------------------
WEIGHTS = PolicyData.of_weight_table("strategies.faction_war", rules.RULES_ARRAY_SIZE)


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
    play_batch=WEIGHTS.batch(lazy("strategies.faction_war.batch:play_batch")),
    play_paired_batch=WEIGHTS.batch(lazy("strategies.faction_war.batch:play_paired_batch"), arrays=2),
    replay_log=WEIGHTS.one_match(lazy("strategies.faction_war.playlog:replay_log")),
    reference_play_match=WEIGHTS.one_match(lazy("strategies.faction_war.playlog:reference_record")),
    game_data=(WEIGHTS.game_data,),
    players=("human:greedy", "alien:greedy"),
    parse_players=lazy("strategies.faction_war:parse_players"),
    run_scenario=position.run_scenario,
    load_stored_rules=rules.load_stored_rules,
    stored_rules_match=rules.stored_values_match,
    default_sweep=DEFAULT_SWEEP,
    extra={"tune_agent": lazy("strategies.faction_war.tuning:tune"),  # `cardbalance tune-agent`
           "bench_agents": lazy("strategies.faction_war.speed:bench_agents"),  # `cardbalance bench`'s agent rows
           "bench_compile_strategies": ("ismcts",),  # the search loop compiles apart (strategies/faction_war/dispatch.py)
           "compile_ahead": lazy("strategies.faction_war.batch:ahead_plan")},  # sim/compile_ahead.py
    ladder_agents=LADDER_AGENTS,
    engine=FactionWarEngine,
    examples={"p0": "human:greedy", "p1": "alien:random", "setup": "--life 50", "design_setup": "--life 50 --pairing human_vs_alien", "setup2": "--life 30,60 --first 1",
              "scope": "human_vs_alien", "scope_axis": "human_vs_alien@life50", "choices": "--pairings human_vs_alien",
              "end_type": "destiny", "series": "pairing", "axis": "life", "preset": "two-packs"},
)
