"""sim/compile_ahead.py: the second compiling process, its parts, and the parent's waits."""

import os
import subprocess
import sys
import time
import types

import pytest

from sim import compile_ahead


def test_faction_war_compiles_ahead_exactly_the_signatures_its_loop_calls():
    """If the loop called a part with other types, the part compiled ahead would be a
    second, useless specialisation: after the parts (both processes' shares) and a batch
    (a fresh interpreter, the tree's cache), every part has one signature."""
    code = ("import numpy as np; from sim.registry import get_game; from sim import compile_ahead as CA; "
            "from sim.sweep.grid import build_plan, default_sweep; game = get_game('faction_war'); "
            "plan = CA.plan_of(game); parts = plan.second + plan.parent_help; "
            "[p.function.compile(p.argtypes) for p in parts]; "
            "sweep = build_plan(default_sweep('faction_war')); first = sweep.cells[0]; "
            "game.play_batch(sweep.rules[first.rules].to_array(), sweep.cell_array(first), np.uint64(1), 0, 1); "
            "print(sorted((p.name, len(p.function.signatures)) for p in parts))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    counts = dict(eval(out.stdout))
    assert set(counts) >= {"apply_action", "choose_greedy", "duel_choice", "_attack"} and set(counts.values()) == {1}


def test_no_second_process_for_a_game_without_parts(toy_game):
    assert compile_ahead.start_ahead(toy_game) is None
    compile_ahead.stop_ahead(None)


def _lines_process(script: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE)


def _ahead(script: str, plan=compile_ahead.AheadPlan(())) -> compile_ahead.AheadCompile:
    return compile_ahead.AheadCompile(_lines_process(script), plan)


def test_the_parent_waits_for_a_part_the_second_process_reports_and_not_after_it_ends():
    # two reports in one write: a buffered reader would hide the second from select()
    ahead = _ahead("import sys, time; sys.stdout.write('start m.f\\npart first\\n'); sys.stdout.flush(); "
                   "time.sleep(0.3); print('part second', flush=True)")
    assert ahead.wait_for("first", limit_s=5) and ahead.started == {"m.f"}
    assert ahead.wait_for("second", limit_s=5) and ahead.done == {"first", "second"}
    assert ahead.wait_for("first")  # already reported
    assert not ahead.wait_for("never")  # the process ended without it
    ahead.stop()
    slow = _ahead("import time; time.sleep(30)")
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
    """A dispatcher stand-in: `compile` records the order of the parent's own compiles."""

    def __init__(self, name="part", compiled=None):
        self._cache = _Cache()
        self.name, self.compiled = name, compiled

    def py_func(self):
        pass

    def compile(self, argtypes):
        self.compiled.append(self.name)


def test_a_miss_on_a_part_helps_until_the_second_process_started_a_helper_then_waits_and_loads():
    compiled = []
    part = _Function("part")
    helpers = [_Function(name, compiled) for name in ("last", "middle", "first")]
    for helper in helpers:
        helper.py_func = types.FunctionType(compile("def %s(): pass" % helper.name, "<helper>", "exec").co_consts[0],
                                            {"__name__": "helpers"})
    plan = compile_ahead.AheadPlan((compile_ahead.AheadPart("part", part, ()),),
                                   tuple(compile_ahead.AheadPart(h.name, h, ()) for h in helpers))
    # the second process has started "middle" (its order: first, middle, last) and finishes the part later
    ahead = _ahead("import time; print('start helpers.first', flush=True); print('start helpers.middle', flush=True); "
                   "time.sleep(0.3); print('part part', flush=True)", plan)
    time.sleep(0.2)  # its start reports are written
    loaded_calls = []
    ahead.when_parts_loaded = lambda: loaded_calls.append("all parts")
    ahead.hold_parts()
    original_wait = ahead.wait_for

    def fill_on_wait(name, limit_s=5):
        done = original_wait(name, limit_s)
        part._cache.filled = done  # the second process wrote the cache files
        return done
    ahead.wait_for = fill_on_wait
    assert part._cache.load_overload(None, None) == "loaded"
    assert compiled == ["last"]  # helped with what the second process had not started, then waited
    assert loaded_calls == ["all parts"]  # the parent has every part: its workers may start
    assert part._cache.load_overload(None, None) == "loaded" and compiled == ["last"]  # a hit: no help, no wait
    assert loaded_calls == ["all parts"]  # once
    ahead.stop()
    assert "load_overload" not in vars(part._cache)


def test_the_second_process_compiles_nothing_on_a_busy_machine(monkeypatch, capsys):
    monkeypatch.setattr(compile_ahead, "spare_core", lambda: False)
    monkeypatch.setattr(compile_ahead, "parts_of", lambda game: pytest.fail("looked at the parts"))
    compile_ahead.compile_parts("faction_war")
    assert capsys.readouterr().out == ""


def test_the_second_process_reports_each_compile_start_and_each_part(monkeypatch, capsys):
    """What the parent reads: "start KEY" for every function it compiles, "part NAME" after each part."""
    import numba as nb

    def ahead_helper(x):
        return x + 2

    def ahead_part(x):
        return jitted_helper(x) * 2
    jitted_helper = nb.njit(ahead_helper)
    jitted_part = nb.njit(ahead_part)
    plan = compile_ahead.AheadPlan((compile_ahead.AheadPart("doubled", jitted_part, (nb.types.int64,)),))
    monkeypatch.setattr(compile_ahead, "spare_core", lambda: True)
    monkeypatch.setattr(compile_ahead, "parts_of", lambda game: plan.second)
    compile_ahead.compile_parts("faction_war")
    assert capsys.readouterr().out.splitlines() == [
        "start %s" % compile_ahead.function_key(jitted_part), "start %s" % compile_ahead.function_key(jitted_helper),
        "part doubled"]


class _Game:
    """A game with a compile-ahead part (only its `extra` and `name` are read)."""
    name = "toy"
    extra = {"compile_ahead": lambda: compile_ahead.AheadPlan((compile_ahead.AheadPart("part", _Function(), ()),))}


def _block_starts(monkeypatch, compile_in_block: bool, jobs: int = -1) -> list:
    """What `ahead_when_cold` started around a block that compiles (or does not)."""
    import numba as nb
    started = []
    monkeypatch.setattr(compile_ahead, "start_ahead", lambda game, when_parts_loaded=None: started.append(game.name))

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


def _chunk_vector(seed, n_matches):
    import numpy as np
    return np.array([seed % 1000, n_matches])


def test_workers_started_early_play_the_same_chunks():
    """`Executor.start_workers` (the sweep calls it once the parent has the parts) only
    starts the pool early: the run that follows returns the same values."""
    from sim.executor import Chunk, Executor
    chunks = [Chunk(0, k, 3, _chunk_vector, ()) for k in range(4)]
    with Executor(7, jobs=2) as plain:
        expected = {key: done.value.tolist() for key, done in plain.run_all(chunks).items()}
    with Executor(7, jobs=2) as early:
        early.start_workers(_chunk_vector)
        early.start_workers(_chunk_vector)  # a second call changes nothing
        got = {key: done.value.tolist() for key, done in early.run_all(chunks).items()}
    assert got == expected


def test_a_help_that_cannot_compile_or_a_failing_callback_does_not_fail_the_parent():
    """Both run inside numba's typing of the parent's batch, and both are optional: a help
    part whose types no longer fit (a kernel edited) stops the helping; a callback that
    raises is dropped."""
    class _Broken(_Function):
        def compile(self, argtypes):
            raise TypeError("no such signature")

    compiled = []
    broken, later = _Broken("broken", compiled), _Function("later", compiled)
    plan = compile_ahead.AheadPlan((compile_ahead.AheadPart("x", _Function(), ()),),
                                   (compile_ahead.AheadPart("broken", broken, ()), compile_ahead.AheadPart("later", later, ())))
    ahead = _ahead("print('part x', flush=True)", plan)
    ahead.help_meanwhile()
    assert compiled == []
    ahead.when_parts_loaded = lambda: 1 / 0
    ahead._part_loaded("x")
    assert ahead.when_parts_loaded is None
    ahead.stop()
