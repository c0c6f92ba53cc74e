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


PASS_PARTS = {"nopython_type_inference": "typing", "native_lowering": "lowering+LLVM"}
LLVM_STEPS = (("_optimize_functions", "LLVM function passes"), ("_optimize_final_module", "LLVM module passes"),
              ("_finalize_specific", "LLVM machine code"))


def _time_llvm(stack, parts):
    """Wrap numba's LLVM steps (numba.core.codegen) to charge their time to the compiling function.
    They run inside native lowering, so "lowering" below is native_lowering minus these."""
    from numba.core import codegen

    def timed(method, label):
        def wrapper(self, *args, **kwargs):
            started = time.perf_counter()
            try:
                return method(self, *args, **kwargs)
            finally:
                if stack:
                    parts[stack[-1][0]][label] += time.perf_counter() - started
        return wrapper

    for attribute, label in LLVM_STEPS:
        for cls in (codegen.CPUCodeLibrary, codegen.JITCodeLibrary):
            if attribute in vars(cls):
                setattr(cls, attribute, timed(vars(cls)[attribute], label))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="faction_war")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--cache-dir", help="numba cache folder (default: a fresh temporary one)")
    parser.add_argument("--ahead", action="store_true",
                        help="as `sweep` does: the game's compile-ahead parts in a second process (sim/compile_ahead.py)")
    parser.add_argument("--json", help="also write the per-function table to this JSON file")
    args = parser.parse_args()
    cache_dir = args.cache_dir or tempfile.mkdtemp(prefix="nbcold-")
    os.environ["NUMBA_CACHE_DIR"] = cache_dir

    wall0, cpu0 = time.perf_counter(), time.process_time()
    import numpy as np
    from numba.core import event

    from sim.sweep.grid import build_plan, default_sweep

    spec = default_sweep(args.game)
    plan = build_plan(spec)
    game = plan.game
    first = plan.cells[0]
    rules = np.ascontiguousarray(plan.rules[first.rules].to_array())
    cell = np.ascontiguousarray(plan.cell_array(first))
    wall1, cpu1 = time.perf_counter(), time.process_time()

    stack = []  # [name, start, child_time, {part: seconds}]
    exclusive = defaultdict(float)
    parts = defaultdict(lambda: defaultdict(float))  # name -> part -> exclusive seconds
    inclusive = {}  # outer functions (depth < 4): their whole subtree, first compile
    signatures = defaultdict(list)
    passes = []  # [pass name, start, nested compile seconds at start]
    by_pass = defaultdict(float)  # numba pass name -> exclusive seconds, all functions

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

    class PassListener(event.Listener):
        """Exclusive pass time: a pass's callees' compiles and the passes nested in it
        (the inliner runs the callee's front end) are charged where they belong."""
        def on_start(self, ev):
            nested = stack[-1][2] if stack else 0.0  # this function's callees' compile seconds so far
            passes.append([ev.data["name"].split(" [")[0], time.perf_counter(), nested, 0.0, len(stack)])  # "name [qualname]"

        def on_end(self, ev):
            name, start, nested_at_start, inner, depth = passes.pop()
            spent = time.perf_counter() - start - ((stack[-1][2] if stack else 0.0) - nested_at_start)
            if passes and passes[-1][4] == depth:  # a pass inside a pass of the same compile
                passes[-1][3] += spent
            spent -= inner
            if stack:
                parts[stack[-1][0]][PASS_PARTS.get(name, "other passes")] += spent
            by_pass[name] += spent

    event.register("numba:compile", Listener())
    event.register("numba:run_pass", PassListener())
    _time_llvm(stack, parts)
    import resource

    from sim.compile_ahead import parts_of, start_ahead, stop_ahead
    ahead = start_ahead(game) if args.ahead else None
    game.play_batch(rules, cell, np.uint64(0), 0, 1)
    wall2, cpu2 = time.perf_counter(), time.process_time()
    ahead_done = ahead is not None and ahead.process.poll() is not None
    stop_ahead(ahead)
    ahead_names = {part.name for part in parts_of(game)}
    child = resource.getrusage(resource.RUSAGE_CHILDREN)

    print("game %s, cell %s, cache %s" % (args.game, first.cell, cache_dir))
    print("imports + plan: %.1f s wall, %.1f s CPU" % (wall1 - wall0, cpu1 - cpu0))
    print("first batch (cold compile): %.1f s wall, %.1f s CPU" % (wall2 - wall1, cpu2 - cpu1))
    if args.ahead:
        print("compile-ahead process: %s, %.1f s CPU; the parent compiled %s"
              % ("finished first" if ahead_done else "stopped" if ahead else "not started",
                 child.ru_utime + child.ru_stime,
                 ", ".join(sorted(n for n in signatures if n in ahead_names)) or "none of its parts"))
    print("compiled specialisations: %d of %d functions" % (sum(map(len, signatures.values())), len(signatures)))
    repeated = {name: sigs for name, sigs in signatures.items() if len(sigs) > 1}
    for name, sigs in sorted(repeated.items()):
        print("  %d signatures: %s %s" % (len(sigs), name, "; ".join(str(s) for s in sigs)[:300]))
    print("inclusive compile seconds (subtree), depth < 4:")
    for name, (depth, spent) in sorted(inclusive.items(), key=lambda item: -item[1][1])[:args.top]:
        print("  %7.2f  %s%s" % (spent, "  " * depth, name))
    columns = ("other passes", "typing", "lowering", "LLVM function passes", "LLVM module passes", "LLVM machine code")
    rows = []
    for name, spent in exclusive.items():
        share = dict(parts[name])
        llvm = sum(share.get(label, 0.0) for _, label in LLVM_STEPS)
        share["lowering"] = share.pop("lowering+LLVM", 0.0) - llvm
        rows.append((name, spent, share))
    rows.sort(key=lambda row: -row[1])
    totals = {column: sum(row[2].get(column, 0.0) for row in rows) for column in columns}
    print("exclusive compile seconds (own typing, lowering and LLVM; callees excluded), wall:")
    print("  %7s  %s  function" % ("total", "  ".join("%8s" % c.replace("LLVM ", "")[:8] for c in columns)))
    print("  %7.2f  %s  (all)" % (sum(exclusive.values()), "  ".join("%8.2f" % totals[c] for c in columns)))
    for name, spent, share in rows[:args.top]:
        print("  %7.2f  %s  %s%s" % (spent, "  ".join("%8.2f" % share.get(c, 0.0) for c in columns), name,
                                    " (x%d)" % len(signatures[name]) if len(signatures[name]) > 1 else ""))
    print("numba passes, exclusive seconds (native_lowering includes the LLVM steps):")
    for name, spent in sorted(by_pass.items(), key=lambda item: -item[1])[:12]:
        print("  %7.2f  %s" % (spent, name))
    if args.json:
        import json
        with open(args.json, "w") as handle:
            json.dump({"game": args.game, "compile_wall_s": wall2 - wall1, "compile_cpu_s": cpu2 - cpu1,
                       "specialisations": sum(map(len, signatures.values())), "functions": len(signatures),
                       "rows": [{"function": name, "total": spent, "signatures": len(signatures[name]), **share}
                                for name, spent, share in rows]}, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
