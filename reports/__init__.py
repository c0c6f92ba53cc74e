"""Reports: figures and the HTML page of a stored run. Reports never simulate.

`build_report(run_dir, out=None)` reads a run folder (analysis.load_run),
builds every table, writes the PNG figures, the CSV tables and one
self-contained `report.html`, and returns the HTML's path. Default output:
`<run>/report/`.
"""

from __future__ import annotations

from pathlib import Path

from analysis import tables as analysis_tables
from analysis.runs import load_run
from analysis.verdict import DEFAULT_DELTA, check_delta
from sim.errors import CardbalanceError
from sim.safe_output import atomic_folder, check_output_folder, write_text_atomic

__all__ = ["build_report", "DEFAULT_DELTA"]

REPORT_PAGE = "report.html"


def _check_output(out: Path) -> None:
    """Refuse an output folder that cannot be written or that holds something other than a report."""
    if out.exists() and not out.is_dir():
        raise CardbalanceError("cannot write the report to '%s': it is a file, not a folder; choose another --out." % out)
    if out.is_dir() and any(out.iterdir()) and not (out / REPORT_PAGE).is_file():
        raise CardbalanceError("cannot write the report to '%s': the folder holds other files and no %s "
                               "(a report replaces its folder whole); choose a new or empty --out." % (out, REPORT_PAGE))
    try:
        check_output_folder(out, "--out")
    except CardbalanceError as error:
        raise CardbalanceError("cannot write the report: %s" % error) from None


def build_report(run_dir, out=None, delta: float = DEFAULT_DELTA, csv: bool = True, adjust: str = "holm",
                 ladder=None, run_tables: dict | None = None) -> Path:
    """Write report.html, figures (PNG) and, with `csv`, tables (CSV) for a run; return the HTML path.

    The report folder is built under a hidden sibling name and renamed into
    place when complete (replacing an earlier report whole), so a failure
    (disk full, Ctrl-C) never leaves half a report. `ladder`: a ladder run folder
    whose ratings order and place the skill levels (reports/skill_section.py). `run_tables`: the
    run's `all_tables(run, delta, adjust)` when the caller has built them already.
    """
    from reports.figures import write_figures
    from reports.html import render_report
    from analysis.skill import listed as listed_levels
    from reports.skill_section import ladder_ratings, skill_report
    from reports.game_section_render import render_game_sections

    delta = check_delta(delta)
    run = load_run(run_dir)
    out_dir = Path(out) if out is not None else run.path / "report"
    _check_output(out_dir)
    tables = analysis_tables.all_tables(run, delta, adjust) if run_tables is None else run_tables
    ratings = ladder_ratings(ladder)
    from analysis.skill import levels
    # skill levels weakest first, for every figure and table that lists levels
    tables["verdicts"].attrs["skill_order"] = levels(tables["verdicts"], ratings, listed_levels(run.meta)) \
        if len(tables["verdicts"]) else []
    with atomic_folder(out_dir, replace_existing=True) as building:
        figure_paths = write_figures(tables, building, delta)
        skill = skill_report(tables, building, ratings, listed_levels(run.meta))
        game = render_game_sections(run, tables, building)  # the game's own questions (GameSpec.extra)
        csv_paths = analysis_tables.write_csv({**tables, **skill["csv"], **game["csv"]}, building / "tables") \
            if csv else None
        page = render_report(run, tables, figure_paths, delta, csv_paths, building, skill=skill,
                             game_sections=game["sections"])
        write_text_atomic(building / REPORT_PAGE, page)
    return out_dir / REPORT_PAGE
