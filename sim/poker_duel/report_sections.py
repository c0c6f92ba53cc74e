"""Poker Duel's own report sections: the balance questions of the reference's §17.

Declared in `game.py` (`extra["report_sections"]`) and called by the shared
report (analysis/game_sections.py) with the run, the shared tables and a kit
of statistics, so this module imports nothing above the game's package.

Sections (each a table, most a figure, and lines for the terminal summary):
1. first-player advantage by starting HP, per rule set (§17 Q1, Q2): terminal lines only, as the
   shared report's first-player section already shows it on the page;
2. how matches end — life, deck-out, straight flush — by the winner's seat
   order (first / second player) and turn (§17 Q2, Q5);
3. straight-flush frequency and how much it decides matches with the
   advanced module on (§17 Q4), by turn;
4. the club multiplier's effect (D-AMB-01, §17 Q3), where a run varies it;
5. sensitivity of the headline numbers to the low-confidence switches the
   reference names (§17 Q11), each switch's effect with its interval, or
   "not varied" with the `[vary]` line that would measure it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.poker_duel import rules as pd_rules

# §17 Q11: "re-run the headline metrics under the alternative settings of ..."; D-AMB-01
# (the lost club digit, §0.2) heads the list: the reference says it must be swept.
LOW_CONFIDENCE = ("club_multiplier", "D-AMB-24", "D-AMB-38", "D-AMB-42", "D-AMB-46", "D-AMB-51", "D-AMB-52",
                  "D-AMB-62")
ENDS = ("life", "deck_out", "straight_flush")  # the ways a match is won (§13)
SF_TURNS = (5, 8, 10, 12, 15, 20)  # §17 Q4's table columns (match turns here, both players' turns counted)


def _describe(key: str) -> str:
    if key == "club_multiplier":
        return "club_multiplier (D-AMB-01)"
    return "%s %s" % (key, pd_rules.AMBIGUITIES[key][0])


def _default(key: str):
    base = pd_rules.Rules()
    return base.club_multiplier if key == "club_multiplier" else base.reading(key)


def _straight_flush_on(entry: dict) -> bool:
    try:
        return pd_rules.rules_from_mapping(dict(entry.get("values") or {}), "run rules").straight_flush_on
    except Exception:  # rules of an older version: judge by the module flag
        return bool((entry.get("values") or {}).get("advanced_rules"))


def _frame(run, rows: pd.DataFrame | None = None) -> pd.DataFrame:
    """The results (or `rows` of the same columns, e.g. the run's chunks) with the derived columns."""
    frame = (run.results if rows is None else rows).copy()
    frame["decided"] = frame["matches"] - frame[["draw_%s" % end for end in run.end_types]].sum(axis=1)
    frame["hp"] = ["%d" % a if a == b else "%d/%d" % (a, b) for a, b in zip(frame["axis0"], frame["axis1"])]
    frame["pair"] = frame["strategy0"] + ":" + frame["strategy1"]
    entries = run.meta.get("rules") or {}
    frame["preset"] = frame["rules"].map(lambda name: (entries.get(name) or {}).get("base") or name)
    for end in ENDS:  # wins of this end type by the first / the second player
        first0 = frame["first"] == 0
        frame["first_%s" % end] = np.where(first0, frame.get("seat0_%s" % end, 0), frame.get("seat1_%s" % end, 0))
        frame["second_%s" % end] = np.where(first0, frame.get("seat1_%s" % end, 0), frame.get("seat0_%s" % end, 0))
    return frame


def _variant_label(frame: pd.DataFrame) -> pd.Series:
    several = frame["pair"].nunique() > 1
    return frame["rules"] + ((" " + frame["pair"]) if several else "")


# ---- 1. first-player advantage by HP ----------------------------------------------------

def _first_player(run, tables, kit):
    adv = tables["first_player_advantage"]
    several = adv["strategy0"].str.cat(adv["strategy1"], sep=":").nunique() > 1
    rows = []
    for _, row in adv.iterrows():
        rows.append({"rules": row["rules"] + (" " + row["strategy0"] + ":" + row["strategy1"] if several else ""),
                     "starting HP": row["axis"], "decided": int(row["decisive"]),
                     "first-player share": "%.1f%%" % (100 * row["first_share"]) if row["first_share"] == row["first_share"] else "-",
                     "advantage [95% CI]": kit.points(row["advantage"], row["advantage_low"], row["advantage_high"]),
                     "shown": "first" if row["advantage_low"] > 0 else "second" if row["advantage_high"] < 0 else "-"})
    table = pd.DataFrame(rows)
    lines = []
    frame = _frame(run)
    for preset, part in frame.groupby("preset", sort=False):  # the summary pools a preset's [vary] variants
        cells = []
        for hp, at in part.groupby("hp", sort=False):
            k, n = int(at["first_player_wins"].sum()), int(at["decided"].sum())
            low, high = kit.wilson(k, n) if n else (float("nan"), float("nan"))
            cells.append("HP %s %s" % (hp, kit.points(k / n - 0.5, low - 0.5, high - 0.5) if n else "-"))
        lines.append("First-player advantage, %s%s: %s." % (
            preset, " (its %d variants pooled)" % part["rules"].nunique() if part["rules"].nunique() > 1 else "",
            "; ".join(cells)))

    # The page's one first-player section is the shared report's (figure and table, handicaps
    # apart from the equal-HP trend); this one adds the terminal lines, pooled per preset.
    return kit.Section("pd_first_player", "First-player advantage by starting HP",
                       "P(first player wins | decided) − ½ for each rule set and starting HP, both first-player "
                       "orders pooled, with 95 % intervals (§17 Q1: the first player draws 1 and may not battle on "
                       "turn 1, but wins pure deck-out stalls). 'shown': the side favoured beyond the interval.",
                       table, None, lines, page=False)


# ---- 2. how matches end, by seat order and turn ----------------------------------------------

def _end_turns(run) -> pd.DataFrame | None:
    """end_lengths joined to cells: rules, pair, hp, role (first / second / draw), end_type, turns, count."""
    if run.end_lengths is None or not len(run.end_lengths):
        return None
    cells = _frame(run)[["cell", "rules", "pair", "hp", "first"]]
    joined = run.end_lengths.merge(cells, on="cell")
    role = np.where(joined["outcome"] == 2, "draw", np.where(joined["outcome"] == joined["first"], "first", "second"))
    return joined.assign(role=role)


def _quantile(turns: np.ndarray, counts: np.ndarray, q: float) -> float:
    cumulative = np.cumsum(counts)
    return float(turns[np.searchsorted(cumulative, q * cumulative[-1])])


def _endings(run, tables, kit):
    frame = _frame(run)
    frame["label"] = _variant_label(frame)
    turns = _end_turns(run)
    if turns is not None:
        turns["label"] = turns["rules"] + ((" " + turns["pair"]) if frame["pair"].nunique() > 1 else "")
    rows, lines = [], []
    for (label, hp), part in frame.groupby(["label", "hp"], sort=False):
        n = int(part["matches"].sum())
        for end in ENDS:
            for role in ("first", "second"):
                k = int(part["%s_%s" % (role, end)].sum())
                if k == 0 and end == "straight_flush":
                    continue
                row = {"rules": label, "starting HP": hp, "end": end, "winner": role + " player",
                       "share of matches [95% CI]": kit.percent(k, n), "matches": k}
                if turns is not None:
                    t = turns[(turns["label"] == label) & (turns["hp"] == hp) & (turns["end_type"] == end)
                              & (turns["role"] == role)].groupby("turns")["count"].sum()
                    if len(t):
                        x, c = t.index.to_numpy(), t.to_numpy()
                        row.update({"mean turn": "%.1f" % (np.dot(x, c) / c.sum()),
                                    "turn quartiles": "%d / %d / %d" % tuple(_quantile(x, c, q) for q in (0.25, 0.5, 0.75))})
                rows.append(row)
        draws = int(part[["draw_%s" % end for end in run.end_types]].sum().sum())
        if draws:
            rows.append({"rules": label, "starting HP": hp, "end": "draw (any)", "winner": "-",
                         "share of matches [95% CI]": kit.percent(draws, n), "matches": draws})
    table = pd.DataFrame(rows)
    for preset, part in frame.groupby("preset", sort=False):
        n = int(part["matches"].sum())
        shares = ["%s %.1f%% (first player %.1f%%, second %.1f%%)" % (
            end, 100 * (part["first_%s" % end].sum() + part["second_%s" % end].sum()) / max(n, 1),
            100 * part["first_%s" % end].sum() / max(n, 1), 100 * part["second_%s" % end].sum() / max(n, 1))
            for end in ENDS]
        mean = turns[turns["rules"].isin(set(part["rules"]))] if turns is not None else None
        when = ""
        if mean is not None and len(mean):
            by_end = mean.groupby("end_type").apply(lambda t: (t["turns"] * t["count"]).sum() / t["count"].sum())
            when = "; mean turn: %s" % ", ".join("%s %.1f" % (end, by_end[end]) for end in ENDS if end in by_end)
        lines.append("How matches end, %s (all HP): %s%s." % (preset, ", ".join(shares), when))

    def figure():
        from matplotlib.figure import Figure
        labels = list(dict.fromkeys(turns["label"]))
        fig = Figure(figsize=(4.2 * max(len(labels), 1), 3.6), dpi=100, layout="constrained")
        grid = np.atleast_1d(fig.subplots(1, len(labels), squeeze=False)[0])
        for axes, label in zip(grid, labels):
            part = turns[turns["label"] == label]
            total = frame.loc[frame["label"] == label, "matches"].sum()
            for end, colour in zip(ENDS, ("#1f77b4", "#d62728", "#2ca02c")):  # one colour per end type
                for role, style in (("first", "-"), ("second", "--")):
                    t = part[(part["end_type"] == end) & (part["role"] == role)].groupby("turns")["count"].sum()
                    if len(t):
                        axes.step(t.index, 100 * t.cumsum() / total, style, where="post", color=colour,
                                  label="%s, %s player" % (end, role))
            axes.set_title(label, fontsize=9)
            axes.set_xlabel("turn the match ended")
            axes.set_ylabel("cumulative share of matches (%)")
            axes.legend(fontsize="x-small")
        return fig

    return kit.Section("pd_endings", "How matches end, by seat order and turn",
                       "Share of matches won by life (HP to 0), deck-out and the straight flush, by the winner's seat "
                       "order (first / second player) and starting HP, with 95 % Wilson intervals; the turn each "
                       "ending came (mean and quartiles; turns of both players counted). The figure: cumulative share "
                       "of all matches ended so far, by end type and winner.",
                       table, figure if turns is not None else None, lines)


# ---- 3. the straight flush -------------------------------------------------------------------

def _straight_flush(run, tables, kit):
    frame = _frame(run)
    on = {name: _straight_flush_on(entry) for name, entry in (run.meta.get("rules") or {}).items()}
    frame = frame[frame["rules"].map(lambda name: on.get(name, False))]
    if not len(frame):
        return kit.Section("pd_straight_flush", "Straight flush (advanced module)",
                           "No rule set of this run plays the straight-flush win (advanced module off, D-AMB-48).",
                           None, None, ["Straight flush: not in play in this run (advanced module off)."])
    frame["label"] = _variant_label(frame)
    turns = _end_turns(run)
    rows, lines = [], []
    for (label, hp), part in frame.groupby(["label", "hp"], sort=False):
        n, decided = int(part["matches"].sum()), int(part["decided"].sum())
        first, second = int(part["first_straight_flush"].sum()), int(part["second_straight_flush"].sum())
        row = {"rules": label, "starting HP": hp, "matches": n,
               "straight-flush wins [95% CI]": kit.percent(first + second, n),
               "by first player": kit.percent(first, n), "by second player": kit.percent(second, n),
               "share of decided matches": kit.percent(first + second, decided)}
        if turns is not None:
            t = turns[(turns["rules"] == part["rules"].iloc[0]) & (turns["hp"] == hp)
                      & (turns["end_type"] == "straight_flush")].groupby("turns")["count"].sum()
            for limit in SF_TURNS:
                row["by turn %d" % limit] = "%.1f%%" % (100 * t[t.index <= limit].sum() / max(n, 1))
        rows.append(row)
    for preset, part in frame.groupby("preset", sort=False):
        n, decided = int(part["matches"].sum()), int(part["decided"].sum())
        k = int(part["first_straight_flush"].sum() + part["second_straight_flush"].sum())
        early = ""
        if turns is not None:
            t = turns[turns["rules"].isin(set(part["rules"])) & (turns["end_type"] == "straight_flush")]
            early = "; %.1f%% of matches by turn 2" % (100 * t.loc[t["turns"] <= 2, "count"].sum() / max(n, 1))
        lines.append("Straight flush, %s (all HP): %s of matches, %s of decided matches%s." % (
            preset, kit.percent(k, n), kit.percent(k, decided), early))
    return kit.Section("pd_straight_flush", "Straight flush: how often, and how much it decides (advanced module)",
                       "For the rule sets that play the straight-flush win (D-SF-1, D-WIN-3; on with the advanced "
                       "module, D-AMB-48): share of all matches it ended, by first and second player, its share of "
                       "decided matches (how decisive it is), and the share of matches ended by a straight flush by "
                       "match turn T (§17 Q4's turns; that estimate counts a lone hunter's own turns, with no HP pressure).",
                       pd.DataFrame(rows), None, lines)


# ---- 4 and 5. one rule value's effect (club multiplier, low-confidence switches) -------------

def _pooled(frame: pd.DataFrame, end_types) -> dict:
    return {"matches": int(frame["matches"].sum()), "decided": int(frame["decided"].sum()),
            "first_wins": int(frame["first_player_wins"].sum()),
            "seat0_wins": int(frame[["seat0_%s" % end for end in end_types]].sum().sum()),
            "sf": int(frame["first_straight_flush"].sum() + frame["second_straight_flush"].sum()),
            "deck_out": int(frame["first_deck_out"].sum() + frame["second_deck_out"].sum()),
            "turns": float(frame["turns_sum"].sum()) / max(int(frame["matches"].sum()), 1)}


def _with_totals(frame: pd.DataFrame, end_types) -> pd.DataFrame:
    """Per-row sums `_pooled` takes over a whole arm, kept per row (chunk) for clustering."""
    frame = frame.copy()
    frame["seat0_wins"] = frame[["seat0_%s" % end for end in end_types]].sum(axis=1)
    frame["sf"] = frame["first_straight_flush"] + frame["second_straight_flush"]
    frame["deck_out"] = frame["first_deck_out"] + frame["second_deck_out"]
    return frame


METRICS = 4  # tests per effect row: first-player share, seat-0 share, straight-flush wins, deck-out wins


def _effects(run, kit, key: str):
    """Rows: the main effect of `key` (baseline value -> other value) on the headline numbers. Every two
    rules of the run that differ in `key` only form a pair; pairs of the same preset (a `[vary]` variant's
    base) and strategy pair are pooled — the other varied values balanced in both arms — all starting HP
    pooled (the same cells in both arms). Each row keeps its tests' p-values for the family correction."""
    frame = _frame(run)
    chunks = kit.chunk_frame(run)  # per (cell, chunk): intervals clustered by deal (analysis/vary_effects.py)
    chunks = _frame(run, chunks) if chunks is not None else None
    groups: dict = {}
    for base, other, base_value, other_value in kit.one_key_pairs(run.meta, key, _default(key)):
        preset = frame.loc[frame["rules"] == base, "preset"]
        groups.setdefault((preset.iloc[0] if len(preset) else base, base_value, other_value), []).append((base, other))
    rows = []
    for (preset, base_value, other_value), pairs in groups.items():
        for pair, part in frame.groupby("pair", sort=False):
            a = _pooled(part[part["rules"].isin([x for x, _ in pairs])], run.end_types)
            b = _pooled(part[part["rules"].isin([y for _, y in pairs])], run.end_types)
            if chunks is not None:
                mine = chunks[chunks["pair"] == pair]
                arm_a = _with_totals(mine[mine["rules"].isin([x for x, _ in pairs])], run.end_types)
                arm_b = _with_totals(mine[mine["rules"].isin([y for _, y in pairs])], run.end_types)
                tests = tuple(kit.clustered_test(arm_a, arm_b, k, n) for k, n in (
                    ("first_player_wins", "decided"), ("seat0_wins", "decided"), ("sf", "matches"),
                    ("deck_out", "matches")))
            else:  # a run folder without its chunks: independent arms (conservative on common deals)
                tests = (kit.difference_test(a["first_wins"], a["decided"], b["first_wins"], b["decided"]),
                         kit.difference_test(a["seat0_wins"], a["decided"], b["seat0_wins"], b["decided"]),
                         kit.difference_test(a["sf"], a["matches"], b["sf"], b["matches"]),
                         kit.difference_test(a["deck_out"], a["matches"], b["deck_out"], b["matches"]))
            rows.append({"switch": _describe(key), "change": "%s → %s" % (base_value, other_value),
                         "on": preset, "rule-set pairs": len(pairs), "strategies": pair,
                         "Δ first-player share": kit.points(*tests[0][:3]), "Δ seat-0 share": kit.points(*tests[1][:3]),
                         "Δ straight-flush wins": kit.points(*tests[2][:3]), "Δ deck-out wins": kit.points(*tests[3][:3]),
                         "Δ mean turns": "%+.1f" % (b["turns"] - a["turns"]), "_p": [test[3] for test in tests]})
    return rows


def _flag(rows: list[dict], kit) -> list[dict]:
    """'changes outcomes': some test of the row rejected at 5 % family-wise over the whole table
    (Bonferroni on the rows × METRICS tests' p-values, each from its interval's own t or normal
    distribution), so a table of many switches does not flag noise."""
    tested = [row for row in rows if "_p" in row]
    flags = kit.family_flags([p for row in tested for p in row["_p"]])
    for index, row in enumerate(tested):
        del row["_p"]
        row["changes outcomes"] = "yes" if any(flags[index * METRICS:(index + 1) * METRICS]) else "not shown"
    return rows


def _club(run, tables, kit):
    rows = _flag(_effects(run, kit, "club_multiplier"), kit)
    if not rows:
        return None
    table = pd.DataFrame(rows).drop(columns=["switch"])
    lines = ["Club multiplier %s on %s: first-player share %s, seat-0 share %s, straight-flush wins %s, mean turns %s "
             "(%s)." % (r["change"], r["on"], r["Δ first-player share"], r["Δ seat-0 share"], r["Δ straight-flush wins"],
                        r["Δ mean turns"], "changes outcomes" if r["changes outcomes"] == "yes" else "no change shown")
             for r in rows]
    return kit.Section("pd_club", "The club multiplier's effect (D-AMB-01)",
                       "The source's club damage digit is lost (D-ADV-3, D-AMB-01): the effect of each multiplier "
                       "against the default 2, from rule sets that differ in it only (a preset's [vary] variants "
                       "pooled, all starting HP pooled), with 95 % intervals clustered by deal (every match of one deal "
                       "and chunk, in any arm, is one cluster: valid for paired arms on common deals and when pooled "
                       "pairs repeat deals). 'changes outcomes': "
                       "some difference beyond the Bonferroni-corrected level of the table. The club rule belongs to "
                       "the advanced module: on core rule sets it cannot change anything.", table, None, lines)


def _sensitivity(run, tables, kit):
    rows, lines = [], []
    effects = {key: _effects(run, kit, key) for key in LOW_CONFIDENCE}
    _flag([row for found in effects.values() for row in found], kit)  # one family: the whole table
    for key in LOW_CONFIDENCE:
        found = effects[key]
        if found:
            rows += found
            moved = [r for r in found if r["changes outcomes"] == "yes"]
            lines.append("Switch %s: %s." % (_describe(key), "changes outcomes (%s)" % "; ".join(
                "%s on %s: first-player %s, seat-0 %s, straight flush %s, deck-out %s" % (
                    r["change"], r["on"], r["Δ first-player share"], r["Δ seat-0 share"], r["Δ straight-flush wins"],
                    r["Δ deck-out wins"]) for r in moved)
                if moved else "no effect shown beyond the intervals"))
        else:
            readings = ([2, 3] if key == "club_multiplier" else list(pd_rules.IMPLEMENTED[key]))
            rows.append({"switch": _describe(key), "change": "not varied in this run",
                         "on": "-", "rule-set pairs": "-", "strategies": "-",
                         "Δ first-player share": "add [vary] %s = %s" % (key, readings)})
    varied = sum(1 for key in LOW_CONFIDENCE if effects[key])
    lines.insert(0, "Low-confidence switches (§17 Q11): %d of %d varied in this run." % (varied, len(LOW_CONFIDENCE)))
    return kit.Section("pd_sensitivity", "Sensitivity to the low-confidence switches (§17 Q11)",
                       "The rules the reference names as unsettled and worth settling first: each switch's effect on "
                       "the headline numbers (first-player and seat-0 share of decided matches, straight-flush and "
                       "deck-out wins, match length), from rule sets of this run that differ in that switch only, "
                       "with 95 % intervals (a preset's [vary] variants pooled). 'changes outcomes': some difference "
                       "beyond the Bonferroni-corrected level of the whole table. A switch not varied here "
                       "names the [vary] line that would measure it.", pd.DataFrame(rows).astype(object).fillna(""), None, lines)


def report_sections(run, tables, kit):
    """`GameSpec.extra["report_sections"]`: Poker Duel's sections, in the order of §17."""
    sections = [_first_player(run, tables, kit), _endings(run, tables, kit), _straight_flush(run, tables, kit),
                _club(run, tables, kit), _sensitivity(run, tables, kit)]
    return [section for section in sections if section is not None]
