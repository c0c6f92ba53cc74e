"""The sweep report's skill sections: "does the verdict hold as skill rises?"
and, for mixed pairs, "how much stronger must one side be to make it even?".

Only for runs with at least two skill levels (analysis/skill.py) or mixed
pairs; `skill_report(...)` returns nothing otherwise, so other reports are
unchanged. The figure puts the levels on x: their ladder ratings when a
ladder run is given, else their order (weakest left).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from analysis import skill

DPI = 100
METRICS = (("seat0_share", "seat-0 share of decided matches", 0.5),
           ("advantage", "first-player advantage", 0.0),
           ("special_rate", "special-victory frequency", None))
SKILL_CAPTION = ("The verdict of each {series} and {axis_description} at every skill level (both seats play that agent), "
                 "weakest first. skill-dependent: a trend test shows the seat-0 share drifting with skill (corrected "
                 "across the cells, as the verdicts are); holds: not that, and every level gives the same decided "
                 "verdict; undecided: otherwise (more matches would tell). Drift: seat-0 share at the strongest level minus the weakest. The figure shows the "
                 "rates against skill with 95 % Wilson bands.")
HANDICAP_CAPTION = ("Mixed pairs 'strong/weak' (seat 0's agent / seat 1's): the weakest mixed pair, by strength gap, "
                    "whose seat-0 share interval contains ½ — how much stronger seat 0 must be to make the match even.")


def x_positions(order: list[str], ratings: dict | None) -> tuple[list[float], str]:
    if ratings:
        return [float(ratings[level]) for level in order], "agent rating (Elo, from the ladder run)"
    return list(range(len(order))), "skill level (the sweep's order, weakest left)"


def _axis_sort_key(label) -> tuple:
    """Numeric order of an axis label ("30", "30/50"): equal values first, then unequal pairs."""
    try:
        parts = tuple(int(part) for part in str(label).split("/"))
    except ValueError:
        return (2, (), str(label))
    return (len(parts) > 1, parts, "")


def _set_level_ticks(axes, order: list[str], xs: list[float], ratings: dict | None) -> None:
    """Level names (with their rating) as x labels; a label closer than 1/8 of the axis to the
    previous one drops to a second row, so close ratings (greedy +203, tuned +224) do not overprint."""
    labels = list(order) if not ratings else ["%s\n%+.0f" % (o, x) for o, x in zip(order, xs)]
    axes.set_xticks(xs, labels, fontsize=7)
    span = (max(xs) - min(xs)) or 1.0
    ticks = axes.xaxis.get_major_ticks()
    previous, lowered = None, False
    for index in sorted(range(len(xs)), key=lambda i: xs[i]):
        lowered = previous is not None and xs[index] - previous < span / 8 and not lowered
        if lowered:
            ticks[index].set_pad(ticks[index].get_pad() + 20)
        previous = xs[index]


def skill_figure(metrics: pd.DataFrame, order: list[str], ratings: dict | None, found: dict | None = None) -> Figure:
    """One column per series, one row per metric; one line per (rules, axis value), never joining
    two rules presets; unequal seats (handicaps) dashed. `found`: the run's words."""
    found = found or {"axis": "axis"}
    series_list = list(dict.fromkeys(metrics["series"]))
    figure = Figure(figsize=(4.2 * max(len(series_list), 2), 3.0 * len(METRICS) + 0.6), dpi=DPI, layout="constrained")
    FigureCanvasAgg(figure)
    grid = figure.subplots(len(METRICS), len(series_list), squeeze=False)
    xs, label = x_positions(order, ratings)
    position = dict(zip(order, xs))
    values = sorted(dict.fromkeys(metrics["axis"]), key=_axis_sort_key)
    rules_list = list(dict.fromkeys(metrics["rules"])) if "rules" in metrics else [None]
    several_rules = len(rules_list) > 1
    from matplotlib import colormaps
    cmap = colormaps["viridis"]
    markers = "osD^v<>p"

    def text_of(rules, value) -> str:
        return "%s %s" % (found["axis"], value) + (" · %s" % rules if several_rules else "")
    for column, series in enumerate(series_list):
        part = metrics[metrics["series"] == series]
        for row, (name, title, fair) in enumerate(METRICS):
            axes = grid[row][column]
            drawn, never = 0, []
            for r, rules in enumerate(rules_list):
                for k, value in enumerate(values):
                    line = part[(part["axis"] == value) & ((part["rules"] == rules) if rules is not None else True)]
                    line = line.sort_values("level")
                    if line.empty or line[name].isna().all():
                        continue
                    if name == "special_rate" and not (line[name].fillna(0) > 0).any():
                        never.append(text_of(rules, value))
                        continue  # a band from 0 to its upper bound would read as a solid block
                    x = line["skill"].map(position).to_numpy(dtype=float)
                    colour = cmap(0.9 * k / max(len(values) - 1, 1))
                    text = text_of(rules, value)
                    axes.plot(x, line[name], color=colour, marker=markers[r % len(markers)], markersize=3.5,
                              linestyle="--" if "/" in str(value) else "-", label=text, gid="%s|%s" % (rules, value))
                    axes.fill_between(x, line[name + "_low"], line[name + "_high"], color=colour, alpha=0.10,
                                      linewidth=0)
                    drawn += 1
            if never and not drawn:
                axes.text(0.5, 0.5, "none: no special victory at any level", ha="center", va="center",
                          transform=axes.transAxes, fontsize=8, color="#555555")
                axes.set_yticks([])
            elif never:
                axes.text(0.02, 0.97, "none at any level: " + ", ".join(never), va="top", fontsize=6,
                          transform=axes.transAxes, color="#555555", wrap=True)
            if fair is not None:
                axes.axhline(fair, color="#999", linewidth=0.8, linestyle="--")
            _set_level_ticks(axes, order, xs, ratings)
            axes.set_title("%s — %s" % (series, title), fontsize=9)
            if row == len(METRICS) - 1:
                axes.set_xlabel(label, fontsize=8)
    handles, labels = grid[0][0].get_legend_handles_labels()
    if handles:
        figure.legend(handles, labels, loc="outside right center", fontsize="small",
                      title="dashed: unequal seats" if any("/" in str(v) for v in values) else None)
    figure.suptitle("Balance vs skill")
    return figure


def _table(name, columns):
    from reports.html import _Table
    return _Table(name, columns)


def _pct(value) -> str:
    return "-" if value != value else "%.1f%%" % (100 * value)


def robustness_display(table: pd.DataFrame, order: list[str], found: dict):
    display = _table("skill", [found["series"], found["axis"], *["verdict at %s" % level for level in order], "mark",
                               "drift (pts, weakest → strongest)"])
    for _, row in table.iterrows():
        css = {"holds": "verdict-balanced", "skill-dependent": "verdict-imbalanced"}.get(row["mark"], "verdict-undecided")
        display.add([row["series"], row["axis"],
                     *[row.get("verdict@" + level, "-") if row.get("verdict@" + level) == row.get("verdict@" + level)
                       else "-" for level in order],
                     (row["mark"], css),
                     "%+.1f%s" % (100 * row["drift"], " toward %s" % row["drift_towards"] if row["drift_towards"] else "")])
    return display


def handicap_display(table: pd.DataFrame, found: dict):
    display = _table("handicap", [found["series"], found["axis"], "even first at", "seat-0 share [95% CI]", "mixed pairs tried"])
    for _, row in table.iterrows():
        share = "%s [%s, %s]" % (_pct(row["seat0_share"]), _pct(row["seat0_share_low"]), _pct(row["seat0_share_high"])) \
            if row["even_at"] else "-"
        display.add([row["series"], row["axis"], row["even_at"] or "none tried is even", share, row["tried"]])
    return display


def skill_report(tables: dict[str, pd.DataFrame], folder: Path, ratings: dict | None = None,
                 listed: list[str] | None = None) -> dict:
    """{"sections": [...], "headline": words, "order": levels, "csv": {name: frame}} — empty for a run
    with fewer than two skill levels and no mixed pair."""
    from reports.figures import words
    from reports.html import data_uri
    found = words(tables)  # the run's words for its series and axis (e.g. its choice dimension's name)
    verdicts = tables["verdicts"]
    order = skill.levels(verdicts, ratings, listed)
    mixed = not verdicts["skill"].map(skill.is_level).all() if len(verdicts) else False
    out = {"sections": [], "headline": "", "order": order, "csv": {}}
    if len(order) >= 2:
        robust = skill.robustness(verdicts, order)
        metrics = skill.metrics_by_skill(tables, order)
        path = Path(folder) / "skill.png"
        skill_figure(metrics, order, ratings, found).savefig(path, format="png", dpi=DPI)
        counts = robust["mark"].value_counts() if len(robust) else {}
        out["headline"] = ("Headline verdicts are those of the strongest skill level, %s (levels weakest first: %s). "
                           "%d of %d verdicts hold across skill, %d are skill-dependent, %d undecided. %s"
                           % (order[-1], " < ".join(order), counts.get(skill.HOLDS, 0), len(robust),
                              counts.get(skill.DEPENDENT, 0), counts.get(skill.UNSETTLED, 0),
                              skill.marks_statement(robust, len(order))))
        out["sections"].append({"id": "skill", "title": "Does the verdict hold as skill rises?",
                                "caption": SKILL_CAPTION.format(**found), "image": data_uri(path),
                                "table": robustness_display(robust, order, found)})
        out["csv"].update({"skill_robustness": robust, "skill_metrics": metrics})
    if mixed:
        even = skill.handicap(verdicts, order, ratings)
        out["sections"].append({"id": "skill_handicap", "title": "Skill handicap", "caption": HANDICAP_CAPTION,
                                "image": None, "table": handicap_display(even, found)})
        out["csv"]["skill_handicap"] = even
    return out


def ladder_ratings(ladder_run) -> dict | None:
    if ladder_run is None:
        return None
    from analysis.ladder import ratings_of
    return ratings_of(ladder_run)
