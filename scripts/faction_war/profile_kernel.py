"""Where the Faction War match loop spends its time, piece by piece.

    python scripts/faction_war/profile_kernel.py [--matches N] [--strategy greedy|random]
                                     [--factions human,alien] [--repeat R]

Records every decision point of N matches (the state before the action, the
action taken, how many actions were legal), then times each piece of
`batch.play_match` separately on those recorded states, in compiled loops:

- new_match       one call per match
- legal_actions   per recorded state, split by phase
- apply_action    per recorded state (copy + apply, minus the copy alone), by action kind
- build_view      per decision with more than one legal action
- choose          the strategy call on those views
- full loop       `batch._play_batch` on the same seeds (matches/s)

Per-match costs (mean calls per match x ns per call) overstate the pieces:
each recorded state comes cold from a large array. The second table is the
trustworthy one: the real match loop run again with one piece called a
second time at every step (on a scratch copy where it writes), so the
difference to the plain loop is that piece's marginal cost in place. Its
indented rows split the legal-action listing: the placement list, the
Dispeller, joker and Alien hooks (placement steps outside pending
decisions) and the attack list.
Numbers are one core; repeat on a shared machine and compare medians.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import numba as nb  # noqa: E402
import numpy as np  # noqa: E402

from strategies.faction_war import batch  # noqa: E402
from sim.faction_war import kernel as K  # noqa: E402
from sim.faction_war import kernel_alien as KA  # noqa: E402
from sim.faction_war import kernel_human as KH  # noqa: E402
from sim.faction_war import kernel_jokers as KJ  # noqa: E402
from sim.faction_war.layout import (PH_ATTACK, PH_PLACEMENT, PHASE_NAMES, S_DECIDER, S_PENDING, S_PHASE,  # noqa: E402
                                    STATE_SIZE)
from sim.faction_war.rules import Rules  # noqa: E402
from sim.rng import nb_match_seed  # noqa: E402
from strategies.faction_war import STRATEGY_IDS  # noqa: E402
from strategies.faction_war.dispatch import choose  # noqa: E402
from strategies.faction_war.features import summarize  # noqa: E402
from strategies.faction_war.view import build_view  # noqa: E402
from sim.faction_war import actions as A  # noqa: E402

MAX_KIND = 32


@nb.njit
def record(rules, cell, chunk_seed, n_matches, capacity):
    """States before every action, the action, n_legal; stops at `capacity`."""
    states = np.zeros((capacity, STATE_SIZE), dtype=np.int64)
    actions = np.zeros(capacity, dtype=np.int64)
    n_legals = np.zeros(capacity, dtype=np.int64)
    deciders = np.zeros(capacity, dtype=np.int64)
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    legal = np.zeros(batch.LEGAL_CAPACITY, dtype=np.int64)
    view = np.zeros(STATE_SIZE, dtype=np.int64)
    policy_rng = np.zeros(2, dtype=np.int64)
    m = 0
    played = 0
    for i in range(n_matches):
        batch.start_match(rules, cell, nb_match_seed(chunk_seed, i), state, policy_rng)
        while not K.is_over(state):
            n_legal = K.legal_actions(state, rules, legal)
            index = 0
            decider = state[S_DECIDER]
            if n_legal > 1:
                strategy = cell[5 + decider]
                build_view(state, rules, decider, view)
                index = choose(strategy, view, rules, legal, n_legal, policy_rng, decider)
            if m < capacity:
                states[m, :] = state
                actions[m] = legal[index]
                n_legals[m] = n_legal
                deciders[m] = decider
                m += 1
            K.apply_action(state, rules, legal[index])
        played += 1
        if m >= capacity:
            break
    return states[:m], actions[:m], n_legals[:m], deciders[:m], played


@nb.njit
def time_legal(states, rules, reps, unused):
    legal = np.zeros(batch.LEGAL_CAPACITY, dtype=np.int64)
    total = 0
    for r in range(reps):
        for i in range(states.shape[0]):
            total += K.legal_actions(states[i], rules, legal)
    return total


@nb.njit
def time_placement_parts(states, rules, reps, part):
    """One part of the placement listing (0 base, 1 dispel, 2 jokers, 3 alien)."""
    legal = np.zeros(batch.LEGAL_CAPACITY, dtype=np.int64)
    total = 0
    for r in range(reps):
        for i in range(states.shape[0]):
            st = states[i]
            if part == 0:
                total += K._placement_actions(st, rules, legal)
            elif part == 1:
                total += K.KH.dispel_actions(st, rules, legal, 1)
            elif part == 2:
                total += K.KJ.joker_actions(st, rules, legal, 1)
            else:
                total += K.KA.alien_actions(st, rules, legal, 1)
    return total


@nb.njit
def time_copy(states, reps):
    buf = np.zeros(STATE_SIZE, dtype=np.int64)
    total = 0
    for r in range(reps):
        for i in range(states.shape[0]):
            buf[:] = states[i]
            total += buf[i % STATE_SIZE]
    return total


@nb.njit
def time_apply(states, actions, rules, reps, unused_a, unused_b):
    buf = np.zeros(STATE_SIZE, dtype=np.int64)
    total = 0
    for r in range(reps):
        for i in range(states.shape[0]):
            buf[:] = states[i]
            K.apply_action(buf, rules, actions[i])
            total += buf[1]
    return total


@nb.njit
def time_view(states, n_legals, deciders, rules, reps):
    view = np.zeros(STATE_SIZE, dtype=np.int64)
    total = 0
    calls = 0
    for r in range(reps):
        for i in range(states.shape[0]):
            if n_legals[i] > 1:
                build_view(states[i], rules, deciders[i], view)
                total += view[3]
                calls += 1
    return total, calls


@nb.njit
def time_choose(states, n_legals, deciders, rules, cell, reps):
    view = np.zeros(STATE_SIZE, dtype=np.int64)
    legal = np.zeros(batch.LEGAL_CAPACITY, dtype=np.int64)
    policy_rng = np.ones(2, dtype=np.int64)
    calls = 0
    ns = 0
    for r in range(reps):
        for i in range(states.shape[0]):
            if n_legals[i] > 1:
                n = K.legal_actions(states[i], rules, legal)
                build_view(states[i], rules, deciders[i], view)
                ns += choose(cell[5 + deciders[i]], view, rules, legal, n, policy_rng, deciders[i])
                calls += 1
    return ns, calls


@nb.njit
def time_new_match(rules, cell, n):
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    total = 0
    for i in range(n):
        K.new_match(state, rules, cell[0], cell[1], cell[2], cell[3], cell[4], np.uint64(i * 7919 + 1))
        total += state[1]
    return total


MARGINAL_PIECES = ("legal_actions", "build_view", "view + summary", "view + choose", "state copy",
                   "state copy + apply_action", "  placement: base list", "  placement: dispel hook",
                   "  placement: joker hook", "  placement: alien hook", "  attack list")


@nb.njit
def marginal_loop(rules, cell, chunk_seed, n_matches, piece):
    """`batch.play_match`'s loop, with piece `piece` (1-based in MARGINAL_PIECES, 0: none)
    done once more per step on scratch buffers; returns a checksum."""
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    scratch = np.zeros(STATE_SIZE, dtype=np.int64)
    legal = np.zeros(batch.LEGAL_CAPACITY, dtype=np.int64)
    legal2 = np.zeros(batch.LEGAL_CAPACITY, dtype=np.int64)
    view = np.zeros(STATE_SIZE, dtype=np.int64)
    view2 = np.zeros(STATE_SIZE, dtype=np.int64)
    policy_rng = np.zeros(2, dtype=np.int64)
    total = 0
    for i in range(n_matches):
        batch.start_match(rules, cell, nb_match_seed(chunk_seed, i), state, policy_rng)
        while not K.is_over(state):
            n_legal = K.legal_actions(state, rules, legal)
            if piece == 1:
                total += K.legal_actions(state, rules, legal2)
            elif piece >= 7 and state[S_PENDING] == 0:  # one legal-action piece, outside pending decisions
                phase = state[S_PHASE]
                if phase == PH_PLACEMENT:
                    if piece == 7:
                        total += K._placement_actions(state, rules, legal2)
                    elif piece == 8:
                        total += KH.dispel_actions(state, rules, legal2, 1)
                    elif piece == 9:
                        total += KJ.joker_actions(state, rules, legal2, 1)
                    elif piece == 10:
                        total += KA.alien_actions(state, rules, legal2, 1)
                elif phase == PH_ATTACK and piece == 11:
                    total += K._attack_actions(state, rules, legal2)
            index = 0
            if n_legal > 1:
                decider = state[S_DECIDER]
                if piece >= 2 and piece <= 4:
                    build_view(state, rules, decider, view2)
                    if piece == 3:
                        summarize(view2, rules, decider)
                    elif piece == 4:
                        total += choose(cell[5 + decider], view2, rules, legal, n_legal, policy_rng, decider)
                build_view(state, rules, decider, view)
                index = choose(cell[5 + decider], view, rules, legal, n_legal, policy_rng, decider)
            if piece == 5 or piece == 6:
                scratch[:] = state
                if piece == 6:
                    K.apply_action(scratch, rules, legal[index])
            K.apply_action(state, rules, legal[index])
    return total


def print_marginal(rules, cell, chunk, matches, strategy):
    """The second table of the module docstring (random play builds no view: view rows skipped)."""
    marginal_loop(rules, cell, chunk, 2, 6)
    for piece in range(len(MARGINAL_PIECES) + 1):  # compile every branch first
        marginal_loop(rules, cell, chunk, 1, piece)

    def best(piece):
        return min(seconds(marginal_loop, rules, cell, chunk, matches, piece)[0] for _ in range(3)) / matches

    plain = best(0)
    print("\nmarginal cost in the real loop (us/match; plain loop %.1f us/match):" % (plain * 1e6))
    for piece, name in enumerate(MARGINAL_PIECES, start=1):
        if strategy == "random" and 2 <= piece <= 4:
            continue
        print("  %-28s %8.1f" % (name, (best(piece) - plain) * 1e6))


def seconds(fn, *args):
    start = time.perf_counter()
    result = fn(*args)
    return time.perf_counter() - start, result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--strategy", default="greedy", choices=sorted(STRATEGY_IDS))
    parser.add_argument("--factions", default="human,alien")
    parser.add_argument("--repeat", type=int, default=3, help="passes over the recorded states")
    args = parser.parse_args(argv)
    names = {"human": 0, "alien": 1}
    f0, f1 = (names[x] for x in args.factions.split(","))
    sid = STRATEGY_IDS[args.strategy]
    rules = Rules().to_array()
    cell = batch.cell_array(f0, f1, 50, 50, 0, sid, sid)
    chunk = np.uint64(12345)

    t_compile = time.perf_counter()
    batch.play_batch(rules, cell, 7, 0, 5)
    states, actions, n_legals, deciders, played = record(rules, cell, chunk, args.matches, args.matches * 200)
    reps = args.repeat
    dummy = np.zeros(MAX_KIND, dtype=np.int64)
    # warm-up compiles
    time_legal(states[:10], rules, 1, np.zeros(8, dtype=np.int64))
    time_copy(states[:10], 1)
    time_apply(states[:10], actions[:10], rules, 1, dummy.copy(), dummy.copy())
    time_view(states[:10], n_legals[:10], deciders[:10], rules, 1)
    time_choose(states[:10], n_legals[:10], deciders[:10], rules, cell, 1)
    time_new_match(rules, cell, 2)
    print("compile/record %.1f s; %d matches, %d actions (%.1f per match), %d decisions with >1 legal"
          % (time.perf_counter() - t_compile, played, len(actions), len(actions) / played,
             int((n_legals > 1).sum())))

    per_match = {}
    t, _ = seconds(time_legal, states, rules, reps, np.zeros(8, dtype=np.int64))
    per_match["legal_actions"] = t / reps / played
    t_copy, _ = seconds(time_copy, states, reps)
    t, _ = seconds(time_apply, states, actions, rules, reps, dummy.copy(), dummy.copy())
    per_match["apply_action"] = max(t - t_copy, 0.0) / reps / played
    t, (_, calls) = seconds(time_view, states, n_legals, deciders, rules, reps)
    # the match loop builds no view for a policy that does not read it (dispatch.reads_view)
    per_match["build_view"] = t / reps / played if args.strategy != "random" else 0.0
    # choose: time legal+view+choose, subtract legal(only decisions)+view
    t_choose_all, _ = seconds(time_choose, states, n_legals, deciders, rules, cell, reps)
    multi = n_legals > 1
    t_legal_multi, _ = seconds(time_legal, states[multi], rules, reps, np.zeros(8, dtype=np.int64))
    per_match["choose"] = max(t_choose_all - t_legal_multi - per_match["build_view"] * reps * played, 0.0) / reps / played
    n_new = max(played * reps, 1000)
    t, _ = seconds(time_new_match, rules, cell, n_new)
    per_match["new_match"] = t / n_new

    t_full, _ = seconds(batch.play_batch, rules, cell, int(chunk), 0, played)
    t_full2, _ = seconds(batch.play_batch, rules, cell, int(chunk), 0, played)
    t_full = min(t_full, t_full2)
    total = sum(per_match.values())
    print("\n%s mirror, factions %s: full loop %.0f matches/s (%.1f us/match)"
          % (args.strategy, args.factions, played / t_full, t_full / played * 1e6))
    print("%-16s %10s %8s" % ("piece", "us/match", "share"))
    for key, value in sorted(per_match.items(), key=lambda kv: -kv[1]):
        print("%-16s %10.2f %7.1f%%" % (key, value * 1e6, 100 * value / total))
    print("%-16s %10.2f" % ("sum of pieces", total * 1e6))

    print_marginal(rules, cell, chunk, min(played, 3000), args.strategy)

    # per-phase legal and per-kind apply, by timing subsets of the recorded states
    print("\nlegal_actions by phase (us/match, calls/match, ns/call):")
    for phase in range(4):
        sel = states[:, S_PHASE] == phase
        if not sel.any():
            continue
        t, _ = seconds(time_legal, states[sel], rules, reps, np.zeros(8, dtype=np.int64))
        print("  %-10s %8.2f %8.1f %8.0f" % (PHASE_NAMES[phase], t / reps / played * 1e6, sel.sum() / played,
                                          t / reps / sel.sum() * 1e9))
    sel = (states[:, S_PHASE] == 1) & (states[:, S_PENDING] == 0)
    for part, name in enumerate(("base", "dispel", "jokers", "alien")):
        time_placement_parts(states[:5], rules, 1, part)
        t, _ = seconds(time_placement_parts, states[sel], rules, reps, part)
        print("    placement %-8s %8.2f us/match %6.0f ns/call" % (name, t / reps / played * 1e6,
                                                          t / reps / sel.sum() * 1e9))
    print("apply_action by kind (us/match, calls/match, ns/call):")
    kinds = (actions >> 24) & 255
    for kind in np.unique(kinds):
        sel = kinds == kind
        t_c, _ = seconds(time_copy, states[sel], reps)
        t, _ = seconds(time_apply, states[sel], actions[sel], rules, reps, dummy.copy(), dummy.copy())
        name = A.KIND_NAMES.get(int(kind), str(kind))
        t = max(t - t_c, 0.0)
        print("  %-10s %8.2f %8.1f %8.0f" % (name, t / reps / played * 1e6, sel.sum() / played,
                                          t / reps / sel.sum() * 1e9))
    return 0


if __name__ == "__main__":
    sys.exit(main())
