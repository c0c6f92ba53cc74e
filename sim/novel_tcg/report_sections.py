"""The Novel TCG's own report sections: the balance questions of the reference's §18.3.

Declared in `game.py` (`extra["report_sections"]`) and called by the shared report
(analysis/game_sections.py) with the run, the shared tables and a kit of statistics,
so this module imports nothing above the game's package. Every section is one table,
one figure and one finding, a sentence computed from the run's numbers:

- Q1  `tcg_first_player`: the first player's share of decided mirror matches by template
      and rank, with 95 % Wilson intervals and the product's verdicts (Holm over the table);
- Q1  `tcg_deck_out`: deck-out wins by seat order (§17 note 5: the second player decks out first);
- Q2  `tcg_rank_gap`: the higher rank's win share against the gap Δr, split into the HP part
      and the star-ceiling part by the rules arms the run plays (the 2 x 2 design of
      docs/examples/tcg-rank-split-sweep.toml: hp_per_rank 15 or ~0 per rank, offset L 2 or
      saturating, so that a gap moves both, one or neither);
- Q3  `tcg_star_modifier`: Swarm's share against Advance for each star modifier m the run plays;
- Q4  `tcg_advance_economy`: advance summons, bases per advance and the highest star reached;
- Q5  `tcg_limit_offset`: the spread between the best and the worst template for each offset L,
      and the matchups one more star of ceiling flips;
- Q6  `tcg_length`: turns and end types against rank;
- Q7  `tcg_damage`: where duelist damage comes from (overflow, direct attacks, the person);
- Q8  `tcg_person`: the person as a fighter: its attacks and its share of duelist damage, and a
      Weapon's worth in wins between rules arms that differ in weapon_atk only;
- Q9  `tcg_limits`: how often the front row, the back row and the hand limit bind;
- Q10 `tcg_matrix`: the template x template matrix with a rock-paper-scissors flag;
- Q11 `tcg_sensitivity`: no numbers, the command that answers it (`cardbalance sensitivity`).

Nothing is summed across a dimension: every grouping keeps the rules variant and the
strategy pair ("variant"), the deck per seat and both ranks apart; only the first player
is pooled where the question is not about it (the sweep plays both orders).
"""

from __future__ import annotations

from itertools import permutations

import numpy as np
import pandas as pd

from sim.novel_tcg.card_pool import TEMPLATES
from sim.novel_tcg.rules import DEFAULT_RANK, NUMBERS, STAR_MAX

DAMAGE = (("overflow", "ct_dmg_overflow"), ("direct attacks", "ct_dmg_direct"), ("person vs person", "ct_dmg_person"),
          ("hit back on a person", "ct_dmg_hitback"), ("fatigue", "ct_dmg_fatigue"))
LIMITS = (("front row full", "ct_front_full"), ("back row full", "ct_back_full"), ("hand-limit discards", "ct_discards"))
ENDS = ("hp", "deck_out", "turn_cap", "double_ko")
COLOURS = {"swarm": "#d62728", "advance": "#1f77b4", "curve": "#2ca02c"}
GAPS = (0, 1, 2, 3, 5)  # §18.3 Q2's Δr
FLAT_HP_PER_RANK = 5    # below this many HP per rank an arm counts as "HP flat" (Q2's split)


def _default(key):
    return NUMBERS[key][3]


# ---- the frame every section reads --------------------------------------------------------

def _frame(run, results: pd.DataFrame | None = None) -> pd.DataFrame:
    """The run's results (or another frame with their columns: a chunk frame) with the
    derived columns every section groups by."""
    frame = (run.results if results is None else results).copy()
    ends = list(run.end_types)
    frame["wins0"] = frame[["seat0_%s" % e for e in ends]].sum(axis=1)
    frame["wins1"] = frame[["seat1_%s" % e for e in ends]].sum(axis=1)
    frame["draws"] = frame[["draw_%s" % e for e in ends]].sum(axis=1)
    frame["decided"] = frame["wins0"] + frame["wins1"]
    frame["skill"] = np.where(frame["strategy0"] == frame["strategy1"], frame["strategy0"],
                              frame["strategy0"] + "/" + frame["strategy1"])
    several_rules, several_skills = frame["rules"].nunique() > 1, frame["skill"].nunique() > 1
    frame["variant"] = (frame["rules"] if several_rules else "") + (
        (" " if several_rules else "") + frame["skill"] if several_skills else "")
    frame["variant"] = frame["variant"].where(frame["variant"] != "", "all")
    frame["mirror"] = frame["deck0"] == frame["deck1"]
    frame["even"] = frame["rank0"] == frame["rank1"]
    for end in ENDS:  # wins of this end type by the first / the second player
        first0 = frame["first"] == 0
        frame["first_%s" % end] = np.where(first0, frame["seat0_%s" % end], frame["seat1_%s" % end])
        frame["second_%s" % end] = np.where(first0, frame["seat1_%s" % end], frame["seat0_%s" % end])
    return frame


def _values(run, kit) -> dict:
    """{rules name: flat rules values} of the run (numbers and switches)."""
    return {name: kit.flat_rules(entry) for name, entry in (run.meta.get("rules") or {}).items()}


def _baseline(run, frame, kit) -> str:
    """The variant a finding reads when a run has several: the rules closest to the defaults
    (fewest numbers changed), then the strongest skill level (the last of the sweep's
    `skills`, weakest first, as the shared report's headline verdicts read it), then the
    first strategy pair."""
    values = _values(run, kit)
    listed = [entry.partition(":")[0] for entry in (run.meta.get("strategies") or ())
              if entry.partition(":")[0] == entry.partition(":")[2]]

    def distance(variant):
        rules = frame.loc[frame["variant"] == variant, "rules"].iloc[0]
        return sum(1 for key in NUMBERS if key in values.get(rules, {}) and values[rules][key] != _default(key))

    def strength(variant):
        skill = frame.loc[frame["variant"] == variant, "skill"].iloc[0]
        return listed.index(skill) if skill in listed else -1
    variants = list(dict.fromkeys(frame["variant"]))
    return min(variants, key=lambda v: (distance(v), -strength(v), variants.index(v)))


def _at(run, frame, kit) -> tuple[str, str]:
    """(baseline variant, " (variant)" for a finding when the run has several, else "")."""
    base = _baseline(run, frame, kit)
    return base, (" (%s)" % base if _several(frame) else "")


def _finding_skill(run, frame, kit) -> str:
    """The skill level a finding reads: the baseline variant's (the strongest the sweep lists)."""
    base = _baseline(run, frame, kit)
    return frame.loc[frame["variant"] == base, "skill"].iloc[0]


def _several(frame) -> bool:
    return frame["variant"].nunique() > 1


def _figure(n_panels: int, width: float = 4.2, height: float = 3.4):
    from matplotlib.figure import Figure
    fig = Figure(figsize=(width * max(n_panels, 1), height), dpi=100, layout="constrained")
    return fig, list(np.atleast_1d(fig.subplots(1, max(n_panels, 1), squeeze=False)[0]))


def _legend_below(fig, panels, ncols: int = 4):
    """One legend for the figure, below the panels (never over the data): the entries of every
    panel, each label once, in the order they were drawn."""
    entries = {}
    for axes in panels:
        for handle, label in zip(*axes.get_legend_handles_labels()):
            entries.setdefault(label, handle)
    if entries:  # about 1.6 inches a column at this size: a one-panel figure gets two, not four cut off
        fig.legend(list(entries.values()), list(entries), loc="outside lower center",
                   ncols=max(1, min(ncols, len(entries), int(fig.get_figwidth() // 1.6))), fontsize="x-small")


def _ticks_at_ranks(panels):
    """x ticks at the ranks played (2, 5, 10, ...), not matplotlib's 2.5, 7.5 between them."""
    for axes in panels:
        ranks = sorted({float(x) for line in axes.get_lines() for x in line.get_xdata()})
        if 0 < len(ranks) <= 12:
            axes.set_xticks(ranks, ["%g" % r for r in ranks])


def _rate(k, n):
    return k / n if n else float("nan")


# ---- what every section is made of --------------------------------------------------------

def _section(kit, section_id: str, title: str, method: str, finding: str, table, figure):
    """A §18.3 section: the caption is the method, then the finding; the terminal line is the
    question's label (the title's first word, "Q1") and the finding."""
    return kit.Section(section_id, title, method + " Finding: " + finding, table, figure,
                       [title.split()[0] + " " + finding])


def _keyed(frame, variant, columns: dict) -> dict:
    """A table row: the variant first when the run has several, then `columns`."""
    return {**({"variant": variant} if _several(frame) else {}), **columns}


def _variant_panels(groups, draw, xlabel: str, ylabel: str):
    """One panel per variant of `groups` (in their order): draw(axes, variant) plots, then each
    panel gets the axis labels and the variant as its title; one legend below them all."""
    variants = list(dict.fromkeys(groups["variant"]))
    fig, panels = _figure(len(variants))
    for axes, variant in zip(panels, variants):
        draw(axes, variant)
        axes.set_xlabel(xlabel)
        axes.set_ylabel(ylabel)
        axes.set_title(variant, fontsize=9)
    if xlabel.startswith("rank"):
        _ticks_at_ranks(panels)
    _legend_below(fig, panels)
    return fig


# ---- Q1 first-player advantage -------------------------------------------------------------

def _first_player(run, frame, kit):
    part = frame[frame["mirror"] & frame["even"]]
    if not len(part):
        return None
    groups = part.groupby(["variant", "deck0", "rank0"], sort=True)[["first_player_wins", "decided", "matches",
                                                                      "draws"]].sum().reset_index()
    verdicts = kit.verdicts(groups["first_player_wins"].to_numpy(), groups["decided"].to_numpy())
    rows = []
    for (_, row), verdict in zip(groups.iterrows(), verdicts):
        k, n = int(row["first_player_wins"]), int(row["decided"])
        side = "-" if verdict != "imbalanced" else ("first" if k / n > 0.5 else "second")
        rows.append(_keyed(frame, row["variant"], {"template": row["deck0"], "rank": int(row["rank0"]), "decided": n,
                                                   "draws": int(row["draws"]),
                                                   "first player wins [95% CI]": kit.percent(k, n),
                                                   "verdict": verdict, "favoured": side}))
    table = pd.DataFrame(rows)
    shares = groups["first_player_wins"] / groups["decided"].where(groups["decided"] > 0)
    top, low = shares.idxmax(), shares.idxmin()
    imbalanced = [v for v in verdicts if v == "imbalanced"]
    name = lambda i: "%s, rank %d%s" % (groups.loc[i, "deck0"], groups.loc[i, "rank0"],  # noqa: E731
                                         ", " + groups.loc[i, "variant"] if _several(frame) else "")
    finding = ("The first player's share of decided mirror matches runs from %.1f %% (%s) to %.1f %% (%s); %d of %d "
               "cells are imbalanced, %d of them for the first player."
               % (100 * shares[low], name(low), 100 * shares[top], name(top), len(imbalanced), len(verdicts),
                  sum(1 for v, s in zip(verdicts, shares) if v == "imbalanced" and s > 0.5)))

    def draw(axes, variant):
        for template in TEMPLATES:
            g = groups[(groups["variant"] == variant) & (groups["deck0"] == template)]
            if not len(g):
                continue
            k, n = g["first_player_wins"].to_numpy(), g["decided"].to_numpy()
            low_high = np.array([kit.wilson(a, b) for a, b in zip(k, n)])
            share = k / np.maximum(n, 1)
            axes.errorbar(g["rank0"], 100 * share, yerr=100 * np.abs(low_high.T - share), marker="o", capsize=3,
                          color=COLOURS.get(template), label=template)
        axes.axhspan(100 * (0.5 - kit.delta), 100 * (0.5 + kit.delta), color="0.85", label="fair ± δ")

    return _section(kit, "tcg_first_player", "Q1 First-player advantage by template and rank",
                    "Mirror matches (same template and rank in both seats), both first-player orders: the first "
                    "player's share of decided matches with its 95 %% Wilson interval and the product's verdict "
                    "(balanced / undecided / imbalanced against ½ ± δ, δ = %g, Holm over this table). The first "
                    "player skips the turn-1 draw and may not attack on turn 1 (T-SETUP-3/4)." % kit.delta, finding,
                    table, lambda: _variant_panels(groups, draw, "rank (both seats)", "first player wins, % of decided"))


def _deck_out(run, frame, kit):
    part = frame[frame["mirror"] & frame["even"]]
    if not len(part):
        return None
    groups = part.groupby(["variant", "deck0", "rank0"], sort=True)[["first_deck_out", "second_deck_out",
                                                                      "matches"]].sum().reset_index()
    rows = []
    for _, row in groups.iterrows():
        n, a, b = int(row["matches"]), int(row["first_deck_out"]), int(row["second_deck_out"])
        rows.append(_keyed(frame, row["variant"], {"template": row["deck0"], "rank": int(row["rank0"]), "matches": n,
                                                   "first player wins by deck-out [95% CI]": kit.percent(a, n),
                                                   "second player wins by deck-out [95% CI]": kit.percent(b, n)}))
    base, where = _at(run, frame, kit)
    base_groups = groups[groups["variant"] == base]
    first, second = int(base_groups["first_deck_out"].sum()), int(base_groups["second_deck_out"].sum())
    top = (base_groups["first_deck_out"] + base_groups["second_deck_out"]).div(base_groups["matches"]).idxmax()
    finding = ("Of %d deck-out wins in mirror matches%s, %d (%.1f %%) went to the first player (the second player draws "
               "one card more and runs out first, §17 note 5); they peak at %.1f %% of matches in %s mirrors at rank %d."
               % (first + second, where, first, 100 * _rate(first, first + second),
                  100 * (groups.loc[top, "first_deck_out"] + groups.loc[top, "second_deck_out"]) / groups.loc[top, "matches"],
                  groups.loc[top, "deck0"], groups.loc[top, "rank0"])) if first + second else \
        "No mirror match was won by deck-out."

    def draw(axes, variant):
        for template in TEMPLATES:
            g = groups[(groups["variant"] == variant) & (groups["deck0"] == template)]
            if len(g):
                axes.plot(g["rank0"], 100 * g["first_deck_out"] / g["matches"], "o-", color=COLOURS.get(template),
                          label="%s, first player" % template)
                axes.plot(g["rank0"], 100 * g["second_deck_out"] / g["matches"], "x--", color=COLOURS.get(template),
                          label="%s, second player" % template)

    return _section(kit, "tcg_deck_out", "Q1 Deck-out wins by seat order",
                    "Mirror matches: the share of matches won by deck-out (T-AMB-07 'lose': the opponent could not "
                    "draw), by the winner's seat order, with 95 % Wilson intervals.", finding, table_or_none(rows),
                    lambda: _variant_panels(groups, draw, "rank (both seats)", "deck-out wins, % of matches"))


def table_or_none(rows):
    return pd.DataFrame(rows) if rows else None


# ---- Q2 the rank gap, split into HP and star ceiling ----------------------------------------

def _arm(values: dict, low: int, high: int) -> tuple[int, int, str]:
    """(ΔHP, Δceiling, part) of a rank gap low -> high under one rules variant's values."""
    hp = int(values.get("hp_per_rank", _default("hp_per_rank")))
    offset = int(values.get("summon_limit_offset", _default("summon_limit_offset")))
    limit_on = values.get("T-AMB-46", "on") == "on"
    d_hp = hp * (high - low)
    d_ceiling = (min(STAR_MAX, high + offset) - min(STAR_MAX, low + offset)) if limit_on else 0
    hp_moves, ceiling_moves = hp >= FLAT_HP_PER_RANK, d_ceiling > 0
    part = ("HP and ceiling" if hp_moves and ceiling_moves else "HP only" if hp_moves else
            "ceiling only" if ceiling_moves else "neither")
    return d_hp, d_ceiling, part


def _rank_gap(run, frame, kit):
    part = frame[frame["mirror"]].copy()
    low = part[["rank0", "rank1"]].min(axis=1)
    bases = set(zip(part.loc[~part["even"], "variant"], part.loc[~part["even"], "deck0"], low[~part["even"]]))
    if not bases:
        return None
    part["low"], part["gap"] = low, (part["rank1"] - part["rank0"]).abs()
    part["higher_wins"] = np.where(part["rank1"] >= part["rank0"], part["wins1"], part["wins0"])
    part = part[[(v, d, lo) in bases for v, d, lo in zip(part["variant"], part["deck0"], part["low"])]]
    groups = part.groupby(["variant", "rules", "deck0", "low", "gap"], sort=True)[
        ["higher_wins", "decided", "matches"]].sum().reset_index()
    values = _values(run, kit)
    rows, points = [], []
    for _, row in groups.iterrows():
        d_hp, d_ceiling, arm = _arm(values.get(row["rules"], {}), int(row["low"]), int(row["low"] + row["gap"]))
        k, n = int(row["higher_wins"]), int(row["decided"])
        base = groups[(groups["variant"] == row["variant"]) & (groups["deck0"] == row["deck0"]) &
                      (groups["low"] == row["low"]) & (groups["gap"] == 0)]
        effect = kit.difference(int(base["higher_wins"].sum()), int(base["decided"].sum()), k, n) \
            if len(base) and row["gap"] else (float("nan"),) * 3
        rows.append(_keyed(frame, row["variant"], {"template": row["deck0"],
                                                   "ranks": "%d/%d" % (row["low"], row["low"] + row["gap"]),
                                                   "Δr": int(row["gap"]), "ΔHP": d_hp, "Δceiling (stars)": d_ceiling,
                                                   "part": arm if row["gap"] else "-",
                                                   "higher rank wins [95% CI] (Δr = 0: seat 0)": kit.percent(k, n),
                                                   "vs Δr = 0 [95% CI]": kit.points(*effect)}))
        points.append((row["variant"], row["deck0"], int(row["gap"]), arm, _rate(k, n), kit.wilson(k, n) if n else
                       (float("nan"), float("nan"))))
    table = pd.DataFrame(rows).astype(object).fillna("-")
    # the finding: the largest gap, each part pooled over templates
    biggest = int(groups["gap"].max())
    parts = {}
    for _, row in groups[groups["gap"] == biggest].iterrows():
        arm = _arm(values.get(row["rules"], {}), int(row["low"]), int(row["low"] + row["gap"]))[2]
        k, n = parts.get(arm, (0, 0))
        parts[arm] = (k + int(row["higher_wins"]), n + int(row["decided"]))
    said = "; ".join("%s %s" % (arm, kit.percent(*parts[arm])) for arm in
                     ("HP and ceiling", "HP only", "ceiling only", "neither") if arm in parts)
    finding = "At Δr = %d the higher-ranked seat wins (templates pooled): %s." % (biggest, said)
    if set(parts) == {"HP and ceiling"}:
        finding += (" This run moves HP and ceiling together; docs/examples/tcg-rank-split-sweep.toml splits them "
                    "(hp_per_rank and the offset L varied apart).")

    def figure():
        templates = [t for t in TEMPLATES if t in set(groups["deck0"])]
        fig, panels = _figure(len(templates), 4.2, 4.0)
        styles = {"HP and ceiling": "o-", "HP only": "s--", "ceiling only": "^-.", "neither": "x:"}
        arms = {}
        for variant, _, g, arm, _, _ in points:
            if g:
                arms.setdefault(arm, set()).add(variant)
        shared = any(len(variants) > 1 for variants in arms.values())
        for axes, template in zip(panels, templates):
            for variant in dict.fromkeys(groups["variant"]):
                pts = sorted((g, a, r, ci) for v, t, g, a, r, ci in points if v == variant and t == template)
                if not pts:
                    continue
                arm = next((a for g, a, r, ci in pts if g), "-")
                x = [g for g, *_ in pts]
                y = np.array([r for _, _, r, _ in pts])
                err = np.abs(np.array([ci for *_, ci in pts]).T - y)
                axes.errorbar(x, 100 * y, yerr=100 * err, fmt=styles.get(arm, "o-"), capsize=3,
                              label="%s: %s" % (arm, variant) if shared or len(arms) == 1 and _several(frame) else
                              "%s (%s)" % (arm, variant) if _several(frame) else arm)
            axes.axhline(50, color="0.6", lw=0.8)
            axes.set_xticks(list(GAPS))
            axes.set_xlabel("rank gap Δr")
            axes.set_ylabel("higher rank wins, % of decided")
            axes.set_title(template, fontsize=9)
        _legend_below(fig, panels, ncols=2)
        return fig

    return _section(kit, "tcg_rank_gap", "Q2 Rank gap: the HP part and the star-ceiling part",
                    "Mirror templates, the lower seat at the run's base rank and the other Δr ranks higher: the "
                    "higher rank's share of decided matches (Δr = 0: seat 0's) with 95 %% Wilson intervals, and "
                    "its difference from the same arm at Δr = 0. A gap adds hp_per_rank HP per rank and one star "
                    "of ceiling per rank (until 20★); 'part' says which of the two this rules arm lets the gap "
                    "move (HP counts as flat below %d HP per rank; the ceiling is flat once rank + L reaches 20)."
                    % FLAT_HP_PER_RANK, finding, table, figure)


# ---- Q3 the star modifier: Swarm against Advance -------------------------------------------

def _pooled_share(part, a: str, b: str) -> tuple[int, int]:
    """(template a's wins, decided) against template b, both seatings pooled."""
    as0 = part[(part["deck0"] == a) & (part["deck1"] == b)]
    as1 = part[(part["deck0"] == b) & (part["deck1"] == a)]
    return int(as0["wins0"].sum() + as1["wins1"].sum()), int(as0["decided"].sum() + as1["decided"].sum())


def _others(values: dict, key: str) -> dict:
    """{rules name: "k=v, ..."} of the rules values other than `key` that differ across the run
    (what a table must keep apart when it compares values of `key`)."""
    keys = sorted({k for v in values.values() for k in v} - {key})
    differing = [k for k in keys if len({str(v.get(k)) for v in values.values()}) > 1]
    return {name: ", ".join("%s=%s" % (k, v.get(k)) for k in differing) for name, v in values.items()}


def _star_modifier(run, frame, kit):
    part = frame[frame["even"] & frame["deck"].isin(["swarm/advance", "advance/swarm"])]
    if not len(part):
        return None
    values = _values(run, kit)
    others = _others(values, "star_mod")
    part = part.assign(m=[int(values.get(r, {}).get("star_mod", _default("star_mod"))) for r in part["rules"]],
                       other=[others.get(r, "") for r in part["rules"]])
    rows, series, shares = [], {}, {}
    for (skill, other, m, rank), g in part.groupby(["skill", "other", "m", "rank0"], sort=True):
        k, n = _pooled_share(g, "swarm", "advance")
        rows.append({**({"skill": skill} if part["skill"].nunique() > 1 else {}),
                     **({"other rules": other} if part["other"].nunique() > 1 else {}), "m": m, "rank": rank,
                     "decided": n, "Swarm wins against Advance [95% CI]": kit.percent(k, n)})
        series.setdefault((skill, other, rank), []).append((m, _rate(k, n), kit.wilson(k, n) if n else (np.nan, np.nan)))
        shares[skill, other, m, rank] = _rate(k, n)
    table = pd.DataFrame(rows)
    ms = sorted(set(part["m"]))
    # the finding reads the default of everything else (the strongest skill, the default offset) where played
    skill = _finding_skill(run, frame, kit)
    skill = skill if skill in set(part["skill"]) else sorted(set(part["skill"]))[0]
    baseline = next((o for o in sorted(set(part["other"])) if "summon_limit_offset=%d" % _default("summon_limit_offset")
                     in o or o == ""), sorted(set(part["other"]))[0])
    ranks = sorted(set(part["rank0"]))
    by_rank = "; ".join("rank %d: %s" % (rank, " / ".join("%.1f %%" % (100 * shares.get((skill, baseline, m, rank), np.nan))
                                                          for m in ms)) for rank in ranks)
    viable = [rank for rank in ranks if max(shares.get((skill, baseline, m, rank), 0) for m in ms) >= 0.4]
    where = " (%s)" % baseline if baseline else ""
    if len(ms) > 1:
        finding = ("Swarm's share against Advance at m = %s%s: %s; some m keeps Swarm at 40 %% or more at %s."
                   % (" / ".join(map(str, ms)), where, by_rank,
                      ("rank%s %s" % ("s" if len(viable) > 1 else "", ", ".join(map(str, viable)))) if viable
                      else "no rank"))
    else:
        finding = ("Only m = %d was played: Swarm's share against Advance is %s; [vary] star_mod = [3, 5, 8] measures "
                   "the modifier (docs/examples/tcg-rules-sweep.toml)." % (ms[0], by_rank))

    def figure():
        fig, panels = _figure(1, 5.0)
        axes = panels[0]
        for (skill_, other, rank), pts in series.items():
            pts.sort()
            x = [m for m, *_ in pts]
            y = np.array([r for _, r, _ in pts])
            err = np.abs(np.array([ci for *_, ci in pts]).T - y)
            label = "rank %d" % rank + (" " + other if other else "") + (" " + skill_ if part["skill"].nunique() > 1
                                                                           else "")
            axes.errorbar(x, 100 * y, yerr=100 * err, marker="o", capsize=3, label=label)
        axes.axhline(50, color="0.6", lw=0.8)
        axes.set_xlabel("star modifier m (damage per star of difference)")
        axes.set_ylabel("Swarm wins against Advance, % of decided")
        _legend_below(fig, panels)
        return fig

    # one m is one x value: the finding's sentence and the table say it; a plot would be a column of dots
    return _section(kit, "tcg_star_modifier", "Q3 The star modifier m: Swarm against Advance",
                    "Swarm against Advance at equal ranks, both seatings and both first players pooled: Swarm's "
                    "share of decided matches for each star modifier m the run plays (T-BATTLE-6/7), with 95 % "
                    "Wilson intervals; other rules values the run varies are kept apart.", finding, table,
                    figure if len(ms) > 1 else None)


# ---- Q4 the advance-summon economy ---------------------------------------------------------

def _advance_economy(run, frame, kit):
    part = frame[frame["mirror"] & frame["even"]]
    if not len(part):
        return None
    sums = ["ct_summons", "ct_advance_summons", "ct_bases_used", "ct_max_star0", "ct_max_star1", "matches"]
    groups = part.groupby(["variant", "deck0", "rank0"], sort=True)[sums].sum().reset_index()
    rows = []
    for _, row in groups.iterrows():
        n, adv = row["matches"], row["ct_advance_summons"]
        rows.append(_keyed(frame, row["variant"], {
            "template": row["deck0"], "rank": int(row["rank0"]),
            "normal summons / match": "%.2f" % (row["ct_summons"] / n),
            "advance summons / match": "%.2f" % (adv / n),
            "bases per advance": "%.2f" % (row["ct_bases_used"] / adv) if adv else "-",
            "cards given up / match": "%.2f" % ((row["ct_bases_used"] - adv) / n) if adv else "0",
            "highest star (mean of seats)": "%.1f" % ((row["ct_max_star0"] + row["ct_max_star1"]) / (2 * n))}))
    table = pd.DataFrame(rows)
    base, where = _at(run, frame, kit)
    adv = groups[(groups["deck0"] == "advance") & (groups["variant"] == base)]
    if len(adv):
        top, low = adv.loc[adv["rank0"].idxmax()], adv.loc[adv["rank0"].idxmin()]
        finding = ("Advance mirrors%s make %.2f advance summons a match at rank %d with %.2f bases each (%.2f cards net "
                   "given up) and reach %.1f★ on average%s."
                   % (where, top["ct_advance_summons"] / top["matches"], top["rank0"],
                      top["ct_bases_used"] / max(top["ct_advance_summons"], 1),
                      (top["ct_bases_used"] - top["ct_advance_summons"]) / top["matches"],
                      (top["ct_max_star0"] + top["ct_max_star1"]) / (2 * top["matches"]),
                      "; at rank %d they make %.2f" % (low["rank0"], low["ct_advance_summons"] / low["matches"])
                      if low["rank0"] != top["rank0"] else ""))
    else:
        finding = "No Advance mirror was played."

    def figure():
        fig, panels = _figure(2)
        for template in TEMPLATES:
            g = groups[groups["deck0"] == template].groupby("rank0")[sums].sum()
            if len(g):
                panels[0].plot(g.index, g["ct_advance_summons"] / g["matches"], "o-", color=COLOURS.get(template),
                               label=template)
                panels[1].plot(g.index, (g["ct_max_star0"] + g["ct_max_star1"]) / (2 * g["matches"]), "o-",
                               color=COLOURS.get(template), label=template)
        panels[0].set_ylabel("advance summons per match (both seats)")
        panels[1].set_ylabel("highest star on the field (mean of seats)")
        for axes in panels:
            axes.set_xlabel("rank (both seats)")
        _ticks_at_ranks(panels)
        _legend_below(fig, panels)
        return fig

    return _section(kit, "tcg_advance_economy", "Q4 The advance-summon economy",
                    "Mirror matches at equal ranks: summons per match (both seats), bases per advance summon "
                    "(T-SUMMON-5), cards given up net (bases − the one character they buy) and the highest star "
                    "each seat put on the field.", finding, table, figure)


# ---- Q5 the summon-limit offset and the template spread ------------------------------------

def _matrix(part) -> dict:
    """{(a, b): (a's wins, decided)} for every template pair a != b, seatings pooled."""
    templates = sorted(set(part["deck0"]) | set(part["deck1"]))
    return {(a, b): _pooled_share(part, a, b) for a in templates for b in templates if a != b}


def _field_share(matrix: dict, template: str) -> tuple[int, int]:
    k = sum(w for (a, _), (w, n) in matrix.items() if a == template)
    n = sum(n for (a, _), (w, n) in matrix.items() if a == template)
    return k, n


def _limit_offset(run, frame, kit):
    part = frame[frame["even"] & ~frame["mirror"]]
    if not len(part) or part["deck0"].nunique() < 2:
        return None
    values = _values(run, kit)
    part = part.assign(L=[int(values.get(r, {}).get("summon_limit_offset", _default("summon_limit_offset")))
                          for r in part["rules"]])
    # the other rules values must be equal for L to be the one difference: grouped apart by their label
    others = _others(values, "summon_limit_offset")
    part = part.assign(rest=[others.get(r, "") for r in part["rules"]])
    rows, spreads, winners = [], {}, {}
    for (rest_key, skill, L, rank), g in part.groupby(["rest", "skill", "L", "rank0"], sort=True):
        matrix = _matrix(g)
        field = {t: _field_share(matrix, t) for t in sorted(set(g["deck0"]))}
        rates = {t: _rate(*kn) for t, kn in field.items()}
        best, worst = max(rates, key=rates.get), min(rates, key=rates.get)
        diff = kit.difference(*field[worst], *field[best])
        rows.append({**({"skill": skill} if part["skill"].nunique() > 1 else {}),
                     **({"other rules": rest_key} if part["rest"].nunique() > 1 else {}), "L": L, "rank": rank,
                     "best template [95% CI]": "%s %s" % (best, kit.percent(*field[best])),
                     "worst template [95% CI]": "%s %s" % (worst, kit.percent(*field[worst])),
                     "spread [95% CI]": kit.points(*diff)})
        spreads.setdefault((rest_key, skill, L), []).append((rank, diff))
        for (a, b), (w, n) in matrix.items():
            if a < b and n:
                low, high = kit.wilson(w, n)
                winners[(rest_key, skill, L, rank, a, b)] = a if low > 0.5 else b if high < 0.5 else None
    table = pd.DataFrame(rows)
    offsets = sorted(set(part["L"]))
    if len(offsets) > 1:
        flips = []
        following = dict(zip(offsets, offsets[1:]))  # each offset and the next one the run plays
        for (rest_key, skill, L, rank, a, b), winner in winners.items():
            other = winners.get((rest_key, skill, following.get(L), rank, a, b))
            if winner and other and winner != other:
                flips.append("%s vs %s at rank %d%s (L %d -> %d)" % (a, b, rank, " " + rest_key if rest_key else "",
                                                                    L, following[L]))
        baseline = next((o for o in sorted(set(part["rest"])) if "star_mod=%d" % _default("star_mod") in o or o == ""),
                        sorted(set(part["rest"]))[0])
        smallest = {}
        for (rest_key, skill, L), pts in spreads.items():
            for rank, diff in pts:
                if rest_key == baseline and (rank not in smallest or diff[0] < smallest[rank][1]):
                    smallest[rank] = (L, diff[0])
        finding = ("The smallest template spread comes with L = %s%s (by rank: %s); the next offset flips %s."
                   % ("/".join(str(L) for L in sorted({L for L, _ in smallest.values()})),
                      " at %s" % baseline if baseline else "",
                      ", ".join("%d: L=%d, %.1f pts" % (rank, L, 100 * d) for rank, (L, d) in sorted(smallest.items())),
                      "; ".join(sorted(set(flips))) if flips else "no matchup"))
    else:
        widest = max(rows, key=lambda r: float(r["spread [95% CI]"].split()[0]))
        finding = ("Only L = %d was played: the best template leads the worst by %s at rank %d (widest); [vary] "
                   "summon_limit_offset = [2, 3] measures the offset." % (offsets[0], widest["spread [95% CI]"],
                                                                          widest["rank"]))

    def figure():
        fig, panels = _figure(1, 5.0)
        axes = panels[0]
        for (rest_key, skill, L), pts in sorted(spreads.items(), key=lambda item: (item[0][2], str(item[0][1]))):
            pts.sort()
            x = [r for r, _ in pts]
            y = np.array([d[0] for _, d in pts])
            err = np.abs(np.array([(d[1], d[2]) for _, d in pts]).T - y)
            axes.errorbar(x, 100 * y, yerr=100 * err, marker="o", capsize=3,
                          label="L = %d%s%s" % (L, " " + rest_key if rest_key else "",
                                                " " + skill if part["skill"].nunique() > 1 else ""))
        axes.set_xlabel("rank (both seats)")
        axes.set_ylabel("best − worst template, points")
        _ticks_at_ranks(panels)
        _legend_below(fig, panels)
        return fig

    return _section(kit, "tcg_limit_offset", "Q5 The summon-limit offset and the template spread",
                    "Equal ranks, non-mirror matches: each template's share of decided matches against the other "
                    "templates (seatings and first players pooled); the spread is the best minus the worst "
                    "(95 % interval of the difference), for each offset L the run plays (T-LIMIT-1: the highest "
                    "star is rank + L; decks are built to that ceiling).", finding, table, figure)


# ---- Q6 game length and end types against rank ----------------------------------------------

def _length(run, frame, kit):
    part = frame[frame["even"]]
    if not len(part):
        return None
    sums = ["matches", "turns_sum", "turns_sq"] + ["%s_%s" % (p, e) for e in ENDS for p in ("seat0", "seat1", "draw")
                                                   if "%s_%s" % (p, e) in frame]
    groups = part.groupby(["variant", "deck", "rank0"], sort=True)[sums].sum().reset_index()
    rows = []
    for _, row in groups.iterrows():
        n = row["matches"]
        mean = row["turns_sum"] / n
        sd = np.sqrt(max(row["turns_sq"] / n - mean * mean, 0.0))
        ends = {e: sum(row.get("%s_%s" % (p, e), 0) for p in ("seat0", "seat1", "draw")) for e in ENDS}
        rows.append(_keyed(frame, row["variant"], {"deck": row["deck"], "rank": int(row["rank0"]), "matches": int(n),
                                                   "turns (mean ± 95%)": "%.1f ± %.1f" % (mean, 1.96 * sd / np.sqrt(n)),
                                                   **{"%s [95%% CI]" % e: kit.percent(int(ends[e]), int(n))
                                                      for e in ENDS}}))
    table = pd.DataFrame(rows)
    base, where = _at(run, frame, kit)
    by_rank = part[part["variant"] == base].groupby("rank0")[sums].sum()
    mean = by_rank["turns_sum"] / by_rank["matches"]
    deck_out = sum(by_rank.get("%s_deck_out" % p, 0) for p in ("seat0", "seat1", "draw")) / by_rank["matches"]
    cap = sum(by_rank.get("%s_turn_cap" % p, 0) for p in ("seat0", "seat1", "draw")) / by_rank["matches"]
    slope = np.polyfit(mean.index.to_numpy(float), mean.to_numpy(float), 1)[0] if len(mean) > 1 else float("nan")
    over = [int(r) for r, share in deck_out.items() if share >= 0.10]
    length = ("Matches last %.1f turns on average at rank %d and %.1f at rank %d (a fitted %+.2f turns per rank)"
              % (mean.iloc[0], mean.index[0], mean.iloc[-1], mean.index[-1], slope) if len(mean) > 1 else
              "Matches last %.1f turns on average at rank %d" % (mean.iloc[0], mean.index[0]))
    finding = ("%s%s; deck-out ends %s of matches (10 %% or more %s) and the turn cap %s."
               % (length, where, "%.1f–%.1f %%" % (100 * deck_out.min(), 100 * deck_out.max()),
                  "at rank%s %s" % ("s" if len(over) > 1 else "", ", ".join(map(str, over))) if over else "at no rank",
                  "never binds" if cap.max() == 0 else "ends up to %.1f %%" % (100 * cap.max())))

    def figure():
        mirrors = frame[frame["mirror"] & frame["even"]].groupby(["deck0", "rank0"])[sums].sum().reset_index()
        fig, panels = _figure(2)
        for template in TEMPLATES:
            g = mirrors[mirrors["deck0"] == template]
            if len(g):
                panels[0].plot(g["rank0"], g["turns_sum"] / g["matches"], "o-", color=COLOURS.get(template),
                               label="%s mirror" % template)
                d = sum(g.get("%s_deck_out" % p, 0) for p in ("seat0", "seat1", "draw"))
                panels[1].plot(g["rank0"], 100 * d / g["matches"], "o-", color=COLOURS.get(template),
                               label="%s mirror" % template)
        panels[0].plot(mean.index, mean, "k--", label="all decks")
        panels[1].plot(deck_out.index, 100 * deck_out, "k--", label="all decks")
        panels[0].set_ylabel("turns per match (mean)")
        panels[1].set_ylabel("ended by deck-out, % of matches")
        for axes in panels:
            axes.set_xlabel("rank (both seats)")
        _ticks_at_ranks(panels)
        _legend_below(fig, panels)
        return fig

    return _section(kit, "tcg_length", "Q6 Game length and end types against rank",
                    "Equal ranks, every deck pairing: mean turns (both players' turns counted) and the share of "
                    "matches ended by HP, deck-out, the turn cap and a double KO, with 95 % intervals.", finding,
                    table, figure)


# ---- Q7 where duelist damage comes from ---------------------------------------------------

def _damage(run, frame, kit):
    part = frame[frame["even"]]
    columns = [c for _, c in DAMAGE]
    if not len(part) or not all(c in frame for c in columns):
        return None
    groups = part.groupby(["variant", "rank0"], sort=True)[columns + ["matches"]].sum().reset_index()
    rows = []
    for _, row in groups.iterrows():
        total = row[columns].sum()
        rows.append(_keyed(frame, row["variant"], {"rank": int(row["rank0"]),
                                                   "damage / match": "%.1f" % (total / row["matches"]),
                                                   **{name: "%.1f %%" % (100 * row[c] / total) if total else "-"
                                                      for name, c in DAMAGE}}))
    table = pd.DataFrame(rows)
    base, where = _at(run, frame, kit)
    first, last = groups[groups["variant"] == base].iloc[0], groups[groups["variant"] == base].iloc[-1]

    def share(row, *keys):
        return 100 * sum(row[c] for name, c in DAMAGE if name in keys) / max(row[columns].sum(), 1)

    person = ("person vs person", "hit back on a person")
    if first["rank0"] != last["rank0"]:
        finding = ("Overflow gives %.0f %% of duelist damage at rank %d and %.0f %% at rank %d%s, direct attacks %.0f %% "
                   "-> %.0f %%, the person (its attacks and the hits it takes back) %.0f %% -> %.0f %%."
                   % (share(first, "overflow"), first["rank0"], share(last, "overflow"), last["rank0"], where,
                      share(first, "direct attacks"), share(last, "direct attacks"), share(first, *person),
                      share(last, *person)))
    else:
        finding = ("At rank %d%s overflow gives %.0f %% of duelist damage, direct attacks %.0f %%, the person (its "
                   "attacks and the hits it takes back) %.0f %%." % (first["rank0"], where, share(first, "overflow"),
                                                                     share(first, "direct attacks"),
                                                                     share(first, *person)))

    def draw(axes, variant):
        g = groups[groups["variant"] == variant]
        total = g[columns].sum(axis=1)
        bottom = np.zeros(len(g))
        x = np.arange(len(g))
        for name, c in DAMAGE:
            share_ = 100 * g[c].to_numpy() / np.maximum(total.to_numpy(), 1)
            axes.bar(x, share_, bottom=bottom, label=name)
            bottom += share_
        axes.set_xticks(x, [str(r) for r in g["rank0"]])

    return _section(kit, "tcg_damage", "Q7 Where duelist damage comes from",
                    "Equal ranks, every deck pairing pooled: duelist HP lost to battle overflow (T-BATTLE-5), direct "
                    "character attacks (T-BATTLE-9/11), a person's attacks (T-AMB-64/86), characters hitting an "
                    "attacking person back, and fatigue (T-AMB-07).", finding, table,
                    lambda: _variant_panels(groups, draw, "rank (both seats)", "share of duelist damage, %"))


# ---- Q8 the person as a fighter ------------------------------------------------------------

WEAPON_KEY = "weapon_atk"  # the person's ATK with a Weapon (§18.1): the rules arms Q8 compares
# Q8's own counters (sim/novel_tcg/layout.py COUNTER_NAMES, appended for it); a run made before them has none
FIGHTER = ("ct_weapon_equips", "ct_person_char_dmg", "ct_person_kills", "ct_person_block_dmg", "ct_person_block_kills",
           "ct_person_kill_stars", "ct_hp_lost0", "ct_hp_lost1")
# What Q8 would need and the kernel does not count: said in the caption.
PERSON_NOT_COUNTED = ("the overflow of a person's attacks (counted with all overflow), the counters other than duelist "
                      "HP by seat (a person's attacks, damage and defeats are both seats' together), the star "
                      "distribution of the characters a person defeats (only their sum), and which source dealt a "
                      "match's last point")
PERSON_NOT_COUNTED_BEFORE = ("Weapons equipped apart from Blades and Armours, the damage a person deals to characters "
                             "and the characters it defeats (attacking, or hitting back a direct attacker: the "
                             "'blocking'), the overflow of a person's attacks (counted with all overflow), any counter "
                             "per seat, and which source dealt a match's last point (this run was made before the "
                             "kernel counted the first three and the duelist HP lost by seat)")


def _ratio(part, numerator: list[str], denominator: list[str]) -> tuple[float, float, float]:
    """sum(numerator) / sum(denominator) over the rows of `part` (chunks, or cells), with a 95 %
    interval clustered by row (the ratio estimator's linearised variance); no interval from
    fewer than two rows."""
    y = part[numerator].sum(axis=1).to_numpy(float)
    x = part[denominator].sum(axis=1).to_numpy(float)
    if x.sum() <= 0:
        return (float("nan"),) * 3
    ratio = y.sum() / x.sum()
    if len(y) < 2:
        return ratio, float("nan"), float("nan")
    half = 1.96 * np.sqrt(np.sum((y - ratio * x) ** 2) / (len(y) * (len(y) - 1))) / x.mean()
    return ratio, ratio - half, ratio + half


def _shown(estimate, scale: float = 1.0, digits: int = 2, unit: str = "") -> str:
    value, low, high = (scale * v for v in estimate)
    if value != value:
        return "-"
    text = "%.*f%s" % (digits, value, unit)
    return text + (" [%.*f, %.*f]" % (digits, low, digits, high) if low == low else "")


def _point(estimate, digits: int = 2) -> str:
    """An estimate's value without its interval (table cells that hold two numbers)."""
    return _shown((estimate[0], float("nan"), float("nan")), digits=digits)


def _fighter(part) -> dict:
    """Q8's fighter estimates over the rows of `part` (its FIGHTER counters, first_lost and second_lost)."""
    kills = ["ct_person_kills", "ct_person_block_kills"]
    return {"weapons": _ratio(part, ["ct_weapon_equips"], ["matches"]),
            "char damage": _ratio(part, ["ct_person_char_dmg"], ["matches"]),
            "block damage": _ratio(part, ["ct_person_block_dmg"], ["matches"]),
            "kills": _ratio(part, ["ct_person_kills"], ["matches"]),
            "block kills": _ratio(part, ["ct_person_block_kills"], ["matches"]),
            "stars": _ratio(part, ["ct_person_kill_stars"], kills),
            "per weapon": _ratio(part, kills, ["ct_weapon_equips"]),
            "first lost": _ratio(part, ["first_lost"], ["matches"]),
            "second lost": _ratio(part, ["second_lost"], ["matches"])}


def _person(run, frame, kit):
    damage = [c for _, c in DAMAGE]
    if not all(c in frame for c in damage + ["ct_person_attacks", "ct_attacks"]):
        return None
    chunks = kit.chunk_frame(run)  # intervals clustered by chunk where the run keeps them, else by cell
    rows_frame = _frame(run, chunks) if chunks is not None else frame
    part = rows_frame[rows_frame["even"]]
    if not len(part):
        return None
    values = _values(run, kit)
    weapon_of = {r: int(values.get(r, {}).get(WEAPON_KEY, _default(WEAPON_KEY))) for r in set(part["rules"])}
    others = _others(values, WEAPON_KEY)
    part = part.assign(weapon=[weapon_of[r] for r in part["rules"]], other=[others.get(r, "") for r in part["rules"]])
    weapons = sorted(set(part["weapon"]))
    reference = _default(WEAPON_KEY) if _default(WEAPON_KEY) in weapons else weapons[0]
    several_skills, several_others = part["skill"].nunique() > 1, part["other"].nunique() > 1
    fighter = all(c in part for c in FIGHTER)
    if fighter:  # duelist HP lost by the first and the second player
        first0 = part["first"] == 0
        part = part.assign(first_lost=np.where(first0, part["ct_hp_lost0"], part["ct_hp_lost1"]),
                           second_lost=np.where(first0, part["ct_hp_lost1"], part["ct_hp_lost0"]))
    wins = {}  # (skill, other, deck, rank, weapon) -> (seat 0 wins, decided)
    estimates = {}
    for key, g in part.groupby(["skill", "other", "deck", "rank0", "weapon"], sort=True):
        wins[key] = (int(g["wins0"].sum()), int(g["decided"].sum()))
        estimates[key] = {"attacks": _ratio(g, ["ct_person_attacks"], ["matches"]),
                          "attack share": _ratio(g, ["ct_person_attacks"], ["ct_attacks"]),
                          "damage": _ratio(g, ["ct_dmg_person"], ["matches"]),
                          "damage share": _ratio(g, ["ct_dmg_person"], damage),
                          "hit back": _ratio(g, ["ct_dmg_hitback"], ["matches"])}
        if fighter:
            estimates[key].update(_fighter(g))
    rows = []
    for key, est in estimates.items():
        skill, other, deck, rank, weapon = key
        base = wins.get((skill, other, deck, rank, reference))
        effect = kit.difference(*base, *wins[key]) if base and weapon != reference else (float("nan"),) * 3
        rows.append({**({"skill": skill} if several_skills else {}), **({"other rules": other} if several_others else {}),
                     WEAPON_KEY: weapon, "deck": deck, "rank": int(rank),
                     "person attacks / match [95% CI]": _shown(est["attacks"]),
                     "% of attacks [95% CI]": _shown(est["attack share"], 100, 1, " %"),
                     "person vs person damage / match [95% CI]": _shown(est["damage"]),
                     "% of duelist damage [95% CI]": _shown(est["damage share"], 100, 1, " %"),
                     "hit back on the attacking person / match [95% CI]": _shown(est["hit back"]),
                     **({"Weapons equipped / match [95% CI]": _shown(est["weapons"]),
                         "damage to characters / match, attacking / blocking": "%s / %s" % (
                             _point(est["char damage"]), _point(est["block damage"])),
                         "defeated attacking / match [95% CI]": _shown(est["kills"]),
                         "defeated blocking / match [95% CI]": _shown(est["block kills"]),
                         "★ of a defeated character": _point(est["stars"], 1),
                         "defeats per Weapon [95% CI]": _shown(est["per weapon"]),
                         "HP lost / match, first / second player": "%s / %s" % (
                             _point(est["first lost"], 1), _point(est["second lost"], 1))} if fighter else {}),
                     "seat 0's template wins [95% CI]": kit.percent(*wins[key]),
                     "vs %s = %d [95%% CI]" % (WEAPON_KEY, reference): kit.points(*effect)})
    table = pd.DataFrame(rows)
    # the finding reads the strongest skill and the default of everything else, at the reference Weapon
    skill = _finding_skill(run, frame, kit)
    skill = skill if skill in set(part["skill"]) else sorted(set(part["skill"]))[0]
    other = "" if "" in set(part["other"]) else sorted(set(part["other"]))[0]
    where = (" (%s)" % ", ".join(x for x in (skill if several_skills else "", other) if x)) if several_skills or other \
        else ""
    base_part = part[(part["skill"] == skill) & (part["other"] == other) & (part["weapon"] == reference)]
    ranks = set(base_part["rank0"])  # the §18.2 baseline rank where played, else the highest
    rank = DEFAULT_RANK if DEFAULT_RANK in ranks else int(max(ranks))
    at_rank = base_part[base_part["rank0"] == rank]
    pooled_share, pooled_attacks = _ratio(at_rank, ["ct_dmg_person"], damage), _ratio(at_rank, ["ct_person_attacks"],
                                                                                     ["ct_attacks"])
    by_deck = {deck: estimates[skill, other, deck, rank, reference]["damage share"][0]
               for deck in sorted(set(at_rank["deck"]))}
    low_deck, high_deck = min(by_deck, key=by_deck.get), max(by_deck, key=by_deck.get)
    finding = ("At %s = %d and rank %d%s the person makes %s of attacks and deals %s of duelist damage (decks "
               "pooled; from %.1f %% in %s to %.1f %% in %s), and the characters it attacks hit back %.2f HP a match."
               % (WEAPON_KEY, reference, rank, where, _shown(pooled_attacks, 100, 1, " %"), _shown(pooled_share, 100, 1, " %"),
                  100 * by_deck[low_deck], low_deck, 100 * by_deck[high_deck], high_deck,
                  _ratio(at_rank, ["ct_dmg_hitback"], ["matches"])[0]))
    if fighter:
        est = _fighter(at_rank)
        finding += (" Each Weapon equipped defeats %s characters (%s a match attacking, %s blocking a direct "
                    "attacker, %s★ on average), the person deals %s damage a match to the characters it attacks and "
                    "%s to direct attackers, and the first player loses %s HP a match against the second's %s."
                    % (_shown(est["per weapon"]), _point(est["kills"]), _point(est["block kills"]),
                       _point(est["stars"], 1), _point(est["char damage"], 1), _point(est["block damage"], 1),
                       _point(est["first lost"], 1), _point(est["second lost"], 1)))
    if len(weapons) > 1:
        low_w, high_w = weapons[0], weapons[-1]
        moves = []
        for deck in sorted(set(at_rank["deck"])):
            a, b = wins.get((skill, other, deck, rank, low_w)), wins.get((skill, other, deck, rank, high_w))
            if a and b:
                moves.append((deck, kit.difference(*a, *b)))
        top = max(moves, key=lambda m: abs(m[1][0]) if m[1][0] == m[1][0] else -1)
        beyond = sum(1 for _, d in moves if d[1] > 0 or d[2] < 0)
        low_share = _ratio(part[(part["skill"] == skill) & (part["other"] == other) & (part["weapon"] == low_w) &
                                (part["rank0"] == rank)], ["ct_dmg_person"], damage)[0]
        high_share = _ratio(part[(part["skill"] == skill) & (part["other"] == other) & (part["weapon"] == high_w) &
                                 (part["rank0"] == rank)], ["ct_dmg_person"], damage)[0]
        finding += (" From %s = %d to %d the person's share of duelist damage goes %.1f %% -> %.1f %%, and seat 0's "
                    "template share moves most in %s (%s); %d of %d deck pairings move beyond their interval."
                    % (WEAPON_KEY, low_w, high_w, 100 * low_share, 100 * high_share, top[0], kit.points(*top[1]),
                       beyond, len(moves)))
        if fighter:
            arm = {w: _fighter(part[(part["skill"] == skill) & (part["other"] == other) & (part["weapon"] == w) &
                                    (part["rank0"] == rank)]) for w in (low_w, high_w)}
            defeats = {w: _point((a["kills"][0] + a["block kills"][0],)) for w, a in arm.items()}
            finding += (" The characters a person defeats go %s -> %s a match (attacking and blocking), the first "
                        "player's HP lost %s -> %s and the second's %s -> %s."
                        % (defeats[low_w], defeats[high_w], _point(arm[low_w]["first lost"], 1),
                           _point(arm[high_w]["first lost"], 1), _point(arm[low_w]["second lost"], 1),
                           _point(arm[high_w]["second lost"], 1)))
    else:
        finding += (" Only %s = %d was played, so the run cannot say how many wins the person is worth; "
                    "docs/examples/tcg-weapon-sweep.toml varies it ([vary] %s = [0, 3, 6])."
                    % (WEAPON_KEY, reference, WEAPON_KEY))

    def figure():
        # one weapon_atk is one x value: the win shares against it are the finding's and the table's
        # words, so only the damage panel is drawn; two or more arms add the panel of wins against it
        several_weapons = len(weapons) > 1
        fig, panels = _figure(2 if several_weapons else 1, 5.0, 3.8)
        decks = sorted(set(at_rank["deck"]))
        x = np.arange(len(decks))
        width = 0.8 / len(weapons)
        for i, weapon in enumerate(weapons):
            est = [estimates.get((skill, other, deck, rank, weapon), {}).get("damage share", (np.nan,) * 3)
                   for deck in decks]
            y = np.array([e[0] for e in est])
            err = np.nan_to_num(np.abs(np.array([(e[1], e[2]) for e in est]).T - y))
            panels[0].bar(x + (i - (len(weapons) - 1) / 2) * width, 100 * y, width, yerr=100 * err, capsize=2,
                          label="%s = %d" % (WEAPON_KEY, weapon) if several_weapons else None)
        panels[0].set_xticks(x, decks, rotation=45, ha="right", fontsize=8)
        panels[0].set_ylabel("person vs person, % of duelist damage")
        if several_weapons:
            for deck in decks:
                pts = [(w, wins[skill, other, deck, rank, w]) for w in weapons if (skill, other, deck, rank, w) in wins]
                y = np.array([_rate(k, n) for _, (k, n) in pts])
                err = np.abs(np.array([kit.wilson(k, n) if n else (np.nan, np.nan) for _, (k, n) in pts]).T - y)
                seat1 = deck.split("/")[-1]  # colour: seat 0's template; marker: seat 1's
                panels[1].errorbar([w for w, _ in pts], 100 * y, yerr=100 * err, capsize=3,
                                   marker={"swarm": "v", "advance": "^", "curve": "s"}.get(seat1, "o"),
                                   color=COLOURS.get(deck.split("/")[0]), ls="-" if "/" in deck else ":", label=deck)
            panels[1].axhline(50, color="0.6", lw=0.8)
            panels[1].set_xticks(weapons)
            panels[1].set_xlabel("%s (the person's ATK with a Weapon)" % WEAPON_KEY)
            panels[1].set_ylabel("seat 0's template wins, % of decided")
            _legend_below(fig, panels, ncols=5)
        fig.suptitle("rank %d%s%s" % (rank, where, "" if several_weapons else ", %s = %d" % (WEAPON_KEY, reference)),
                     fontsize=9)
        return fig

    return _section(kit, "tcg_person", "Q8 The person as a fighter: its attacks, its damage and what a Weapon is worth",
                    "Equal ranks: the person's attacks per match (both seats) and their share of all attacks, the "
                    "duelist damage of person-vs-person attacks (T-AMB-64/86) per match and as a share of all "
                    "duelist damage, and the HP the attacking person's duelist loses to characters hitting back%s; "
                    "95 %% intervals clustered by %s. The person's ATK without a Weapon is person_base_atk (0 by "
                    "default, and a person with ATK 0 never attacks), so by default every person attack is a "
                    "Weapon attack and %s = 0 is the game without the person as a fighter: seat 0's win share "
                    "against the %s = %d arm (same deck, rank and other rules) is what a Weapon's value is worth in "
                    "wins. Not counted by the kernel, so not answered here: %s."
                    % ("; then the Weapons equipped per match, the damage a person deals to the characters it "
                       "attacks and to characters attacking it directly (its hit back, T-BATTLE-12: blocking), the "
                       "characters it defeats each way, their mean stars, the defeats per Weapon equipped, and the "
                       "duelist HP the first and the second player lose per match" if fighter else "",
                       "chunk" if chunks is not None else "cell", WEAPON_KEY, WEAPON_KEY, reference,
                       PERSON_NOT_COUNTED if fighter else PERSON_NOT_COUNTED_BEFORE), finding, table, figure)


# ---- Q9 how often the limits bind ---------------------------------------------------------

def _limits(run, frame, kit):
    part = frame[frame["even"]]
    columns = [c for _, c in LIMITS]
    if not len(part) or not all(c in frame for c in columns):
        return None
    groups = part.groupby(["variant", "deck", "rank0"], sort=True)[columns + ["matches"]].sum().reset_index()
    rows = [_keyed(frame, row["variant"], {"deck": row["deck"], "rank": int(row["rank0"]),
                                           **{name: "%.2f" % (row[c] / row["matches"]) for name, c in LIMITS}})
            for _, row in groups.iterrows()]
    table = pd.DataFrame(rows)
    base, where = _at(run, frame, kit)
    groups_base = groups[groups["variant"] == base]
    per_match = {name: groups_base[c] / groups_base["matches"] for name, c in LIMITS}
    parts = []
    for name, values in per_match.items():
        top = values.idxmax()
        never = int((values < 0.05).sum())
        parts.append("%s: at most %.1f a match (%s, rank %d), under 0.05 in %d of %d cells"
                     % (name, values[top], groups.loc[top, "deck"], groups.loc[top, "rank0"], never, len(values)))
    finding = "Per match (both seats)%s: " % where + "; ".join(parts) + "."

    def figure():
        fig, panels = _figure(3, 3.6)
        for axes, (name, c) in zip(panels, LIMITS):
            for template in TEMPLATES:
                g = groups[groups["deck"] == template].groupby("rank0")[[c, "matches"]].sum()
                if len(g):
                    axes.plot(g.index, g[c] / g["matches"], "o-", color=COLOURS.get(template), label="%s mirror" % template)
            g = groups.groupby("rank0")[[c, "matches"]].sum()
            axes.plot(g.index, g[c] / g["matches"], "k--", label="all decks")
            axes.set_title(name, fontsize=9)
            axes.set_xlabel("rank (both seats)")
            axes.set_ylabel("per match")
        _ticks_at_ranks(panels)
        _legend_below(fig, panels)
        return fig

    return _section(kit, "tcg_limits", "Q9 How often the board and hand limits bind",
                    "Equal ranks: Action phases begun with a character in hand and the front row full "
                    "(front_slots), with equipment in hand and the back row full (back_slots), and cards "
                    "discarded to the hand limit (T-PHASE-12), per match, both seats together.", finding, table, figure)


# ---- Q10 the template matrix --------------------------------------------------------------

def _cycle(templates, beats) -> tuple | None:
    for c in permutations(templates, 3):
        if c[0] == min(c) and {(c[0], c[1]), (c[1], c[2]), (c[2], c[0])} <= beats:
            return c
    return None


def _matrix_figure(panels_data, several: bool):
    """Q10's matrix, a panel per (variant, rank): each cell is the row template's share against the
    column's, coloured by the template that wins it (its hue, shaded by how far from even), so a
    matchup shows one colour in both of its cells; a grey bar reads the shade."""
    from matplotlib import colormaps
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize, to_rgb
    from matplotlib.patches import Patch
    fig, panels = _figure(len(panels_data), 3.2, 3.5)
    for axes, (variant, rank, templates, matrix) in zip(panels, panels_data):
        image = np.ones((len(templates), len(templates), 3))  # white: the diagonal, a template against itself
        for i, a in enumerate(templates):
            for j, b in enumerate(templates):
                wins, decided = matrix.get((a, b), (0, 0)) if a != b else (0, 0)
                if not decided:
                    continue
                share = wins / decided
                winner = a if share > 0.5 else b
                strength = min(abs(share - 0.5) / 0.5, 1.0)  # 0 at even, 1 when one side always wins
                image[i, j] = 1 - strength * (1 - np.array(to_rgb(COLOURS.get(winner, "0.3"))))
                axes.text(j, i, "%.0f" % (100 * share), ha="center", va="center", fontsize=9)
        axes.imshow(image)
        axes.set_xticks(range(len(templates)), templates, fontsize=8)
        axes.set_yticks(range(len(templates)), templates, fontsize=8)
        axes.set_xlabel("against (column template)", fontsize=8)
        if axes is panels[0]:
            axes.set_ylabel("row template's wins, % of decided", fontsize=8)
        axes.set_title("rank %d%s" % (rank, " " + variant if several else ""), fontsize=9)
    shade = ScalarMappable(Normalize(50, 100), colormaps["Greys"])
    bar = fig.colorbar(shade, ax=panels, shrink=0.8, pad=0.01)
    bar.set_label("winner's share, % (shade)", fontsize=8)
    shown = [t for t in TEMPLATES if any(t in templates for _, _, templates, _ in panels_data)]
    fig.legend([Patch(color=COLOURS[t]) for t in shown], ["%s wins" % t for t in shown], loc="outside lower center",
               ncols=len(shown), fontsize="x-small", title="colour: the template that wins the cell",
               title_fontsize="x-small")
    return fig


def _template_matrix(run, frame, kit):
    part = frame[frame["even"] & ~frame["mirror"]]
    if not len(part) or part["deck0"].nunique() < 2:
        return None
    rows, panels_data, verdicts = [], [], []
    for (variant, rank), g in part.groupby(["variant", "rank0"], sort=True):
        matrix = _matrix(g)
        templates = sorted({a for a, _ in matrix})
        beats = {(a, b) for (a, b), (w, n) in matrix.items() if n and kit.wilson(w, n)[0] > 0.5}
        cycle = _cycle(templates, beats)
        dominant = [a for a in templates if all((a, b) in beats for b in templates if b != a)]
        flag = ("cycle " + " > ".join(cycle + (cycle[0],)) if cycle else
                "no cycle; %s beats every other" % dominant[0] if dominant else "no cycle, no dominant template")
        for a in templates:
            rows.append(_keyed(frame, variant, {"rank": rank, "template": a,
                                                **{"vs %s" % b: kit.percent(*matrix[a, b]) if b != a else "-"
                                                   for b in templates},
                                                "rock-paper-scissors": flag if a == templates[0] else ""}))
        panels_data.append((variant, rank, templates, matrix))
        verdicts.append((rank, variant, cycle, dominant))
    table = pd.DataFrame(rows)
    base, where = _at(run, frame, kit)
    verdicts = [(r, v, c, d) for r, v, c, d in verdicts if v == base]
    cycles = [(r, c) for r, v, c, d in verdicts if c]
    dominants = {}
    for rank, variant, cycle, dominant in sorted(verdicts, key=lambda item: item[0]):
        if dominant:
            dominants.setdefault(dominant[0], []).append(str(rank))
    finding = (("A rock-paper-scissors cycle at rank%s %s; " % ("s" if len(cycles) > 1 else "",
                                                               ", ".join(str(r) for r, _ in cycles)) if cycles else
                "No rock-paper-scissors cycle at any rank%s; " % where) +
               ("; ".join("%s beats every other template at rank%s %s" % (t, "s" if len(r) > 1 else "", ", ".join(r))
                          for t, r in dominants.items()) or "no template beats every other") + ".")

    def figure():
        return _matrix_figure(panels_data, _several(frame))

    return _section(kit, "tcg_matrix", "Q10 Template x template, with a rock-paper-scissors flag",
                    "Equal ranks: the row template's share of decided matches against the column's, both seatings "
                    "and first players pooled (95 % Wilson intervals); 'beats' means the interval lies above 50 %. "
                    "A cycle is three templates each beating the next.", finding, table, figure)


# ---- Q11 the sensitivity ranking: another command's question --------------------------------

SENSITIVITY_COMMAND = ("cardbalance sensitivity --game novel_tcg --deck swarm/advance --rank 10 --skill greedy "
                       "--param star_mod=2:8 --param free_summon_max_star=4:8 --param T-AMB-54 --param T-AMB-07 "
                       "--method sobol --n 64")


def _sensitivity(run, frame, kit):
    """Q11 is not a sweep's question (a grid of cells ranks no parameter): say which command answers it."""
    return kit.Section("tcg_sensitivity", "Q11 Sensitivity ranking: answered by cardbalance sensitivity",
                       "Which parameters and open readings (§15) move the headline metrics most is answered by a "
                       "design over the parameters, not by a sweep's grid: `cardbalance sensitivity --game "
                       "novel_tcg` (Sobol', Morris or a surrogate over rules numbers, card-pool reals, deck-template "
                       "ratios and readings as factors), for example `%s`. docs/examples/tcg-sensitivity/ holds such "
                       "a run over 15 parameters and docs/novel-tcg.md says what it found." % SENSITIVITY_COMMAND,
                       None, None, ["Q11 is answered by `cardbalance sensitivity --game novel_tcg` "
                                    "(docs/examples/tcg-sensitivity/)."])


# ---- the card pool and deck lists the run played (game data) --------------------------------

def _card_pool(run, frame, kit):
    from sim.novel_tcg import pool_data
    document = pool_data.stored_document(run.game_data)
    if document is None:
        return None
    rows = []
    for entry in document["rules"]:
        for deck in entry["decks"]:
            rows.append({"rules": ", ".join(entry["names"]), "template": deck["template"], "rank": deck["rank"],
                         "star ceiling": deck["ceiling"], "deck list": pool_data.deck_text(entry, deck)})
    name, meta_entry = pool_data.DATA_NAME, (run.meta.get("game_data") or {}).get(pool_data.DATA_NAME, {})
    caption = ("The card pool and every deck list this run played, read from its own copy (data/%s, sha256 %s; "
               "--resume and play --from play these): ★ ATK/HP of each character kind, equipment with its value "
               "and durability." % (name, meta_entry.get("sha256", "?")))
    return kit.Section("tcg_card_pool", "Card pool and deck lists", caption, pd.DataFrame(rows), None, [])


def report_sections(run, tables, kit):
    """`GameSpec.extra["report_sections"]`: the TCG's sections, in the order of §18.3."""
    frame = _frame(run)
    builders = (_first_player, _deck_out, _rank_gap, _star_modifier, _advance_economy, _limit_offset, _length,
                _damage, _person, _limits, _template_matrix, _sensitivity, _card_pool)
    sections = [builder(run, frame, kit) for builder in builders]
    return [section for section in sections if section is not None]
