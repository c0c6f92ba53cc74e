"""The game's own report sections (analysis/game_sections.py) as page sections:
each table becomes a display table, each figure a PNG beside the report."""

from __future__ import annotations

from pathlib import Path

from analysis.game_sections import game_sections

DPI = 100


def render_game_sections(run, tables: dict, folder: Path) -> dict:
    """{"sections": page sections (as reports/html.py renders them), "csv": {name: table}}."""
    from reports.html import _Table, data_uri
    out = {"sections": [], "csv": {}}
    for section in game_sections(run, tables):
        if not section.page:
            continue
        image = None
        if section.figure is not None:
            path = Path(folder) / ("%s.png" % section.id)
            section.figure().savefig(path, format="png", dpi=DPI)
            image = data_uri(path)
        display = None
        if section.table is not None and len(section.table.columns):
            display = _Table(section.id, [str(c) for c in section.table.columns])
            for _, row in section.table.iterrows():
                display.add(["" if value != value else value for value in row.tolist()])
            out["csv"][section.id] = section.table
        out["sections"].append({"id": section.id, "title": section.title, "caption": section.caption,
                                "image": image, "table": display})
    return out
