"""The bench's timer, shared by every game's speed rows (`strategies/<game>/speed.py`)."""

import time

from sim.rng import MASK64


def timed(play, seconds: float, first: int = 1):
    """Run play(start, n) with n doubling until `seconds` of this process's CPU time pass;
    return (matches, units, elapsed). `play` returns the units it counted (decisions, actions)."""
    played, units, batch, started = 0, 0, first, time.process_time()
    while True:
        units += int(play(played, batch))
        played += batch
        elapsed = time.process_time() - started
        if elapsed >= seconds:
            return played, units, elapsed
        batch = max(1, min(batch * 2, int(played / elapsed * (seconds - elapsed)) + 1))


def fastest_rate(work, seconds: float, least_repeats: int = 5):
    """Repeat the same `work()` (it returns the units it counted) until `seconds` of this
    process's CPU time pass and at least `least_repeats` ran; return (repeats, units of one
    repeat, the fastest repeat's units per CPU second).

    Identical work makes the fastest repeat the core's undisturbed speed, Python's
    `timeit` reasoning: a slower repeat was slowed by something else. On a shared
    virtual machine that something is often another guest on the host, which this
    process's CPU clock still counts (identical batches here vary by up to 1.7x).
    """
    repeats, best, units, started = 0, 0.0, 0, time.process_time()
    while repeats < least_repeats or time.process_time() - started < seconds:
        began = time.process_time()
        units = int(work())
        elapsed = time.process_time() - began
        if elapsed > 0:
            best = max(best, units / elapsed)
        repeats += 1
    return repeats, units, best


FASTEST_BATCH = 64  # rollouts in each repeat of `rollout_rates`' fastest repeat (a few ms)


def rollout_rates(rollouts, seed: int, seconds: float) -> dict:
    """A game's random-rollout row: `rollouts(seed, n)` plays n rollouts from fresh matches
    and returns their actions. Gives the mean actions per CPU second over ever new matches
    (`seconds` of them), and the fastest of repeats of the same `FASTEST_BATCH` rollouts
    (another `seconds`: the core undisturbed, `fastest_rate`)."""
    matches, actions, elapsed = timed(lambda start, n: rollouts((seed + start) & MASK64, n), seconds, 64)
    repeats, repeat_actions, fastest = fastest_rate(lambda: rollouts(seed, FASTEST_BATCH), seconds)
    return {"rollouts": matches, "actions": actions, "actions_per_s": actions / elapsed,
            "fastest_actions_per_s": fastest, "fastest_repeats": repeats,
            "fastest_batch_rollouts": FASTEST_BATCH, "fastest_batch_actions": repeat_actions}
