"""`cardbalance play`: one match, narrated turn by turn."""

import argparse

from sim.errors import CardbalanceError

ORDER = 20
EXAMPLES = """examples:
  cardbalance play --p0 {p0} --p1 {p1} {setup} --seed 7
  cardbalance play --p0 {p0} --p1 {p0} {setup2} --rules {preset}
  cardbalance play --from runs/RUN --cell 3 --match 1207     replay one match of a sweep
  cardbalance play --game NAME ...                            another registered game
Players are written in the game's notation (e.g. {p0}). Same seed, same log.
"""


def add_parser(subparsers):
    from sim.cli.options import add_dimension_options, add_game_option
    from sim.cli.options import example_words
    parser = subparsers.add_parser("play", help="play one match and print its turn-by-turn log",
                                   epilog=EXAMPLES.format(**example_words()), formatter_class=argparse.RawDescriptionHelpFormatter)
    add_game_option(parser)
    parser.add_argument("--p0", default=None, help="seat 0 in the game's notation (default: the game's, GameSpec.players)")
    parser.add_argument("--p1", default=None, help="seat 1 in the game's notation (default: the game's)")
    add_dimension_options(parser)  # e.g. --life (default: the dimension's single value), --first (default: a coin flip)
    parser.add_argument("--seed", type=int, default=None, help="match seed (default 1)")
    parser.add_argument("--rules", default=None, help="rules preset or TOML file (default: default)")
    parser.add_argument("--from", dest="run", default=None, help="a sweep's run folder: replay one of its matches")
    parser.add_argument("--cell", type=int, default=None, help="with --from: cell index")
    parser.add_argument("--match", type=int, default=None, help="with --from: match number within the cell")
    return parser


def _refuse_options_of_a_new_match(args) -> None:
    """--from replays a match as the run played it: an option that would set up another match is refused."""
    given = [flag for flag, value in (("--p0", args.p0), ("--p1", args.p1), ("--seed", args.seed),
                                      ("--rules", args.rules)) if value is not None]
    given += ["--" + key[4:] for key, value in sorted(vars(args).items()) if key.startswith("dim_") and value is not None]
    if given:
        raise CardbalanceError("--from replays the run's match as it was played; drop %s." % ", ".join(given))


SEED_MAX = 2**64 - 1  # match seeds are unsigned 64-bit words: a larger one would wrap


def run(args) -> int:
    from sim import rng as rng_module
    from sim.cli.options import dimension_values
    from sim.registry import PER_SEAT, SEAT, get_game

    if args.run is not None:
        _refuse_options_of_a_new_match(args)
        if args.cell is None or args.match is None:
            raise CardbalanceError("--from needs --cell and --match (e.g. --from runs/RUN --cell 0 --match 12).")
        from sim.sweep import locate_match
        game, rules, cell, seed = locate_match(args.run, args.cell, args.match)
        if args.game is not None and args.game != game.name:
            raise CardbalanceError("--game %s differs from the run's game %s." % (args.game, game.name))
        header = "# replay of %s cell %d match %d (seed %d)" % (args.run, args.cell, args.match, seed)
    else:
        if args.cell is not None or args.match is not None:
            raise CardbalanceError("--cell and --match only work together with --from RUN.")
        game = get_game(args.game)
        if game.replay_log is None:
            raise CardbalanceError("game %s has no play log (GameSpec.replay_log)." % game.name)
        from sim.sweep.vary import load_named
        rules = load_named(game.load_rules, args.rules or "default")  # a preset, a file or a variant name a sweep prints
        p0 = args.p0 if args.p0 is not None else game.players[0]
        p1 = args.p1 if args.p1 is not None else game.players[1]
        player_values, strategies = (game.parse_players or game.default_players)(p0, p1)
        values = game.single_values()
        values.update(player_values)
        values.update(dimension_values(args, game))
        seed = 1 if args.seed is None else args.seed
        if not 0 <= seed <= SEED_MAX:
            raise CardbalanceError("--seed must be an integer from 0 to %d (got %d)." % (SEED_MAX, seed))
        for dimension in game.dimensions:
            if dimension.kind == SEAT and getattr(args, "dim_" + dimension.name) is None:
                # a coin flip from the seed (engine contract: draw 0 of the match seed's stream 0)
                values[dimension.name] = rng_module.below_from_output(rng_module.match_seed(seed, 0), 2)
        cell = game.cell_array(values, game.strategy_id(strategies[0]), game.strategy_id(strategies[1]))
        setup = "".join(", %s %s" % (d.name, d.label(values[d.name])) for d in game.dimensions if d.kind == PER_SEAT)
        header = "# p0 = %s, p1 = %s%s, seed %d, rules hash %s" % (p0, p1, setup, seed, rules.stable_hash())
    log = iter(game.replay_log(rules, cell, seed))
    first = next(log, None)  # the log's set-up (decks, seats, a run's stored data) refuses before anything is printed
    print(header)
    if first is not None:
        print(first)
    for line in log:
        print(line)
    return 0
