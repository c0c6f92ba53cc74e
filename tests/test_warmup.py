"""sim/warmup.py: one process per game; a failed warm-up is reported, not raised."""

from sim.warmup import warm_games


def test_a_game_that_fails_to_warm_is_reported_negative_and_does_not_raise():
    seconds = warm_games(["no_such_game"], progress=False)
    assert list(seconds) == ["no_such_game"] and seconds["no_such_game"] < 0


def test_faction_war_compiles_ahead_exactly_the_signature_its_loop_calls():
    """If the loop called `apply_action` with other types, the part compiled ahead would
    be a second, useless specialisation: after both (a fresh interpreter, the tree's
    cache), it has one signature."""
    import subprocess
    import sys
    code = ("import numpy as np; from sim.faction_war import kernel as K; from sim.warmup import compile_ahead; "
            "from sim.sweep.grid import build_plan, default_sweep; compile_ahead('faction_war'); "
            "plan = build_plan(default_sweep('faction_war')); first = plan.cells[0]; "
            "plan.game.play_batch(plan.rules[first.rules].to_array(), plan.cell_array(first), np.uint64(1), 0, 1); "
            "print(len(K.apply_action.signatures))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "1\n"


def test_no_second_process_for_a_game_without_parts(toy_game):
    from sim.warmup import start_ahead, stop_ahead
    assert start_ahead(toy_game) is None
    stop_ahead(None)


class _Game:
    """A game with a compile-ahead part (only its `extra` and `name` are read)."""
    name = "toy"
    extra = {"compile_ahead": (lambda: None,)}


def _block_starts(monkeypatch, load: float, compile_in_block: bool, jobs: int = -1) -> list:
    """What `ahead_when_cold` started around a block that compiles (or does not)."""
    import os

    import numba as nb

    from sim import warmup
    started = []
    monkeypatch.setattr(warmup, "start_ahead", lambda game: started.append(game.name) or None)
    monkeypatch.setattr(warmup, "busy_cores", lambda: load)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)

    def fresh(x):  # a new function: its first call compiles (no cache)
        return x + 1
    with warmup.ahead_when_cold(_Game(), jobs):
        if compile_in_block:
            assert nb.njit(fresh)(1) == 2
    return started


def test_the_sweep_starts_the_compile_ahead_process_only_when_its_first_batch_compiles(monkeypatch):
    assert _block_starts(monkeypatch, load=0.2, compile_in_block=True) == ["toy"]
    assert _block_starts(monkeypatch, load=0.2, compile_in_block=False) == []


def test_no_compile_ahead_process_without_an_idle_core_or_with_one_job(monkeypatch):
    assert _block_starts(monkeypatch, load=1.7, compile_in_block=True) == []
    assert _block_starts(monkeypatch, load=0.2, compile_in_block=True, jobs=1) == []


def test_busy_cores_reads_the_machine_now_not_the_minute_before(monkeypatch):
    """busy_cores is the non-idle share of the CPU ticks over its window times the cores
    (an idle machine 0, one core of two busy 1), and falls back to the load average
    without /proc/stat."""
    import os

    from sim import warmup
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    monkeypatch.setattr(warmup.time, "sleep", lambda seconds: None)
    for readings, busy in ((((1000, 900), (1200, 1100)), 0.0), (((1000, 900), (1200, 1000)), 1.0),
                           (((1000, 900), (1200, 900)), 2.0)):
        sequence = iter(readings)
        monkeypatch.setattr(warmup, "cpu_ticks", lambda: next(sequence))
        assert warmup.busy_cores() == busy
    monkeypatch.setattr(warmup, "cpu_ticks", lambda: (_ for _ in ()).throw(OSError("no /proc")))
    monkeypatch.setattr(os, "getloadavg", lambda: (1.25, 1.0, 1.0))
    assert warmup.busy_cores() == 1.25
    assert warmup.spare_core() is True  # this compile's core plus a quarter: the other core is free
    monkeypatch.setattr(os, "getloadavg", lambda: (1.7, 1.0, 1.0))
    assert warmup.spare_core() is False  # another process holds most of the second core
