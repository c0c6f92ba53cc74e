"""Tuning the `tuned` agent: greedy's weights (weights.py) by self-play against greedy.

(A package of its own so that it stays outside the engine's cache fingerprint,
`strategies/faction_war/*.py` in sim/faction_war/engine_cache.py: editing the
tuning loop, which has no compiled code, must not recompile every kernel.)

What `cardbalance tune-agent` runs. One study per faction (a faction's weights only
act in the matches where the tuned agent plays that faction, so the two searches
are independent and each has half the dimensions):
- a candidate is a weight vector; it is judged on PAIRED deals against greedy: the
  same match seeds played four ways (the tuned agent in seat 0 and in seat 1, each
  with both first players) against a greedy opponent of each faction. Every
  candidate of a run sees the same deals (common random numbers), so the noise of
  the deal does not pick the winner. Its value: the tuned agent's share of the
  decided matches.
- the optimizer is optuna's TPE sampler (multivariate), seeded per trial from
  (--seed, faction, trial number) and rebuilt from the trial log before every
  trial: trial k's candidate depends only on the seed and trials 0..k-1, so an
  interrupted run resumed from its log proposes exactly what the uninterrupted run
  would have. Trial 0 of each faction is greedy's own weights (the baseline).
- the trial log (`trials.jsonl` in the output folder, one JSON line per finished
  trial, flushed and synced) is the resume point; a torn last line is ignored.
- the winners of both factions (best value, ties to the earlier trial) are
  re-checked together on fresh seeds, never used in tuning: `tuned` against
  greedy in every pairing, the agents swapping seats on every deal (so `tuned`
  plays both factions of a mixed pairing) and both first players, with 95 %
  Wilson intervals; the result goes into the weights file's provenance.
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path

from sim.faction_war.game import PAIRINGS
from sim.faction_war.layout import FACTION_NAMES, N_END_TYPES
from sim.faction_war.rules import DEFAULT_LIFE, Rules
from sim.rng import match_seed
from strategies import tuning as shared
from strategies.faction_war import STRATEGY_GREEDY, STRATEGY_TUNED
from strategies.faction_war import batch as B
from strategies.faction_war import weights as W

LOG_NAME = "trials.jsonl"
SETTINGS_NAME = "settings.json"
RESULT_NAME = W.TUNED_FILE
ORIENTATIONS = 4  # tuned in seat 0 / seat 1, first player 0 / 1
TUNE_STREAM, RECHECK_STREAM = 1, 2  # chunk seeds derived from --seed for the two seed sets
STARTUP_TRIALS = shared.STARTUP_TRIALS  # TPE's random start (after the greedy baseline)


# ---- paired evaluation ---------------------------------------------------------------------

def _pairing_of(faction0: int, faction1: int) -> str:
    return next(name for name, factions in PAIRINGS.items() if factions == (faction0, faction1))


def paired_result(rules_array, tuned_faction: int, opponent_faction: int, chunk_seed: int, deals: int) -> dict:
    """The tuned agent playing `tuned_faction` against greedy playing `opponent_faction`
    on `deals` deals, each played four ways (the tuned agent in both seats, both first
    players); counts of the tuned agent's wins, losses, draws. What tuning judges: it
    isolates one faction's weights (in a mixed pairing the faction advantage stays in,
    the same for every candidate)."""
    life0, life1 = DEFAULT_LIFE  # the designer's default starting life (the grid's single value)

    def play(strategies, tuned_seat, first):
        factions = [opponent_faction, opponent_faction]
        factions[tuned_seat] = tuned_faction
        cell = B.cell_array(factions[0], factions[1], life0, life1, first, strategies[0], strategies[1])
        return B.play_batch(rules_array, cell, chunk_seed, 0, deals)
    return shared.four_ways(play, STRATEGY_TUNED, STRATEGY_GREEDY, N_END_TYPES)


def pairing_result(rules_array, faction0: int, faction1: int, chunk_seed: int, deals: int) -> dict:
    """The tuned agent against greedy in one pairing (seat 0 plays faction0): each deal
    played four ways, the tuned agent in seat 0 and in seat 1, each with both first
    players, so the pairing's faction and seat advantages cancel; counts of the tuned
    agent's wins, losses, draws."""
    life0, life1 = DEFAULT_LIFE  # the designer's default starting life (the grid's single value)

    def play(strategies, tuned_seat, first):
        cell = B.cell_array(faction0, faction1, life0, life1, first, strategies[0], strategies[1])
        return B.play_batch(rules_array, cell, chunk_seed, 0, deals)
    return shared.four_ways(play, STRATEGY_TUNED, STRATEGY_GREEDY, N_END_TYPES)


decided_share = shared.decided_share


def candidate_value(vector, faction: int, chunk_seed: int, deals_per_opponent: int) -> dict:
    """A weight vector for `faction`, against greedy of every faction on the same deals."""
    rules_array = W.with_policy(Rules().to_array(), W.policy_block({FACTION_NAMES[faction]: vector}))
    total = {"wins": 0, "losses": 0, "draws": 0, "matches": 0}
    for opponent in range(len(FACTION_NAMES)):
        result = paired_result(rules_array, faction, opponent, chunk_seed, deals_per_opponent)
        for key in total:
            total[key] += result[key]
    return {**total, "value": decided_share(total)}


def recheck(vectors: dict, chunk_seed: int, matches_per_pairing: int) -> list[dict]:
    """`tuned` (both factions' weights) against greedy in every pairing on fresh deals
    (`pairing_result`: the agents swap seats on every deal), with 95 % Wilson intervals."""
    from analysis.stats import wilson_interval
    rules_array = W.with_policy(Rules().to_array(), W.policy_block(vectors))
    deals = -(-matches_per_pairing // ORIENTATIONS)
    rows = []
    for faction0 in range(len(FACTION_NAMES)):
        for faction1 in range(len(FACTION_NAMES)):
            result = pairing_result(rules_array, faction0, faction1, chunk_seed, deals)
            low, high = wilson_interval(result["wins"], result["wins"] + result["losses"])
            rows.append({"pairing": _pairing_of(faction0, faction1), **result,
                         "win_share": round(decided_share(result), 4),
                         "wilson_low": round(float(low), 4), "wilson_high": round(float(high), 4)})
    return rows


# ---- the study -----------------------------------------------------------------------------

def _propose(seed: int, faction: int, history: list[dict]) -> dict:
    """Trial len(history)'s candidate: greedy first, then TPE over the logged trials."""
    return shared.propose(seed, faction + 1, history, W.RANGES, W.as_dict(W.DEFAULTS))


# the trial log and the output folder: the game-independent machinery (strategies/tuning.py)
_read_log, _contiguous, _append_log, _write_atomic = (shared.read_log, shared.contiguous, shared.append_log,
                                                      shared.write_atomic)


def check_options(trials: int, matches: int, recheck_matches: int, seed: int) -> None:
    shared.check_options(trials, matches, recheck_matches, seed, min_matches=2 * ORIENTATIONS,
                         min_matches_why="one deal, four ways, per opponent faction", min_recheck=ORIENTATIONS)


def tune(out, trials: int, matches: int, seed: int, recheck_matches: int, command: str,
         progress=None) -> dict:
    """Run (or resume) the study in folder `out`, write `out/tuned_weights.json`, return it.

    `matches`: matches per candidate (split over the opponent factions and the four
    orientations); `recheck_matches`: matches per pairing on fresh seeds.
    """
    import optuna
    check_options(trials, matches, recheck_matches, seed)
    deals = -(-int(matches) // (ORIENTATIONS * len(FACTION_NAMES)))
    settings = {"game": "faction_war", "seed": int(seed), "matches": int(matches),
                "weights": list(W.WEIGHT_NAMES), "ranges": {k: list(v) for k, v in W.RANGES.items()}}
    with shared.tuning_folder(out, SETTINGS_NAME, settings, command) as out:  # checked, locked, ours
        log_path = out / LOG_NAME
        entries = _read_log(log_path, repair=True)
        tune_seed = match_seed(int(seed), TUNE_STREAM)
        best = {}
        for faction, faction_name in enumerate(FACTION_NAMES):
            history = _contiguous([e for e in entries if e.get("faction") == faction_name])
            while len(history) < trials:
                params = _propose(int(seed), faction, history)
                result = candidate_value(W.check_weights(params, "candidate"), faction, tune_seed, deals)
                entry = {"faction": faction_name, "trial": len(history), "params": params, **result}
                _append_log(log_path, entry)
                history.append(entry)
                if progress is not None:
                    progress(faction_name, entry, max(history[:trials], key=lambda e: (e["value"], -e["trial"])))
            history = history[:trials]
            best[faction_name] = max(history, key=lambda e: (e["value"], -e["trial"]))
        vectors = {name: W.check_weights(entry["params"], name) for name, entry in best.items()}
        rows = recheck(vectors, match_seed(int(seed), RECHECK_STREAM), int(recheck_matches))
        document = {
            "about": "Weights of the `tuned` agent: greedy's heuristic (strategies/faction_war/greedy.py) with the "
                     "constants of strategies/faction_war/weights.py tuned per faction by self-play against greedy.",
            "weights": {name: W.as_dict(vector) for name, vector in vectors.items()},
            "provenance": {
                "game": "faction_war",
                "rules": "default preset, starting life %d/%d" % DEFAULT_LIFE,
                "opponent": "greedy",
                "judged_on": "paired deals: each deal played with the tuned agent in both seats and both first "
                             "players, against greedy of each faction; value = tuned share of decided matches",
                "trials_per_faction": int(trials),
                "matches_per_trial": int(deals * ORIENTATIONS * len(FACTION_NAMES)),
                "seed": int(seed),
                "tuning_chunk_seed": int(tune_seed),
                "recheck_chunk_seed": int(match_seed(int(seed), RECHECK_STREAM)),
                "optimizer": "optuna TPESampler(multivariate=True, n_startup_trials=%d), reseeded per trial from "
                             "(seed, faction, trial); trial 0 = greedy's weights" % (STARTUP_TRIALS + 1),
                "optimizer_version": "optuna %s" % optuna.__version__,
                "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
                "command": command,
                "tuning_value": {name: {"best_trial": entry["trial"], "best": round(entry["value"], 4),
                                        "greedy_baseline": round(_baseline(entries_for(log_path, name)), 4)}
                                 for name, entry in best.items()},
                "recheck": {"matches_per_pairing": int(-(-int(recheck_matches) // ORIENTATIONS) * ORIENTATIONS),
                            "interval": "95 % Wilson, on decided matches", "pairings": rows},
            },
        }
        _write_atomic(out / RESULT_NAME, json.dumps(document, indent=2) + "\n")
        return document


def entries_for(log_path: Path, faction_name: str) -> list[dict]:
    return [e for e in _read_log(log_path) if e.get("faction") == faction_name]


def _baseline(entries: list[dict]) -> float:
    return next((e["value"] for e in entries if e["trial"] == 0), float("nan"))


def study_summary(out) -> list[dict]:
    """The logged trials of a run folder, in order (for tests and inspection)."""
    entries = _read_log(Path(out) / LOG_NAME)
    return sorted(entries, key=lambda e: (e["faction"], e["trial"]))
