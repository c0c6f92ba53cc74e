"""`cardbalance rules`: print or check the effective rules of a file or preset."""

from sim.faction_war.rules import BEHAVIOUR_VERSION, PRESETS, load_rules, rules_to_toml

ORDER = 30
EXAMPLES = """examples:
  cardbalance rules                    the default rules, every key documented
  cardbalance rules two-packs          a preset (%s)
  cardbalance rules my-tweak.toml      a rules file; changed values are marked
  cardbalance rules --check my.toml    validate only: exit 0 or one error line, exit 2
""" % ", ".join(PRESETS)


def add_parser(subparsers):
    import argparse
    parser = subparsers.add_parser("rules", help="print or validate rules (TOML file or preset)",
                                   epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", nargs="?", default="default", help="preset name or TOML file")
    parser.add_argument("--check", action="store_true", help="validate only")
    return parser


def run(args) -> int:
    rules = load_rules(args.source)
    if args.check:
        print("%s: valid (hash %s, behaviour version %d)" % (args.source, rules.stable_hash(), BEHAVIOUR_VERSION))
        return 0
    print("# effective rules of %s — hash %s, behaviour version %d" % (args.source, rules.stable_hash(), BEHAVIOUR_VERSION))
    print(rules_to_toml(rules), end="")
    return 0
