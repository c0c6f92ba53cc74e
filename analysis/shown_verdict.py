"""One verdict-table row as every view shows it: the heatmap cell, the HTML table cell, the counts.

A row can carry three claims (the seats' balance, the first player, and in a handicap row the
difference from the mirror), and the views used to pick among them each in their own way, so a
heatmap cell could be blue "<seat 0's side> 65 %" beside a table that said "imbalanced (<seat 1's
side>), −11.7 points vs the mirror" (issue 38). `shown_verdict(row)` picks once, by the question the row answers:

- a mirror (the same side in both seats): the first player is the balance question, so the
  first-player verdict is shown; the seat-0-vs-seat-1 set-up check goes in a footnote;
- a row with unequal seats and a mirror to compare with: the difference from the mirror, the
  side ahead named by its sign (seat 0's raw share there measures the handicap, not the sides);
- a row with unequal seats and no mirror: "handicap", no side named;
- any other row: seat 0's share of decided matches and its verdict.

`category` names the colour (reports map it to a fill: reports/figures.py SIDE_COLOURS, the page's
`verdict-<category>` classes); `verdict_counts` counts the same kinds for the page's badges and
the terminal, so the two cannot disagree. Pure functions of a row of analysis.tables.verdicts.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from analysis.verdict import BALANCED, HANDICAP, IMBALANCED, UNDECIDED

FIRST_PLAYER, BALANCE = "first player", "balance"  # the question a shown verdict answers
SEAT0, SEAT1, FIRST, SECOND = "seat0", "seat1", "first", "second"  # colour categories of an imbalance


@dataclass(frozen=True)
class ShownVerdict:
    question: str  # FIRST_PLAYER (a mirror) or BALANCE
    kind: str  # balanced / imbalanced / undecided / handicap
    category: str  # the colour: seat0 / seat1 / first / second, or the kind when no side is favoured
    cell: str  # the heatmap's two short lines: the side ahead and its share or its points vs the mirror
    words: str  # the table's sentence
    footnote: str  # a mirror's set-up check ("" elsewhere)


def _missing(value) -> bool:
    return value is None or value != value


def _side_name(row, seat: int) -> str:
    name = row["seat%d_name" % seat]
    return "seat %d" % seat if not name or row["seat0_name"] == row["seat1_name"] else str(name)


def first_player_shown(row) -> tuple[str, str, str, str]:
    """(kind, category, cell, words) of the row's first-player verdict."""
    kind, share = row["first_player_verdict"], row["first_share"]
    category = ((FIRST if share > 0.5 else SECOND) if kind == IMBALANCED and not _missing(share) else kind)
    if _missing(share):
        return kind, category, "-", kind
    ahead, value = ("1st", share) if share >= 0.5 else ("2nd", 1 - share)
    words = ("imbalanced — the %s player wins %.1f %%" % ("first" if share > 0.5 else "second", 100 * value)
             if kind == IMBALANCED else kind)
    return kind, category, "%s\n%.0f%%" % (ahead, 100 * value), words


def _set_up_check(row) -> str:
    """A mirror's seat 0 vs seat 1 claim, as its footnote."""
    if row["verdict"] == HANDICAP:
        return "unequal seats: seat 0's share, %s, is the handicap's effect" % _percent(row["seat0_share"])
    return "set-up check, seat 0 vs seat 1: %s; seat 0 wins %s of decided matches" % (
        row["verdict"] + (" — favours %s" % row["favoured"] if row["favoured"] else ""), _percent(row["seat0_share"]))


def _percent(value) -> str:
    return "–" if _missing(value) else "%.1f %%" % (100 * value)


def _judged_on_mirror(row) -> bool:
    return bool(row["handicap"]) and not bool(row["mirror"]) and bool(row["reference"]) \
        and not _missing(row["vs_mirror"])


def shown_verdict(row) -> ShownVerdict:
    """The verdict a row shows in every view (the module docstring says which and why)."""
    if bool(row["mirror"]):
        kind, category, cell, words = first_player_shown(row)
        return ShownVerdict(FIRST_PLAYER, kind, category, cell, "mirror — first player " + words, _set_up_check(row))
    kind = row["verdict"]
    if _judged_on_mirror(row):
        effect = float(row["vs_mirror"])
        ahead = 0 if effect >= 0 else 1
        category = (SEAT0 if effect > 0 else SEAT1) if kind == IMBALANCED else kind
        words = "%s%s (difference from the mirror %s: %+.1f pts [%+.1f, %+.1f])" % (
            kind, " — favours %s" % row["favoured"] if row["favoured"] else "", row["reference"], 100 * effect,
            100 * row["vs_mirror_low"], 100 * row["vs_mirror_high"])
        return ShownVerdict(BALANCE, kind, category, "%s\n+%.1f pts" % (_side_name(row, ahead), abs(100 * effect)),
                            words, "")
    share = row["seat0_share"]
    if kind == HANDICAP:
        category, words = HANDICAP, "handicap (%s)" % row["basis"]
    else:
        category = (SEAT0 if share > 0.5 else SEAT1) if kind == IMBALANCED else kind
        words = kind + (" — favours %s" % row["favoured"] if row["favoured"] else "")
    if _missing(share):
        return ShownVerdict(BALANCE, kind, category, "-", words, "")
    ahead = 0 if share >= 0.5 else 1
    return ShownVerdict(BALANCE, kind, category, "%s\n%.0f%%" % (_side_name(row, ahead), 100 * max(share, 1 - share)),
                        words, "")


def set_up_failed(row) -> bool:
    """A mirror with equal seats whose seat 0 vs seat 1 check is imbalanced: by symmetry it should not be,
    so the set-up is suspect."""
    return bool(row["mirror"]) and not bool(row["handicap"]) and row["verdict"] == IMBALANCED


def verdict_counts(verdicts: pd.DataFrame) -> list[dict]:
    """The counts a report leads with, as groups {"group": title, "items": [(category, text)]}: the balance
    verdicts shown by the non-mirror rows, the first player over every row (mirrors included: in a mirror
    it is the balance question), and the failed set-up checks when there are any. The page's badges and
    the terminal print these same groups."""
    shown = [shown_verdict(row) for _, row in verdicts.iterrows()]
    balance = [verdict.kind for verdict in shown if verdict.question == BALANCE]
    out = []
    if balance:
        items = [(kind, "%d %s" % (balance.count(kind), kind)) for kind in (IMBALANCED, BALANCED, UNDECIDED)]
        if balance.count(HANDICAP):
            items.append((HANDICAP, "%d %s" % (balance.count(HANDICAP), HANDICAP)))
        out.append({"group": "Balance (%d non-mirror rows)" % len(balance), "items": items})
    first = [first_player_shown(row)[1] for _, row in verdicts.iterrows()]
    out.append({"group": "First player (%d rows, mirrors included)" % len(verdicts), "items": [
        (FIRST, "%d favour the first player" % first.count(FIRST)),
        (SECOND, "%d favour the second" % first.count(SECOND)),
        (BALANCED, "%d balanced" % first.count(BALANCED)),
        (UNDECIDED, "%d undecided" % first.count(UNDECIDED))]})
    broken = sum(set_up_failed(row) for _, row in verdicts.iterrows())
    if broken:
        out.append({"group": "Set-up check", "items": [
            (IMBALANCED, "%d mirror row(s) with equal seats favour a seat: check the set-up" % broken)]})
    return out


def counts_lines(verdicts: pd.DataFrame) -> list[str]:
    """`verdict_counts` as terminal lines: 'Balance (12 non-mirror rows): 3 imbalanced, 9 balanced, 0 undecided.'"""
    return ["%s: %s." % (group["group"], ", ".join(text for _, text in group["items"]))
            for group in verdict_counts(verdicts)]
