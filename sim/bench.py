"""`cardbalance bench`: how fast the engines are, measured in one run.

For each value of the game's choice dimensions (Faction War: each pairing),
its per-seat dimensions at their declared single value (or the command
line's), seat 0 first, and each mirror strategy pair (random:random,
greedy:greedy) it measures matches per second on one core for the numba
engine (`GameSpec.play_batch`) and for the plain-Python reference engine
(`GameSpec.reference_play_match`, one match per call) on the same
cells, and their ratio; then matches per second on all cores (the one
executor of sweep and compare, `sim/executor.py`, playing the sweep's own
chunk task, workers already warm); the game's agents, if it declares them
(`GameSpec.extra["bench_agents"]`: matches/s/core and decisions/s per agent,
search agents at their default budgets, and the random-rollout speed: the
mean over fresh matches and the fastest repeat of the same rollouts,
`sim/bench_timing.rollout_rates`); the
numba compile time
cold (a fresh interpreter with an empty `NUMBA_CACHE_DIR`) and cached (a
fresh interpreter with the normal cache) of the first measured cell, and cold
for each agent the game names in `GameSpec.extra["bench_compile_strategies"]`
(agents compiled into a loop of their own, e.g. Faction War's search agents);
and the peak resident memory.

The per-core rates (both engines, the agents, the rollouts) count this
process's CPU time (`time.process_time`), not the wall clock: on a machine
shared with other jobs a wall-clock rate measures the share the scheduler
gave the bench, not the engine. The all-cores rate, the scaling run and the
compile probes are wall-clock times, since waiting is what they measure.

Trade-off: each rate is measured by repeating batches until a time budget
is spent (`seconds`), so the bench has a predictable run time on any
machine, at the price of noisier numbers for very slow engines; the number
of matches behind every rate is reported next to it. The result keeps every
timing and rate unrounded (a few-millisecond timing rounded to 3 decimals
is off by 10 %); only `format_report` rounds, for display.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

from sim.errors import CardbalanceError
from sim.registry import CHOICE, PER_SEAT, SEAT, get_game
from sim.executor import Chunk, Executor
from sim.sweep.runner import peak_rss_bytes, play_aggregate

BENCH_STRATEGIES = ("random", "greedy")
DEFAULT_SECONDS = 1.0
FIRST_BATCH = 32
ROOT_SEED = 2024
COMPILE_TIMEOUT_S = 600


def _rate_numba(game, rules_array, cell_array, seconds: float) -> tuple[float, int]:
    """(matches/s, matches) of play_batch on this core, batches doubling until `seconds`."""
    game.play_batch(rules_array, cell_array, np.uint64(ROOT_SEED), 0, 1)  # compile or load cache
    played, batch, started = 0, FIRST_BATCH, time.process_time()
    while True:
        game.play_batch(rules_array, cell_array, np.uint64(ROOT_SEED), played, batch)
        played += batch
        elapsed = time.process_time() - started
        if elapsed >= seconds:
            return played / elapsed, played
        batch = min(batch * 2, max(FIRST_BATCH, int(played / elapsed * (seconds - elapsed)) + 1))


def _rate_reference(reference, rules, cell_array, seconds: float) -> tuple[float, int]:
    """(matches/s, matches) of the reference engine on this core, one match per call, after one
    untimed match, as `_rate_numba` does: a reference loop may call compiled code (the Novel TCG's
    reference loop asks the numba policies), whose first call loads or compiles it."""
    from sim.rng import match_seed
    reference(rules, cell_array, match_seed(ROOT_SEED, 0))
    played, started = 0, time.process_time()
    while True:
        reference(rules, cell_array, match_seed(ROOT_SEED, played))
        played += 1
        elapsed = time.process_time() - started
        if elapsed >= seconds:
            return played / elapsed, played


def _bench_chunks(game, cells, count: int, size: int, offset: int = 0) -> list[Chunk]:
    """`count` chunks of `size` matches, the cells in turn (chunk numbers from `offset`)."""
    chunks = []
    for k in range(count):
        rules_array, cell_array = cells[k % len(cells)]
        chunks.append(Chunk(k % len(cells), offset + k, size, play_aggregate, (game.play_batch, rules_array, cell_array)))
    return chunks


def _rate_all_cores(game, cells, jobs: int, seconds: float, per_core_rate: float) -> tuple[float, int, int]:
    """(matches/s, matches, workers) over all cores, after a warm-up that starts the workers."""
    import joblib
    workers = joblib.cpu_count() if jobs == -1 else jobs
    # chunks of about 0.1 s each, enough of them to keep every worker busy for `seconds`
    chunk = max(1, int(per_core_rate * 0.1))
    n_chunks = max(workers * 2, int(round(seconds / 0.1)) * workers)
    with Executor(ROOT_SEED, workers) as pool:  # the sweep's executor: same tasks, same pool
        pool.run_all(_bench_chunks(game, cells, workers * 2, chunk, 10**6))  # start the workers, load the kernels
        started = time.perf_counter()
        results = pool.run_all(_bench_chunks(game, cells, n_chunks, chunk))
        elapsed = time.perf_counter() - started
    played = sum(int(done.value[0]) for done in results.values())
    return played / elapsed, played, workers


SCALING_CHUNK = 2000  # matches per task of the scaling measurement


def _scaling(game, cells, workers: int, n_matches: int) -> dict:
    """Wall time of the same `n_matches` (cells in turn, fixed chunks) on 1 worker and on
    `workers`: the speed-up a sweep gets from more cores, start-up excluded."""
    n_chunks = max(1, -(-n_matches // SCALING_CHUNK))
    seconds = {}
    for n_jobs in (1, workers):
        with Executor(ROOT_SEED, n_jobs) as pool:
            pool.run_all(_bench_chunks(game, cells, 2 * n_jobs, 1, 10**6))  # start the workers, load the kernels
            started = time.perf_counter()
            results = pool.run_all(_bench_chunks(game, cells, n_chunks, SCALING_CHUNK))
            seconds[n_jobs] = time.perf_counter() - started
    played = sum(int(done.value[0]) for done in results.values())
    return {"matches": played, "workers": workers, "one_worker_s": seconds[1],
            "all_workers_s": seconds[workers], "speedup": seconds[1] / seconds[workers]}


_COMPILE_PROBE = """
import json, sys, time
sys.path[:0] = {path!r}
started = time.perf_counter()
import importlib
for module in {modules!r}:
    importlib.import_module(module)
from sim.registry import CHOICE, PER_SEAT, SEAT, get_game
import numpy as np
game = get_game({game!r})
rules = game.load_rules({rules!r})
cell = np.array({cell!r}, dtype=np.int64)
imported = time.perf_counter()
game.play_batch(rules.to_array(), cell, np.uint64(1), 0, 1)
done = time.perf_counter()
print(json.dumps({{"import_s": imported - started, "first_batch_s": done - imported}}))
"""


def _compile_probe(game, rules_name: str, cell_array, cold: bool) -> dict:
    """Import time and first-batch time (compile or cache load) in a fresh interpreter."""
    code = _COMPILE_PROBE.format(path=[p for p in sys.path if p], modules=list(game.modules), game=game.name,
                                 rules=rules_name, cell=[int(v) for v in cell_array])
    env = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix="cardbalance-numba-cold-") as empty_cache:
        if cold:
            env["NUMBA_CACHE_DIR"] = empty_cache
        try:
            out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                                 timeout=COMPILE_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            return {"error": "timed out after %d s" % COMPILE_TIMEOUT_S}
    if out.returncode != 0:
        last = (out.stderr.strip().splitlines() or ["exit code %d" % out.returncode])[-1]
        return {"error": last}
    return json.loads(out.stdout.strip().splitlines()[-1])


def bench_cells(game, choices: dict | None = None, values: dict | None = None) -> list[dict]:
    """{dimension: value} of every measured cell: each value of every choice dimension
    (or those in `choices`), every other dimension at `values` or its single value,
    seat 0 first."""
    choices, values = dict(choices or {}), dict(values or {})
    combos = [{}]
    for dimension in game.dimensions:
        if dimension.kind == CHOICE:
            options = [dimension.check(v) for v in choices.get(dimension.name) or dimension.values]
        elif dimension.kind == SEAT:
            options = [dimension.check(values.get(dimension.name, 0))]
        else:
            options = [dimension.check(values.get(dimension.name, dimension.single))]
        combos = [{**combo, dimension.name: option} for combo in combos for option in options]
    return combos


def run_bench(game_name: str | None = None, seconds: float = DEFAULT_SECONDS, reference_seconds: float | None = None,
              choices: dict | None = None, strategies=BENCH_STRATEGIES, values: dict | None = None,
              rules_name: str = "default", jobs: int = -1, all_cores_seconds: float = 3.0,
              compile_times: bool = True, scaling_matches: int = 0, agent_seconds: float = 1.0) -> dict:
    """Measure everything; returns a JSON-ready dict (see `format_report`).

    `choices`: {choice dimension: values to measure}; `values`: {other dimension: value}."""
    game = get_game(game_name)
    for option, value in (("--seconds", seconds), ("--all-cores-seconds", all_cores_seconds),
                          ("--agent-seconds", agent_seconds)):
        if not (math.isfinite(value) and value > 0):  # nan or inf would never end a measurement
            raise CardbalanceError("%s must be a positive, finite number of seconds (got %g)." % (option, value))
    if jobs == 0 or jobs < -1:
        raise CardbalanceError("--jobs must be a positive number of workers or -1 for all cores (got %d)." % jobs)
    if isinstance(scaling_matches, bool) or not isinstance(scaling_matches, int) or scaling_matches < 0:
        raise CardbalanceError("--scaling-matches must be 0 (skip) or a positive number of matches (got %r)."
                               % (scaling_matches,))
    reference_seconds = seconds if reference_seconds is None else reference_seconds
    cell_values = bench_cells(game, choices, values)
    strategy_ids = {name: game.strategy_id(name) for name in strategies}
    rules = game.load_rules(rules_name)
    rules_array = np.ascontiguousarray(rules.to_array())
    reference = game.reference_play_match
    fixed = {d.name: d.label(cell_values[0][d.name]) for d in game.dimensions if d.kind != CHOICE}

    started = time.perf_counter()
    rows, cells = [], []
    for values_of_cell in cell_values:
        labels = {d.name: d.label(values_of_cell[d.name]) for d in game.dimensions if d.kind == CHOICE}
        for name, strategy in strategy_ids.items():
            cell_array = np.ascontiguousarray(game.cell_array(values_of_cell, strategy, strategy))
            cells.append((rules_array, cell_array))
            numba_rate, numba_matches = _rate_numba(game, rules_array, cell_array, seconds)
            row = {**labels, "cell": " ".join(labels.values()), "strategies": "%s:%s" % (name, name),
                   "numba_matches_per_s": numba_rate, "numba_matches": numba_matches,
                   "reference_matches_per_s": None, "reference_matches": 0, "ratio": None}
            if reference is not None:
                reference_rate, reference_matches = _rate_reference(reference, rules, cell_array, reference_seconds)
                row.update(reference_matches_per_s=reference_rate, reference_matches=reference_matches,
                           ratio=numba_rate / reference_rate)
            rows.append(row)
    per_core = float(np.mean([row["numba_matches_per_s"] for row in rows]))
    all_rate, all_matches, workers = _rate_all_cores(game, cells, jobs, all_cores_seconds, per_core)
    scaling = _scaling(game, cells, workers, scaling_matches) if scaling_matches else None
    compile_info = {}
    if compile_times:
        compile_info = {"cold": _compile_probe(game, rules_name, cells[0][1], cold=True),
                        "cached": _compile_probe(game, rules_name, cells[0][1], cold=False)}
        # a game whose agents compile separately (Faction War: the search loop) names them;
        # each gets its own cold probe on a mirror cell of the first measured cell
        for name in game.extra.get("bench_compile_strategies", ()):
            strategy = game.strategy_id(name)
            compile_info["cold " + name] = _compile_probe(
                game, rules_name, game.cell_array(cell_values[0], strategy, strategy), cold=True)
    # a game's agents (GameSpec.extra["bench_agents"]): cost per match and decision, rollout speed
    agents = game.extra.get("bench_agents")
    agent_info = agents(rules_array, agent_seconds) if agents is not None else None
    import numba
    return {
        "game": game.name, "behaviour_version": game.behaviour_version, "rules": rules_name,
        "rules_hash": rules.stable_hash(), **fixed, "seconds_per_measurement": seconds,
        "per_core": rows,
        "reference_engine": "available" if reference is not None else
        "not provided by this game (GameSpec.reference_play_match)",
        "all_cores": {"workers": workers, "matches_per_s": all_rate, "matches": all_matches,
                      "cells": "every (cell, mirror strategy) above, in turn"},
        "scaling": scaling,
        "agents": agent_info,
        "compile": compile_info,
        "peak_rss_bytes": peak_rss_bytes(),
        "wall_s": time.perf_counter() - started,
        "machine": {"cpu_count": os.cpu_count(), "python": sys.version.split()[0], "numba": numba.__version__,
                    "numpy": np.__version__},
    }


def _mib(value) -> str:
    return "%.0f MiB" % (value / 2**20)


def format_report(result: dict) -> str:
    """The bench as a plain-text table."""
    game = get_game(result["game"])
    fixed = "".join(", %s %s" % (d.name, result[d.name]) for d in game.dimensions if d.kind == PER_SEAT)
    lines = ["cardbalance bench: %s (behaviour %d, rules %s %s)%s, %.1f CPU s per measurement" % (
        result["game"], result["behaviour_version"], result["rules"], result["rules_hash"], fixed,
        result["seconds_per_measurement"]),
        "per-core rates count CPU seconds of one process (robust to other jobs); all-cores and compile times are wall-clock"]
    choice = " ".join(d.name for d in game.dimensions if d.kind == CHOICE) or "cell"
    header = "%-16s %-16s %16s %16s %8s" % (choice, "strategies", "numba m/s/core", "reference m/s", "ratio")
    lines += ["", header, "-" * len(header)]
    for row in result["per_core"]:
        reference = "-" if row["reference_matches_per_s"] is None else "%.1f" % row["reference_matches_per_s"]
        ratio = "-" if row["ratio"] is None else "%.0fx" % row["ratio"]
        lines.append("%-16s %-16s %16.0f %16s %8s" % (row["cell"], row["strategies"], row["numba_matches_per_s"],
                                                        reference, ratio))
    if result["reference_engine"] != "available":
        lines.append("reference engine: %s" % result["reference_engine"])
    everything = result["all_cores"]
    lines += ["", "all cores: %.0f matches/s with %d workers (%d matches)" % (
        everything["matches_per_s"], everything["workers"], everything["matches"])]
    scaling = result.get("scaling")
    if scaling:
        lines.append("scaling: %d matches in %.1f s on 1 worker, %.1f s on %d: %.2fx" % (
            scaling["matches"], scaling["one_worker_s"], scaling["all_workers_s"], scaling["workers"],
            scaling["speedup"]))
    agents = result.get("agents")
    if agents:
        header = "%-16s %-10s %14s %14s %12s" % ("agent", "vs", "matches/s/core", "decisions/s", "s/match")
        lines += ["", header, "-" * len(header)]
        for row in agents["agents"]:
            lines.append("%-16s %-10s %14.1f %14.0f %12.4f" % (row["agent"], row["opponent"], row["matches_per_s"],
                                                              row["decisions_per_s"], row["s_per_match"]))
        rollout = agents["rollout"]
        lines.append("random rollouts: %.2f million actions/s/core (mean: %d rollouts, %d actions); "
                     "%.2f million on the fastest of %d repeats of the same %d rollouts (the core undisturbed)" % (
                         rollout["actions_per_s"] / 1e6, rollout["rollouts"], rollout["actions"],
                         rollout["fastest_actions_per_s"] / 1e6, rollout["fastest_repeats"],
                         rollout["fastest_batch_rollouts"]))
        lines.append("")
    for kind, info in result["compile"].items():  # cold, cached, then any "cold <strategy>"
        if "error" in info:
            lines.append("compile %s: failed (%s)" % (kind, info["error"]))
        else:
            lines.append("compile %-6s first batch %.2f s (after %.2f s of imports)" % (
                kind + ":", info["first_batch_s"], info["import_s"]))
    if any(kind.startswith("cold ") for kind in result["compile"]):
        lines.append("(cold: the first measured cell's loop; cold <agent>: a mirror cell of that agent, "
                     "whose loop compiles separately)")
    rss = result["peak_rss_bytes"]
    lines.append("peak RSS: this process %s, largest finished child (compile probes) %s" % (_mib(rss["self"]), _mib(rss["children"])))
    lines.append("bench wall time: %.1f s" % result["wall_s"])
    return "\n".join(lines)


def to_json(result: dict) -> str:
    return json.dumps(result, indent=2)
