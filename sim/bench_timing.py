"""The bench's timer and agent rows, shared by every game (`strategies/<game>/speed.py`).

A game's speed module writes only its compiled loops (a batch that returns seat 0's
decisions, a batch of random rollouts that returns its actions) and declares an
`AgentBench`; the rows, their warm-up call and their timing are written once here.
Rates are per second of this process's CPU time (`time.process_time`; the kernels are
single-threaded), so other jobs on a shared machine lower them less than a wall-clock
rate; compile and cache load are excluded by a first call.
"""

import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

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


@dataclass(frozen=True)
class AgentBench:
    """`GameSpec.extra["bench_agents"]` of a game: what `cardbalance bench` measures of its agents.

    - `agent_rows`: each of `agents` (search agents at their default budgets) as seat 0
      against `opponent`: matches per CPU second on this core and the agent's decisions per
      second (the times the loop asked it: two or more legal actions), from whole matches
      played until `seconds` are spent (at least one match);
    - `rollout_row`: random play from fresh matches, actions per CPU second, the mean and
      the fastest repeat (`rollout_rates`).

    The game gives `cell(agent, opponent)` -> its cell array (a fixed setting: the game's
    single values, seat 0 first), `check(rules_array, cell)` -> (rules, cell) as a sweep's
    batch gets them (so `tuned` plays its shipped weights), `agent_batch(rules, cell,
    chunk_seed, start, n)` -> seat 0's decisions and `rollout_batch(rules, cell, chunk_seed,
    n)` -> the actions of n random rollouts (the cell of random against random)."""

    agents: tuple
    cell: Callable
    check: Callable
    agent_batch: Callable
    rollout_batch: Callable
    opponent: str = "greedy"
    seed: int = 2024

    def agent_rows(self, rules_array, seconds: float) -> list[dict]:
        rows = []
        for name in self.agents:
            rules, cell = self.check(rules_array, self.cell(name, self.opponent))
            self.agent_batch(rules, cell, np.uint64(self.seed), 10**6, 1)  # compile or load the cache
            matches, decisions, elapsed = timed(
                lambda start, n: self.agent_batch(rules, cell, np.uint64(self.seed), start, n), seconds)
            rows.append({"agent": name, "opponent": self.opponent, "matches": matches, "decisions": decisions,
                         "matches_per_s": matches / elapsed, "decisions_per_s": decisions / elapsed,
                         "s_per_match": elapsed / matches})
        return rows

    def rollout_row(self, rules_array, seconds: float) -> dict:
        rules, cell = self.check(rules_array, self.cell("random", "random"))
        self.rollout_batch(rules, cell, np.uint64(self.seed), 1)
        return rollout_rates(lambda seed, n: self.rollout_batch(rules, cell, np.uint64(seed), n), self.seed, seconds)

    def __call__(self, rules_array, seconds: float) -> dict:
        """{"agents": agent_rows, "rollout": rollout_row}."""
        return {"agents": self.agent_rows(rules_array, seconds), "rollout": self.rollout_row(rules_array, seconds)}
