"""Progress of a sweep on the terminal: cells done, matches/s, ETA.

Three modes: a one-line bar redrawn in place when stderr is a terminal,
plain timestamped lines every few seconds when it is not (logs, CI), and
nothing at all with `--quiet`. Progress goes to stderr so that stdout holds
only the summary. With a precision target the total is not known in
advance: the ETA is for the matches scheduled so far.

The design commands (`fair`, `sensitivity`, `map`: sim/fair/runner.py) and the
compare replay (sim/compare/figures.py) print the same line; `unit` names what
is counted ("points" of a design), and `total_cells` None is a count whose end
is not known in advance (`fair`'s search decides its next points as it goes).
"""

from __future__ import annotations

import sys
import time

BAR_WIDTH = 24
LINE_INTERVAL_S = 5.0
BAR_INTERVAL_S = 0.2


def _duration(seconds: float) -> str:
    seconds = int(round(max(seconds, 0)))
    if seconds >= 3600:
        return "%dh%02dm" % (seconds // 3600, seconds % 3600 // 60)
    if seconds >= 60:
        return "%dm%02ds" % (seconds // 60, seconds % 60)
    return "%ds" % seconds


class Progress:
    """`mode`: "bar", "lines", "quiet" or "auto" (bar on a TTY, else lines)."""

    def __init__(self, total_cells: int | None, mode: str = "auto", stream=None, label: str = "sweep",
                 unit: str = "cells"):
        self.stream = stream or sys.stderr
        self.label = label  # the command's word at the start of each plain line ("sweep:", "ladder:")
        self.unit = unit
        if mode == "auto":
            mode = "bar" if getattr(self.stream, "isatty", lambda: False)() else "lines"
        self.mode = mode
        self.total_cells = total_cells
        self.cells_done = 0
        self.matches_done = 0
        self.matches_total = 0
        self.started = time.monotonic()
        self.matches_at_start = 0
        self._last_draw = 0.0
        # the rate is measured from the first finished chunk on, so that worker
        # start-up and compilation do not make the first ETA absurd
        self._rate_since = None
        self._rate_base = 0

    def schedule(self, matches: int) -> None:
        """More matches were scheduled (a round, or resume found some done)."""
        self.matches_total += matches

    def resumed(self, matches: int, cells_done: int) -> None:
        self.matches_done += matches
        self.matches_at_start += matches
        self.cells_done = cells_done

    def advance(self, matches: int, cells_done: int) -> None:
        if self._rate_since is None and matches:
            self._rate_since = time.monotonic()
            self._rate_base = self.matches_done + matches
        self.matches_done += matches
        self.cells_done = cells_done
        self._draw(force=False)

    def finish(self) -> None:
        self._draw(force=True)
        if self.mode == "bar":
            self.stream.write("\n")
            self.stream.flush()

    def status(self) -> tuple[str, float]:
        """(status line, fraction of scheduled matches done)."""
        now = time.monotonic()
        elapsed = now - self.started
        remaining = max(self.matches_total - self.matches_done, 0)
        if self._rate_since is not None and now - self._rate_since > 0.5 and self.matches_done > self._rate_base:
            rate = (self.matches_done - self._rate_base) / (now - self._rate_since)
            eta = _duration(remaining / rate)
        else:  # too early to tell
            rate = (self.matches_done - self.matches_at_start) / elapsed if elapsed > 0 else 0.0
            eta = "0s" if remaining == 0 else "?"
        fraction = self.matches_done / self.matches_total if self.matches_total else 0.0
        cells = "%d" % self.cells_done + ("/%d" % self.total_cells if self.total_cells is not None else "")
        return "%s %s  matches %d/%d  %.0f matches/s  elapsed %s  ETA %s" % (
            self.unit, cells, self.matches_done, self.matches_total, rate, _duration(elapsed), eta), fraction

    def _draw(self, force: bool) -> None:
        if self.mode == "quiet":
            return
        now = time.monotonic()
        interval = BAR_INTERVAL_S if self.mode == "bar" else LINE_INTERVAL_S
        if not force and now - self._last_draw < interval:
            return
        self._last_draw = now
        line, fraction = self.status()
        if self.mode == "bar":
            filled = int(round(fraction * BAR_WIDTH))
            self.stream.write("\r[%s%s] %3.0f%%  %s\033[K" % ("#" * filled, "." * (BAR_WIDTH - filled), 100 * fraction, line))
        else:
            self.stream.write("%s %s: %s\n" % (time.strftime("%H:%M:%S"), self.label, line))
        self.stream.flush()
