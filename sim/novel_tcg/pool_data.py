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
from pathlib import Path

import numpy as np

from sim.errors import CardbalanceError
from sim.novel_tcg import card_pool
from sim.novel_tcg.rules import N_KINDS, POOL_FIELDS, R_POOL, RULES_ARRAY_SIZE, STAR_MAX
from sim.registry import GameData

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


GAME_DATA = GameData(DATA_NAME, "the card pool (§18.1) and each template's deck list per rules and rank that the "
                                "cells played", shipped, for_plan=for_plan)


# ---- reading ------------------------------------------------------------------------------

@functools.lru_cache(maxsize=16)
def _parse(blob: bytes) -> dict:
    try:
        document = json.loads(blob)
    except ValueError as error:
        raise CardbalanceError("game data %s is not JSON: %s." % (DATA_NAME, error)) from None
    if not isinstance(document, dict) or document.get("format") != FORMAT or document.get("version") != VERSION:
        raise CardbalanceError("game data %s is not a %s version %d document." % (DATA_NAME, FORMAT, VERSION))
    tables = {}
    for entry in document.get("rules", []):
        pool = np.zeros((N_KINDS, POOL_FIELDS), dtype=np.int64)
        for row in entry["pool"]:
            pool[int(row[0])] = row[1:]
        decks = {(deck["template"], int(deck["rank"])): np.array(
            [int(kind) for kind, copies in deck["cards"] for _ in range(int(copies))], dtype=np.int64)
            for deck in entry["decks"]}
        tables[entry["key"]] = (pool, decks)
    return tables


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

def stored_document(run_path, meta: dict) -> dict | None:
    """The run's stored document (None for a run that stored none)."""
    entry = (meta.get("game_data") or {}).get(DATA_NAME)
    if not entry:
        return None
    path = Path(run_path) / entry["copy"]
    if not path.is_file():
        return None
    document = json.loads(path.read_bytes())
    return document if document.get("rules") else None


def deck_text(entry: dict, deck: dict) -> str:
    """'20 x 4★ 6/7, ..., 5 x Blade +3 (d3)' from a stored entry's pool."""
    pool = np.zeros((N_KINDS, POOL_FIELDS), dtype=np.int64)
    for row in entry["pool"]:
        pool[int(row[0])] = row[1:]
    return ", ".join("%d x %s" % (copies, card_pool.kind_name(pool, kind)) for kind, copies in deck["cards"])


assert STAR_MAX == 20  # the pool's character kinds: shape * 20 + star - 1 (card_pool.py)
