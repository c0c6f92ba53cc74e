"""What Poker Duel's search agents decide, for refactors that must change nothing.

    python scripts/poker_duel/search_decisions.py [--save FILE | --check FILE]

The twin of `scripts/faction_war/search_decisions.py`. Records, for 40 seeded
decision positions (random play on the numba kernel, HP 20/30/50 per seat,
both first players, the core and advanced presets) and each search agent at
small budgets (pimc-random:B, pimc:B, ismcts:B), the chosen legal index, the
root statistics the play log narrates (visits and points per legal action)
and the agent generator's words afterwards (so a port that draws differently
shows even when the choice happens to agree); plus the aggregate vectors of
two short seeded sweeps (ismcts:50 and pimc-random:16, each against greedy).
`--save` writes them as JSON, `--check` compares with a saved file (exit 1
and the first difference). `search_decisions_baseline.json` beside this
script was saved at a3f2979, before issue 25 changed anything (digest
e3167113c49654cc): `--check scripts/poker_duel/search_decisions_baseline.json`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import numpy as np  # noqa: E402

from sim.poker_duel import kernel_chain as KC  # noqa: E402
from sim.poker_duel import layout as L  # noqa: E402
from sim.poker_duel.rules import load_rules  # noqa: E402
from sim.rng import match_seed, to_signed  # noqa: E402
from strategies.poker_duel import strategy_id  # noqa: E402
from strategies.poker_duel import kernel_batch as B  # noqa: E402
from strategies.poker_duel.dispatch import choose, loop_workspace  # noqa: E402
from strategies.poker_duel.kernel_policies import nb_view  # noqa: E402
from strategies.search_tree import last_statistics  # noqa: E402

POSITIONS = 40
AGENTS = ("pimc-random:%d", "pimc:%d", "ismcts:%d")
BUDGETS = (8, 24)
SWEEPS = (("ismcts:50", "greedy", 40), ("pimc-random:16", "greedy", 40))
RULE_SETS = ("core", "advanced")
HPS = (20, 30, 50)


def rules_array(name: str) -> np.ndarray:
    return B.checked_rules(load_rules(name).to_array())  # with the shipped policy block, as a batch plays


def positions():
    """(rules name, rules array, state, decider) at seeded points of random matches."""
    out = []
    legal = np.zeros(B.LEGAL_CAPACITY, dtype=np.int64)
    policy = np.zeros(2, dtype=np.int64)
    seed = 0
    while len(out) < POSITIONS:
        rules_name = RULE_SETS[seed % len(RULE_SETS)]
        rules = rules_array(rules_name)
        cell = np.array([HPS[seed % 3], HPS[(seed // 3) % 3], (seed // 2) % 2, 0, 0], dtype=np.int64)
        state = np.zeros(L.STATE_SIZE, dtype=np.int64)
        B.start_match(rules, cell, np.uint64(match_seed(1234, seed)), state, policy)
        chooser = random.Random(seed)
        stop = chooser.randrange(2, 40)  # the decision (with 2+ actions) to record
        decisions = 0
        while state[L.S_PHASE] != L.PH_OVER:
            n = KC.legal_actions(state, rules, legal)
            if n > 1:
                if decisions == stop:
                    out.append((rules_name, rules, state.copy(), int(state[L.S_DECIDER])))
                    break
                decisions += 1
            KC.apply_action(state, rules, legal[chooser.randrange(n)])
        seed += 1
    return out


def decisions() -> list[dict]:
    rows = []
    legal = np.zeros(B.LEGAL_CAPACITY, dtype=np.int64)
    view = np.zeros(L.STATE_SIZE, dtype=np.int64)
    for k, (rules_name, rules, state, decider) in enumerate(positions()):
        n = KC.legal_actions(state.copy(), rules, legal)
        nb_view(state, decider, False, view)  # both presets keep D-AMB-08 "hidden"
        for budget in BUDGETS:
            for pattern in AGENTS:
                name = pattern % budget
                strategy = strategy_id(name)
                workspace = loop_workspace(strategy, strategy)
                policy = np.array([to_signed(match_seed(k, 1)), to_signed(match_seed(k, 2))], dtype=np.int64)
                index = choose(strategy, view.copy(), rules, legal.copy(), n, policy, decider, workspace)
                rows.append({"position": k, "rules": rules_name, "agent": name, "n_legal": int(n),
                             "index": int(index), "statistics": [list(row) for row in last_statistics(workspace)],
                             "rng_after": [int(word) for word in policy]})
    return rows


def sweeps() -> list[dict]:
    rows = []
    for rules_name in RULE_SETS:
        rules = rules_array(rules_name)
        for agent, opponent, matches in SWEEPS:
            for first in (0, 1):
                cell = np.array([30, 30, first, strategy_id(agent), strategy_id(opponent)], dtype=np.int64)
                aggregate = B.play_batch(rules, cell, 99, 0, matches // 2)
                rows.append({"rules": rules_name, "agent": agent, "opponent": opponent, "first": first,
                             "matches": matches // 2,
                             "aggregate_sha256": hashlib.sha256(np.ascontiguousarray(aggregate).tobytes()).hexdigest(),
                             "wins": [int(v) for v in aggregate[:16]]})
    return rows


def first_difference(saved: dict, now: dict) -> str | None:
    for key in ("decisions", "sweeps"):
        for a, b in zip(saved[key], now[key]):
            if a != b:
                return "%s: saved %s\n       now %s" % (key, json.dumps(a), json.dumps(b))
        if len(saved[key]) != len(now[key]):
            return "%s: %d rows saved, %d now" % (key, len(saved[key]), len(now[key]))
    return None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--save", type=Path, help="write the record to FILE")
    group.add_argument("--check", type=Path, help="compare with a record saved earlier")
    args = parser.parse_args(argv)
    record = {"decisions": decisions(), "sweeps": sweeps()}
    digest = hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()[:16]
    print("search decisions: %d, sweeps: %d, digest %s" % (len(record["decisions"]), len(record["sweeps"]), digest))
    if args.save:
        args.save.write_text(json.dumps(record, indent=1) + "\n")
        print("saved to %s" % args.save)
    if args.check:
        difference = first_difference(json.loads(args.check.read_text()), record)
        if difference:
            print("DIFFERS from %s\n  %s" % (args.check, difference))
            return 1
        print("equal to %s" % args.check)
    return 0


if __name__ == "__main__":
    sys.exit(main())
