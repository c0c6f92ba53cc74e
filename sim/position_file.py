"""The position file format shared by every game: JSON text -> a checked top-level dict.

A game's `position.load_position` is then only its rules check (what the
cards, zones and phases may be). What is the same for every game lives
here, so each class of bad input is refused once, in one line:

- `read_position`: a dict as given, or a file path / JSON text read as
  UTF-8 and parsed (not JSON, nested too deeply, a number past Python's
  integer-string limit, not an object: one error naming the file);
- `check_keys`: unknown keys, with a "did you mean";
- `position_rules`: the rules a position plays: its `preset` with its
  `rules` overrides (numbers at the top, switches under `ambiguities`);
- the shapes every game's file shares: `players_of` (two player objects with
  their keys checked), `check_list` / `check_object`, `read_counters` (the
  record's effect counters by name) and `action_texts` (the actions to play).
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


def check_list(value, field: str) -> list:
    if not isinstance(value, list):
        _fail("'%s' must be a list (got %r)." % (field, value))
    return value


def check_object(value, field: str, keys) -> dict:
    """`value` when it is an object whose keys are all in `keys` (named "field.key" when not)."""
    if not isinstance(value, dict):
        _fail("'%s' must be an object (got %r)." % (field, value))
    check_keys(value, keys, field + ".")
    return value


def players_of(data: dict, keys, default=None) -> list[dict]:
    """The two player objects of `players` (keys checked); `default` when the file has none."""
    players = data.get("players", default)
    if not isinstance(players, list) or len(players) != 2:
        _fail("'players' must list exactly two player objects (got %s)."
              % (len(players) if isinstance(players, list) else repr(players)))
    for p, player in enumerate(players):
        check_object(player, "players[%d]" % p, keys)
    return players


COUNT_MAX = 2**62  # a count lands in an int64 slot: larger is an error, never wrapped


def read_counters(value, names) -> dict[int, int]:
    """The `counters` object (counter name -> count, `names` = the game's COUNTER_NAMES) as {index: count}."""
    counters = check_object(value, "counters", names)
    out = {}
    for name, count in counters.items():
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= COUNT_MAX:
            _fail("'counters.%s' must be a count from 0 to %d (got %r)." % (name, COUNT_MAX, count))
        out[list(names).index(name)] = count
    return out


def action_texts(data: dict, example: str) -> list[str]:
    """The position's `actions`: a list of action texts (`example` shows one)."""
    actions = data.get("actions", [])
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        _fail("'actions' must be a list of action texts like \"%s\"." % example)
    return actions
