"""Shared test setup. Keep it minimal: other test modules add their own fixtures.

The toy game (`tests/toygame.py`, registered as "toy") lets generic code —
sweep runner, analysis, reports, compare — be tested without Faction War.

With xdist (`-n 2`), the controller fills every game's numba caches before the
workers start, one process per game side by side (`sim/warmup.py`), so the
workers load the kernels instead of each compiling the same ones. On a warm
cache this costs the load only (a few seconds). `CARDBALANCE_TEST_WARMUP=0`
skips it.
"""

import os

import pytest

import toygame

toygame.register_toy_game()

WARMED_GAMES = ("faction_war", "poker_duel", "novel_tcg")


def pytest_configure(config):
    is_controller = not hasattr(config, "workerinput")
    workers = getattr(config.option, "numprocesses", None)
    if is_controller and workers and os.environ.get("CARDBALANCE_TEST_WARMUP", "1") != "0":
        from sim.warmup import warm_games
        config._cardbalance_warmup = warm_games(WARMED_GAMES)  # their compile lines on stderr
    # the tests' own compiles are not a user's first run: no progress lines in captured stderr
    os.environ.setdefault("CARDBALANCE_COMPILE_PROGRESS", "0")


def pytest_report_header(config):
    seconds = getattr(config, "_cardbalance_warmup", None)
    if seconds:
        return "numba caches warmed before the workers started: " + ", ".join(
            "%s %.0f s%s" % (name, abs(s), "" if s >= 0 else " (failed; compiled where used)")
            for name, s in seconds.items())
    return None


@pytest.fixture(scope="session")
def toy_game():
    """The toy game's GameSpec (also reachable as `sim.registry.get_game("toy")`)."""
    from sim.registry import get_game
    return get_game("toy")
