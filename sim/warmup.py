"""Fill the numba caches of several games at once, one process per game.

Each game's engine compiles independently of the others (its own kernels and
cache stamp, `sim/jit_cache.py`), so on a machine with two or more cores the
games' cold compiles can run side by side instead of one after the other.
The test suite's controller calls `warm_games` before its xdist workers start
(tests/conftest.py), so the workers load cached kernels instead of each
compiling the same ones: two workers and two games paid four compiles before.

    python -m sim.warmup GAME           # one game in this process

`warm_game` compiles what most commands and tests run: one match of the
game's default-sweep cell (the scripted loop), a paired batch of it
(`compare`), and a mirror cell of each agent the game names in
`GameSpec.extra["bench_compile_strategies"]` (agents compiled into a loop of
their own, e.g. Faction War's search agents).

The split of one game's compile over two processes, which `cardbalance sweep`
uses, is `sim/compile_ahead.py`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

WARM_TIMEOUT_S = 1800


def warm_game(name: str) -> None:
    """Compile (or load) one game's common kernels in this process."""
    import numpy as np

    from sim.sweep.grid import build_plan, default_sweep

    plan = build_plan(default_sweep(name))
    game = plan.game
    first = plan.cells[0]
    rules = np.ascontiguousarray(plan.rules[first.rules].to_array())
    cell = np.ascontiguousarray(plan.cell_array(first))
    game.play_batch(rules, cell, np.uint64(1), 0, 1)
    if game.play_paired_batch is not None:
        game.play_paired_batch(rules, rules, cell, np.uint64(1), 0, 1)
    values = dict(first.values)
    for strategy_name in game.extra.get("bench_compile_strategies", ()):
        strategy = game.strategy_id(strategy_name)
        game.play_batch(rules, game.cell_array(values, strategy, strategy), np.uint64(1), 0, 1)


def warm_games(names, progress: bool = True) -> dict[str, float]:
    """Run `warm_game` for each game in its own process, all at once; {game: wall seconds}.

    With `progress`, each process writes its compile lines (sim/compile_progress.py) to
    this process's stderr. A game whose warm-up fails is left to compile where it is used
    (its tests report the real error); its time is reported as negative.
    """
    env = dict(os.environ)
    if progress:
        env.pop("CARDBALANCE_COMPILE_PROGRESS", None)
    else:
        env["CARDBALANCE_COMPILE_PROGRESS"] = "0"
    output = None if progress else subprocess.DEVNULL
    started = time.perf_counter()
    processes = {name: subprocess.Popen([sys.executable, "-m", "sim.warmup", name], env=env,
                                        stdout=subprocess.DEVNULL, stderr=output)
                 for name in names}
    seconds = {}
    while len(seconds) < len(processes):  # each game's own finishing time
        elapsed = time.perf_counter() - started
        for name, process in processes.items():
            if name in seconds:
                continue
            code = process.poll()
            if code is None and elapsed > WARM_TIMEOUT_S:
                process.kill()
                process.wait()
                code = -1
            if code is not None:
                seconds[name] = elapsed if code == 0 else -elapsed
        time.sleep(0.2)
    return seconds


if __name__ == "__main__":
    for game_name in sys.argv[1:]:
        warm_game(game_name)
