"""The Markdown summary of `cardbalance compare`, for a CI job summary or a PR comment.

It reads only the comparison result (`sim.compare.runner.result_json`), never
simulates. It leads with the verdict and the gates (what a reviewer needs),
then the design (paired or unpaired, matches, why sampling stopped), then the
balance tables: seat 0's win rate per series and per-seat value, first-player
advantage, draws, match length, special victories. Rates are shown in
percent and their differences in percentage points; each delta carries its
95 % interval, and in a paired comparison the half-width an unpaired design
would have had on the same matches, so the gain of common random numbers is
visible. GitHub renders pipe tables and collapsible `<details>` blocks; both
degrade to readable text elsewhere. Every user string (rules sources, the
baseline and sweep paths, rules values, gate expressions) goes through
`reports.markdown_text`, so no name can end its code span or inject HTML.
"""

from __future__ import annotations

import math

from analysis.decisions import identical_limit
from reports.markdown_text import code, link_target, text

VERDICT_TITLES = {0: "PASS", 1: "FAIL", 3: "INCONCLUSIVE"}
# The headline of a paired run whose every pair ended alike (runner.CompareResult.changed_no_match):
# whatever the reason, the reader learns first that the tweak did nothing on these matches.
NO_MATCH_CHANGED = "the tweak changed no match"
GATE_MARKS = {"pass": "pass", "fail": "**FAIL**", "inconclusive": "*inconclusive*"}


def _flatten(values: dict, prefix: str = "") -> dict:
    out = {}
    for key, value in (values or {}).items():
        if isinstance(value, dict):
            out.update(_flatten(value, ""))
        else:
            out[prefix + key] = value
    return out


def rules_changes(base: dict, tweak: dict) -> list[str]:
    """`key: base → tweak` for every rules value that differs between the arms."""
    a, b = _flatten(base.get("values", {})), _flatten(tweak.get("values", {}))
    changes = []
    for key in list(a) + [k for k in b if k not in a]:
        if a.get(key) != b.get(key):
            changes.append("%s: %s → %s" % (key, _plain(a.get(key)), _plain(b.get(key))))
    return changes


def _plain(value) -> str:
    if isinstance(value, list):
        return "[%s]" % ", ".join(str(v) for v in value)
    return "–" if value is None else str(value)


def _is_rate(row) -> bool:
    return row["kind"] == "rate"


def _value(row, key: str) -> str:
    value = row[key]
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return "%.1f %%" % (100 * value) if _is_rate(row) else "%.2f" % value


def _interval(row, low_key: str, high_key: str) -> str:
    low, high = row[low_key], row[high_key]
    if low is None or high is None:
        return "–"
    if _is_rate(row):
        digits = 2 if high < 0.01 else 1  # rare events: 0.0 % [0.0, 0.02] rather than [0.0, 0.0]
        return "[%.*f, %.*f]" % (digits, 100 * low, digits, 100 * high)
    return "[%.2f, %.2f]" % (low, high)


def _delta(row) -> str:
    if _is_rate(row):
        text = "%+.2f pts" % (100 * row["delta"])
    else:
        text = "%+.3f" % row["delta"]
    return "%s %s" % (text, _interval_delta(row, "delta_low", "delta_high"))


def _interval_delta(row, low_key, high_key) -> str:
    low, high = row[low_key], row[high_key]
    if low is None or high is None:
        return ""
    if _is_rate(row):
        return "[%+.2f, %+.2f]" % (100 * low, 100 * high)
    return "[%+.3f, %+.3f]" % (low, high)


def _half(row, low_key, high_key) -> str:
    low, high = row[low_key], row[high_key]
    if low is None or high is None:
        return "–"
    half = (high - low) / 2
    return "±%.2f pts" % (100 * half) if _is_rate(row) else "±%.3f" % half


def _table(rows, first_column: str, first_key: str, paired: bool) -> list[str]:
    header = [first_column, "base [95 % CI]", "tweak [95 % CI]", "Δ tweak − base [95 % CI]"]
    if paired:
        header += ["paired ±", "unpaired ±"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in rows:
        cells = [text(row[first_key]) if first_key != "metric" else code(row["metric"], in_table=True),
                 "%s %s" % (_value(row, "base"), _interval(row, "base_low", "base_high")),
                 "%s %s" % (_value(row, "tweak"), _interval(row, "tweak_low", "tweak_high")),
                 _delta(row)]
        if paired:
            cells += [_half(row, "delta_low", "delta_high"), _half(row, "unpaired_low", "unpaired_high")]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def render(data: dict, figures: dict | None = None) -> str:
    """Markdown text of a comparison (`data` = sim.compare.runner.result_json(...))."""
    rows = data["metrics"]
    by_scope: dict[str, dict[str, dict]] = {}
    for row in rows:
        by_scope.setdefault(row["scope"], {})[row["metric"]] = row
    paired = bool(data["paired"])
    has_gates = bool(data["gates"])
    title = VERDICT_TITLES.get(data["exit_code"], "?") if has_gates else "report only (no gate)"
    base, tweak = data["base"] or {}, data["tweak"] or {}
    if data.get("changed_no_match"):
        title = NO_MATCH_CHANGED + (" (%s)" % title if has_gates else "")
    lines = ["## Balance comparison: %s" % title, ""]
    if data.get("changed_no_match"):
        lines += ["Every one of the %s paired matches ended with the same winner, end type and length under "
                  "BASE and TWEAK: exact for these matches; %s (rule of three, tests/test_calibration_gate_sides.py)."
                  % (_count(data["total_matches"]), identical_limit(int(data["total_matches"]))), ""]
    base_name = "baseline " + code(data["baseline_file"]) if data["mode"] == "baseline" else code(base.get("source"))
    lines.append("**BASE** %s (rules hash %s) vs **TWEAK** %s (rules hash %s) — game %s, behaviour version %s."
                 % (base_name, code(base.get("hash")), code(tweak.get("source")), code(tweak.get("hash")),
                    code(data["game"]), text(data["behaviour_version"])))
    lines.append("")
    changes = rules_changes(base, tweak) if tweak else []
    if tweak:
        lines.append("TWEAK changes: " + ("; ".join(code(c) for c in changes) if changes else
                                          "nothing (identical rules: every paired delta is exactly 0)") + ".")
        lines.append("")
    for note in data.get("notes") or ():
        lines += ["Note: " + note, ""]
    if data["mode"] == "paired":
        design = ("Paired design (common random numbers): match *i* of BASE and match *i* of TWEAK start from the "
                  "same shuffled decks, seats and generator state.")
    elif data["mode"] == "baseline":
        design = ("**Unpaired** comparison against a stored baseline: the snapshot keeps no match-level pairing, so "
                  "each delta's interval is the unpaired one (wider than a paired run of both rule sets).")
    else:
        design = "Single arm (BASE only)."
    lines.append(design)
    n_cells = len(data["grid"])
    lines.append("")
    lines.append("Matches: %s per cell × %d cells = %s per arm, in %d round(s) of up to %s (min %s, max %s per cell); "
                 "stopped: %s. Table intervals: %g %% (fixed-sample, descriptive; the gates use their own "
                 "sequential bounds)."
                 % (_count(data["matches_per_cell"]), n_cells, _count(data["total_matches"]), data["rounds"],
                    _count(data["batch"]), _count(data["min_matches"]), _count(data["max_matches"]),
                    data["stop_reason"], 100 * data["confidence"]))
    lines.append("")
    if has_gates:
        lines += ["### Gates", "", "| result | expression | detail |", "|---|---|---|"]
        for result in data["gates"]:
            detail = "<br>".join(text(part["message"]) for part in result["comparisons"])
            lines.append("| %s | %s | %s |" % (GATE_MARKS[result["verdict"]], code(result["expression"], in_table=True),
                                               detail))
        lines.append("")
        lines.append("Decisions: %s Each comparison is decided once, by group-sequential bounds that keep its "
                     "error at %g %% whatever round it is decided at (docs/ci-gate.md)."
                     % (data.get("gate_family", ""), 100 * (1 - data["confidence"])))
        lines.append("")
        if data["exit_code"] == 3:
            lines.append("An inconclusive gate is not a pass: its interval still straddles the threshold at "
                         "--max-matches. Raise --max-matches or accept the uncertainty explicitly.")
            lines.append("")
    # scopes come in grid order: all, then each series and its per-seat values (analysis/paired.py)
    series = [scope for scope in by_scope if scope != "all" and "@" not in scope]
    axis_scopes = [scope for scope in by_scope if "@" in scope and ":" not in scope]
    # With one per-seat value per series the series rows would repeat the per-value rows.
    one_value = len({scope.split("@", 1)[1] for scope in axis_scopes}) <= 1
    lines += ["### Seat 0's win rate per series and per-seat value", "",
              "`win_rate`: seat 0 wins (in a game with named sides: the first side of the series name), over **all** matches — a draw "
              "counts as not won, so more draws lower it (draws are in the whole-grid table below; the sweep "
              "report's *seat0 share* is over decided matches instead). Both first-player orders pooled.", ""]
    win_scopes = (axis_scopes if one_value else series + axis_scopes) or series
    win_rows = [dict(by_scope[scope]["win_rate"], scope=scope) for scope in win_scopes
                if "win_rate" in by_scope.get(scope, {})]
    lines += _table(win_rows, "scope", "scope", paired) + [""]
    lines += ["### First-player win rate", "",
              "`first_player_win_rate`: share of all matches won by the player who moved first (0.5 = no "
              "advantage only when nothing is drawn).", ""]
    fpa_rows = [dict(by_scope[scope]["first_player_win_rate"], scope=scope) for scope in ["all"] + series]
    lines += _table(fpa_rows, "scope", "scope", paired) + [""]
    lines += ["### Whole grid (`all`)", ""]
    all_rows = list(by_scope["all"].values())
    lines += _table([r for r in all_rows if r["metric"] not in ("win_rate", "seat1_win_rate", "first_player_win_rate")],
                    "metric", "metric", paired) + [""]
    lines += ["<details><summary>Every scope and metric</summary>", ""]
    lines += _table([dict(r, name="%s.%s" % (r["scope"], r["metric"])) for r in rows], "field", "name", paired)
    lines += ["", "</details>", ""]
    if figures:
        lines += ["### Figures (BASE | TWEAK)", "",
                  "The sweep report's figures of each arm, drawn from the same matches as above "
                  "(also joined into one image per figure under `side_by_side/`).", "",
                  "| figure | BASE | TWEAK |", "|---|---|---|"]
        for name, (base_path, tweak_path) in figures.items():
            lines.append("| %s | ![%s base](%s) | ![%s tweak](%s) |" % (
                text(name), text(name), link_target(base_path), text(name), link_target(tweak_path)))
        lines.append("")
    lines.append("<sub>cardbalance compare · seed %s · grid %s · %s s</sub>" % (
        text(data["seed"]), text(data["grid_source"]), text(data["seconds"])))
    return "\n".join(lines) + "\n"


def _count(value) -> str:
    return "{:,}".format(int(value))
