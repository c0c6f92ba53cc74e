"""Shared test setup. Keep it minimal: other test modules add their own fixtures.

The toy game (`tests/toygame.py`, registered as "toy") lets generic code —
sweep runner, analysis, reports, compare — be tested without Faction War.
"""

import pytest

import toygame

toygame.register_toy_game()


@pytest.fixture(scope="session")
def toy_game():
    """The toy game's GameSpec (also reachable as `sim.registry.get_game("toy")`)."""
    from sim.registry import get_game
    return get_game("toy")
