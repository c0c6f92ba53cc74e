"""The run folder: a sweep's stored results (format in docs/architecture.md).

    RUN/meta.json        what was run and how (JSON; `complete` says if it finished)
    RUN/results.parquet  one row per cell: cell columns + aggregate sums
    RUN/lengths.parquet  the non-zero bins of each cell's match-length histogram
    RUN/end_lengths.parquet  (games that record it) the same per outcome and end type:
                         cell, outcome (0 seat 0 won, 1 seat 1 won, 2 draw), end_type, turns, count
    RUN/chunks/          one .npy aggregate per finished chunk (resume bookkeeping)
    RUN/rules/           a copy of every rules file the sweep read, so that the
                         folder resumes and replays anywhere (moved, shared, from
                         another working directory); presets are built in
    RUN/data/            the game data the cells played with (GameSpec.game_data:
                         a card pool, deck lists, agent weights), hashes in meta.json;
                         --resume and `play --from` play these copies
    RUN/.lock            held by the sweep writing the folder (sim/sweep/runlock.py)

Every file is written to a temporary name in the same folder and renamed
into place, so a reader — or a sweep killed at any instant — sees either
the old file or the new one, never half of one. A chunk file exists only
once its chunk is completely counted, which is what makes `--resume` safe:
it redoes exactly the chunks without a file and never counts one twice.
The folder itself is created whole (built under a hidden name, renamed
into place), so a failed start leaves nothing that blocks `--out` again.
"""

from __future__ import annotations

import io
import json
import os
import platform
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from sim import aggregate as agg
from sim.errors import CardbalanceError
from sim.registry import CHUNKS, RUN_FORMAT, RUN_FORMAT_VERSION, aggregate_columns, chunk_path, data_hash
from sim.run_data import inside_run, read_game_data
from sim.run_meta import check_meta_fields
from sim.safe_output import atomic_folder, remove_stale_temporaries, write_bytes_atomic

FORMAT, FORMAT_VERSION = RUN_FORMAT, RUN_FORMAT_VERSION  # sim/registry.py
META = "meta.json"
RESULTS = "results.parquet"
LENGTHS = "lengths.parquet"
END_LENGTHS = "end_lengths.parquet"  # only for games whose vectors carry the end-turn block
RULES_COPIES = "rules"
DATA_DIR = "data"  # the game data the cells played with (GameSpec.game_data), hashes in meta.json
# what resuming or replaying a run reads from meta.json
RESUME_KEYS = ("game", "behaviour_version", "sweep", "rules", "chunk_size", "seed")
_CHUNK_NAME = re.compile(r"^c(\d+)-k(\d+)\.npy$")


# ---- atomic writes --------------------------------------------------------------

def write_json_atomic(path: Path, data: dict) -> None:
    write_bytes_atomic(path, (json.dumps(data, indent=2, sort_keys=False, default=_json_default) + "\n").encode())


def write_parquet_atomic(path: Path, frame: pd.DataFrame) -> None:
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)
    write_bytes_atomic(path, buffer.getvalue())


def _json_default(value):
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, (tuple, set)):
        return list(value)
    if isinstance(value, Path):
        return str(value)
    raise TypeError("not JSON serialisable: %r" % (value,))


# ---- folder life cycle ----------------------------------------------------------

def check_new_run_folder(path: Path) -> None:
    """Refuse a path that already holds something (checked before any work)."""
    from sim.user_input import check_name_lengths
    path = check_name_lengths(path, "--out")  # asking the OS about a name too long is an OSError (exit 74)
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise CardbalanceError("run folder '%s' already exists and is not empty; choose another --out or continue it with --resume %s." % (path, path))


def create_run_folder(path: Path, meta: dict, lock=None, command: str = "cardbalance sweep",
                      data: dict | None = None) -> None:
    """Create RUN/ whole: chunks/, the rules copies and the first meta.json (complete = false).

    The folder is filled under a hidden sibling name and renamed into place,
    so a failure (disk full, Ctrl-C) leaves `path` as it was. With `lock`
    (a contextlib.ExitStack), the run lock is taken before the rename and
    kept on that stack: no other sweep can enter the folder in between.
    """
    from sim.sweep.runlock import hold_run_lock
    path = Path(path)
    check_new_run_folder(path)
    with atomic_folder(path) as building:
        (building / CHUNKS).mkdir()
        for entry in meta.get("rules", {}).values():
            if entry.get("copy"):
                _copy_rules_file(building, entry, meta["game"])
        _copy_game_data(building, meta, data)
        write_json_atomic(building / META, meta)
        if lock is not None:
            lock.enter_context(hold_run_lock(building, command))


def _copy_game_data(building: Path, meta: dict, data: dict | None) -> None:
    """Store the game data the cells play with (default: the game's shipped data, what a new
    plan binds), each as the copy meta.json names, after checking it is what meta records."""
    entries = meta.get("game_data") or {}
    if not entries:
        return
    if data is None:
        from sim.registry import get_game
        data = get_game(meta["game"]).shipped_data()
    (building / DATA_DIR).mkdir(exist_ok=True)
    for name, entry in entries.items():
        if data_hash(data[name]) != entry["sha256"]:
            raise CardbalanceError("game data %s changed while the run started (hash %s, recorded %s)."
                                   % (name, data_hash(data[name]), entry["sha256"]))
        write_bytes_atomic(building / entry["copy"], data[name])


def _copy_rules_file(building: Path, entry: dict, game_name: str) -> None:
    """Copy a rules file into the run; keep the copy only if it loads to the recorded rules.

    (A name can be both a preset and a file of that name in the working
    directory; the preset wins when loading, so its file is no copy of it.)
    """
    from sim.registry import get_game
    copy = building / entry["copy"]
    copy.parent.mkdir(exist_ok=True)
    write_bytes_atomic(copy, Path(entry.get("base") or entry["source"]).read_bytes())
    try:
        same = get_game(game_name).load_rules(str(copy)).stable_hash() == (entry.get("base_hash") or entry["hash"])
    except CardbalanceError:
        same = False
    if not same:
        copy.unlink(missing_ok=True)
        del entry["copy"]


def load_meta(path: Path) -> dict:
    """The metadata of a run folder; one clear error when it is not one."""
    from sim.user_input import check_name_lengths
    path = check_name_lengths(path, "the run folder")  # a name too long: asking the OS is an OSError (exit 74)
    meta_path = path / META
    if not path.is_dir() or not meta_path.is_file():
        raise CardbalanceError("'%s' is not a run folder (no %s); give a folder written by cardbalance sweep." % (path, META))
    try:
        text = meta_path.read_text(encoding="utf-8")
    except OSError as error:
        raise CardbalanceError("cannot read '%s' (%s)." % (meta_path, error.strerror or error)) from None
    except UnicodeDecodeError:
        raise CardbalanceError("'%s' is not a run folder (%s is not UTF-8 text)." % (path, META)) from None
    try:
        meta = json.loads(text)
    except (ValueError, RecursionError):  # JSONDecodeError, or an integer past the 4,300-digit limit
        raise CardbalanceError("'%s' is not a run folder (%s is not valid JSON)." % (path, META)) from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise CardbalanceError("'%s' is not a run folder (%s does not say format \"%s\")." % (path, META, FORMAT))
    if meta.get("format_version") != FORMAT_VERSION:
        raise CardbalanceError("run folder '%s' has format version %r; this cardbalance reads version %d."
                               % (path, meta.get("format_version"), FORMAT_VERSION))
    check_meta_fields(meta, path)  # every field of its format's type (sim/run_meta.py)
    return meta


# ---- chunks ---------------------------------------------------------------------

def read_chunks(run: Path, vector_size: int) -> dict[tuple[int, int], np.ndarray]:
    """Every finished chunk: (cell, chunk) → aggregate vector. Leftover temporaries are removed."""
    found = {}
    folder = Path(run) / CHUNKS
    if not folder.is_dir():
        return found
    remove_stale_temporaries(folder)  # writes killed before their rename
    for entry in folder.iterdir():
        match = _CHUNK_NAME.match(entry.name)
        if not match:
            continue
        try:
            vector = np.load(entry, allow_pickle=False)
        except (OSError, ValueError, EOFError):  # EOFError: an empty file
            continue  # unreadable: treat as not done, it will be recomputed and replaced
        if vector.shape != (vector_size,) or vector.dtype != np.int64:
            continue
        found[(int(match.group(1)), int(match.group(2)))] = vector
    return found


# ---- tables -----------------------------------------------------------------------

def result_tables(plan, totals: dict[int, np.ndarray], chunk_counts: dict[int, int]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(results, lengths) tables of a plan from per-cell aggregate totals."""
    game = plan.game
    n_end, n_counters = len(game.end_types), len(game.counter_names)
    hist_start = agg.hist_slot(n_end, n_counters)
    columns = aggregate_columns(game)
    rows, lengths = [], []
    for cell in plan.cells:
        vector = totals.get(cell.cell)
        if vector is None:
            vector = agg.empty_aggregate(n_end, n_counters, game.length_bins, by_end=True)
        row = cell.as_dict()
        row.update({name: int(value) for name, value in zip(columns, vector[:hist_start])})
        row["chunks"] = int(chunk_counts.get(cell.cell, 0))
        rows.append(row)
        histogram = vector[hist_start:hist_start + game.length_bins]
        for turns in np.flatnonzero(histogram):
            lengths.append((cell.cell, int(turns), int(histogram[turns])))
    results = pd.DataFrame(rows)
    int_columns = [column for dimension in game.dimensions for column in dimension.int_columns()]
    int_columns += [axis.name for axis in game.derived_axes]
    for column in columns + ["chunks", "cell"] + int_columns:
        results[column] = results[column].astype("int64")
    lengths_frame = pd.DataFrame(lengths, columns=["cell", "turns", "count"]).astype("int64")
    return results, lengths_frame


def end_length_table(plan, totals: dict[int, np.ndarray]) -> pd.DataFrame | None:
    """Non-zero bins of the per-outcome, per-end-type turns histogram (sim/aggregate.py's
    optional block), or None when the game's vectors do not carry it."""
    game = plan.game
    n_end, n_counters, bins = len(game.end_types), len(game.counter_names), game.length_bins
    start = agg.agg_size(n_end, n_counters, bins)
    rows = []
    for cell in plan.cells:
        vector = totals.get(cell.cell)
        if vector is None or vector.shape[0] < start + agg.end_hist_size(n_end, bins):
            return None
        block = vector[start:start + agg.end_hist_size(n_end, bins)].reshape(3, n_end, bins)
        for outcome, end, turns in zip(*np.nonzero(block)):
            rows.append((cell.cell, int(outcome), game.end_types[end], int(turns), int(block[outcome, end, turns])))
    frame = pd.DataFrame(rows, columns=["cell", "outcome", "end_type", "turns", "count"])
    return frame.astype({"cell": "int64", "outcome": "int64", "turns": "int64", "count": "int64"})


# ---- metadata -----------------------------------------------------------------------

def git_commit() -> str | None:
    root = Path(__file__).resolve().parents[2]
    try:
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    return out.stdout.strip() or None


def machine() -> dict:
    import numba
    return {
        "hostname": platform.node(), "platform": platform.platform(), "machine": platform.machine(),
        "processor": platform.processor(), "cpu_count": os.cpu_count(), "python": sys.version.split()[0],
        "numpy": np.__version__, "numba": numba.__version__, "pandas": pd.__version__,
    }


def rules_entry(rules, name: str, copy: str | None = None) -> dict:
    entry = {"source": name, "hash": rules.stable_hash(), "values": rules.as_dict(),
             "differences": rules.differences_from_default()}
    if copy:
        entry["copy"] = copy  # RUN-relative path of the rules file's copy (create_run_folder)
    return entry


def rules_entries(plan) -> dict:
    """meta.json's rules table: one entry per rules name the cells play. A variant of a
    `[vary]` table (sim/sweep/vary.py) also names its base and changes, and carries the
    copy of its base's file with the base's hash (what the copy must load to)."""
    bases = plan.rules_bases or {name: (name, {}) for name in plan.rules}
    index_of = {base: index for index, base in enumerate(plan.spec.rules)}
    entries = {}
    for name, rules in plan.rules.items():
        base, changes = bases[name]
        entry = rules_entry(rules, name, _rules_copy_name(index_of.get(base, 0), base))
        if changes:
            entry.update({"base": base, "vary": dict(changes),
                          "base_hash": plan.game.load_rules(base).stable_hash() if "copy" in entry else None})
        entries[name] = entry
    return entries


def _rules_copy_name(index: int, name: str) -> str | None:
    """Where a rules *file* is copied inside the run (None for a preset)."""
    if not Path(name).is_file():
        return None
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", Path(name).name).strip("-.") or "rules.toml"
    return "%s/%02d-%s" % (RULES_COPIES, index, stem)


def build_meta(plan, backend: str, jobs: int) -> dict:
    from sim import __version__
    game = plan.game
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": game.name,
        "behaviour_version": game.behaviour_version,
        "name": plan.spec.name,
        "seed": plan.spec.seed,
        "chunk_size": plan.spec.chunk_size,
        "sweep": plan.spec.as_dict(),
        "rules": rules_entries(plan),
        "strategies": list(plan.spec.strategies),
        "dimensions": [dimension.describe() for dimension in game.dimensions],
        "derived_axes": [axis.describe() for axis in game.derived_axes],
        "game_data": data_entries(game),
        "cell_columns": list(game.cell_columns()),
        "cells": [cell.as_dict() for cell in plan.cells],
        "end_types": list(game.end_types),
        "special_end_types": list(game.special_end_types),
        "counter_names": list(game.counter_names),
        "length_bins": game.length_bins,
        "package_version": __version__,
        "git_commit": git_commit(),
        "machine": machine(),
        "backend": backend,
        "jobs": jobs,
        "counts": {"cells": len(plan.cells), "matches": 0, "chunks": 0},
        "timings": {},
        "complete": False,
    }


# ---- reopening a run ------------------------------------------------------------------

def data_entries(game) -> dict:
    """meta.json's `game_data`: {file name: description, sha256 (16 hex), bytes, copy}."""
    return {entry.name: {"description": entry.description, "sha256": data_hash(game.data[entry.name]),
                         "bytes": len(game.data[entry.name]), "copy": "%s/%s" % (DATA_DIR, entry.name)}
            for entry in game.game_data}


def stored_data(meta: dict, run: Path, game) -> dict | None:
    """The run's own copies of its game data, checked (shape, path inside the run, hash,
    format: sim/run_data.py); None for a run that recorded none (it played the data shipped
    then: the shipped data now)."""
    return read_game_data(meta, run, game)


def plan_from_meta(meta: dict, run: Path):
    """Rebuild the plan a run was made from, refusing rules that changed since."""
    from sim.sweep.grid import build_plan, parse_sweep
    from sim.registry import get_game
    missing = [key for key in RESUME_KEYS if key not in meta]
    if missing or not isinstance(meta["rules"], dict) or not all(isinstance(v, dict) for v in meta["rules"].values()):
        raise CardbalanceError("run '%s' cannot be resumed or replayed: %s %s." % (
            run, META, "lacks '%s'" % "', '".join(missing) if missing else "has a malformed 'rules' table"))
    if not isinstance(meta["game"], str):
        raise CardbalanceError("run '%s' cannot be resumed or replayed: %s names no game." % (run, META))
    game = get_game(meta["game"])
    if game.behaviour_version != meta.get("behaviour_version"):
        raise CardbalanceError("run '%s' was made with %s behaviour version %s; this engine is version %s."
                               % (run, game.name, meta.get("behaviour_version"), game.behaviour_version))

    def load_stored_rules(name: str):
        # The run's own copy of a rules file: the folder works wherever it is.
        # (a `[vary]` variant's entry carries its base's copy: looked up by base name)
        # Nothing outside the folder is read because of what meta.json says: a copy must lie
        # inside it, and a name without one must be a preset (not a path to some file).
        entries = [meta["rules"].get(name, {})] + [e for e in meta["rules"].values() if e.get("base") == name]
        copy = next((e["copy"] for e in entries if e.get("copy")), None)
        if copy is not None:
            path = inside_run(run, copy, "rules.%s.copy" % name)
            if path.is_file():
                return (game.load_stored_rules or game.load_rules)(str(path))
        if str(name) not in game.rules_presets:
            raise CardbalanceError("run '%s': rules '%s' has no copy in the run folder and is no preset of %s "
                                   "(%s); a run replays only its own copies and presets."
                                   % (run, name, game.name, ", ".join(game.rules_presets)))
        return game.load_rules(name)

    plan = build_plan(parse_sweep(meta["sweep"], "%s/%s" % (run, META)), game, load_rules=load_stored_rules,
                      data=stored_data(meta, run, game))
    for name, rules in plan.rules.items():
        entry = meta["rules"].get(name, {})
        stored = entry.get("hash")
        # A run of an older version stored another hash for the same rules (e.g.
        # Faction War's, taken while rules still carried `life`): its values decide.
        migrated = game.stored_rules_match is not None and game.stored_rules_match(entry.get("values"), rules)
        if stored != rules.stable_hash() and not migrated:
            raise CardbalanceError("rules '%s' changed since run '%s' was made (hash %s then, %s now)."
                                   % (name, run, stored, rules.stable_hash()))
    return plan


def locate_match(run_dir, cell: int, match: int):
    """(game, rules object, cell array, match seed) of match `match` of cell `cell`."""
    from sim.sweep.seeds import match_seed
    run = Path(run_dir)
    meta = load_meta(run)
    plan = plan_from_meta(meta, run)
    if isinstance(cell, bool) or not isinstance(cell, (int, np.integer)) or not 0 <= cell < len(plan.cells):
        raise CardbalanceError("--cell must be a cell number from 0 to %d for run '%s' (got %r)." % (len(plan.cells) - 1, run, cell))
    played = _matches_played(run, meta, int(cell))
    if isinstance(match, bool) or not isinstance(match, (int, np.integer)) or not 0 <= match < max(played, 1):
        raise CardbalanceError("--match must be a match number from 0 to %d for cell %d of run '%s' (got %r)."
                               % (played - 1, cell, run, match))
    the_cell = plan.cells[int(cell)]
    seed_cell = plan.deal(int(cell)) if plan.spec.common_deals else int(cell)  # common deals share seeds
    seed = match_seed(plan.spec.seed, seed_cell, int(match), plan.spec.chunk_size)
    return plan.game, plan.rules[the_cell.rules], plan.cell_array(the_cell), seed


def _matches_played(run: Path, meta: dict, cell: int) -> int:
    results = run / RESULTS
    if results.is_file():
        frame = pd.read_parquet(results, columns=["cell", "matches"])
        row = frame[frame["cell"] == cell]
        if len(row):
            return int(row["matches"].iloc[0])
    # an unfinished run: count from the chunk files of that cell
    chunk_size = int(meta["chunk_size"])
    chunks = [int(m.group(2)) for entry in (run / CHUNKS).glob("c%06d-k*.npy" % cell)
              if (m := _CHUNK_NAME.match(entry.name))]
    return (max(chunks) + 1) * chunk_size if chunks else 0
