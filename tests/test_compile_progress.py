"""The compile-progress lines (sim/compile_progress.py): announced once per engine, progress
while it compiles, a closing line, nothing for a cache load; stderr only."""

import io
import types

from sim import compile_progress
from sim.compile_progress import CompileProgress


def _event(start, function):
    dispatcher = types.SimpleNamespace(py_func=function)
    return types.SimpleNamespace(is_start=start, is_end=not start, data={"dispatcher": dispatcher})


def _kernel_function():
    """A function whose file belongs to Faction War's engine (compiled as if it were a kernel)."""
    from sim.faction_war import kernel
    return kernel.is_over.py_func


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def _compile(progress, clock, outer, inner, seconds_each):
    progress.on_start(_event(True, outer))
    for function in inner:
        progress.on_start(_event(True, function))
        clock.now += seconds_each
        progress.on_end(_event(False, function))
    clock.now += seconds_each
    progress.on_end(_event(False, outer))


def test_lines_name_the_game_and_count_functions():
    stream, clock = io.StringIO(), FakeClock()
    progress = CompileProgress(stream=stream, mode="lines", clock=clock)
    kernel = _kernel_function()
    _compile(progress, clock, kernel, [kernel] * 12, seconds_each=1.0)
    lines = stream.getvalue().splitlines()
    assert lines[0] == "compiling Faction War kernels, first run only (cached afterwards) ..."
    assert "compiling Faction War kernels: 5 functions, 5 s" in lines  # one line per 5 s
    assert lines[-1] == "compiled Faction War kernels: 13 functions in 13 s"


def test_second_episode_is_not_announced_again_and_short_ones_stay_quiet():
    stream, clock = io.StringIO(), FakeClock()
    progress = CompileProgress(stream=stream, mode="lines", clock=clock)
    kernel = _kernel_function()
    _compile(progress, clock, kernel, [kernel] * 2, seconds_each=1.0)
    before = stream.getvalue()
    _compile(progress, clock, kernel, [], seconds_each=0.1)  # one small function, 0.1 s
    assert stream.getvalue() == before


def test_bar_mode_redraws_in_place():
    stream, clock = io.StringIO(), FakeClock()
    progress = CompileProgress(stream=stream, mode="bar", clock=clock)
    kernel = _kernel_function()
    _compile(progress, clock, kernel, [kernel] * 3, seconds_each=1.0)
    text = stream.getvalue()
    assert "\r\x1b[Kcompiling Faction War kernels: 1 functions, 1 s" in text
    assert text.endswith("\r\x1b[Kcompiled Faction War kernels: 4 functions in 4 s\n")


def test_function_outside_any_engine_is_labelled_numba():
    stream, clock = io.StringIO(), FakeClock()
    progress = CompileProgress(stream=stream, mode="lines", clock=clock)
    import json  # any function outside the engines' folders (tests/test_* count as Faction War's)
    _compile(progress, clock, json.dumps, [], seconds_each=2.0)
    assert stream.getvalue().splitlines()[0].startswith("compiling numba kernels")


def test_switch_turns_it_off(monkeypatch):
    monkeypatch.setattr(compile_progress, "_listener", None)
    monkeypatch.setenv(compile_progress.ENV_SWITCH, "0")
    assert compile_progress.install() is False


def test_a_cold_compile_says_so_on_stderr_and_a_cached_one_says_nothing(tmp_path):
    """A real compile of one small engine kernel in a fresh cache: the first-run line on
    stderr, stdout untouched; the same call again (cache load) prints nothing."""
    import os
    import subprocess
    import sys
    code = ("import numpy as np; from sim.faction_war import kernel as K; "
            "print(bool(K.is_over(np.zeros(64, dtype=np.int64))))")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    env.pop(compile_progress.ENV_SWITCH, None)
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
            for _ in range(2)]
    assert runs[0].stdout == runs[1].stdout == "False\n"
    assert runs[0].stderr.startswith("compiling Faction War kernels, first run only (cached afterwards) ...\n")
    assert runs[1].stderr == ""
