"""Balance analysis: pure functions from a stored run to tidy pandas tables.

- `runs.load_run(path)`: read and validate a run folder (refuses foreign
  formats and stale behaviour versions with one sentence);
- `stats`: Wilson intervals;
- `tables`: win rates, first-player advantage, special victories, win
  types, match lengths, counters, verdicts; CSV export;
- `verdict`: the balanced / imbalanced / undecided rule and its δ, as tests
  corrected over the whole table (Holm / Benjamini-Hochberg);
- `paired`: paired differences between two rule sets (`cardbalance compare`);
- `sequential`, `decisions`: the compare gate's group-sequential bounds and
  its family of decisions; `calibration`: their error rate and power measured
  on a synthetic paired source;
- `shown_verdict`: the one verdict a row shows in the heatmap, the page's table and the counts;
- `summary_text(run_dir)`: the short table printed at the end of a sweep;
- `synthetic.write_synthetic_run`: hand-written run folders for tests.

No plotting (that is `reports/`), no simulation.
"""

from __future__ import annotations

from pathlib import Path

from analysis.runs import Run, load_run
from analysis.verdict import DEFAULT_ADJUST, DEFAULT_DELTA

__all__ = ["Run", "load_run", "summary_text", "DEFAULT_DELTA"]


def _percent(value) -> str:
    return "   -  " if value != value else "%5.1f%%" % (100.0 * value)


def _points_interval(value, low, high) -> str:
    if value != value:
        return "-"
    return "%+.1f pts [%+.1f, %+.1f]" % (100 * value, 100 * low, 100 * high)


def _skill_lines(verdicts, ratings, meta, words=None) -> list[str]:
    """With two or more skill levels: the skill paragraph (analysis/skill.py); their counts are `_counts_lines`."""
    from analysis import skill
    order = skill.levels(verdicts, ratings, skill.listed(meta))
    return skill.skill_words(verdicts, order, ratings, words)


def _counts_lines(verdicts, ratings, meta) -> list[str]:
    """The page's counts (analysis/shown_verdict.py): of the strongest skill level's rows when the run has
    two or more levels, as the page's headline counts are."""
    from analysis import skill
    from analysis.shown_verdict import counts_lines
    order = skill.levels(verdicts, ratings, skill.listed(meta)) if len(verdicts) else []
    lead = ["At the strongest skill level, %s: the counts below are its rows, as the report's." % order[-1]] \
        if len(order) >= 2 else []
    return lead + counts_lines(skill.headline(verdicts, order))


def summary_text(run_dir, report_path=None, delta: float = DEFAULT_DELTA, adjust: str = DEFAULT_ADJUST,
                 ratings: dict | None = None, run_tables: dict | None = None, headline=()) -> str:
    """`headline` (the report page's sentences, reports/headline.py) and the page's counts first; then
    a short plain-text table per series and axis value: decided-match share of seat 0
    with its 95 % interval, draws, first-player advantage with its interval and the
    verdicts; then how many verdicts were made, at what family-wise rate. `run_tables`: the
    run's `tables.all_tables(run, delta, adjust)` when the caller has them (a sweep builds
    them once for its report and its summary)."""
    from analysis import tables
    from analysis.verdict_design import interval_cost_line, more_matches_text

    run = run_dir if isinstance(run_dir, Run) else load_run(run_dir)
    if run_tables is None:
        run_tables = tables.all_tables(run, delta, adjust)
    verdicts = run_tables["verdicts"]
    advantage = run_tables["first_player_advantage"]
    several_variants = verdicts["variant"].nunique() > 1
    words = run.labels
    header = [words["series"], words["axis"] or "axis", "matches", "seat0 share [95% CI]", "draws", "1st-player adv [95% CI]", "verdict",
              "1st-player verdict", "more: balance", "more: 1st player"]
    if several_variants:
        header.insert(2, "strategies rules")
    rows, notes = [], []
    for (_, row), (_, adv) in zip(verdicts.iterrows(), advantage.iterrows()):
        verdict = row["verdict"] + (" (%s)" % row["favoured"] if row["favoured"] else "")
        if row["mirror"]:  # its balance question is the first player's (analysis/shown_verdict.py)
            verdict = "mirror: see 1st player; " + ("unequal seats" if row["verdict"] == "handicap"
                                                    else "set-up check %s" % verdict)
        elif row["handicap"] and row["reference"]:
            verdict += " vs mirror %s" % _points_interval(row["vs_mirror"], row["vs_mirror_low"],
                                                          row["vs_mirror_high"]).replace(" pts", "")
        line = [row["series"], row["axis"], str(int(row["matches"])),
                "%s [%s, %s]" % (_percent(row["seat0_share"]), _percent(row["seat0_share_low"]).strip(),
                                 _percent(row["seat0_share_high"]).strip()),
                _percent(row["draw_rate"]).strip(),
                _points_interval(adv["advantage"], adv["advantage_low"], adv["advantage_high"]),
                verdict + (" *" if row["warning"] else ""), row["first_player_verdict"],
                more_matches_text(row["more_matches"]), more_matches_text(row["first_more_matches"])]
        if several_variants:
            line.insert(2, row["variant"])
        rows.append(line)
        if row["warning"]:
            notes.append("* %s %s: %s" % (row["series"], row["axis"], row["warning"]))
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows)]
    def fmt(cells):
        return "  ".join(str(cell).ljust(width) for cell, width in zip(cells, widths)).rstrip()
    lines = ["Balance summary — %s, %s (delta = %g; seat0 share = seat-0 wins / decided matches, draws beside)"
             % (run.game, Path(run.path).name, delta)]
    if not run.complete:
        lines.append("WARNING: this run is incomplete (the sweep did not finish); rates cover the matches played.")
    lines += list(headline)
    lines += _counts_lines(verdicts, ratings, run.meta)
    lines += [fmt(header), fmt(["-" * w for w in widths])]
    lines += [fmt(row) for row in rows]
    lines += notes
    if verdicts["handicap"].any():
        lines.append("Rows with unequal seats are judged on the difference from the mirror series at the same "
                     "seats ('vs mirror', points); without a mirror they are labelled 'handicap'.")
    lines.append(tables.family_statement(verdicts))
    lines.append(interval_cost_line())
    lines += _skill_lines(verdicts, ratings, run.meta, run.labels)
    from analysis.game_sections import game_sections
    for section in game_sections(run, run_tables):  # the game's own questions
        lines += section.lines
    if report_path is not None:
        lines.append("Report: %s" % report_path)
    return "\n".join(lines)
