"""The match-length figure names a lone spike (many matches ending on one turn, e.g. a deck
running out) instead of leaving it unlabelled."""

import pandas as pd

from reports.figures import _spike


def test_a_lone_tall_bin_is_found_and_a_smooth_hump_is_not():
    turns = range(10, 50)
    hump = pd.Series([0.02 + 0.002 * min(t - 10, 49 - t) for t in turns], index=list(turns))
    assert _spike(hump) is None
    spiked = hump.copy()
    spiked[49] = 0.17
    assert _spike(spiked) == (49, 0.17)
    small = hump.copy()
    small[30] = 0.025  # below 3 % of matches: not worth a label
    assert _spike(small) is None
