"""`cardbalance sensitivity`: which declared parameters move the headline metrics most —
Sobol' first-order and total indices with bootstrap intervals, Morris screening, or a
Latin hypercube with a surrogate (analysis/sensitivity.py, through SALib)."""

from __future__ import annotations

import argparse
import time

import numpy as np

ORDER = 57

EPILOG = """examples:
  cardbalance sensitivity --game poker_duel --rules advanced --param hp0=30:50 --param club_multiplier=1:4 \\
      --param D-AMB-42 --param D-AMB-24 --method sobol --n 64 --matches 200
  cardbalance sensitivity --game poker_duel --param ... --method lhs --n 120 (a surrogate: fewer points)
  cardbalance sensitivity --game poker_duel --param ... --method morris --n 10 (screening)
"""


def add_parser(subparsers):
    from sim.fair.setup import add_common_options
    parser = subparsers.add_parser(
        "sensitivity", help="rank rule parameters and readings by their effect on the headline metrics (SALib)",
        description="Global sensitivity of seat 0's share, the first player's share, the special-victory rate and "
                    "the mean length to declared parameters: numbers, per-seat grid values, switches and ambiguity "
                    "readings as factors.", epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--param", action="append", required=True,
                        help="NAME, NAME=LOW:HIGH (integers) or ID=READING,READING (a factor); repeat, at least two. "
                             "A parameter that cannot act anywhere in the design (club_multiplier without "
                             "advanced_rules, neither set nor varied) is refused, exit 2, not ranked 0")
    parser.add_argument("--spread-over", metavar="DIMENSION",
                        help="a choice dimension (e.g. the pairing): play every value of it at every point and add "
                             "the matchup spread (largest minus smallest seat-0 share) as a metric")
    parser.add_argument("--method", default="sobol", help="sobol (default), morris or lhs")
    parser.add_argument("--n", type=int, default=64,
                        help="Saltelli base samples (sobol, a power of two from 64: 8 replicates of n/8), "
                             "trajectories (morris) or points (lhs)")
    parser.add_argument("--matches", type=int, default=200,
                        help="matches per point and first-player order (default 200; sobol: split over its two deal sets)")
    parser.add_argument("--max-matches", type=int, default=500_000, help="refuse a design needing more (default 500000)")
    add_common_options(parser)
    return parser


def run(args) -> int:
    from analysis import sensitivity
    from reports.fair import write_sensitivity_report
    from sim import inert
    from sim.errors import CardbalanceError
    from sim.fair import metrics, params, setup

    b = setup.base(args)
    chosen = []
    for text in args.param:
        param = params.parse_param(b.game, b.rules, text, factors=True)
        if any(p.name == param.name for p in chosen):
            raise CardbalanceError("--param '%s' is given twice." % param.name)
        chosen.append(param)
    params.check_disjoint(chosen)
    spread, choices = spread_choices(b, args.spread_over)
    cells = [{**b.values, spread: choice} for choice in choices] if spread else [b.values]
    # refused, not dropped: the design is what was asked (every cell it plays, the spread's too)
    inert.check_design(b.rules, chosen, "sensitivity", factors=True, cells=cells)
    method = sensitivity.check_method(args.method)
    if args.matches < 10:
        raise CardbalanceError("--matches must be at least 10 (got %r)." % (args.matches,))
    copies = sensitivity.COPIES if method == "sobol" else 1  # sobol: each point on independent deal sets
    chunk = min(args.chunk_size, -(-args.matches // copies))
    per_copy = -(-args.matches // (copies * chunk)) * chunk
    matches = per_copy * copies
    probe = b.runner(args.seed, args.jobs, None, chunk)
    problem = sensitivity.problem(chosen)
    needed = sensitivity.check_budget(method, problem, args.n, matches * len(probe.orders) * len(choices),
                                      args.max_matches)
    check_design_size(method, problem, args.n)
    setup.check_chunk_count(needed, chunk, "the design")
    X = (sensitivity.replicated_design(problem, args.n, args.seed) if method == "sobol"
         else sensitivity.design(method, problem, args.n, args.seed))
    rows = sensitivity.to_values(chosen, X)
    distinct = {}
    for row in rows:
        distinct.setdefault(row, len(distinct))
    # (stage, its distinct point keys, its design rows): each copy of a sobol replicate is one
    # stage of the runner, so it plays its own deals (sim/fair/runner.py); other methods: stage 0
    replicates = sensitivity.REPLICATES if method == "sobol" else 1
    per_replicate = len(rows) // replicates
    stages = [(replicate * copies + copy, sorted({distinct[rows[i]] for i in range(replicate * per_replicate,
                                                                              (replicate + 1) * per_replicate)}),
               range(replicate * per_replicate, (replicate + 1) * per_replicate))
              for replicate in range(replicates) for copy in range(copies)]
    base_choice = choices.index(b.values[spread]) if spread else 0
    points = {}
    for row, key in distinct.items():
        for index, choice in enumerate(choices):
            values = {**b.values, spread: choice} if spread else b.values
            points[key * len(choices) + index] = params.apply(b.rules, values, chosen, row)
    for setting in points.values():
        probe.check(setting)
    settings = {"command": "sensitivity", **setup.describe_base(b), "params": [p.describe() for p in chosen],
                "method": method, "n": args.n, "matches": matches, "chunk_size": chunk, "seed": args.seed,
                "spread_over": spread, **({"replicates": replicates, "copies": copies} if method == "sobol" else {})}
    with (setup.cluster(args, probe, points[0]),
          setup.prepare_folder(args.out, "sensitivity", settings) as (folder, resumed)):
        stage_points = sum(len(keys) for _, keys, _ in stages) * len(choices)  # (stage, point) pairs: what the progress counts
        planned = stage_points * per_copy * len(probe.orders)
        setup.say(args, "sensitivity: %s design, %d points (%d distinct), up to %s matches%s -> %s"
                  % (method, len(rows), len(distinct), format(planned, ","), " (resumed)" if resumed else "", folder))
        started, cpu = time.perf_counter(), time.process_time()
        with b.runner(args.seed, args.jobs, folder, chunk, setup.progress(args, "sensitivity", stage_points)) as runner:
            for stage, keys, _ in stages:
                runner.play(stage, {key * len(choices) + c: points[key * len(choices) + c]
                                    for key in keys for c in range(len(choices))}, per_copy)
        results = {}
        for metric in metrics.METRICS + (("spread",) if spread else ()):
            Y, noise = np.empty((copies, len(rows))), np.empty((copies, len(rows)))
            for stage, _, span in stages:
                for i in span:
                    Y[stage % copies, i], noise[stage % copies, i] = point_value(
                        runner, b.game, metric, stage, distinct[rows[i]] * len(choices), len(choices), base_choice)
            if not np.isfinite(Y).all():
                Y = np.where(np.isfinite(Y), Y, np.nanmean(Y))
            variance = float(np.var(Y[0]))
            if variance <= 0 and np.ptp(Y) <= 0:
                results[metric] = {"rows": [], "variance": 0.0, "noise_share": None, "constant": float(Y[0, 0])}
                continue
            found = (sensitivity.replicated_indices(problem, Y) if method == "sobol"
                     else sensitivity.indices(method, problem, X, Y[0], args.seed))
            table = sensitivity.ranking(found, method)
            noise_share = float(np.nanmean(noise[0]) / variance) if variance > 0 else None
            results[metric] = {"rows": table, "variance": variance, "noise_share": noise_share}
        cost = {"matches": runner.matches(), "matches_played_now": runner.matches_played,
                "wall_s": round(time.perf_counter() - started, 1), "worker_cpu_s": round(runner.worker_s, 1),
                "main_cpu_s": round(time.process_time() - cpu, 1), "design_points": len(rows),
                "distinct_points": len(distinct), "needed_upper_bound": needed}
        write_sensitivity_report(folder, settings, chosen, method, results, cost)
        top = results["seat0"]["rows"][:3]
        key = "mu_star" if method == "morris" else "ST"
        print("sensitivity (%s): seat0 most moved by %s; %s matches; %s"
              % (method, ", ".join("%s (%s %.3f)" % (row["name"], key, row[key]) for row in top) or "nothing",
                 format(runner.matches(), ","), folder / "summary.md"))
    return 0


MAX_DESIGN_POINTS = 100_000  # a point is a rules object and its chunks, all built before the first match: --n 2**30
                             # with a raised --max-matches allocated 32 GiB in SALib's sampler, then crashed


def check_design_size(method: str, problem: dict, n: int) -> None:
    """Refuse a design too large to build, before SALib allocates it (the budget check alone passes it
    when --max-matches is raised as far)."""
    from analysis.sensitivity import design_points
    from sim.errors import CardbalanceError
    points = design_points(method, problem, n)
    if points > MAX_DESIGN_POINTS:
        raise CardbalanceError("--n %d: the %s design would have %s points; at most %s (a smaller --n)."
                               % (n, method, format(points, ","), format(MAX_DESIGN_POINTS, ",")))


def point_value(runner, game, metric, stage, first, choices, base_choice):
    """(the metric, its sampling variance) at one design point of `stage`; `first` is the cell key
    of its first --spread-over choice."""
    from sim.fair import metrics
    if metric == "spread":
        shares = [metrics.interval("seat0", runner.totals(stage, first + c), game, 1.0) for c in range(choices)]
        estimate = max(v[0] for v in shares) - min(v[0] for v in shares)
        half = 2 * max((v[2] - v[1]) / 2 for v in shares)  # a difference of two shares, at most
    else:
        estimate, low, high = metrics.interval(metric, runner.totals(stage, first + base_choice), game, 1.0)
        half = (high - low) / 2
    return estimate, (half ** 2 if np.isfinite(half) else np.nan)


def spread_choices(b, name):
    """(dimension name, its values) for --spread-over, or (None, [None]) without it."""
    from sim.errors import CardbalanceError
    from sim.registry import CHOICE
    if name is None:
        return None, [None]
    dimension = b.game.dimension(name)  # raises, naming the game's dimensions
    if dimension.kind != CHOICE or len(dimension.values) < 2:
        raise CardbalanceError("--spread-over '%s' must be a choice dimension with at least two values; %s's: %s."
                               % (name, b.game.name, ", ".join(d.name for d in b.game.dimensions
                                                              if d.kind == CHOICE) or "none"))
    return dimension.name, list(dimension.values)
