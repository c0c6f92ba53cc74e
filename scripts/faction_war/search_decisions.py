"""What Faction War's search agents decide, for refactors that must change nothing.

    python scripts/faction_war/search_decisions.py [--save FILE | --check FILE]

Records, for 40 seeded decision positions (random play on the batch kernel,
all four pairings, default rules and the FA-4/FA-6 "choice" readings) and
each search agent at small budgets (pimc-random:B, pimc:B, ismcts:B), the
chosen legal index, the root statistics the play log narrates (visits and
points per legal action) and the agent generator's word afterwards (so a
port that draws differently shows even when the choice happens to agree);
plus the aggregate vectors of two short seeded sweeps (ismcts:50 and
pimc-random:16, each against greedy). `--save` writes them as JSON, `--check`
compares with a saved file (exit 1 and the first difference). A pure
restructuring of the search code (e.g. moving it onto strategies/search_tree.py)
or a speed-up of the rollouts must leave everything equal.
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

from sim.faction_war import kernel as K  # noqa: E402
from sim.faction_war.layout import S_DECIDER, STATE_SIZE  # noqa: E402
from sim.faction_war.rules import Rules  # noqa: E402
from sim.rng import match_seed, to_signed  # noqa: E402
from strategies.faction_war import batch as B  # noqa: E402
from strategies.faction_war import strategy_id  # noqa: E402
from strategies.faction_war.dispatch import choose_in_loop  # noqa: E402
from strategies.faction_war.view import build_view  # noqa: E402

POSITIONS = 40
AGENTS = ("pimc-random:%d", "pimc:%d", "ismcts:%d")
BUDGETS = (8, 24)
SWEEPS = (("ismcts:50", "greedy", 40), ("pimc-random:16", "greedy", 40))
RULE_SETS = (("default", Rules()),
             ("choice", Rules().with_changes(ambiguities={"FA-4": "choice", "FA-6": "choice"})))


def last_statistics(workspace):
    """(legal index, visits, points) of the last search decision (the play log's source)."""
    from strategies.search_tree import last_statistics as read
    return read(workspace)


def positions():
    """(rules name, state, decider) at seeded points of random matches."""
    out = []
    legal = np.zeros(B.LEGAL_CAPACITY, dtype=np.int64)
    policy_rng = np.zeros(B.SEATS, dtype=np.int64)
    seed = 0
    while len(out) < POSITIONS:
        rules_name, rules = RULE_SETS[seed % len(RULE_SETS)]
        rules_array, cell = B.check_arrays(rules.to_array(), B.cell_array(seed % 2, (seed // 2) % 2, 50, 50,
                                                                            (seed // 4) % 2, 0, 0))
        state = np.zeros(STATE_SIZE, dtype=np.int64)
        B.start_match(rules_array, cell, np.uint64(match_seed(1234, seed)), state, policy_rng)
        chooser = random.Random(seed)
        stop = chooser.randrange(4, 120)  # the decision (with 2+ actions) to record
        decisions = 0
        while not K.is_over(state):
            n = K.legal_actions(state, rules_array, legal)
            if n > 1:
                if decisions == stop:
                    out.append((rules_name, rules_array, state.copy(), int(state[S_DECIDER])))
                    break
                decisions += 1
            K.apply_action(state, rules_array, legal[chooser.randrange(n)])
        seed += 1
    return out


def decisions() -> list[dict]:
    rows = []
    legal = np.zeros(B.LEGAL_CAPACITY, dtype=np.int64)
    view = np.zeros(STATE_SIZE, dtype=np.int64)
    for k, (rules_name, rules_array, state, decider) in enumerate(positions()):
        n = K.legal_actions(state.copy(), rules_array, legal)
        build_view(state, rules_array, decider, view)
        for budget in BUDGETS:
            for pattern in AGENTS:
                name = pattern % budget
                strategy = strategy_id(name)
                workspace = B.cell_workspace(B.cell_array(0, 0, 50, 50, 0, strategy, strategy))
                policy_rng = np.array([to_signed(match_seed(k, 1)), to_signed(match_seed(k, 2))], dtype=np.int64)
                index = choose_in_loop(strategy, view.copy(), rules_array, legal.copy(), n, policy_rng, decider,
                                       workspace)
                rows.append({"position": k, "rules": rules_name, "agent": name, "n_legal": int(n),
                             "index": int(index), "statistics": [list(row) for row in last_statistics(workspace)],
                             "rng_after": [int(word) for word in policy_rng]})
    return rows


def sweeps() -> list[dict]:
    rows = []
    rules_array = Rules().to_array()
    for agent, opponent, matches in SWEEPS:
        for first in (0, 1):
            cell = B.cell_array(0, 1, 50, 50, first, strategy_id(agent), strategy_id(opponent))
            aggregate = B.play_batch(rules_array, cell, 99, 0, matches // 2)
            rows.append({"agent": agent, "opponent": opponent, "first": first, "matches": matches // 2,
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
