"""`cardbalance compare`: did a rules change move balance? Paired matches, a CI gate.

Parses, calls `sim.compare`, writes the Markdown / JSON outputs and returns
the gate's exit code: 0 pass, 1 a gate failed, 3 a gate still undecided at
--max-matches; usage errors (bad expression, unknown metric, bad rules) are
CardbalanceError, which the dispatcher turns into one line and exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from sim.errors import CardbalanceError
from sim.user_input import check_jobs

ORDER = 20
EXAMPLES = """examples:
  cardbalance compare default deck-out-draw
        paired comparison on the built-in grid (every {series} at the rules' {axis}, greedy:greedy,
        both first-player orders); prints a Markdown summary
  cardbalance compare default tweak.toml --fail-if '{scope}.win_rate.delta > 0.02' \\
        --fail-if 'all.draws.abs_delta > 1%' --summary-md balance.md --json balance.json
        the CI gate: exit 0 pass, 1 a gate failed, 2 usage error, 3 inconclusive at --max-matches
  cardbalance compare default --write-baseline balance/baseline.json --min-matches 20000
        snapshot BASE's metrics (commit it next to the rules)
  cardbalance compare --baseline balance/baseline.json tweak.toml --fail-if 'all.turns.delta < -2'
        TWEAK against the snapshot (unpaired: no match-level pairing)
  cardbalance compare default tweak.toml --skill pimc:64 --fail-if 'all.win_rate.abs_delta > 0.02'
        the same gate at a higher skill level (both seats pimc:64; a nightly job, docs/ci-gate.md)

gate expressions (docs/ci-gate.md):
  FIELD OP NUMBER [and|or ...], parentheses allowed; OP is > >= < <=; NUMBER may end in %
  FIELD = SCOPE.METRIC.STAT, e.g. {scope_axis}.win_rate.delta
  SCOPE: all, <{series}>, <{series}>@{axis}<L>; METRIC: win_rate, seat1_win_rate, draws,
  first_player_win_rate, turns, one per end type (e.g. {end_type}); STAT: delta, abs_delta, base, tweak
  'X > t' fails when X is shown above t and passes when it is shown at or below t, by
  group-sequential bounds that keep each decision's error at 1 - --confidence however many
  rounds are looked at; undecided gates get more matches, up to --max-matches (then exit 3).
  "Must not move": 'all.draws.delta > 0' passes when every paired match has the same draws in
  both arms (identical rules, or a change that never touches draws); or give a margin,
  'all.draws.abs_delta > 0.005'. Metric names: win_rate counts a draw as not won (the share of
  *decided* matches is the sweep report's "seat0 share").
"""


def add_parser(subparsers):
    from sim.cli.options import example_words
    parser = subparsers.add_parser(
        "compare", help="compare two rule sets with paired matches; CI gate with exit codes",
        description="Play BASE and TWEAK rules on the same grid with common random numbers (match i of\n"
                    "both arms starts from the same seed) and report every balance metric's paired\n"
                    "difference with its interval; gate the result with --fail-if expressions.",
        epilog=EXAMPLES.format(**example_words()), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("arms", nargs="+", metavar="RULES",
                        help="BASE TWEAK (presets or TOML files); BASE alone with --write-baseline; "
                             "TWEAK alone with --baseline")
    parser.add_argument("--sweep", metavar="FILE", help="take the grid from a sweep file (its 'rules' list is ignored)")
    from sim.cli.options import add_game_option
    add_game_option(parser, "game of the built-in grid")
    parser.add_argument("--fail-if", action="append", default=[], metavar="EXPR",
                        help="gate expression; fail when it is shown to hold (repeatable)")
    parser.add_argument("--baseline", metavar="FILE", help="compare TWEAK against a snapshot written by --write-baseline")
    parser.add_argument("--write-baseline", metavar="FILE", help="write BASE's metrics as a JSON snapshot")
    parser.add_argument("--seed", type=int, help="root seed (default: the sweep file's, the baseline's, or 1)")
    parser.add_argument("--skill", metavar="AGENT",
                        help="gate at this skill level: both seats play AGENT (or STRONG/WEAK: seat 0 / seat 1), "
                             "replacing the grid's strategies (default: greedy), e.g. --skill pimc:64")
    parser.add_argument("--batch", type=int,
                        help="matches per cell per round (default 1000, or the baseline's: it is part of the seeds)")
    parser.add_argument("--min-matches", type=int,
                        help="matches per cell before a gate may be decided, and the whole run without a gate "
                             "(default: one batch)")
    parser.add_argument("--max-matches", type=int, default=20000,
                        help="cap per cell; gates still undecided there are inconclusive (default 20000)")
    parser.add_argument("--confidence", type=float, default=0.95,
                        help="each gate decision is wrong with probability at most 1 - confidence, whatever "
                             "round it is taken at (group-sequential bounds; default 0.95)")
    parser.add_argument("--adjust", choices=("holm", "bh", "none"), default="holm",
                        help="multiplicity correction over all gate comparisons: holm (family-wise error, "
                             "default), bh (false-discovery rate) or none (each comparison on its own)")
    parser.add_argument("--jobs", "-j", type=int, default=1, help="parallel workers (joblib; -1 = all cores)")
    parser.add_argument("--backend", choices=("loky", "dask"), default="loky",
                        help="joblib backend: loky (this machine, default) or dask (a dask.distributed cluster)")
    parser.add_argument("--scheduler", help="dask scheduler address (with --backend dask; default: a local cluster)")
    parser.add_argument("--resume", metavar="DIR",
                        help="keep every finished batch in DIR; the same command run again plays only the missing ones")
    parser.add_argument("--summary-md", metavar="FILE", help="write the Markdown summary here (e.g. for a PR comment)")
    parser.add_argument("--json", metavar="FILE", help="write the machine-readable result here ('-' = stdout)")
    parser.add_argument("--figures", metavar="DIR",
                        help="also write the report figures of both arms side by side under DIR "
                             "(replays the same matches per arm)")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress lines, no summary on stdout")
    return parser


def _arms(args):
    arms = list(args.arms)
    if args.baseline:
        if args.write_baseline:
            raise CardbalanceError("--baseline and --write-baseline cannot be combined.")
        if len(arms) != 1:
            raise CardbalanceError("with --baseline give only TWEAK rules (got %d: %s)."
                                   % (len(arms), " ".join(arms)))
        return None, arms[0]
    if len(arms) == 1:
        if not args.write_baseline:
            raise CardbalanceError("give BASE and TWEAK rules (or BASE alone with --write-baseline FILE).")
        if args.fail_if:
            raise CardbalanceError("--fail-if needs TWEAK rules (or --baseline FILE with TWEAK).")
        return arms[0], None
    if len(arms) > 2:
        raise CardbalanceError("expected BASE and TWEAK rules, got %d: %s." % (len(arms), " ".join(arms)))
    return arms[0], arms[1]


def run(args) -> int:
    from reports import compare_md
    from sim.compare import baseline as baseline_io
    from sim.compare import runner
    from sim.sweep.grid import load_sweep

    base_source, tweak_source = _arms(args)
    check_jobs(args.jobs)  # sim/user_input.py: 1..MAX_JOBS or -1, as the design commands
    _check_outputs(args)
    grid = load_sweep(args.sweep) if args.sweep else None
    baseline = baseline_io.load_baseline(args.baseline) if args.baseline else None
    setup = runner.prepare(base_source, tweak_source, grid=grid, game=args.game, seed=args.seed,
                           fail_if=args.fail_if, batch=args.batch, min_matches=args.min_matches,
                           max_matches=args.max_matches, confidence=args.confidence, baseline=baseline,
                           adjust=args.adjust, skill=args.skill,
                           grid_source=args.sweep or ("baseline " + args.baseline if args.baseline else "built-in"))
    if args.scheduler and args.backend != "dask":
        raise CardbalanceError("--scheduler needs --backend dask.")
    for note in setup.notes:  # e.g. a tweak of parameters that cannot act: said before anything is played
        print("compare: note: " + note, file=sys.stderr)
    progress = None if args.quiet else (lambda line: print("compare: " + line, file=sys.stderr))
    client = None
    if args.backend == "dask":
        from sim import executor
        client = executor.connect_dask(args.scheduler, args.jobs)
    try:
        result = runner.run(setup, n_jobs=args.jobs, progress=progress, backend=args.backend, resume=args.resume)
    finally:
        if client is not None:
            executor.close_dask(client)
    data = runner.result_json(result)
    if args.write_baseline:
        baseline_io.write_baseline(args.write_baseline, result)
        if progress:
            progress("wrote baseline %s" % args.write_baseline)
    figures = None
    if args.figures:
        from sim.compare import figures as compare_figures
        figures = compare_figures.write_side_by_side(result, args.figures, relative_to=args.summary_md,
                                                     progress="quiet" if args.quiet else "auto")
        data["figures"] = {name: list(paths) for name, paths in figures.items()}
    markdown = compare_md.render(data, figures)
    if args.summary_md:
        _write(args.summary_md, markdown)
    if args.json:
        text = json.dumps(data, indent=1, default=_json_default) + "\n"
        if args.json == "-":
            sys.stdout.write(text)
        else:
            _write(args.json, text)
    if not args.quiet and args.json != "-":
        sys.stdout.write(markdown)
    if progress and result.changed_no_match:
        progress(compare_md.NO_MATCH_CHANGED)
    if progress:
        for gate in data["gates"]:
            for part in gate["comparisons"]:
                progress("%s: %s" % (gate["verdict"], part["message"]))
        if setup.gates:
            progress(result.gate_family)
        progress({0: "pass", 1: "a gate failed (exit 1)", 3: "inconclusive at --max-matches (exit 3)"}
                 [result.exit_code] if setup.gates else "no gate given")
    return result.exit_code


def _json_default(value):
    try:
        return value.item()
    except AttributeError:
        return str(value)


def _check_outputs(args) -> None:
    """Every output path is writable before any match is played (one line, exit 2, otherwise)."""
    from sim.safe_output import check_output_file, check_output_folder
    for option, path in (("--write-baseline", args.write_baseline), ("--summary-md", args.summary_md),
                         ("--json", None if args.json == "-" else args.json)):
        if path:
            check_output_file(path, option)
    if args.figures:
        check_output_folder(args.figures, "--figures")


def _write(path, text: str) -> None:
    from sim.safe_output import write_text_atomic
    # The path was checked up front (_check_outputs): an OSError now is the environment's
    # (disk full), which the dispatcher reports in one line with exit code 74.
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, text)  # never half a summary for CI to read
