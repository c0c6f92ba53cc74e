"""sim/compile_ahead.py: the second compiling process, its parts, and the parent's waits."""

import os
import subprocess
import sys

import pytest

from sim import compile_ahead


def test_faction_war_compiles_ahead_exactly_the_signatures_its_loop_calls():
    """If the loop called a part with other types, the part compiled ahead would be a
    second, useless specialisation: after the parts (both processes' shares) and a batch
    (a fresh interpreter, the tree's cache), every part has one signature."""
    code = ("import numpy as np; from sim.registry import get_game; from sim import compile_ahead as CA; "
            "from sim.sweep.grid import build_plan, default_sweep; game = get_game('faction_war'); "
            "plan = CA.plan_of(game); parts = plan.second + plan.parent_first; "
            "[p.function.compile(p.argtypes) for p in parts]; "
            "sweep = build_plan(default_sweep('faction_war')); first = sweep.cells[0]; "
            "game.play_batch(sweep.rules[first.rules].to_array(), sweep.cell_array(first), np.uint64(1), 0, 1); "
            "print(sorted((p.name, len(p.function.signatures)) for p in parts))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "[('apply_action', 1), ('choose_greedy', 1), ('duel_choice', 1)]\n"


def test_no_second_process_for_a_game_without_parts(toy_game):
    assert compile_ahead.start_ahead(toy_game) is None
    compile_ahead.stop_ahead(None)


def _lines_process(script: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)


def test_the_parent_waits_for_a_part_the_second_process_reports_and_not_after_it_ends():
    ahead = compile_ahead.AheadCompile(_lines_process(
        "import time; print('first', flush=True); time.sleep(0.3); print('second', flush=True)"), ())
    assert ahead.wait_for("second") and ahead.done == {"first", "second"}
    assert ahead.wait_for("first")  # already reported
    assert not ahead.wait_for("never")  # the process ended without it
    ahead.stop()
    slow = compile_ahead.AheadCompile(_lines_process("import time; time.sleep(30)"), ())
    assert not slow.wait_for("part", limit_s=0.2)  # a stalled process does not hang the parent
    slow.stop()
    assert slow.process.returncode is not None


class _Cache:
    """A numba FunctionCache stand-in: misses until `filled`."""

    def __init__(self):
        self.filled = False

    def load_overload(self, sig, target_context):
        return "loaded" if self.filled else None


class _Function:
    def __init__(self):
        self._cache = _Cache()


def test_a_miss_on_a_part_waits_for_the_second_process_then_loads_and_stop_unhooks():
    function = _Function()
    ahead = compile_ahead.AheadCompile(_lines_process("import time; time.sleep(0.2); print('part', flush=True)"),
                                       (compile_ahead.AheadPart("part", function, ()),))
    ahead.hold_parts()
    original_reads = []

    def fill_on_wait(name, limit_s=compile_ahead.WAIT_LIMIT_S):
        done = compile_ahead.AheadCompile.wait_for(ahead, name, limit_s)
        function._cache.filled = done  # the second process wrote the cache files
        original_reads.append(name)
        return done
    ahead.wait_for = fill_on_wait
    assert function._cache.load_overload(None, None) == "loaded" and original_reads == ["part"]
    assert function._cache.load_overload(None, None) == "loaded" and original_reads == ["part"]  # a hit: no wait
    ahead.stop()
    assert "load_overload" not in vars(function._cache)


def test_the_second_process_compiles_nothing_on_a_busy_machine(monkeypatch, capsys):
    monkeypatch.setattr(compile_ahead, "spare_core", lambda: False)
    monkeypatch.setattr(compile_ahead, "parts_of", lambda game: pytest.fail("looked at the parts"))
    compile_ahead.compile_parts("faction_war")
    assert capsys.readouterr().out == ""


class _Game:
    """A game with a compile-ahead part (only its `extra` and `name` are read)."""
    name = "toy"
    extra = {"compile_ahead": lambda: compile_ahead.AheadPlan((compile_ahead.AheadPart("part", _Function(), ()),))}


def _block_starts(monkeypatch, compile_in_block: bool, jobs: int = -1) -> list:
    """What `ahead_when_cold` started around a block that compiles (or does not)."""
    import numba as nb
    started = []
    monkeypatch.setattr(compile_ahead, "start_ahead", lambda game: started.append(game.name) or None)

    def fresh(x):  # a new function: its first call compiles (no cache)
        return x + 1
    with compile_ahead.ahead_when_cold(_Game(), jobs):
        if compile_in_block:
            assert nb.njit(fresh)(1) == 2
    return started


def test_the_sweep_starts_the_second_process_at_its_first_cache_miss_only(monkeypatch):
    assert _block_starts(monkeypatch, compile_in_block=True) == ["toy"]
    assert _block_starts(monkeypatch, compile_in_block=False) == []
    assert _block_starts(monkeypatch, compile_in_block=True, jobs=1) == []


def test_an_early_start_happens_only_when_no_part_was_ever_compiled(monkeypatch):
    started = []
    monkeypatch.setattr(compile_ahead, "start_ahead", lambda game: started.append(game.name) or "process")
    monkeypatch.setattr(compile_ahead, "never_compiled", lambda parts: False)
    compile_ahead.start_early(_Game())
    assert started == [] and compile_ahead._early == {}
    monkeypatch.setattr(compile_ahead, "never_compiled", lambda parts: True)
    compile_ahead.start_early(_Game(), jobs=1)
    assert started == []
    compile_ahead.start_early(_Game())
    assert started == ["toy"] and compile_ahead._early == {"toy": "process"}
    compile_ahead._early.clear()


def test_never_compiled_reads_the_cache_index_files(tmp_path):
    class _File:
        _index_path = str(tmp_path / "f.nbi")

    function = _Function()
    function._cache._cache_file = _File()
    parts = (compile_ahead.AheadPart("part", function, ()),)
    assert compile_ahead.never_compiled(parts)
    (tmp_path / "f.nbi").write_bytes(b"")
    assert not compile_ahead.never_compiled(parts)
    assert not compile_ahead.never_compiled((compile_ahead.AheadPart("part", object(), ()),))  # no disk cache


def test_busy_cores_reads_the_machine_now_not_the_minute_before(monkeypatch):
    """busy_cores is the non-idle share of the CPU ticks over its window times the cores
    (an idle machine 0, one core of two busy 1), and falls back to the load average
    without /proc/stat."""
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(compile_ahead.time, "sleep", lambda seconds: None)
    for readings, busy in ((((1000, 900), (1200, 1100)), 0.0), (((1000, 900), (1200, 1000)), 1.0),
                           (((1000, 900), (1200, 900)), 2.0)):
        sequence = iter(readings)
        monkeypatch.setattr(compile_ahead, "cpu_ticks", lambda: next(sequence))
        assert compile_ahead.busy_cores() == busy
    monkeypatch.setattr(compile_ahead, "cpu_ticks", lambda: (_ for _ in ()).throw(OSError("no /proc")))
    monkeypatch.setattr(os, "getloadavg", lambda: (1.25, 1.0, 1.0))
    assert compile_ahead.busy_cores() == 1.25
    assert compile_ahead.spare_core() is True  # the parent's compile plus a quarter: the other core is free
    monkeypatch.setattr(os, "getloadavg", lambda: (1.7, 1.0, 1.0))
    assert compile_ahead.spare_core() is False  # another process holds most of the second core
