"""`cardbalance fair`: the value of one integer parameter that makes a metric meet a target
(default: seat 0 wins half the decided matches), with a 95 % interval on the value.

Method and guarantee: docs/fair-value.md (analysis/fair_value.py). Everything is checked
before any match: the parameter and its range against the game's declaration, the target
against what the metric can reach, the budget against what the search needs.
"""

from __future__ import annotations

import argparse
import json
import time

ORDER = 56
ESTIMATORS = ("guaranteed", "model")
OWN_DEALS_STAGE = 2  # runner stages from here on: one per (finder stage, point), for `--estimator model`

EPILOG = """examples:
  cardbalance fair --param {axis}0=40:120 {design_setup} --skill greedy
                                          seat 0's value of {axis} that makes the match even
  cardbalance fair --game poker_duel --param hp0=20:60 --first 0
                                          the first player's fair HP (seat 0 moves first)
  cardbalance fair --game poker_duel --rules advanced --param club_multiplier --metric first
  cardbalance fair --game poker_duel --param hp0=20:60 --estimator model --width 0.5
                                          also a logistic fit over every match, its design spending
                                          what the finder left until the model's interval is 0.5 wide
"""


def add_parser(subparsers):
    from sim.cli.options import example_words
    from sim.fair.setup import add_common_options
    parser = subparsers.add_parser(
        "fair", help="find the parameter value that makes a metric fair, with an interval on the value",
        description="Find where an integer rules number or per-seat grid value makes a metric meet its target: "
                    "noisy bisection, then a confirmation grid on common deals (docs/fair-value.md).",
        epilog=EPILOG.format(**example_words()), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--param", required=True,
                        help="NAME or NAME=LOW:HIGH: a per-seat grid value (life0, life1, life; hp0 ...) or a rules "
                             "number (club_multiplier ...); default range: what the game declares. A number that "
                             "cannot act under the rules (club_multiplier without advanced_rules) is refused, exit 2")
    parser.add_argument("--metric", default="seat0", help="seat0 (default), first, special or length")
    parser.add_argument("--target", type=float, default=0.5, help="the metric's target (default 0.5)")
    parser.add_argument("--precision", type=float, default=2.0,
                        help="stop when the interval on the value is at most this wide (default 2)")
    parser.add_argument("--max-matches", type=int, default=100_000, help="match budget, both stages (default 100000)")
    parser.add_argument("--round-matches", type=int, default=500,
                        help="matches per first-player order of each search point and the first confirmation "
                             "round (default 500)")
    parser.add_argument("--estimator", choices=ESTIMATORS, default="guaranteed",
                        help="guaranteed (default): the interval holds for any monotone metric; model: also a "
                             "logistic fit over every match, each point on deals of its own, its interval the "
                             "headline unless the fit is rejected (a rate metric only; docs/fair-value.md)")
    parser.add_argument("--width", type=float, default=None,
                        help="the report states the matches an interval this wide would take; with --estimator "
                             "model the sequential design plays until the model's interval is this wide "
                             "(default: --precision)")
    add_common_options(parser)
    return parser


class GameSource:
    """The finder's source on real matches: a parameter value -> a design point of the runner.
    By default every point of a finder stage plays that stage's deals (common random numbers:
    the guaranteed tests hold under any dependence). With `own_deals` every (stage, point) is a
    runner stage of its own, so its deals are independent of every other point's: the model's
    cells must be independent binomials (analysis/fair_model.py)."""

    def __init__(self, runner, b, param, metric, own_deals=False):
        from sim.fair.params import apply
        self.runner, self.b, self.param, self.metric, self.own_deals = runner, b, param, metric, own_deals
        self.setting = lambda value: apply(b.rules, b.values, [param], [value])

    def place(self, stage, value):
        """The runner's (stage, key) of a point."""
        key = int(value) - self.param.low
        if not self.own_deals:
            return stage, key
        return OWN_DEALS_STAGE + stage * (self.param.high - self.param.low + 1) + key, key

    def measure(self, stage, values, matches):
        if not self.own_deals:
            self.runner.play(stage, {self.place(stage, v)[1]: self.setting(v) for v in values}, matches)
            return
        for value in values:
            runner_stage, key = self.place(stage, value)
            self.runner.play(runner_stage, {key: self.setting(value)}, matches)

    def interval(self, stage, value, z):
        from sim.fair.metrics import interval
        return interval(self.metric, self.runner.totals(*self.place(stage, value)), self.b.game, z)

    def counts(self, stage, value):
        from sim.fair.metrics import counts
        return counts(self.metric, self.runner.totals(*self.place(stage, value)), self.b.game)

    def matches(self):
        return self.runner.matches()


def run(args) -> int:
    from analysis import fair_value
    from reports.fair import headline_text, write_fair_report
    from sim import inert
    from sim.errors import CardbalanceError
    from sim.fair import metrics, params, setup, sides

    b = setup.base(args)
    param = params.parse_param(b.game, b.rules, args.param)
    inert.check_design(b.rules, [param], "fair", cells=[b.values])  # an inert parameter has no fair value: refused
    metric = metrics.check_metric(args.metric)
    target = metrics.check_target(metric, args.target)
    if not args.precision >= 1:
        raise CardbalanceError("--precision must be at least 1 (an integer parameter; got %r)." % (args.precision,))
    if args.round_matches < 10:
        raise CardbalanceError("--round-matches must be at least 10 matches (got %r)." % (args.round_matches,))
    if args.estimator == "model" and metric == "length":
        raise CardbalanceError("--estimator model fits a rate (--metric seat0, first or special); a mean length "
                               "has no binomial model: use --estimator guaranteed.")
    width = args.precision if args.width is None else args.width
    if not 0 < width < float("inf"):
        raise CardbalanceError("--width must be a number of parameter units above 0 (got %r)." % (args.width,))
    chunk = min(args.chunk_size, args.round_matches)
    first = -(-args.round_matches // chunk) * chunk
    runner_probe = b.runner(args.seed, args.jobs, None, chunk)
    orders = len(runner_probe.orders)
    fair_value.cost_check(param.low, param.high, first, orders, args.max_matches)
    setup.check_chunk_count(args.max_matches, chunk, "--max-matches")
    for value in (param.low, param.high):  # the game's own checks of the range ends
        runner_probe.check(params.apply(b.rules, b.values, [param], [value]))
    settings = {"command": "fair", **setup.describe_base(b), "param": param.describe(), "metric": metric,
                "target": target, "precision": args.precision, "max_matches": args.max_matches, "first": first,
                "chunk_size": chunk, "seed": args.seed}
    if args.estimator == "model":  # other deals than a guaranteed run's: a folder holds one or the other
        settings["estimator"] = "model"
    low_point = params.apply(b.rules, b.values, [param], [param.low])
    labels = sides.labels(b.game, b.values, b.orders, param, metric)  # the side's words ("Red's starting life"), not "life0"
    with (setup.cluster(args, runner_probe, low_point),
          setup.prepare_folder(args.out, "fair", settings) as (folder, resumed)):
        setup.say(args, "fair: %s for %s = %g at %s, %s%s -> %s" % (param.describe(), labels["metric"],
                                                                   target, b.skill, b.game.name,
                                                                   " (resumed)" if resumed else "", folder))
        started, cpu = time.perf_counter(), time.process_time()
        with b.runner(args.seed, args.jobs, folder, chunk, setup.progress(args, "fair")) as runner:
            source = GameSource(runner, b, param, metric, own_deals=args.estimator == "model")
            try:
                found = fair_value.find(source, param.low, param.high, target, first=first, budget=args.max_matches,
                                        precision=args.precision, orders=orders)
            except fair_value.NotReached as error:
                raise not_reached(folder, error, runner.matches()) from None
            model = (model_result(source, found, orders, args.estimator, width, args.max_matches, first)
                     if metric != "length" else None)
        cost = {"matches": runner.matches(), "matches_played_now": runner.matches_played,
                "wall_s": round(time.perf_counter() - started, 1), "worker_cpu_s": round(runner.worker_s, 1),
                "main_cpu_s": round(time.process_time() - cpu, 1)}
        write_fair_report(folder, settings, param, found, cost, labels, model)
        print("fair %s %s (integers %s); %s matches, stopped at %s; %s"
              % (param.name, headline_text(found.__dict__, model), ", ".join(map(str, found.candidates)) or "none",
                 format(cost["matches"], ","), found.stopped, folder / "summary.md"))
    return 0


def model_result(source, found, orders: int, estimator: str, width: float, budget: int, first: int) -> dict:
    """result.json's "model": the fit over every played cell and the matches to reach `width`. With
    the model estimator, the budget the finder left goes to the sequential design (fair_model.refine)
    until the model's interval is `width` wide. With the guaranteed estimator the points shared
    deals, so only the fitted slope is used (for the matches to reach the width), never its interval."""
    from analysis import fair_model
    fitted = fair_model.fit_found(source, found, orders)
    design, rounds = {}, 0
    if estimator == "model":
        fitted, design, rounds = fair_model.refine(source, found, fitted, orders=orders, budget=budget, width=width,
                                                   matches=first)
    closed = not (found.lower_open or found.upper_open)
    current = fitted.width if (estimator == "model" and fitted.accepted) else (found.width if closed else None)
    return {"used": estimator == "model", **fitted.__dict__, "design": design, "design_rounds": rounds,
            "matches": source.matches(),
            "to_width": fair_model.matches_for_width(fitted, width, source.matches(), current)}


def not_reached(folder, error, matches: int):
    """The refusal as one line (exit 2) naming where the played chunks stay; the folder's summary says
    the same and no earlier result of this folder (a smaller budget) is left claiming a fair value."""
    from reports.fair import write_not_reached
    from sim.errors import CardbalanceError
    line = ("%s The %s matches played stay in %s (the same command with a larger --max-matches resumes them; "
            "a wider --param range needs a new --out)." % (error, format(matches, ","), folder))
    write_not_reached(folder, line, error.search, error.points)
    return CardbalanceError(line)
