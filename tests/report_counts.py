"""The terminal opens as the report page does (issue 38 item 2): `cardbalance report RUN` prints the
page's headline sentences and its counts, word for word, before its own table.

One helper, called by a test per game on that game's report fixture (tests/test_report_counts.py,
tests/test_report_poker_duel.py, tests/test_tcg_report.py): it runs the real command, reads the
counts and the headline back out of the HTML it wrote, and finds each in the terminal's output.
"""

import contextlib
import html
import io
import re

from sim.cli import main


def _text(fragment: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", fragment))).strip()


def page_counts(page: str) -> list[str]:
    """The page's count lines as the terminal words them: 'Group: item, item.'."""
    lines = []
    for block in re.findall(r'<p class="counts">(.*?)</p>', page, re.S):
        group = _text(re.search(r"<strong>(.*?)</strong>", block, re.S).group(1)).rstrip(":")
        items = [_text(item) for item in re.findall(r"<span[^>]*>(.*?)</span>", block, re.S)]
        lines.append("%s: %s." % (group, ", ".join(items)))
    return lines


def page_headline(page: str) -> list[str]:
    return [_text(sentence) for sentence in re.findall(r'<p class="headline"[^>]*>(.*?)</p>', page, re.S)]


def terminal_and_page(run_dir, out) -> tuple[str, str]:
    """(what `cardbalance report RUN --out OUT` printed, the page it wrote)."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["report", str(run_dir), "--out", str(out), "--no-csv"]) == 0
    return printed.getvalue(), (out / "report.html").read_text(encoding="utf-8")


def assert_terminal_opens_like_the_page(run_dir, out) -> list[str]:
    """Every count line and headline sentence of the page is a line of the terminal, all before the
    terminal's table; returns the count lines (for a caller's own checks)."""
    printed, page = terminal_and_page(run_dir, out)
    lines = printed.splitlines()
    counts, sentences = page_counts(page), page_headline(page)
    assert counts and sentences, "the page has no counts or no headline"
    table_header = next(k for k, line in enumerate(lines) if "seat0 share [95% CI]" in line)
    for expected in sentences + counts:
        assert expected in lines, "the terminal lacks the page's line %r" % expected
        assert lines.index(expected) < table_header, "%r comes after the terminal's table" % expected
    return counts
