"""sim/warmup.py: one process per game; a failed warm-up is reported, not raised."""

from sim.warmup import warm_games


def test_a_game_that_fails_to_warm_is_reported_negative_and_does_not_raise():
    seconds = warm_games(["no_such_game"], progress=False)
    assert list(seconds) == ["no_such_game"] and seconds["no_such_game"] < 0
