"""The sweep runner: a plan's cells → chunks of matches → a run folder.

Each chunk (cell, chunk number, size) is one task: a worker calls the game's
numba `play_batch`, which plays the matches and returns only the chunk's
aggregate vector, so memory stays flat however many matches a sweep plays.
Tasks fan out through the one executor (`sim/executor.py`: joblib, loky
processes on this machine — default all cores — or a dask.distributed cluster)
and come back in any order; each is stored as a chunk file and added to its
cell's total. Integer sums do not care about order, and a chunk's seed
depends only on (root seed, cell, chunk), so results are bit-identical for
any number of jobs and either backend.

Precision targets work in rounds. Round 0 gives every cell its first
matches; after each round, a cell whose 95 % Wilson half-width (of both
seats' win rates) is still above the target gets more chunks — up to the
estimated need, at most 4× its size so far, at least one chunk — until the
target or `max_matches` is reached. A cell's decisions depend only on its
finished totals, so a resumed run takes the same decisions again.

Resume: the chunk files already in the folder are counted and skipped.
"""

from __future__ import annotations

import math
import resource
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from analysis.stats import half_width
from sim import aggregate as agg
from sim.sweep import runfolder
from sim.sweep.grid import Plan, matches_for_half_width
from sim import executor
from sim.executor import DASK_PROBE_TIMEOUT_S, Chunk, ChunkStore, Executor
from sim.executor import connect_dask  # noqa: F401  (the CLI's import)
from sim.compile_ahead import ahead_when_cold
from sim.sweep.progress import Progress
from sim.worker_lifetime import play_aggregate  # the chunk task (bench and fair import it from here too)

MAX_GROWTH = 4  # a precision round at most quadruples a cell's matches


@dataclass
class RunResult:
    run_dir: Path
    meta: dict
    totals: dict[int, np.ndarray] = field(repr=False)
    matches_played: int = 0          # by this invocation (not counting resumed chunks)
    chunks_played: int = 0
    chunks_resumed: int = 0


# ---- backends (sim/executor.py) -----------------------------------------------------

def check_dask_workers(client, plan: Plan, timeout_s: float = DASK_PROBE_TIMEOUT_S) -> None:
    """Play one match of the first cell on the cluster, or raise one clear error
    (before the run folder is created)."""
    executor.check_dask_workers(client, sweep_chunk(plan, 0, 0, 1), plan.spec.seed, timeout_s)


# ---- the task -----------------------------------------------------------------------

def sweep_chunk(plan: Plan, cell_index: int, chunk: int, size: int, rules_arrays=None, cell_arrays=None) -> Chunk:
    cell = plan.cells[cell_index]
    rules_array = rules_arrays[cell.rules] if rules_arrays else plan.rules_array(cell)
    cell_array = cell_arrays[cell_index] if cell_arrays else plan.cell_array(cell)
    return Chunk(cell_index, chunk, size, play_aggregate, (plan.game.play_batch, rules_array, cell_array),
                 deal=plan.deal(cell_index) if plan.spec.common_deals else None)


def chunk_store(run_dir: Path, vector_size: int) -> ChunkStore:
    """The run folder's chunks/ (resume bookkeeping, docs/architecture.md)."""
    def valid(vector, size):
        return vector.shape == (vector_size,) and int(vector[agg.A_MATCHES]) == size
    return ChunkStore(Path(run_dir) / runfolder.CHUNKS, valid=valid)


def chunk_sizes(target: int, chunk_size: int) -> list[int]:
    """Sizes of a cell's chunks 0, 1, ... for `target` matches."""
    full, rest = divmod(target, chunk_size)
    return [chunk_size] * full + ([rest] if rest else [])


# ---- precision ------------------------------------------------------------------------

def cell_half_width(vector: np.ndarray, n_end_types: int) -> float:
    """Largest 95 % Wilson half-width of the two seats' win rates in a cell."""
    n = int(vector[agg.A_MATCHES])
    seat0 = int(vector[agg.A_OUTCOMES:agg.A_OUTCOMES + n_end_types].sum())
    seat1 = int(vector[agg.A_OUTCOMES + n_end_types:agg.A_OUTCOMES + 2 * n_end_types].sum())
    return float(max(half_width(seat0, n), half_width(seat1, n)))


def next_target(vector: np.ndarray, target: int, precision: float, max_matches: int,
                chunk_size: int, n_end_types: int) -> int:
    """The cell's match count after the next precision round (== target: done)."""
    if target >= max_matches or cell_half_width(vector, n_end_types) <= precision:
        return target
    n = max(int(vector[agg.A_MATCHES]), 1)
    shares = [vector[agg.A_OUTCOMES + seat * n_end_types:agg.A_OUTCOMES + (seat + 1) * n_end_types].sum() / n
              for seat in (0, 1)]
    widest = max(shares, key=lambda p: p * (1 - p))
    needed = matches_for_half_width(float(widest), precision)
    wanted = max(target + chunk_size, min(needed, MAX_GROWTH * target))
    wanted = int(math.ceil(wanted / chunk_size)) * chunk_size
    return min(wanted, max_matches)


# ---- the run ---------------------------------------------------------------------------

def peak_rss_bytes() -> dict:
    """Peak resident memory of this process and of its largest finished child."""
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux
    return {"self": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale,
            "children": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * scale}


def run_sweep(plan: Plan, run_dir: Path, *, jobs: int = -1, backend: str = "loky",
              progress: str = "auto", resume: bool = False, progress_label: str = "sweep") -> RunResult:
    """Run (or continue, with resume=True) a checked plan into `run_dir`.

    For a new run the caller has created the folder (`runfolder.create_run_folder`);
    for the dask backend it has an active `distributed.Client` (`connect_dask`).
    """
    run_dir = Path(run_dir)
    game, spec = plan.game, plan.spec
    n_end, n_counters = len(game.end_types), len(game.counter_names)
    meta = runfolder.load_meta(run_dir)
    started_wall = time.time()
    started = time.perf_counter()

    rules_arrays = {name: np.ascontiguousarray(rules.to_array()) for name, rules in plan.rules.items()}
    cell_arrays = [np.ascontiguousarray(plan.cell_array(cell)) for cell in plan.cells]

    # Compile (or load from numba's cache) once here, so workers on this
    # machine load the cached kernels instead of all compiling at once; a cold
    # compile hands named parts to a second process (sim/compile_ahead.py), and
    # once the parent has them, its workers start on the freed core.
    with Executor(spec.seed, jobs, backend) as pool:
        compile_started = time.perf_counter()
        first = plan.cells[0]
        with ahead_when_cold(game, jobs, when_parts_loaded=lambda: pool.start_workers(game.play_batch)):
            probe = game.play_batch(rules_arrays[first.rules], cell_arrays[0], np.uint64(0), 0, 1)
        compile_s = time.perf_counter() - compile_started
        # The game's vector size: the base layout, or with the optional end-turn block (sim/aggregate.py).
        vector_size = int(np.asarray(probe).shape[0])

        if resume:
            runfolder.read_chunks(run_dir, vector_size)  # removes the temporaries of a killed write
        totals = {cell.cell: np.zeros(vector_size, dtype=np.int64) for cell in plan.cells}
        chunk_counts = {cell.cell: 0 for cell in plan.cells}
        targets = {cell.cell: spec.first_round_matches() for cell in plan.cells}
        counted: set[tuple[int, int]] = set()
        reporter = Progress(len(plan.cells), progress, label=progress_label)
        result = RunResult(run_dir=run_dir, meta=meta, totals=totals)
        worker_seconds = 0.0
        active = [cell.cell for cell in plan.cells]
        rounds = 0

        remaining = {cell.cell: 0 for cell in plan.cells}  # scheduled chunks not yet counted

        def cells_finished() -> int:
            return sum(1 for count in remaining.values() if count == 0)

        # A new run's chunks/ is empty, so the store serves resumed chunks only.
        pool.store = chunk_store(run_dir, vector_size)

        while active:
            rounds += 1
            chunks = []
            for cell_index in active:
                for chunk, size in enumerate(chunk_sizes(targets[cell_index], spec.chunk_size)):
                    if (cell_index, chunk) in counted:
                        continue
                    remaining[cell_index] += 1
                    reporter.schedule(size)
                    chunks.append(sweep_chunk(plan, cell_index, chunk, size, rules_arrays, cell_arrays))
            for done in pool.run(chunks):
                cell_index, vector = done.chunk.cell, np.asarray(done.value, dtype=np.int64)
                totals[cell_index] += vector
                chunk_counts[cell_index] += 1
                counted.add((cell_index, done.chunk.chunk))
                remaining[cell_index] -= 1
                if done.resumed:
                    reporter.resumed(done.chunk.size, cells_finished())
                    result.chunks_resumed += 1
                    continue
                worker_seconds += done.seconds
                result.matches_played += int(vector[agg.A_MATCHES])
                result.chunks_played += 1
                reporter.advance(int(vector[agg.A_MATCHES]), cells_finished())
            # which cells need another round?
            still_active = []
            for cell_index in active:
                if spec.precision is None:
                    continue
                new_target = next_target(totals[cell_index], targets[cell_index], spec.precision,
                                         spec.max_matches, spec.chunk_size, n_end)
                if new_target > targets[cell_index]:
                    targets[cell_index] = new_target
                    still_active.append(cell_index)
            active = still_active
            reporter.advance(0, cells_finished())
    reporter.finish()

    results, lengths = runfolder.result_tables(plan, totals, chunk_counts)
    end_lengths = runfolder.end_length_table(plan, totals)
    if end_lengths is not None:
        runfolder.write_parquet_atomic(run_dir / runfolder.END_LENGTHS, end_lengths)
    runfolder.write_parquet_atomic(run_dir / runfolder.RESULTS, results)
    runfolder.write_parquet_atomic(run_dir / runfolder.LENGTHS, lengths)
    wall_s = time.perf_counter() - started
    total_matches = int(sum(int(v[agg.A_MATCHES]) for v in totals.values()))
    previous = meta.get("timings", {})
    meta["counts"] = {"cells": len(plan.cells), "matches": total_matches,
                      "chunks": int(sum(chunk_counts.values())), "rounds": rounds,
                      "chunks_resumed": result.chunks_resumed}
    meta["timings"] = {
        "started": previous.get("started", started_wall),
        "finished": time.time(),
        "wall_s": round(wall_s + previous.get("wall_s", 0.0), 3),
        "last_session_wall_s": round(wall_s, 3),
        "sessions": previous.get("sessions", 0) + 1,
        "compile_or_cache_load_s": round(compile_s, 3),
        "worker_s": round(worker_seconds + previous.get("worker_s", 0.0), 3),
        "matches_per_s": round(result.matches_played / wall_s, 1) if wall_s > 0 else None,
        "peak_rss_bytes": peak_rss_bytes(),
    }
    meta["backend"], meta["jobs"] = backend, jobs
    meta["complete"] = True
    runfolder.write_json_atomic(run_dir / runfolder.META, meta)
    result.meta = meta
    return result
