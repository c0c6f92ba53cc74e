"""The self-contained HTML report of a design run — `cardbalance fair`, `sensitivity` or `map`.

The sweep report's house style (reports/templates/_style.html, jinja2 autoescaped, the figure
inlined as a base64 PNG, no script, no external resource), read from what the run folder
stores: `settings.json` (what was asked), `result.json` (what was found, with the cost) and
the figure the command drew. Like every report it only reads; it never plays a match. The
method and its guarantee are stated on the page, in the run's own numbers (grid, tests, z,
band, family), with the budget spent.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

from reports import html as html_report
from sim.errors import CardbalanceError
from sim.safe_output import write_text_atomic

DESIGN_COMMANDS = {"fair": "fair.png", "sensitivity": "sensitivity.png", "map": "map.png"}
REPORT_NAME = "report.html"


class _Table(html_report._Table):
    """The sweep report's display table, with a caption above it."""

    def __init__(self, name: str, columns: list[str], caption: str = "", numeric: set[int] | None = None):
        super().__init__(name, columns, numeric)
        self.caption = caption


def design_command(folder) -> str | None:
    """The design command that wrote `folder` (fair, sensitivity, map), or None for any other folder."""
    path = Path(folder) / "settings.json"
    if not path.is_file():
        return None
    try:
        command = json.loads(path.read_text(encoding="utf-8")).get("command")
    except (ValueError, UnicodeDecodeError, AttributeError):
        return None
    return command if command in DESIGN_COMMANDS else None


def load_design_run(folder) -> tuple[str, dict, dict]:
    """(command, settings, result) of a finished design run; one clear error otherwise."""
    from sim.user_input import read_json, read_text_file
    folder = Path(folder)
    command = design_command(folder)
    if command is None:
        raise CardbalanceError("'%s' is not a `cardbalance fair`, `sensitivity` or `map` run folder." % folder)
    result_path = folder / "result.json"
    if not result_path.is_file():
        reason = (folder / "not-reached.txt")
        why = reason.read_text(encoding="utf-8").strip() if reason.is_file() else "the run did not finish"
        raise CardbalanceError("'%s' holds no result.json to report (%s); run the command again with --out %s."
                               % (folder, why, folder))
    settings = read_json(read_text_file(folder / "settings.json", "settings.json"), str(folder / "settings.json"))
    result = read_json(read_text_file(result_path, "result.json"), str(result_path))
    if not isinstance(result, dict) or "cost" not in result:
        raise CardbalanceError("'%s': result.json is not a %s result." % (result_path, command))
    return command, settings, result


# ---- shared parts ----------------------------------------------------------------------------

def _grid(settings: dict) -> str:
    from reports.fair import grid_text
    return grid_text(settings)


def _budget(cost: dict) -> list[tuple[str, str]]:
    rows = [("matches used", format(cost["matches"], ",")),
            ("played by the last invocation", format(cost["matches_played_now"], ",")),
            ("wall time (last invocation)", "%.1f s" % cost["wall_s"]),
            ("worker and main-process time (last invocation)",
             "%.1f s of worker task time (wall time summed over the chunks, so on a loaded machine it counts waiting "
             "for a CPU: an upper bound on the workers' CPU) + %.1f s main-process CPU"
             % (cost["worker_cpu_s"], cost["main_cpu_s"]))]
    if "design_points" in cost:
        rows.append(("design points", "%d (%d distinct)" % (cost["design_points"], cost["distinct_points"])))
    return rows


def _metadata(settings: dict) -> list[tuple[str, str]]:
    shown = []
    for key in sorted(settings):
        value = settings[key]
        shown.append((key, json.dumps(value, sort_keys=True) if isinstance(value, (dict, list)) else str(value)))
    return shown


def _grid_options(settings: dict) -> str:
    words = []
    for name, value in (settings.get("values") or {}).items():
        if value is None:
            continue
        words.append("--%s %s" % (name, ",".join(map(str, value)) if isinstance(value, list) else value))
    orders = settings.get("first_player_orders", "both")
    if orders != "both":
        words.append("--first %s" % orders[0])
    return " ".join(words)


def _common_options(settings: dict, folder: Path) -> str:
    rules = "" if settings.get("rules") in (None, "default") else " --rules %s" % settings["rules"]
    return ("--game %s %s --skill %s%s --seed %s --chunk-size %s --out %s"
            % (settings["game"], _grid_options(settings), settings["skill"], rules, settings["seed"],
               settings["chunk_size"], folder))


def _param_spec(described: str) -> str:
    """'x0 in 40..120' -> 'x0=40:120'; 'D-AMB-42 in {a, b}' -> 'D-AMB-42=a,b'; '[x, y]' reals."""
    name, _, rest = described.partition(" in ")
    if rest.startswith("{"):
        return "%s=%s" % (name, rest.strip("{}").replace(", ", ","))
    low, _, high = rest.strip("[]").replace(", ", "..").partition("..")
    return "%s=%s:%s" % (name, low, high)


# ---- fair ------------------------------------------------------------------------------------

def _fair(settings: dict, result: dict, folder: Path) -> dict:
    from reports.fair import value_text
    from sim.fair.metrics import DESCRIPTIONS
    name = settings["param"].split(" in ")[0]
    labels = result.get("labels") or {}  # the sides' words (sim/fair/sides.py); a run before them has none
    words = labels.get("param", name)
    metric = labels.get("metric", DESCRIPTIONS.get(settings["metric"], settings["metric"]))
    inside = result["candidates"]
    ends = [side for side, open_ in (("lower", result["lower_open"]), ("upper", result["upper_open"])) if open_]
    headline = ["At %s play, %s meets %g at %s %s." % (settings["skill"], metric, result["target"], words,
                                                      value_text(result))]
    if inside:
        headline.append("Integers the data cannot tell from fair: %s." % _compact(inside))
    headline += _fair_model_sentences(result.get("model"))
    warnings = []
    if not result.get("monotone", True):
        warnings.append("Confident points disagree near the crossing: the metric is not monotone there, so the "
                        "guarantee does not hold; the interval shown is the hull of the disagreement.")
    if result["stopped"] == "budget" and (ends or result["upper"] - result["lower"] > settings["precision"]):
        warnings.append("Stopped at the match budget before the interval reached --precision %g; a larger "
                        "--max-matches with the same --out resumes from the stored chunks." % settings["precision"])
    table = _Table("points", ["stage", name, "estimate", "low", "high", "side of the target"],
                   "Every measured point (search: 95 %% intervals; confirmation: at z = %.3f)" % result["z"],
                   numeric={1, 2, 3, 4})
    for stage, points, z_side in (("search", result["search"], False), ("confirmation", result["points"], True)):
        for value, estimate, low, high in points:
            side = ""
            if z_side:
                below, above = high < result["target"], low > result["target"]
                side = ("below", "verdict-second") if below else ("above", "verdict-first") if above else \
                    ("cannot tell", "verdict-undecided")
            table.add([stage, str(value), "%.4f" % estimate, "%.4f" % low, "%.4f" % high, side])
    tests = len(result["grid"]) * result["planned_rounds"]
    method = [
        "Stage 0 (search): noisy bisection over %s = %d..%d, both ends and then midpoints, %d matches per point "
        "and first-player order; it only decides where to look, no claim rests on it."
        % (name, result["low"], result["high"], settings["first"]),
        "Stage 1 (confirmation): a grid of %d points (%s) on fresh deals common to every point, in rounds that double "
        "the matches; %d of %d planned rounds played. Every grid point at every round is one one-sided test at "
        "level α/K with α = %g and K = %d (z = %.3f); the interval runs from the largest point confidently below the "
        "target to the smallest confidently above it."
        % (len(result["grid"]), _compact(result["grid"]), result["rounds"], result["planned_rounds"], result["alpha"],
           tests, result["z"]),
        "Guarantee: if the metric is monotone in %s over the range, the interval contains the fair value with "
        "probability at least %g %% — the grid and K are fixed from stage 0 alone, so by the union bound all K tests "
        "are right together with that probability whatever their dependence (the common deals make them dependent). "
        "It rests on monotonicity (flagged above when confident points disagree) and on the Wilson interval's "
        "nominal coverage; K tests at α/K make it conservative." % (name, 100 * (1 - result["alpha"]))]
    reproduce = ("cardbalance fair --param %s --metric %s --target %g --precision %g --max-matches %d "
                 "--round-matches %d %s" % (_param_spec(settings["param"]), settings["metric"], settings["target"],
                                            settings["precision"], settings["max_matches"], settings["first"],
                                            _common_options(settings, folder)))
    if settings.get("estimator") == "model":
        reproduce += " --estimator model"
    section = {"id": "fair", "title": "Fair value of %s" % words, "text": [
        "The metric (%s) %s with %s; the finder stopped at the %s after %s matches."
        % (metric, "rises" if result["direction"] > 0 else "falls", name, result["stopped"],
           format(result["matches"], ","))],
               "caption": "Grey: search points with 95 % intervals; blue: the confirmation grid at its last round, "
                          "intervals at the corrected z; green band: the 95 % interval on the value; dashed line: "
                          "the target.", "tables": [table]}
    return {"title": "Fair value of %s — %s" % (words, settings["game"]), "headline": headline,
            "warnings": warnings, "section": section, "method": method, "reproduce": reproduce}


def _fair_model_sentences(model) -> list[str]:
    """`--estimator model`'s answer (or why it was rejected) and the matches to reach --width."""
    from reports.fair import model_interval_text, width_text
    sentences = []
    if model and model.get("used"):
        sentences.append("Model-based: %s." % model_interval_text(model) if model["accepted"] else
                         "The model was rejected (%s); the guaranteed interval above stands." % model["reason"])
    width = width_text(model)
    if width:
        sentences.append(width[0].upper() + width[1:] + ".")
    return sentences


def _compact(values) -> str:
    """'50, 51, 52, 53, 60' -> '50–53, 60'."""
    values = sorted(values)
    runs, start = [], None
    for index, value in enumerate(values):
        if start is None:
            start = value
        if index + 1 == len(values) or values[index + 1] != value + 1:
            runs.append(str(start) if start == value else "%s–%s" % (start, value))
            start = None
    return ", ".join(runs)


# ---- map -------------------------------------------------------------------------------------

def _map(settings: dict, result: dict, folder: Path) -> dict:
    from analysis.balance_map import matches_to_call_fair_point_balanced
    from analysis.verdict import DEFAULT_DELTA
    xname, xs = settings["x"]
    yname, ys = settings["y"]
    verdict = result.get("verdict")
    points = len(xs) * len(ys)
    delta = settings["delta"]
    orders = 1 if settings.get("first_player_orders", "both") != "both" else 2
    played = settings["matches"] * orders
    headline, warnings = [], []
    if verdict is not None:
        balanced = [(xs[i], ys[j]) for j in range(len(ys)) for i in range(len(xs)) if verdict[j][i] == "balanced"]
        headline.append("%d of %d points are balanced (½ ± %g, %s over the map): %s."
                        % (len(balanced), points, delta, settings["adjust"],
                           ", ".join("(%s, %s)" % p for p in balanced) or "none"))
        need = matches_to_call_fair_point_balanced(points, delta)
        need_sweep = matches_to_call_fair_point_balanced(points, DEFAULT_DELTA)
        band = ("Band ½ ± %g%s. A point at exactly ½ is called balanced with 80 %% chance at about %s matches per "
                "point (Holm's first step over %d points); this map played %s per point."
                % (delta, " — the sweep's band" if delta == DEFAULT_DELTA else
                   " — wider than the sweep's ½ ± %g, which would need about %s matches per point here"
                   % (DEFAULT_DELTA, format(need_sweep, ",")), format(need, ","), points, format(played, ",")))
        headline.append(band)
        if played < need:
            warnings.append("At %s matches per point a fair point is unlikely to be called balanced at this band "
                            "(it needs about %s): read undecided points as 'not enough matches', not as "
                            "imbalanced." % (format(played, ","), format(need, ",")))
    else:
        headline.append("%s over %s × %s; no verdicts (they exist for seat 0's and the first player's share at "
                        "target ½)." % (settings["metric"], xname, yname))
    table = _Table("map", ["%s \\ %s" % (yname, xname)] + [str(x) for x in xs],
                   "Each cell: estimate [95 % interval]" + (", verdict" if verdict is not None else ""))
    for j, y in enumerate(ys):
        cells = [str(y)]
        for i in range(len(xs)):
            text = "%.3f [%.3f, %.3f]" % (result["estimate"][j][i], result["low"][j][i], result["high"][j][i])
            css = ""
            if verdict is not None:
                text += " %s" % verdict[j][i]
                css = "verdict-" + verdict[j][i]
            cells.append((text, css))
        table.add(cells)
    method = [
        "Every point of the %d × %d grid plays %d matches per first-player order on the same deals (common random "
        "numbers), so neighbouring points differ by their parameter values only." % (len(xs), len(ys),
                                                                                  settings["matches"]),
        "A point's verdict is the sweep's, made as tests: the score test of 'imbalanced' (|p − ½| > δ, each side at "
        "half the level) and the equivalence test (TOST) of 'balanced' (|p − ½| < δ), δ = %g, corrected over all "
        "%d points of the map as one family (%s). Guarantee: the chance that any point of the map is wrongly called "
        "balanced (or wrongly imbalanced) is at most 5 %%%s." % (delta, points, settings["adjust"],
                                                                 "" if settings["adjust"] == "holm" else
                                                                 " (bh: the expected share of wrong labels among "
                                                                 "those made; none: per point only)"),
        "The %g contour is drawn through the point estimates; it carries no interval of its own." % settings["target"]]
    reproduce = ("cardbalance map --x %s=%s --y %s=%s --metric %s --target %g --matches %d --delta %g --adjust %s %s"
                 % (xname, _axis_spec(xs), yname, _axis_spec(ys), settings["metric"], settings["target"],
                    settings["matches"], delta, settings["adjust"], _common_options(settings, folder)))
    section = {"id": "map", "title": "Balance-region map: %s × %s" % (xname, yname), "text": [],
               "caption": "The metric over the grid (colour), its %g contour through the point estimates, circles: "
                          "balanced, crosses: imbalanced (family-level)." % settings["target"], "tables": [table]}
    return {"title": "Balance-region map %s × %s — %s" % (xname, yname, settings["game"]), "headline": headline,
            "warnings": warnings, "section": section, "method": method, "reproduce": reproduce}


def _axis_spec(values) -> str:
    step = values[1] - values[0] if len(values) > 1 else 1
    return "%s:%s:%s" % (values[0], values[-1], step)


# ---- sensitivity -----------------------------------------------------------------------------

NOISE_TEXT = {
    "sobol": "the indices are of the expected metric: each is a product of two independent deal sets, so this "
             "noise widens the intervals and adds nothing to the indices",
    "other": "the indices include whatever of it is not common: the deals are common to every point, so most is"}


def design_text(settings: dict, cost: dict) -> str:
    """The design line of the summary and the HTML page."""
    if settings.get("copies"):
        replicates = settings["replicates"]
        return ("sobol, n = %d base samples in %d independent replicates of %d, %d points (%d distinct), each played "
                "on %d independent deal sets of %d matches per point and first-player order (%d in all), common "
                "deals within a deal set" % (settings["n"], replicates, settings["n"] // replicates,
                                              cost["design_points"], cost["distinct_points"], settings["copies"],
                                              settings["matches"] // settings["copies"], settings["matches"]))
    return ("%s, n = %d, %d points (%d distinct), %d matches per point and first-player order, common deals over the "
            "design" % (settings["method"], settings["n"], cost["design_points"], cost["distinct_points"],
                        settings["matches"]))


METHOD_TEXT = {
    "sobol": "Saltelli/Sobol' sampling through SALib, N·(D + 2) points for N base samples, split into independent "
             "replicates (independent scrambles), each played on two independent deal sets; first-order S1 and total "
             "ST indices (SALib's Saltelli 2010 and Jansen estimators, each square a product of the two deal sets) "
             "with 95 % Fieller intervals over the replicates (t on replicates − 1 degrees of freedom). The reference "
             "method: it apportions the variance of the expected metric among the parameters without a model of the "
             "response.",
    "morris": "Morris elementary-effects screening through SALib, r·(D + 1) points on 4 levels; μ* (the mean "
              "absolute effect of a parameter's step) with its 95 % bootstrap interval, and σ (how much that effect "
              "varies with the other parameters). It ranks parameters cheaply; it does not apportion variance.",
    "lhs": "A Latin hypercube of N points (SALib), a quadratic ridge surrogate fitted to the measured metric, and "
           "Sobol' indices of the surrogate (SALib, 2,048 base samples of the cheap surrogate); intervals by "
           "refitting on 40 bootstrap resamples of the points. Chosen when a full Sobol' design would pass the "
           "budget; the indices are as good as the fit, whose leave-one-out R² is shown per metric.",
}


PROMISE = {
    "sobol": "What the intervals promise: each index's 95 % interval covers the index of the expected metric (its "
             "mean over deals at each point), the match noise removed. Measured on SALib's Ishigami and Sobol' G "
             "functions at n = 64, without noise and with noise like a seat's share (2,000 designs each): every "
             "first-order S1 covers at least 93.9 %; total effects 92–96 %, the low end for heavy-tailed or weak "
             "ones (Ishigami's x1, Sobol' G's weakest) (tests/test_calibration_sensitivity.py). A parameter that "
             "does nothing reads 'no measurable effect' in about 95 % of runs.",
    "other": "What the intervals promise: each index's 95 % bootstrap interval covers the index of the metric "
             "as measured — per-point match noise not common to all points adds variance that no parameter "
             "explains (its share is stated with each table), so small indices near that share are noise. "
             "Calibrated on SALib's Ishigami function (tests/test_sensitivity.py)."}


def _sensitivity(settings: dict, result: dict, folder: Path) -> dict:
    from analysis.sensitivity import interval_label
    from sim.fair.metrics import DESCRIPTIONS
    from sim.fair.metrics import METRICS
    method = settings["method"]
    order = list(METRICS) + ["spread"]  # seat 0's share first, as the command ranks it
    results = dict(sorted(result["results"].items(), key=lambda item: order.index(item[0])
                          if item[0] in order else len(order)))
    key = "mu_star" if method == "morris" else "ST"
    headline = []
    for metric, found in results.items():
        rows = found["rows"]
        if not rows:
            continue
        top = ", ".join("%s (%s %.3f %s)" % (row["name"], "μ*" if method == "morris" else "ST", row[key],
                                             interval_label(row, key)) for row in rows[:3])
        headline.append("%s is moved most by %s." % (DESCRIPTIONS.get(metric, metric)[0].upper()
                                                     + DESCRIPTIONS.get(metric, metric)[1:], top))
    tables, warnings = [], []
    for metric, found in results.items():
        title = DESCRIPTIONS.get(metric, metric)
        if not found["rows"]:
            tables.append(_Table(metric, ["note"], "%s: constant over the design (%s)"
                                 % (title, found.get("constant"))))
            continue
        caption = "%s — Var(Y) = %.4g; one point's sampling variance = %.0f %% of it (%s)" % (
            title, found["variance"], 100 * (found["noise_share"] or 0.0),
            NOISE_TEXT["sobol" if settings.get("copies") else "other"])
        if method == "lhs":
            r2 = found["rows"][0].get("surrogate_loo_r2", float("nan"))
            caption += "; surrogate leave-one-out R² = %.3f" % r2
            if not (isinstance(r2, float) and math.isfinite(r2) and r2 >= 0.5):
                warnings.append("%s: the surrogate explains little (leave-one-out R² %.2f); its indices are weak."
                                % (title, r2))
        if method == "morris":
            table = _Table(metric, ["rank", "parameter", "μ*", "95 % interval", "σ"], caption, numeric={0, 2, 4})
            for rank, row in enumerate(found["rows"], 1):
                table.add([str(rank), row["name"], "%.4f" % row["mu_star"], "[%.4f, %.4f]" % (
                    row["mu_star"] - row["mu_star_conf"], row["mu_star"] + row["mu_star_conf"]), "%.4f" % row["sigma"]])
        else:
            table = _Table(metric, ["rank", "parameter", "total ST", "95 % interval", "first-order S1",
                                    "95 % interval"], caption, numeric={0, 2, 4})
            for rank, row in enumerate(found["rows"], 1):
                table.add([str(rank), row["name"], "%.3f" % row["ST"], interval_label(row, "ST"), "%.3f" % row["S1"],
                           interval_label(row, "S1")])
        tables.append(table)
    cost = result["cost"]
    method_text = [METHOD_TEXT[method],
                   "Parameters (%d): %s." % (len(settings["params"]), "; ".join(settings["params"])),
                   "Design: %s." % design_text(settings, cost),
                   PROMISE["sobol" if settings.get("copies") else "other"],
                   "An index whose interval holds 0 is marked 'no measurable effect'. Integers and readings are "
                   "sampled so every value is equally likely; reals uniformly on their range."]
    spread = " --spread-over %s" % settings["spread_over"] if settings.get("spread_over") else ""
    reproduce = ("cardbalance sensitivity %s --method %s --n %d --matches %d%s %s"
                 % (" ".join("--param %s" % _param_spec(p) for p in settings["params"]), method, settings["n"],
                    settings["matches"], spread, _common_options(settings, folder)))
    section = {"id": "sensitivity", "title": "Parameters ranked by %s" % ("μ*" if method == "morris" else
                                                                         "total effect"),
               "text": [], "caption": "One panel per metric: %s with 95 %% intervals."
                                      % ("μ*" if method == "morris" else "total (ST) and first-order (S1) indices"),
               "tables": tables}
    return {"title": "Sensitivity (%s) — %s" % (method, settings["game"]), "headline": headline,
            "warnings": warnings, "section": section, "method": method_text, "reproduce": reproduce}


BUILDERS = {"fair": _fair, "map": _map, "sensitivity": _sensitivity}


def render_design_report(folder) -> str:
    """The page's HTML for the design run in `folder` (reads settings.json, result.json, the figure)."""
    folder = Path(folder)
    command, settings, result = load_design_run(folder)
    try:
        page = BUILDERS[command](settings, result, folder)
    except (KeyError, TypeError, IndexError, ValueError) as error:
        raise CardbalanceError("'%s': result.json does not hold a complete %s result (%s)."
                               % (folder / "result.json", command, error)) from None
    figure = folder / DESIGN_COMMANDS[command]
    section = page["section"]
    section["image"] = html_report.data_uri(figure) if figure.is_file() else ""
    lead = ("Game %s, rules %s, skill %s, grid %s. Every rate carries its interval; every design point plays the same "
            "deals, under both first-player orders unless one is named." % (settings["game"], settings["rules"],
                                                                          settings["skill"], _grid(settings)))
    return html_report._environment().get_template("design.html").render(
        title=page["title"], headline=page["headline"], lead=lead, warnings=page["warnings"], sections=[section],
        method=page["method"], budget=_budget(result["cost"]), metadata=_metadata(settings),
        reproduce=page["reproduce"], generated=time.strftime("%Y-%m-%d %H:%M:%S"))


def write_design_report(folder, out=None) -> Path:
    """Write report.html for the design run in `folder` into `out` (default: the run folder itself)."""
    html = render_design_report(folder)
    target = Path(out) if out is not None else Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    path = target / REPORT_NAME
    write_text_atomic(path, html)
    return path
