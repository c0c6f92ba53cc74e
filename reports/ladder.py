"""The report of a ladder run: printed ladder, figures, Markdown and HTML.

`build_ladder_report(run_dir)` writes `<run>/ladder/`: `ladder.html` (the
sweep report's stylesheet, figures inline), `ladder.md` (the same in
Markdown), `ratings.png` (the ladder: Elo with 95 % intervals, overall and
per seat name played, e.g. each side of a series), `pairwise.png` (the heatmap of row-vs-column scores with
their Wilson intervals) and the tables as CSV (the first mover's Elo offset in
`tables/first_mover.csv`). `ladder_text` is what the
command prints. Reports never simulate: everything comes from the run folder.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from analysis.ladder import Ladder, load_ladder, rungs_statement
from analysis.runs import load_run
from sim.safe_output import atomic_folder, write_text_atomic

LADDER_FOLDER = "ladder"
PAGE = "ladder.html"
DPI = 100


# ---- words ------------------------------------------------------------------------------

def _pct(value) -> str:
    return "-" if value != value else "%.1f%%" % (100 * value)


def _interval(low, high, pct: bool = True) -> str:
    if low != low:
        return "-"
    return "[%s, %s]" % ((_pct(low), _pct(high)) if pct else ("%+.0f" % low, "%+.0f" % high))


def rating_rows(lad: Ladder) -> list[list[str]]:
    rows = []
    for row in lad.ratings.sort_values("elo", ascending=False, kind="stable").itertuples(index=False):
        rows.append([str(row.rank), row.agent, "%+.0f" % row.elo, _interval(row.elo_low, row.elo_high, pct=False)])
    return rows


def rung_rows(lad: Ladder) -> list[list[str]]:
    rows = []
    for row in lad.rungs.itertuples(index=False):
        if not row.below:
            continue
        rows.append([row.agent, row.below, str(row.matches), _pct(row.score), _interval(row.score_low, row.score_high),
                     "%+.0f %s" % (row.elo_gap, _interval(row.elo_gap_low, row.elo_gap_high, pct=False))
                     if row.elo_gap_low == row.elo_gap_low else "%+.0f" % row.elo_gap,
                     "yes" if row.beats else "not shown (Holm p %.2g)" % row.p_rung])
    return rows


def pairwise_rows(lad: Ladder) -> list[list[str]]:
    return [[row.agent_a, row.agent_b, str(row.matches), str(row.a_wins), str(row.b_wins), str(row.draws),
             _pct(row.score), _interval(row.score_low, row.score_high)] for row in lad.pairwise.itertuples(index=False)]


def series_rows(lad: Ladder) -> list[list[str]]:
    return [[row.series, row.agent_a, row.agent_b, str(row.matches), str(row.a_wins), str(row.b_wins), str(row.draws),
             _pct(row.score), _interval(row.score_low, row.score_high)] for row in lad.by_series.itertuples(index=False)]


def seat_name_rows(lad: Ladder) -> list[list[str]]:
    return [[row.agent, row.seat_name, "%+.0f" % row.elo, _interval(row.elo_low, row.elo_high, pct=False)]
            for row in lad.by_seat_name.itertuples(index=False)]


def seat_word(lad: Ladder) -> str:
    """What the run's seat names are (its choice dimension's seat columns, e.g. a side)."""
    return lad.words.get("seat_name") or "seat name"


def seat_name_header(lad: Ladder) -> list[str]:
    return ["agent", "%s played" % seat_word(lad), "Elo", "95% bootstrap CI"]


def seat_name_lines(lad: Ladder, heading) -> list[str]:
    """The per-seat-name ratings under `heading(words)`, or the line saying why there are none."""
    if len(lad.by_seat_name):
        return heading("By %s played" % seat_word(lad))
    if lad.seat_name_note and lad.words.get("seat_name"):
        return ["No per-%s ratings: %s." % (seat_word(lad), lad.seat_name_note)]
    if lad.seat_name_note:
        return ["No ratings per seat name: %s." % lad.seat_name_note]
    return []


def first_mover_words(lad: Ladder) -> str:
    """The first mover's Elo offset with its interval, or why there is none."""
    first = lad.first_mover
    if first.get("note"):
        return "No first-mover offset: %s." % first["note"]
    interval = " %s (95%% bootstrap CI)" % _interval(first["elo_low"], first["elo_high"], pct=False) \
        if first["elo_low"] == first["elo_low"] else ""
    return ("First mover: %+.0f Elo%s: moving first is worth that many rating points to either agent, fitted "
            "jointly with the ratings (the ratings are net of it)." % (first["elo"], interval))


def first_mover_table(lad: Ladder) -> pd.DataFrame:
    """tables/first_mover.csv: one row, the offset on the Elo scale."""
    first = lad.first_mover
    return pd.DataFrame([{"term": "first_mover", "elo": first["elo"], "elo_low": first["elo_low"],
                          "elo_high": first["elo_high"], "bootstrap": lad.bootstrap, "note": first.get("note", "")}])


def resampling_words(lad: Ladder) -> str:
    """What the intervals' bootstrap redrew; a warning when it could not redraw deal blocks."""
    if not lad.bootstrap:
        return ""
    if lad.resampling == "deal blocks":
        return ("Intervals: estimate ± t · bootstrap s.d., the bootstrap redrawing blocks of deals (chunks) whole, "
                "since every pair played the same deals.")
    return ("WARNING: intervals redraw each cell's matches on their own: %s. Common deals correlate the pairs' "
            "outcomes, so the end agents' and the first mover's intervals can be too narrow (docs/ladder.md)."
            % lad.resampling_note)


def cycle_words(lad: Ladder) -> str:
    if not lad.cycles:
        return "No intransitive cycle: no agent chain A beats B beats C beats A with every step's interval above 50%."
    shown = ["%s" % " > ".join(cycle + [cycle[0]]) for cycle in lad.cycles[:5]]
    return "INTRANSITIVE: %d cycle(s) where every step's interval is above 50%%: %s. Ratings summarise such " \
           "agents poorly; read the pairwise table." % (len(lad.cycles), "; ".join(shown))


RATING_HEADER = ["rank", "agent", "Elo", "95% bootstrap CI"]
RUNG_HEADER = ["agent", "vs the rung below", "matches", "score", "95% Wilson CI", "Elo gap [95% bootstrap CI]",
               "beats it?"]
PAIR_HEADER = ["agent A", "agent B", "matches", "A wins", "B wins", "draws", "A score", "95% Wilson CI"]


def _plain_table(header, rows) -> list[str]:
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows)]
    def line(cells):
        return "  ".join(str(cell).ljust(width) for cell, width in zip(cells, widths)).rstrip()
    return [line(header), line(["-" * w for w in widths])] + [line(row) for row in rows]


def ladder_text(lad: Ladder, run) -> str:
    """The printed ladder: ratings, rungs, cycles, and the per-seat-name ratings."""
    lines = ["Ladder — %s, %s: %d agents, %d matches (Bradley-Terry on the Elo scale, mean 0; %s bootstrap "
             "resamples; a draw is half a win)" % (run.game, Path(run.path).name, len(lad.agents),
                                                   int(run.results["matches"].sum()), lad.bootstrap or "no")]
    if not run.complete:
        lines.append("WARNING: this run is incomplete; ratings cover the matches played.")
    lines += _plain_table(RATING_HEADER, rating_rows(lad))
    lines += [first_mover_words(lad)] + ([resampling_words(lad)] if resampling_words(lad) else [])
    lines += ["", "Rungs (each agent against the next one down):"] + _plain_table(RUNG_HEADER, rung_rows(lad))
    lines += [rungs_statement(lad.rungs)]
    lines += ["", cycle_words(lad)]
    named = seat_name_lines(lad, lambda title: [title + ":"] + _plain_table(seat_name_header(lad), seat_name_rows(lad)))
    lines += [""] + named if named else []
    if len(lad.agents) <= 3:
        lines += ["", "Pairwise:"] + _plain_table(PAIR_HEADER, pairwise_rows(lad))
    return "\n".join(lines)


def _markdown_table(header, rows) -> list[str]:
    return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)] + \
           ["| " + " | ".join(row) + " |" for row in rows]


def ladder_markdown(lad: Ladder, run) -> str:
    lines = ["# Ladder — %s (%s)" % (run.meta.get("name") or Path(run.path).name, run.game), "",
             "%d agents, %d matches on common deals, seats and first player swapped. Ratings: Bradley–Terry maximum "
             "likelihood on the Elo scale (mean 0) with %s bootstrap resamples; scores: (wins + draws/2) / matches "
             "with 95 %% Wilson intervals." % (len(lad.agents), int(run.results["matches"].sum()), lad.bootstrap or "no"),
             "", "## Ratings", ""]
    lines += _markdown_table(RATING_HEADER, rating_rows(lad))
    lines += ["", first_mover_words(lad)] + (["", resampling_words(lad)] if resampling_words(lad) else [])
    lines += ["", "## Rungs", ""] + _markdown_table(RUNG_HEADER, rung_rows(lad)) + ["", rungs_statement(lad.rungs)]
    lines += ["", cycle_words(lad)]
    named = seat_name_lines(lad, lambda title: ["## " + title, ""] + _markdown_table(seat_name_header(lad),
                                                                                    seat_name_rows(lad)))
    lines += [""] + named if named else []
    lines += ["", "## Pairwise scores", ""] + _markdown_table(PAIR_HEADER, pairwise_rows(lad))
    if lad.by_series["series"].nunique() > 1:
        series = lad.words.get("series") or "series"
        lines += ["", "## Pairwise scores by %s" % series, ""] + _markdown_table([series, *PAIR_HEADER], series_rows(lad))
    return "\n".join(lines) + "\n"


# ---- figures ------------------------------------------------------------------------------

def _figure(width, height):
    figure = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def ratings_figure(lad: Ladder) -> Figure:
    """The ladder: one row per agent, strongest on top, Elo with its bootstrap interval
    (and per seat name played, when the game has seat names)."""
    ordered = lad.ratings.sort_values("elo", kind="stable")
    figure = _figure(8, 1.2 + 0.45 * len(ordered))
    axes = figure.subplots()
    y = np.arange(len(ordered))
    errors = None
    if ordered["elo_low"].notna().all():  # symmetric intervals now; the clip kept for any that is not
        errors = [np.maximum(ordered["elo"] - ordered["elo_low"], 0), np.maximum(ordered["elo_high"] - ordered["elo"], 0)]
    axes.errorbar(ordered["elo"], y, xerr=errors, fmt="o", color="black", capsize=3, label="overall")
    position = dict(zip(ordered["agent"], y))
    for k, (name, part) in enumerate(lad.by_seat_name.groupby("seat_name", sort=True)):
        offset = 0.18 * (k + 1) * (1 if k % 2 == 0 else -1)
        ys = part["agent"].map(position) + offset
        err = None
        if part["elo_low"].notna().all():
            err = [np.maximum(part["elo"] - part["elo_low"], 0), np.maximum(part["elo_high"] - part["elo"], 0)]
        axes.errorbar(part["elo"], ys, xerr=err, fmt="s", markersize=4, capsize=2, alpha=0.8, label="as %s" % name)
    axes.set_yticks(y, ordered["agent"])
    axes.set_xlabel("rating (Elo scale, mean 0; bars: 95 % bootstrap interval)")
    axes.axvline(0, color="#bbb", linewidth=0.8)
    axes.grid(axis="x", alpha=0.3)
    axes.legend(loc="lower right", fontsize="small")
    figure.suptitle("Ladder: Bradley–Terry ratings")
    return figure


def pairwise_figure(lad: Ladder) -> Figure:
    """Heatmap of the row agent's score against the column agent, with its Wilson interval."""
    agents = lad.agents
    matrix = lad.matrix.loc[agents, agents].to_numpy(dtype=float)
    low = pd.DataFrame(np.nan, index=agents, columns=agents)
    high = low.copy()
    for row in lad.pairwise.itertuples(index=False):
        low.loc[row.agent_a, row.agent_b], high.loc[row.agent_a, row.agent_b] = row.score_low, row.score_high
        low.loc[row.agent_b, row.agent_a], high.loc[row.agent_b, row.agent_a] = 1 - row.score_high, 1 - row.score_low
    size = 1.6 + 1.1 * len(agents)
    figure = _figure(size + 1.5, size)
    axes = figure.subplots()
    image = axes.imshow(np.ma.masked_invalid(matrix), cmap="RdBu", vmin=0, vmax=1)
    for i in range(len(agents)):
        for j in range(len(agents)):
            if i != j and matrix[i, j] == matrix[i, j]:
                axes.text(j, i, "%.0f%%\n[%.0f, %.0f]" % (100 * matrix[i, j], 100 * low.iat[i, j], 100 * high.iat[i, j]),
                          ha="center", va="center", fontsize=8,
                          color="white" if abs(matrix[i, j] - 0.5) > 0.3 else "black")
    axes.set_xticks(range(len(agents)), agents, rotation=30, ha="right")
    axes.set_yticks(range(len(agents)), agents)
    axes.set_xlabel("opponent")
    axes.set_ylabel("agent")
    figure.colorbar(image, ax=axes, label="score of the row agent (draw = ½)")
    figure.suptitle("Pairwise scores with 95 % Wilson intervals")
    return figure


# ---- the page -------------------------------------------------------------------------------

def _sweep_report_style() -> str:
    """The sweep report's stylesheet, so both reports look alike from one source."""
    template = Path(__file__).with_name("templates") / "report.html"
    match = re.search(r"<style>.*?</style>", template.read_text(encoding="utf-8"), re.S)
    return match.group(0) if match else ""


def _html_table(header, rows) -> str:
    from html import escape
    head = "".join("<th>%s</th>" % escape(h) for h in header)
    body = "".join("<tr>%s</tr>" % "".join(
        '<td%s>%s</td>' % (' class="num"' if re.match(r"^[-+\d\[]", cell) else "", escape(cell)) for cell in row)
        for row in rows)
    return '<table class="data"><thead><tr>%s</tr></thead><tbody>%s</tbody></table>' % (head, body)


def _command(lad: Ladder, run) -> str:
    info = run.meta.get("ladder") or {}
    return info.get("command") or "cardbalance ladder --agents %s --matches %s --seed %s" % (
        ",".join(lad.agents), info.get("matches_per_comparison", "?"), run.meta.get("seed"))


def ladder_html(lad: Ladder, run, figures: dict[str, Path]) -> str:
    from html import escape

    from reports.html import data_uri
    title = "Ladder report — %s (%s)" % (run.meta.get("name") or Path(run.path).name, run.game)
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',  # as the sweep report
             '<meta name="generator" content="cardbalance ladder report"><title>%s</title>' % escape(title),
             _sweep_report_style(), "</head><body>", "<h1>%s</h1>" % escape(title),
             '<p class="lead">%d agents, %d matches on common deals, seats and first player swapped. Ratings are '
             "Bradley–Terry maximum likelihood on the Elo scale (mean 0) with %s bootstrap resamples; scores are "
             "(wins + draws/2) / matches with 95 %% Wilson intervals (docs/ladder.md).</p>"
             % (len(lad.agents), int(run.results["matches"].sum()), lad.bootstrap or "no")]
    if not run.complete:
        parts.append('<p class="warning"><strong>Incomplete run.</strong> Ratings cover the matches played so far.</p>')
    parts.append('<p class="%s">%s</p>' % ("warning" if lad.cycles else "lead", escape(cycle_words(lad))))
    # the sweep report's navigation bar: one link per section below
    parts.append('<nav><a href="#ratings">Ratings</a><a href="#rungs">Rungs</a>%s<a href="#pairwise">Pairwise '
                 'scores</a><a href="#reproduce">Reproduce</a></nav>'
                 % ('<a href="#seat_names">By %s played</a>' % escape(seat_word(lad)) if len(lad.by_seat_name) else ""))
    word, series = seat_word(lad), lad.words.get("series") or "series"
    squares = ("; squares: the rating of the agent when playing that %s (one model over agent × %s)" % (word, word)
               if len(lad.by_seat_name) else "")
    parts += ['<section id="ratings"><h2>Ratings</h2>',
              '<figure><img src="%s" alt="ladder"><figcaption>Strongest on top; bars are 95 %% bootstrap intervals%s.'
              "</figcaption></figure>" % (data_uri(figures["ratings"]), escape(squares)), _html_table(RATING_HEADER, rating_rows(lad)),
              '<p class="lead" id="first_mover">%s</p>' % escape(first_mover_words(lad)),
              '<p class="%s" id="resampling">%s</p>' % ("lead" if lad.resampling == "deal blocks" else "warning",
                                                       escape(resampling_words(lad))), "</section>",
              '<section id="rungs"><h2>Rungs</h2><p>Does each agent beat the next one down? %s</p>'
              % escape(rungs_statement(lad.rungs)), _html_table(RUNG_HEADER, rung_rows(lad)), "</section>"]
    if len(lad.by_seat_name):
        parts += ['<section id="seat_names"><h2>By %s played</h2>' % escape(word),
                  _html_table(seat_name_header(lad), seat_name_rows(lad)), "</section>"]
    else:
        parts += ['<p class="lead">%s</p>' % escape(line) for line in seat_name_lines(lad, None)]
    parts += ['<section id="pairwise"><h2>Pairwise scores</h2>',
              '<figure><img src="%s" alt="pairwise heatmap"><figcaption>Score of the row agent against the column '
              "agent over every cell they met in, with its 95 %% Wilson interval.</figcaption></figure>"
              % data_uri(figures["pairwise"]), _html_table(PAIR_HEADER, pairwise_rows(lad)),
              "<details><summary>By %s</summary>%s</details>" % (escape(series), _html_table([series, *PAIR_HEADER],
                                                                                           series_rows(lad))),
              "</section>",
              '<section id="reproduce"><h2>How to reproduce</h2><pre>%s</pre>' % escape(_command(lad, run)),
              '<p class="lead">Report written %s from the stored run only.</p></section></body></html>'
              % time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())]
    return "\n".join(parts) + "\n"


def build_ladder_report(run_dir, bootstrap: int | None = None, out=None) -> tuple[Path, Ladder, str]:
    """Write the ladder report folder whole; return (ladder.html path, the ladder, its printed text)."""
    run = load_run(run_dir)
    lad = load_ladder(run, bootstrap)
    out_dir = Path(out) if out is not None else run.path / LADDER_FOLDER
    with atomic_folder(out_dir, replace_existing=True) as building:
        figures = {"ratings": building / "ratings.png", "pairwise": building / "pairwise.png"}
        ratings_figure(lad).savefig(figures["ratings"])
        pairwise_figure(lad).savefig(figures["pairwise"])
        tables = building / "tables"
        tables.mkdir()
        lad.ratings.to_csv(tables / "ratings.csv", index=False)
        first_mover_table(lad).to_csv(tables / "first_mover.csv", index=False)
        lad.pairwise.to_csv(tables / "pairwise.csv", index=False)
        lad.by_series.to_csv(tables / "pairwise_by_series.csv", index=False)
        lad.rungs.to_csv(tables / "rungs.csv", index=False)
        lad.by_seat_name.to_csv(tables / "by_seat_name.csv", index=False)
        write_text_atomic(building / "ladder.md", ladder_markdown(lad, run))
        write_text_atomic(building / PAGE, ladder_html(lad, run, figures))
    return out_dir / PAGE, lad, ladder_text(lad, run)
