"""The one parallel executor of every command that plays matches in chunks:
`sweep`, `compare` and `bench` (and the ladder to come).

A *chunk* is a number of matches of one cell under one chunk number; its seed
comes only from the root seed, the cell and the chunk number
(`chunk_seed` below), so a chunk plays the same matches whatever
the number of workers, the backend, the order results come back in, or
whether it runs now or after a resume. Chunks fan out through joblib: loky
processes on this machine, or a dask.distributed cluster through joblib's
dask backend (`connect_dask`). Results come back in completion order;
callers add them up (integer sums do not care about order).

Resume: with a `ChunkStore`, a chunk already stored is handed back without
being played (marked `resumed`), and every chunk played is stored as soon as
it is back, so a killed command redoes exactly the missing chunks.
Progress is the caller's: it sees every chunk as it comes back.

Trade-off: the executor keeps one joblib pool open for its whole `with`
block, so rounds (precision rounds, compare's sequential rounds, the bench's
warm-up and measurement) reuse warm workers instead of paying the start-up
and kernel cache load again.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import numpy as np

from sim.errors import CardbalanceError
from sim.safe_output import write_bytes_atomic

BACKENDS = ("loky", "dask")
CONNECT_TIMEOUT_S = 5
DASK_PROBE_TIMEOUT_S = 300  # a cold worker may have to compile the kernels first


def chunk_seed(root_seed: int, cell: int, chunk: int) -> np.uint64:
    """The seed of chunk `chunk` of cell `cell` (docs/architecture.md; sim/sweep/seeds.py
    derives match seeds from it): numpy's SeedSequence over the three coordinates."""
    return np.random.SeedSequence([int(root_seed), int(cell), int(chunk)]).generate_state(1, np.uint64)[0]


@dataclass(frozen=True)
class Chunk:
    """One task: `function(*args, seed=<chunk seed>, n_matches=size, **kwargs)`."""

    cell: int
    chunk: int
    size: int
    function: Callable
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    deal: int | None = None  # the cell number its seed comes from (common deals); None: `cell`


@dataclass(frozen=True)
class Done:
    """A chunk's result: what its function returned, the worker's seconds, and
    whether it came from the store instead of being played."""

    chunk: Chunk
    value: Any
    seconds: float = 0.0
    resumed: bool = False


def _loaded(*objects) -> None:
    """Worker side of `Executor.start_workers`: unpickling the arguments did the work."""


def _play(function, args, kwargs, seed, size, cell, chunk):
    """Worker side: one chunk -> (cell, chunk, value, seconds)."""
    started = time.perf_counter()
    value = function(*args, seed=seed, n_matches=size, **kwargs)
    return cell, chunk, value, time.perf_counter() - started


# ---- resume ----------------------------------------------------------------------------

class ChunkStore:
    """Finished chunks as one .npy file each in a folder, written atomically.

    `name` formats (cell, chunk, size) into a file name; `valid(value, size)`
    tells whether a stored value is that chunk's (e.g. it counts `size`
    matches), so a file of another size or shape is played again."""

    def __init__(self, folder, name: str = "c%06d-k%06d.npy", valid: Callable[[np.ndarray, int], bool] | None = None,
                 with_size: bool = False):
        self.folder = Path(folder)
        self.name = name
        self.valid = valid or (lambda value, size: True)
        self.with_size = with_size

    def path(self, cell: int, chunk: int, size: int) -> Path:
        return self.folder / (self.name % ((cell, chunk, size) if self.with_size else (cell, chunk)))

    def get(self, cell: int, chunk: int, size: int):
        path = self.path(cell, chunk, size)
        if not path.is_file():
            return None
        try:
            value = np.load(path, allow_pickle=False)
        except (OSError, ValueError, EOFError):  # EOFError: an empty file
            return None  # a damaged file is played again
        return value if self.valid(value, size) else None

    def put(self, cell: int, chunk: int, size: int, value) -> None:
        import io
        self.folder.mkdir(parents=True, exist_ok=True)
        buffer = io.BytesIO()
        np.save(buffer, np.asarray(value), allow_pickle=False)
        write_bytes_atomic(self.path(cell, chunk, size), buffer.getvalue())

    def names(self) -> list[str]:
        pattern = re.compile(r"^c\d+-k\d+.*\.npy$")
        return sorted(entry.name for entry in self.folder.glob("c*-k*.npy") if pattern.match(entry.name))


# ---- backends --------------------------------------------------------------------------

def check_backend(backend: str) -> str:
    if backend not in BACKENDS:
        raise CardbalanceError("--backend must be 'loky' or 'dask' (got %r)." % (backend,))
    return backend


def connect_dask(scheduler: str | None, jobs: int):
    """A distributed.Client: to `scheduler`, or a local cluster when none is given.

    An address that does not answer within CONNECT_TIMEOUT_S is one clear
    CardbalanceError (checked before any output is created).
    """
    try:
        from distributed import Client, LocalCluster
    except ImportError:  # pragma: no cover - a declared dependency
        raise CardbalanceError("--backend dask needs the 'distributed' package; install dask[distributed].") from None
    if scheduler is None:
        workers = jobs if jobs > 0 else (os.cpu_count() or 1)
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
        return Client(cluster)
    try:
        return Client(scheduler, timeout="%ds" % CONNECT_TIMEOUT_S)
    except (OSError, TimeoutError, ValueError, TypeError) as error:
        raise CardbalanceError("--scheduler: no dask scheduler answered at '%s' within %d s (%s)."
                               % (scheduler, CONNECT_TIMEOUT_S, type(error).__name__)) from None


def check_dask_workers(client, chunk: Chunk, root_seed: int, timeout_s: float = DASK_PROBE_TIMEOUT_S) -> None:
    """Play one small chunk on the cluster, or raise one clear error.

    joblib's dask backend can wait forever when the scheduler or the workers
    cannot unpickle a task (e.g. cardbalance is not installed there), so a
    command checks this once, before it creates any output.
    """
    future = client.submit(_play, chunk.function, chunk.args, chunk.kwargs, chunk_seed(root_seed, chunk.cell, chunk.chunk),
                           1, chunk.cell, chunk.chunk, pure=False)
    try:
        future.result(timeout=timeout_s)
    except TimeoutError:
        workers = len(client.scheduler_info().get("workers", {}))
        raise CardbalanceError("--scheduler: the dask cluster did not play a probe match within %d s (%d workers "
                               "connected); check that its workers run and have cardbalance installed."
                               % (timeout_s, workers)) from None
    except Exception as error:  # whatever the worker or scheduler raised
        first_line = (str(error).strip().splitlines() or [""])[0]
        raise CardbalanceError("--scheduler: the dask cluster could not play a probe match (%s: %s); "
                               "install the same cardbalance on the scheduler and every worker."
                               % (type(error).__name__, first_line[:200])) from None
    finally:
        future.release()


def close_dask(client) -> None:
    cluster = getattr(client, "cluster", None)
    client.close()
    if cluster is not None:
        cluster.close()


# ---- the executor ----------------------------------------------------------------------

class Executor:
    """`with Executor(root_seed, jobs, backend, store) as ex: for done in ex.run(chunks): ...`"""

    def __init__(self, root_seed: int, jobs: int = -1, backend: str = "loky", store: ChunkStore | None = None):
        self.root_seed = int(root_seed)
        self.jobs = jobs
        self.backend = check_backend(backend)
        self.store = store
        self._context = None
        self._parallel = None
        self._warming = None

    def __enter__(self) -> "Executor":
        import joblib
        from sim.worker_lifetime import loky_config
        # loky workers get a parent watch, so they exit when this process is killed
        self._context = joblib.parallel_config(backend="dask") if self.backend == "dask" else loky_config()
        self._context.__enter__()
        self._parallel = joblib.Parallel(n_jobs=self.jobs, return_as="generator_unordered")
        self._parallel.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        try:
            self._parallel.__exit__(*exc)
        finally:
            self._context.__exit__(*exc)

    def start_workers(self, *preload) -> None:
        """Start the local workers now, each unpickling `preload` (e.g. the game's batch
        function: that imports its modules), without waiting: e.g. while the parent
        compiles alone, so that the first chunks do not wait for the workers' start-up
        (loky only; `run` collects it first)."""
        if self.backend != "loky" or self._warming is not None:
            return
        import joblib
        workers = joblib.effective_n_jobs(self.jobs)
        self._warming = self._parallel(joblib.delayed(_loaded)(*preload) for _ in range(workers))

    def seed(self, chunk: Chunk) -> int:
        return chunk_seed(self.root_seed, chunk.cell if chunk.deal is None else chunk.deal, chunk.chunk)

    def run(self, chunks: Iterable[Chunk]) -> Iterator[Done]:
        """Stored chunks first (resumed), then the others as they finish (each stored at once)."""
        import joblib
        if self._warming is not None:  # joblib runs one call of a Parallel at a time
            for _ in self._warming:
                pass
            self._warming = None
        to_play = {}
        for chunk in chunks:
            stored = self.store.get(chunk.cell, chunk.chunk, chunk.size) if self.store is not None else None
            if stored is not None:
                yield Done(chunk, stored, 0.0, True)
            else:
                to_play[(chunk.cell, chunk.chunk)] = chunk
        if not to_play:
            return
        calls = (joblib.delayed(_play)(c.function, c.args, c.kwargs, self.seed(c), c.size, c.cell, c.chunk)
                 for c in to_play.values())
        for cell, chunk_number, value, seconds in self._parallel(calls):
            chunk = to_play[(cell, chunk_number)]
            if self.store is not None:
                self.store.put(cell, chunk_number, chunk.size, value)
            yield Done(chunk, value, seconds, False)

    def run_all(self, chunks: Iterable[Chunk]) -> dict[tuple[int, int], Done]:
        """Every chunk's result by (cell, chunk)."""
        return {(done.chunk.cell, done.chunk.chunk): done for done in self.run(chunks)}
