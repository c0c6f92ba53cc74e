"""Balance analysis: pure functions from a stored run to tidy pandas tables.

- `runs.load_run(path)`: read and validate a run folder (refuses foreign
  formats and stale behaviour versions with one sentence);
- `stats`: Wilson intervals;
- `tables`: win rates, first-player advantage, special victories, win
  types, match lengths, counters, verdicts; CSV export;
- `verdict`: the balanced / imbalanced / undecided rule and its δ;
- `summary_text(run_dir)`: the short table printed at the end of a sweep;
- `synthetic.write_synthetic_run`: hand-written run folders for tests.

No plotting (that is `reports/`), no simulation.
"""

from __future__ import annotations

from pathlib import Path

from analysis.runs import Run, load_run
from analysis.verdict import DEFAULT_DELTA

__all__ = ["Run", "load_run", "summary_text", "DEFAULT_DELTA"]


def _percent(value) -> str:
    return "   -  " if value != value else "%5.1f%%" % (100.0 * value)


def summary_text(run_dir, report_path=None, delta: float = DEFAULT_DELTA) -> str:
    """A short plain-text table per pairing and life: decided-match share of seat 0
    with its 95 % interval, draws, first-player advantage and the verdicts."""
    from analysis import tables

    run = run_dir if isinstance(run_dir, Run) else load_run(run_dir)
    verdicts = tables.verdicts(run, delta)
    advantage = tables.first_player_advantage(run)
    several_variants = verdicts["variant"].nunique() > 1
    header = ["pairing", "life", "matches", "seat0 share [95% CI]", "draws", "1st-player adv", "verdict",
              "1st-player verdict"]
    if several_variants:
        header.insert(2, "strategies rules")
    rows = []
    for (_, row), (_, adv) in zip(verdicts.iterrows(), advantage.iterrows()):
        verdict = row["verdict"] + (" (%s)" % row["favoured"] if row["favoured"] else "")
        line = [row["pairing"], row["life"], str(int(row["matches"])),
                "%s [%s, %s]" % (_percent(row["seat0_share"]), _percent(row["seat0_share_low"]).strip(),
                                 _percent(row["seat0_share_high"]).strip()),
                _percent(row["draw_rate"]).strip(),
                "-" if adv["advantage"] != adv["advantage"] else "%+.1f pts" % (100 * adv["advantage"]),
                verdict, row["first_player_verdict"]]
        if several_variants:
            line.insert(2, row["variant"])
        rows.append(line)
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows)]
    def fmt(cells):
        return "  ".join(str(cell).ljust(width) for cell, width in zip(cells, widths)).rstrip()
    lines = ["Balance summary — %s, %s (delta = %g; seat0 share = seat-0 wins / decided matches)"
             % (run.game, Path(run.path).name, delta)]
    if not run.complete:
        lines.append("WARNING: this run is incomplete (the sweep did not finish); rates cover the matches played.")
    lines += [fmt(header), fmt(["-" * w for w in widths])]
    lines += [fmt(row) for row in rows]
    counts = verdicts["verdict"].value_counts()
    lines.append("%d balanced, %d undecided, %d imbalanced of %d."
                 % (counts.get("balanced", 0), counts.get("undecided", 0), counts.get("imbalanced", 0), len(verdicts)))
    if report_path is not None:
        lines.append("Report: %s" % report_path)
    return "\n".join(lines)
