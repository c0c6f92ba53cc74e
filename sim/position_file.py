"""The position file format shared by every game: JSON text -> a checked top-level dict.

A game's `position.load_position` is then only its rules check (what the
cards, zones and phases may be). What is the same for every game lives
here, so each class of bad input is refused once, in one line:

- `read_position`: a dict as given, or a file path / JSON text read as
  UTF-8 and parsed (not JSON, nested too deeply, a number past Python's
  integer-string limit, not an object: one error naming the file);
- `check_keys`: unknown keys, with a "did you mean";
- `position_rules`: the rules a position plays: its `preset` with its
  `rules` overrides (numbers at the top, switches under `ambiguities`).
"""

from __future__ import annotations

from pathlib import Path

from sim.errors import CardbalanceError
from sim.user_input import did_you_mean, read_json, read_text_file


def _fail(message: str):
    raise CardbalanceError("position: " + message)


def read_position(source, what: str = "scenario file") -> dict:
    """`source` (a dict, a path, or JSON text starting with '{') as the position's top-level dict."""
    if isinstance(source, Path) or (isinstance(source, str) and not source.lstrip().startswith("{")):
        path = Path(source)
        if path.is_dir():
            raise CardbalanceError("%s '%s' is a folder; give a position JSON file." % (what, path))
        if not path.is_file():
            raise CardbalanceError("%s '%s' does not exist." % (what, path))
        source = read_json(read_text_file(path, what), "%s '%s'" % (what, path))
    elif isinstance(source, str):
        source = read_json(source, "position")
    if not isinstance(source, dict):
        _fail("the top level must be a JSON object.")
    return source


def check_keys(data: dict, allowed, where: str = "") -> None:
    """Refuse a key of `data` not in `allowed` (`where`: "players[0]." for a nested object)."""
    for key in data:
        if key not in allowed:
            _fail("unknown key '%s%s'; allowed: %s%s." % (where, key, ", ".join(sorted(allowed)),
                                                         did_you_mean(key, allowed)))


def check_choice(value, allowed, field: str):
    """`value` when it is one of the names `allowed` (a phase, a faction), else one error line."""
    if not isinstance(value, str) or value not in allowed:
        _fail("'%s' must be one of %s (got %r)%s." % (field, ", ".join(allowed), value,
                                                     did_you_mean(value, allowed) if isinstance(value, str) else ""))
    return value


def position_rules(data: dict, load_rules, rules_from_mapping, default_preset: str):
    """The rules of a position: `preset` (default `default_preset`) with the `rules` overrides."""
    rules = load_rules(data.get("preset", default_preset))
    if "rules" not in data:
        return rules
    overrides = data["rules"]
    if not isinstance(overrides, dict):
        _fail("'rules' must be an object of rule keys (see `cardbalance rules`).")
    switches = overrides.get("ambiguities", {})
    if not isinstance(switches, dict):
        _fail("'rules.ambiguities' must be an object of switch IDs to readings (got %r)." % (switches,))
    merged = rules.as_dict()
    merged.update({key: value for key, value in overrides.items() if key != "ambiguities"})
    merged["ambiguities"] = {**merged["ambiguities"], **switches}
    return rules_from_mapping(merged, "position rules")
