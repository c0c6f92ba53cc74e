"""`cardbalance report RUN`: turn a stored run into tables, figures and an HTML page.

Only reads the run folder; never simulates. Bad input (not a run folder, a
run from an incompatible format or behaviour version, an unwritable output
folder, a δ outside (0, ½)) is one line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ORDER = 15

EPILOG = """examples:
  cardbalance report runs/20260101-120000-default
                                  write runs/.../report/report.html, PNG figures and CSV tables
  cardbalance report RUN --out /tmp/rep --delta 0.03
                                  elsewhere, calling a cell balanced within ±3 points
  cardbalance report RUN --no-csv --quiet
                                  page and figures only, print only the report's path
  cardbalance report runs/20260101-130000-fair
                                  a fair/sensitivity/map run: RUN/report/report.html
  cardbalance report RUN --ladder runs/20260101-110000-ladder
                                  a skill sweep's levels ordered and placed by the ladder's ratings
"""


def add_parser(subparsers):
    parser = subparsers.add_parser(
        "report", help="write the balance report (HTML, PNG, CSV) of a stored run",
        description="Read a run folder written by `cardbalance sweep` and write its balance report: "
                    "report.html (self-contained, readable offline), one PNG per figure and the tables as CSV. "
                    "Prints a summary table and the report's path. A `fair`, `sensitivity` or `map` run folder "
                    "gets its own self-contained report.html (the method, its guarantee, the budget spent).",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run", metavar="RUN", help="run folder (holds meta.json, results.parquet, lengths.parquet)")
    parser.add_argument("--out", metavar="DIR", help="output folder (default: RUN/report)")
    parser.add_argument("--delta", type=float, default=None,
                        help="verdict band: a cell is balanced when its 95%% interval lies within ½ ± delta "
                             "(default 0.02)")
    parser.add_argument("--adjust", choices=("holm", "bh", "none"), default="holm",
                        help="multiplicity correction over all verdicts of the run: holm (family-wise error at "
                             "5 %%, default), bh (false-discovery rate) or none (each row's interval on its own)")
    parser.add_argument("--csv", action=argparse.BooleanOptionalAction, default=True,
                        help="write every table as CSV into OUT/tables (default: yes)")
    parser.add_argument("--quiet", action="store_true", help="print only the report's path")
    parser.add_argument("--ladder", metavar="LADDER_RUN",
                        help="a `cardbalance ladder` run: its ratings order the skill levels and are their x axis")
    from sim.cli.options import add_game_option
    add_game_option(parser, "check that the run is of this game (the run's metadata names it)")
    return parser


def run(args) -> int:
    from analysis.verdict import DEFAULT_DELTA, check_delta
    from reports import build_report
    from reports.headline import terminal_summary
    from reports.design_html import design_command
    from sim.user_input import check_name_lengths

    check_name_lengths(args.run, "the run folder")  # before asking the OS about it (an OSError, exit 74)
    if design_command(args.run) is not None:
        return run_design(args)

    delta = check_delta(DEFAULT_DELTA if args.delta is None else args.delta)
    if args.game is not None:
        _check_game(args.run, args.game)
    started = time.perf_counter()
    from reports.skill_section import ladder_ratings
    ratings = ladder_ratings(args.ladder)  # checked before anything is written
    path = build_report(args.run, out=args.out, delta=delta, csv=args.csv, adjust=args.adjust, ladder=args.ladder)
    elapsed = time.perf_counter() - started
    if args.quiet:
        print(path)
    else:
        print(terminal_summary(args.run, delta=delta, adjust=args.adjust, ratings=ratings))
        print("report: %s  (%.1f s)" % (path, elapsed))
    return 0


if __name__ == "__main__":  # pragma: no cover
    from sim.cli import main
    sys.exit(main(["report", *sys.argv[1:]]))


def run_design(args) -> int:
    """The HTML report of a `fair`, `sensitivity` or `map` run folder (its result as stored)."""
    from reports.design_html import load_design_run, write_design_report
    from sim.errors import CardbalanceError
    from sim.registry import get_game
    from sim.safe_output import check_output_folder
    command, settings, _ = load_design_run(args.run)
    for option, given in (("--delta", args.delta is not None), ("--ladder", args.ladder is not None),
                          ("--adjust", args.adjust != "holm"), ("--no-csv", not args.csv)):
        if given:
            raise CardbalanceError("%s applies to sweep runs; '%s' is a `cardbalance %s` run, whose band and "
                                   "family are fixed when it runs (see its settings)." % (option, args.run, command))
    if args.game is not None:
        get_game(args.game)
        if settings.get("game") != args.game:
            raise CardbalanceError("--game %s: run '%s' is of game %s." % (args.game, args.run, settings.get("game")))
    out = args.out if args.out is not None else str(Path(args.run) / "report")
    check_output_folder(Path(out), "--out")
    started = time.perf_counter()
    path = write_design_report(args.run, out)
    if args.quiet:
        print(path)
    else:
        print("report (%s run): %s  (%.1f s)" % (command, path, time.perf_counter() - started))
    return 0


def _check_game(run_dir, game: str) -> None:
    from analysis.runs import load_run
    from sim.errors import CardbalanceError
    from sim.registry import get_game
    get_game(game)  # an unknown name is an error listing the known games
    found = load_run(run_dir).game
    if found != game:
        raise CardbalanceError("--game %s: run '%s' is of game %s." % (game, run_dir, found))
