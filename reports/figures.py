"""Matplotlib figures of a run's balance tables, written as PNG files.

Built on `matplotlib.figure.Figure` with the Agg canvas directly, never
pyplot: no display is needed, no global figure state leaks between reports,
and the backend cannot be switched under us by an environment variable.
Every function takes the tables of `analysis.tables.all_tables` and returns
a Figure; `write_figures` saves them all. Rates are drawn with their 95 %
Wilson interval as a shaded band; the fair line (½, or 0 advantage) and the
±δ verdict band are drawn where they apply.

The x axis is the run's per-seat dimension (e.g. each seat's starting HP), read under
the neutral role names of analysis/dimensions.py (`axis0` / `axis1`, label
`axis`) and named by the dimension's own description, which the tables carry
in `DataFrame.attrs["labels"]` (`analysis.tables.all_tables`). It is
categorical ("30", "40", ..., "30/60" for unequal seats) so that equal and
unequal pairs share one axis.

A run whose game declares derived axes (`sim.registry.DerivedAxis`, e.g. a
rank gap) gets one more figure, `win_rates_vs_derived`: seat 1's win rate
against each derived axis (a panel each), one line per line of
analysis/derived_axes.py (a value of every other dimension, one strategy pair,
one rules value), so no line joins two rules presets.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle

from analysis.shown_verdict import first_player_shown, set_up_failed, shown_verdict
from analysis.verdict import BALANCED, DEFAULT_DELTA, UNDECIDED
from sim.errors import CardbalanceError

DPI = 100
PANEL_SIZE = (4.6, 3.3)
FIGURES = ("verdict_heatmap", "win_rates_vs_axis", "first_player_advantage", "special_victories",
           "win_types", "match_lengths")
TITLE_FORMATS = {
    "verdict_heatmap": "Verdict per {series} and {axis_description}",
    "win_rates_vs_axis": "Win rates vs {axis_description}",
    "first_player_advantage": "First-player advantage vs {axis_description}",
    "special_victories": "Special-victory frequency",
    "win_types": "How matches end (win types)",
    "match_lengths": "Match-length distribution",
}
DERIVED_FIGURE = "win_rates_vs_derived"  # drawn only for a run with derived axes (not in FIGURES)
DERIVED_TITLE = "Seat 1's win rate vs each derived axis"
DEFAULT_WORDS = {"series": "series", "axis": "axis", "axis_description": "per-seat value"}


def words(tables: dict[str, pd.DataFrame]) -> dict:
    """The run's words for the roles (series, axis, axis_description) carried by its tables."""
    for table in tables.values():
        found = table.attrs.get("labels")
        if found:
            return {key: found.get(key) or DEFAULT_WORDS[key] for key in DEFAULT_WORDS}
    return dict(DEFAULT_WORDS)


def titles(tables: dict[str, pd.DataFrame]) -> dict[str, str]:
    """Figure titles in the run's own words (e.g. "Win rates vs starting hp")."""
    found = words(tables)
    return {name: text.format(**found) for name, text in TITLE_FORMATS.items()}


# ---- helpers -----------------------------------------------------------------------------

def _new_figure(n_panels: int, ncols_max: int = 3, sharey: bool = False):
    n_panels = max(n_panels, 1)
    ncols = min(n_panels, ncols_max)
    nrows = math.ceil(n_panels / ncols)
    figure = Figure(figsize=(max(PANEL_SIZE[0] * ncols, 7.5), PANEL_SIZE[1] * nrows + 0.4), dpi=DPI, layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.subplots(nrows, ncols, squeeze=False, sharey=sharey).ravel()
    for extra in axes[n_panels:]:
        extra.set_visible(False)
    return figure, list(axes[:n_panels])


def _empty(figure_title: str, message: str) -> Figure:
    figure, (axes,) = _new_figure(1)
    axes.set_axis_off()
    axes.text(0.5, 0.5, message, ha="center", va="center", wrap=True)
    figure.suptitle(figure_title)
    return figure


def _axis_positions(*frames: pd.DataFrame) -> dict[str, int]:
    """Position per axis label: equal values in increasing order, then unequal pairs."""
    pairs = set()
    for frame in frames:
        if len(frame):
            pairs.update(zip(frame["axis0"].astype(int), frame["axis1"].astype(int)))
    ordered = sorted(pairs, key=lambda pair: (pair[0] != pair[1], pair))
    labels = [str(a) if a == b else "%d/%d" % (a, b) for a, b in ordered]
    return {label: index for index, label in enumerate(labels)}


def _series_key(frame: pd.DataFrame) -> pd.Series:
    """The panel / line key: the series, plus strategies and rules when the run has several."""
    if frame.empty:
        return pd.Series([], dtype=str)
    if frame["variant"].nunique() > 1:
        return frame["series"] + " · " + frame["variant"]
    return frame["series"].astype(str)


def _ordered_keys(frame: pd.DataFrame, order: list[str] | None = None) -> list[str]:
    """Panel / line keys in the run's series order; within a series, skill levels weakest first
    (`order`: analysis.skill.levels), then mixed pairs, then the rest as the run lists them."""
    keys = list(dict.fromkeys(_series_key(frame)))
    if not order or frame.empty:
        return keys
    rank = {level: k for k, level in enumerate(order)}
    first = dict(zip(_series_key(frame), zip(frame["series"], frame["skill"])))
    series_rank = {name: k for k, name in enumerate(dict.fromkeys(frame["series"]))}
    return sorted(keys, key=lambda key: (series_rank[first[key][0]], rank.get(first[key][1], len(rank))))


def _prepare_axis(axes, positions: dict[str, int]) -> None:
    """Remember where unequal pairs start (they are not joined by lines) and mark the gap."""
    unequal = [index for label, index in positions.items() if "/" in label]
    axes._first_unequal = min(unequal) if unequal else np.inf
    if unequal and len(unequal) < len(positions):
        axes.axvline(min(unequal) - 0.5, color="#999999", linewidth=0.6, linestyle=":")


def _axis(axes, positions: dict[str, int], description: str) -> None:
    axes.set_xticks(list(positions.values()))
    axes.set_xticklabels(list(positions.keys()), rotation=45 if len(positions) > 8 else 0)
    axes.set_xlim(-0.5, max(len(positions) - 0.5, 0.5))
    axes.set_xlabel("%s (seat 0 / seat 1 when unequal)" % description
                    if any("/" in label for label in positions) else description)


def _band(axes, x, rate, low, high, colour, label, marker="o"):
    """A rate with its interval: a line and a shaded band over equal values (x in order),
    and unconnected markers with error bars for unequal pairs (positions after them).

    `x` holds axis positions; unequal pairs are those at or after the position
    `_prepare_axis` stored on the axes."""
    x = np.asarray(x, dtype=float)
    rate, low, high = (np.asarray(v, dtype=float) for v in (rate, low, high))
    first_unequal = getattr(axes, "_first_unequal", np.inf)
    joined = x < first_unequal
    order = np.argsort(x[joined])
    xs, rs, ls, hs = (v[joined][order] for v in (x, rate, low, high))
    axes.fill_between(xs, ls, hs, color=colour, alpha=0.22, linewidth=0)
    axes.plot(xs, rs, marker=marker, markersize=3.5, color=colour, label=label, linewidth=1.4)
    if (~joined).any():
        xs, rs, ls, hs = (v[~joined] for v in (x, rate, low, high))
        axes.errorbar(xs, rs, yerr=[rs - ls, hs - rs], fmt=marker, markersize=4, color=colour, capsize=3,
                      linewidth=1.2, label=None if joined.any() else label)


def _fair_band(axes, centre: float, delta: float) -> None:
    axes.axhspan(centre - delta, centre + delta, color="#4daf4a", alpha=0.12, linewidth=0)
    axes.axhline(centre, color="black", linewidth=0.8, linestyle="--")


# ---- the figures ----------------------------------------------------------------------------

# Diverging by favoured side: seat 0's side blue, seat 1's red; the first player purple, the second
# orange; the claims of no side in the pale middle. Every category has a legend entry.
SIDE_COLOURS = {"seat0": "#4575b4", "seat1": "#d73027", "first": "#762a83", "second": "#e08214",
                BALANCED: "#d9f0d3", UNDECIDED: "#e6e6e6", "handicap": "#ffffff"}
SIDE_LABELS = {"seat0": "imbalanced: favours seat 0's side (named in the cell)",
               "seat1": "imbalanced: favours seat 1's side (named in the cell)",
               "first": "first player favoured", "second": "second player favoured",
               BALANCED: "balanced: within ½ ± δ", UNDECIDED: "undecided: more matches needed",
               "handicap": "handicap: unequal seats, no mirror to compare with: no balance claim"}
SET_UP_MARK = " †"  # a mirror's failed set-up check (seat 0 vs seat 1 imbalanced with equal seats)
SET_UP_NOTE = "† a mirror whose seat 0 vs seat 1 set-up check is imbalanced: check the set-up"
BALANCE_PANEL_TITLE = ("balance: side ahead and its share of decided matches\n"
                       "(unequal seats: its points ahead of the mirror; a mirror: its first player)")


def _balance_cell(row) -> tuple[str, str]:
    """(category, text) of a balance cell: the row's shown verdict (analysis/shown_verdict.py), the one the
    table and the counts show — a mirror's first player, an unequal-seat row's points vs the mirror."""
    shown = shown_verdict(row)
    return shown.category, shown.cell + (SET_UP_MARK if set_up_failed(row) else "")


def _first_cell(row) -> tuple[str, str]:
    """(category, text) of a first-player cell: 1st or 2nd ahead and its share."""
    _, category, cell, _ = first_player_shown(row)
    return category, cell


def verdict_heatmap(tables: dict[str, pd.DataFrame], order: list[str] | None = None) -> Figure:
    """Axis × series grid coloured by verdict and favoured side; two panels: balance and first player.
    A balance cell is the row's shown verdict (analysis/shown_verdict.py, as the table and the counts):
    the side ahead and its share of decided matches, for unequal seats its points ahead of the mirror,
    for a mirror its first player (a failed set-up check marked †)."""
    from reports.headline import decision_rule_short
    table, title, description = tables["verdicts"], titles(tables)["verdict_heatmap"], words(tables)["axis_description"]
    if table.empty:
        return _empty(title, "no cells in this run")
    positions = _axis_positions(table)
    keys = _ordered_keys(table, order)
    series = _series_key(table).to_numpy()
    mirrors = dict(zip(series, table["mirror"].astype(bool)))
    # the two panels one above the other, so that the page shows them near full size
    width = max(7.5, 3.0 + 0.75 * len(positions) + 0.06 * max(len(key) for key in keys))
    height = 1.6 + 2 * (0.9 + 0.5 * len(keys))
    figure = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    FigureCanvasAgg(figure)
    panels = figure.subplots(2, 1, squeeze=False).ravel()
    delta = float(table["delta"].iloc[0])
    used = []
    for axes, (cell_of, panel_title) in zip(panels, (
            (_balance_cell, BALANCE_PANEL_TITLE),
            (_first_cell, "first player: 1st or 2nd ahead, its share"))):
        axes.set_xlim(-0.5, len(positions) - 0.5)
        axes.set_ylim(len(keys) - 0.5, -0.5)
        for row_index, (_, row) in enumerate(table.iterrows()):
            i, j = keys.index(series[row_index]), positions[row["axis"]]
            category, text = cell_of(row)
            used.append(category)
            axes.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, facecolor=SIDE_COLOURS.get(category, "#ffffff"),
                                     edgecolor="#bbbbbb", linewidth=0.5,
                                     hatch="///" if category == "handicap" else None))
            dark = category in ("seat0", "seat1", "first", "second")
            axes.text(j, i, text, ha="center", va="center", fontsize=8, color="white" if dark else "black",
                      linespacing=0.95)
        axes.set_yticks(range(len(keys)))
        axes.set_yticklabels([key + (" (mirror)" if mirrors.get(key) else "") for key in keys], fontsize=8)
        _axis(axes, positions, description)
        axes.set_title(panel_title, fontsize=10)
    handles = [Patch(facecolor=SIDE_COLOURS[c], edgecolor="#999999", hatch="///" if c == "handicap" else None,
                     label=SIDE_LABELS[c])
               for c in ("seat0", "seat1", "first", "second", BALANCED, UNDECIDED, "handicap") if c in used]
    if any(set_up_failed(row) for _, row in table.iterrows()):
        handles.append(Patch(facecolor="none", edgecolor="none", label=SET_UP_NOTE))
    figure.legend(handles=handles, loc="outside lower center", ncols=min(3, len(handles)), fontsize=8)
    figure.suptitle("%s (δ = %g; %s)" % (title, delta, decision_rule_short(table)), fontsize=11)
    return figure


def win_rates_vs_axis(tables: dict[str, pd.DataFrame], delta: float = DEFAULT_DELTA) -> Figure:
    """Per series: each seat's win rate and the draw rate vs the per-seat axis, with 95 % bands."""
    table, title, description = tables["win_rates"], titles(tables)["win_rates_vs_axis"], words(tables)["axis_description"]
    if table.empty:
        return _empty(title, "no cells in this run")
    positions = _axis_positions(table)
    keys = _ordered_keys(table)
    series = _series_key(table)
    figure, panels = _new_figure(len(keys), sharey=True)
    for axes, key in zip(panels, keys):
        part = table[(series == key).to_numpy()]
        x = part["axis"].map(positions)
        first = part.iloc[0]
        _prepare_axis(axes, positions)
        _fair_band(axes, 0.5, delta)
        _band(axes, x, part["seat0_win_rate"], part["seat0_win_rate_low"], part["seat0_win_rate_high"],
              "#377eb8", _seat_label(first["seat0_name"], 0))
        _band(axes, x, part["seat1_win_rate"], part["seat1_win_rate_low"], part["seat1_win_rate_high"],
              "#ff7f00", _seat_label(first["seat1_name"], 1), marker="s")
        _band(axes, x, part["draw_rate"], part["draw_rate_low"], part["draw_rate_high"], "#777777", "draws", marker="^")
        axes.set_ylim(0, 1)
        axes.set_title(key, fontsize=10)
        axes.set_ylabel("share of matches")
        _axis(axes, positions, description)
        axes.legend(fontsize=7, loc="best")
    figure.suptitle("%s (both first-player orders pooled; band: 95 %% Wilson; green: ½ ± %g)"
                    % (title, delta), fontsize=11)
    return figure


def win_rates_vs_derived(tables: dict[str, pd.DataFrame], delta: float = DEFAULT_DELTA) -> Figure | None:
    """Seat 1's win rate vs each derived axis (a panel each, x = the axis's values in order), one line per
    line × strategies × rules with its 95 % band; None when the run has no derived axis."""
    from analysis.tables import DERIVED_TABLE
    table = tables.get(DERIVED_TABLE)
    if table is None or table.empty:
        return None
    names = list(dict.fromkeys(table["derived_axis"]))
    figure, panels = _new_figure(len(names), ncols_max=2, sharey=True)
    for axes, name in zip(panels, names):
        part = table[table["derived_axis"] == name]
        several = part["variant"].nunique() > 1
        keys = part["line"] + (" · " + part["variant"] if several else "")
        _fair_band(axes, 0.5, delta)
        for colour, key in zip(_colours(keys.nunique()), dict.fromkeys(keys)):
            line = part[(keys == key).to_numpy()].sort_values("value")
            _band(axes, line["value"], line["seat1_win_rate"], line["seat1_win_rate_low"],
                  line["seat1_win_rate_high"], colour, key)
        values = sorted(set(part["value"]))
        axes.set_xticks(values)
        axes.set_xlim(min(values) - 0.5, max(values) + 0.5)
        axes.set_ylim(0, 1)
        axes.set_xlabel(str(part["description"].iloc[0]))
        axes.set_ylabel("seat 1's win rate (share of matches)")
        axes.set_title(name, fontsize=10)
        axes.legend(fontsize=7, loc="best")
    figure.suptitle("%s\n(both first players and the seat pairs of one value pooled; band: 95 %%; green: ½ ± %g)"
                    % (DERIVED_TITLE, delta), fontsize=10)
    return figure


def first_player_advantage(tables: dict[str, pd.DataFrame], delta: float = DEFAULT_DELTA) -> Figure:
    """P(first player wins | decided) − ½ vs the per-seat axis, one line per series."""
    table = tables["first_player_advantage"]
    title, description = titles(tables)["first_player_advantage"], words(tables)["axis_description"]
    if table.empty:
        return _empty(title, "no cells in this run")
    positions = _axis_positions(table)
    series = _series_key(table)
    figure, (axes,) = _new_figure(1)
    figure.set_size_inches(7.5, 4.2)
    _prepare_axis(axes, positions)
    _fair_band(axes, 0.0, 100 * delta)
    colours = _colours(len(_ordered_keys(table)))
    for colour, key in zip(colours, _ordered_keys(table)):
        part = table[(series == key).to_numpy()]
        _band(axes, part["axis"].map(positions), 100 * part["advantage"], 100 * part["advantage_low"],
              100 * part["advantage_high"], colour, key)
    axes.set_ylabel("first-player advantage (percentage points)")
    _axis(axes, positions, description)
    axes.legend(fontsize=8, loc="best")
    figure.suptitle("%s: P(first wins | decided) − ½, 95 %% band; green: ±%g pts"
                    % (title, 100 * delta), fontsize=11)
    return figure


def special_victories(tables: dict[str, pd.DataFrame]) -> Figure:
    """Per special end type: frequency (share of all matches) by series and winning seat (and its name)."""
    table, title, found = tables["special_victories"], titles(tables)["special_victories"], words(tables)
    if table.empty:
        return _empty(title, "this game declares no special victories"
                      if not len(tables["win_types"]) or not tables["win_types"]["special"].any()
                      else "no cells in this run")
    # an end type that never happened anywhere would be an empty panel: the title names it
    totals = table.groupby("end_type", sort=False)["count"].sum()
    never_anywhere = [end for end, total in totals.items() if total == 0]
    if len(never_anywhere) == len(totals):
        return _empty(title, special_victories_never(tables))
    table = table[~table["end_type"].isin(never_anywhere).to_numpy()]
    positions = _axis_positions(table)
    ends = list(dict.fromkeys(table["end_type"]))
    figure, panels = _new_figure(len(ends))
    series = (_series_key(table) + " · seat " + table["seat"].astype(str) + " " + table["seat_name"].astype(str)).str.rstrip()
    for axes, end in zip(panels, ends):
        _prepare_axis(axes, positions)
        part_end = table[(table["end_type"] == end).to_numpy()]
        # Only the series/seat lines where this victory happened at all; the
        # others are summarised in one line (their table rows keep the intervals).
        totals = part_end.groupby(series[part_end.index], sort=False)["count"].sum()
        keys = [key for key, total in totals.items() if total > 0]
        for colour, key in zip(_colours(len(keys)), keys):
            part = part_end[(series[part_end.index] == key).to_numpy()]
            _band(axes, part["axis"].map(positions), part["rate"], part["rate_low"], part["rate_high"], colour, key)
        never = len(totals) - len(keys)
        if never:
            upper = part_end.loc[part_end["count"] == 0, "rate_high"].max()
            axes.text(0.02, 0.97, "%s in %d of %d %s·seat series\n(95 %% upper bound per %s ≤ %.2g %%)"
                      % ("never" if not keys else "never observed", never, len(totals), found["series"],
                         found["axis"], 100 * upper),
                      transform=axes.transAxes, va="top", fontsize=7, color="#555555")
        if not keys:
            axes.set_ylim(0, max(float(part_end["rate_high"].max()), 1e-3))
        axes.set_ylim(bottom=0)
        axes.set_title(end, fontsize=10)
        axes.set_ylabel("share of matches")
        _axis(axes, positions, found["axis_description"])
        if keys:
            axes.legend(fontsize=6, loc="best")
    figure.suptitle("%s by %s and winning seat (95 %% band)%s" % (
        title, found["series"], "; never in this run: " + ", ".join(never_anywhere) if never_anywhere else ""),
        fontsize=11)
    return figure


def special_victories_never(tables: dict[str, pd.DataFrame]) -> str | None:
    """The sentence that replaces the special-victory figure of a run in which no match ended in
    one (its panels would be empty and its table all zeros), or None when one did."""
    table, found = tables["special_victories"], words(tables)
    if table.empty or table["count"].sum() > 0:
        return None
    matches = int(tables["win_types"]["count"].sum()) if len(tables["win_types"]) else 0
    return ("No match of this run ended in a special victory (%s): 0 of %d matches; the 95 %% upper bound is "
            "%.2g %% of the matches of each %s, winning seat and %s."
            % (", ".join(dict.fromkeys(table["end_type"])), matches, 100 * float(table["rate_high"].max()),
               found["series"], found["axis"]))


def win_types(tables: dict[str, pd.DataFrame]) -> Figure:
    """Per series: stacked shares of (winner, end type) across the per-seat axis."""
    table, title, found = tables["win_types"], titles(tables)["win_types"], words(tables)
    if table.empty or table["count"].sum() == 0:
        return _empty(title, "no matches in this run")
    positions = _axis_positions(table)
    present = table.groupby(["outcome", "end_type"], sort=False)["count"].sum()
    present = [index for index, total in present.items() if total > 0]
    keys = _ordered_keys(table)
    series = _series_key(table)
    palette = {"seat0": _shades("Blues", present, "seat0"), "seat1": _shades("Oranges", present, "seat1"),
               "draw": _shades("Greys", present, "draw")}
    figure, panels = _new_figure(len(keys), sharey=True)
    for axes, key in zip(panels, keys):
        part = table[(series == key).to_numpy()]
        bottom = np.zeros(len(positions))
        for outcome, end in present:
            rows = part[(part["outcome"] == outcome).to_numpy() & (part["end_type"] == end).to_numpy()]
            heights = np.zeros(len(positions))
            heights[rows["axis"].map(positions).to_numpy()] = rows["rate"].fillna(0).to_numpy()
            label = {"seat0": "seat 0 wins: ", "seat1": "seat 1 wins: ", "draw": "draw: "}[outcome] + end
            axes.bar(range(len(positions)), heights, bottom=bottom, color=palette[outcome][end], label=label,
                     width=0.8, edgecolor="white", linewidth=0.4)
            bottom += heights
        axes.set_ylim(0, 1)
        axes.set_title(key, fontsize=10)
        axes.set_ylabel("share of matches")
        _axis(axes, positions, found["axis_description"])
    handles, labels = panels[0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="outside lower center", ncols=min(4, len(labels)), fontsize=7)
    figure.suptitle("%s per %s and %s" % (title, found["series"], found["axis_description"]), fontsize=11)
    return figure


def match_lengths(tables: dict[str, pd.DataFrame]) -> Figure:
    """Per series: the match-length histogram (share of matches per turn count), one line per axis value."""
    table, title, found = tables["length_histogram"], titles(tables)["match_lengths"], words(tables)
    if table.empty:
        return _empty(title, "no match lengths recorded in this run")
    positions = _axis_positions(table)
    keys = _ordered_keys(table)
    series = _series_key(table)
    colours = dict(zip(positions, _colours(len(positions), "viridis")))
    figure, panels = _new_figure(len(keys), sharey=True)
    overflow_at = None
    rest_top, spike_top = 0.0, 0.0  # the tallest bin that is no lone spike, and the tallest spike
    labels = []  # (axes, spike, key): labelled once the y scale is known
    for axes, key in zip(panels, keys):
        part = table[(series == key).to_numpy()]
        best = None  # the tallest lone spike of the panel: (turn, share, axis value)
        for value in positions:
            rows = part[(part["axis"] == value).to_numpy()].sort_values("turns")
            if rows.empty:
                continue
            # lengths.parquet keeps non-zero bins only: put the zeros back so gaps show as gaps
            turns = np.arange(int(rows["turns"].min()), int(rows["turns"].max()) + 1)
            shares = pd.Series(rows["share"].to_numpy(), index=rows["turns"].to_numpy()).reindex(turns, fill_value=0.0)
            axes.step(turns, shares.to_numpy(), where="mid", color=colours[value], label=value, linewidth=1.2)
            spike = _spike(shares)
            if spike is not None and (best is None or spike[1] > best[1]):
                best = (spike[0], spike[1], value)
            rest = shares.drop(spike[0]) if spike is not None else shares
            rest_top = max(rest_top, float(rest.max()) if len(rest) else 0.0)
            spike_top = max(spike_top, spike[1] if spike is not None else 0.0)
            if rows["overflow"].any():
                overflow_at = int(rows.loc[rows["overflow"], "turns"].iloc[0])
        if best is not None:
            labels.append((axes, best, key))
        if overflow_at is not None:
            axes.axvline(overflow_at, color="red", linewidth=0.6, linestyle=":")
        axes.set_title(key, fontsize=10)
        axes.set_xlabel("turns")
        axes.set_ylabel("share of matches")
    # a spike (every match ending on the turn a deck runs out) would flatten the rest of the
    # distribution to a line at zero: the y scale fits the rest, the spike is cut at the top and its
    # label gives its height
    cut = spike_top > 2 * rest_top > 0
    top = 1.3 * rest_top if cut else None
    if cut:
        panels[0].set_ylim(0, top)
    for axes, spike, key in labels:
        _label_spike(axes, spike, _end_shares(tables.get("win_types"), key, spike[2]), found["axis"], top)
    handles, names = panels[0].get_legend_handles_labels()  # one colour per axis value in every panel
    if handles:
        figure.legend(handles, names, title=found["axis"], loc="outside lower center", ncols=min(len(names), 12),
                      fontsize=7, title_fontsize=8)
    note = "" if overflow_at is None else " (red dotted: overflow bin, %d turns or more)" % overflow_at
    note += " (y axis fits the rest; spikes cut at the top, height labelled)" if cut else ""
    figure.suptitle(title + note, fontsize=11)
    return figure


def _spike(shares: pd.Series):
    """(turn, share) of a bin at least twice its neighbours' median and 3 % of matches, or None:
    many matches ending on one turn, e.g. the turn a deck runs out."""
    values = shares.to_numpy()
    best = None
    for i, value in enumerate(values):
        around = np.concatenate([values[max(0, i - 3):i], values[i + 1:i + 4]])
        if value >= 0.03 and len(around) and value > 2 * max(float(np.median(around)), 1e-9):
            if best is None or value > best[1]:
                best = (int(shares.index[i]), float(value))
    return best


def _end_shares(win_types: pd.DataFrame | None, key: str, value: str) -> str:
    """'deck_out 16.8 %': the share of that series and axis value's matches that ended in
    some other way than the run's usual one (its most frequent end type) or not at all."""
    if win_types is None or win_types.empty:
        return ""
    usual = win_types.groupby("end_type")["rate"].sum().idxmax()
    part = win_types[(_series_key(win_types) == key).to_numpy() & (win_types["axis"] == value).to_numpy()]
    part = part[~part["end_type"].isin((usual, "none"))]
    shares = part.groupby("end_type", sort=False)["rate"].sum()
    return ", ".join("%s %.1f %%" % (end, 100 * share) for end, share in shares.items() if share >= 0.01)


def _label_spike(axes, spike, ends: str, axis_word: str, top: float | None = None) -> None:
    """The spike's turn and height beside it; with `top` (the y limit) a taller spike is cut there
    and its label points at the cut."""
    turn, share, value = spike
    text = "turn %d: %.1f %% of\n%s %s matches" % (turn, 100 * share, axis_word, value)
    if ends:
        text += "\n(all its matches: %s)" % ends
    height = share if top is None else min(share, 0.97 * top)
    axes.annotate(text, xy=(turn, height), xytext=(-6, 0), textcoords="offset points", ha="right", va="center",
                  fontsize=6.5, color="#333333", bbox={"facecolor": "white", "edgecolor": "#bbbbbb", "linewidth": 0.5,
                                                       "alpha": 0.9, "boxstyle": "round,pad=0.2"})


def _seat_label(name: str, seat: int) -> str:
    return ("%s (seat %d) wins" % (name, seat)) if name else "seat %d wins" % seat


# ---- colours ----------------------------------------------------------------------------------

def _colours(n: int, name: str = "tab10"):
    from matplotlib import colormaps
    colour_map = colormaps[name]
    if name == "tab10":
        return [colour_map(i % 10) for i in range(max(n, 1))]
    return [colour_map(x) for x in np.linspace(0.0, 0.9, max(n, 1))]


def _shades(name: str, present, outcome: str) -> dict:
    from matplotlib import colormaps
    ends = [end for o, end in present if o == outcome]
    values = np.linspace(0.75, 0.35, max(len(ends), 1))
    return {end: colormaps[name](value) for end, value in zip(ends, values)}


# ---- writing -------------------------------------------------------------------------------------

def build_figures(tables: dict[str, pd.DataFrame], delta: float = DEFAULT_DELTA) -> dict[str, Figure]:
    """Every figure (`FIGURES` but the special victories' of a run without one, which a sentence
    says; and `DERIVED_FIGURE` for a run with derived axes). The heatmap's rows
    follow the skill levels weakest first when the verdict table carries them (`attrs["skill_order"]`,
    set by reports.build_report)."""
    figures = {
        "verdict_heatmap": verdict_heatmap(tables, tables["verdicts"].attrs.get("skill_order")),
        "win_rates_vs_axis": win_rates_vs_axis(tables, delta),
        "first_player_advantage": first_player_advantage(tables, delta),
        **({} if special_victories_never(tables) else {"special_victories": special_victories(tables)}),
        "win_types": win_types(tables),
        "match_lengths": match_lengths(tables),
    }
    derived = win_rates_vs_derived(tables, delta)
    if derived is not None:
        figures[DERIVED_FIGURE] = derived
    return figures


def write_figures(tables: dict[str, pd.DataFrame], folder, delta: float = DEFAULT_DELTA) -> dict[str, Path]:
    """Save every figure as `<folder>/<name>.png`.

    CardbalanceError when the folder cannot be created (a bad path); an
    OSError while writing (a full disk) is the environment's and propagates,
    naming the file (the CLI's exit code 74).
    """
    from sim.safe_output import naming
    folder = Path(folder)
    paths = {}
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise CardbalanceError("cannot write the figures to '%s' (%s); choose a writable folder with --out."
                               % (folder, error.strerror or error)) from None
    for name, figure in build_figures(tables, delta).items():
        path = folder / (name + ".png")
        try:
            figure.savefig(path, format="png", dpi=DPI)
        except OSError as error:
            raise naming(error, path) from None
        paths[name] = path
    return paths
