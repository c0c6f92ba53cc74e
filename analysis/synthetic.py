"""Write small run folders by hand, in exactly the stored format (docs/architecture.md).

For tests of the analysis and the reports: known counts give known rates,
and degenerate cases (no draws, only draws, zero matches, a 100 % cell)
can be written directly instead of hoped for from a simulation. It writes
no more than `cardbalance sweep` would; it never simulates.

A cell is a dict with the cell columns of the test toy game ("toy";
defaults below) and its outcome counts as results columns (`seat0_<end>`,
`seat1_<end>`, `draw_<end>`; missing ones are 0). `matches` and
`first_player_wins` follow from the counts. `lengths` is an optional
{turns: count} histogram (default: every match at 10 turns); it also sets
turns_sum and turns_sq. Counters default to 0 (`ct_<name>` keys set them).

The runs it writes store no `dimensions`, like runs written before they were
stored: analysis reads them with the game's declared ones
(analysis/dimensions.py `run_dimensions`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from analysis.runs import RUN_FORMAT, supported_format_version

CELL_DEFAULTS = {"pairing": "red_vs_blue", "faction0": "red", "faction1": "blue", "life0": 20, "life1": 20,
                 "first": 0, "strategy0": "greedy", "strategy1": "greedy", "rules": "default"}
CELL_COLUMNS = ("cell", *CELL_DEFAULTS)  # the cell columns of the synthetic runs


def write_synthetic_run(path, cells, *, game: str = "toy",
                        end_types=("knockout", "exact", "turn_cap"), special_end_types=("exact",),
                        counter_names=("attacks", "heals", "max_rolls"), length_bins: int = 48,
                        behaviour_version=None, format_version=None, complete: bool = True,
                        meta_updates=None) -> Path:
    """Write meta.json, results.parquet and lengths.parquet for `cells` under `path`."""
    path = Path(path)
    path.mkdir(parents=True, exist_ok=True)
    if behaviour_version is None:
        from sim.registry import get_game
        behaviour_version = get_game(game).behaviour_version
    rows, length_rows, meta_cells = [], [], []
    for index, spec in enumerate(cells):
        cell = {**CELL_DEFAULTS, **{k: v for k, v in spec.items() if k in CELL_COLUMNS}, "cell": index}
        row = {column: cell[column] for column in CELL_COLUMNS}
        outcomes = {}
        for outcome in ("seat0", "seat1", "draw"):
            for end in end_types:
                outcomes["%s_%s" % (outcome, end)] = int(spec.get("%s_%s" % (outcome, end), 0))
        matches = sum(outcomes.values())
        first = cell["first"]
        first_wins = sum(v for k, v in outcomes.items() if k.startswith("seat%d_" % first))
        histogram = {int(t): int(c) for t, c in spec.get("lengths", {10: matches} if matches else {}).items()}
        if sum(histogram.values()) != matches:
            raise ValueError("cell %d: lengths histogram counts %d matches, outcomes %d"
                             % (index, sum(histogram.values()), matches))
        row.update(matches=matches,
                   turns_sum=sum(t * c for t, c in histogram.items()),
                   turns_sq=sum(t * t * c for t, c in histogram.items()),
                   margin_sum=int(spec.get("margin_sum", 0)), margin_sq=int(spec.get("margin_sq", 0)))
        row.update(outcomes)
        row["first_player_wins"] = first_wins
        for name in counter_names:
            row["ct_" + name] = int(spec.get("ct_" + name, 0))
        rows.append(row)
        meta_cells.append({k: cell[k] for k in CELL_COLUMNS})
        for turns, count in sorted(histogram.items()):
            if count:
                length_rows.append({"cell": index, "turns": min(turns, length_bins - 1), "count": count})
    results = pd.DataFrame(rows)
    lengths = pd.DataFrame(length_rows, columns=["cell", "turns", "count"]).astype("int64")
    if len(lengths):
        lengths = lengths.groupby(["cell", "turns"], as_index=False)["count"].sum()
    rule_names = sorted({c["rules"] for c in meta_cells}) or ["default"]
    meta = {
        "format": RUN_FORMAT,
        "format_version": supported_format_version() if format_version is None else format_version,
        "game": game,
        "behaviour_version": behaviour_version,
        "seed": 1,
        "sweep": {"game": game, "pairings": sorted({c["pairing"] for c in meta_cells}),
                  "life": sorted({c["life0"] for c in meta_cells}), "matches": 0, "seed": 1},
        "rules": {name: {"source": "preset", "hash": "0" * 12, "values": {}, "differences": {}}
                  for name in rule_names},
        "cells": meta_cells,
        "end_types": list(end_types),
        "special_end_types": list(special_end_types),
        "counter_names": list(counter_names),
        "length_bins": length_bins,
        "package_version": "0.0-synthetic",
        "git_commit": "synthetic",
        "machine": {"hostname": "synthetic"},
        "timings": {},
        "complete": complete,
    }
    meta.update(meta_updates or {})
    results.to_parquet(path / "results.parquet", index=False)
    lengths.to_parquet(path / "lengths.parquet", index=False)
    (path / "meta.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")
    return path
