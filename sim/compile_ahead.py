"""Split one game's cold compile over two processes: a second process compiles
named parts while the parent types the rest, and the parent loads them.

numba types a kernel's callees in source order and looks each one up in the
disk cache before compiling it. A game declares an `AheadPlan` in
`GameSpec.extra["compile_ahead"]`: the functions (`AheadPart`s) a second process
compiles, in its order (Faction War: greedy while the parent compiles the effects
engine, then `legal_actions`, then `apply_action`, which by then loads the effects
engine from the parent's cache). The second process reports on a pipe each
function it starts compiling and each part it has finished. When the parent's
typing reaches a part that is not cached yet, it does not compile it a second
time: it first compiles the part's last callees (`AheadPlan.parent_help`), from the
end backwards, until it meets one the second process has started, then waits for
the part (docs/performance.md, "Cold compile, second round"). Same source and
same argument types, so which process compiled a function cannot change a result.
If the second process ends without the part, or takes longer than `WAIT_LIMIT_S`,
the parent compiles it itself. Once the parent has every part, the other core is
free while the parent finishes alone: `when_parts_loaded` lets the sweep start its
workers then.

`cardbalance sweep` starts the second process as early as it can: right after
reading its options when no part has a cache entry yet (`start_early`: a fresh
clone, where the second process's own start-up is then off the critical path),
otherwise at its first batch's first cache miss (`ahead_when_cold`), so a warm
run starts nothing. The second process first looks whether a core is idle and
quits if not: on a machine whose other cores are busy it would take the
parent's share instead, which made the compile slower there.
"""

from __future__ import annotations

import contextlib
import os
import select
import subprocess
import sys
import time
from dataclasses import dataclass

WAIT_LIMIT_S = 120.0  # longer than any part has taken; a stalled second process cannot hang the parent


@dataclass(frozen=True)
class AheadPart:
    """One jitted function (a numba dispatcher) and the exact argument types the
    parent's loop calls it with (other types would compile a second, unused
    specialisation)."""

    name: str
    function: object
    argtypes: tuple


@dataclass(frozen=True)
class AheadPlan:
    """A game's split: `second`, the parts the second process compiles, in its order;
    `parent_help`, callees of those parts that the parent compiles itself when its typing
    reaches a part the second process has not finished, instead of idling: given in the
    reverse of the order the second process reaches them, so the two work towards each
    other, and the parent stops at the first one the second process has started."""

    second: tuple[AheadPart, ...]
    parent_help: tuple[AheadPart, ...] = ()


def plan_of(game) -> AheadPlan:
    declared = game.extra.get("compile_ahead")
    return declared() if declared else AheadPlan(())


def parts_of(game) -> tuple[AheadPart, ...]:
    """The game's compile-ahead parts, in the order the second process compiles them."""
    return plan_of(game).second


def function_key(function) -> str:
    """A jitted function's name as both processes write it: module and qualified name."""
    py_func = getattr(function, "py_func", function)
    return "%s.%s" % (py_func.__module__, py_func.__qualname__)


class AheadCompile:
    """The second process and what it has reported: each function it starts compiling
    ("start KEY") and each part it has finished ("part NAME"). While it is alive, the
    parent's cache lookups of the parts wait for them (`hold_parts`)."""

    def __init__(self, process: subprocess.Popen, plan: AheadPlan, when_parts_loaded=None):
        self.process = process
        self.plan = plan
        self.when_parts_loaded = when_parts_loaded  # called once, when the parent has every part
        self._loaded: set[str] = set()
        self.done: set[str] = set()
        self.started: set[str] = set()
        self._unread = b""
        self._ended = False
        self._hooked: list = []

    def _read(self, timeout: float) -> bool:
        """Take what the process has written within `timeout` s (raw reads: a buffered
        reader could hold whole lines that `select` no longer sees); False at its end."""
        if self._ended:
            return False
        descriptor = self.process.stdout.fileno()
        if not select.select([descriptor], [], [], max(timeout, 0.0))[0]:
            return True
        data = os.read(descriptor, 65536)
        if not data:
            self._ended = True
            return False
        *lines, self._unread = (self._unread + data).split(b"\n")
        for line in lines:
            kind, _, name = line.decode().partition(" ")
            if kind == "start":
                self.started.add(name)
            elif kind == "part":
                self.done.add(name)
        return True

    def _take_written(self) -> None:
        """Read every report already written, without waiting."""
        while not self._ended and select.select([self.process.stdout.fileno()], [], [], 0)[0]:
            self._read(0.0)

    def wait_for(self, name: str, limit_s: float = WAIT_LIMIT_S) -> bool:
        """Block until the second process reports part `name` compiled (True), or ends or
        passes `limit_s` without it (False)."""
        deadline = time.monotonic() + limit_s
        while name not in self.done:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self._read(remaining):
                return False
        return True

    def help_meanwhile(self) -> None:
        """Compile `parent_help` functions until one the second process has started."""
        for part in self.plan.parent_help:
            self._take_written()
            if function_key(part.function) in self.started:
                return
            try:
                part.function.compile(part.argtypes)
            except Exception:  # noqa: BLE001 - a help is optional: typing reaches the function anyway
                return

    def _part_loaded(self, name: str) -> None:
        self._loaded.add(name)
        if self.when_parts_loaded is not None and len(self._loaded) == len(self.plan.second):
            callback, self.when_parts_loaded = self.when_parts_loaded, None
            with contextlib.suppress(Exception):  # runs inside numba's typing: an error here would fail
                callback()                        # the compile; what the callback does is optional

    def hold_parts(self) -> None:
        """Make each part's cache lookup in this process wait for the second process on
        a miss (helping meanwhile), then look again (numba reads the cache index afresh
        on each lookup)."""
        for part in self.plan.second:
            cache = part.function._cache
            original = cache.load_overload

            def load_or_wait(sig, target_context, _original=original, _name=part.name):
                loaded = _original(sig, target_context)
                if loaded is None and not self._ended and _name not in self.done:
                    self.help_meanwhile()
                    self.wait_for(_name)
                if loaded is None and _name in self.done:
                    loaded = _original(sig, target_context)
                if loaded is not None:
                    self._part_loaded(_name)
                return loaded

            cache.load_overload = load_or_wait  # an instance attribute: only this dispatcher
            self._hooked.append(cache)

    def stop(self) -> None:
        """Undo `hold_parts` and end the process if it still runs (numba writes each cache
        file under a temporary name first, so nothing is left half-written)."""
        for cache in self._hooked:
            del cache.load_overload
        self._hooked.clear()
        if self.process.poll() is None:
            self.process.terminate()
        self.process.wait()
        self.process.stdout.close()


def start_ahead(game, when_parts_loaded=None) -> AheadCompile | None:
    """Start compiling the game's parts in a second process whose cache lookups the
    parent then waits on (None: the game names none, or this machine has one core).
    Call `stop()` on the result when the parent's compile is done."""
    plan = plan_of(game)
    if not plan.second or (os.cpu_count() or 1) < 2:
        return None
    env = dict(os.environ, CARDBALANCE_COMPILE_PROGRESS="0")  # the parent reports the compile
    process = subprocess.Popen([sys.executable, "-m", "sim.compile_ahead", game.name], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    ahead = AheadCompile(process, plan, when_parts_loaded)
    ahead.hold_parts()
    return ahead


def stop_ahead(ahead: AheadCompile | None) -> None:
    if ahead is not None:
        ahead.stop()


_early: dict[str, AheadCompile] = {}  # started by `start_early`, taken by `ahead_when_cold`


def never_compiled(parts) -> bool:
    """True when no part has a cache index file yet (a fresh clone or cache folder). A
    stale cache (edited sources) reads as compiled here; its first miss starts the process."""
    try:
        return not any(os.path.exists(part.function._cache._cache_file._index_path) for part in parts)
    except AttributeError:  # no disk cache for this function, or numba's internals moved
        return False


def start_early(game, jobs: int = -1) -> None:
    """At a command's start, before its own set-up: start the second process now when
    the game's parts were never compiled. Call `discard_early` when the command ends."""
    if jobs == 1 or game.name in _early or not never_compiled(parts_of(game)):
        return
    ahead = start_ahead(game)
    if ahead is not None:
        _early[game.name] = ahead


def discard_early() -> None:
    """Stop a second process that no batch took (the command failed before its first batch)."""
    while _early:
        _early.popitem()[1].stop()


@contextlib.contextmanager
def ahead_when_cold(game, jobs: int = -1, when_parts_loaded=None):
    """Around a command's first batch: take the process `start_early` started, or start
    one at the block's first numba cache miss (a warm run starts none); stop it when the
    block ends. Not with `--jobs 1` (the user asked for one core). `when_parts_loaded`:
    called once the parent has loaded every part (the second process's core is then
    free while the parent finishes alone)."""
    taken = [_early.pop(game.name)] if game.name in _early else []
    if taken:
        taken[0].when_parts_loaded = when_parts_loaded
    with contextlib.ExitStack() as listening:
        if not taken and jobs != 1 and game.extra.get("compile_ahead"):
            from numba.core import event

            class _FirstMiss(event.Listener):  # numba accepts only its own Listener subclasses
                def on_start(self, ev):
                    if not taken:
                        taken.append(start_ahead(game, when_parts_loaded))

                def on_end(self, ev):
                    pass

            listening.enter_context(event.install_listener("numba:compile", _FirstMiss()))
        try:
            yield
        finally:
            if taken:
                stop_ahead(taken[0])


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
    """True when a core has nothing to run besides the parent's compile (at most
    cores − 1 busy, with half a core of slack for short jobs): only then does a second
    compiling process add a core instead of taking the parent's share (docs/performance.md,
    issue 29)."""
    cores = os.cpu_count() or 1
    return cores >= 2 and busy_cores() <= cores - 0.5


def compile_parts(name: str) -> None:
    """The second process: when a core is idle, compile each part in order and say so
    on stdout (a busy machine: nothing, and the parent compiles every part itself)."""
    if not spare_core():
        return
    from numba.core import event

    from sim.registry import get_game

    class _Starts(event.Listener):  # numba accepts only its own Listener subclasses
        def on_start(self, ev):
            print("start", function_key(ev.data["dispatcher"]), flush=True)

        def on_end(self, ev):
            pass

    with event.install_listener("numba:compile", _Starts()):
        for part in parts_of(get_game(name)):
            part.function.compile(part.argtypes)
            print("part", part.name, flush=True)


if __name__ == "__main__":
    for game_name in sys.argv[1:]:
        compile_parts(game_name)
