"""Tuning Poker Duel's `tuned` agent: greedy's weights (weights.py) by self-play against greedy.

(A package of its own so that it stays outside the engine's cache fingerprint,
`strategies/poker_duel/*.py` in sim/poker_duel/engine_cache.py: editing the tuning
loop, which has no compiled code, must not recompile every kernel.)

What `cardbalance tune-agent --game poker_duel` runs. Poker Duel has no factions, so
there is one study over one weight vector (both seats use it):
- a candidate is judged on PAIRED deals against greedy, default (`core`) rules at the
  default starting HP: the same match seeds played four ways (the tuned agent in
  seat 0 and in seat 1, each with both first players). Every candidate of a run sees
  the same deals (common random numbers), so the noise of the deal does not pick the
  winner. Its value: the tuned agent's share of the decided matches;
- the optimizer, the trial log and resumption are the shared machinery of
  strategies/tuning.py (optuna's TPE sampler seeded per trial from (--seed, trial),
  rebuilt from the log before every trial; trial 0 is greedy's own weights);
- the winner (best value, ties to the earlier trial) is re-checked on fresh seeds,
  never used in tuning, the same four ways, under `core` and `advanced` at the
  default HP and `core` at the HP grid's ends, with 95 % Wilson intervals; the result
  goes into the weights file's provenance.
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path

from sim.poker_duel.layout import N_END_TYPES
from sim.poker_duel.rules import DEFAULT_HP, load_rules
from sim.rng import match_seed
from strategies import tuning as shared
from strategies.poker_duel import STRATEGY_GREEDY, STRATEGY_TUNED
from strategies.poker_duel import kernel_batch as KB
from strategies.poker_duel import weights as W
from strategies.poker_duel.batch import cell_of

LOG_NAME = "trials.jsonl"
SETTINGS_NAME = "settings.json"
RESULT_NAME = W.TUNED_FILE
ORIENTATIONS = 4  # tuned in seat 0 / seat 1, first player 0 / 1
STUDY = 1  # the sampler's stream (strategies.tuning.propose): one study
TUNE_STREAM, RECHECK_STREAM = 1, 2  # chunk seeds derived from --seed for the two seed sets
TUNING_RULES = "core"
# the re-check's settings: (rules preset, starting HP of both seats)
RECHECK_SETTINGS = (("core", DEFAULT_HP), ("advanced", DEFAULT_HP), ("core", (20, 20)), ("core", (80, 80)))
LABEL = "poker_duel"  # the study's name in progress lines


# ---- paired evaluation ---------------------------------------------------------------------

def deals_of(matches: int) -> int:
    """Deals that give at least `matches` matches played four ways."""
    return -(-int(matches) // ORIENTATIONS)


def paired_result(rules_array, chunk_seed: int, deals: int, hp=DEFAULT_HP) -> dict:
    """The tuned agent (the policy block of `rules_array`) against greedy on `deals`
    deals, each played four ways (the tuned agent in both seats, both first players),
    so the seat and first-player advantages cancel; counts of the tuned agent's wins,
    losses, draws."""
    def play(strategies, tuned_seat, first):
        cell = cell_of({"hp": tuple(hp), "first": first}, strategies[0], strategies[1])
        return KB.play_batch(rules_array, cell, chunk_seed, 0, deals)
    return shared.four_ways(play, STRATEGY_TUNED, STRATEGY_GREEDY, N_END_TYPES)


def _rules_with(vector, preset: str = TUNING_RULES):
    return W.with_policy(load_rules(preset).to_array(), vector)


def candidate_value(vector, chunk_seed: int, deals: int) -> dict:
    """A weight vector against greedy on the tuning deals (core rules, default HP)."""
    result = paired_result(_rules_with(vector), chunk_seed, deals)
    return {**result, "value": shared.decided_share(result)}


def recheck(vector, chunk_seed: int, matches: int) -> list[dict]:
    """`tuned` with `vector` against greedy on fresh deals in every re-check setting,
    with 95 % Wilson intervals."""
    deals = deals_of(matches)
    rows = []
    for preset, hp in RECHECK_SETTINGS:
        result = paired_result(_rules_with(vector, preset), chunk_seed, deals, hp)
        rows.append({"setting": "%s %d HP" % (preset, hp[0]), "rules": preset, "hp": list(hp),
                     **shared.share_row(result)})
    return rows


# ---- the study -----------------------------------------------------------------------------

def check_options(trials: int, matches: int, recheck_matches: int, seed: int) -> None:
    shared.check_options(trials, matches, recheck_matches, seed, min_matches=ORIENTATIONS,
                         min_matches_why="one deal, four ways", min_recheck=ORIENTATIONS)


def tune(out, trials: int, matches: int, seed: int, recheck_matches: int, command: str,
         progress=None) -> dict:
    """Run (or resume) the study in folder `out`, write `out/tuned_weights.json`, return it.

    `matches`: matches per candidate (the deals times the four orientations);
    `recheck_matches`: matches per re-check setting on fresh seeds.
    """
    check_options(trials, matches, recheck_matches, seed)
    deals = deals_of(matches)
    settings = {"game": "poker_duel", "seed": int(seed), "matches": int(matches), "rules": TUNING_RULES,
                "hp": list(DEFAULT_HP), "weights": list(W.WEIGHT_NAMES),
                "ranges": {k: list(v) for k, v in W.RANGES.items()}}
    with shared.tuning_folder(out, SETTINGS_NAME, settings, command) as out:  # checked, locked, ours
        log_path = out / LOG_NAME
        history = shared.contiguous(shared.read_log(log_path, repair=True))
        tune_seed = match_seed(int(seed), TUNE_STREAM)
        defaults = W.as_dict(W.DEFAULTS)
        while len(history) < trials:
            params = shared.propose(int(seed), STUDY, history, W.RANGES, defaults)
            result = candidate_value(W.check_weights(params, "candidate"), tune_seed, deals)
            entry = {"trial": len(history), "params": params, **result}
            shared.append_log(log_path, entry)
            history.append(entry)
            if progress is not None:
                progress(LABEL, entry, shared.best_entry(history[:trials]))
        history = history[:trials]
        best = shared.best_entry(history)
        vector = W.check_weights(best["params"], "best trial")
        recheck_seed = match_seed(int(seed), RECHECK_STREAM)
        rows = recheck(vector, recheck_seed, int(recheck_matches))
        document = {
            "about": "Weights of Poker Duel's `tuned` agent: greedy's heuristic (strategies/poker_duel/policies.py) "
                     "with the numbers of strategies/poker_duel/weights.py tuned by self-play against greedy.",
            "weights": W.as_dict(vector),
            "provenance": {
                "game": "poker_duel",
                "rules": "%s preset, starting HP %d/%d" % ((TUNING_RULES,) + tuple(DEFAULT_HP)),
                "opponent": "greedy",
                "judged_on": "paired deals: each deal played with the tuned agent in both seats and both first "
                             "players against greedy; value = tuned share of decided matches",
                "trials": int(trials),
                "matches_per_trial": int(deals * ORIENTATIONS),
                "seed": int(seed),
                "tuning_chunk_seed": int(tune_seed),
                "recheck_chunk_seed": int(recheck_seed),
                "optimizer": shared.optimizer_text("(seed, trial)"),
                "optimizer_version": shared.optimizer_version(),
                "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
                "command": command,
                "tuning_value": {"best_trial": best["trial"], "best": round(best["value"], 4),
                                 "greedy_baseline": round(history[0]["value"], 4)},
                "recheck": {"by": "setting", "matches_per_setting": int(deals_of(recheck_matches) * ORIENTATIONS),
                            "interval": "95 % Wilson, on decided matches", "settings": rows},
            },
        }
        shared.write_atomic(out / RESULT_NAME, json.dumps(document, indent=2) + "\n")
        return document


def study_summary(out) -> list[dict]:
    """The logged trials of a run folder, in order (for tests and inspection)."""
    return sorted(shared.read_log(Path(out) / LOG_NAME), key=lambda e: e["trial"])
