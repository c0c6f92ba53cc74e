"""The card pool and deck lists a run played, as game data (`sim.registry.GameData`).

The pool and the decks are pure functions of the rules (card_pool.py), so a run's
stored rules rebuild them, but only with the generator of today's code. A run
therefore stores what it played, `data/card_pool.json` in its folder with its hash in
meta.json: for each distinct rules of the run (the rules array before the pool part,
hashed: `rules_key`) the pool table and every (template, rank) deck list its cells
use. `--resume` plays the stored pool and decks (the kernel reads the pool from the
rules array, so the stored table replaces the generated one there), and `play --from`
replays with the stored decks and refuses, in one line, a run whose stored pool is
not what this code generates (the reference engine builds its pool from the rules).

The document a plan-free caller binds (`shipped`: bench, tests, `compare`) lists no
rules: every batch then generates the pool and decks from the rules as before, so
results do not move. Only a sweep's plan (`for_plan`) lists them.

    {"format": "novel_tcg-card-pool", "version": 1,
     "rules": [{"names": [rules names], "key": rules_key, "pool": [[kind, category, star, atk, hp|value,
                durability], ...], "decks": [{"template", "rank", "ceiling", "cards": [[kind, copies], ...]}]}]}
"""

from __future__ import annotations

import functools
import hashlib
import json
import re

import numpy as np

from sim.errors import CardbalanceError
from sim.novel_tcg import card_pool
from sim.novel_tcg.layout import MAX_DECK
from sim.novel_tcg.rules import N_KINDS, POOL_FIELDS, R_POOL, RANK_MAX, RANK_MIN, RULES_ARRAY_SIZE, STAR_MAX, Rules
from sim.registry import GameData
from sim.user_input import read_json

DATA_NAME = "card_pool.json"
FORMAT, VERSION = "novel_tcg-card-pool", 1


def rules_key(rules_array) -> str:
    """The hash of a rules array's numbers and switches (everything before the pool table)."""
    head = np.ascontiguousarray(np.asarray(rules_array, dtype=np.int64)[:R_POOL])
    return hashlib.sha256(head.tobytes()).hexdigest()[:16]


def _encode(document: dict) -> bytes:
    """Indented JSON with each innermost list of numbers on one line (a pool row, a [kind, copies] pair)."""
    text = json.dumps(document, indent=1, sort_keys=True)
    text = re.sub(r"\[[\s\d,-]*\]", lambda match: json.dumps(json.loads(match.group(0))), text)
    return (text + "\n").encode()


def shipped() -> bytes:
    """The document of a caller that binds no plan: no rules listed, everything generated."""
    return _encode({"format": FORMAT, "version": VERSION, "rules": []})


def for_plan(plan) -> bytes:
    """The pool and deck lists of every rules and (template, rank) the plan's cells play."""
    entries: dict[str, dict] = {}
    for name, rules in plan.rules.items():
        array = rules.to_array()
        key = rules_key(array)
        if key not in entries:
            pool = array[R_POOL:].reshape(N_KINDS, POOL_FIELDS)
            entries[key] = {"names": [], "key": key, "rules": rules,
                            "pool": [[kind, *map(int, pool[kind])] for kind in range(N_KINDS)], "decks": {}}
        entries[key]["names"].append(name)
    for cell in plan.cells:
        rules = plan.rules[cell.rules]
        entry = entries[rules_key(rules.to_array())]
        for seat in (0, 1):
            template, rank = cell.columns["deck%d" % seat], int(cell.columns["rank%d" % seat])
            if (template, rank) not in entry["decks"]:
                counts = card_pool.deck_counts(rules, template, rank)
                entry["decks"][template, rank] = {"template": template, "rank": rank,
                                                  "ceiling": rules.star_ceiling(rank),
                                                  "cards": [[int(k), int(c)] for k, c in counts.items()]}
    document = {"format": FORMAT, "version": VERSION, "rules": [
        {"names": e["names"], "key": e["key"], "pool": e["pool"],
         "decks": [e["decks"][k] for k in sorted(e["decks"], key=lambda k: (card_pool.TEMPLATES.index(k[0]), k[1]))]}
        for e in entries.values()]}
    return _encode(document)




# ---- reading ------------------------------------------------------------------------------
# A run's copy is read only through `_parse`, which checks every field before the kernels see
# it (GameData.check, sim/run_data.py): a hash updated after an edit does not make a bad file
# playable. Stats (ATK, HP or value, durability) may be edited; what identifies a kind
# (its category and star) and the deck lists' shape may not.
STAT_MAX = 2**31 - 1  # a pool number lands in an int64 rules slot; far above any generated value


_IDENTITY_RULES = Rules()  # any rules: a kind's category and star do not depend on them


def _fail(field: str, allowed: str, value) -> None:
    raise CardbalanceError("game data %s: '%s' must be %s (got %s)." % (DATA_NAME, field, allowed, _shown(value)))


def _shown(value) -> str:
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = "a number of over 4300 digits"
    return text if len(text) <= 40 else text[:40] + "..."


def _count(value, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        _fail(field, "an integer from %d to %d" % (low, high), value)
    return value


def _list(value, field: str, what: str) -> list:
    if not isinstance(value, list):
        _fail(field, "a list of " + what, value)
    return value


def _pool(rows, field: str) -> np.ndarray:
    """The pool table: one [kind, category, star, atk, hp|value, durability] row per kind, each kind once."""
    expected = card_pool.pool_table(_IDENTITY_RULES)  # category and star of every kind (stats differ by rules)
    pool = np.full((N_KINDS, POOL_FIELDS), -1, dtype=np.int64)
    if len(_list(rows, field, "%d rows" % N_KINDS)) != N_KINDS:
        _fail(field, "a list of %d rows, one per card kind" % N_KINDS, "%d rows" % len(rows))
    for index, row in enumerate(rows):
        where = "%s[%d]" % (field, index)
        if not isinstance(row, list) or len(row) != POOL_FIELDS + 1:
            _fail(where, "[kind, category, star, atk, hp or value, durability]", row)
        kind = _count(row[0], where + "[0] (kind)", 0, N_KINDS - 1)
        if pool[kind, 0] != -1:
            _fail(where + "[0] (kind)", "a kind not listed before", kind)
        for column, name in ((1, "category"), (2, "star")):
            _count(row[column], "%s[%d] (%s of kind %d)" % (where, column, name, kind),
                   int(expected[kind, column - 1]), int(expected[kind, column - 1]))
        for column, name in ((3, "atk"), (4, "hp or value"), (5, "durability")):
            _count(row[column], "%s[%d] (%s)" % (where, column, name), 0, STAT_MAX)
        pool[kind] = row[1:]
    return pool


def _deck(deck, field: str) -> tuple[tuple[str, int], np.ndarray]:
    """((template, rank), deck list) of one stored deck: at most a deck's worth of known kinds."""
    if not isinstance(deck, dict):
        _fail(field, "an object with template, rank, ceiling and cards", deck)
    template = deck.get("template")
    if template not in card_pool.TEMPLATES:
        _fail(field + ".template", "one of " + ", ".join(card_pool.TEMPLATES), template)
    rank = _count(deck.get("rank"), field + ".rank", RANK_MIN, RANK_MAX)
    _count(deck.get("ceiling"), field + ".ceiling", 1, STAR_MAX)
    cards = []
    for index, pair in enumerate(_list(deck.get("cards"), field + ".cards", "[kind, copies] pairs")):
        where = "%s.cards[%d]" % (field, index)
        if not isinstance(pair, list) or len(pair) != 2:
            _fail(where, "a [kind, copies] pair", pair)
        kind = _count(pair[0], where + "[0] (kind)", 0, N_KINDS - 1)
        cards += [kind] * _count(pair[1], where + "[1] (copies)", 1, MAX_DECK)
    if not 1 <= len(cards) <= MAX_DECK:
        _fail(field + ".cards", "from 1 to %d cards in all" % MAX_DECK, "%d cards" % len(cards))
    return (template, rank), np.array(cards, dtype=np.int64)


@functools.lru_cache(maxsize=16)
def _parse(blob: bytes) -> dict:
    """{rules key: (pool table, {(template, rank): deck})} of a stored document, every field checked."""
    try:
        document = read_json(bytes(blob).decode("utf-8"), "game data %s" % DATA_NAME)
    except UnicodeDecodeError:
        raise CardbalanceError("game data %s is not UTF-8 text." % DATA_NAME) from None
    if not isinstance(document, dict) or document.get("format") != FORMAT or document.get("version") != VERSION:
        raise CardbalanceError("game data %s is not a %s version %d document." % (DATA_NAME, FORMAT, VERSION))
    tables = {}
    for index, entry in enumerate(_list(document.get("rules"), "rules", "rules entries")):
        field = "rules[%d]" % index
        if not isinstance(entry, dict):
            _fail(field, "an object with names, key, pool and decks", entry)
        names = entry.get("names")
        if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
            _fail(field + ".names", "a list of rules names", names)
        key = entry.get("key")
        if not isinstance(key, str) or not re.fullmatch(r"[0-9a-f]{16}", key):
            _fail(field + ".key", "16 hexadecimal digits (the rules' key)", key)
        pool = _pool(entry.get("pool"), field + ".pool")
        decks = dict(_deck(deck, "%s.decks[%d]" % (field, number))
                     for number, deck in enumerate(_list(entry.get("decks"), field + ".decks", "deck objects")))
        tables[key] = (pool, decks)
    return tables


def check(blob: bytes) -> None:
    """`GameData.check`: the stored document is well formed (one error line naming the field)."""
    _parse(bytes(blob))


GAME_DATA = GameData(DATA_NAME, "the card pool (§18.1) and each template's deck list per rules and rank that the "
                                "cells played", shipped, for_plan=for_plan, check=check)


def stored(data: dict | None, rules_array):
    """(pool table, {(template, rank): deck}) the run stored for these rules; None when the
    bound data lists no rules (generate as the code does); CardbalanceError when it lists
    others only."""
    if not data or DATA_NAME not in data:
        return None
    tables = _parse(bytes(data[DATA_NAME]))
    if not tables:
        return None
    key = rules_key(rules_array)
    if key not in tables:
        raise CardbalanceError("the run's %s holds no card pool for these rules (key %s; it holds %s)."
                               % (DATA_NAME, key, ", ".join(sorted(tables))))
    return tables[key]


def stored_deck(decks: dict, template: str, rank: int) -> np.ndarray:
    if (template, rank) not in decks:
        raise CardbalanceError("the run's %s holds no %s deck for rank %d." % (DATA_NAME, template, rank))
    return decks[template, rank]


def rules_with_pool(rules_array, pool) -> np.ndarray:
    """The rules array with the stored pool table in place of the generated one (a policy
    block after the rules, the tuned agent's weights, is kept)."""
    array = np.array(rules_array, dtype=np.int64, copy=True)
    assert len(array) >= RULES_ARRAY_SIZE
    array[R_POOL:RULES_ARRAY_SIZE] = pool.ravel()
    return array


# ---- the report --------------------------------------------------------------------------

def stored_document(data: dict | None) -> dict | None:
    """The run's stored document, from its game data as `analysis.runs.load_run` read and
    checked it (None for a run that stored none, or whose document lists no rules)."""
    if not data or DATA_NAME not in data:
        return None
    check(data[DATA_NAME])
    document = json.loads(data[DATA_NAME])
    return document if document["rules"] else None


def deck_text(entry: dict, deck: dict) -> str:
    """'20 x 4★ 6/7, ..., 5 x Blade +3 (d3)' from a stored entry's pool."""
    pool = np.zeros((N_KINDS, POOL_FIELDS), dtype=np.int64)
    for row in entry["pool"]:
        pool[int(row[0])] = row[1:]
    return ", ".join("%d x %s" % (copies, card_pool.kind_name(pool, kind)) for kind, copies in deck["cards"])


assert STAR_MAX == 20  # the pool's character kinds: shape * 20 + star - 1 (card_pool.py)
