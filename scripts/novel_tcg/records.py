"""What the Novel TCG kernel plays, for speed-only changes that must change nothing.

    python scripts/novel_tcg/records.py [--matches N] [--save FILE | --check FILE]

Plays a fixed grid through `batch.play_batch` (the sweep's own batch): every
rules preset x every deck pairing x ranks (2, 2), (10, 10), (15, 10) x the
strategy pairs random:random, greedy:greedy and defensive:greedy, the first
player alternating with the cell, plus one paired batch per preset (default
against it, greedy), and keeps one SHA-256 prefix of each aggregate vector.
It also counts the actions of the bench's rollout loop (`speed._agent_batch`)
per preset, so the rollout count the bench divides by cannot drift either.
`--save` before an optimisation, `--check` after it (exit 1 and every
differing cell). A rule or strategy change is expected to move it; then save
a new record. `records_baseline.json` beside this script was saved at
f4fc2ed (before issue 26's speed work) with the default 200 matches per cell.

A record keeps how many effect counters it digested ("counters"; a record
without the key has the 19 of before §18.3 Q8's counters): `--check` digests
only that many, so counters appended to `layout.COUNTER_NAMES` (which count
and change no play) leave an older record comparable on the ones it has.
`--check` and `--save` together check the old record and save the new one
from the same play.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import numpy as np  # noqa: E402

from sim import aggregate as agg  # noqa: E402
from sim.novel_tcg import layout as L  # noqa: E402
from sim.novel_tcg.card_pool import TEMPLATES  # noqa: E402
from sim.novel_tcg.rules import PRESETS, load_rules  # noqa: E402
from strategies.novel_tcg import strategy_id  # noqa: E402
from strategies.novel_tcg import batch  # noqa: E402
from strategies.novel_tcg import speed  # noqa: E402

RANKS = ((2, 2), (10, 10), (15, 10))
STRATEGY_PAIRS = (("random", "random"), ("greedy", "greedy"), ("defensive", "greedy"))
SEED = 20261202
COUNTERS_BEFORE_Q8 = 19  # the effect counters of a record saved without a "counters" key


def _digest(vector) -> str:
    return hashlib.sha256(np.ascontiguousarray(vector, dtype=np.int64).tobytes()).hexdigest()[:16]


def _first_counters(vector, counters: int):
    """An aggregate vector with only the first `counters` effect counters (the later ones cut out)."""
    start = agg.counters_slot(L.N_END_TYPES)
    return np.delete(vector, np.arange(start + counters, start + L.N_COUNTERS))


def digests(played: dict, counters: int) -> dict[str, str]:
    """{cell: digest} of `vectors`' output, the aggregate vectors cut to their first `counters` counters."""
    return {name: value if isinstance(value, str) else
            _digest(_first_counters(value[0], counters) if value[1] else value[0]) for name, value in played.items()}


def vectors(matches: int) -> dict:
    """{cell: (vector, whether it holds the effect counters)}, or the rollout's action count (text)."""
    out = {}
    for preset in PRESETS:
        array = batch.checked_rules(load_rules(preset).to_array())
        for index, (deck0, deck1) in enumerate((a, b) for a in TEMPLATES for b in TEMPLATES):
            for rank in RANKS:
                for s0, s1 in STRATEGY_PAIRS:
                    values = {"rank": rank, "deck": "%s/%s" % (deck0, deck1), "first": index % 2}
                    cell = batch.cell_of(values, strategy_id(s0), strategy_id(s1))
                    vector = batch.play_batch(array, cell, SEED, 0, matches)
                    out["%s/%s-%s/%d-%d/%s-%s" % (preset, deck0, deck1, rank[0], rank[1], s0, s1)] = (vector, True)
        cell = batch.cell_of({"rank": (10, 10), "deck": "swarm/advance", "first": 0}, 0, 0)
        default = batch.checked_rules(load_rules("default").to_array())
        out["%s/paired-with-default" % preset] = (batch.play_paired_batch(default, array, cell, SEED, 0, matches), False)
        rollout = batch.cell_of({"rank": (10, 10), "deck": "curve", "first": 0}, 1, 1)
        deck0, deck1 = batch.decks_of(array, rollout)
        out["%s/rollout-actions" % preset] = str(int(speed._agent_batch(array, rollout, deck0, deck1, np.uint64(SEED),
                                                                      0, matches, -1)))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--save")
    parser.add_argument("--check")
    args = parser.parse_args()
    started = time.process_time()
    played = vectors(args.matches)
    found = digests(played, L.N_COUNTERS)
    total = hashlib.sha256(json.dumps(found, sort_keys=True).encode()).hexdigest()[:16]
    print("records %s over %d cells x %d matches, %d counters (%.1f CPU s)"
          % (total, len(found), args.matches, L.N_COUNTERS, time.process_time() - started))
    if args.check:
        saved = json.loads(Path(args.check).read_text())
        if saved["matches"] != args.matches:
            print("the saved record has %d matches per cell; run with --matches %d" % (saved["matches"], saved["matches"]))
            return 1
        counters = saved.get("counters", COUNTERS_BEFORE_Q8)
        if counters != L.N_COUNTERS:
            print("the saved record digests the first %d of the %d counters; compared on those" % (counters, L.N_COUNTERS))
        found = digests(played, counters)
        differing = [name for name, digest in saved["cells"].items() if found.get(name) != digest]
        for name in differing:
            print("DIFFERS: %s" % name)
        if differing or set(found) != set(saved["cells"]):
            return 1
        print("same as %s" % args.check)
    if args.save:
        found = digests(played, L.N_COUNTERS)
        Path(args.save).write_text(json.dumps({"matches": args.matches, "counters": L.N_COUNTERS, "digest": total,
                                               "cells": found}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
