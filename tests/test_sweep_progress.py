"""Progress output: a bar redrawn in place on a terminal, plain lines otherwise, nothing when quiet."""

import io

from sim.sweep.progress import Progress


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def _drive(progress):
    progress.schedule(3000)
    for cells in (1, 2, 3):
        progress.advance(1000, cells)
    progress.finish()


def test_terminal_gets_a_bar_redrawn_in_place():
    stream = _Terminal()
    _drive(Progress(3, "auto", stream))
    text = stream.getvalue()
    assert text.startswith("\r[") and text.endswith("\n") and text.count("\n") == 1
    assert "[########################] 100%  cells 3/3  matches 3000/3000" in text and "ETA 0s" in text


def test_pipe_gets_plain_lines_and_quiet_gets_nothing():
    stream = io.StringIO()
    _drive(Progress(3, "auto", stream))
    lines = stream.getvalue().splitlines()
    assert "\r" not in stream.getvalue() and lines[-1].endswith("ETA 0s") and "cells 3/3" in lines[-1]
    assert " sweep: cells 1/3  matches 1000/3000" in lines[0] and "ETA ?" in lines[0]
    quiet = io.StringIO()
    _drive(Progress(3, "quiet", quiet))
    assert quiet.getvalue() == ""


def test_a_ladder_says_ladder_in_its_plain_lines():
    stream = io.StringIO()
    _drive(Progress(3, "lines", stream, label="ladder"))
    lines = stream.getvalue().splitlines()
    assert all(" ladder: cells " in line for line in lines) and " sweep:" not in stream.getvalue()
