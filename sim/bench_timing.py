"""The bench's timer, shared by every game's speed rows (`strategies/<game>/speed.py`)."""

import time


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
