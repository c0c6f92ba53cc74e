"""Design points played on the one executor, with common deals and resume.

A design point (a key, its `Setting`) is played under both first-player orders
(the game's SEAT dimension, when it has one). Every point of one *stage* plays
the same deals: a chunk's seed comes from (root seed, stage and first-player
order, chunk number) only — the executor's `deal` — so points differ by their
parameter values and nothing else (common random numbers). Chunk files are
stored under the run folder as they finish, so a killed command redoes only
the missing chunks, and totals are integer sums, bit-identical for any --jobs.
Given a `progress` (sim/sweep/progress.py), each finished chunk advances it on
stderr (matches played / scheduled, rate, ETA); it only observes, so the numbers
are the same with or without it.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from sim import aggregate as agg
from sim.executor import Chunk, ChunkStore, Executor
from sim.registry import SEAT, GameSpec
from sim.sweep.runner import chunk_sizes, play_aggregate

CHUNKS = "chunks"  # the run folder's chunk files (one .npy per finished chunk)
KEY_SPACE = 10**7  # design keys per stage (cell numbers: (stage * KEY_SPACE + key) * orders + order)


class PointRunner:
    """`with PointRunner(...) as runner: runner.play(stage, {key: setting}, matches)`; totals in `vectors`.
    `orders`: the first-player orders to play (default both)."""

    def __init__(self, game: GameSpec, strategies: tuple[str, str], seed: int, jobs: int, folder: Path | None,
                 chunk_size: int = 500, orders: tuple | None = None, backend: str = "loky", progress=None):
        self.game = game
        self.strategy_ids = (game.strategy_id(strategies[0]), game.strategy_id(strategies[1]))
        self.seed = int(seed)
        self.jobs = jobs
        self.chunk_size = int(chunk_size)
        seat = [d for d in game.dimensions if d.kind == SEAT]
        self.seat_dimension = seat[0].name if seat else None
        self.orders = (tuple(orders) if orders else (0, 1)) if seat else (None,)
        self.folder = Path(folder) if folder is not None else None
        self.backend = backend
        self.progress = progress
        self.points_measured: set[tuple[int, int]] = set()  # (stage, key) whose first play call has finished
        self.played: dict[tuple[int, int], int] = {}           # (stage, key) -> matches per order
        self.vectors: dict[tuple[int, int], list] = {}         # (stage, key) -> [vector per order]
        self.matches_played = 0
        self.matches_resumed = 0
        self.worker_s = 0.0
        self.started = time.perf_counter()
        self._vector_size = None
        self._executor = None

    def __enter__(self):
        store = ChunkStore(self.folder / CHUNKS, valid=self._valid) if self.folder is not None else None
        self._executor = Executor(self.seed, self.jobs, self.backend, store)
        self._executor.__enter__()
        return self

    def __exit__(self, *exc):
        self._executor.__exit__(*exc)
        if self.progress is None:
            return
        if exc[0] is None:
            self.progress.finish()  # the closing line: every scheduled match played
        elif self.progress.mode == "bar" and self.progress.matches_done:
            self.progress.stream.write("\n")  # the error line starts below the bar, not on it

    def _valid(self, vector, size):
        return vector.ndim == 1 and int(vector[agg.A_MATCHES]) == size

    def _arrays(self, setting, order):
        values = dict(setting.values)
        if self.seat_dimension is not None:
            values[self.seat_dimension] = order
        rules_array = np.ascontiguousarray(setting.rules.to_array())
        cell_array = np.ascontiguousarray(self.game.cell_array(values, *self.strategy_ids))
        return rules_array, cell_array

    def check(self, setting) -> None:
        """The game's own checks of a point (e.g. its life limits), before any match."""
        for order in self.orders:
            self._arrays(setting, order)

    def probe_chunk(self, setting) -> Chunk:
        """One match of `setting` (the dask workers' check)."""
        return Chunk(0, 0, 1, play_aggregate, (self.game.play_batch,) + self._arrays(setting, self.orders[0]))

    def play(self, stage: int, points: dict, matches: int) -> None:
        """Bring every point of `points` ({key: Setting}) to `matches` per first-player order."""
        chunks = []
        for key, setting in points.items():
            have = self.played.get((stage, key), 0)
            if matches <= have:
                continue
            arrays = [self._arrays(setting, order) for order in self.orders]
            sizes = chunk_sizes(matches, self.chunk_size)
            first_new = len(chunk_sizes(have, self.chunk_size))
            for index, order in enumerate(self.orders):
                cell = (stage * KEY_SPACE + key) * len(self.orders) + index
                deal = stage * len(self.orders) + index
                for number in range(first_new, len(sizes)):
                    chunks.append(Chunk(cell, number, sizes[number], play_aggregate,
                                        (self.game.play_batch,) + arrays[index], deal=deal))
            self.played[(stage, key)] = matches
        unfinished = {}  # (stage, key) -> chunks of this call still to come
        for chunk in chunks:
            stage_key = divmod(chunk.cell // len(self.orders), KEY_SPACE)
            unfinished[stage_key] = unfinished.get(stage_key, 0) + 1
        if self.progress is not None:
            self.progress.schedule(sum(chunk.size for chunk in chunks))
        for done in self._executor.run(chunks):
            cell = done.chunk.cell
            index = cell % len(self.orders)
            stage_key = divmod(cell // len(self.orders), KEY_SPACE)
            vector = np.asarray(done.value, dtype=np.int64)
            slot = self.vectors.setdefault(stage_key, [None] * len(self.orders))
            slot[index] = vector if slot[index] is None else slot[index] + vector
            if done.resumed:
                self.matches_resumed += done.chunk.size
            else:
                self.matches_played += done.chunk.size
                self.worker_s += done.seconds
            unfinished[stage_key] -= 1
            if not unfinished[stage_key]:
                self.points_measured.add(stage_key)
            if self.progress is not None:
                if done.resumed:
                    self.progress.resumed(done.chunk.size, len(self.points_measured))
                else:
                    self.progress.advance(done.chunk.size, len(self.points_measured))

    def totals(self, stage: int, key: int) -> list:
        return self.vectors[(stage, key)]

    def matches(self) -> int:
        """Matches behind the results (played now or resumed)."""
        return self.matches_played + self.matches_resumed
