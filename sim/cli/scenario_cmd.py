"""`cardbalance scenario`: load a position, apply its actions, print the result."""

import json

ORDER = 40
EXAMPLES = """examples:
  cardbalance scenario docs/examples/attack.json            apply the file's actions, print the position
  cardbalance scenario docs/examples/attack.json --legal    also list the legal actions at the end
The format is the game's own (Faction War: docs/scenario-format.md).
"""


def add_parser(subparsers):
    import argparse
    from sim.cli.options import add_game_option
    parser = subparsers.add_parser("scenario", help="play out a JSON position (the rules sandbox)",
                                   epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", help="position JSON file")
    add_game_option(parser, "game of the position")
    parser.add_argument("--legal", action="store_true", help="list the legal actions at the end")
    parser.add_argument("--log", action="store_true", help="print what happened, step by step, to stderr")
    return parser


def run(args) -> int:
    import sys

    from sim.errors import CardbalanceError
    from sim.registry import get_game
    game = get_game(args.game)
    if game.run_scenario is None:
        raise CardbalanceError("game %s has no position format (GameSpec.run_scenario)." % game.name)
    output, events = game.run_scenario(args.file, legal=args.legal)
    if args.log:
        for line in events:
            print(line, file=sys.stderr)
    print(json.dumps(output, indent=2, ensure_ascii=False))
    return 0
