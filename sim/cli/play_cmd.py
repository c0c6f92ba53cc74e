"""`cardbalance play`: one match, narrated turn by turn."""

import argparse

from sim.errors import CardbalanceError

ORDER = 20
EXAMPLES = """examples:
  cardbalance play --p0 human:greedy --p1 alien:random --life 50 --seed 7
  cardbalance play --p0 alien:greedy --p1 alien:greedy --life 30,60 --first 1 --rules two-packs
  cardbalance play --from runs/RUN --cell 3 --match 1207     replay one match of a sweep
Players are faction:strategy (factions human, alien). Same seed, same log.
"""


def add_parser(subparsers):
    parser = subparsers.add_parser("play", help="play one match and print its turn-by-turn log",
                                   epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--p0", default="human:greedy", help="seat 0 as faction:strategy (default human:greedy)")
    parser.add_argument("--p1", default="alien:greedy", help="seat 1 as faction:strategy (default alien:greedy)")
    parser.add_argument("--life", default=None, help="starting life: N or N0,N1 (default: the rules' life)")
    parser.add_argument("--first", type=int, choices=(0, 1), default=None,
                        help="seat that moves first (default: a coin flip from the seed, F-SET-2)")
    parser.add_argument("--seed", type=int, default=1, help="match seed (default 1)")
    parser.add_argument("--rules", default="default", help="rules preset or TOML file")
    parser.add_argument("--from", dest="run", default=None, help="a sweep's run folder: replay one of its matches")
    parser.add_argument("--cell", type=int, default=None, help="with --from: cell index")
    parser.add_argument("--match", type=int, default=None, help="with --from: match number within the cell")
    return parser


SEED_MAX = 2**64 - 1  # match seeds are unsigned 64-bit words: a larger one would wrap


def _parse_life(text):
    from sim.faction_war.rules import LIFE_MAX
    try:
        values = [int(part) for part in text.split(",")]
    except ValueError:
        values = []
    if len(values) == 1:
        values *= 2
    if len(values) != 2 or not all(1 <= value <= LIFE_MAX for value in values):
        raise CardbalanceError("--life must be an integer from 1 to %d or two separated by a comma, e.g. 50 or 30,60 "
                               "(got %r)." % (LIFE_MAX, text))
    return tuple(values)


def run(args) -> int:
    from sim import rng as rng_module
    from sim.faction_war import layout as L
    from sim.faction_war.playlog import play_logged
    from sim.faction_war.rules import load_rules
    from strategies import parse_player, strategy_name

    if args.run is not None:
        if args.cell is None or args.match is None:
            raise CardbalanceError("--from needs --cell and --match (e.g. --from runs/RUN --cell 0 --match 12).")
        from sim.sweep import locate_match
        game, rules, cell, seed = locate_match(args.run, args.cell, args.match)
        if game.name != "faction_war":
            raise CardbalanceError("play --from replays Faction War runs only (this run is %s)." % game.name)
        factions = (int(cell[0]), int(cell[1]))
        lives = (int(cell[2]), int(cell[3]))
        first = int(cell[4])
        strategies = (int(cell[5]), int(cell[6]))
        print("# replay of %s cell %d match %d (seed %d)" % (args.run, args.cell, args.match, seed))
    else:
        if args.cell is not None or args.match is not None:
            raise CardbalanceError("--cell and --match only work together with --from RUN.")
        rules = load_rules(args.rules)
        f0, s0 = parse_player(args.p0)
        f1, s1 = parse_player(args.p1)
        factions, strategies = (f0, f1), (s0, s1)
        lives = _parse_life(args.life) if args.life else rules.life
        seed = args.seed
        if not 0 <= seed <= SEED_MAX:
            raise CardbalanceError("--seed must be an integer from 0 to %d (got %d)." % (SEED_MAX, seed))
        first = args.first if args.first is not None else rng_module.below_from_output(rng_module.match_seed(seed, 0), 2)
    names = ["%s:%s" % (L.FACTION_NAMES[factions[p]], strategy_name(strategies[p])) for p in (0, 1)]
    print("# p0 = %s, p1 = %s, life %d / %d, seed %d, rules hash %s" % (
        names[0], names[1], lives[0], lives[1], seed, rules.stable_hash()))
    match = play_logged(rules, factions, lives, first, strategies, seed)
    for line in match.events:
        print(line)
    if not match.events or not match.events[-1].startswith("match over"):
        print("match over: %s" % match.outcome_text())
    return 0
