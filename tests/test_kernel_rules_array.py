"""Rules travel as data: one compiled kernel, different rule arrays, different games.

numba would freeze a module-global rules array into compiled (and cached)
code; passing it as an argument means one specialization serves every rule
tweak. Each test runs the same seeds through the same compiled batch
function under two rule sets and checks the outcome changes the way the
changed clause says, and that no new specialization was compiled.
"""

import numpy as np

from sim import aggregate as agg
from strategies.faction_war import batch as B
from sim.faction_war import layout as L
from sim.faction_war.rules import Rules
from strategies.faction_war import STRATEGY_GREEDY, STRATEGY_RANDOM

N_END = L.N_END_TYPES
MATCHES = 400
CHUNK_SEED = 20261130


def _outcomes(vector):
    """3 x end-type counts (seat0 wins, seat1 wins, draws)."""
    return vector[agg.A_OUTCOMES:agg.A_OUTCOMES + 3 * N_END].reshape(3, N_END)


def _run(rules, strategy=STRATEGY_RANDOM):
    cell = B.cell_array(0, 0, 50, 50, 0, strategy, strategy)
    return B.play_batch(rules.to_array(), cell, CHUNK_SEED, 0, MATCHES)


def _signatures():
    return len(B._play_batch_scripted.signatures)


def test_F_WIN_4_turn_cap_changes_outcomes_through_the_same_compiled_kernel():
    default = _run(Rules())
    signatures = _signatures()
    capped = _run(Rules().with_changes(turn_cap=6))
    assert _signatures() == signatures  # no recompilation for a new rule set
    assert _outcomes(default)[:, L.END_TURN_CAP].sum() == 0
    # Random play rarely takes 50 life in 6 turns: (nearly) every match hits
    # the cap, a draw on turn 7, and no match is longer.
    assert _outcomes(capped)[agg.DRAW, L.END_TURN_CAP] > MATCHES * 0.9
    histogram = capped[agg.hist_slot(N_END, L.N_COUNTERS):]
    assert histogram[8:].sum() == 0 and histogram[7] == _outcomes(capped)[agg.DRAW, L.END_TURN_CAP]


def test_FA_3_short_deck_reading_moves_deck_outs_to_draws():
    lose = _run(Rules())
    draw = _run(Rules().with_changes(ambiguities={"FA-3": "draw"}))
    deck_outs = _outcomes(lose)[:2, L.END_DECK_OUT].sum()
    assert deck_outs > 0, "random play should run a deck out within %d matches" % MATCHES
    assert _outcomes(draw)[:2, L.END_DECK_OUT].sum() == 0
    # Up to the deck-out turn the two readings play identical matches.
    assert _outcomes(draw)[agg.DRAW, L.END_DECK_OUT_DRAW] == deck_outs


def test_F_TURN_3_draws_per_turn_changes_the_same_seeds():
    two = _run(Rules(), STRATEGY_GREEDY)
    four = _run(Rules().with_changes(draws_per_turn=4), STRATEGY_GREEDY)
    assert two[agg.A_MATCHES] == four[agg.A_MATCHES] == MATCHES
    assert not np.array_equal(two, four)
    # More cards per turn: stronger rows sooner, shorter matches on average.
    assert four[agg.A_TURNS_SUM] < two[agg.A_TURNS_SUM]


def test_same_rules_same_seeds_same_aggregate():
    assert np.array_equal(_run(Rules(), STRATEGY_GREEDY), _run(Rules(), STRATEGY_GREEDY))


def test_paired_batch_uses_common_seeds():
    """Arm A == arm B when both rule arrays are equal: every pair agrees."""
    cell = B.cell_array(1, 1, 40, 40, 1, STRATEGY_GREEDY, STRATEGY_RANDOM)
    rules = Rules().to_array()
    paired = B.play_paired_batch(rules, rules, cell, CHUNK_SEED, 0, 200)
    assert np.array_equal(paired[:, agg.P_SUM_A], paired[:, agg.P_SUM_B])
    assert np.array_equal(paired[:, agg.P_CROSS], paired[:, agg.P_SQ_A])
    single = B.play_batch(rules, cell, CHUNK_SEED, 0, 200)
    assert paired[agg.METRIC_TURNS, agg.P_SUM_A] == single[agg.A_TURNS_SUM]


def test_cached_kernels_are_keyed_on_every_engine_source(tmp_path, monkeypatch):
    """numba checks only a function's own file; jit_cache adds all engine sources.

    Regression: FA-8's readings were reordered in rules.py and kernels cached
    before kept the old reading indices (random-play tests then disagreed
    with a fresh compile).
    """
    from sim import jit_cache
    from sim.faction_war import kernel as K
    from sim.faction_war.engine_cache import ENGINE

    assert jit_cache.install(ENGINE)
    locator = K.legal_actions._cache._impl._locator
    _, fingerprint = locator.get_source_stamp()
    assert fingerprint == jit_cache.engine_fingerprint(ENGINE)
    # the match loop and strategies (strategies/faction_war/) are stamped with the same engine
    from strategies.faction_war import batch
    assert batch._play_batch_scripted._cache._impl._locator.get_source_stamp()[1] == fingerprint

    (tmp_path / "sim" / "faction_war").mkdir(parents=True)
    rules_file = tmp_path / "sim" / "faction_war" / "rules.py"
    rules_file.write_text('AMBIGUITIES = {"FA-8": ("any_card", "normal_or_joker")}\n')
    monkeypatch.setattr(jit_cache, "PROJECT_ROOT", tmp_path)
    before = jit_cache.engine_fingerprint(ENGINE)
    rules_file.write_text('AMBIGUITIES = {"FA-8": ("normal_or_joker", "any_card", "normal_only")}\n')
    assert jit_cache.engine_fingerprint(ENGINE) != before
