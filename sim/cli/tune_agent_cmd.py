"""`cardbalance tune-agent`: tune the `tuned` agent's weights by self-play, seeded and resumable."""

from __future__ import annotations

import argparse
import shlex
import sys

ORDER = 65

EPILOG = """examples:
  cardbalance tune-agent --out tune-run
        the shipped run: 150 trials per faction, 2,000 paired matches per trial, seed 1,
        then 4,000 matches per pairing on fresh seeds; writes tune-run/tuned_weights.json
  cardbalance tune-agent --trials 20 --matches 400 --recheck 400 --out quick
        a quick look (seconds to minutes)
  cardbalance tune-agent --trials 200 --out tune-run
        resume the same folder with more trials (the log tune-run/trials.jsonl is the resume point)
  cardbalance tune-agent --game poker_duel --trials 100 --matches 2000 --recheck 4000 --out pd-tune
        Poker Duel's agent (one weight vector; docs/poker-duel.md, "tuned")

Install the result as the shipped weights: cp tune-run/tuned_weights.json strategies/<game>/tuned_weights.json
"""


def add_parser(subparsers):
    parser = subparsers.add_parser(
        "tune-agent", help="tune the `tuned` agent's weights against greedy (seeded, resumable)",
        description="Tune the weights of the `tuned` agent (greedy's heuristic) per faction with optuna's "
                    "seeded TPE sampler; each candidate plays the same paired deals against greedy (both seats, "
                    "both first players, both opponent factions). The winner is re-checked on fresh seeds and "
                    "written with its provenance to OUT/tuned_weights.json. Interrupted runs resume from "
                    "OUT/trials.jsonl and propose the same candidates.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    from sim.cli.options import add_game_option
    add_game_option(parser, "game whose agent to tune")
    parser.add_argument("--trials", type=int, default=150, help="trials (per faction in Faction War; default 150)")
    parser.add_argument("--matches", type=int, default=2000,
                        help="matches per trial, paired deals against greedy (default 2000)")
    parser.add_argument("--recheck", type=int, default=4000,
                        help="matches per pairing for the fresh-seed re-check of the winner (default 4000)")
    parser.add_argument("--seed", type=int, default=1, help="root seed of the tuning and re-check deals (default 1)")
    parser.add_argument("--out", default="tune-run",
                        help="output folder: a new or empty one is created (built aside, renamed into place), a "
                             "tune-agent run is resumed (locked while it runs); any other folder is refused "
                             "(default tune-run)")
    return parser


def _progress(faction, entry, best):
    if entry["trial"] % 10 == 0 or entry["trial"] == 1:
        print("%s trial %d: %.4f (best %.4f, trial %d)" % (faction, entry["trial"], entry["value"],
                                                         best["value"], best["trial"]), file=sys.stderr)


def run(args) -> int:
    from sim.errors import CardbalanceError
    from sim.registry import game_names, get_game

    game = get_game(args.game)
    tuner = game.extra.get("tune_agent")
    if tuner is None:
        tunable = [name for name in game_names() if get_game(name).extra.get("tune_agent")]
        raise CardbalanceError("--game %s has no tunable agent; games with one: %s." % (game.name, ", ".join(tunable)))
    command = "cardbalance tune-agent%s --trials %d --matches %d --recheck %d --seed %d --out %s" % (
        " --game " + game.name if args.game else "", args.trials, args.matches, args.recheck, args.seed,
        shlex.quote(str(args.out)))
    document = tuner(args.out, trials=args.trials, matches=args.matches, seed=args.seed,
                     recheck_matches=args.recheck, command=command, progress=_progress)
    recheck = document["provenance"]["recheck"]
    by = recheck.get("by", "pairing")  # what the re-check's rows are by (a pairing, a rules setting ...)
    print("re-check on fresh seeds (%d matches per %s, %s):" % (recheck["matches_per_" + by], by,
                                                              recheck["interval"]))
    print("%-16s %7s %7s %6s  %s" % (by, "wins", "losses", "draws", "tuned share of decided [95 % CI]"))
    for row in recheck[by + "s"]:
        print("%-16s %7d %7d %6d  %.1f %% [%.1f, %.1f]" % (
            row[by], row["wins"], row["losses"], row["draws"],
            100 * row["win_share"], 100 * row["wilson_low"], 100 * row["wilson_high"]))
    print("weights: %s/tuned_weights.json" % args.out)
    return 0
