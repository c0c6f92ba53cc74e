"""Issue 38 item 3: a special victory that no match of the run ended in is said once, in a
sentence, instead of an empty panel and a zero row per cell (the TCG's 'limit': 162 of them)."""

from analysis import load_run
from analysis.synthetic import write_synthetic_run
from analysis.tables import all_tables
from reports.figures import build_figures, special_victories_never
from reports.html import display_tables


def _tables(tmp_path, exact_wins):
    cells = [dict(life0=life, life1=life, seat0_knockout=40, seat1_knockout=40, seat0_exact=exact)
             for life, exact in zip((20, 30, 40), exact_wins)]
    return all_tables(load_run(write_synthetic_run(tmp_path / "run", cells)))


def test_a_run_without_any_special_victory_gets_a_sentence_not_a_figure_or_zero_rows(tmp_path):
    tables = _tables(tmp_path, (0, 0, 0))
    sentence = special_victories_never(tables)
    assert sentence.startswith("No match of this run ended in a special victory (exact): 0 of 240 matches")
    assert "special_victories" not in build_figures(tables)
    assert display_tables(tables)["special_victories"].rows == []


def test_a_special_victory_that_happened_somewhere_keeps_its_panel_and_rows(tmp_path):
    tables = _tables(tmp_path, (0, 5, 0))
    assert special_victories_never(tables) is None
    figure = build_figures(tables)["special_victories"]
    assert [axes.get_title() for axes in figure.axes if axes.get_title()] == ["exact"]
    assert len(display_tables(tables)["special_victories"].rows) == len(tables["special_victories"])
