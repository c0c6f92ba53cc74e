"""`cardbalance scenario`: load a position, apply its actions, print the result.

By default a short summary a designer reads at a glance (what happened, who is
to act, each player's table, the result, the legal actions); `--json` prints the
full position instead, in the game's position format (loadable again)."""

import json

ORDER = 40
EXAMPLES = """examples:
  cardbalance scenario docs/examples/attack.json            apply the file's actions, summarise the result
  cardbalance scenario docs/examples/attack.json --legal    also list the legal actions at the end
  cardbalance scenario docs/examples/attack.json --json     the full position as JSON (a loadable position file)
The format is the game's own (Faction War: docs/scenario-format.md).
"""
LIST_SHOWN = 12  # a longer list (a deck) is summarised by its length
BOOKKEEPING = {"rng", "seq", "graveyard_seq"}  # engine counters a full position carries (--json shows them)


def add_parser(subparsers):
    import argparse
    from sim.cli.options import add_game_option
    parser = subparsers.add_parser("scenario", help="play out a JSON position (the rules sandbox)",
                                   epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", help="position JSON file")
    add_game_option(parser, "game of the position")
    parser.add_argument("--legal", action="store_true", help="list the legal actions at the end")
    parser.add_argument("--log", action="store_true", help="print what happened, step by step, to stderr")
    parser.add_argument("--json", action="store_true", help="print the full resulting position as JSON")
    return parser


def _item(item) -> str:
    if isinstance(item, dict):
        return str(item.get("card", item))
    if isinstance(item, list):
        return "(%s)" % (" ".join(_item(x) for x in item if x is not None) or "-")
    return str(item)


def _value(value) -> str:
    """A field of the position in a few words: lists by their items, or by their length when long."""
    if isinstance(value, list):
        if len(value) > LIST_SHOWN:
            return "%d cards" % len(value)
        return " ".join(_item(item) for item in value if item is not None) or "-"
    if isinstance(value, dict):
        return ", ".join("%s %s" % (k, _value(v)) for k, v in value.items()) or "-"
    return str(value)


def summary(output: dict, events: list[str]) -> list[str]:
    """The default output: what happened, whose move, each player's table, the result, legal actions."""
    lines = ["What happened (%d step%s):" % (len(events), "" if len(events) == 1 else "s")]
    lines += ["  " + line for line in events] or ["  (no actions in the file)"]
    where = ", ".join("%s %s" % (key, output[key]) for key in ("turn", "active", "phase", "decider", "pending")
                      if key in output)
    lines.append("Now: %s." % where)
    for index, player in enumerate(output.get("players") or []):
        fields = "; ".join("%s: %s" % (key.replace("_", " "), _value(value)) for key, value in player.items()
                           if key not in BOOKKEEPING)
        lines.append("  player %d — %s" % (index, fields))
    skip = {"turn", "active", "phase", "decider", "pending", "players", "legal", "winner", "end_type"} | BOOKKEEPING
    for key, value in output.items():
        if key not in skip:
            lines.append("  %s: %s" % (key.replace("_", " "), _value(value)))
    winner, end = output.get("winner"), output.get("end_type")
    if end not in (None, "none") or (winner is not None and winner not in (-1, None)):
        lines.append("Result: %s%s." % ("player %s wins" % winner if winner not in (-1, None) else "a draw",
                                        " by %s" % end if end not in (None, "none") else ""))
    else:
        lines.append("Result: the match goes on.")
    if "legal" in output:
        lines.append("Legal actions (%d): %s" % (len(output["legal"]), ", ".join(output["legal"]) or "none"))
    lines.append("(--json prints the full position)")
    return lines


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
    if args.json:
        print(json.dumps(output, indent=2, ensure_ascii=False))
    else:
        print("\n".join(summary(output, list(events))))
    return 0
