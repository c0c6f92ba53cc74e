"""Fill the numba caches of several games at once, one process per game.

Each game's engine compiles independently of the others (its own kernels and
cache stamp, `sim/jit_cache.py`), so on a machine with two or more cores the
games' cold compiles can run side by side instead of one after the other.
The test suite's controller calls `warm_games` before its xdist workers start
(tests/conftest.py), so the workers load cached kernels instead of each
compiling the same ones: two workers and two games paid four compiles before.

    python -m sim.warmup GAME           # one game in this process
    python -m sim.warmup --ahead GAME   # only its compile-ahead parts

`warm_game` compiles what most commands and tests run: one match of the
game's default-sweep cell (the scripted loop), a paired batch of it
(`compare`), and a mirror cell of each agent the game names in
`GameSpec.extra["bench_compile_strategies"]` (agents compiled into a loop of
their own, e.g. Faction War's search agents).

`start_ahead` is the same idea inside one game's compile: numba types a
kernel's callees in source order and checks the disk cache for each before
compiling it, so a callee that the parent types late (Faction War's
`apply_action`, after the whole legal-action listing and the greedy agent)
can be compiled meanwhile in a second process and loaded by the parent when
it gets there. A game names such parts in `GameSpec.extra["compile_ahead"]`
(callables that compile them with the exact argument types the loop uses);
if the second process is slower, the parent compiles the part itself and
nothing is lost but that process's core. `cardbalance sweep` starts it
around its first batch when that batch compiles and a core is idle
(`ahead_when_cold`: a warm run starts nothing; on a machine whose other
cores are busy the extra process would take the parent's share instead,
which made the compile slower there: docs/performance.md, "Cold compile
(issue 29)").
"""

from __future__ import annotations

import contextlib
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


def start_ahead(game) -> subprocess.Popen | None:
    """Start compiling the game's compile-ahead parts in a second process (None: the game
    names none, or this machine has one core). Call `stop_ahead` when the parent's compile
    is done."""
    if not game.extra.get("compile_ahead") or (os.cpu_count() or 1) < 2:
        return None
    env = dict(os.environ, CARDBALANCE_COMPILE_PROGRESS="0")  # the parent reports the compile
    return subprocess.Popen([sys.executable, "-m", "sim.warmup", "--ahead", game.name], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def stop_ahead(process: subprocess.Popen | None) -> None:
    """End a compile-ahead process that is still running (the parent no longer needs it;
    numba writes each cache file under a temporary name first, so nothing is left half-written)."""
    if process is not None and process.poll() is None:
        process.terminate()
        process.wait()


def cpu_ticks() -> tuple[int, int]:
    """(all, idle + iowait) CPU ticks since boot, summed over cores (`/proc/stat`'s first line)."""
    with open("/proc/stat") as stat:
        values = [int(v) for v in stat.readline().split()[1:9]]  # user .. steal (guest time is in user)
    return sum(values), values[3] + (values[4] if len(values) > 4 else 0)


def busy_cores(window: float = 0.2) -> float:
    """Cores busy right now: the share of non-idle CPU time over `window` seconds
    (`/proc/stat`) times the cores, this process included; the 1-minute load average
    where `/proc/stat` is missing. Not the load average first: it lags by a minute,
    so right after `pip install` (the README's first command) it still reads ~1.2
    on an idle two-core machine and kept the second process from starting."""
    try:
        total0, idle0 = cpu_ticks()
        time.sleep(window)
        total1, idle1 = cpu_ticks()
    except (OSError, ValueError, IndexError):
        try:
            return os.getloadavg()[0]
        except OSError:  # pragma: no cover - no load average on this platform
            return 0.0
    elapsed = max(total1 - total0, 1)
    return (os.cpu_count() or 1) * (1.0 - (idle1 - idle0) / elapsed)


def spare_core() -> bool:
    """True when a core has nothing to run besides this compile (at most cores − 1
    busy, with half a core of slack for short jobs): only then does a second compiling
    process add a core instead of taking the parent's share (docs/performance.md, issue 29)."""
    cores = os.cpu_count() or 1
    return cores >= 2 and busy_cores() <= cores - 0.5


@contextlib.contextmanager
def ahead_when_cold(game, jobs: int = -1):
    """Around a command's first batch: start `start_ahead(game)` when that batch
    turns out to compile (the first numba cache miss in the block) and a core is
    spare, so a warm run starts no process; stop it when the block ends. Not with
    `--jobs 1` (the user asked for one core)."""
    if jobs == 1 or not game.extra.get("compile_ahead"):
        yield
        return
    try:
        from numba.core import event
    except ImportError:  # pragma: no cover - numba is a dependency
        yield
        return
    started = []

    class _FirstMiss(event.Listener):  # numba accepts only its own Listener subclasses
        def on_start(self, ev):
            if not started:
                started.append(start_ahead(game) if spare_core() else None)

        def on_end(self, ev):
            pass

    try:
        with event.install_listener("numba:compile", _FirstMiss()):
            yield
    finally:
        if started:
            stop_ahead(started[0])


def compile_ahead(name: str) -> None:
    from sim.registry import get_game
    for part in get_game(name).extra.get("compile_ahead", ()):
        part()


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
    if sys.argv[1:2] == ["--ahead"]:
        for game_name in sys.argv[2:]:
            compile_ahead(game_name)
    else:
        for game_name in sys.argv[1:]:
            warm_game(game_name)
