"""Measure the Faction War kernel: matches/s per core, turns, compile times.

    python scripts/faction_war/measure_kernel.py [--matches N]

Prints, for random-vs-random and greedy-vs-greedy mirror matches (Human vs
Human, 50 life, default rules), single-core matches per second and the mean
number of turns, then the compile time of the batch kernel: cold (a
subprocess with NUMBA_CACHE_DIR pointing at an empty temporary directory, so
everything compiles) and cached (a second subprocess reusing that directory).
Numbers depend on the machine; the product target is >= 50,000 greedy
matches/s per core.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

# One batch of one match: import + compile (or cache load) + run.
_FIRST_CALL = """
import time
start = time.perf_counter()
from strategies.faction_war import batch
from sim.faction_war.rules import Rules
rules = Rules().to_array()
batch.play_batch(rules, batch.cell_array(0, 0, 50, 50, 0, 1, 0), 1, 0, 1)
print(time.perf_counter() - start)
"""


def first_call_seconds(cache_dir: str) -> float:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, PYTHONPATH=str(REPO))
    env.pop("NUMBA_DISABLE_JIT", None)
    result = subprocess.run([sys.executable, "-c", _FIRST_CALL], env=env, cwd=REPO,
                            capture_output=True, text=True, check=True)
    return float(result.stdout.strip().splitlines()[-1])


def throughput(strategy: int, matches: int) -> tuple[float, float]:
    """(matches per second, mean turns) of one single-threaded batch."""
    from sim import aggregate as agg
    from strategies.faction_war import batch
    from sim.faction_war.rules import Rules

    rules = Rules().to_array()
    cell = batch.cell_array(0, 0, 50, 50, 0, strategy, strategy)
    batch.play_batch(rules, cell, 7, 0, 10)  # compile / load outside the timing
    start = time.perf_counter()
    vector = batch.play_batch(rules, cell, 12345, 0, matches)
    elapsed = time.perf_counter() - start
    return matches / elapsed, vector[agg.A_TURNS_SUM] / vector[agg.A_MATCHES]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=50_000, help="matches per measurement (default 50000)")
    args = parser.parse_args(argv)
    from strategies.faction_war import STRATEGY_IDS

    print("Faction War kernel, one core, human vs human, 50 life, default rules")
    for name in ("random", "greedy"):
        rate, turns = throughput(STRATEGY_IDS[name], args.matches)
        print("  %-6s mirror: %9.0f matches/s   mean turns %.1f" % (name, rate, turns))
    with tempfile.TemporaryDirectory(prefix="cardbalance-numba-") as cache_dir:
        cold = first_call_seconds(cache_dir)
        cached = first_call_seconds(cache_dir)
    print("  first batch in a new process: cold compile %.1f s, from cache %.2f s" % (cold, cached))
    return 0


if __name__ == "__main__":
    sys.exit(main())
