"""How many random matches the long statistical and differential tests play.

The default run (the README's test command) keeps the suite near ten minutes
on a two-core machine; `CARDBALANCE_FULL_TESTS=1` plays the full counts that
the issues' acceptance asks for (e.g. 10,000 differential matches), for a
nightly job or before a release. Both settings run the same assertions.
"""

import os

FULL = os.environ.get("CARDBALANCE_FULL_TESTS") == "1"


def matches(full: int, quick: int) -> int:
    """`full` under CARDBALANCE_FULL_TESTS=1, else `quick`."""
    return full if FULL else quick
