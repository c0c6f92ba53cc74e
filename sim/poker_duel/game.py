"""Poker Duel's declaration for the game registry (`sim/registry.py`).

Dimensions: starting HP per seat (D-SETUP-4; equal and handicapped) and the
first player (D-SETUP-3, D-AMB-05: a sweep plays both). The engine's own parts
are imported directly (the kernels only when `PokerDuelEngine` is built); the
match loop and strategies live in `strategies/poker_duel/` and are named by
dotted path (sim/ never imports strategies/):
batches run on the numba kernel (`kernel_batch`), one-match commands (play,
bench's reference column) on the reference engine (`batch`, `playlog`).
"""

import numpy as np

from sim.contract import CardEngine
from sim.contract_data import PolicyData
from sim.poker_duel import layout, position, report_sections, rules
from sim.rng import MASK64, to_signed
from sim.registry import PER_SEAT, SEAT, Dimension, GameSpec, lazy

END_TYPE_NAMES = layout.END_TYPE_NAMES  # one source: the layout's codes, named there

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
    "matches": 7500,      # 15,000 per row: a fair row is "balanced" with >= 80 % at Holm over 28 claims (analysis/verdict_design.py)
    "chunk_size": 1000,
    "seed": 1,
}



# ---- the engine contract (sim/contract.py) ---------------------------------------------------
R08 = rules.amb_slot("D-AMB-08")  # "open": nothing in hand or back row is hidden


class PokerDuelEngine(CardEngine):
    """Poker Duel's face of `sim.contract.GameEngine`: the kernel (`kernel_chain`'s entry
    points), the reference engine, the sampler, and the view and agents of the match loop
    (named by dotted path: one layer up)."""

    STATE_SIZE, LEGAL_CAPACITY, N_CARDS = layout.STATE_SIZE, 512, layout.N_CARDS
    C_ZONE, Z_HIDDEN, S_DECIDER, S_WINNER, S_END_TYPE = (layout.C_ZONE, layout.Z_HIDDEN, layout.S_DECIDER,
                                                         layout.S_WINNER, layout.S_END_TYPE)

    def __init__(self):
        from sim.poker_duel import actions, kernel, kernel_chain, position, reference, sampler
        self.K, self.KC, self.actions, self.position, self.Match = kernel, kernel_chain, actions, position, reference.Match
        self._legal, self._sample = kernel_chain.legal_actions, sampler.sample_world
        self._checked_rules = lazy("strategies.poker_duel.kernel_batch:checked_rules")
        self._nb_view = lazy("strategies.poker_duel.kernel_policies:nb_view")
        self._strategy_id = lazy("strategies.poker_duel:strategy_id")
        self._loop_workspace = lazy("strategies.poker_duel.dispatch:loop_workspace")
        self._choose = lazy("strategies.poker_duel.dispatch:choose")

    def rules_array(self, rules):
        return self._checked_rules(rules.to_array())  # as a batch plays it (tuned's weights appended)

    def new_match(self, rules_array, cell, seed):
        state = layout.new_state()
        self.K.new_match(rules_array, int(cell[0]), int(cell[1]), int(cell[2]),
                         np.int64(to_signed(int(seed) & MASK64)), state)
        return state

    def apply_action(self, state, rules_array, action):
        self.KC.apply_action(state, rules_array, action)

    def is_over(self, state):
        return int(state[layout.S_PHASE]) == layout.PH_OVER

    def _controllers(self, state):
        L = layout
        flags = state[L.C_FLAGS:L.C_FLAGS + L.N_CARDS]
        return (np.arange(L.N_CARDS) // L.N_CODES) ^ ((flags & L.F_TAKEN) != 0)

    def invariant_errors(self, state, rules_array):
        L, errors = layout, []
        zones, controllers = state[L.C_ZONE:L.C_ZONE + L.N_CARDS], self._controllers(state)
        for p in (0, 1):
            count = int(state[L.S_DECK_COUNT + p])
            deck = [int(c) for c in state[L.S_DECK + p * L.N_CODES:][:count]]
            in_deck = sorted(c for c in range(L.N_CARDS) if zones[c] == L.Z_DECK and controllers[c] == p)
            if sorted(deck) != in_deck or len(set(deck)) != count:
                errors.append("seat %d's deck list disagrees with the cards in its deck zone" % p)
            for base, allowed, name in ((L.S_MONSTER, (L.Z_MONSTER,), "monster zone"),
                                        (L.S_BACK, (L.Z_BACK, L.Z_CHAIN), "back row")):
                slots = [int(c) for c in state[base + p * L.ZONE_SLOTS:base + (p + 1) * L.ZONE_SLOTS] if c >= 0]
                held = sorted(c for c in range(L.N_CARDS) if zones[c] in allowed and controllers[c] == p)
                if sorted(slots) != held:
                    errors.append("seat %d's %s slots disagree with the cards' zones" % (p, name))
        if not ((zones >= L.Z_DECK) & (zones < L.Z_HIDDEN)).all():
            errors.append("a card's zone is out of range (or hidden in a real state)")
        if (state[L.S_COUNTERS:L.S_COUNTERS + L.N_COUNTERS] < 0).any():
            errors.append("a negative counter")
        return errors

    def view(self, state, rules_array, seat):
        view = np.zeros(layout.STATE_SIZE, dtype=np.int64)
        self._nb_view(state, seat, int(rules_array[R08]) == 1, view)
        return view

    def hidden_cards(self, state, rules_array, seat):
        """Both decks (their order; D-DS-8) and, under D-AMB-08 "hidden", the cards in the
        opponent's hand and back row."""
        L, open_info, controllers = layout, int(rules_array[R08]) == 1, self._controllers(state)
        return frozenset(c for c in range(L.N_CARDS) if state[L.C_ZONE + c] == L.Z_DECK or (
            not open_info and controllers[c] == 1 - seat and state[L.C_ZONE + c] in (L.Z_HAND, L.Z_BACK)))

    def reference_new(self, rules, cell, seed):
        return self.Match.new(rules, int(cell[0]), int(cell[1]), int(cell[2]), int(seed))

    def action_text(self, state, action):
        return self.actions.to_text(int(action))

    def dump_position(self, reference):
        return self.position.dump_position(reference)

    def load_position(self, data, rules):
        return self.position.load_position(data)

    def agent_names(self):
        return ("random", "greedy", "tuned", "pimc-random:8", "pimc:8", "ismcts:8")

    def _workspace(self, strategy):
        return self._loop_workspace(strategy, strategy)


# ---- game data: the tuned agent's weights (sim/contract_data.py) -----------------------------
WEIGHTS = PolicyData.of_weight_table("strategies.poker_duel", rules.RULES_ARRAY_SIZE)


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
    play_batch=WEIGHTS.batch(lazy("strategies.poker_duel.kernel_batch:play_batch")),
    play_paired_batch=WEIGHTS.batch(lazy("strategies.poker_duel.kernel_batch:play_paired_batch"), arrays=2),
    replay_log=WEIGHTS.one_match(lazy("strategies.poker_duel.playlog:replay_log")),
    reference_play_match=WEIGHTS.one_match(lazy("strategies.poker_duel.batch:reference_record")),
    game_data=(WEIGHTS.game_data,),
    players=("greedy", "greedy"),
    run_scenario=position.run_scenario,
    default_sweep=DEFAULT_SWEEP,
    engine=PokerDuelEngine,
    modules=("sim.poker_duel.game", "strategies.poker_duel.kernel_batch"),
    ladder_agents=("random", "greedy", "pimc-random", "pimc:32", "pimc", "ismcts:50", "ismcts"),
    examples={"p0": "greedy", "p1": "random", "setup": "--hp 40", "setup2": "--hp 30,50 --first 1",
              "preset": "advanced", "end_type": "straight_flush", "axis": "hp"},
    # §17's questions as report sections (analysis/game_sections.py calls it with its kit)
    extra={"bench_agents": lazy("strategies.poker_duel.speed:bench_agents"),  # `cardbalance bench`'s agent rows
           "tune_agent": lazy("strategies.poker_duel.tuning:tune"),  # `cardbalance tune-agent --game poker_duel`
           "report_sections": report_sections.report_sections,
           "compile_ahead": lazy("strategies.poker_duel.kernel_batch:ahead_plan")},  # sim/compile_ahead.py
)
