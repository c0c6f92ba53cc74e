"""`cardbalance bench`: engine speed (numba vs reference), all-core throughput, compile times, memory."""

from __future__ import annotations

import argparse

ORDER = 60

EPILOG = """examples:
  cardbalance bench                       about a minute: every {series}, random and greedy mirrors
  cardbalance bench --json > bench.json   the same, for machines
  cardbalance bench --seconds 5 --all-cores-seconds 20
                                          longer, steadier measurements
  cardbalance bench {choices} --no-compile
                                          one {series}, skip the cold-compile probe (~15 s)
  cardbalance bench --no-compile --scaling-matches 1000000
                                          also the 1-worker vs all-workers speed-up on 10^6 matches
"""


def add_parser(subparsers):
    from sim.cli.options import example_words
    parser = subparsers.add_parser(
        "bench", help="measure matches/s (numba and reference engines), compile times and memory",
        description="Measure matches per second per core on the numba engine and the reference engine "
                    "(and their ratio) for random and greedy mirror matches of each pairing, matches per second "
                    "on all cores, numba compile time cold and cached, and peak memory.",
        epilog=EPILOG.format(**example_words()), formatter_class=argparse.RawDescriptionHelpFormatter)
    from sim.cli.options import add_dimension_options, add_game_option
    add_game_option(parser, "game to measure")
    parser.add_argument("--seconds", type=float, default=1.0,
                        help="time spent on each per-core measurement, each engine (default 1)")
    parser.add_argument("--all-cores-seconds", type=float, default=3.0,
                        help="time spent on the all-cores measurement (default 3)")
    add_dimension_options(parser, choice_lists=True)  # e.g. --pairings A B, --life 50 (default: the game's)
    parser.add_argument("--rules", default="default", help="rules preset or TOML file (default: default)")
    parser.add_argument("--jobs", type=int, default=-1, help="workers for the all-cores measurement (default -1: all)")
    parser.add_argument("--scaling-matches", type=int, default=0,
                        help="also play this many matches on 1 worker and on all, and report the speed-up "
                             "(default 0: skip; the product target is measured with 1000000)")
    parser.add_argument("--agent-seconds", type=float, default=1.0,
                        help="time spent on each agent's and the rollout measurement (default 1; at least one match)")
    parser.add_argument("--no-compile", action="store_true", help="skip the cold and cached compile probes")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    return parser


def run(args) -> int:
    from sim.bench import format_report, run_bench, to_json
    from sim.cli.options import dimension_values
    from sim.registry import CHOICE, get_game

    game = get_game(args.game)
    given = dimension_values(args, game)
    choices = {name: value for name, value in given.items() if game.dimension(name).kind == CHOICE}
    values = {name: value for name, value in given.items() if name not in choices}
    result = run_bench(game.name, seconds=args.seconds, choices=choices, values=values,
                       rules_name=args.rules, jobs=args.jobs, all_cores_seconds=args.all_cores_seconds,
                       compile_times=not args.no_compile, scaling_matches=args.scaling_matches,
                       agent_seconds=args.agent_seconds)
    print(to_json(result) if args.json else format_report(result))
    return 0
