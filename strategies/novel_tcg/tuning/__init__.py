"""The Novel TCG's tuning study (`cardbalance tune-agent --game novel_tcg`): greedy's weights
(weights.py) by self-play against greedy, run by the shared `strategies.tuning.Study`.

(A package of its own so that it stays outside the engine's cache fingerprint,
`strategies/novel_tcg/*.py` in sim/novel_tcg/engine_cache.py.)

What is the TCG's own: one study over one weight vector (both seats use it); a
candidate is judged on paired deals against greedy at the default rules and rank
(10/10), in every deck-template pairing (the tuned agent's template against greedy's),
each deal played four ways; the winner is re-checked on fresh seeds in every template
pairing at rank 10 and in Curve vs Curve at ranks 5 and 20, with 95 % Wilson intervals.
"""

from __future__ import annotations

from sim.novel_tcg.card_pool import TEMPLATES
from sim.novel_tcg.layout import N_END_TYPES
from sim.novel_tcg.rules import DEFAULT_RANK, load_rules
from strategies import tuning as shared
from strategies.novel_tcg import STRATEGY_GREEDY, STRATEGY_TUNED
from strategies.novel_tcg import batch as B
from strategies.novel_tcg import weights as W

LOG_NAME, SETTINGS_NAME, RESULT_NAME = shared.LOG_NAME, shared.SETTINGS_NAME, W.TUNED_FILE
TUNING_RULES = "default"
TEMPLATE_PAIRS = tuple((a, b) for a in TEMPLATES for b in TEMPLATES)  # (tuned's template, greedy's)
# the re-check's settings beyond every template pairing at the default rank: (templates, rank of both seats)
RECHECK_RANKS = ((("curve", "curve"), 5), (("curve", "curve"), 20))


def paired_result(rules_array, tuned_template: str, opponent_template: str, chunk_seed: int, deals: int,
                  rank: int = DEFAULT_RANK) -> dict:
    """The tuned agent (the policy block of `rules_array`) with `tuned_template` against greedy
    with `opponent_template` on `deals` deals, each played four ways (`strategies.tuning.four_ways`)."""
    def play(strategies, tuned_seat, first):
        decks = [opponent_template, opponent_template]
        decks[tuned_seat] = tuned_template
        cell = B.cell_of({"rank": (rank, rank), "deck": "%s/%s" % tuple(decks), "first": first},
                         strategies[0], strategies[1])
        return B.play_batch(rules_array, cell, chunk_seed, 0, deals)
    return shared.four_ways(play, STRATEGY_TUNED, STRATEGY_GREEDY, N_END_TYPES)


def pairing_result(rules_array, templates: tuple[str, str], chunk_seed: int, deals: int,
                   rank: int = DEFAULT_RANK) -> dict:
    """The tuned agent against greedy with the seats' `templates` (seat 0's, seat 1's), each deal
    played four ways (the agents swap seats, so tuned plays both templates)."""
    def play(strategies, tuned_seat, first):
        cell = B.cell_of({"rank": (rank, rank), "deck": "%s/%s" % templates, "first": first},
                         strategies[0], strategies[1])
        return B.play_batch(rules_array, cell, chunk_seed, 0, deals)
    return shared.four_ways(play, STRATEGY_TUNED, STRATEGY_GREEDY, N_END_TYPES)


def _rules_with(vector):
    return W.with_policy(load_rules(TUNING_RULES).to_array(), vector)


def candidate_value(group, vector, chunk_seed: int, deals: int) -> dict:
    """A weight vector against greedy in every template pairing on the same deals."""
    rules_array = _rules_with(vector)
    total = {"wins": 0, "losses": 0, "draws": 0, "matches": 0}
    for tuned_template, opponent_template in TEMPLATE_PAIRS:
        result = paired_result(rules_array, tuned_template, opponent_template, chunk_seed, deals)
        for key in total:
            total[key] += result[key]
    return total


def recheck(vectors: dict, chunk_seed: int, deals: int) -> list[dict]:
    """`tuned` with the winner against greedy on fresh deals in every re-check setting."""
    rules_array = _rules_with(vectors[None])
    settings = [(pair, DEFAULT_RANK) for pair in TEMPLATE_PAIRS] + list(RECHECK_RANKS)
    # rows keep the shipped weights file's "seat0-seat1" labels
    return [{"setting": "%s-%s rank %d" % (*templates, rank), "decks": "%s-%s" % templates, "rank": rank,
             **shared.share_row(pairing_result(rules_array, templates, chunk_seed, deals, rank))}
            for templates, rank in settings]


STUDY = shared.Study(
    game="novel_tcg", table=W.TABLE, candidate_value=candidate_value, recheck=recheck,
    about="Weights of the Novel TCG's `tuned` agent: greedy's heuristic (strategies/novel_tcg/policies.py) "
          "with the numbers of strategies/novel_tcg/weights.py tuned by self-play against greedy.",
    rules="%s preset, rank %d/%d, every deck-template pairing" % (TUNING_RULES, DEFAULT_RANK, DEFAULT_RANK),
    judged_on="paired deals: each deal played with the tuned agent in both seats and both first players "
              "against greedy, in every pairing of the tuned agent's template with greedy's; value = tuned "
              "share of decided matches",
    recheck_by="setting", matches_per_deal=shared.ORIENTATIONS * len(TEMPLATE_PAIRS),
    min_matches_why="one deal, four ways, per template pairing",
    settings={"rules": TUNING_RULES, "rank": [DEFAULT_RANK, DEFAULT_RANK]})
tune, study_summary = STUDY.tune, STUDY.summary
