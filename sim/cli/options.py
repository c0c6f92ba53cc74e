"""Command-line options every command shares: `--game`, and one option per grid
dimension of the registered games (e.g. `--life`, `--first`), parsed by the
chosen game's own `Dimension` so that commands name no game's dimensions."""

from __future__ import annotations

from sim.errors import CardbalanceError
from sim.registry import CHOICE, DEFAULT_GAME, game_names, get_game


def add_game_option(parser, what: str = "game to play") -> None:
    parser.add_argument("--game", default=None,
                        help="%s: %s (default %s)" % (what, ", ".join(game_names()), DEFAULT_GAME))


def _dimensions():
    """(dimension, games declaring it) of every registered game, first declaration wins."""
    seen: dict[str, tuple] = {}
    for name in game_names():
        try:
            game = get_game(name)
        except Exception:  # a game that cannot load offers no options (its commands then fail clearly)
            continue
        for dimension in game.dimensions:
            entry = seen.setdefault(dimension.name, (dimension, []))
            entry[1].append(name)
    return list(seen.values())


def add_dimension_options(parser, choice_lists: bool = False) -> None:
    """`--<dimension>` for every dimension of the registered games. With `choice_lists`
    a choice dimension takes several values under its sweep key (e.g. `--pairings A B`)."""
    for dimension, games in _dimensions():
        where = " (%s)" % ", ".join(games) if len(games) < len(game_names()) else ""
        if dimension.kind == CHOICE and choice_lists:
            parser.add_argument("--" + dimension.sweep_key, dest="dim_" + dimension.name, nargs="+", default=None,
                                help="%s values to measure%s (default: all)" % (dimension.description, where))
        else:
            parser.add_argument("--" + dimension.name, dest="dim_" + dimension.name, default=None,
                                help="%s%s: %s" % (dimension.description, where, _syntax(dimension)))


def _syntax(dimension) -> str:
    if dimension.kind == CHOICE:
        return ", ".join(dimension.values)
    if dimension.kind == "per_seat":
        return "N or N0,N1 (seat 0, seat 1)"
    return "0 or 1"


def dimension_values(args, game) -> dict:
    """{dimension: value} given on the command line for `game`; an option of a
    dimension the game does not have is an error naming the game's own."""
    values = {}
    known = {d.name for d in game.dimensions}
    for key, text in vars(args).items():
        if not key.startswith("dim_") or text is None:
            continue
        name = key[len("dim_"):]
        if name not in known:
            raise CardbalanceError("--%s does not apply to game %s; its dimensions: %s."
                                   % (name, game.name, ", ".join(sorted(known)) or "none"))
        dimension = game.dimension(name)
        if isinstance(text, list):
            values[name] = [dimension.parse_text(item, "--" + dimension.sweep_key) for item in text]
        else:
            values[name] = dimension.parse_text(text, "--" + name)
    return values


GENERIC_EXAMPLES = {"p0": "greedy", "p1": "random", "setup": "", "design_setup": "", "setup2": "--first 1", "scope": "all",
                    "scope_axis": "all", "choices": "", "end_type": "an end type", "series": "series",
                    "axis": "per-seat value", "preset": "default"}


def example_words() -> dict:
    """The default game's words for help examples (`GameSpec.examples`), generic where it has none."""
    try:
        return {**GENERIC_EXAMPLES, **get_game(DEFAULT_GAME).examples}
    except Exception:  # help must print even if the default game cannot load
        return dict(GENERIC_EXAMPLES)
