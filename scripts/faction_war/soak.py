"""Soak check: many random matches with the universal invariant checker on.

    python scripts/faction_war/soak.py [--matches 1000000] [--chunk 10000] [--seed 1] [--jobs 1]

Plays uniformly random matches (random action from the legal list, both
seats) across every faction pairing, and under the default rules plus the
rule variants of the invariant test (every switch flipped, two packs, a
short turn cap, the faction switches), with `check_state` from
`tests/test_kernel_invariants.py` run after every action and every 50th
match replayed and compared slot by slot. Prints one line per finished
chunk and, at the end, the violations found (expected: 0) and matches/s.
Exit status 1 when any violation was found.

Not a test: the unit suite runs the same checker on 40,000+ matches in
seconds; this script is the long run (10^6 matches: minutes per core) to
launch before a release or after a kernel change. Chunks are independent
(seed = hash of root seed, variant, pairing, chunk), so `--jobs N` plays
the same matches as `--jobs 1`.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
for path in (REPO, REPO / "tests"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

import numpy as np  # noqa: E402

from sim.rng import match_seed  # noqa: E402
from sim.faction_war.rules import Rules  # noqa: E402
from test_kernel_invariants import ERROR_NAMES, OK, PAIRINGS, REPLAY_EVERY, VARIANTS, run_checked  # noqa: E402


def rule_sets() -> list[tuple[str, np.ndarray]]:
    sets = [("default", Rules().to_array())]
    sets += [(name, VARIANTS[name].to_array()) for name in sorted(VARIANTS)]
    return sets


def tasks(n_matches: int, chunk: int):
    """(variant index, pairing index, chunk number, size) covering n_matches round-robin."""
    groups = len(rule_sets()) * len(PAIRINGS)
    chunk_number = 0
    left = n_matches
    while left > 0:
        for group in range(groups):
            if left <= 0:
                break
            size = min(chunk, left)
            yield group // len(PAIRINGS), group % len(PAIRINGS), chunk_number, size
            left -= size
        chunk_number += 1


def play_task(root_seed: int, variant: int, pairing: int, chunk_number: int, size: int):
    name, rules = rule_sets()[variant]
    faction0, faction1 = PAIRINGS[pairing]
    seed = np.uint64(match_seed(match_seed(root_seed, variant * 16 + pairing), chunk_number))
    index, error, actions = run_checked(rules, faction0, faction1, seed, size, REPLAY_EVERY)
    return name, (faction0, faction1), chunk_number, size, int(index), int(error), int(actions)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=1_000_000)
    parser.add_argument("--chunk", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    if args.matches < 1 or args.chunk < 1 or args.jobs < 1:
        parser.error("--matches, --chunk and --jobs must be positive")

    compile_started = time.perf_counter()
    play_task(args.seed, 0, 0, 10**9, 1)  # compile (or load the cache) before timing
    print("soak: kernels ready in %.1f s" % (time.perf_counter() - compile_started), flush=True)

    started = time.perf_counter()
    played = actions = 0
    violations = []
    work = list(tasks(args.matches, args.chunk))
    if args.jobs == 1:
        results = (play_task(args.seed, *task) for task in work)
    else:
        import joblib
        results = joblib.Parallel(n_jobs=args.jobs, return_as="generator_unordered")(
            joblib.delayed(play_task)(args.seed, *task) for task in work)
    try:
        for name, pairing, chunk_number, size, index, error, chunk_actions in results:
            # a failing chunk stops at its first broken match: count only the matches it played
            played += size if error == OK else index + 1
            actions += chunk_actions
            if error != OK:
                violations.append("%s pairing %s chunk %d match %d: %s"
                                  % (name, pairing, chunk_number, index, ERROR_NAMES.get(error, error)))
                print("soak: VIOLATION " + violations[-1], flush=True)
            elapsed = time.perf_counter() - started
            print("soak: %d / %d matches, %d violations, %.0f matches/s" % (
                played, args.matches, len(violations), played / elapsed), flush=True)
    except KeyboardInterrupt:
        print("soak: interrupted", flush=True)
    elapsed = time.perf_counter() - started
    print("soak: done: %d matches (%d actions) in %.1f s = %.0f matches/s, %d jobs; %d violation(s)" % (
        played, actions, elapsed, played / elapsed if elapsed else 0.0, args.jobs, len(violations)))
    for line in violations:
        print("  " + line)
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
