"""Poker Duel's tuning study (`cardbalance tune-agent --game poker_duel`): greedy's weights
(weights.py) by self-play against greedy, run by the shared `strategies.tuning.Study`.

(A package of its own so that it stays outside the engine's cache fingerprint,
`strategies/poker_duel/*.py` in sim/poker_duel/engine_cache.py: editing the tuning
loop, which has no compiled code, must not recompile every kernel.)

What is Poker Duel's own: no factions, so one study over one weight vector (both seats
use it); a candidate is judged on paired deals against greedy under the default
(`core`) rules at the default starting HP, each deal played four ways; the winner is
re-checked on fresh seeds under `core` and `advanced` at the default HP and `core` at
the HP grid's ends, with 95 % Wilson intervals.
"""

from __future__ import annotations

from sim.poker_duel.layout import N_END_TYPES
from sim.poker_duel.rules import DEFAULT_HP, load_rules
from strategies import tuning as shared
from strategies.poker_duel import STRATEGY_GREEDY, STRATEGY_TUNED
from strategies.poker_duel import kernel_batch as KB
from strategies.poker_duel import weights as W
from strategies.poker_duel.batch import cell_of

LOG_NAME, SETTINGS_NAME, RESULT_NAME = shared.LOG_NAME, shared.SETTINGS_NAME, W.TUNED_FILE
TUNING_RULES = "core"
# the re-check's settings: (rules preset, starting HP of both seats)
RECHECK_SETTINGS = (("core", DEFAULT_HP), ("advanced", DEFAULT_HP), ("core", (20, 20)), ("core", (80, 80)))


def paired_result(rules_array, chunk_seed: int, deals: int, hp=DEFAULT_HP) -> dict:
    """The tuned agent (the policy block of `rules_array`) against greedy on `deals` deals,
    each played four ways (`strategies.tuning.four_ways`)."""
    def play(strategies, tuned_seat, first):
        cell = cell_of({"hp": tuple(hp), "first": first}, strategies[0], strategies[1])
        return KB.play_batch(rules_array, cell, chunk_seed, 0, deals)
    return shared.four_ways(play, STRATEGY_TUNED, STRATEGY_GREEDY, N_END_TYPES)


def _rules_with(vector, preset: str = TUNING_RULES):
    return W.with_policy(load_rules(preset).to_array(), vector)


def candidate_value(group, vector, chunk_seed: int, deals: int) -> dict:
    """A weight vector against greedy on the tuning deals (core rules, default HP)."""
    return paired_result(_rules_with(vector), chunk_seed, deals)


def recheck(vectors: dict, chunk_seed: int, deals: int) -> list[dict]:
    """`tuned` with the winner against greedy on fresh deals in every re-check setting."""
    return [{"setting": "%s %d HP" % (preset, hp[0]), "rules": preset, "hp": list(hp),
             **shared.share_row(paired_result(_rules_with(vectors[None], preset), chunk_seed, deals, hp))}
            for preset, hp in RECHECK_SETTINGS]


STUDY = shared.Study(
    game="poker_duel", table=W.TABLE, candidate_value=candidate_value, recheck=recheck,
    about="Weights of Poker Duel's `tuned` agent: greedy's heuristic (strategies/poker_duel/policies.py) "
          "with the numbers of strategies/poker_duel/weights.py tuned by self-play against greedy.",
    rules="%s preset, starting HP %d/%d" % ((TUNING_RULES,) + tuple(DEFAULT_HP)),
    judged_on="paired deals: each deal played with the tuned agent in both seats and both first players "
              "against greedy; value = tuned share of decided matches",
    recheck_by="setting", settings={"rules": TUNING_RULES, "hp": list(DEFAULT_HP)})
tune, study_summary = STUDY.tune, STUDY.summary
