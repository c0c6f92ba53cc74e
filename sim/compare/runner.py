"""Play two rule sets on one grid with common random numbers, batch by batch.

Match i of a cell is played under BASE and under TWEAK from the same match
seed (same shuffled decks, seats and generator state): the game's
`play_paired_batch` does both inside one kernel call and keeps only paired
sums (sim/aggregate.py). Seeds follow the sweep's scheme
(`sim.sweep.seeds.chunk_seed(root, cell, batch)`, match i of a batch from
`sim.rng.match_seed`), so batch b of cell c is the same matches whatever
the number of jobs, the backend and whatever order they finish in: batches
run on the one executor (`sim/executor.py`: joblib loky, or dask), and with a
resume folder every finished batch is kept, so a killed comparison run again
plays only the batches it lacks.

Sequential stopping: every cell gets one batch per round; the rounds from
`min_matches` to `max_matches` are the planned looks. At each look the
comparison table is rebuilt and every open gate comparison tested against
group-sequential bounds (analysis/sequential.py, analysis/decisions.py), so
each decision's error stays at 1 − confidence however many looks are taken;
a decided comparison stays decided. The run stops when all gates are decided
and at least `min_matches` per cell were played, or at `max_matches` per
cell; an expression still undecided then is *inconclusive*, never a pass.
`adjust` corrects the family of comparisons (Holm by default).

Against a stored baseline (sim/compare/baseline.py) there is nothing to pair
with, so only TWEAK is played (with `play_batch`, on the baseline's grid and
seed) and every delta is an unpaired difference.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from statistics import NormalDist
from typing import Any, Callable

import numpy as np
import pandas as pd

from analysis import decisions, paired, sequential
from analysis import gate as gates
from analysis.dimensions import add_roles_to_cells
from sim import aggregate as agg
from sim.errors import CardbalanceError
from sim.executor import Chunk, ChunkStore, Executor
from sim.inert import compare_note, rules_from_values
from sim.registry import CHOICE, PER_SEAT, GameSpec, get_game
from sim.sweep.grid import SweepSpec, build_plan, parse_sweep
from sim.sweep.runfolder import write_json_atomic
from sim.sweep.vary import load_named

DEFAULT_BATCH = 1000
DEFAULT_MAX_MATCHES = 20_000
DEFAULT_SEED = 1
DEFAULT_CONFIDENCE = 0.95


def default_grid_spec(game: GameSpec, seed: int = DEFAULT_SEED) -> SweepSpec:
    """The built-in compare grid: every value of each of the game's choice
    dimensions (e.g. every pairing), each per-seat dimension at its declared
    single value (e.g. life 50, for both arms), greedy vs greedy (or the game's first strategy), both
    first-player orders."""
    strategies = game.strategy_names()
    strategy = "greedy" if "greedy" in strategies else strategies[0]
    data = {"name": "compare-default", "game": game.name}
    for dimension in game.dimensions:
        if dimension.kind == CHOICE:
            data[dimension.sweep_key] = list(dimension.values)
        elif dimension.kind == PER_SEAT:
            a, b = dimension.single
            data[dimension.sweep_key] = [a] if a == b else []
            data[dimension.sweep_key + "_pairs"] = [] if a == b else [[a, b]]
    data.update({"strategies": ["%s:%s" % (strategy, strategy)], "rules": ["default"], "seed": seed})
    return parse_sweep(data, "default compare grid")


def _at_skill(spec: SweepSpec, skill: str | None, baseline) -> SweepSpec:
    """The grid at one skill level (`--skill`); a baseline keeps its own, which must match."""
    if skill is None:
        return spec
    from sim.sweep.grid import skill_pairs
    wanted = skill_pairs([skill], "--skill", get_game(spec.game))
    if baseline is not None:
        if tuple(spec.strategies) != wanted:
            raise CardbalanceError("--skill %s: the baseline was written at %s; write it again with --skill %s."
                                   % (skill, ", ".join(spec.strategies), skill))
        return spec
    return spec.with_overrides(skills=[skill])


@dataclass(frozen=True)
class Arm:
    """One side of a comparison: where its rules came from and the rules object."""
    source: str
    rules: Any

    def describe(self) -> dict:
        return {"source": self.source, "hash": self.rules.stable_hash(), "values": self.rules.as_dict(),
                "differences": self.rules.differences_from_default()}


@dataclass(frozen=True)
class GateSpec:
    text: str
    node: Any


@dataclass
class CompareSetup:
    """A checked comparison: grid, arms, gates and the stopping rule."""
    game: GameSpec
    cells: list[dict]
    cell_arrays: list[np.ndarray]
    base: Arm | None
    tweak: Arm | None
    seed: int = DEFAULT_SEED
    batch: int = DEFAULT_BATCH
    min_matches: int = DEFAULT_BATCH
    max_matches: int = DEFAULT_MAX_MATCHES
    confidence: float = DEFAULT_CONFIDENCE
    adjust: str = decisions.DEFAULT_ADJUST  # multiplicity correction over the gate comparisons
    gates: list[GateSpec] = field(default_factory=list)
    baseline: Any = None  # sim.compare.baseline.Baseline when comparing against a snapshot
    grid_source: str = "default"
    grid: dict = field(default_factory=dict)  # the grid's sweep spec (its `rules` unused)
    notes: list = field(default_factory=list)

    @property
    def z(self) -> float:
        return NormalDist().inv_cdf(0.5 + self.confidence / 2.0)

    @property
    def metrics(self) -> dict[str, paired.Metric]:
        return paired.metric_catalogue(self.game.end_types, self.game.special_end_types)

    @property
    def role_cells(self) -> list[dict]:
        """The cells with the roles analysis reads (analysis/dimensions.py)."""
        return add_roles_to_cells(self.cells, [d.describe() for d in self.game.dimensions])

    @property
    def scopes(self) -> list[str]:
        return list(paired.scope_cells(self.role_cells))

    @property
    def mode(self) -> str:
        if self.baseline is not None:
            return "baseline"
        return "paired" if self.tweak is not None else "single"


def parse_gates(expressions, scopes, metrics) -> list[GateSpec]:
    """Parse and check every --fail-if expression before anything is played."""
    out = []
    for text in expressions or ():
        node = gates.parse(text)
        for comparison in gates.comparisons(node):
            new = paired.RENAMED_METRICS.get(comparison.field.metric)
            if new is not None and comparison.field.metric not in metrics:
                raise gates.GateSyntaxError(
                    "gate expression %r: metric '%s' was renamed '%s' (it counts a draw as not won: over all "
                    "matches); write %s.%s.%s." % (text, comparison.field.metric, new, comparison.field.scope, new,
                                                   comparison.field.stat))
        gates.check_fields(node, text, scopes, metrics)
        out.append(GateSpec(text, node))
    return out


def _check_counts(batch: int | None, min_matches: int | None, max_matches: int, confidence: float) -> int:
    for name, value in (("batch", batch), ("max-matches", max_matches)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise CardbalanceError("--%s must be a positive integer (got %r)." % (name, value))
    if min_matches is None:
        min_matches = min(batch, max_matches)
    if isinstance(min_matches, bool) or not isinstance(min_matches, int) or not 1 <= min_matches <= max_matches:
        raise CardbalanceError("--min-matches must be an integer from 1 to --max-matches (%d; got %r)."
                               % (max_matches, min_matches))
    if not 0.5 <= confidence < 1.0:
        raise CardbalanceError("--confidence must be at least 0.5 and below 1 (e.g. 0.95; got %r)." % confidence)
    return min_matches


def prepare(base_source: str | None, tweak_source: str | None, *, grid: SweepSpec | None = None,
            game: str | None = None, seed: int | None = None, fail_if=(), batch: int | None = None,
            min_matches: int | None = None, max_matches: int = DEFAULT_MAX_MATCHES,
            confidence: float = DEFAULT_CONFIDENCE, baseline=None, grid_source: str = "default",
            adjust: str = decisions.DEFAULT_ADJUST, skill: str | None = None) -> CompareSetup:
    """Check everything (rules, grid, gates, counts) and return a setup to `run`.

    Modes: BASE and TWEAK (paired); BASE alone (to write a baseline); TWEAK
    against `baseline` (a loaded snapshot, whose grid and seed are used).
    `skill` (AGENT or STRONG/WEAK, the sweep files' `skills` notation) replaces the
    grid's strategies: the gate is taken at that skill level.
    """
    if batch is None:  # a baseline's batch size is part of its match seeds: reuse it
        batch = baseline.batch if baseline is not None else DEFAULT_BATCH
    if min_matches is None and baseline is not None:  # as many matches as the snapshot, by default
        min_matches = min(int(baseline.matches_per_cell.max()), max_matches)
    min_matches = _check_counts(batch, min_matches, max_matches, confidence)
    adjust = decisions.check_adjust(adjust)
    if baseline is not None:
        if grid is not None:
            raise CardbalanceError("--sweep cannot be combined with --baseline (the baseline's own grid is used).")
        spec = baseline.grid_spec()
        game_spec = baseline.check_game(get_game(spec.game))
        seed = baseline.seed if seed is None else seed
    else:
        if grid is None:
            game_spec = get_game(game)
            spec = default_grid_spec(game_spec)
        else:
            spec = grid
            if game is not None and game != spec.game:
                raise CardbalanceError("--game %s differs from the sweep file's game %s." % (game, spec.game))
            game_spec = get_game(spec.game)
        seed = spec.seed if seed is None else seed
    spec = _at_skill(spec, skill, baseline)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise CardbalanceError("--seed must be an integer from 0 to 2^63-1 (got %r)." % (seed,))
    # The sweep file's `rules` list is ignored: the two arms replace it. Expand the
    # grid once, with the default rules, to reuse the sweep's checks and cell order.
    plan = build_plan(parse_sweep({**spec.as_dict(), "rules": ["default"]}, "compare grid"), game_spec)
    cells = [{key: value for key, value in cell.as_dict().items() if key != "rules"} for cell in plan.cells]
    # a rules name may be a [vary] variant's, "advanced+club_multiplier=3" (sim/sweep/vary.py)
    base = Arm(base_source, load_named(game_spec.load_rules, base_source)) if base_source is not None else None
    tweak = Arm(tweak_source, load_named(game_spec.load_rules, tweak_source)) if tweak_source is not None else None
    if base is None and baseline is None:
        raise CardbalanceError("name BASE rules (a preset or TOML file), or give --baseline FILE.")
    if base is not None and tweak is not None and game_spec.play_paired_batch is None:
        raise CardbalanceError("game %s has no paired kernel (play_paired_batch) yet." % game_spec.name)
    # Both arms play the same cells: grid values (e.g. a starting life) come only
    # from the grid, never from a rules file, so a comparison changes rules alone.
    notes = []
    if baseline is not None:
        if len(cells) != len(baseline.cells) or cells != [_strip_tweak(c) for c in baseline.cells]:
            raise CardbalanceError("baseline %s: its grid no longer expands to the cells it stored; write a new "
                                   "baseline." % baseline.path)
        cells = [_strip_tweak(c) for c in baseline.cells]
    grid_values = [{d.name: d.value_from_columns(cell) for d in game_spec.dimensions} for cell in cells]
    if tweak is not None and base is not None:
        inert_note = compare_note(base.rules, tweak.rules, grid_values)
    elif tweak is not None and baseline is not None:
        inert_note = baseline_note(baseline, tweak.rules, grid_values)
    else:
        inert_note = None
    if inert_note:
        notes.append(inert_note)  # said before any match: the tweak changes what cannot act here
    base_arrays = [_cell_array(game_spec, cell) for cell in cells]
    setup = CompareSetup(game=game_spec, cells=cells, cell_arrays=base_arrays, base=base, tweak=tweak, seed=seed,
                         batch=batch, min_matches=min_matches, max_matches=max_matches, confidence=confidence,
                         baseline=baseline, grid_source=grid_source, grid=spec.as_dict(),
                         notes=notes,
                         adjust=adjust)
    if fail_if and tweak is None:
        raise CardbalanceError("--fail-if needs TWEAK rules to compare (or --baseline FILE with TWEAK).")
    setup.gates = parse_gates(fail_if, setup.scopes, list(setup.metrics))
    return setup


def baseline_note(baseline, tweak_rules, grid_values) -> str | None:
    """The inert note against a snapshot: its BASE rules rebuilt from the values it stored (None when
    they no longer load: a rules key renamed since, whose baseline check_game refuses anyway)."""
    base_rules = rules_from_values(tweak_rules, baseline.rules_info.get("values") or {})
    if base_rules is None:
        return None
    return compare_note(base_rules, tweak_rules, grid_values, against="the baseline's")


def _strip_tweak(cell: dict) -> dict:
    # Baselines written while a rules file could set the lives stored TWEAK's own as tweak_* keys.
    return {k: v for k, v in cell.items() if not k.startswith("tweak_")}


def _cell_array(game: GameSpec, cell: dict):
    values = {}
    for dimension in game.dimensions:
        values[dimension.name] = dimension.check(dimension.value_from_columns(cell), "compare grid")
    return game.cell_array(values, game.strategy_id(cell["strategy0"]), game.strategy_id(cell["strategy1"]))


# ---- playing --------------------------------------------------------------------

# Both tasks play their chunk in slices between which a worker checks that its parent
# lives (sim/worker_lifetime.py): paired sums and aggregate vectors add over slices.
def _paired_task(play_paired: Callable, rules_a, rules_b, cell_array, seed, n_matches):
    from sim.worker_lifetime import play_in_slices
    return play_in_slices(lambda start, count: np.asarray(
        play_paired(rules_a, rules_b, cell_array, seed, start, count)), n_matches)


def _single_task(play: Callable, rules_array, cell_array, seed, n_matches, n_end_types):
    from sim.worker_lifetime import play_in_slices
    vector = play_in_slices(lambda start, count: np.asarray(
        play(rules_array, cell_array, seed, start, count), dtype=np.int64), n_matches)
    return paired.arm_sums_from_aggregate(vector, n_end_types)


@dataclass
class CompareResult:
    setup: CompareSetup
    matches_per_cell: int
    rounds: int
    stop_reason: str
    table: pd.DataFrame
    gate_results: list[dict]
    history: list[dict]
    gate_family: str = ""                 # how many gate decisions, at what error rate
    sums: np.ndarray | None = None        # paired mode: (cells, metrics, 5)
    arm_sums: np.ndarray | None = None    # single/baseline mode: the played arm, (cells, metrics, 2)
    seconds: float = 0.0

    @property
    def exit_code(self) -> int:
        """0 pass, 1 a gate failed, 3 a gate still undecided at the cap."""
        verdicts = [result["verdict"] for result in self.gate_results]
        if "fail" in verdicts:
            return 1
        if "inconclusive" in verdicts:
            return 3
        return 0

    @property
    def changed_no_match(self) -> bool | None:
        """Paired: whether every pair had the same winner, end type and length in both arms, i.e.
        Σ(tweak − base)² = Σa² + Σb² − 2Σab is 0 for every metric of every cell; None unpaired."""
        if self.sums is None:
            return None
        squared_differences = (self.sums[..., agg.P_SQ_A] + self.sums[..., agg.P_SQ_B]
                               - 2 * self.sums[..., agg.P_CROSS])
        return bool((squared_differences == 0).all())

    @property
    def total_matches(self) -> int:
        return self.matches_per_cell * len(self.setup.cells)

    def base_arm_sums(self) -> np.ndarray:
        """(cells, metrics, 2) Σx, Σx² of BASE (for --write-baseline)."""
        if self.sums is not None:
            return paired.arm_sums_from_paired(self.sums, "base")
        return self.arm_sums


def _table(setup: CompareSetup, n: np.ndarray, sums, arm_sums) -> pd.DataFrame:
    metrics = setup.metrics
    if setup.mode == "paired":
        return paired.paired_table(setup.role_cells, n, sums, metrics, setup.z)
    if setup.mode == "baseline":
        baseline = setup.baseline
        return paired.unpaired_table(setup.role_cells, baseline.matches_per_cell, baseline.sums, n, arm_sums, metrics, setup.z)
    # single arm: the played arm is BASE; report it against itself (delta 0, no gates).
    return paired.unpaired_table(setup.role_cells, n, arm_sums, n, arm_sums, metrics, setup.z)


def plan_looks(setup: CompareSetup) -> list[int]:
    """Matches per cell at each look where a gate may be decided (fixed before playing)."""
    return sequential.planned_looks(setup.batch, setup.min_matches, setup.max_matches)


def gate_family(setup: CompareSetup) -> decisions.GateFamily:
    """The run's gate comparisons with their group-sequential plan (analysis/sequential.py)."""
    baseline_matches = None
    if setup.baseline is not None:  # information grows as 1/(1/N_base + 1/n): the snapshot is fixed
        baseline_matches = int(np.min(setup.baseline.matches_per_cell))
    probe = decisions.GateFamily(setup.gates, None, setup.adjust)
    plan = sequential.Plan(plan_looks(setup), setup.max_matches, 1.0 - setup.confidence,
                           baseline_matches=baseline_matches, family_size=probe.size)
    return decisions.GateFamily(setup.gates, plan, setup.adjust)


def _update_gates(family: decisions.GateFamily, setup: CompareSetup, table: pd.DataFrame, matches: int) -> list[dict]:
    look = family.plan.look_index(matches)
    if look is not None and family.size:
        family.update(look, matches, lambda f: paired.lookup_estimate(table, f.scope, f.metric, f.stat))
    return family.results(setup.confidence)


def resume_store(setup: CompareSetup, folder) -> ChunkStore:
    """`--resume DIR`: every finished batch of this comparison is kept in DIR (one file
    per cell and round); running the same comparison again plays only the missing
    ones. DIR remembers what it belongs to and refuses another comparison."""
    folder = Path(folder)
    identity = {"game": setup.game.name, "behaviour_version": setup.game.behaviour_version, "mode": setup.mode,
                "base": setup.base.rules.stable_hash() if setup.base is not None else None,
                "tweak": setup.tweak.rules.stable_hash() if setup.tweak is not None else None,
                "seed": setup.seed, "batch": setup.batch, "cells": setup.cells}
    marker = folder / "compare.json"
    if marker.is_file():
        try:
            stored = json.loads(marker.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            stored = None
        if stored != json.loads(json.dumps(identity, default=str)):
            raise CardbalanceError("--resume %s holds the batches of another comparison (other rules, grid, seed "
                                   "or batch); give a new folder." % folder)
    else:
        folder.mkdir(parents=True, exist_ok=True)
        write_json_atomic(marker, identity)
    n_metrics = agg.paired_metric_count(len(setup.game.end_types))
    shape = (n_metrics, agg.PAIRED_STATS) if setup.mode == "paired" else (n_metrics, 2)
    return ChunkStore(folder, name="c%06d-k%06d-n%d.npy", with_size=True, valid=lambda value, size: value.shape == shape)


def run(setup: CompareSetup, n_jobs: int = 1, progress: Callable[[str], None] | None = None,
        backend: str = "loky", resume=None) -> CompareResult:
    """Play rounds of one batch per cell until the gates are decided or the cap is reached.

    Batches run on the one executor (sim/executor.py): loky or dask; with
    `resume` (a folder) finished batches are kept and reused."""
    started = time.perf_counter()
    n_cells = len(setup.cells)
    n_metrics = agg.paired_metric_count(len(setup.game.end_types))
    n = np.zeros(n_cells, dtype=np.int64)
    sums = np.zeros((n_cells, n_metrics, agg.PAIRED_STATS), dtype=np.int64) if setup.mode == "paired" else None
    arm_sums = np.zeros((n_cells, n_metrics, 2), dtype=np.int64) if setup.mode != "paired" else None
    if setup.mode == "baseline":
        played = setup.tweak
    else:
        played = setup.base
    rules_a = setup.base.rules.to_array() if setup.base is not None else None
    rules_b = setup.tweak.rules.to_array() if setup.tweak is not None else None
    played_array = played.rules.to_array()
    played_cells = setup.cell_arrays
    n_end_types = len(setup.game.end_types)
    history = []
    rounds = 0
    matches = 0
    stop_reason = ""
    store = resume_store(setup, resume) if resume is not None else None
    family = gate_family(setup)
    # Compile (or load from numba's cache) once here, as the sweep runner does, so that
    # the workers load the cached kernels instead of each compiling them at once.
    if setup.mode == "paired":
        setup.game.play_paired_batch(rules_a, rules_b, setup.cell_arrays[0], np.uint64(0), 0, 1)
    else:
        setup.game.play_batch(played_array, played_cells[0], np.uint64(0), 0, 1)
    with Executor(setup.seed, n_jobs, backend, store=store) as pool:
        while True:
            size = min(setup.batch, setup.max_matches - matches)
            chunks = []  # chunk number = round: batch b of cell c has seed chunk_seed(seed, c, b)
            for cell in range(n_cells):
                if setup.mode != "paired":
                    chunks.append(Chunk(cell, rounds, size, _single_task, (setup.game.play_batch, played_array,
                                                                           played_cells[cell]),
                                        {"n_end_types": n_end_types}))
                else:
                    chunks.append(Chunk(cell, rounds, size, _paired_task, (setup.game.play_paired_batch, rules_a,
                                                                           rules_b, setup.cell_arrays[cell])))
            for done in pool.run(chunks):
                if setup.mode == "paired":
                    sums[done.chunk.cell] += done.value
                else:
                    arm_sums[done.chunk.cell] += done.value
            n += size
            matches += size
            rounds += 1
            table = _table(setup, n, sums, arm_sums)
            gate_results = _update_gates(family, setup, table, matches)
            open_gates = [r["expression"] for r in gate_results if r["verdict"] == "inconclusive"]
            history.append({"round": rounds, "matches_per_cell": matches, "undecided": len(open_gates),
                            "failed": sum(r["verdict"] == "fail" for r in gate_results)})
            if progress is not None:
                progress("round %d: %d matches per cell, %d gate(s) undecided" % (rounds, matches, len(open_gates)))
            if matches >= setup.min_matches and not open_gates:
                stop_reason = ("every gate decided" if setup.gates else "no gate to decide: played --min-matches")
                break
            if matches >= setup.max_matches:
                stop_reason = "reached --max-matches with %d gate(s) undecided" % len(open_gates)
                break
    return CompareResult(setup=setup, matches_per_cell=matches, rounds=rounds, stop_reason=stop_reason, table=table,
                         gate_results=gate_results, history=history, sums=sums, arm_sums=arm_sums,
                         gate_family=family.statement() if setup.gates else "",
                         seconds=time.perf_counter() - started)


def result_json(result: CompareResult) -> dict:
    """Everything a machine needs: arms, grid, stopping, gates, the metric table."""
    setup = result.setup
    table = result.table.replace([math.inf, -math.inf], np.nan)
    return {
        "format": "cardbalance-compare",
        "format_version": 1,
        "game": setup.game.name,
        "behaviour_version": setup.game.behaviour_version,
        "mode": setup.mode,
        "paired": setup.mode == "paired",
        "base": setup.base.describe() if setup.base is not None else setup.baseline.rules_info,
        "tweak": setup.tweak.describe() if setup.tweak is not None else None,
        "baseline_file": str(setup.baseline.path) if setup.baseline is not None else None,
        "grid_source": setup.grid_source,
        "notes": setup.notes,
        "grid": setup.cells,
        "seed": setup.seed,
        "batch": setup.batch,
        "min_matches": setup.min_matches,
        "max_matches": setup.max_matches,
        "confidence": setup.confidence,
        "adjust": setup.adjust,
        "gate_family": result.gate_family,
        "matches_per_cell": result.matches_per_cell,
        "total_matches": result.total_matches,
        "rounds": result.rounds,
        "stop_reason": result.stop_reason,
        "history": result.history,
        "seconds": round(result.seconds, 3),
        "exit_code": result.exit_code,
        "changed_no_match": result.changed_no_match,
        "gates": result.gate_results,
        "metrics": [{k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in row.items()}
                    for row in table.to_dict(orient="records")],
    }
