"""The self-contained HTML balance report (jinja2, autoescaped, images inlined).

One file a designer can mail or open offline: figures are embedded as base64
PNG data URIs, the style sheet is inline, there is no script and no external
resource. Every string from the run (series, strategy and rules names, rule
values, metadata) reaches the page through jinja2's autoescaping — table
cells are plain strings here, never pre-rendered HTML, so nothing bypasses it.
"""

from __future__ import annotations

import base64
import json
import math
import time
from pathlib import Path

import numpy as np
import pandas as pd
from jinja2 import Environment, PackageLoader, StrictUndefined

from analysis.runs import Run
from analysis.shown_verdict import first_player_shown, set_up_failed, shown_verdict, verdict_counts
from analysis.tables import family_statement
from analysis.verdict_design import interval_cost_line, more_matches_text
from reports.figures import DERIVED_FIGURE, DERIVED_TITLE, FIGURES, special_victories_never, titles, words

# Captions in the run's words ({series}, {axis_description}: analysis.dimensions.labels).
CAPTIONS = {
    "verdict_heatmap": "Balance verdict per {series} and {axis_description}: seat 0's share of decided matches "
                       "(both first-player orders pooled; draws excluded and shown separately), and the same for "
                       "the first player. The colour is the verdict and the favoured side; the cell names the side "
                       "ahead and its share. With unequal seats the cell is the row's difference from the mirrors "
                       "at the same seats (the side ahead and its points), as the table's verdict is. How a verdict "
                       "is decided: {decision_rule}. In a mirror (the same side in both seats) the seat-0 share is ½ "
                       "by symmetry when the seats start equal, so there the balance cell shows the first-player "
                       "verdict, the balance question, and the seat-0 one is the set-up check (in the table; † in "
                       "the figure when it fails).",
    "win_rates_vs_axis": "Each seat's win rate and the draw rate over all matches, with 95 % Wilson bands.",
    "first_player_advantage": "P(first player wins | decided match) − ½, pooled over both first-player orders "
                              "(so an advantage of either side cancels out).",
    "special_victories": "How often each special victory ends a match, by {series} and winning seat.",
    "win_types": "Shares of all matches by winner and end type.",
    "match_lengths": "Distribution of match length in turns (both players' turns count).",
}
DERIVED_CAPTION = ("Seat 1's win rate over all matches against each axis the game derives from a per-seat dimension "
                   "(e.g. rank gap = seat 1's rank − seat 0's), with 95 % bands. A value pools the seat pairs "
                   "that give it and both first-player orders; each line keeps every other dimension, the "
                   "strategies and the rules apart (the CSV table derived_win_rates has the numbers).")


# aggregate.py's margin is seat 0's life left minus seat 1's at the end of a match in every game
# (a duelist's HP), never the run's axis: a TCG axis is the rank, which no seat has left at the end
LIFE_MARGIN = "mean life (HP) left at the end, seat 0 − seat 1"


def _environment() -> Environment:
    return Environment(loader=PackageLoader("reports", "templates"), autoescape=True,
                       undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def _pct(value) -> str:
    return "–" if value is None or (isinstance(value, float) and math.isnan(value)) else "%.1f" % (100 * value)


def _rate(row, name) -> str:
    """'51.2 % [48.9, 53.5]' for a rate column and its interval."""
    if row[name] != row[name]:
        return "– (no matches)"
    return "%s %% [%s, %s]" % (_pct(row[name]), _pct(row[name + "_low"]), _pct(row[name + "_high"]))


def _points(row, name) -> str:
    if row[name] != row[name]:
        return "–"
    return "%+.1f [%+.1f, %+.1f]" % (100 * row[name], 100 * row[name + "_low"], 100 * row[name + "_high"])


def _number(value, digits=1) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return ("%." + str(digits) + "f") % value


class _Table:
    """A display table: column names and rows of (text, css class) cells."""

    def __init__(self, name: str, columns: list[str], numeric: set[int] | None = None):
        self.name = name
        self.columns = columns
        self.numeric = numeric or set()
        self.rows: list[list[tuple[str, str]]] = []

    def add(self, cells: list) -> None:
        row = []
        for index, cell in enumerate(cells):
            text, css = cell if isinstance(cell, tuple) else (cell, "")
            if index in self.numeric:
                css = (css + " num").strip()
            row.append((str(text), css))
        self.rows.append(row)


def _by_level(frame: pd.DataFrame) -> pd.DataFrame:
    """Rows of a table in series order, skill levels weakest first within a series
    (`attrs["skill_order"]` of the verdicts, set by reports.build_report), else as given."""
    order = frame.attrs.get("skill_order") or []
    if len(order) < 2 or frame.empty or "skill" not in frame:
        return frame
    rank = {level: k for k, level in enumerate(order)}
    series_rank = {name: k for k, name in enumerate(dict.fromkeys(frame["series"]))}
    key = frame["series"].map(series_rank) * (len(rank) + 1) + frame["skill"].map(rank).fillna(len(rank))
    return frame.iloc[np.argsort(key.to_numpy(), kind="stable")]


def _keys(frame: pd.DataFrame, several_variants: bool) -> list[str]:
    found = words({"table": frame})
    return [found["series"], found["axis"]] + (["strategies · rules"] if several_variants else [])


def _key_cells(row, several_variants: bool) -> list[str]:
    return [row["series"], row["axis"]] + ([row["variant"]] if several_variants else [])


def display_tables(tables: dict[str, pd.DataFrame]) -> dict[str, _Table]:
    """Condensed, formatted versions of the analysis tables for the page (CSV files hold everything)."""
    several = tables["verdicts"]["variant"].nunique() > 1 if len(tables["verdicts"]) else False
    k = len(_keys(tables["verdicts"], several))
    out = {}

    table = _Table("verdicts", _keys(tables["verdicts"], several) + [
        "matches", "seat 0 share of decided [95 % CI]", "draws [95 % CI]", "verdict",
        "first player's share [95 % CI]", "first-player verdict",
        "more matches to decide the balance verdict (80 %)", "more matches to decide the first-player verdict (80 %)"],
        {k})
    for _, row in _by_level(tables["verdicts"]).iterrows():
        shown = shown_verdict(row)  # the heatmap's cell and the counts show this same verdict
        verdict = shown.words + (" (%s%s)" % ("† " if set_up_failed(row) else "", shown.footnote)
                                 if shown.footnote else "")
        if row["warning"]:
            verdict += " ⚠ " + row["warning"]
        _, first_category, _, first_words = first_player_shown(row)
        table.add(_key_cells(row, several) + [
            int(row["matches"]), _rate(row, "seat0_share"), _rate(row, "draw_rate"),
            (verdict, "verdict-" + shown.category), _rate(row, "first_share"),
            (first_words, "verdict-" + first_category), more_matches_text(row["more_matches"]),
            more_matches_text(row["first_more_matches"])])
    out["verdicts"] = table

    table = _Table("win_rates", _keys(tables["win_rates"], several) + [
        "seat 0", "seat 1", "matches", "seat 0 wins [95 % CI]", "seat 1 wins [95 % CI]",
        "draws [95 % CI]"], {k + 2})
    for _, row in tables["win_rates"].iterrows():
        table.add(_key_cells(row, several) + [row["seat0_name"], row["seat1_name"], int(row["matches"]),
                                              _rate(row, "seat0_win_rate"), _rate(row, "seat1_win_rate"),
                                              _rate(row, "draw_rate")])
    out["win_rates_vs_axis"] = table

    table = _Table("first_player_advantage", _keys(tables["first_player_advantage"], several) + [
        "decided matches", "first-player wins", "advantage, points [95 % CI]",
        "first player wins, all matches [95 % CI]", "draws"], {k, k + 1})
    for _, row in tables["first_player_advantage"].iterrows():
        table.add(_key_cells(row, several) + [int(row["decisive"]), int(row["first_player_wins"]),
                                              _points(row, "advantage"), _rate(row, "first_win_rate"),
                                              int(row["draws"])])
    out["first_player_advantage"] = table

    table = _Table("special_victories", _keys(tables["special_victories"], several) + [
        "special victory", "winning seat", "its side", "count", "share of matches [95 % CI]"], {k + 3})
    special = tables["special_victories"]
    happened = special.groupby("end_type")["count"].transform("sum") > 0 if len(special) else special["count"] > 0
    # an end type no match ended in is a row of zeros per cell: the figure's sentence says it once
    for _, row in special[happened.to_numpy()].iterrows():
        table.add(_key_cells(row, several) + [row["end_type"], int(row["seat"]), row["seat_name"],
                                              int(row["count"]), _rate(row, "rate")])
    out["special_victories"] = table

    win_types = tables["win_types"]
    seen = win_types.groupby(["outcome", "end_type"], sort=False)["count"].transform("sum") > 0
    table = _Table("win_types", _keys(win_types, several) + ["winner", "end type", "count",
                                                             "share of matches [95 % CI]"], {k + 2})
    for _, row in win_types[seen.to_numpy()].iterrows():
        winner = {"seat0": "seat 0", "seat1": "seat 1", "draw": "draw"}[row["outcome"]]
        table.add(_key_cells(row, several) + [winner, row["end_type"] + (" (special)" if row["special"] else ""),
                                              int(row["count"]), _rate(row, "rate")])
    out["win_types"] = table

    table = _Table("match_lengths", _keys(tables["match_lengths"], several) + [
        "matches", "mean turns", "sd", "10 %", "median", "90 %", "in overflow bin",
        LIFE_MARGIN],
        set(range(k, k + 8)))
    for _, row in tables["match_lengths"].iterrows():
        table.add(_key_cells(row, several) + [int(row["matches"]), _number(row["mean_turns"]), _number(row["sd_turns"]),
                                              _number(row["p10_turns"], 0), _number(row["median_turns"], 0),
                                              _number(row["p90_turns"], 0), _pct(row["overflow_share"]) + " %",
                                              _number(row["mean_margin"])])
    out["match_lengths"] = table

    counters = tables["counters"]
    fired = [name for name, total in counters.groupby("counter", sort=False)["total"].sum().items() if total > 0]
    table = _Table("counters", _keys(counters, several) + fired, set(range(k, k + len(fired))))
    if fired:
        for _, group in counters.groupby(["series", "variant", "axis0", "axis1"], sort=False):
            first = group.iloc[0]
            per_match = dict(zip(group["counter"], group["per_match"]))
            table.add(_key_cells(first, several) + [_number(per_match.get(name), 2) for name in fired])
    out["counters"] = table

    found = words(tables)
    table = _Table("cells", ["cell", found["series"], found["axis"], "strategies · rules", "first", "matches",
                             "seat 0 wins", "seat 1 wins", "draws", "first player's share [95 % CI]", "mean turns"],
                   {0, 4, 5, 6, 7, 8, 10})
    for _, row in tables["cells"].iterrows():
        table.add([int(row["cell"]), row["series"], row["axis"], row["variant"], int(row["first"]),
                   int(row["matches"]), int(row["seat0_wins"]), int(row["seat1_wins"]), int(row["draws"]),
                   _rate(row, "first_player_share"), _number(row["mean_turns"])])
    out["cells"] = table
    return out


def _toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)  # a TOML basic string


def sweep_toml(sweep: dict) -> str:
    """The run's sweep specification as a sweep file (scalars and lists; tables and None skipped)."""
    lines = []
    for key, value in sweep.items():
        if value is None or isinstance(value, dict):
            continue
        lines.append("%s = %s" % (key, _toml_value(value)))
    return "\n".join(lines) + "\n"


def _metadata(run: Run) -> list[tuple[str, str]]:
    meta = run.meta
    items = [("run folder", str(run.path)), ("game", run.game), ("name", meta.get("name", "")),
             ("complete", "yes" if run.complete else "NO — interrupted or still running"),
             ("seed", meta.get("seed", "")), ("cells", len(run.results)),
             ("matches", int(run.results["matches"].sum())),
             ("run format version", meta.get("format_version")), ("behaviour version", meta.get("behaviour_version")),
             ("package version", meta.get("package_version", "")), ("git commit", meta.get("git_commit") or "unknown"),
             ("strategies", ", ".join(meta.get("strategies", [])) or ", ".join(
                 sorted(set(run.results["strategy0"] + ":" + run.results["strategy1"])))),
             ("backend", meta.get("backend", "")), ("jobs", meta.get("jobs", ""))]
    for name, entry in (meta.get("game_data") or {}).items():  # data the cells played with beside the rules
        items.append(("game data %s" % name, "%s; sha256 %s, %s bytes (%s)" % (
            entry.get("description", ""), entry.get("sha256", ""), entry.get("bytes", ""), entry.get("copy", ""))))
    for key in ("timings", "machine"):
        value = meta.get(key)
        if value:
            items.append((key, ", ".join("%s: %s" % (k, _short(v, k)) for k, v in value.items())
                          if isinstance(value, dict) else str(value)))
    return [(key, str(value)) for key, value in items if value not in ("", None)]


def _short(value, key: str = "") -> str:
    if key in ("started", "finished") and isinstance(value, (int, float)) and not isinstance(value, bool):
        return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(value))  # epoch seconds in meta.json
    if isinstance(value, dict):
        return "{" + ", ".join("%s: %s" % (k, _short(v)) for k, v in value.items()) + "}"
    return "%.4g" % value if isinstance(value, float) else str(value)


def _default_rule_values(game_name: str) -> dict:
    """The game's default rules as a flat {key: value} (nested groups such as
    a game's tables of switches flattened one level), or {} if unavailable."""
    try:
        from sim.registry import get_game
        values = get_game(game_name).load_rules("default").as_dict()
    except Exception:  # any game may lack a "default" preset; the column is optional
        return {}
    flat = {}
    for key, value in values.items():
        if isinstance(value, dict):
            flat.update(value)
        else:
            flat[key] = value
    return flat


def _show(value) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _rules(run: Run) -> list[dict]:
    defaults = _default_rule_values(run.game)
    out = []
    for name, entry in (run.meta.get("rules") or {}).items():
        entry = entry if isinstance(entry, dict) else {}
        differences = entry.get("differences") or {}
        out.append({"name": name, "source": str(entry.get("source", "")), "hash": str(entry.get("hash", "")),
                    "differences": [(str(k), _show(v), _show(defaults[k]) if k in defaults else "?")
                                    for k, v in differences.items()]})
    return out


def _reproduce(run: Run) -> dict:
    meta = run.meta
    sweep = meta.get("sweep") if isinstance(meta.get("sweep"), dict) else {}
    commit = meta.get("git_commit")
    steps = []
    if commit:
        steps.append("git checkout %s" % commit)
    steps.append("pip install -e .   # cardbalance %s" % meta.get("package_version", ""))
    steps.append("cardbalance sweep sweep.toml --out new-run")
    steps.append("cardbalance report new-run")
    return {"toml": sweep_toml(sweep), "steps": "\n".join(steps),
            "files": [name for name, entry in (meta.get("rules") or {}).items()
                      if isinstance(entry, dict) and str(entry.get("source", "")).endswith(".toml")]}


def _package_version() -> str:
    try:
        from sim import __version__
    except ImportError:
        return "unknown"
    return str(__version__)


def badges(verdicts: pd.DataFrame) -> list[dict]:
    """The counts at the top (analysis/shown_verdict.verdict_counts, which the terminal prints too), each
    item with the page's class for its colour."""
    return [{"group": group["group"], "items": [("verdict-" + category, text) for category, text in group["items"]]}
            for group in verdict_counts(verdicts)]


def data_uri(path: Path) -> str:
    return "data:image/png;base64," + base64.b64encode(Path(path).read_bytes()).decode("ascii")


def render_report(run: Run, tables: dict[str, pd.DataFrame], figure_paths: dict[str, Path], delta: float,
                  csv_paths: dict[str, Path] | None, out_dir: Path, skill: dict | None = None,
                  game_sections: list | None = None) -> str:
    """The report page as a string. `skill` (reports/skill_section.py): its sections are
    added, and with two or more skill levels the headline counts are the strongest level's."""
    from analysis.skill import headline
    from reports.headline import decision_rule, run_headline
    display = display_tables(tables)
    skill = skill or {"sections": [], "headline": "", "order": []}
    verdicts = headline(tables["verdicts"], skill["order"])
    sections, names, found = [], titles(tables), words(tables)
    rule = decision_rule(tables["verdicts"])
    for name in FIGURES:
        table_name = {"verdict_heatmap": "verdicts"}.get(name, name)
        never = special_victories_never(tables) if name == "special_victories" else None
        sections.append({"id": name, "title": names[name],
                         "caption": never or CAPTIONS[name].format(decision_rule=rule, **found),
                         "image": data_uri(figure_paths[name]) if name in figure_paths else None,
                         "table": display.get(table_name)})
    if DERIVED_FIGURE in figure_paths:  # a run with derived axes (e.g. a rank gap): right after the win rates
        sections.insert(FIGURES.index("win_rates_vs_axis") + 1, {
            "id": DERIVED_FIGURE, "title": DERIVED_TITLE, "caption": DERIVED_CAPTION,
            "image": data_uri(figure_paths[DERIVED_FIGURE]), "table": None})
    sections[1:1] = skill["sections"]  # right after the verdicts: the skill question is about them
    # the game's own questions (GameSpec.extra["report_sections"]) after the skill ones
    sections[1 + len(skill["sections"]):1 + len(skill["sections"])] = game_sections or []
    csv_links = []
    for name, path in (csv_paths or {}).items():
        try:
            csv_links.append((name, Path(path).relative_to(out_dir).as_posix()))
        except ValueError:
            csv_links.append((name, Path(path).as_posix()))
    context = {
        "title": "Balance report — %s (%s)" % (run.meta.get("name") or run.path.name, run.game),
        "run": run, "complete": run.complete, "delta": delta,
        "headline": run_headline(run, tables["verdicts"], skill["order"]),
        "badges": badges(verdicts),
        "family": family_statement(verdicts), "interval_cost": interval_cost_line(),
        "n_groups": len(verdicts), "group_words": "%s × %s" % (found["series"], found["axis"]), "sections": sections,
        "counters": display["counters"], "cells": display["cells"],
        "metadata": _metadata(run), "rules": _rules(run), "reproduce": _reproduce(run),
        "csv_links": csv_links, "skill_headline": skill["headline"],
        "special_end_types": ", ".join(run.special_end_types) or "none",
        "generated": "%s by cardbalance %s" % (time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), _package_version()),
    }
    return _environment().get_template("report.html").render(**context)
