"""Faction War's tuning study (`cardbalance tune-agent`): greedy's weights (weights.py) by
self-play against greedy, one study per faction, run by the shared `strategies.tuning.Study`.

(A package of its own so that it stays outside the engine's cache fingerprint,
`strategies/faction_war/*.py` in sim/faction_war/engine_cache.py: editing the tuning
loop, which has no compiled code, must not recompile every kernel.)

What is Faction War's own:
- one study per faction: a faction's weights only act in the matches where the tuned
  agent plays that faction, so the two searches are independent and each has half the
  dimensions;
- a candidate of a faction is judged on PAIRED deals against greedy of each faction
  (`paired_result`): the same match seeds played four ways (the tuned agent in seat 0 and
  in seat 1, each with both first players), at the default starting life. Every
  candidate sees the same deals (common random numbers). Its value: the tuned agent's
  share of the decided matches;
- the winners of both factions are re-checked together on fresh seeds in every pairing
  (`pairing_result`: the agents swap seats on every deal, so `tuned` plays both factions
  of a mixed pairing), with 95 % Wilson intervals.
"""

from __future__ import annotations

from sim.faction_war.game import PAIRINGS
from sim.faction_war.layout import FACTION_NAMES, N_END_TYPES
from sim.faction_war.rules import DEFAULT_LIFE, Rules
from strategies import tuning as shared
from strategies.faction_war import STRATEGY_GREEDY, STRATEGY_TUNED
from strategies.faction_war import batch as B
from strategies.faction_war import weights as W

LOG_NAME, SETTINGS_NAME, RESULT_NAME = shared.LOG_NAME, shared.SETTINGS_NAME, W.TUNED_FILE


def _pairing_of(faction0: int, faction1: int) -> str:
    return next(name for name, factions in PAIRINGS.items() if factions == (faction0, faction1))


def paired_result(rules_array, tuned_faction: int, opponent_faction: int, chunk_seed: int, deals: int) -> dict:
    """The tuned agent playing `tuned_faction` against greedy playing `opponent_faction`
    on `deals` deals, each played four ways (`strategies.tuning.four_ways`). What tuning
    judges: it isolates one faction's weights (in a mixed pairing the faction advantage
    stays in, the same for every candidate)."""
    life0, life1 = DEFAULT_LIFE  # the designer's default starting life (the grid's single value)

    def play(strategies, tuned_seat, first):
        factions = [opponent_faction, opponent_faction]
        factions[tuned_seat] = tuned_faction
        cell = B.cell_array(factions[0], factions[1], life0, life1, first, strategies[0], strategies[1])
        return B.play_batch(rules_array, cell, chunk_seed, 0, deals)
    return shared.four_ways(play, STRATEGY_TUNED, STRATEGY_GREEDY, N_END_TYPES)


def pairing_result(rules_array, faction0: int, faction1: int, chunk_seed: int, deals: int) -> dict:
    """The tuned agent against greedy in one pairing (seat 0 plays faction0), each deal
    played four ways, so the pairing's faction and seat advantages cancel."""
    life0, life1 = DEFAULT_LIFE

    def play(strategies, tuned_seat, first):
        cell = B.cell_array(faction0, faction1, life0, life1, first, strategies[0], strategies[1])
        return B.play_batch(rules_array, cell, chunk_seed, 0, deals)
    return shared.four_ways(play, STRATEGY_TUNED, STRATEGY_GREEDY, N_END_TYPES)


def candidate_value(faction_name: str, vector, chunk_seed: int, deals_per_opponent: int) -> dict:
    """A weight vector for one faction, against greedy of every faction on the same deals."""
    faction = FACTION_NAMES.index(faction_name)
    rules_array = W.with_policy(Rules().to_array(), W.policy_block({faction_name: vector}))
    total = {"wins": 0, "losses": 0, "draws": 0, "matches": 0}
    for opponent in range(len(FACTION_NAMES)):
        result = paired_result(rules_array, faction, opponent, chunk_seed, deals_per_opponent)
        for key in total:
            total[key] += result[key]
    return total


def recheck(vectors: dict, chunk_seed: int, deals: int) -> list[dict]:
    """`tuned` (both factions' weights) against greedy in every pairing on fresh deals."""
    rules_array = W.with_policy(Rules().to_array(), W.policy_block(vectors))
    return [{"pairing": _pairing_of(faction0, faction1),
             **shared.share_row(pairing_result(rules_array, faction0, faction1, chunk_seed, deals))}
            for faction0 in range(len(FACTION_NAMES)) for faction1 in range(len(FACTION_NAMES))]


STUDY = shared.Study(
    game="faction_war", table=W.TABLE, candidate_value=candidate_value, recheck=recheck,
    about="Weights of the `tuned` agent: greedy's heuristic (strategies/faction_war/greedy.py) with the "
          "constants of strategies/faction_war/weights.py tuned per faction by self-play against greedy.",
    rules="default preset, starting life %d/%d" % DEFAULT_LIFE,
    judged_on="paired deals: each deal played with the tuned agent in both seats and both first players, "
              "against greedy of each faction; value = tuned share of decided matches",
    matches_per_deal=shared.ORIENTATIONS * len(FACTION_NAMES),
    min_matches_why="one deal, four ways, per opponent faction", group_key="faction")
tune, study_summary = STUDY.tune, STUDY.summary
