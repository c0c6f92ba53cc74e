"""Every compare scope counts each match once, in every registered game (issue 27, part 2).

A game without a choice dimension names its one series "all"; scope `all` must then
still hold each cell once, so that its n equals the matches played and its standard
error is not √2 too small. Checked on each registered game's default compare grid
(the toy games of tests/ included), without playing a match: the table is built from
made-up per-cell sums.
"""

import numpy as np
import pytest

from analysis import paired
from sim.compare import runner
from sim.registry import game_names


@pytest.mark.parametrize("name", game_names())
def test_scope_all_counts_each_match_once(name):
    setup = runner.prepare("default", "default", game=name)
    cells = setup.role_cells
    scopes = paired.scope_cells(cells)
    assert sorted(scopes["all"]) == list(range(len(cells)))  # each cell exactly once
    for scope, positions in scopes.items():
        assert len(positions) == len(set(positions)), scope
    per_cell = 1000
    n = np.full(len(cells), per_cell, dtype=np.int64)
    width = 1 + max(metric.index for metric in setup.metrics.values())
    sums = np.zeros((len(cells), width, 5), dtype=np.int64)
    table = paired.paired_table(cells, n, sums, setup.metrics)
    assert (table.loc[table["scope"] == "all", "n_base"] == per_cell * len(cells)).all()
