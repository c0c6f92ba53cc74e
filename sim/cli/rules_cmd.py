"""`cardbalance rules`: print or check the effective rules of a file or preset."""

ORDER = 30
EXAMPLES = """examples:
  cardbalance rules                    the default rules, every key documented
  cardbalance rules {preset}          a preset of the default game ({presets})
  cardbalance rules my-tweak.toml      a rules file; changed values are marked
  cardbalance rules --check my.toml    validate only: exit 0 or one error line, exit 2
  cardbalance rules --game NAME        another registered game's rules
"""


def add_parser(subparsers):
    import argparse
    from sim.cli.options import add_game_option
    from sim.cli.options import example_words
    from sim.registry import get_game
    presets = ", ".join(get_game().rules_presets)
    parser = subparsers.add_parser("rules", help="print or validate rules (TOML file or preset)",
                                   epilog=EXAMPLES.format(presets=presets, **example_words()), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", nargs="?", default="default", help="preset name or TOML file")
    add_game_option(parser, "game of the rules")
    parser.add_argument("--check", action="store_true", help="validate only")
    return parser


def plain_toml(rules) -> str:
    """The effective rules as TOML, for games without their own `rules_text`:
    one `key = value` per rule, changed values marked."""
    import json
    changed = rules.differences_from_default()
    lines = []
    for key, value in rules.as_dict().items():
        mark = "  # changed from default" if key in changed else ""
        lines.append("%s = %s%s" % (key, json.dumps(value), mark))
    return "\n".join(lines) + "\n"


def run(args) -> int:
    from sim.registry import get_game
    game = get_game(args.game)
    rules = game.load_rules(args.source)
    if args.check:
        if game.check_rules is not None:  # what the commands that play check beyond the fields
            from sim.errors import CardbalanceError
            try:
                game.check_rules(rules)
            except CardbalanceError as error:
                raise CardbalanceError("%s: %s" % (args.source, error)) from None
        print("%s: valid (hash %s, behaviour version %d)" % (args.source, rules.stable_hash(), game.behaviour_version))
        return 0
    print("# effective rules of %s — hash %s, behaviour version %d" % (args.source, rules.stable_hash(), game.behaviour_version))
    print((game.rules_text or plain_toml)(rules), end="")
    return 0
