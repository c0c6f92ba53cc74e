"""The Poker Duel match loop over the reference engine, and its batches.

`play_batch` here plays the reference engine in plain Python (the shared
layers use `kernel_batch`; this loop is the executable spec, `play` and the
bench's reference column). Search agents decide through their compiled
versions (`dispatch.choose`) from the same view and seat generator. The loop follows
docs/engine-contract.md: the rule generator starts from the match seed, seat
p's policy generator from `match_seed(seed, p + 1)`; a single legal action is
taken without asking; otherwise the decider's policy picks from its view.
"""

import numpy as np

from sim import aggregate as agg
from sim import rng as rng_module
from sim.errors import CardbalanceError
from sim.poker_duel import layout as L
from sim.poker_duel.reference import Match
from sim.poker_duel.rules import HP_MAX, HP_MIN, amb_slot, rules_from_array
from strategies.poker_duel import STRATEGY_GREEDY, STRATEGY_RANDOM, STRATEGY_TUNED
from strategies.poker_duel import weights as W
from strategies.search_tree import last_statistics
from strategies.poker_duel.policies import POLICIES

C_HP0, C_HP1, C_FIRST, C_STRATEGY0, C_STRATEGY1 = range(5)
CELL_SIZE = 5
LENGTH_BINS = 128
N_RECORD = agg.REC_COUNTERS + L.N_COUNTERS
MAX_STEPS = 100_000  # a safety net: the game always ends (§14.2), this never binds in tests


def cell_of(values: dict, strategy0: int, strategy1: int) -> np.ndarray:
    """`GameSpec.cell_array`: {hp: (seat0, seat1), first} + strategy ids -> cell array."""
    hp0, hp1 = values["hp"]
    for value in (hp0, hp1):
        if not HP_MIN <= int(value) <= HP_MAX:
            raise CardbalanceError("hp must be integers from %d to %d (got %r)." % (HP_MIN, HP_MAX, value))
    first = int(values["first"])
    return np.array([hp0, hp1, first, strategy0, strategy1], dtype=np.int64)


def play_match(rules, cell, seed: int, on_step=None) -> Match:
    """One match; `on_step(match, action)` (optional) sees each action before it is applied.
    `tuned` plays the policy block of a rules array that has one, else the shipped weights
    (as the kernel's batches, which append them to a plain array)."""
    rules_obj = rules if hasattr(rules, "to_array") else rules_from_array(rules)
    tuned_weights = W.shipped_weights() if hasattr(rules, "to_array") else W.policy_weights(rules)
    rules_array = W.with_policy(rules_obj.to_array(), tuned_weights)
    cell = [int(x) for x in cell]
    seed = int(seed) & rng_module.MASK64
    m = Match.new(rules_obj, cell[C_HP0], cell[C_HP1], cell[C_FIRST], seed)
    policy_rngs = [rng_module.PyRng(rng_module.match_seed(seed, 1)), rng_module.PyRng(rng_module.match_seed(seed, 2))]
    open_info = int(rules_array[amb_slot("D-AMB-08")]) == 1
    steps = 0
    workspace = None
    while not m.is_over() and steps < MAX_STEPS:
        legal = m.legal_actions()
        m.search_candidates = None  # a search decision's (action, visits, points) for on_step (the play log)
        if len(legal) == 1:
            index = 0
        else:
            seat = m.decider
            view = L.build_view(m.to_array(), seat, open_info)
            strategy = cell[C_STRATEGY0 + seat]
            if strategy == STRATEGY_TUNED:
                index = POLICIES[STRATEGY_GREEDY](view, legal, rules_array, policy_rngs[seat], tuned_weights)
            elif strategy in (STRATEGY_GREEDY, STRATEGY_RANDOM):
                index = POLICIES[strategy](view, legal, rules_array, policy_rngs[seat])
            else:  # a search agent: the compiled one, from this view and this seat's generator
                if workspace is None:
                    workspace = _search_workspace(cell)
                index = _search_choice(strategy, view, rules_array, legal, policy_rngs[seat], seat, workspace)
                m.search_candidates = [(legal[i], visits, points) for i, visits, points in last_statistics(workspace)]
        if on_step is not None:
            on_step(m, legal[index])
        m.apply(legal[index])
        steps += 1
    return m


def _search_workspace(cell):
    from strategies.poker_duel.dispatch import loop_workspace
    return loop_workspace(cell[C_STRATEGY0], cell[C_STRATEGY1])


def _search_choice(strategy, view, rules_array, legal, policy_rng, seat, workspace) -> int:
    """A search agent's choice on the reference loop: the compiled agent (its worlds run on the
    kernel, which the differential test holds equal to this engine), the seat's PyRng advanced."""
    from strategies.poker_duel.dispatch import choose
    generators = np.zeros(2, dtype=np.int64)
    generators[seat] = rng_module.to_signed(policy_rng.state)
    index = int(choose(np.int64(strategy), np.ascontiguousarray(view, dtype=np.int64),
                       np.ascontiguousarray(rules_array, dtype=np.int64), np.array(legal, dtype=np.int64),
                       np.int64(len(legal)), generators, np.int64(seat), workspace))
    policy_rng.state = rng_module.to_unsigned(int(generators[seat]))
    return index


def record_of(m: Match) -> np.ndarray:
    record = np.zeros(N_RECORD, dtype=np.int64)
    record[agg.REC_WINNER] = m.winner if m.winner >= 0 else agg.DRAW
    record[agg.REC_END_TYPE] = m.end_type
    record[agg.REC_TURNS] = m.turn
    record[agg.REC_LIFE0], record[agg.REC_LIFE1] = m.hp
    record[agg.REC_FIRST] = m.first
    record[agg.REC_COUNTERS:] = m.counters
    return record


def reference_record(rules, cell, match_seed) -> np.ndarray:
    """`GameSpec.reference_play_match`: the record of one match."""
    return record_of(play_match(rules, cell, match_seed))


def play_batch(rules_array, cell, chunk_seed, start_index, n_matches) -> np.ndarray:
    """`GameSpec.play_batch` on the reference engine (plain Python, slow)."""
    rules_array = np.asarray(rules_array, dtype=np.int64)  # kept whole: `tuned` reads its policy block
    out = agg.empty_aggregate(L.N_END_TYPES, L.N_COUNTERS, LENGTH_BINS, by_end=True)  # end turns by seat
    for i in range(int(n_matches)):
        seed = rng_module.match_seed(int(chunk_seed), int(start_index) + i)
        agg.accumulate(out, record_of(play_match(rules_array, cell, seed)), L.N_END_TYPES, L.N_COUNTERS, LENGTH_BINS)
    return out


def play_paired_batch(rules_a, rules_b, cell, chunk_seed, start_index, n_matches) -> np.ndarray:
    """`GameSpec.play_paired_batch`: both rule sets on the same match seeds (common random numbers)."""
    rules_a, rules_b = np.asarray(rules_a, dtype=np.int64), np.asarray(rules_b, dtype=np.int64)
    out = agg.empty_paired(L.N_END_TYPES)
    for i in range(int(n_matches)):
        seed = rng_module.match_seed(int(chunk_seed), int(start_index) + i)
        agg.accumulate_paired(out, record_of(play_match(rules_a, cell, seed)),
                              record_of(play_match(rules_b, cell, seed)), L.N_END_TYPES)
    return out
