"""Load a stored run folder and check that this code can read it.

A run folder (docs/architecture.md) is written by `cardbalance sweep`:
`meta.json` + `results.parquet` (one row per cell) + `lengths.parquet`
(non-zero turns-histogram bins). Reports only read it. Everything that could
make a report silently wrong is refused here with one plain sentence
(`CardbalanceError`): a folder that is not a run, a run written in another
file-format version, a run whose game now behaves differently
(`behaviour_version`), or a results table missing columns the metadata
promises. An incomplete run (`complete: false`, e.g. an interrupted sweep)
is readable; the report says so.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from sim.errors import CardbalanceError
# The run-folder format and the version this reader understands: the one pair of constants
# the writer (sim/sweep/runfolder.py) records in meta.json.
from sim.registry import RUN_FORMAT, RUN_FORMAT_VERSION
from sim.run_data import read_game_data
from sim.run_meta import check_meta_fields

# Cell columns every game's runs have; the game's own (its grid dimensions') are
# read from the run's metadata (`cell_columns`, written by sim/sweep/runfolder.py).
COMMON_CELL_COLUMNS = ("cell", "strategy0", "strategy1", "rules")
# What a balance question is asked about: a cell without its first player.
# Every combination is played with both first-player orders, which the
# analysis pools (see analysis/tables.py).
# Its grid values are read under the neutral role names of analysis/dimensions.py.
GROUP_COLUMNS = ("series", "seat0_name", "seat1_name", "axis0", "axis1", "strategy0", "strategy1", "rules")
SUM_COLUMNS = ("matches", "turns_sum", "turns_sq", "margin_sum", "margin_sq", "first_player_wins")
OUTCOMES = ("seat0", "seat1", "draw")


def supported_format_version() -> int:
    """The run format version written by this checkout's sweep runner (sim/registry.py)."""
    return RUN_FORMAT_VERSION


@dataclass(frozen=True)
class Run:
    """A loaded run: its metadata and its two tables (read-only by convention)."""

    path: Path
    meta: dict
    results: pd.DataFrame
    lengths: pd.DataFrame
    end_lengths: pd.DataFrame | None = None  # end_lengths.parquet, for games that record it
    game_data: dict | None = None  # {file name: bytes} of RUN/data/, checked (sim/run_data.py); None: none stored

    @property
    def game(self) -> str:
        return str(self.meta["game"])

    @property
    def end_types(self) -> tuple[str, ...]:
        return tuple(self.meta["end_types"])

    @property
    def special_end_types(self) -> tuple[str, ...]:
        return tuple(self.meta.get("special_end_types", ()))

    @property
    def counter_names(self) -> tuple[str, ...]:
        return tuple(self.meta.get("counter_names", ()))

    @property
    def complete(self) -> bool:
        return bool(self.meta.get("complete", False))

    @property
    def cell_columns(self) -> tuple[str, ...]:
        return cell_columns(self.meta)

    @property
    def dimensions(self) -> tuple[dict, ...]:
        """The run's grid dimensions (`Dimension.describe`): stored in its metadata, or,
        for a run written before they were, its game's declared ones."""
        from analysis.dimensions import run_dimensions
        return tuple(run_dimensions(self.meta))

    @property
    def labels(self) -> dict:
        """Words for the role columns: series, axis, axis_description (analysis.dimensions.labels)."""
        from analysis.dimensions import labels
        return labels(self.dimensions)


def cell_columns(meta: dict) -> tuple[str, ...]:
    """A run's cell columns, from its metadata: `cell_columns`, else the keys of its stored cells."""
    if meta.get("cell_columns"):
        return tuple(meta["cell_columns"])
    cells = meta.get("cells") or [{}]
    return tuple(cells[0]) or COMMON_CELL_COLUMNS


def outcome_columns(end_types) -> list[str]:
    return ["%s_%s" % (outcome, end) for outcome in OUTCOMES for end in end_types]


def load_run(run_dir, check_versions: bool = True) -> Run:
    """Read and validate a run folder; raise CardbalanceError with one sentence when unusable."""
    path = Path(run_dir)
    meta_path = path / "meta.json"
    if not path.is_dir():
        raise CardbalanceError("'%s' is not a run folder: no such directory (a run folder is what "
                               "`cardbalance sweep` writes: meta.json, results.parquet, lengths.parquet)." % path)
    if not meta_path.is_file():
        raise CardbalanceError("'%s' is not a run folder: it has no meta.json (a run folder is what "
                               "`cardbalance sweep` writes: meta.json, results.parquet, lengths.parquet)." % path)
    try:
        text = meta_path.read_text(encoding="utf-8")
    except OSError as error:  # e.g. no read permission: say so, do not call the file invalid
        raise CardbalanceError("cannot read '%s' (%s)." % (meta_path, error.strerror or error)) from None
    except UnicodeDecodeError:
        raise CardbalanceError("'%s' is not a readable run: meta.json is not UTF-8 text." % path) from None
    try:
        meta = json.loads(text)
    except (ValueError, RecursionError) as error:  # JSONDecodeError, or an integer past the 4,300-digit limit
        raise CardbalanceError("'%s' is not a readable run: meta.json is not valid JSON (%s)." % (path, error)) from None
    if not isinstance(meta, dict) or meta.get("format") != RUN_FORMAT:
        found = meta.get("format") if isinstance(meta, dict) else type(meta).__name__
        raise CardbalanceError("'%s' is not a run folder: meta.json has format %r, expected %r."
                               % (path, found, RUN_FORMAT))
    for key in ("format_version", "game", "behaviour_version", "end_types"):
        if key not in meta:
            raise CardbalanceError("'%s' is not a readable run: meta.json lacks '%s'." % (path, key))
    check_meta_fields(meta, path)  # every field of its format's type (sim/run_meta.py)
    game_data = None
    if check_versions:
        game = _check_versions(path, meta)
        # the data the cells played, read once and checked (shape, path, hash, format), so that a
        # section showing it never reads a damaged or foreign file (issue 39)
        game_data = read_game_data(meta, path, game)
    if not (path / "results.parquet").is_file() and not meta.get("complete", False):
        raise CardbalanceError("run '%s' has no results yet (its sweep did not finish); finish it with "
                               "`cardbalance sweep --resume %s`." % (path, path))
    results = _read_parquet(path, "results.parquet")
    lengths = _read_parquet(path, "lengths.parquet")
    required = list(cell_columns(meta)) + list(SUM_COLUMNS) + outcome_columns(meta["end_types"])
    missing = [column for column in required if column not in results.columns]
    if missing:
        raise CardbalanceError("'%s' is not a readable run: results.parquet lacks column(s) %s."
                               % (path, ", ".join(missing)))
    missing = [column for column in ("cell", "turns", "count") if column not in lengths.columns]
    if missing:
        raise CardbalanceError("'%s' is not a readable run: lengths.parquet lacks column(s) %s."
                               % (path, ", ".join(missing)))
    results = results.sort_values("cell", kind="stable").reset_index(drop=True)
    from analysis.dimensions import add_roles, run_dimensions
    dimensions = run_dimensions(meta)
    results = add_roles(results, dimensions)
    int_columns = {column for dimension in dimensions if dimension.get("kind") in ("per_seat", "seat")
                   for column in dimension.get("columns", ())}
    for column in cell_columns(meta):
        if column != "cell" and column not in int_columns and results[column].dtype == object:
            results[column] = results[column].astype(str)
    # Optional: turns by outcome and end type (end_lengths.parquet; absent for games that do not record it).
    end_lengths = _read_parquet(path, "end_lengths.parquet") if (path / "end_lengths.parquet").is_file() else None
    return Run(path=path, meta=meta, results=results, lengths=lengths, end_lengths=end_lengths, game_data=game_data)


def _check_versions(path: Path, meta: dict):
    """The run's game (its GameSpec), once its format and behaviour versions are this code's."""
    supported = supported_format_version()
    if meta["format_version"] != supported:
        raise CardbalanceError(
            "run '%s' uses run format version %s, but this cardbalance reads version %d; "
            "re-run the sweep with this version or report it with the version that wrote it (%s)."
            % (path, meta["format_version"], supported, meta.get("package_version", "unknown")))
    from sim.registry import get_game
    try:
        game = get_game(meta["game"])
    except CardbalanceError:
        raise CardbalanceError("run '%s' is of game '%s', which this cardbalance does not know."
                               % (path, meta["game"])) from None
    if meta["behaviour_version"] != game.behaviour_version:
        raise CardbalanceError(
            "run '%s' was simulated with %s behaviour version %s, but the rules now have behaviour "
            "version %d; its results no longer describe the game: re-run the sweep."
            % (path, meta["game"], meta["behaviour_version"], game.behaviour_version))
    return game


def _read_parquet(path: Path, name: str) -> pd.DataFrame:
    file = path / name
    if not file.is_file():
        raise CardbalanceError("'%s' is not a complete run folder: %s is missing." % (path, name))
    try:
        return pd.read_parquet(file)
    except Exception as error:  # pyarrow raises several unrelated types for a bad file
        raise CardbalanceError("'%s' is not a readable run: %s cannot be read (%s)."
                               % (path, name, str(error).splitlines()[0] if str(error) else type(error).__name__)) from None
