"""The Novel TCG's report sections (§18.3 Q1-Q10) of a run folder as Markdown and PNG figures.

    python scripts/novel_tcg/summary.py runs/tcg-default docs/examples/tcg-default

Reads the run, never simulates: the sections are the report's own
(sim/novel_tcg/report_sections.py, through analysis/game_sections.py), so the
committed example and `cardbalance report` say the same thing. Writes
OUT/summary.md and one OUT/<section>.png per figure.
"""

import sys
from pathlib import Path

from analysis import load_run
from analysis.game_sections import game_sections
from analysis.tables import all_tables
from reports.headline import headline

DPI = 100


def markdown_table(frame) -> list[str]:
    columns = [str(c) for c in frame.columns]
    cell = lambda value: "" if value != value else str(value).replace("|", "\\|")  # noqa: E731
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return lines


def main(run_dir: str, out_dir: str) -> None:
    run = load_run(run_dir)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    meta = run.meta
    timings, counts = meta.get("timings", {}), meta.get("counts", {})
    data = (meta.get("game_data") or {}).get("card_pool.json", {})
    lines = ["<!-- python scripts/novel_tcg/summary.py %s %s (from the run folder; never simulates) -->"
             % (run_dir, out_dir),
             "# Novel TCG: §18.3 answers from `%s`" % meta.get("name"), "",
             "%d cells, %d matches (%s), rules %s; sweep wall time %.0f s on %d cores (worker time %.0f s); code %s; "
             "card pool and deck lists: data/card_pool.json sha256 %s." % (
                 counts.get("cells", 0), counts.get("matches", 0),
                 ", ".join(sorted(set(run.results["strategy0"] + ":" + run.results["strategy1"]))),
                 ", ".join(meta.get("rules", {})), timings.get("wall_s", float("nan")),
                 (meta.get("machine") or {}).get("cpu_count", 0), timings.get("worker_s", float("nan")),
                 (meta.get("git_commit") or "?")[:7], data.get("sha256", "not stored")), ""]
    tables = all_tables(run)
    # the report page's opening sentences, so the example shows what a reader meets first
    lines += ["**Headline.** " + " ".join(headline(tables["verdicts"], run.labels, [])), ""]
    for section in game_sections(run, tables):
        method, _, finding = section.caption.partition(" Finding: ")
        lines += ["## " + section.title, ""]
        if finding:
            lines += ["**Finding.** " + finding, ""]
        if section.figure is not None:
            section.figure().savefig(out / ("%s.png" % section.id), format="png", dpi=DPI)
            lines += ["![%s](%s.png)" % (section.title, section.id), ""]
        lines += [method, ""]
        if section.table is not None and len(section.table):
            lines += markdown_table(section.table) + [""]
    (out / "summary.md").write_text("\n".join(lines))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
