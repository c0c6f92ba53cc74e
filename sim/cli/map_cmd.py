"""`cardbalance map`: a balance-region map over two parameters — heatmap of a metric, its
target contour, and the points whose family-level verdict is "balanced"
(analysis/balance_map.py: analysis.verdict's score tests, Holm over the whole map)."""

from __future__ import annotations

import argparse
import time

ORDER = 58

EPILOG = """examples:
  cardbalance map --x {axis}0=30:90:10 --y {axis}1=30:90:10 --matches 400
  cardbalance map --game poker_duel --rules advanced --x hp0=20:60:10 --y club_multiplier=1:4:1 --metric first
"""


def add_parser(subparsers):
    from sim.cli.options import example_words
    from sim.fair.setup import add_common_options
    parser = subparsers.add_parser(
        "map", help="map a metric over two parameters with its 50 %% contour and the balanced region",
        description="Play a 2-D grid of two parameters on common deals and draw the metric, its target contour "
                    "and the points decided balanced at the family level. A parameter that cannot act under the rules "
                    "(club_multiplier without advanced_rules) is refused, exit 2.",
        epilog=EPILOG.format(**example_words()), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--x", required=True, help="NAME=LOW:HIGH:STEP, the horizontal parameter")
    parser.add_argument("--y", required=True, help="NAME=LOW:HIGH:STEP, the vertical parameter")
    parser.add_argument("--metric", default="seat0", help="seat0 (default), first, special or length")
    parser.add_argument("--target", type=float, default=0.5, help="the contour's level (default 0.5)")
    parser.add_argument("--matches", type=int, default=500, help="matches per point and first-player order (default 500)")
    parser.add_argument("--max-matches", type=int, default=500_000, help="refuse a map needing more (default 500000)")
    parser.add_argument("--delta", type=float, default=None, help="balanced band ½ ± delta (default analysis.verdict's)")
    parser.add_argument("--adjust", default="holm", help="family correction: holm (default), bh or none")
    add_common_options(parser)
    return parser


MAX_AXIS_VALUES = 200  # a map's axis; more would not fit the figure nor the report's table (and 1:10^13:1
                       # would allocate ten trillion values before the budget check could refuse it)


def parse_axis(text: str, option: str):
    from sim.errors import CardbalanceError
    from sim.user_input import shorten
    name, _, rest = str(text).partition("=")
    parts = rest.split(":")
    try:
        low, high, step = (int(part) for part in parts)
    except ValueError:
        raise CardbalanceError("%s must be NAME=LOW:HIGH:STEP with integers, e.g. life0=30:90:10 (got '%s')."
                               % (option, shorten(str(text)))) from None
    if step < 1 or high <= low:
        raise CardbalanceError("%s: need LOW < HIGH and STEP >= 1 (got '%s')." % (option, shorten(str(text))))
    count = (high - low) // step + 1
    if count > MAX_AXIS_VALUES:
        raise CardbalanceError("%s: %s values from %d to %d in steps of %d; an axis takes at most %d (a larger STEP "
                               "or a narrower range)." % (option, format(count, ","), low, high, step, MAX_AXIS_VALUES))
    return name, low, high, list(range(low, high + 1, step))


def run(args) -> int:
    from analysis.balance_map import BalanceMap, family_verdicts
    from analysis.verdict import DEFAULT_DELTA, check_adjust, check_delta
    from reports.fair import write_map_report
    from sim import inert
    from sim.errors import CardbalanceError
    from sim.fair import metrics, params, setup
    import numpy as np

    b = setup.base(args)
    axes = []
    for option, text in (("--x", args.x), ("--y", args.y)):
        name, low, high, values = parse_axis(text, option)
        axes.append((params.resolve(b.game, b.rules, name, low, high), values))
    (px, xs), (py, ys) = axes
    inert.check_design(b.rules, [px, py], "map", cells=[b.values])  # a flat axis would map noise: refused
    if px.name == py.name:
        raise CardbalanceError("--x and --y name the same parameter '%s'; give two different ones." % px.name)
    params.check_disjoint([px, py])
    metric = metrics.check_metric(args.metric)
    target = metrics.check_target(metric, args.target)
    delta = check_delta(DEFAULT_DELTA if args.delta is None else args.delta)
    adjust = check_adjust(args.adjust)
    if args.matches < 10:
        raise CardbalanceError("--matches must be at least 10 (got %r)." % (args.matches,))
    chunk = min(args.chunk_size, args.matches)
    matches = -(-args.matches // chunk) * chunk
    probe = b.runner(args.seed, args.jobs, None, chunk)
    needed = len(xs) * len(ys) * len(probe.orders) * matches
    setup.check_chunk_count(needed, chunk, "the map")
    if needed > args.max_matches:
        raise CardbalanceError("the map needs %s matches (%d x %d points x %d orders x %d), above --max-matches %s; "
                               "use fewer points or matches." % (format(needed, ","), len(xs), len(ys),
                                                                len(probe.orders), matches, format(args.max_matches, ",")))
    points = {}
    for j, y in enumerate(ys):
        for i, x in enumerate(xs):
            points[j * len(xs) + i] = params.apply(b.rules, b.values, [px, py], [x, y])
    for setting in points.values():
        probe.check(setting)
    settings = {"command": "map", **setup.describe_base(b), "x": [px.name, xs], "y": [py.name, ys], "metric": metric,
                "target": target, "matches": matches, "delta": delta, "adjust": adjust, "chunk_size": chunk,
                "seed": args.seed}
    with setup.cluster(args, probe, points[0]), setup.prepare_folder(args.out, "map", settings) as (folder, resumed):
        setup.say(args, "map: %s x %s, %d points, %s matches%s -> %s" % (px.name, py.name, len(points), format(needed, ","),
                                                                         " (resumed)" if resumed else "", folder))
        started, cpu = time.perf_counter(), time.process_time()
        with b.runner(args.seed, args.jobs, folder, chunk, setup.progress(args, "map", len(points))) as runner:
            runner.play(0, points, matches)
        shape = (len(ys), len(xs))
        estimate, low, high = (np.zeros(shape) for _ in range(3))
        p_imbalanced, p_balanced = np.ones(shape), np.ones(shape)
        for key in points:
            j, i = divmod(key, len(xs))
            estimate[j, i], low[j, i], high[j, i] = metrics.interval(metric, runner.totals(0, key), b.game, 1.959963984540054)
            if metric != "length":
                p_imbalanced[j, i], p_balanced[j, i] = metrics.verdict_p_values(metric, runner.totals(0, key), b.game,
                                                                                delta)
        verdict = family_verdicts(p_imbalanced, p_balanced, adjust) if metric in ("seat0", "first") and target == 0.5 else None
        found = BalanceMap(xs, ys, estimate, low, high, verdict, delta, adjust)
        cost = {"matches": runner.matches(), "matches_played_now": runner.matches_played,
                "wall_s": round(time.perf_counter() - started, 1), "worker_cpu_s": round(runner.worker_s, 1),
                "main_cpu_s": round(time.process_time() - cpu, 1)}
        write_map_report(folder, settings, px, py, found, cost)
        print("map %s x %s: %d of %d points balanced (family-level, %s, ½ ± %g); %s matches; %s"
              % (px.name, py.name, len(found.balanced_points()), len(points), adjust, delta,
                 format(runner.matches(), ","), folder / "summary.md"))
    return 0
