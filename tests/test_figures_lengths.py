"""The match-length figure names a lone spike (many matches ending on one turn, e.g. a deck
running out) instead of leaving it unlabelled."""

import pandas as pd
import pytest

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


# ---- issue 38 item 3: a spike does not flatten the rest of the distribution -------------------

def _length_tables(tmp_path, spike_count):
    from analysis import load_run
    from analysis.synthetic import write_synthetic_run
    from analysis.tables import all_tables
    # a hump over turns 10-30 (at most 30 matches a turn) and `spike_count` matches on turn 46
    # (the TCG's deck-out turn is such a spike: every long match ends on the same turn)
    lengths = {t: 30 - abs(t - 20) for t in range(10, 31)}
    lengths[46] = spike_count
    matches = sum(lengths.values())
    path = write_synthetic_run(tmp_path / "run", [dict(seat0_knockout=matches // 2,
                                                       seat1_knockout=matches - matches // 2, lengths=lengths)])
    return all_tables(load_run(path))


def test_the_y_scale_fits_the_distribution_and_a_tall_spike_is_cut_with_its_height_labelled(tmp_path):
    from reports.figures import match_lengths
    tables = _length_tables(tmp_path, spike_count=2000)  # the spike: 2000 of 520 + 2000 matches, 79 %
    figure = match_lengths(tables)
    (axes,) = [a for a in figure.axes if a.get_lines()]
    hump_top = 30 / 2520
    assert axes.get_ylim()[1] == pytest.approx(1.3 * hump_top)  # the hump fills the panel
    labels = [t.get_text() for t in axes.texts]
    assert any(text.startswith("turn 46: 79.4 % of") for text in labels), labels
    assert "spikes cut at the top" in figure.get_suptitle()


def test_a_spike_no_taller_than_twice_the_rest_keeps_the_full_scale(tmp_path):
    from reports.figures import match_lengths
    tables = _length_tables(tmp_path, spike_count=50)  # 50 matches on turn 46: under twice the hump's 30
    (axes,) = [a for a in match_lengths(tables).axes if a.get_lines()]
    assert axes.get_ylim()[1] > 50 / 570  # the spike is inside the scale
