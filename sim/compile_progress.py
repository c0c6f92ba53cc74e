"""Say on stderr when numba compiles a game's kernels, so a first run is never silent.

A fresh clone compiles each game's engine once (tens of seconds; cached on
disk afterwards, `sim/jit_cache.py`). numba announces every function it
compiles (a cache miss) through its event API (`numba:compile`); this module
listens and writes

    compiling Faction War kernels, first run only (cached afterwards) ...
    compiling Faction War kernels: 57 functions, 31 s
    compiled Faction War kernels: 182 functions in 112 s

on stderr: redrawn in place on a terminal, a plain line every few seconds
otherwise (logs, CI). A cache load announces nothing, so a warm run prints
nothing. stdout (summaries, --json output) is never written.

No total ("57 of 182"): numba finds the functions to compile while it types
the entry kernel, one callee at a time, and which ones miss the cache depends on
the cells played and on what earlier runs left cached (the cold Faction War
compile of the fingerprint script was 172 functions, a partial one any number below), so no count is known before
the compile ends; the elapsed seconds are the honest measure. (The compile-ahead
parts, sim/compile_ahead.py, are known, but Faction War declares 3 and Poker Duel 1 of those
functions: too coarse to count by.)

The game's name comes from the engine the outermost compiling function belongs
to (`jit_cache.engine_of_file`), so this module names no game.
`CARDBALANCE_COMPILE_PROGRESS=0` turns it off (the test suite's own warm-up).
"""

from __future__ import annotations

import os
import sys
import time

LINE_INTERVAL_S = 5.0  # plain lines (not a terminal): at most one per interval
BAR_INTERVAL_S = 0.2
SUMMARY_MIN_S = 1.0  # an episode shorter than this gets no closing line
ENV_SWITCH = "CARDBALANCE_COMPILE_PROGRESS"


def _engine_label(dispatcher) -> str:
    from sim import jit_cache
    code = getattr(getattr(dispatcher, "py_func", None), "__code__", None)
    engine = jit_cache.engine_of_file(code.co_filename) if code is not None else None
    if engine is None:
        return "numba"
    # "poker_duel" -> "Poker Duel", "novel_tcg" -> "Novel TCG" (a word without a vowel is an acronym)
    return " ".join(w.capitalize() if set(w) & set("aeiouy") else w.upper() for w in engine.name.split("_"))


class CompileProgress:
    """Listener for `numba:compile` events; one instance per process (`install`).

    An episode runs from the start of an outermost compile to its end (the
    functions it calls compile inside it).
    """

    def __init__(self, stream=None, mode: str = "auto", clock=time.monotonic):
        self._stream = stream  # None: sys.stderr at the time of writing (pytest swaps it)
        self._mode = mode
        self._clock = clock
        self._depth = 0
        self._label = "numba"
        self._episode_started = 0.0
        self._functions = 0  # compiled in this episode
        self._announced = set()  # labels whose "first run only" line was written
        self._last_write = 0.0
        self._bar_open = False

    def stream(self):
        return self._stream or sys.stderr

    def bar_mode(self) -> bool:
        if self._mode != "auto":
            return self._mode == "bar"
        return bool(getattr(self.stream(), "isatty", lambda: False)())

    def on_start(self, event):
        self._depth += 1
        if self._depth > 1:
            return
        self._label = _engine_label(event.data.get("dispatcher"))
        self._episode_started = self._last_write = self._clock()
        self._functions = 0
        if self._label not in self._announced:
            self._announced.add(self._label)
            self._write("compiling %s kernels, first run only (cached afterwards) ..." % self._label)

    def on_end(self, event):
        self._depth = max(self._depth - 1, 0)
        self._functions += 1
        now = self._clock()
        elapsed = now - self._episode_started
        if self._depth == 0:
            if elapsed >= SUMMARY_MIN_S:
                self._write("compiled %s kernels: %d functions in %.0f s" % (self._label, self._functions, elapsed),
                            final=True)
            elif self._bar_open:
                self._end_bar()
            return
        interval = BAR_INTERVAL_S if self.bar_mode() else LINE_INTERVAL_S
        if now - self._last_write >= interval:
            self._last_write = now
            self._write("compiling %s kernels: %d functions, %.0f s" % (self._label, self._functions, elapsed),
                        in_place=True)

    def _write(self, text: str, in_place: bool = False, final: bool = False):
        stream = self.stream()
        try:
            if self.bar_mode() and in_place:
                stream.write("\r\x1b[K" + text)
                self._bar_open = True
            else:
                if self._bar_open:
                    stream.write("\r\x1b[K")
                    self._bar_open = False
                stream.write(text + "\n")
            stream.flush()
        except (OSError, ValueError):  # a closed or broken stderr must not break a compile
            pass

    def _end_bar(self):
        try:
            self.stream().write("\r\x1b[K")
            self.stream().flush()
        except (OSError, ValueError):
            pass
        self._bar_open = False


_listener: CompileProgress | None = None


def install() -> bool:
    """Listen to numba's compile events in this process (idempotent); False when
    switched off or numba's event API is missing."""
    global _listener
    if _listener is not None:
        return True
    if os.environ.get(ENV_SWITCH, "1") == "0":
        return False
    try:
        from numba.core import event
    except ImportError:
        return False
    progress = CompileProgress()

    class _Forward(event.Listener):  # numba accepts only its own Listener subclasses
        def on_start(self, ev):
            progress.on_start(ev)

        def on_end(self, ev):
            progress.on_end(ev)

    event.register("numba:compile", _Forward())
    _listener = progress
    return True
