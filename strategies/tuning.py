"""`cardbalance tune-agent` for every game: seeded, resumable optuna studies of a `tuned` agent.

A game declares its study once, a `Study` (strategies/<game>/tuning/): its weights
(`strategies.weight_table.WeightTable`; one study per group of the table, e.g. per
faction), what a candidate is worth (its paired deals against greedy), its fresh-seed
re-check and the words of its provenance. `Study.tune` runs it: trial k of each group
proposed by `propose`, judged, logged; the best of each group re-checked on fresh seeds
and written with its provenance to OUT/tuned_weights.json. Parts of it:
- `propose`: trial k's candidate. Trial 0 is greedy's own weights (the baseline);
  later trials come from optuna's TPE sampler (multivariate), seeded from
  (--seed, study, trial number) and rebuilt from the logged trials before every
  trial, so trial k depends only on the seed and trials 0..k-1: an interrupted run
  resumed from its log proposes exactly what the uninterrupted run would have;
- the trial log (one JSON line per finished trial, flushed and synced; a line torn
  by an interrupt is cut off and that trial played again), `contiguous` (trials
  0, 1, 2 ... up to the first gap), the settings check that refuses to resume a
  folder with other settings, atomic writes;
- `tuning_folder`: the run-folder conventions of sweep and ladder (path checks, built
  aside and renamed into place, refuses a folder that is not a tuning run, a lock);
- `four_ways`: a candidate's counts over one deal set played four ways (the tuned
  agent in both seats, both first players), so seat and first-player advantages cancel;
- `decided_share`, `best_entry`, `share_row` (a result with its 95 % Wilson interval)
  and `check_options` (one clear error line for a bad option).
Trade-off: rebuilding the sampler per trial costs O(trials²) sampler work, which is
small next to playing thousands of matches per trial, and buys exact resumption.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from sim import aggregate as agg
from sim.errors import CardbalanceError
from sim.rng import match_seed
from sim.safe_output import naming, write_text_atomic
from sim.user_input import check_path

STARTUP_TRIALS = 10  # TPE's random start (after the greedy baseline)
MAX_TRIALS = 100_000  # each trial rebuilds the sampler over the log (O(trials^2)): more would never finish
MAX_MATCHES = 10**10  # per trial and per re-check pairing, the sweep's bound on matches per cell


def propose(seed: int, study: int, history: list[dict], ranges: dict, defaults: dict) -> dict:
    """Trial len(history)'s candidate of study `study` (1, 2 ...: a game may run several):
    `defaults` first, then TPE over the logged trials. `ranges`: {name: (low, high)}."""
    if not history:
        return dict(defaults)
    import optuna
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    distributions = {name: optuna.distributions.IntDistribution(low, high) for name, (low, high) in ranges.items()}
    sampler = optuna.samplers.TPESampler(seed=match_seed(seed, 1000 * study + len(history)) & 0xFFFFFFFF,
                                         multivariate=True, n_startup_trials=STARTUP_TRIALS + 1)
    study_ = optuna.create_study(direction="maximize", sampler=sampler)
    for entry in history:
        study_.add_trial(optuna.trial.create_trial(params=entry["params"], distributions=distributions,
                                                   value=entry["value"]))
    trial = study_.ask(distributions)
    return {name: int(trial.params[name]) for name in ranges}


def optimizer_text(study_seed: str) -> str:
    return ("optuna TPESampler(multivariate=True, n_startup_trials=%d), reseeded per trial from %s; "
            "trial 0 = greedy's weights" % (STARTUP_TRIALS + 1, study_seed))


def optimizer_version() -> str:
    import optuna
    return "optuna %s" % optuna.__version__


# ---- the trial log ---------------------------------------------------------------------------

def read_log(path: Path, repair: bool = False) -> list[dict]:
    """The logged trials; with `repair`, a line torn by an interrupt is cut off the file
    first (else the next trial would be appended onto it and lost). A log that is not
    UTF-8 text, or a whole line that is not a trial record, is one clear error naming
    the file and line: the folder was not written by tune-agent alone."""
    entries = []
    if not path.exists():
        return entries
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise CardbalanceError("%s is not a trial log (not UTF-8 text); use a new --out folder." % path) from None
    if repair and text and not text.endswith("\n"):
        text = text[:text.rfind("\n") + 1]
        write_atomic(path, text)
    for number, line in enumerate(text.splitlines(), 1):
        try:
            entry = json.loads(line)
        except RecursionError:
            entry = None
        except ValueError:  # a line torn by an interrupt: that trial is simply played again
            continue
        if not (isinstance(entry, dict) and isinstance(entry.get("trial"), int) and isinstance(entry.get("params"), dict)
                and isinstance(entry.get("value"), (int, float))):
            raise CardbalanceError("%s line %d is not a trial record (an object with trial, params and value); "
                                   "use a new --out folder." % (path, number))
        entries.append(entry)
    return entries


def contiguous(entries: list[dict]) -> list[dict]:
    """Trials 0, 1, 2 ... as logged (the first line of each number), up to the first gap."""
    by_trial = {}
    for entry in entries:
        by_trial.setdefault(entry.get("trial"), entry)
    history = []
    while len(history) in by_trial:
        history.append(by_trial[len(history)])
    return history


def append_log(path: Path, entry: dict) -> None:
    try:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(entry, sort_keys=True) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as error:
        raise naming(error, path) from None


def check_settings(out: Path, settings_name: str, settings: dict) -> None:
    """A run folder is resumed only with the settings it was started with (--trials may grow)."""
    path = out / settings_name
    try:
        stored = json.loads(path.read_bytes().decode("utf-8"))
    except (ValueError, RecursionError):
        stored = None
    if not isinstance(stored, dict):
        raise CardbalanceError("--out %s: %s is not a settings object; use a new --out folder." % (out, settings_name))
    for key, value in settings.items():
        if stored.get(key) != value:
            raise CardbalanceError("--out %s holds a tuning run with %s %r (asked %r); resume with the same "
                                   "value or use a new --out folder." % (out, key, stored.get(key), value))


def write_atomic(path: Path, text: str) -> None:
    """Through safe_output: a temporary sibling renamed over `path`, removed on failure, the file named in an error."""
    write_text_atomic(path, text)


@contextlib.contextmanager
def tuning_folder(out, settings_name: str, settings: dict, command: str):
    """The run-folder conventions of sweep and ladder for a tuning run (issue 30): the path is
    checked up front (exit 2 for one that cannot be written); a new folder is built aside with
    its settings and renamed into place; an existing one is resumed only if it is a tuning run
    (its settings file) with the same settings, never a sweep's or ladder's run folder or any
    other non-empty folder; its lock (RUN/.lock, sim/sweep/runlock.py) is held for the block,
    so a second writer is refused naming the holder."""
    from sim.safe_output import atomic_folder, check_output_folder, is_empty_folder
    from sim.sweep.runlock import hold_run_lock
    if not str(out).strip():
        raise CardbalanceError("--out must name a folder (got '%s')." % out)
    out = Path(check_path(out, "--out"))
    check_output_folder(out, "--out")
    if out.is_dir() and not is_empty_folder(out):
        if not (out / settings_name).is_file():
            kind = "a sweep or ladder run folder" if (out / "meta.json").exists() else "not a tune-agent run folder"
            raise CardbalanceError("--out %s is %s (no %s); give a new or empty folder, or a tune-agent run to "
                                   "resume." % (out, kind, settings_name))
    else:
        with atomic_folder(out) as building:
            write_atomic(building / settings_name, json.dumps(settings, indent=2, sort_keys=True) + "\n")
    with hold_run_lock(out, command):
        check_settings(out, settings_name, settings)
        yield out


# ---- results ---------------------------------------------------------------------------------

def four_ways(play, tuned: int, greedy: int, n_end_types: int) -> dict:
    """Counts of the tuned agent's wins, losses and draws over one deal set played four
    ways: strategy id `tuned` in seat 0 and in seat 1 against `greedy`, each with both
    first players. `play(strategies, tuned_seat, first)` plays the deals of one way and
    returns their aggregate vector (sim/aggregate.py, `n_end_types` end types)."""
    wins = losses = draws = 0
    for tuned_seat in (0, 1):
        strategies = [greedy, greedy]
        strategies[tuned_seat] = tuned
        for first in (0, 1):
            vector = play(strategies, tuned_seat, first)
            by_winner = [int(vector[agg.A_OUTCOMES + w * n_end_types: agg.A_OUTCOMES + (w + 1) * n_end_types].sum())
                         for w in range(3)]  # won by seat 0, seat 1, drawn
            wins += by_winner[tuned_seat]
            losses += by_winner[1 - tuned_seat]
            draws += by_winner[agg.DRAW]
    return {"wins": wins, "losses": losses, "draws": draws, "matches": wins + losses + draws}


def decided_share(result: dict) -> float:
    decided = result["wins"] + result["losses"]
    return result["wins"] / decided if decided else 0.5


def best_entry(history: list[dict]) -> dict:
    """The best trial: highest value, ties to the earlier trial."""
    return max(history, key=lambda e: (e["value"], -e["trial"]))


def share_row(result: dict) -> dict:
    """A result's tuned share of decided matches with its 95 % Wilson interval."""
    from analysis.stats import wilson_interval
    low, high = wilson_interval(result["wins"], result["wins"] + result["losses"])
    return {**result, "win_share": round(decided_share(result), 4),
            "wilson_low": round(float(low), 4), "wilson_high": round(float(high), 4)}


def check_options(trials: int, matches: int, recheck_matches: int, seed: int,
                  min_matches: int, min_matches_why: str, min_recheck: int) -> None:
    if not 1 <= int(trials) <= MAX_TRIALS:
        raise CardbalanceError("--trials must be at least 1 and at most %d (got %r)." % (MAX_TRIALS, trials))
    if not min_matches <= int(matches) <= MAX_MATCHES:
        raise CardbalanceError("--matches must be at least %d (%s) and at most %d (got %r)."
                               % (min_matches, min_matches_why, MAX_MATCHES, matches))
    if not min_recheck <= int(recheck_matches) <= MAX_MATCHES:
        raise CardbalanceError("--recheck must be at least %d and at most %d (got %r)."
                               % (min_recheck, MAX_MATCHES, recheck_matches))
    if not 0 <= int(seed) < 1 << 63:
        raise CardbalanceError("--seed must be from 0 to 2^63-1 (got %r)." % (seed,))



# ---- one game's study ------------------------------------------------------------------------

LOG_NAME, SETTINGS_NAME = "trials.jsonl", "settings.json"
ORIENTATIONS = 4  # a deal played with the tuned agent in seat 0 / seat 1, first player 0 / 1 (`four_ways`)
TUNE_STREAM, RECHECK_STREAM = 1, 2  # chunk seeds derived from --seed for the two seed sets


@dataclass(frozen=True)
class Study:
    """One game's tuning study (the module docstring).

    - `table`: the weights (a `WeightTable`); one study per group (`table.groups`), numbered
      1, 2 ... for the sampler's seed (a table without groups: one study, number 1); a trial
      log entry names its group under `group_key`.
    - `candidate_value(group, vector, chunk_seed, deals)` -> counts (`four_ways`) of a
      candidate of `group` (None without groups) on the tuning deals.
    - `recheck(vectors, chunk_seed, deals)` -> rows (`share_row` and the key `recheck_by`)
      of the winners ({group: vector}) on fresh deals.
    - `matches_per_deal`: matches one deal gives a candidate (4 ways x its opponents).
    - `about`, `rules`, `judged_on`: the words of the weights file and its provenance;
      `settings`: what else a resumed folder must agree on (rules, starting values)."""

    game: str
    table: Any
    candidate_value: Callable[..., dict]
    recheck: Callable[..., list]
    about: str
    rules: str
    judged_on: str
    recheck_by: str = "pairing"
    matches_per_deal: int = ORIENTATIONS
    min_matches_why: str = "one deal, four ways"
    group_key: str = "group"
    settings: dict = field(default_factory=dict)

    @property
    def groups(self) -> tuple:
        return self.table.groups or (None,)

    def deals(self, matches: int) -> int:
        """Deals that give at least `matches` matches."""
        return -(-int(matches) // self.matches_per_deal)

    def check_options(self, trials: int, matches: int, recheck_matches: int, seed: int) -> None:
        check_options(trials, matches, recheck_matches, seed, min_matches=self.matches_per_deal,
                      min_matches_why=self.min_matches_why, min_recheck=ORIENTATIONS)

    def _history(self, entries: list[dict], group) -> list[dict]:
        return contiguous([e for e in entries if group is None or e.get(self.group_key) == group])

    def tune(self, out, trials: int, matches: int, seed: int, recheck_matches: int, command: str,
             progress=None) -> dict:
        """Run (or resume) the study in folder `out`, write `out/tuned_weights.json`, return it.
        `matches`: matches per candidate; `recheck_matches`: matches per re-check row on fresh seeds."""
        self.check_options(trials, matches, recheck_matches, seed)
        table, deals, seed = self.table, self.deals(matches), int(seed)
        settings = {"game": self.game, "seed": seed, "matches": int(matches), **self.settings,
                    "weights": list(table.names), "ranges": {k: list(v) for k, v in table.ranges.items()}}
        with tuning_folder(out, SETTINGS_NAME, settings, command) as out:  # checked, locked, ours
            log_path = out / LOG_NAME
            entries = read_log(log_path, repair=True)
            tune_seed, recheck_seed = match_seed(seed, TUNE_STREAM), match_seed(seed, RECHECK_STREAM)
            best, baseline = {}, {}
            for study, group in enumerate(self.groups, 1):
                history = self._history(entries, group)
                while len(history) < trials:
                    params = propose(seed, study, history, table.ranges, table.default_dict())
                    result = self.candidate_value(group, table.check(params, "candidate"), tune_seed, deals)
                    entry = {**({self.group_key: group} if group is not None else {}), "trial": len(history),
                             "params": params, **result, "value": decided_share(result)}
                    append_log(log_path, entry)
                    history.append(entry)
                    if progress is not None:
                        progress(group or self.game, entry, best_entry(history[:trials]))
                best[group], baseline[group] = best_entry(history[:trials]), history[0]["value"]
            vectors = {group: table.check(entry["params"], "best trial of %s" % (group or self.game))
                       for group, entry in best.items()}
            recheck_deals = self.deals_of_recheck(recheck_matches)
            rows = self.recheck(vectors, recheck_seed, recheck_deals)
            by = self.recheck_by
            values = {group: {"best_trial": entry["trial"], "best": round(entry["value"], 4),
                              "greedy_baseline": round(baseline[group], 4)} for group, entry in best.items()}
            document = {"about": self.about, "weights": table.document_weights(vectors), "provenance": {
                "game": self.game,
                "rules": self.rules,
                "opponent": "greedy",
                "judged_on": self.judged_on,
                ("trials_per_%s" % self.group_key if table.groups else "trials"): int(trials),
                "matches_per_trial": int(deals * self.matches_per_deal),
                "seed": seed,
                "tuning_chunk_seed": int(tune_seed),
                "recheck_chunk_seed": int(recheck_seed),
                "optimizer": optimizer_text("(seed, %s, trial)" % self.group_key if table.groups else "(seed, trial)"),
                "optimizer_version": optimizer_version(),
                "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
                "command": command,
                "tuning_value": values if table.groups else values[None],
                "recheck": {"by": by, "matches_per_%s" % by: int(recheck_deals * ORIENTATIONS),
                            "interval": "95 % Wilson, on decided matches", by + "s": rows},
            }}
            write_atomic(out / table.file_name, json.dumps(document, indent=2) + "\n")
            return document

    @staticmethod
    def deals_of_recheck(matches: int) -> int:
        return -(-int(matches) // ORIENTATIONS)

    def summary(self, out) -> list[dict]:
        """The logged trials of a run folder, in order (for tests and inspection)."""
        return sorted(read_log(Path(out) / LOG_NAME), key=lambda e: (str(e.get(self.group_key, "")), e["trial"]))
