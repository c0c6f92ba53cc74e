"""Where a game's cold numba compile goes: one default-sweep batch in a fresh cache.

    python scripts/compile_profile.py --game faction_war [--top 30] [--cache-dir DIR]

Runs the first cell of the game's built-in sweep once (what `cardbalance sweep`
compiles) with NUMBA_CACHE_DIR pointing at an empty folder (a fresh clone's
state; the worktree's own caches are untouched), and prints the import and
first-batch times (wall and CPU), the number of compiled specialisations,
functions compiled for more than one signature, and the functions with the
most exclusive compile time (their own typing and lowering, callees excluded;
LLVM's optimisation of the module is counted at the function that finalises it).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import defaultdict


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="faction_war")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--cache-dir", help="numba cache folder (default: a fresh temporary one)")
    parser.add_argument("--ahead", action="store_true",
                        help="as `sweep` does: the game's compile-ahead parts in a second process (sim/warmup.py)")
    args = parser.parse_args()
    cache_dir = args.cache_dir or tempfile.mkdtemp(prefix="nbcold-")
    os.environ["NUMBA_CACHE_DIR"] = cache_dir

    wall0, cpu0 = time.perf_counter(), time.process_time()
    import numpy as np
    from numba.core import event

    from sim.registry import get_game
    from sim.sweep.grid import build_plan, default_sweep

    spec = default_sweep(args.game)
    plan = build_plan(spec)
    game = plan.game
    first = plan.cells[0]
    rules = np.ascontiguousarray(plan.rules[first.rules].to_array())
    cell = np.ascontiguousarray(plan.cell_array(first))
    wall1, cpu1 = time.perf_counter(), time.process_time()

    stack = []  # [name, start, child_time]
    exclusive = defaultdict(float)
    inclusive = {}  # outer functions (depth < 4): their whole subtree, first compile
    signatures = defaultdict(list)

    class Listener(event.Listener):
        def on_start(self, ev):
            stack.append([ev.data["dispatcher"].py_func.__qualname__, time.perf_counter(), 0.0])

        def on_end(self, ev):
            name, start, child = stack.pop()
            spent = time.perf_counter() - start
            exclusive[name] += spent - child
            if len(stack) < 4 and name not in inclusive:
                inclusive[name] = (len(stack), spent)
            signatures[name].append(ev.data["args"])
            if stack:
                stack[-1][2] += spent

    event.register("numba:compile", Listener())
    import resource

    from sim.warmup import start_ahead, stop_ahead
    ahead = start_ahead(game) if args.ahead else None
    game.play_batch(rules, cell, np.uint64(0), 0, 1)
    wall2, cpu2 = time.perf_counter(), time.process_time()
    ahead_done = ahead is not None and ahead.poll() is not None
    stop_ahead(ahead)
    child = resource.getrusage(resource.RUSAGE_CHILDREN)

    print("game %s, cell %s, cache %s" % (args.game, first.cell, cache_dir))
    print("imports + plan: %.1f s wall, %.1f s CPU" % (wall1 - wall0, cpu1 - cpu0))
    print("first batch (cold compile): %.1f s wall, %.1f s CPU" % (wall2 - wall1, cpu2 - cpu1))
    if args.ahead:
        print("compile-ahead process: %s, %.1f s CPU; the parent compiled %s"
              % ("finished first" if ahead_done else "stopped" if ahead else "not started",
                 child.ru_utime + child.ru_stime,
                 ", ".join(sorted(n for n in signatures if n == "apply_action")) or "none of its parts"))
    print("compiled specialisations: %d of %d functions" % (sum(map(len, signatures.values())), len(signatures)))
    repeated = {name: sigs for name, sigs in signatures.items() if len(sigs) > 1}
    for name, sigs in sorted(repeated.items()):
        print("  %d signatures: %s %s" % (len(sigs), name, "; ".join(str(s) for s in sigs)[:300]))
    print("inclusive compile seconds (subtree), depth < 4:")
    for name, (depth, spent) in sorted(inclusive.items(), key=lambda item: -item[1][1])[:args.top]:
        print("  %7.2f  %s%s" % (spent, "  " * depth, name))
    print("exclusive compile seconds, top %d:" % args.top)
    for name, spent in sorted(exclusive.items(), key=lambda item: -item[1])[:args.top]:
        print("  %7.2f  %s" % (spent, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
