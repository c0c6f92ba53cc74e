"""Balance sweeps: a grid of cells → chunks of matches in numba kernels → a run folder.

- `grid`: sweep files, the default sweep, the ordered cells of a grid.
- `seeds`: chunk and match seeds from (root seed, cell, chunk, index).
- `runfolder`: the on-disk run format (atomic writes, resume bookkeeping).
- `runner`: fans chunks out with joblib (loky or dask), aggregates, resumes.
- `progress`: the terminal progress bar / plain lines.
"""

from sim.sweep.grid import SweepSpec, build_plan, default_sweep, load_sweep, parse_sweep


def locate_match(run_dir, cell, match):
    """(game, rules object, cell array, match seed) of one stored match (for `play --from`)."""
    from sim.sweep.runfolder import locate_match as _locate
    return _locate(run_dir, cell, match)


__all__ = ["SweepSpec", "build_plan", "default_sweep", "load_sweep", "parse_sweep", "locate_match"]
