"""Reports: figures and the HTML page of a stored run. Reports never simulate.

`build_report(run_dir, out=None)` reads a run folder (analysis.load_run),
builds every table, writes the PNG figures, the CSV tables and one
self-contained `report.html`, and returns the HTML's path. Default output:
`<run>/report/`.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from analysis import tables as analysis_tables
from analysis.runs import load_run
from analysis.verdict import DEFAULT_DELTA, check_delta
from sim.errors import CardbalanceError

__all__ = ["build_report", "DEFAULT_DELTA"]


def _prepare_output(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise CardbalanceError("cannot write the report to '%s': it is a file, not a folder; choose another --out." % out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = tempfile.NamedTemporaryFile(dir=out, prefix=".write-test-", delete=True)
        probe.close()
    except OSError as error:
        raise CardbalanceError("cannot write the report to '%s' (%s); choose a writable folder with --out."
                               % (out, error.strerror or error)) from None


def build_report(run_dir, out=None, delta: float = DEFAULT_DELTA, csv: bool = True, adjust: str = "holm") -> Path:
    """Write report.html, figures (PNG) and, with `csv`, tables (CSV) for a run; return the HTML path."""
    from reports.figures import write_figures
    from reports.html import render_report

    delta = check_delta(delta)
    run = load_run(run_dir)
    out_dir = Path(out) if out is not None else run.path / "report"
    _prepare_output(out_dir)
    tables = analysis_tables.all_tables(run, delta, adjust)
    figure_paths = write_figures(tables, out_dir, delta)
    csv_paths = analysis_tables.write_csv(tables, out_dir / "tables") if csv else None
    page = render_report(run, tables, figure_paths, delta, csv_paths, out_dir)
    html_path = out_dir / "report.html"
    temporary = html_path.with_name(".report.html.tmp")
    try:
        temporary.write_text(page, encoding="utf-8")
        os.replace(temporary, html_path)
    except OSError as error:
        raise CardbalanceError("cannot write the report to '%s' (%s); choose a writable folder with --out."
                               % (html_path, error.strerror or error)) from None
    return html_path
