"""The report of a small real sweep (toy game) and of hand-written degenerate runs."""

import base64
import contextlib
import io
import json
import re
import tomllib

import numpy as np
import pandas as pd
import pytest
from matplotlib.image import imread

import analysis
from analysis import tables
from analysis.runs import load_run
from analysis.stats import wilson_interval
from analysis.synthetic import write_synthetic_run
from reports import build_report
from reports.figures import FIGURES
from sim.cli import main

SWEEP = """
game = "toy"
pairings = ["red_vs_red", "red_vs_blue", "blue_vs_blue"]
life = [6, 12, 20]
life_pairs = [[6, 12]]
strategies = ["greedy:greedy"]
rules = ["default"]
matches = 1000
chunk_size = 500
seed = 7
"""


@pytest.fixture(scope="module")
def real_run(tmp_path_factory):
    """A small real sweep of the toy game, finished by the sweep command (report included)."""
    folder = tmp_path_factory.mktemp("real")
    (folder / "toy.toml").write_text(SWEEP)
    run_dir = folder / "run"
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout):
        assert main(["sweep", str(folder / "toy.toml"), "--out", str(run_dir), "--jobs", "1"]) == 0
    return run_dir, stdout.getvalue()


@pytest.fixture(scope="module")
def real_report(real_run, tmp_path_factory):
    run_dir, _ = real_run
    out = tmp_path_factory.mktemp("report")
    return build_report(run_dir, out=out)


def _images(html: str) -> list[bytes]:
    return [base64.b64decode(data) for data in re.findall(r'<img src="data:image/png;base64,([A-Za-z0-9+/=]+)"', html)]


def test_sweep_ends_with_the_summary_table_and_the_report_path(real_run):
    run_dir, stdout = real_run
    assert "Balance summary" in stdout
    for pairing in ("red_vs_red", "red_vs_blue", "blue_vs_blue"):
        assert pairing in stdout
    report = run_dir / "report" / "report.html"
    assert "Report: %s" % report in stdout
    assert report.is_file()


def test_every_table_and_figure_is_present_for_a_real_run(real_report):
    out = real_report.parent
    for name in FIGURES:
        image = imread(out / (name + ".png"))
        assert image.shape[0] > 100 and image.shape[1] > 100, name
    for name in tables.TABLES:
        frame = pd.read_csv(out / "tables" / (name + ".csv"))
        assert len(frame) > 0, name
    html = real_report.read_text(encoding="utf-8")
    images = _images(html)
    assert len(images) == len(FIGURES)
    for data in images:
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
        assert imread(io.BytesIO(data)).size > 0
    for section in (*FIGURES, "counters", "metadata", "rules", "reproduce"):
        assert 'id="%s"' % section in html
    for table in ("verdicts", "win_rates", "first_player_advantage", "special_victories", "win_types",
                  "match_lengths", "counters", "cells"):
        assert 'id="table-%s"' % table in html


def test_html_is_self_contained(real_report):
    html = real_report.read_text(encoding="utf-8")
    assert not re.search(r'(src|href)\s*=\s*"(https?:)?//', html)
    assert "<script" not in html and "<link" not in html and "@import" not in html
    assert 'charset="utf-8"' in html


def test_reproduce_section_is_the_runs_sweep_file(real_run, real_report):
    run_dir, _ = real_run
    html = real_report.read_text(encoding="utf-8")
    meta = json.loads((run_dir / "meta.json").read_text())
    block = re.search(r'<section id="reproduce">.*?<pre>(.*?)</pre>', html, re.S).group(1)
    import html as html_module
    sweep = tomllib.loads(html_module.unescape(block))
    assert sweep == {k: v for k, v in meta["sweep"].items() if v is not None}
    assert "cardbalance sweep sweep.toml" in html


def test_real_mirror_pairings_are_even_and_verdicts_cover_every_cell(real_run):
    run = load_run(real_run[0])
    verdicts = tables.verdicts(run)
    assert len(verdicts) == 3 * 4  # 3 pairings × (3 equal lives + 1 unequal pair)
    assert set(verdicts["verdict"]) <= {"balanced", "undecided", "imbalanced", "handicap"}
    # Issue 17: a mirror whose seats start unequal measures the handicap, never a faction.
    unequal = verdicts["axis0"] != verdicts["axis1"]
    assert set(verdicts.loc[unequal & verdicts["mirror"], "verdict"]) == {"handicap"}
    assert set(verdicts.loc[~unequal, "verdict"]) <= {"balanced", "undecided", "imbalanced"}
    # A mirror pairing with equal lives is fair by symmetry. 99.9 % intervals (z = 3.29)
    # so that six checks together fail by chance with probability < 1 %.
    even = verdicts[verdicts["mirror"] & (verdicts["axis0"] == verdicts["axis1"])]
    wins = (even["seat0_share"] * even["decisive"]).round()
    low, high = wilson_interval(wins, even["decisive"], z=3.2905)
    assert np.all(low < 0.5) and np.all(0.5 < high)


def test_user_strings_are_escaped(tmp_path):
    hostile = {
        "pairing": '<script>alert("pairing")</script>',
        "strategy0": '"><img src=x onerror=alert(1)>',
        "rules": "<b>r&d</b>",
    }
    cells = [dict(faction0="red", faction1="<i>blue</i>", first=first, seat0_knockout=10, seat1_exact=5,
                  **hostile) for first in (0, 1)]
    meta = {"name": "<h1>name</h1>", "git_commit": "<marquee>c</marquee>",
            "rules": {"<b>r&d</b>": {"source": "<s>src</s>.toml", "hash": "<x>",
                                     "differences": {"<k>": "<v>&"}}}}
    path = write_synthetic_run(tmp_path / "run", cells, meta_updates=meta)
    html = build_report(path, out=tmp_path / "out").read_text(encoding="utf-8")
    raw = ['<script>alert("pairing")</script>', '<img src=x onerror', "<b>r&d</b>", "<i>blue</i>", "<h1>name</h1>",
           "<marquee>", "<s>src</s>", "<k>", "<v>&", "<x>"]
    for text in raw:
        assert text not in html, text
    assert "&lt;script&gt;alert(&#34;pairing&#34;)&lt;/script&gt;" in html
    assert "&lt;b&gt;r&amp;d&lt;/b&gt;" in html
    assert "<script" not in html


def test_incomplete_run_is_flagged(tmp_path):
    path = write_synthetic_run(tmp_path / "run", [dict(first=0, seat0_knockout=3), dict(first=1)], complete=False)
    html = build_report(path, out=tmp_path / "out").read_text(encoding="utf-8")
    assert 'id="incomplete"' in html
    assert "incomplete" in analysis.summary_text(path)


def test_degenerate_run_builds_every_figure(tmp_path):
    # Only draws, a cell with no matches, and a game without special victories.
    cells = [dict(first=0, draw_turn_cap=20), dict(first=1), dict(life0=5, life1=9, first=0, draw_turn_cap=1),
             dict(life0=5, life1=9, first=1, draw_turn_cap=1)]
    path = write_synthetic_run(tmp_path / "run", cells, special_end_types=())
    report = build_report(path, out=tmp_path / "out", csv=False)
    for name in FIGURES:
        assert imread(report.parent / (name + ".png")).size > 0
    assert not (report.parent / "tables").exists()
    assert len(_images(report.read_text(encoding="utf-8"))) == len(FIGURES)


# ---- the command ------------------------------------------------------------------------------

def test_report_command_writes_into_the_run_by_default_and_prints_the_path(tmp_path, capsys):
    path = write_synthetic_run(tmp_path / "run", [dict(first=0, seat0_knockout=30, seat1_knockout=20),
                                                  dict(first=1, seat0_knockout=25, seat1_knockout=25)])
    assert main(["report", str(path), "--quiet"]) == 0
    assert capsys.readouterr().out.strip() == str(path / "report" / "report.html")
    assert main(["report", str(path), "--out", str(tmp_path / "elsewhere"), "--delta", "0.1"]) == 0
    out = capsys.readouterr().out
    assert "delta = 0.1" in out and out.strip().splitlines()[-1].startswith("report: %s" % (tmp_path / "elsewhere"))
    assert (tmp_path / "elsewhere" / "tables" / "verdicts.csv").is_file()


@pytest.mark.parametrize("case", ["not_a_run", "format_version", "behaviour_version", "out_is_a_file",
                                  "out_below_a_file", "bad_delta"])
def test_report_command_bad_input_is_one_line_and_exit_code_2(tmp_path, capsys, case):
    path = write_synthetic_run(tmp_path / "run", [dict(first=0, seat0_knockout=3)])
    args = ["report", str(path)]
    if case == "not_a_run":
        args = ["report", str(tmp_path)]
    elif case in ("format_version", "behaviour_version"):
        meta = json.loads((path / "meta.json").read_text())
        meta[case] = 999
        (path / "meta.json").write_text(json.dumps(meta))
    elif case == "out_is_a_file":
        args += ["--out", str(path / "meta.json")]
    elif case == "out_below_a_file":
        args += ["--out", str(path / "meta.json" / "report")]
    elif case == "bad_delta":
        args += ["--delta", "0.6"]
    assert main(args) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cardbalance report: error: ")
    assert "Traceback" not in captured.err


def test_several_strategies_and_rules_and_the_rules_that_differ(tmp_path):
    cells = [dict(strategy0=strategy, rules=rules, first=first, seat0_knockout=20 + first, seat1_knockout=20)
             for strategy in ("greedy", "random") for rules in ("default", "short") for first in (0, 1)]
    meta = {"rules": {"default": {"source": "default", "hash": "a", "differences": {}},
                      "short": {"source": "short", "hash": "b", "differences": {"turn_cap": 12}}}}
    path = write_synthetic_run(tmp_path / "run", cells, meta_updates=meta)
    report = build_report(path, out=tmp_path / "out")
    html = report.read_text(encoding="utf-8")
    assert "<td>turn_cap</td><td>12</td><td>60</td>" in html  # value in the run, then the toy game's default
    assert "Same as the default rules." in html
    # no match of this run ended in a special victory: a sentence instead of that figure (issue 38)
    assert len(_images(html)) == len(FIGURES) - 1 and "No match of this run ended in a special victory" in html
    summary = analysis.summary_text(path)
    assert "strategies rules" in summary and "random:greedy short" in summary
    assert len(tables.verdicts(load_run(path))) == 4


def test_an_undecided_row_says_in_the_page_how_many_more_matches_would_decide_it(tmp_path):
    """Issue 27 part 1: the verdict table's "more matches" column (analysis/tables.py's
    more_matches, the 80 % size) is on the page, and empty for a decided row."""
    # 56 : 44 over 100 decided matches is undecided; 90 : 10 is imbalanced either way.
    cells = [dict(first=0, seat0_knockout=28, seat1_knockout=22), dict(first=1, seat0_knockout=28, seat1_knockout=22),
             dict(life0=5, life1=9, first=0, seat0_knockout=45, seat1_knockout=5),
             dict(life0=5, life1=9, first=1, seat0_knockout=45, seat1_knockout=5)]
    path = write_synthetic_run(tmp_path / "run", cells)
    verdicts = analysis.tables.verdicts(analysis.load_run(path))
    undecided = verdicts[verdicts["verdict"] == "undecided"]
    assert len(undecided) >= 1 and np.isfinite(undecided["more_matches"]).all() and (undecided["more_matches"] > 0).all()
    html = build_report(path, out=tmp_path / "out").read_text(encoding="utf-8")
    assert "more matches to decide the balance verdict (80 %)" in html
    assert "more matches to decide the first-player verdict (80 %)" in html
    row = undecided.iloc[0]  # issue 37: each verdict's own size in its own column, not the larger of the two
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", html)
    for column in ("more_matches", "first_more_matches"):
        if np.isfinite(row[column]):
            assert "+{:,.0f}".format(row[column]) in cells
    assert "Precision costs matches: a 95 % interval of ±1 point at ½" in html
    first = verdicts["first_more_matches"].dropna()  # the family statement gives each question's range
    assert "(balance: {:,.0f} here; first player: from {:,.0f} to {:,.0f} here)".format(
        undecided["more_matches"].iloc[0], first.min(), first.max()) in html


def test_the_interval_cost_line_is_the_wilson_size_and_every_summary_states_it(tmp_path):
    """Issue 37 item 6: '±1 point at ½ costs N decided matches', N from the reports' own interval
    (Wilson): the fewest matches whose 95 % interval at ½ is ±0.01 — 9,600, the textbook
    (1.96 / 0.01)² / 4 ≈ 9,604 less Wilson's z² term."""
    from analysis.stats import half_width, matches_for_half_width
    n = matches_for_half_width(0.01)
    assert half_width(n / 2, n) <= 0.01 < half_width((n - 1) / 2, n - 1)
    assert n == 9_600 and matches_for_half_width(0.02) == 2_398
    cells = [dict(first=0, seat0_knockout=28, seat1_knockout=22), dict(first=1, seat0_knockout=28, seat1_knockout=22)]
    text = analysis.summary_text(write_synthetic_run(tmp_path / "run", cells))
    assert "a 95 % interval of ±1 point at ½ (Wilson, as every rate here) needs about 9,600 decided matches" in text
    assert "more: balance" in text and "more: 1st player" in text  # one column per question
