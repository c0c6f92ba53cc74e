"""User strings in Markdown: code spans, plain text and link targets that cannot break out.

The compare summary is read rendered (a CI job summary, a pull-request
comment), and it quotes what users typed: rules file names, a baseline
path, a sweep file, the --figures folder. A name like
``x`<img src=x onerror=alert(1)>`y.toml`` wrapped in single backticks ends the
code span early and the renderer shows raw HTML. These helpers follow the
CommonMark spec (checked against markdown-it-py in the tests):

- `code(text)`: a code span whose backtick fence is longer than any run of
  backticks inside (spec 6.1), padded with spaces when the text starts or
  ends with a backtick; everything inside is literal, HTML included.
- `text(value)`: plain text inside a line; every character that can start
  inline markup is backslash-escaped (spec 2.4), so nothing is emphasis,
  code, a link, an image or HTML.
- `link_target(path)`: a percent-encoded URL path for an image or a link.

All three keep `|` from splitting a GitHub table cell and turn line breaks
and other control characters into visible escapes (a line break would end
the table row).
"""

from __future__ import annotations

import re
from urllib.parse import quote

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
# The characters that can start markup in the middle of a line (emphasis, code,
# links, images, HTML and entities, strikethrough, table cells); escaping every
# ASCII punctuation mark would be as safe but unreadable on a terminal.
_MARKUP = re.compile(r"([\\`*_\[\]<&|!~])")  # ">" only matters at a line start or after "<"


def _visible_controls(value: str) -> str:
    return _CONTROL.sub(lambda match: "\\x%02x" % ord(match.group()), value)


def code(value, in_table: bool = False) -> str:
    """`value` as one inline code span, whatever backticks it holds.

    In a table cell `|` is written `\\|` (GitHub splits cells before it parses
    code spans and drops the backslash); elsewhere a backslash in a code span
    would be shown, so `|` stays as it is.
    """
    body = _visible_controls(str(value))
    if in_table:
        body = body.replace("|", "\\|")
    longest = max((len(run) for run in re.findall("`+", body)), default=0)
    fence = "`" * (longest + 1)
    if body.startswith("`") or body.endswith("`") or (body.startswith(" ") and body.endswith(" ") and body.strip()):
        body = " %s " % body  # the spec strips one space on each side
    return "%s%s%s" % (fence, body, fence)


def text(value) -> str:
    """`value` as literal text: no emphasis, link, HTML or table cell break."""
    return _MARKUP.sub(r"\\\1", _visible_controls(str(value)))


def link_target(path) -> str:
    """A relative path as a link destination (percent-encoded: no space, parenthesis or bracket)."""
    return quote(_visible_controls(str(path)).replace("\\", "/"), safe="/._-~")
