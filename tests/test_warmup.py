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
