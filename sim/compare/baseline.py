"""Baseline snapshots: the BASE arm's balance metrics, committed next to the rules.

`cardbalance compare BASE --write-baseline FILE` stores one JSON file: the
game and its behaviour version, BASE's rules (source, hash, values), the grid
spec and its cells, the seed and matches per cell, the per-cell sums Σx and
Σx² of every metric (enough to rebuild every interval), and a readable copy
of the pooled metrics with their intervals. `--baseline FILE` later compares
TWEAK against those numbers.

The trade-off: a snapshot keeps no match-level pairing, so a comparison
against it is *unpaired* (wider intervals than a paired run of BASE and
TWEAK); in exchange CI does not need to replay BASE, and a baseline survives
a rules file that has since changed. A snapshot written under another
behaviour version of the game, or for another game, is refused: its numbers
describe rules that no longer play the same way.
"""

from __future__ import annotations

import json
import platform
import subprocess
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from analysis import paired
from sim import aggregate as agg
from sim.errors import CardbalanceError
from sim.safe_output import write_text_atomic
from sim.registry import GameSpec
from sim.sweep.grid import SweepSpec, parse_sweep

BASELINE_FORMAT = "cardbalance-compare-baseline"
BASELINE_FORMAT_VERSION = 1


@dataclass(frozen=True)
class Baseline:
    path: Path
    game: str
    behaviour_version: int
    end_types: tuple[str, ...]
    rules_info: dict
    grid: dict
    cells: list[dict]
    seed: int
    matches_per_cell: np.ndarray  # (cells,)
    sums: np.ndarray              # (cells, metrics, 2): Σx, Σx²
    batch: int = 1000  # matches per cell per round when it was written (part of the match seeds)

    def grid_spec(self) -> SweepSpec:
        return parse_sweep(self.grid, "baseline %s grid" % self.path)

    def check_game(self, game: GameSpec) -> GameSpec:
        """Refuse a snapshot this checkout's game cannot be compared with."""
        if game.name != self.game:
            raise CardbalanceError("baseline %s is for game %s, not %s." % (self.path, self.game, game.name))
        if game.behaviour_version != self.behaviour_version:
            raise CardbalanceError(
                "baseline %s was written with %s behaviour version %d, but this checkout plays version %d; "
                "write a new baseline with --write-baseline." % (self.path, self.game, self.behaviour_version,
                                                                game.behaviour_version))
        if tuple(game.end_types) != self.end_types:
            raise CardbalanceError("baseline %s lists end types %s, but %s now has %s; write a new baseline."
                                   % (self.path, ", ".join(self.end_types), game.name, ", ".join(game.end_types)))
        return game


def _git_commit() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5,
                             cwd=Path(__file__).resolve().parent)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def _atomic_write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, text)  # mode from the umask, never half a file


def write_baseline(path, result) -> dict:
    """Write the BASE arm of a compare result (sim.compare.runner.CompareResult) as a snapshot."""
    setup = result.setup
    if setup.base is None:
        raise CardbalanceError("--write-baseline needs BASE rules that are played (not --baseline).")
    sums = result.base_arm_sums()
    n = [int(result.matches_per_cell)] * len(setup.cells)
    metrics = setup.metrics
    base_table = paired.unpaired_table(setup.role_cells, n, sums, n, sums, metrics, setup.z)
    readable = {}
    for row in base_table.itertuples(index=False):
        readable.setdefault(row.scope, {})[row.metric] = {"value": row.base, "low": row.base_low, "high": row.base_high}
    data = {
        "format": BASELINE_FORMAT,
        "format_version": BASELINE_FORMAT_VERSION,
        "game": setup.game.name,
        "behaviour_version": setup.game.behaviour_version,
        "end_types": list(setup.game.end_types),
        "rules": setup.base.describe(),
        "grid": {**setup.grid, "seed": setup.seed},
        "cells": [{k: v for k, v in cell.items() if not k.startswith("tweak_")} for cell in setup.cells],
        "seed": setup.seed,
        "batch": setup.batch,
        "confidence": setup.confidence,
        "matches_per_cell": n,
        "metric_rows": list(range(agg.paired_metric_count(len(setup.game.end_types)))),
        "metric_names": {name: metric.index for name, metric in metrics.items()},
        "sums": np.asarray(sums).tolist(),
        "metrics": readable,
        "package_version": _package_version(),
        "git_commit": _git_commit(),
        "machine": platform.node(),
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    _atomic_write(Path(path), json.dumps(data, indent=1, sort_keys=False, allow_nan=True) + "\n")
    return data


def _package_version() -> str | None:
    try:
        from importlib.metadata import version
        return version("cardbalance")
    except Exception:  # noqa: BLE001 - metadata is informative only
        return None


def load_baseline(path) -> Baseline:
    """Read and check a snapshot (format, version, shapes); CardbalanceError otherwise."""
    path = Path(path)
    if not path.is_file():
        raise CardbalanceError("baseline file '%s' does not exist or is not a file." % path)
    from sim.user_input import read_json, read_text_file
    data = read_json(read_text_file(path, "baseline file"), "baseline file %s" % path)
    if not isinstance(data, dict) or data.get("format") != BASELINE_FORMAT:
        raise CardbalanceError("baseline file %s is not a compare baseline (written by `cardbalance compare "
                               "--write-baseline`)." % path)
    if data.get("format_version") != BASELINE_FORMAT_VERSION:
        raise CardbalanceError("baseline file %s has format version %r; this checkout reads version %d."
                               % (path, data.get("format_version"), BASELINE_FORMAT_VERSION))
    try:
        cells = list(data["cells"])
        sums = np.asarray(data["sums"], dtype=np.int64)
        n = np.asarray(data["matches_per_cell"], dtype=np.int64)
        end_types = tuple(data["end_types"])
        expected = (len(cells), agg.paired_metric_count(len(end_types)), 2)
        if sums.shape != expected or n.shape != (len(cells),):
            raise ValueError("sums have shape %s, expected %s" % (sums.shape, expected))
        return Baseline(path=path, game=str(data["game"]), behaviour_version=int(data["behaviour_version"]),
                        end_types=end_types, rules_info=dict(data["rules"]), grid=dict(data["grid"]),
                        cells=cells, seed=int(data["seed"]), matches_per_cell=n, sums=sums,
                        batch=int(data["batch"]))
    except (KeyError, TypeError, ValueError) as error:
        raise CardbalanceError("baseline file %s is damaged (%s); write it again with --write-baseline."
                               % (path, error)) from None
