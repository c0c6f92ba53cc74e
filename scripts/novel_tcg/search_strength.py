"""How strong a Novel TCG agent is against greedy: rank 10, default rules, the nine template pairings.

    python scripts/novel_tcg/search_strength.py AGENT [--matches N] [--seed S] [--out FILE.json]
                                                [--pairings swarm/curve curve/curve ...]

For each template pairing (seat 0's template / seat 1's) the agent plays both seatings
(seat 0 against greedy, greedy against it as seat 1) and each seating both first
players, N matches each (4N per pairing), through the sweep's own batch
(`batch.play_batch`, fixed chunk seeds: reproducible, whatever the machine). Prints the
agent's share of decided matches per pairing and over all nine with 95 % Wilson
intervals, draws apart, and the CPU seconds spent; `--out` keeps the counts as JSON.
`--pairings` plays only those pairings, on the seeds they get in the full run (a pairing's
seeds follow its place among the nine), so runs split over processes add up to the full one.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from analysis.stats import wilson_interval  # noqa: E402
from sim import aggregate as agg  # noqa: E402
from sim.novel_tcg import layout as L  # noqa: E402
from sim.novel_tcg.card_pool import TEMPLATES  # noqa: E402
from sim.novel_tcg.rules import Rules  # noqa: E402
from sim.rng import match_seed  # noqa: E402
from strategies.novel_tcg import strategy_id  # noqa: E402
from strategies.novel_tcg.batch import cell_of, play_batch  # noqa: E402

RANK = 10


def outcomes(out):
    """(seat 0 wins, seat 1 wins, draws) of an aggregate vector."""
    base, n = agg.A_OUTCOMES, L.N_END_TYPES
    return tuple(int(out[base + k * n:base + (k + 1) * n].sum()) for k in range(3))


def measure(agent: str, matches: int, seed: int, only=None) -> dict:
    rules_array, agent_id, greedy = Rules().to_array(), strategy_id(agent), strategy_id("greedy")
    rows = {}
    pairings = ["%s/%s" % (a, b) for a in TEMPLATES for b in TEMPLATES]
    for place, pairing in enumerate(pairings):
        if only and pairing not in only:
            continue
        a, b = pairing.split("/")
        won = lost = drawn = 0
        for seat in (0, 1):
            for first in (0, 1):
                ids = (agent_id, greedy) if seat == 0 else (greedy, agent_id)
                cell = cell_of({"rank": (RANK, RANK), "deck": "%s/%s" % (a, b), "first": first}, *ids)
                chunk = match_seed(seed, place * 4 + seat * 2 + first)
                wins = outcomes(play_batch(rules_array, cell, chunk, 0, matches))
                won, lost, drawn = won + wins[seat], lost + wins[1 - seat], drawn + wins[2]
        rows["%s/%s" % (a, b)] = {"won": won, "lost": lost, "drawn": drawn}
        print("%-16s %s" % ("%s/%s" % (a, b), _share(won, lost, drawn)), flush=True)
    return rows


def _share(won, lost, drawn) -> str:
    low, high = wilson_interval(won, won + lost)
    return "%5.1f %% [%.1f, %.1f] of %d decided, %d drawn" % (100 * won / max(1, won + lost), 100 * low, 100 * high,
                                                              won + lost, drawn)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("agent")
    parser.add_argument("--matches", type=int, default=50, help="matches per pairing, seating and first player")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out")
    parser.add_argument("--pairings", nargs="+", help="only these pairings (seat 0/seat 1 templates)")
    args = parser.parse_args(argv)
    started = time.process_time()
    rows = measure(args.agent, args.matches, args.seed, args.pairings)
    won, lost, drawn = (sum(r[k] for r in rows.values()) for k in ("won", "lost", "drawn"))
    cpu = time.process_time() - started
    print("%-16s %s" % ("all nine" if len(rows) == 9 else "these %d" % len(rows), _share(won, lost, drawn)))
    print("%s against greedy, rank %d, default rules, %d matches per pairing x seating x first player; %.0f CPU s"
          % (args.agent, RANK, args.matches, cpu))
    if args.out:
        Path(args.out).write_text(json.dumps({"agent": args.agent, "rank": RANK, "matches": args.matches,
                                              "seed": args.seed, "cpu_s": round(cpu), "pairings": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
