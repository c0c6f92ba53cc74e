"""`cardbalance scenario`: load a position, apply its actions, print the result."""

import json

from sim.faction_war import actions as A
from sim.faction_war.position import apply_texts, dump_position, load_position

ORDER = 40
EXAMPLES = """examples:
  cardbalance scenario docs/examples/attack.json            apply the file's actions, print the position
  cardbalance scenario docs/examples/attack.json --legal    also list the legal actions at the end
The format is documented in docs/scenario-format.md.
"""


def add_parser(subparsers):
    import argparse
    parser = subparsers.add_parser("scenario", help="play out a JSON position (the rules sandbox)",
                                   epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", help="position JSON file")
    parser.add_argument("--legal", action="store_true", help="list the legal actions at the end")
    parser.add_argument("--log", action="store_true", help="print what happened, step by step, to stderr")
    return parser


def run(args) -> int:
    import sys
    match, texts = load_position(args.file)
    apply_texts(match, texts)
    if args.log:
        for line in match.events:
            print(line, file=sys.stderr)
    output = dump_position(match)
    if args.legal:
        output["legal"] = [A.to_text(a, match.decider) for a in match.legal_actions()]
    print(json.dumps(output, indent=2, ensure_ascii=False))
    return 0
