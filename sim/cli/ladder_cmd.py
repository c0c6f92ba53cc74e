"""`cardbalance ladder`: a round-robin among agents, rated (docs/ladder.md).

Every ordered pair of agents plays every series of the game (its choice dimensions) on common deals
(the same match seeds for every pair), with seats and first player swapped,
into a run folder like a sweep's; then Bradley–Terry ratings on the Elo
scale with bootstrap intervals, the pairwise win-rate table, rungs and
cycles are printed and written as a report. Everything is checked before
the run folder is created, so bad input leaves nothing behind.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from pathlib import Path

from sim.errors import EXIT_ENVIRONMENT, CardbalanceError, describe_os_error
from sim.user_input import check_count, check_jobs

ORDER = 16
MAX_BOOTSTRAP = 10_000  # resamples, fitted in one batch: 10,000 of a 7-agent ladder (252 cells) take under 1 s of CPU
SEED_MAX = 2**63 - 1

EPILOG = """examples:
  cardbalance ladder                             the game's default agents, 2000 matches per pair
  cardbalance ladder --agents greedy,pimc:64 --matches 2000
                                                 one comparison: greedy vs pimc:64 over 2000 matches
                                                 (both seats, both first players, every {series}), Wilson 95 % CI
  cardbalance ladder --agents random,greedy,exile,pimc:16 --matches 400 --jobs 2
                                                 a quick four-agent ladder on two cores
  cardbalance ladder --agents random,greedy {choices} {setup}
                                                 one {series} at one {axis}
  cardbalance ladder --resume runs/20260101-120000-ladder
                                                 continue a killed ladder without redoing finished chunks

matches count per comparison (an unordered agent pair), spread evenly over its cells;
a draw counts half a win for each side. Report: RUN/ladder/ladder.html (+ ladder.md, PNGs, CSVs).
"""


def _epilog() -> str:
    from sim.cli.options import example_words
    return EPILOG.format(**example_words())  # the default game's words: this module names no game


def add_parser(subparsers):
    from sim.cli.options import add_dimension_options, add_game_option
    parser = subparsers.add_parser(
        "ladder", help="rate agents by a round-robin tournament (Bradley-Terry / Elo with intervals)",
        description="Play a round-robin among agents on common deals, every series, seats and first player "
                    "swapped, into a run folder; rate them (Bradley-Terry on the Elo scale, bootstrap 95 % "
                    "intervals) and write the pairwise win-rate table, rungs, cycles and an HTML report.",
        epilog=_epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agents", help="comma-separated agent (strategy) names, budgets as NAME:N "
                                         "(default: the game's default ladder)")
    parser.add_argument("--matches", type=int, default=None,
                        help="matches per agent pair over all its cells (default %d)" % 2000)
    parser.add_argument("--rules", default=None, help="rules preset or TOML file (default: default)")
    add_game_option(parser)
    add_dimension_options(parser, choice_lists=True)
    parser.add_argument("--seed", type=int, default=None, help="root seed of the match seeds and the bootstrap (default 1)")
    parser.add_argument("--chunk-size", type=int, default=None,
                        help="matches per chunk (default: a cell's matches in 20 chunks, at most 1000 each; the "
                             "rating intervals redraw these blocks of deals and need at least 10 a cell)")
    parser.add_argument("--bootstrap", type=int, default=None,
                        help="bootstrap resamples for the rating intervals (default 200; 0: none; at most %d)"
                             % MAX_BOOTSTRAP)
    parser.add_argument("--out", help="run folder to create (default: runs/<timestamp>-ladder)")
    parser.add_argument("--jobs", type=int, default=-1, help="worker processes (default -1: all cores)")
    parser.add_argument("--backend", choices=("loky", "dask"), default="loky", help="joblib backend (default loky)")
    parser.add_argument("--scheduler", help="dask scheduler address (with --backend dask; default: a local cluster)")
    parser.add_argument("--resume", metavar="RUN", help="continue an unfinished ladder run folder")
    parser.add_argument("--quiet", action="store_true", help="no progress and no printed ladder")
    parser.add_argument("--no-report", action="store_true", help="do not write the HTML report")
    return parser


def _positive(value, option: str, allow_zero: bool = False) -> int:
    if value is None:
        return None
    if value < (0 if allow_zero else 1):
        raise CardbalanceError("%s must be a %s integer (got %d)." % (option, "non-negative" if allow_zero else "positive", value))
    return value


def _check_options(args) -> None:
    if args.resume:
        given = [flag for flag, value in (("--agents", args.agents), ("--matches", args.matches),
                                          ("--chunk-size", args.chunk_size), ("--out", args.out),
                                          ("--rules", args.rules), ("--seed", args.seed),
                                          ("--game", args.game)) if value is not None]
        given += ["--" + key[4:] for key, value in vars(args).items() if key.startswith("dim_") and value is not None]
        if given:
            raise CardbalanceError("--resume continues a ladder as it was planned; drop %s." % ", ".join(given))
    check_jobs(args.jobs)  # sim/user_input.py: 1..MAX_JOBS or -1, as the design commands
    if args.scheduler and args.backend != "dask":
        raise CardbalanceError("--scheduler needs --backend dask.")
    _positive(args.matches, "--matches")
    _positive(args.chunk_size, "--chunk-size")
    check_count(args.bootstrap, "--bootstrap", 0, MAX_BOOTSTRAP)
    check_count(args.seed, "--seed", 0, SEED_MAX)


def _argv(args) -> list[str]:
    """The options that decide what a ladder plays, as a command line (the report's "reproduce")."""
    words = ["--agents", ",".join(args.agents.split(",")) if args.agents else "(default)"]
    for flag, value in (("--matches", args.matches), ("--game", args.game), ("--rules", args.rules),
                        ("--seed", args.seed), ("--chunk-size", args.chunk_size), ("--bootstrap", args.bootstrap)):
        if value is not None:
            words += [flag, str(value)]
    from sim.registry import get_game
    game = get_game(args.game)
    for key, value in sorted(vars(args).items()):
        if key.startswith("dim_") and value is not None:
            option = game.dimension(key[4:]).sweep_key if isinstance(value, list) else key[4:]  # e.g. --pairings A B
            words += ["--" + option] + (list(value) if isinstance(value, list) else [str(value)])
    return words


def plan_ladder(args):
    """(plan, ladder meta entry) from the command line, every input checked."""
    from sim.cli.options import dimension_values
    from sim.registry import get_game
    from sim.sweep import ladder
    from sim.sweep.grid import build_plan
    game = get_game(args.game)
    agents = ladder.check_agents(game, args.agents.split(",") if args.agents is not None else ladder.default_agents(game))
    matches = args.matches or ladder.DEFAULT_MATCHES
    settings = ladder.grid_settings(game, dimension_values(args, game))
    spec = ladder.ladder_spec(game, agents, matches, settings, rules=args.rules or "default",
                              seed=1 if args.seed is None else args.seed,
                              chunk_size=args.chunk_size)
    bootstrap = 200 if args.bootstrap is None else args.bootstrap
    return build_plan(spec), ladder.ladder_meta(agents, matches, bootstrap)


def run(args) -> int:
    from sim.safe_output import check_output_folder
    from sim.sweep import runfolder
    from sim.sweep.runlock import command_line, hold_run_lock
    from sim.sweep.runner import check_dask_workers, connect_dask, run_sweep
    from sim.cli.sweep_cmd import default_run_dir

    _check_options(args)
    with contextlib.ExitStack() as lock:
        if args.resume:
            run_dir = Path(args.resume)
            meta = runfolder.load_meta(run_dir)
            if "ladder" not in meta:
                raise CardbalanceError("--resume: '%s' is a sweep run, not a ladder; continue it with "
                                       "cardbalance sweep --resume %s." % (run_dir, run_dir))
            plan = runfolder.plan_from_meta(meta, run_dir)
            lock.enter_context(hold_run_lock(run_dir, command_line()))
        else:
            plan, ladder_entry = plan_ladder(args)
            run_dir = Path(args.out) if args.out else default_run_dir("ladder")
            runfolder.check_new_run_folder(run_dir)
            check_output_folder(run_dir, "--out")
        client = connect_dask(args.scheduler, args.jobs) if args.backend == "dask" else None
        try:
            if client is not None:
                check_dask_workers(client, plan)
            if not args.resume:
                meta = runfolder.build_meta(plan, args.backend, args.jobs)
                meta["ladder"] = {**ladder_entry, "command": " ".join(["cardbalance", "ladder", *_argv(args)])}
                runfolder.create_run_folder(run_dir, meta, lock=lock, command=command_line(), data=plan.game.data or None)
            started = time.perf_counter()
            try:
                result = run_sweep(plan, run_dir, jobs=args.jobs, backend=args.backend,
                                   progress="quiet" if args.quiet else "auto", resume=bool(args.resume),
                                   progress_label="ladder")
            except KeyboardInterrupt:
                print("\ncardbalance ladder: interrupted; finished chunks are kept: continue with "
                      "cardbalance ladder --resume %s" % run_dir, file=sys.stderr)
                return 130
            except OSError as error:
                print("cardbalance ladder: error: %s; finished chunks are kept: continue with "
                      "cardbalance ladder --resume %s" % (describe_os_error(error), run_dir), file=sys.stderr)
                return EXIT_ENVIRONMENT
            wall = time.perf_counter() - started
        finally:
            if client is not None:
                from sim.executor import close_dask
                close_dask(client)
        from reports.ladder import build_ladder_report, ladder_text
        if args.no_report:
            from analysis.ladder import load_ladder
            from analysis.runs import load_run
            loaded = load_run(run_dir)
            report, text = None, ladder_text(load_ladder(loaded, args.bootstrap), loaded)
        else:
            report, _, text = build_ladder_report(run_dir, bootstrap=args.bootstrap)  # None: the run's own setting
        if not args.quiet:
            print(text)
            print("run folder: %s  (%d cells, %d matches, %.1f s%s)" % (
                run_dir, result.meta["counts"]["cells"], result.meta["counts"]["matches"], wall,
                ", %d chunks resumed" % result.chunks_resumed if args.resume else ""))
            if report is not None:
                print("report: %s" % report)
    return 0


if __name__ == "__main__":  # pragma: no cover
    from sim.cli import main
    sys.exit(main(["ladder", *sys.argv[1:]]))
