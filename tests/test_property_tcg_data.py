"""Property-based tests (Hypothesis) for issue 39: Novel TCG positions and a run folder's
game data. Every generated input either loads or is refused in one line — exit 2, no
traceback, the folder unchanged (`test_property_inputs._run` checks all three).

- Positions (`scenario --game novel_tcg`): the format's own keys with values of every
  type (cards in other digits, zones that are numbers, entries that are strings); half are
  one bad field on a valid position, so the checks after the first are reached. An accepted
  position also survives `dump_position` -> `match_from_position` with the same packed state.
- Game-data files (`data/card_pool.json` of a small run): the stored document with one to
  three values replaced, keys dropped or raw bytes, its hash in meta.json updated to match
  (so the format check, not the hash, must catch it); read by `sweep --resume`,
  `play --from` or the report's card-pool section.
- meta.json's `game_data` entries: shapes and copy paths (out of the folder, absolute, empty);
  and any other field of meta.json replaced, or with values replaced inside it.

Settings: `test_property_inputs.SETTINGS` (EXAMPLES examples per test, 40 by default,
derandomized, no deadline; HYPOTHESIS_EXAMPLES searches longer). Nothing is played: where
a match would start, `_WouldPlay` is raised and the input counts as accepted. With 40
examples about a quarter of the positions and one in seven of the data files are accepted
(`--hypothesis-show-statistics` shows the share per reader).
Time: the four tests take about 3 s together, plus the run fixture (one sweep of four
matches, about 1 s with the kernels cached); 1,500 position examples take about 13 s.
What they found while they were written:
- on the code before issue 39, each of the four fails at 40 examples: positions whose
  zones are numbers or strings (TypeError, AttributeError), pool documents edited with
  their hash updated (tracebacks), game-data copies read from beside the run folder,
  meta.json fields of another type (a list of strategies that is a number: tracebacks in
  report, --resume and play --from; now refused by sim/run_meta.py);
- `play --from` printed its replay header before refusing a run whose stored pool is not
  the generated one (tests/test_hardening_round3.py, now refused before any output);
- a meta.json whose `game_data` is null or empty is accepted: it is read as a run from
  before game data was stored, which plays the shipped data (kept: older runs resume);
- 300 mutated pools played for real (`play --from` and `--resume`, an exploration, not
  in the suite): no accepted pool crashed an engine (stats up to 2^31 - 1, decks of one
  card, of 80 copies of one card, of equipment only); 300 meta.json files damaged anywhere
  (the readers above) and 60 through the full `report` command: no traceback.
"""

from __future__ import annotations

import copy
import itertools
import json
import shutil

import pytest

from hypothesis import event, given
from hypothesis import strategies as st

from test_property_inputs import JSON_VALUES, NUMBERS, SETTINGS, TEXT, _run, _WouldPlay
from test_hardening_round3 import tcg_run  # noqa: F401 (the module's run fixture)

from sim.registry import data_hash

# ---- Novel TCG positions -------------------------------------------------------------------------------

POSITION_KEYS = ["rules", "turn", "active", "first", "phase", "seats", "actions", "summons_used", "winner",
                 "end_type"]
SEAT_KEYS = ["rank", "hp", "hand", "deck", "front", "back", "weapon", "graveyard", "person_attacked", "fatigue"]
FRONT_KEYS = ["slot", "card", "hp", "position", "summoned", "changed", "attacked"]
BACK_KEYS = ["slot", "card", "host", "durability", "on_opponent"]
TCG_CARDS = st.one_of(st.sampled_from(["10", "10★", "4 aggressive", "20 defensive", "1", "blade", "armour", "weapon",
                                       "²", "1²", "١٠", "21", "0", "10 shiny", " 7 ", "BLADE", ""]),
                      st.integers(-2, 22), TEXT, NUMBERS)
SMALL = st.one_of(st.integers(-1, 8), NUMBERS, st.booleans(), st.none(), TEXT)
ENTRY_VALUES = {"card": TCG_CARDS, "position": st.sampled_from(["attack", "defense", "set", "x", ""]),
                "on_opponent": st.one_of(st.booleans(), SMALL)}
FIELD_VALUES = {
    "rules": st.one_of(st.sampled_from([None, "default", "alternatives", "x", ""]),
                       st.fixed_dictionaries({"ambiguities": st.dictionaries(
                           st.sampled_from(["T-AMB-31", "T-AMB-39", "T-AMB-07", "T-AMB-99", "x"]),
                           st.sampled_from(["true", "false", "also_hand", "skip", "x"]), max_size=2)}),
                       st.dictionaries(st.sampled_from(["front_slots", "back_slots", "turn_cap", "x"]), SMALL,
                                       max_size=2)),
    "phase": st.sampled_from(["action", "battle", "discard", "over", "end", ""]),
    "end_type": st.sampled_from(["none", "hp", "deck_out", "turn_cap", "double_ko", "limit", "x"]),
    "actions": st.lists(st.one_of(st.sampled_from(["end", "attack 0 0", "attack 0 person", "summon 9 attack",
                                                   "equip 60 0", "change 0 defense", "discard 9"]), TEXT), max_size=3),
}


def _entries(keys):
    return st.lists(st.dictionaries(st.sampled_from(keys), st.one_of(
        *(ENTRY_VALUES[k] for k in keys if k in ENTRY_VALUES), SMALL), max_size=5), max_size=3)


SEAT_VALUES = {"hand": st.lists(TCG_CARDS, max_size=4), "deck": st.lists(TCG_CARDS, max_size=4),
               "front": _entries(FRONT_KEYS), "back": _entries(BACK_KEYS)}
VALID = {"turn": 3, "phase": "action", "seats": [{"hand": ["10", "blade"], "front": [{"slot": 0, "card": "4"}],
                                                  "back": [{"slot": 0, "card": "blade", "host": 0}]},
                                                 {"front": [{"slot": 1, "card": "5 defensive", "position": "defense"}],
                                                  "weapon": 2}]}


@st.composite
def tcg_positions(draw):
    if draw(st.booleans()):  # one bad field on a valid position: reaches the checks after the first
        position = copy.deepcopy(VALID)
        if draw(st.booleans()):
            seat = position["seats"][draw(st.integers(0, 1))]
            key = draw(st.sampled_from(SEAT_KEYS + ["x"]))
            seat[key] = draw(st.one_of(SEAT_VALUES.get(key, SMALL), SMALL,  # a zone's entries, or a zone not a list
                                       st.lists(st.one_of(SMALL, TCG_CARDS), min_size=1, max_size=2), JSON_VALUES))
        else:
            key = draw(st.sampled_from(POSITION_KEYS))
            position[key] = draw(st.one_of(FIELD_VALUES.get(key, SMALL), JSON_VALUES))
        return position
    seat = st.dictionaries(st.sampled_from(SEAT_KEYS), st.one_of(*SEAT_VALUES.values(), SMALL, JSON_VALUES),
                           max_size=5)
    keys = draw(st.lists(st.sampled_from(POSITION_KEYS), max_size=6, unique=True))
    position = {key: draw(st.one_of(FIELD_VALUES.get(key, SMALL), JSON_VALUES)) for key in keys}
    if draw(st.booleans()):
        position["seats"] = draw(st.lists(seat, min_size=0, max_size=3))
    return position


# mostly positions of the format; an eighth each any JSON value or raw bytes
INPUTS = st.sampled_from(["position"] * 6 + ["json", "raw"])


@SETTINGS
@given(data=st.data(), kind=INPUTS)
def test_generated_novel_tcg_positions_load_or_exit_2(tmp_path, data, kind):
    position = data.draw(tcg_positions() if kind == "position" else JSON_VALUES)
    raw = data.draw(st.binary(max_size=30)) if kind == "raw" else None
    path = tmp_path / "position.json"
    path.write_bytes(raw if raw is not None else json.dumps(position).encode())
    code, _ = _run(["scenario", "--game", "novel_tcg", str(path)], tmp_path)
    assert code in (0, 2)
    event("exit %s" % code)  # --hypothesis-show-statistics: how many were accepted
    if code == 0 and raw is None:  # accepted: the position format writes it back to the same state
        from sim.novel_tcg.position import dump_position, match_from_position
        match = match_from_position({k: v for k, v in position.items() if k != "actions"})
        again = match_from_position(json.loads(json.dumps(dump_position(match))))
        assert (again.pack() == match.pack()).all(), position


# ---- game data in a run folder ---------------------------------------------------------------------------

REPLACEMENTS = st.one_of(st.sampled_from([-1, 0, 1, 4, 20, 21, 62, 63, 80, 81, 2**31, 2**63, "swarm", "curve",
                                          "control", "", "0123456789abcdef"]), SMALL, JSON_VALUES)


@st.composite
def damaged_documents(draw, document):
    """`document` with one to three values replaced or dropped, anywhere in its tree."""
    document = copy.deepcopy(document)
    for _ in range(draw(st.integers(1, 3))):
        node = document
        while True:
            keys = sorted(node) if isinstance(node, dict) else list(range(len(node)))
            if not keys:
                break
            inner = [k for k in keys if isinstance(node[k], (dict, list)) and node[k]]
            key = draw(st.sampled_from(inner if inner and draw(st.integers(0, 4)) else keys))  # mostly deeper
            child = node[key]
            if isinstance(child, (dict, list)) and child and draw(st.integers(0, 4)):
                node = child
                continue
            if isinstance(node, dict) and draw(st.integers(0, 4)) == 0:
                del node[key]
            else:  # a number mostly by another small one (an edited stat, often still valid)
                node[key] = draw(st.one_of(st.integers(0, 100), REPLACEMENTS) if isinstance(child, int) else REPLACEMENTS)
            break
    return document


_COUNTER = itertools.count()


def _fresh_copy(tcg_run, tmp_path):
    run = tmp_path / ("run%d" % next(_COUNTER))
    shutil.copytree(tcg_run, run)
    return run


@pytest.fixture
def no_matches(monkeypatch):
    """`sweep --resume` and `play --from` raise `_WouldPlay` where they would start playing."""
    from sim.registry import get_game

    def stop(*args, **kwargs):
        raise _WouldPlay
    monkeypatch.setattr("sim.sweep.runner.run_sweep", stop)
    monkeypatch.setattr(get_game("novel_tcg").replay_log.function, "_target", stop)


def _read_back(run, tmp_path, reader: str) -> int | None:
    """Read the run as `reader` does: exit code (None: it would play), the refusal checked by `_run`."""
    if reader == "report section":  # what `report` reads: load_run, then the card-pool section's tables
        from analysis.runs import load_run
        from sim.errors import CardbalanceError
        from sim.novel_tcg import pool_data
        try:
            run_data = load_run(run)
        except CardbalanceError as error:
            assert "\n" not in str(error)
            return 2
        document = pool_data.stored_document(run_data.game_data)
        for entry in (document or {"rules": []})["rules"]:
            for deck in entry["decks"]:
                pool_data.deck_text(entry, deck)
        return 0
    argv = {"resume": ["sweep", "--resume", str(run), "--jobs", "1", "--quiet", "--no-report"],
            "play --from": ["play", "--from", str(run), "--cell", "0", "--match", "1"]}[reader]
    return _run(argv, tmp_path)[0]


READERS = st.sampled_from(["resume", "play --from", "report section"])


@SETTINGS
@given(data=st.data(), reader=READERS, raw=st.one_of(st.none(), st.binary(max_size=40), st.integers(0, 2000)))
def test_generated_card_pool_files_load_or_exit_2(tcg_run, tmp_path, no_matches, data, reader, raw):  # noqa: F811
    run = _fresh_copy(tcg_run, tmp_path)
    path = run / "data" / "card_pool.json"
    if isinstance(raw, int):  # the stored file cut short
        blob = path.read_bytes()[:raw]
    elif raw is not None:
        blob = raw
    else:
        blob = json.dumps(data.draw(damaged_documents(json.loads(path.read_bytes())))).encode()
    path.write_bytes(blob)
    meta = json.loads((run / "meta.json").read_text(encoding="utf-8"))
    meta["game_data"]["card_pool.json"].update(sha256=data_hash(blob), bytes=len(blob))  # the hash agrees
    (run / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    code = _read_back(run, tmp_path, reader)
    assert code in (None, 0, 2)
    event("%s: %s" % (reader, "refused" if code == 2 else "accepted"))
    shutil.rmtree(run)


OUTSIDE = "../outside/"  # a folder beside the run holding exact copies of its data: only the path can refuse them
PATHS = st.one_of(st.sampled_from(["data/card_pool.json", "data/../data/card_pool.json", OUTSIDE + "card_pool.json",
                                   OUTSIDE + "tuned_weights.json", "ABSOLUTE", "/etc/hostname", "", ".", "data",
                                   "meta.json", "./data/card_pool.json", "data/tuned_weights.json"]), TEXT)


@SETTINGS
@given(data=st.data(), reader=READERS)
def test_generated_game_data_entries_load_or_exit_2(tcg_run, tmp_path, no_matches, data, reader):  # noqa: F811
    run = _fresh_copy(tcg_run, tmp_path)
    outside = tmp_path / "outside"
    if not outside.is_dir():
        shutil.copytree(run / "data", outside)
    meta = json.loads((run / "meta.json").read_text(encoding="utf-8"))
    if data.draw(st.integers(0, 4)) == 0:
        meta["game_data"] = data.draw(JSON_VALUES)
    else:
        name = data.draw(st.sampled_from(["card_pool.json", "tuned_weights.json", "x.json"]))
        entry = dict(meta["game_data"].get(name, {}))
        for key in data.draw(st.lists(st.sampled_from(["copy", "copy", "copy", "sha256", "bytes", "description"]),
                                      min_size=1, max_size=2, unique=True)):
            entry[key] = data.draw(PATHS if key == "copy" else st.one_of(SMALL, JSON_VALUES))
            if entry[key] == "ABSOLUTE":  # the outside copy by its absolute path
                entry[key] = str(outside / name)
        meta["game_data"][name] = data.draw(st.one_of(st.just(entry), JSON_VALUES)) \
            if data.draw(st.integers(0, 5)) == 0 else entry
    (run / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    code = _read_back(run, tmp_path, reader)
    assert code in (None, 0, 2)
    event("%s: %s" % (reader, "refused" if code == 2 else "accepted"))
    if code != 2:  # accepted: every copy it read lies inside the run (none recorded: it plays the shipped data)
        for entry in (meta["game_data"] or {}).values():
            assert (run / entry["copy"]).resolve().is_relative_to(run.resolve()), entry
    shutil.rmtree(run)


META_KEYS = ["game", "name", "behaviour_version", "seed", "chunk_size", "length_bins", "complete", "sweep", "rules",
             "strategies", "dimensions", "derived_axes", "cells", "cell_columns", "end_types", "special_end_types",
             "counter_names", "counts", "git_commit"]


@SETTINGS
@given(data=st.data(), reader=READERS, key=st.sampled_from(META_KEYS))
def test_generated_meta_json_fields_load_or_exit_2(tcg_run, tmp_path, no_matches, data, reader, key):  # noqa: F811
    """A field of meta.json replaced by any JSON value, or with values replaced inside it."""
    run = _fresh_copy(tcg_run, tmp_path)
    meta = json.loads((run / "meta.json").read_text(encoding="utf-8"))
    inside = isinstance(meta[key], (dict, list)) and meta[key] and data.draw(st.booleans())
    meta[key] = data.draw(damaged_documents(meta[key]) if inside else st.one_of(REPLACEMENTS, JSON_VALUES))
    (run / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    code = _read_back(run, tmp_path, reader)
    assert code in (None, 0, 2)
    event("%s: %s" % (reader, "refused" if code == 2 else "accepted"))
    shutil.rmtree(run)
