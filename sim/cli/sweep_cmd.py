"""`cardbalance sweep`: run a balance sweep into a run folder, then report it.

Everything the user gave is checked — sweep file, the game's grid values,
strategies, rules and [vary] values, the dask scheduler, the output folder — before the run folder
is created, so bad input leaves nothing behind.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
import time
from pathlib import Path

from sim.errors import EXIT_ENVIRONMENT, CardbalanceError, describe_os_error
from sim.user_input import check_jobs

ORDER = 10

EPILOG = """examples:
  cardbalance sweep                              the built-in default sweep and its report (first run: a ~30 s compile on two idle cores, said on stderr)
  cardbalance sweep handicap.toml --jobs 2       a sweep file (format: docs/architecture.md)
  cardbalance sweep grid.toml --precision 0.005 --max-matches 200000
                                                 add matches until every cell's 95 % interval is within ±0.005
  cardbalance sweep --resume runs/20260101-120000-default
                                                 continue a killed sweep without redoing finished chunks
  cardbalance sweep grid.toml --backend dask --scheduler tcp://10.0.0.5:8786
                                                 run on a dask.distributed cluster (see docs/sweeps.md)
"""


def add_parser(subparsers):
    parser = subparsers.add_parser(
        "sweep", help="run a balance sweep (default: the built-in one) and write its report",
        description="Run every cell of a sweep grid in numba kernels, in parallel, into a run folder "
                    "(results.parquet + meta.json), then write the report.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", nargs="?", help="sweep file (TOML); default: the built-in default sweep")
    parser.add_argument("--out", help="run folder to create (default: runs/<timestamp>-<sweep name>)")
    from sim.cli.options import add_game_option
    add_game_option(parser, "game of the built-in default sweep (a sweep file names its own)")
    parser.add_argument("--jobs", type=int, default=-1, help="worker processes (default -1: all cores)")
    parser.add_argument("--backend", choices=("loky", "dask"), default="loky",
                        help="joblib backend: loky (this machine, default) or dask (a dask.distributed cluster)")
    parser.add_argument("--scheduler", help="dask scheduler address, e.g. tcp://host:8786 "
                                            "(with --backend dask; default: a local cluster)")
    parser.add_argument("--precision", type=float,
                        help="add matches per cell until the 95%% Wilson half-width of its win rates is at most this")
    parser.add_argument("--max-matches", type=int, help="matches per cell at most with --precision")
    parser.add_argument("--matches", type=int, help="matches per cell (with --precision: the first round)")
    parser.add_argument("--seed", type=int, help="root seed (default: the sweep file's, else 1)")
    parser.add_argument("--skills", nargs="+", metavar="LEVEL",
                        help="skill levels to sweep, replacing the file's strategies: AGENT (both seats) or "
                             "STRONG/WEAK (seat 0 / seat 1), e.g. --skills greedy pimc:64 pimc:64/greedy")
    parser.add_argument("--ladder", metavar="LADDER_RUN",
                        help="a `cardbalance ladder` run whose ratings order the skill levels in the report")
    parser.add_argument("--resume", metavar="RUN", help="continue an unfinished run folder")
    parser.add_argument("--quiet", action="store_true", help="no progress and no summary")
    parser.add_argument("--no-report", action="store_true", help="do not write the HTML report")
    return parser


def run(args) -> int:
    from sim.compile_ahead import discard_early, start_early
    from sim.registry import get_game
    from sim.safe_output import check_output_folder
    from sim.sweep import runfolder
    from sim import inert
    from sim.sweep.grid import build_plan, default_sweep, load_sweep
    from sim.sweep.runlock import command_line, hold_run_lock

    _check_option_combinations(args)
    with contextlib.ExitStack() as lock:
        lock.callback(discard_early)
        if not args.resume and not args.file:  # a fresh clone: the compile's second process starts now
            start_early(get_game(args.game), args.jobs)
        from reports.skill_section import ladder_ratings
        args.ratings = ladder_ratings(args.ladder)  # a bad --ladder fails before any run folder exists
        # The run lock (RUN/.lock) is held from here until the report is written.
        if args.resume:
            run_dir = Path(args.resume)
            meta = runfolder.load_meta(run_dir)
            plan = runfolder.plan_from_meta(meta, run_dir)
            lock.enter_context(hold_run_lock(run_dir, command_line()))
        else:
            spec = load_sweep(args.file) if args.file else default_sweep(args.game)
            if args.game is not None and args.game != spec.game:
                raise CardbalanceError("--game %s differs from the sweep file's game %s." % (args.game, spec.game))
            spec = spec.with_overrides(matches=args.matches, precision=args.precision,
                                       max_matches=args.max_matches, seed=args.seed, skills=args.skills)
            if args.max_matches is not None and spec.precision is None:
                raise CardbalanceError("--max-matches only applies with a precision target (--precision or 'precision' in the sweep file).")
            plan = build_plan(spec)
            for note in inert.check_sweep_vary(plan):  # refuses a [vary] key that can act in no cell
                print("sweep: note: %s" % note, file=sys.stderr)
            run_dir = Path(args.out) if args.out else default_run_dir(spec.name)
            runfolder.check_new_run_folder(run_dir)
            check_output_folder(run_dir, "--out")
        return _run_and_report(args, plan, run_dir, lock)


def _run_and_report(args, plan, run_dir: Path, lock) -> int:
    from sim.sweep import runfolder
    from sim.sweep.runlock import command_line
    from sim.sweep.runner import check_dask_workers, connect_dask, run_sweep

    client = connect_dask(args.scheduler, args.jobs) if args.backend == "dask" else None
    try:
        if client is not None:
            check_dask_workers(client, plan)
        if not args.resume:
            runfolder.create_run_folder(run_dir, runfolder.build_meta(plan, args.backend, args.jobs), lock=lock,
                                        command=command_line(), data=plan.game.data or None)
        started = time.perf_counter()
        try:
            result = run_sweep(plan, run_dir, jobs=args.jobs, backend=args.backend,
                               progress="quiet" if args.quiet else "auto", resume=bool(args.resume))
        except KeyboardInterrupt:
            print("\ncardbalance sweep: interrupted; finished chunks are kept: continue with "
                  "cardbalance sweep --resume %s" % run_dir, file=sys.stderr)
            return 130
        except OSError as error:  # e.g. the disk filled up: every finished chunk is on disk, whole
            print("cardbalance sweep: error: %s; finished chunks are kept: continue with "
                  "cardbalance sweep --resume %s" % (describe_os_error(error), run_dir), file=sys.stderr)
            return EXIT_ENVIRONMENT
        wall = time.perf_counter() - started
    finally:
        if client is not None:
            _close_client(client)

    report_path, summary = report_hook(run_dir, write_report=not args.no_report, ladder=args.ladder)
    if not args.quiet:
        print(summary)
        print("run folder: %s  (%d cells, %d matches, %.1f s%s)" % (
            run_dir, result.meta["counts"]["cells"], result.meta["counts"]["matches"], wall,
            ", %d chunks resumed" % result.chunks_resumed if args.resume else ""))
        if report_path and "Report:" not in summary:
            print("report: %s" % report_path)
    return 0


def report_hook(run_dir: Path, write_report: bool = True, ladder=None) -> tuple[Path | None, str]:
    """(report path or None, terminal summary) of a finished run.

    Uses `reports.build_report` and `analysis.summary_text` when those
    packages provide them; otherwise a plain table of win rates.
    """
    report_path = None
    try:
        import analysis
        summary_text = analysis.summary_text
    except (ImportError, AttributeError):
        summary_text = fallback_summary
    run_tables = None
    if summary_text is not fallback_summary:  # the tables once, for the report and the summary
        from analysis.runs import load_run
        from analysis.tables import all_tables
        run_tables = all_tables(load_run(run_dir))
    if write_report:
        try:
            import reports
            build_report = reports.build_report
        except (ImportError, AttributeError):
            build_report = None
        if build_report is not None:
            report_path = build_report(run_dir, ladder=ladder, run_tables=run_tables)
    if summary_text is not fallback_summary:
        from reports.headline import terminal_summary  # the page's headline and counts lead, as on the page
        from reports.skill_section import ladder_ratings
        return report_path, terminal_summary(run_dir, report_path=report_path, ratings=ladder_ratings(ladder),
                                             run_tables=run_tables)
    return report_path, summary_text(run_dir)


def fallback_summary(run_dir: Path) -> str:
    """A plain win-rate table straight from results.parquet."""
    import pandas as pd

    from sim.registry import per_seat_label
    from sim.sweep import runfolder
    frame = pd.read_parquet(Path(run_dir) / runfolder.RESULTS)
    meta = runfolder.load_meta(run_dir)
    ends = meta["end_types"]
    dimensions = meta.get("dimensions", ())

    def label(row, dimension):
        if dimension["kind"] == "per_seat":
            return per_seat_label(*(row[column] for column in dimension["columns"]))
        return str(row[dimension["name"]])

    lines = ["%-4s %-34s %-22s %-10s %8s %7s %7s %7s %7s" % (
        "cell", " ".join(d["name"] for d in dimensions), "strategies", "rules", "matches", "seat0", "seat1", "draw",
        "turns")]
    for row in frame.itertuples(index=False):
        row = row._asdict()
        n = max(row["matches"], 1)
        wins = [sum(row["%s_%s" % (prefix, end)] for end in ends) / n for prefix in ("seat0", "seat1", "draw")]
        lines.append("%-4d %-34s %-22s %-10s %8d %6.1f%% %6.1f%% %6.1f%% %7.1f" % (
            row["cell"], " ".join(label(row, d) for d in dimensions),
            "%s:%s" % (row["strategy0"], row["strategy1"]), row["rules"][:10], row["matches"],
            100 * wins[0], 100 * wins[1], 100 * wins[2], row["turns_sum"] / n))
    return "\n".join(lines)


RUN_NAME_CHARACTERS = 80  # of the sweep name in a default run folder name (a file name has at most 255 bytes)


def default_run_dir(name: str) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", name)[:RUN_NAME_CHARACTERS].strip("-.") or "sweep"
    path = Path("runs") / ("%s-%s" % (stamp, name))
    suffix = 1
    while path.exists():
        suffix += 1
        path = Path("runs") / ("%s-%s-%d" % (stamp, name, suffix))
    return path


def _check_option_combinations(args) -> None:
    if args.resume:
        given = [flag for flag, value in (("FILE", args.file), ("--out", args.out), ("--precision", args.precision),
                                          ("--max-matches", args.max_matches), ("--matches", args.matches),
                                          ("--seed", args.seed), ("--game", args.game), ("--skills", args.skills))
                 if value is not None]
        if given:
            raise CardbalanceError("--resume continues a run as it was planned; drop %s (only --jobs, --backend, "
                                   "--scheduler, --quiet and --no-report may change)." % ", ".join(given))
    check_jobs(args.jobs)  # sim/user_input.py: 1..MAX_JOBS or -1, as the design commands
    if args.scheduler and args.backend != "dask":
        raise CardbalanceError("--scheduler needs --backend dask.")


def _close_client(client) -> None:
    cluster = getattr(client, "cluster", None)
    client.close()
    if cluster is not None:
        cluster.close()


if __name__ == "__main__":  # pragma: no cover
    from sim.cli import main
    sys.exit(main(["sweep", *sys.argv[1:]]))
