"""Seeds of a sweep: (root seed, cell, chunk) → chunk seed → match seeds.

`chunk_seed` hashes the three coordinates through numpy's `SeedSequence`, so
nearby cells and chunks get unrelated streams, and a chunk's result depends
only on its coordinates, never on which worker ran it or in what order: the
same sweep is bit-identical with one job, many jobs or a dask cluster.
Inside a chunk, match i plays with `sim.rng.match_seed(chunk_seed, i)`; a
cell's matches are numbered `chunk * chunk_size + i`, so any single match of
a run can be replayed from (run, cell, match number).
"""

from __future__ import annotations

from sim import rng
from sim.executor import chunk_seed  # noqa: F401  (the executor seeds every chunk; re-exported here)


def match_coordinates(match: int, chunk_size: int) -> tuple[int, int]:
    """Cell-wide match number → (chunk, index inside the chunk)."""
    return match // chunk_size, match % chunk_size


def match_seed(root_seed: int, cell: int, match: int, chunk_size: int) -> int:
    """Seed of match number `match` of a cell (what the kernels play with)."""
    chunk, index = match_coordinates(match, chunk_size)
    return rng.match_seed(int(chunk_seed(root_seed, cell, chunk)), index)
