"""The reports of `cardbalance fair`, `sensitivity` and `map`: summary.md, result.json,
figures (Agg canvas, no display) and the self-contained report.html (reports/design_html.py),
written atomically into the run folder."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from reports.design_html import NOISE_TEXT, design_text, write_design_report
from reports import markdown_text as md
from sim.safe_output import write_bytes_atomic, write_text_atomic

DPI = 100


def save(figure: Figure, path: Path) -> None:
    FigureCanvasAgg(figure)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI)
    write_bytes_atomic(path, buffer.getvalue())


def write_json(path: Path, data: dict) -> None:
    write_text_atomic(path, json.dumps(data, indent=1, sort_keys=True, default=_plain) + "\n")


def _plain(value):
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating,)):
        return float(value)
    if isinstance(value, np.ndarray):
        return value.tolist()
    return str(value)


def grid_text(settings: dict) -> str:
    """The fixed grid values and the first-player orders played."""
    values = {k: v for k, v in settings["values"].items() if v is not None}
    orders = settings.get("first_player_orders", "both")
    shown = ", ".join("%s %s" % (k, "/".join(map(str, v)) if isinstance(v, list) else v) for k, v in values.items())
    return "%s; first-player orders: %s" % (shown, "both" if orders == "both" else
                                             "seat %s moves first" % "/".join(map(str, orders)))


def setting_line(settings: dict) -> str:
    """The summary's game, rules, skill and grid line. The rules name can be any file name a user
    chose: it is a code span and the rest literal text (reports/markdown_text.py), so HTML, a link or
    emphasis in a name reaches no Markdown renderer (the HTML page and the CSVs escape it already)."""
    return "- game %s, rules %s, skill %s, grid %s" % (md.text(settings["game"]), md.code(settings["rules"]),
                                                      md.text(settings["skill"]), md.text(grid_text(settings)))


def cost_line(cost: dict) -> str:
    # worker_s sums each chunk's time inside its worker (sim/executor._play: a perf_counter, not a CPU clock), so on
    # a loaded machine it counts waiting for a CPU too; it is an upper bound on the workers' CPU time.
    return ("%s matches (%s played by this invocation), %.1f s wall, %.1f s of worker task time (wall time summed over "
            "the chunks; an upper bound on their CPU) + %.1f s main-process CPU"
            % (format(cost["matches"], ","), format(cost["matches_played_now"], ","), cost["wall_s"],
               cost["worker_cpu_s"], cost["main_cpu_s"]))


# ---- fair ---------------------------------------------------------------------------------

def interval_text(result: dict) -> str:
    """The interval on the value, '[' / ']' where a side is open (bounded by the range end)."""
    return "%s%g, %g%s" % ("[" if result["lower_open"] else "(", result["lower"], result["upper"],
                           "]" if result["upper_open"] else ")")


def value_text(result: dict) -> str:
    """What follows the parameter's name: '= 36.2, 95 % interval on the value (35, 38)', or, beside an
    open side, the interval alone ('> 74, open at the range end 100 ...'): no point estimate is claimed
    where the data bracket no crossing. `result`: a FairValue's fields (result.json)."""
    interval = "95 %% interval on the value %s" % interval_text(result)
    if result["lower_open"] and result["upper_open"]:
        return ("not located: no confirmation point is confidently on either side of the target (%s)" % interval)
    if result["upper_open"]:
        return "> %g, open at the range end %g: no point estimate (%s)" % (result["lower"], result["upper"], interval)
    if result["lower_open"]:
        return "< %g, open at the range end %g: no point estimate (%s)" % (result["upper"], result["lower"], interval)
    return "= %.1f, %s" % (result["estimate"], interval)


def model_interval_text(model: dict) -> str:
    return "= %.1f, model-based 95 %% interval on the value [%.4g, %.4g] (%s fit over %s cells)" % (
        model["estimate"], model["lower"], model["upper"], model["link"], format(model["cells"], ","))


def headline_text(result: dict, model: dict | None) -> str:
    """value_text, or with `--estimator model` the model's value first and the guaranteed interval beside
    it; a rejected model is said so, and the guaranteed interval stands alone as the answer."""
    if not model or not model.get("used"):
        return value_text(result)
    if model["accepted"]:
        return "%s; guaranteed: %s" % (model_interval_text(model), value_text(result))
    return "%s (model rejected: %s)" % (value_text(result), model["reason"])


def width_text(model: dict | None) -> str | None:
    """The matches an interval `--width` wide would take, from the fitted curve (analysis/fair_model.py)."""
    need = (model or {}).get("to_width")
    if not need:
        return None
    text = ("matches to reach an interval %g wide: about %s with every match at the root (the least any design "
            "needs; fitted slope %.4g per unit)" % (need["width"], format(need["at_root"], ","), model["slope"]))
    if need["this_design"] is not None:
        text += ", about %s with more rounds of this run's design (its %s interval shrinks as 1/√matches)" % (
            format(need["this_design"], ","), "model" if model["used"] and model["accepted"] else "guaranteed")
    if not model["accepted"]:
        text += " (the fit was rejected, so a rough guide)"
    return text


def fair_figure(param, found, metric: str = "metric", labels: dict | None = None) -> Figure:
    """The search and confirmation points over the searched range (the x axis is found.low..high, so
    the interval is read against the whole range); axes named by `labels` (sim/fair/sides.py)."""
    labels = labels or {}
    figure = Figure(figsize=(7, 4.2))
    axes = figure.add_subplot()
    for points, label, style in ((found.search, "search (stage 0, 95 %)", dict(color="0.6", marker="s")),
                                 (found.points, "confirmation (stage 1, z = %.2f)" % found.z,
                                  dict(color="C0", marker="o"))):
        if not points:
            continue
        x = np.array([p[0] for p in points], dtype=float)
        y = np.array([p[1] for p in points])
        low = np.array([p[2] for p in points])
        high = np.array([p[3] for p in points])
        axes.errorbar(x, y, yerr=[y - low, high - y], linestyle="none", capsize=2, label=label, **style)
    axes.axhline(found.target, color="k", linewidth=0.8, linestyle="--", label="target %g" % found.target)
    axes.axvspan(found.lower, found.upper, color="C2", alpha=0.2, label="95 % interval on the value")
    if found.estimate is not None:
        axes.axvline(found.estimate, color="C2", linewidth=1)
    margin = max((found.high - found.low) * 0.02, 0.5)
    axes.set_xlim(found.low - margin, found.high + margin)
    axes.set_xlabel(labels.get("param", param.name))
    axes.set_ylabel(labels.get("metric", metric))
    axes.set_title("Fair %s %s" % (labels.get("param", param.name), value_text(found.__dict__)), fontsize=9)
    axes.legend(fontsize=8)
    figure.tight_layout()
    return figure


def model_lines(model: dict | None) -> list[str]:
    """The summary's lines on the model-based estimator (`--estimator model`) and the matches to a width."""
    lines = []
    if model and model.get("used"):
        fit = ("Pearson χ² %.1f on %d df" % (model["lack_of_fit"], model["lack_of_fit_df"])
               if model["lack_of_fit"] is not None else "no lack-of-fit test")
        lines.append("- model: %s fit over every point and order, each point on deals of its own, Fieller interval; "
                     "%s; lack-of-fit and bend tests at %g %%: %s" % (
                         model["link"], fit, 100 * model["level"], "accepted" if model["accepted"] else
                         "**rejected**, %s; the guaranteed interval stands" % model["reason"]))
        if model.get("design_rounds"):
            lines.append("- sequential design: %d rounds at the fitted root and where the fitted share is the target "
                         "± 0.15 (%s matches per order), %s matches in all" % (
                             model["design_rounds"], ", ".join("%s: %s" % item for item in sorted(
                                 model["design"].items(), key=lambda item: int(item[0]))),
                             format(model["matches"], ",")))
    width = width_text(model)
    if width:
        lines.append("- %s" % width)
    return lines


def fair_markdown(settings: dict, param, found, cost: dict, labels: dict | None = None,
                  model: dict | None = None) -> str:
    named = (labels or {}).get("param", param.name)  # words from the game's declaration, not user text
    metric = settings["metric"] + (" (%s)" % labels["metric"] if labels else "")
    lines = ["# Fair value of %s" % named, "",
             setting_line(settings),
             "- metric %s, target %g, range %d..%d" % (metric, found.target, found.low, found.high),
             "- **fair %s %s**" % (named, headline_text(found.__dict__, model)),
             *model_lines(model),
             "- integers inside the interval: %s" % (", ".join(map(str, found.candidates)) or "none"),
             "- the metric %s with %s%s" % ("rises" if found.direction > 0 else "falls", param.name,
                                            "" if found.monotone else "; **confident points disagree: not monotone "
                                            "near the crossing** (interval: their hull)"),
             "- stopped at: %s (%d of %d planned confirmation rounds; %d grid points; %d one-sided tests at "
             "z = %.3f)" % (found.stopped, found.rounds, found.planned_rounds, len(found.grid),
                            len(found.grid) * found.planned_rounds, found.z),
             "- cost: %s" % cost_line(cost), "",
             "Method: noisy bisection (stage 0), then a confirmation grid on fresh common deals (stage 1) with "
             "one-sided tests at α/K; if the metric is monotone in the parameter the interval holds the fair value "
             "with probability ≥ 95 % (docs/fair-value.md).", "",
             "| stage | %s | estimate | low | high |" % param.name, "|---|---:|---:|---:|---:|"]
    for stage, points in (("search", found.search), ("confirm", found.points)):
        for value, estimate, low, high in points:
            lines.append("| %s | %d | %.4f | %.4f | %.4f |" % (stage, value, estimate, low, high))
    lines += ["", "![fair value](fair.png)", ""]
    return "\n".join(lines)


def write_fair_report(folder: Path, settings: dict, param, found, cost: dict, labels: dict | None = None,
                      model: dict | None = None) -> None:
    """result.json, fair.png and summary.md; `rewrite_fair_report` redraws them from result.json alone.
    `labels`: the words for the parameter and metric (sim/fair/sides.py), stored with the result;
    `model`: sim/cli/fair_cmd.model_result (None for a length)."""
    folder = Path(folder)
    (folder / "not-reached.txt").unlink(missing_ok=True)  # a smaller budget's refusal (other K, z) no longer holds
    data = {"settings": settings, "cost": cost, "model": model, **{k: v for k, v in found.__dict__.items()}}
    if labels:
        data["labels"] = labels
    write_json(folder / "result.json", data)
    save(fair_figure(param, found, settings["metric"], labels), folder / "fair.png")
    write_text_atomic(folder / "summary.md", fair_markdown(settings, param, found, cost, labels, model))
    write_design_report(folder)


def write_not_reached(folder: Path, line: str, search, points) -> None:
    """A refused run's summary.md (the refusal and the points behind it) and not-reached.txt (the line,
    which `cardbalance report` quotes); the figure, result.json and report.html of an earlier,
    smaller-budget run of this folder are removed, as they state a value."""
    folder = Path(folder)
    for stale in ("result.json", "fair.png", "report.html"):
        (folder / stale).unlink(missing_ok=True)
    write_text_atomic(folder / "not-reached.txt", line + "\n")
    lines = ["# Fair value: not reached", "", line, "", "| stage | value | estimate | low | high |",
             "|---|---:|---:|---:|---:|"]
    for stage, rows in (("search", search), ("confirm", points)):
        for value, estimate, low, high in rows:
            lines.append("| %s | %d | %.4f | %.4f | %.4f |" % (stage, value, estimate, low, high))
    write_text_atomic(folder / "summary.md", "\n".join(lines + [""]))


# ---- map ----------------------------------------------------------------------------------

def map_figure(px, py, found, target: float, metric: str) -> Figure:
    from analysis.verdict import BALANCED, IMBALANCED
    figure = Figure(figsize=(7, 6.0))
    axes = figure.add_subplot()
    x, y = np.asarray(found.x_values, dtype=float), np.asarray(found.y_values, dtype=float)
    rate = metric != "length"
    mesh = axes.pcolormesh(x, y, found.estimate, shading="nearest", cmap="RdBu_r",
                           **({"vmin": 0.0, "vmax": 1.0} if rate else {}))
    figure.colorbar(mesh, ax=axes, label=metric)
    if len(x) > 1 and len(y) > 1 and found.estimate.min() < target < found.estimate.max():
        contour = axes.contour(x, y, found.estimate, levels=[target], colors="k", linewidths=1.5)
        axes.clabel(contour, fmt={target: "%g" % target}, fontsize=8)
    if found.verdict is not None:
        for j, yv in enumerate(y):
            for i, xv in enumerate(x):
                word = found.verdict[j, i]
                if word == BALANCED:
                    axes.plot(xv, yv, marker="o", markersize=9, markerfacecolor="none", markeredgecolor="k")
                elif word == IMBALANCED:
                    axes.plot(xv, yv, marker="x", markersize=5, color="0.3")
        axes.plot([], [], marker="o", markerfacecolor="none", markeredgecolor="k", linestyle="none",
                  label="balanced (½ ± %g, %s over the map)" % (found.delta, found.adjust))
        axes.plot([], [], marker="x", color="0.3", linestyle="none", label="imbalanced")
        axes.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.11), ncol=2, frameon=False)
    axes.set_xlabel(px.name)
    axes.set_ylabel(py.name)
    axes.set_title("%s over %s x %s, %g contour" % (metric, px.name, py.name, target))
    figure.tight_layout()
    return figure


def map_markdown(settings: dict, px, py, found, cost: dict) -> str:
    lines = ["# Balance-region map: %s x %s" % (px.name, py.name), "",
             setting_line(settings),
             "- metric %s, %d matches per point and first-player order, common deals over the map"
             % (settings["metric"], settings["matches"]),
             "- cost: %s" % cost_line(cost)]
    if found.verdict is not None:
        balanced = found.balanced_points()
        lines.append("- **balanced** (family-level: analysis.verdict.stratified_score_p_values + decide_family, "
                     "%s over all %d points, band ½ ± %g): %s" % (found.adjust, found.estimate.size, found.delta,
                                                  ", ".join("(%d, %d)" % p for p in balanced) or "none"))
        lines.append("- %s" % band_cost_text(found.delta, found.estimate.size, settings))
    lines += ["", "Rows: %s; columns: %s. Each cell: estimate [95 %% interval]%s." % (
        py.name, px.name, ", verdict" if found.verdict is not None else ""), "",
        "| %s \\ %s | %s |" % (py.name, px.name, " | ".join(str(v) for v in found.x_values)),
        "|---|" + "---|" * len(found.x_values)]
    for j, yv in enumerate(found.y_values):
        cells = []
        for i in range(len(found.x_values)):
            text = "%.3f [%.3f, %.3f]" % (found.estimate[j, i], found.low[j, i], found.high[j, i])
            if found.verdict is not None:
                text += " %s" % found.verdict[j, i]
            cells.append(text)
        lines.append("| %s | %s |" % (yv, " | ".join(cells)))
    lines += ["", "![map](map.png)", ""]
    return "\n".join(lines)


def band_cost_text(delta: float, points: int, settings: dict) -> str:
    """What the map's band costs per point, against the sweep's band (analysis.balance_map)."""
    from analysis.balance_map import matches_to_call_fair_point_balanced
    from analysis.verdict import DEFAULT_DELTA
    orders = 1 if settings.get("first_player_orders", "both") != "both" else 2
    need = matches_to_call_fair_point_balanced(points, delta)
    text = ("band cost: a point at exactly ½ is called balanced with 80 %% chance at about %s matches per point "
            "(Holm's first step over %d points); this map played %s per point"
            % (format(need, ","), points, format(settings["matches"] * orders, ",")))
    if delta != DEFAULT_DELTA:
        text += ("; the sweep's band ½ ± %g would need about %s per point"
                 % (DEFAULT_DELTA, format(matches_to_call_fair_point_balanced(points, DEFAULT_DELTA), ",")))
    return text


def write_map_report(folder: Path, settings: dict, px, py, found, cost: dict) -> None:
    folder = Path(folder)
    data = {"settings": settings, "cost": cost, "x": found.x_values, "y": found.y_values,
            "estimate": found.estimate, "low": found.low, "high": found.high,
            "verdict": None if found.verdict is None else found.verdict.tolist()}
    write_json(folder / "result.json", data)
    save(map_figure(px, py, found, settings["target"], settings["metric"]), folder / "map.png")
    write_text_atomic(folder / "summary.md", map_markdown(settings, px, py, found, cost))
    write_design_report(folder)


# ---- sensitivity ---------------------------------------------------------------------------

def sensitivity_figure(results: dict, method: str) -> Figure:
    shown = [m for m in results if results[m]["rows"]]
    figure = Figure(figsize=(11, 3.2 * max(1, (len(shown) + 1) // 2)))
    for index, metric in enumerate(shown):
        axes = figure.add_subplot((len(shown) + 1) // 2, 2, index + 1)
        rows = results[metric]["rows"][::-1]
        names = [row["name"] for row in rows]
        y = np.arange(len(rows))
        if method == "morris":
            axes.barh(y, [r["mu_star"] for r in rows], xerr=[r["mu_star_conf"] for r in rows], color="C0")
            axes.set_xlabel("μ* (95 % bootstrap)")
        else:
            from analysis.sensitivity import bounds
            def errors(key):  # below and above each index, an unbounded end drawn to the panel's edge
                ends = np.array([bounds(r, key) for r in rows], dtype=float).clip(-1.0, 2.0)
                return [np.maximum(np.array([r[key] for r in rows]) - ends[:, 0], 0),
                        np.maximum(ends[:, 1] - np.array([r[key] for r in rows]), 0)]
            axes.barh(y + 0.2, [r["ST"] for r in rows], height=0.4, xerr=errors("ST"), color="C0", label="total ST")
            axes.barh(y - 0.2, [r["S1"] for r in rows], height=0.4, xerr=errors("S1"), color="C1",
                      label="first-order S1")
            axes.set_xlabel("Sobol' index (95 %% %s)" % ("interval over the replicates" if "S1_low" in rows[0]
                                                          else "bootstrap"))
            if index == 0:
                axes.legend(fontsize=8)
        axes.set_yticks(y, names, fontsize=8)
        axes.set_title(metric, fontsize=10)
    figure.tight_layout()
    return figure


def sensitivity_markdown(settings: dict, params, method: str, results: dict, cost: dict) -> str:
    from analysis.sensitivity import interval_label
    from sim.fair.metrics import DESCRIPTIONS
    lines = ["# Sensitivity (%s)" % method, "",
             setting_line(settings),
             "- parameters: %s" % "; ".join(p.describe() for p in params),
             "- design: %s" % design_text(settings, cost),
             "- budget spent: %s" % cost_line(cost), ""]
    for metric, result in results.items():
        lines.append("## %s" % DESCRIPTIONS[metric])
        if not result["rows"]:
            lines += ["", "constant over the design (%g): no parameter moves it." % result.get("constant", float("nan")), ""]
            continue
        lines.append("")
        lines.append("Var(Y) over the design = %.4g; one point's sampling variance = %s of it (%s)."
                     % (result["variance"], "%.0f %%" % (100 * result["noise_share"]) if result["noise_share"]
                        is not None else "-", NOISE_TEXT["sobol" if settings.get("copies") else "other"]))
        if method == "lhs":
            lines.append("Surrogate (quadratic ridge) leave-one-out R² = %.3f." % result["rows"][0]["surrogate_loo_r2"])
        lines.append("")
        if method == "morris":
            lines += ["| rank | parameter | μ* | 95 % interval | σ |", "|---:|---|---:|---|---:|"]
            for rank, row in enumerate(result["rows"], 1):
                lines.append("| %d | %s | %.4f | [%.4f, %.4f] | %.4f |" % (
                    rank, row["name"], row["mu_star"], row["mu_star"] - row["mu_star_conf"],
                    row["mu_star"] + row["mu_star_conf"], row["sigma"]))
        else:
            lines += ["| rank | parameter | total ST | 95 % interval | first-order S1 | 95 % interval |",
                      "|---:|---|---:|---|---:|---|"]
            for rank, row in enumerate(result["rows"], 1):
                lines.append("| %d | %s | %.3f | %s | %.3f | %s |" % (
                    rank, row["name"], row["ST"], interval_label(row, "ST"), row["S1"], interval_label(row, "S1")))
        lines.append("")
    lines += ["![indices](sensitivity.png)", ""]
    return "\n".join(lines)


def write_sensitivity_report(folder: Path, settings: dict, params, method: str, results: dict, cost: dict) -> None:
    folder = Path(folder)
    write_json(folder / "result.json", {"settings": settings, "cost": cost, "results": results})
    save(sensitivity_figure(results, method), folder / "sensitivity.png")
    write_text_atomic(folder / "summary.md", sensitivity_markdown(settings, params, method, results, cost))
    write_design_report(folder)


def rewrite_fair_report(folder: Path) -> None:
    """Redraw a fair run's summary and figure from its result.json (no matches)."""
    from analysis.fair_value import FairValue, point_estimate
    from sim.fair.params import NUMBER, Param
    data = json.loads((Path(folder) / "result.json").read_text(encoding="utf-8"))
    settings, cost = data.pop("settings"), data.pop("cost")
    found = FairValue(**{key: value for key, value in data.items() if key in FairValue.__dataclass_fields__})
    found.estimate = point_estimate(found.points, found.target, found.direction, found.lower, found.upper,
                                    found.lower_open, found.upper_open, found.estimate)
    param = Param(settings["param"].split(" in ")[0], NUMBER, found.low, found.high)
    write_fair_report(folder, settings, param, found, cost, data.get("labels"), data.get("model"))


def rewrite_map_report(folder: Path) -> None:
    """Redraw a map run's summary and figure from its result.json (no matches)."""
    from analysis.balance_map import BalanceMap
    from sim.fair.params import NUMBER, Param
    data = json.loads((Path(folder) / "result.json").read_text(encoding="utf-8"))
    settings = data["settings"]
    verdict = None if data["verdict"] is None else np.asarray(data["verdict"], dtype=object)
    found = BalanceMap(data["x"], data["y"], np.asarray(data["estimate"]), np.asarray(data["low"]),
                       np.asarray(data["high"]), verdict, settings["delta"], settings["adjust"])
    px = Param(settings["x"][0], NUMBER, min(data["x"]), max(data["x"]))
    py = Param(settings["y"][0], NUMBER, min(data["y"]), max(data["y"]))
    write_map_report(folder, settings, px, py, found, data["cost"])
