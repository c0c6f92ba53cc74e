"""A run folder's game data read back checked, and the paths its meta.json names (issue 39).

A run stores the data its cells played (`GameData`: a card pool, deck lists, agent
weights) as `data/<name>`, with a hash per file in meta.json's `game_data`. Whatever
reads the folder again — `report`, `sweep --resume`, `play --from` — reads that data
through `read_game_data`, which refuses in one line naming the field:

- a `game_data` table or entry of the wrong shape (not an object, no `copy`, no `sha256`),
  or a file name the game does not play with;
- a copy whose path leaves the run folder (`inside_run`: '..', an absolute path, a link
  pointing out): nothing outside the folder is read because of what the folder says;
- a copy that is missing or whose hash is not the recorded one (edited, truncated);
- a copy with a matching hash whose content is not the file's format (`GameData.check`:
  the hash was updated after an edit, or the file was written by hand).

The trade-off: a report reads and hashes the data files even when no section shows them
(a few kilobytes), so a damaged run is refused by every command alike.
"""

from __future__ import annotations

from pathlib import Path

from sim.errors import CardbalanceError
from sim.registry import data_hash
from sim.user_input import shorten

META = "meta.json"


def inside_run(run, relative, field: str) -> Path:
    """The file `relative` (a path meta.json records, `field` naming where) inside the run folder,
    resolved; one error line when it is no relative path or leads out of the folder."""
    if not isinstance(relative, str) or not relative or "\x00" in relative:
        raise CardbalanceError("run '%s': %s '%s' must be a file path inside the run folder (got %s)."
                               % (run, META, field, shorten(repr(relative))))
    root = Path(run).resolve()
    path = (root / relative).resolve()  # follows links: one pointing out of the folder is refused too
    if root not in path.parents:
        raise CardbalanceError("run '%s': %s '%s' must be a file path inside the run folder (got '%s')."
                               % (run, META, field, shorten(relative)))
    return path


def _entries(meta: dict, run, game) -> dict:
    """meta.json's `game_data` table, its shape checked: {file name: {description, sha256, bytes, copy}}."""
    entries = meta.get("game_data") or {}
    if not isinstance(entries, dict):
        raise CardbalanceError("run '%s': %s 'game_data' must be an object of file name -> {sha256, copy, ...} "
                               "(got %s)." % (run, META, shorten(repr(entries))))
    declared = [entry.name for entry in game.game_data]
    for name, entry in entries.items():
        if name not in declared:
            raise CardbalanceError("run '%s': %s 'game_data' names '%s'; game %s plays with %s."
                                   % (run, META, shorten(name), game.name, ", ".join(declared) or "no data files"))
        if not isinstance(entry, dict) or not isinstance(entry.get("sha256"), str) or "copy" not in entry:
            raise CardbalanceError("run '%s': %s 'game_data.%s' must be an object with 'sha256' (text) and 'copy' "
                                   "(got %s)." % (run, META, name, shorten(repr(entry))))
    return entries


def read_game_data(meta: dict, run, game) -> dict | None:
    """{file name: bytes} of the run's own copies of its game data, every check above passed;
    None for a run that recorded none (it played the data shipped then: the shipped data now)."""
    entries = _entries(meta, run, game)
    if not entries:
        return None
    checks = {entry.name: entry.check for entry in game.game_data}
    data = {}
    for name, entry in entries.items():
        path = inside_run(run, entry["copy"], "game_data.%s.copy" % name)
        if not path.is_file():
            raise CardbalanceError("run '%s' lacks its game data %s (%s); it cannot be reported, resumed or replayed."
                                   % (run, entry["copy"], entry.get("description", name)))
        try:
            blob = path.read_bytes()
        except OSError as error:
            raise CardbalanceError("cannot read '%s' (%s)." % (path, error.strerror or error)) from None
        if data_hash(blob) != entry["sha256"]:
            raise CardbalanceError("run '%s': game data %s has hash %s, meta.json records %s."
                                   % (run, entry["copy"], data_hash(blob), shorten(entry["sha256"])))
        if checks[name] is not None:
            try:
                checks[name](blob)
            except CardbalanceError as error:
                raise CardbalanceError("run '%s': %s" % (run, error)) from None
        data[name] = blob
    return data
