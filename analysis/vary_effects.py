"""A rule value's effect with an interval clustered by deal (issue 27, part 6).

A `[vary]` sweep plays every rules variant on the same cells; with `common_deals` the
variants of one grid point play the *same deals* (sim/sweep/grid.Plan.deal). Treating the
arms as independent (`analysis.game_sections.difference_interval`) is then wrong both
ways: for one pair of rule sets the positive correlation makes the interval 2–5× too wide,
and when several pairs are pooled that share a base's deals, the shared deals repeat and
the interval is too narrow (coverage 68–85 %).

The run folder keeps every chunk's aggregate vector (chunks/, one per cell and chunk), and
a chunk of a cell plays the seeds of (its deal cell, chunk number). So every match of a
given (deal, chunk) — in any arm — falls in one *cluster*, and clusters are independent.
The effect, a difference of pooled proportions p_B − p_A (ratios of sums over each arm's
chunks), gets the cluster-robust (linearisation) variance

    Var ≈ G/(G − 1) · Σ_g u_g²,  u_g = (S_Bg − p_B T_Bg)/T_B − (S_Ag − p_A T_Ag)/T_A,

over the G clusters (S successes, T trials; Σ_g u_g = 0), with a t quantile on G − 1
degrees of freedom. It is valid for one pair (the pairing is inside each cluster) and for
pooled pairs (the repeated deals are inside one cluster), with or without common deals
(without, each (cell, chunk) is its own cluster and the arms are independent).

The "changes outcomes" flag (issue 37, item 4) tests delta = 0 with the same t on G − 1
degrees of freedom (`clustered_test`) and corrects for the table's m tests by Bonferroni
on those p-values (`bonferroni_flags`: p < α/m). Comparing |delta|/se against a normal
cut-off instead ignored the t's heavier tails: at G = 16, 0.44 % false flags per test
instead of 0.21 %, about 10 % per table instead of 5 % (tests/test_calibration_vary.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

CHUNK_FILE = re.compile(r"^c(\d+)-k(\d+)\.npy$")  # sim/sweep/runfolder.py's chunk names
DEAL_FREE = ("cell", "rules", "strategy0", "strategy1")  # what cells sharing a deal may differ in


def _clustered(s_a, t_a, s_b, t_b):
    """(delta, se, clusters) of p_B − p_A with the cluster-robust variance; nan where unknown."""
    s_a, t_a, s_b, t_b = (np.asarray(x, dtype=float) for x in (s_a, t_a, s_b, t_b))
    total_a, total_b = t_a.sum(axis=-1), t_b.sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        p_a, p_b = s_a.sum(axis=-1) / total_a, s_b.sum(axis=-1) / total_b
        u = (s_b - p_b[..., None] * t_b) / total_b[..., None] - (s_a - p_a[..., None] * t_a) / total_a[..., None]
    clusters = ((t_a + t_b) > 0).sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        se = np.sqrt(clusters / (clusters - 1.0) * np.nansum(u * u, axis=-1))
    unknown = (total_a <= 0) | (total_b <= 0) | (clusters < 2)
    return np.where(unknown, np.nan, p_b - p_a), np.where(unknown, np.nan, se), clusters


def clustered_difference(s_a, t_a, s_b, t_b, z_level: float = 0.95):
    """(delta, low, high, se) of p_B − p_A from per-cluster sums (last axis = clusters;
    a cluster an arm did not play has zero trials there). Vectorised over leading axes."""
    from scipy.stats import t as student

    delta, se, clusters = _clustered(s_a, t_a, s_b, t_b)
    quantile = student.ppf(0.5 + z_level / 2.0, np.maximum(clusters - 1, 1))
    return delta, delta - quantile * se, delta + quantile * se, se


def clustered_test(s_a, t_a, s_b, t_b, z_level: float = 0.95):
    """(delta, low, high, p): `clustered_difference`'s interval and the two-sided p-value of
    delta = 0 from the same t on G − 1 degrees of freedom (nan where delta is unknown; 1 when
    every cluster agrees exactly and delta is 0)."""
    from scipy.stats import t as student

    delta, low, high, se = clustered_difference(s_a, t_a, s_b, t_b, z_level)
    _, _, clusters = _clustered(s_a, t_a, s_b, t_b)
    with np.errstate(divide="ignore", invalid="ignore"):
        statistic = np.where(se > 0, np.abs(delta) / se, np.where(delta == 0, 0.0, np.inf))
    p = 2 * student.sf(statistic, np.maximum(clusters - 1, 1))
    return delta, low, high, np.where(np.isnan(delta), np.nan, p)


def normal_test(delta, low, high, z: float = 1.959963984540054):
    """(delta, low, high, p) for a normal interval `delta ± z·se` (the independent-arms
    `analysis.game_sections.difference_interval`): its two-sided p-value of delta = 0."""
    from scipy.stats import norm

    se = (high - low) / (2 * z)
    p = float(2 * norm.sf(abs(delta) / se)) if se > 0 else (1.0 if delta == 0 else 0.0)
    return delta, low, high, (float("nan") if delta != delta else p)


def bonferroni_flags(p_values, alpha: float = 0.05) -> list[bool]:
    """Which of a family's m tests reject at family-wise level alpha (Bonferroni: p < alpha/m);
    an unknown (nan) p-value counts as a test and never rejects."""
    p_values = np.asarray(p_values, dtype=float)
    if not p_values.size:
        return []
    return list(np.nan_to_num(p_values, nan=1.0) < alpha / p_values.size)


def chunk_frame(run) -> pd.DataFrame | None:
    """results.parquet split per chunk: one row per (cell, chunk) with the cell's columns,
    the chunk's aggregate columns and `cluster` (its deal and chunk number); None when the
    run folder keeps no chunk files (or they do not add up to its results)."""
    from sim.registry import aggregate_columns, get_game

    folder = Path(run.path) / "chunks"
    if not folder.is_dir():
        return None
    columns = aggregate_columns(get_game(run.game))
    results = run.results.set_index("cell", drop=False)
    rows = []
    for entry in sorted(folder.iterdir()):
        match = CHUNK_FILE.match(entry.name)
        if not match:
            continue
        vector = np.load(entry, allow_pickle=False)
        rows.append((int(match.group(1)), int(match.group(2)), vector[:len(columns)]))
    if not rows:
        return None
    frame = pd.DataFrame([vector for _, _, vector in rows], columns=columns)
    frame.insert(0, "chunk", [chunk for _, chunk, _ in rows])
    cells = [cell for cell, _, _ in rows]
    fixed = results.loc[cells, [c for c in results.columns if c not in columns]].reset_index(drop=True)
    frame = pd.concat([fixed, frame], axis=1)
    if (frame.groupby("cell")["matches"].sum() != results.loc[sorted(set(cells)), "matches"].to_numpy()).any():
        return None  # chunks of an older session do not describe these results
    common = bool((run.meta.get("sweep") or {}).get("common_deals"))
    point = [c for c in run.cell_columns if c not in DEAL_FREE]
    if common:
        deal = results.groupby(point, sort=False)["cell"].transform("min")
        frame["deal"] = frame["cell"].map(deal)
    else:
        frame["deal"] = frame["cell"]
    frame["cluster"] = frame["deal"].astype(str) + ":" + frame["chunk"].astype(str)
    return frame


def frame_test(part_a: pd.DataFrame, part_b: pd.DataFrame, successes: str, trials: str):
    """(delta, low, high, p) of part_b's pooled rate minus part_a's, clustered by `cluster`."""
    clusters = sorted(set(part_a["cluster"]) | set(part_b["cluster"]))
    def sums(part, column):
        return part.groupby("cluster")[column].sum().reindex(clusters, fill_value=0).to_numpy(dtype=float)
    delta, low, high, p = clustered_test(sums(part_a, successes), sums(part_a, trials),
                                         sums(part_b, successes), sums(part_b, trials))
    return float(delta), float(low), float(high), float(p)


def frame_difference(part_a: pd.DataFrame, part_b: pd.DataFrame, successes: str, trials: str):
    """(delta, low, high) of part_b's pooled rate minus part_a's, clustered by `cluster`."""
    return frame_test(part_a, part_b, successes, trials)[:3]
