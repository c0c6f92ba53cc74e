"""The skill figure (reports/skill_section.py) draws what it says: one line per (rules, axis value),
legend in numeric order, readable x labels, "none" in an empty special-victory panel.

The first test is the one that would have caught docs/examples/pd-skill/skill.png joining the
core and advanced presets on one line (the vertical drops at each level)."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from reports.skill_section import skill_figure

ORDER = ["random", "greedy", "tuned", "ismcts:100"]
RATINGS = {"random": -553.0, "greedy": 203.0, "tuned": 224.0, "ismcts:100": 386.0}  # two close ratings
AXIS = ["100", "30", "50", "30/50"]  # string order differs from the numeric one
RULES = {"core": 0.2, "advanced": 0.8}  # far apart, so a joined line is unmistakable


def _metrics(special: bool = True) -> pd.DataFrame:
    rows = []
    for (rules, base), axis, (level, skill) in itertools.product(RULES.items(), AXIS, enumerate(ORDER)):
        value = base + 0.01 * level + 0.001 * AXIS.index(axis)
        row = {"series": "core_vs_core", "axis": axis, "rules": rules, "skill": skill, "level": level}
        for name, centre in (("seat0_share", value), ("advantage", value - 0.5),
                             ("special_rate", (value / 10 if rules == "advanced" else 0.0) if special else 0.0)):
            row.update({name: centre, name + "_low": centre - 0.01, name + "_high": centre + 0.02})
        rows.append(row)
    return pd.DataFrame(rows).sample(frac=1.0, random_state=3)  # the figure must not rely on row order


def _drawn_lines(figure):
    return [line for axes in figure.axes for line in axes.get_lines() if not line.get_label().startswith("_")]


def test_every_drawn_line_holds_one_rules_preset():
    metrics = _metrics()
    figure = skill_figure(metrics, ORDER, RATINGS, {"axis": "HP"})
    x_of = {level: RATINGS[level] for level in ORDER}
    owner = {}
    for _, row in metrics.iterrows():
        for name in ("seat0_share", "advantage", "special_rate"):
            owner[(x_of[row["skill"]], round(row[name], 9))] = row["rules"]
    lines = _drawn_lines(figure)
    assert lines, "the figure drew no data line"
    for line in lines:
        presets = {owner[(x, round(y, 9))] for x, y in zip(line.get_xdata(), line.get_ydata())}
        assert len(presets) == 1, "line %r joins the presets %s" % (line.get_label(), sorted(presets))
        assert len(line.get_xdata()) == len(set(line.get_xdata())), "line %r doubles back" % line.get_label()


def test_legend_lists_axis_values_in_numeric_order():
    figure = skill_figure(_metrics(), ORDER, RATINGS, {"axis": "HP"})
    labels = [text.get_text() for legend in figure.legends for text in legend.get_texts()]
    for rules in RULES:
        values = [label.split()[1] for label in labels if label.endswith(rules)]
        assert values == ["30", "50", "100", "30/50"], values


def test_close_ratings_do_not_overprint_the_x_labels():
    figure = skill_figure(_metrics(), ORDER, RATINGS, {"axis": "HP"})
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    axes = figure.axes[0]
    boxes = [label.get_window_extent(renderer) for label in axes.get_xticklabels() if label.get_text().strip()]
    assert len(boxes) == len(ORDER)
    for a, b in itertools.combinations(boxes, 2):
        assert not a.overlaps(b), "x tick labels overlap"


def test_a_special_victory_panel_with_none_says_none_and_draws_no_band():
    figure = skill_figure(_metrics(special=False), ORDER, RATINGS, {"axis": "HP"})
    special = [axes for axes in figure.axes if "special" in axes.get_title()]
    assert special
    for axes in special:
        assert any(text.get_text().startswith("none") for text in axes.texts)
        assert not axes.collections and not [line for line in axes.get_lines() if not line.get_label().startswith("_")]


def test_a_preset_without_special_victories_is_named_not_drawn():
    figure = skill_figure(_metrics(), ORDER, RATINGS, {"axis": "HP"})
    (axes,) = [axes for axes in figure.axes if "special" in axes.get_title()]
    drawn = {line.get_label() for line in _drawn_lines(figure) if line.axes is axes}
    assert drawn and all(label.endswith("advanced") for label in drawn)
    assert any("core" in text.get_text() and text.get_text().startswith("none") for text in axes.texts)
