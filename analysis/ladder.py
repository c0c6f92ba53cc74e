"""Ratings of a ladder run: who is stronger, by how much, and how sure we are.

A ladder run (`cardbalance ladder`, docs/ladder.md) is a sweep run folder
whose cells play every ordered pair of agents, on common deals. This module
turns its results into:

- `pairwise(run)`: per pair of agents, A's score against B over every cell
  they met in (both seats, both first players, every series), with a 95 %
  Wilson interval. A draw counts half a win for each side (the chess
  convention), so score = (wins + draws / 2) / matches and ratings use the
  same points.
- `ratings(run)`: Bradley–Terry maximum likelihood on those points with a
  first-mover term (analysis/first_mover_fit.py: each match's first mover
  gets a shared Elo offset, fitted jointly with the ratings), on the Elo
  scale (400 / ln 10 per unit of log-strength, mean 0), with bootstrap 95 %
  intervals (estimate ± m bootstrap s.d.) for every rating and the offset.
  The bootstrap redraws deal blocks (`Resampling`): the pairs play common
  deals, so a chunk of deals at a grid point is one unit of luck for every
  pair; a run without enough chunks redraws each cell's matches instead and
  says so. The seed is derived from the run's root seed.
- the same per seat name played (`by_seat_name`, the plain fit by `choix`):
  every (agent, seat name) is an item of one model, so "greedy as one side"
  and "greedy as the other" share a scale. Seat names are the first choice dimension's per-seat columns
  (analysis/dimensions.py); a game without one has none, and no such ratings.
- `rungs(...)`: the agents by rating, each against the one below: does it
  beat it? Each rung is a two-sided score test of its pair's score against
  50 % (two-sided because the rating order that picks the pair comes from
  the same matches), the rungs corrected together by Holm (`RUNG_ADJUST`):
  some "beats" wrong in at most 5 % of ladders. Each rung also carries the
  rating difference to the agent below with a bootstrap 95 % interval: the
  gap ± m standard deviations of the same bootstrap fits as the ratings
  (`gap_interval`: the percentiles of 200 resamples under-covered).
- `cycles(...)`: intransitive cycles (A beats B beats C beats A, every step
  with its interval above 50 %).

Pure functions of a loaded run; no plotting, no simulation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from analysis import stats
from analysis import first_mover_fit
from analysis.dimensions import SEAT, SEAT_NAMES, SERIES

ELO_PER_UNIT = 400.0 / math.log(10.0)  # a Bradley–Terry log-strength difference of 1, in Elo points
BT_ALPHA = 0.01  # choix's regulariser: keeps an agent that won every match finite, negligible otherwise
DEFAULT_BOOTSTRAP = 200
BOOTSTRAP_STREAM = 0x1ADDE5  # mixed into the root seed, so the bootstrap draws never reuse match seeds
RUNG_ADJUST = "holm"  # the rungs' family correction (analysis/verdict.reject_family)
RUNG_ALPHA = 0.05
GAP_Z = 1.959963984540054  # the normal 97.5 % point: rung gaps are estimate ± GAP_Z bootstrap s.d. (gap_interval)
UNKNOWN_FIRST = -1  # `first` of a cell whose first mover is not recorded (the fit's s = 0 there)
DEAL_BLOCKS = 20  # chunks a cell a new ladder gets (sim/sweep/ladder.py): the bootstrap's blocks of common deals
MIN_DEAL_BLOCKS = 10  # fewer chunks a cell: the bootstrap redraws cells (t(G − S) and √(G/(G − S)) grow fast)


@dataclass
class Ladder:
    agents: list[str]               # in the run's order
    pairwise: pd.DataFrame          # agent_a, agent_b, matches, a_wins, b_wins, draws, score, score_low, score_high
    ratings: pd.DataFrame           # agent, elo, elo_low, elo_high, rank (1 = strongest)
    by_seat_name: pd.DataFrame      # agent, seat_name, elo, elo_low, elo_high (empty for a game without seat names)
    rungs: pd.DataFrame             # rank, agent, below, score, score_low, score_high, beats
    cycles: list[list[str]]
    bootstrap: int
    seat_name_note: str             # why there are no per-seat-name ratings ("" when there are)
    matrix: pd.DataFrame            # agent x agent score of the row against the column (NaN on the diagonal)
    by_series: pd.DataFrame         # the pairwise table per series, `series` first
    words: dict                     # the run's words for its roles (analysis.dimensions.labels)
    first_mover: dict               # elo, elo_low, elo_high: the first mover's Elo offset; note: why none ("" if any)
    resampling: str = "cells"       # what the bootstrap redrew: "deal blocks" or "cells" (Resampling)
    resampling_note: str = ""       # why cells ("" for deal blocks)


# ---- match points per meeting --------------------------------------------------------

def meetings(results: pd.DataFrame) -> pd.DataFrame:
    """One row per cell: who sat where (agent and seat name) and its win / loss / draw counts.

    `results` has the cell frame's columns: strategy0, strategy1, seat0_wins, seat1_wins,
    draws, matches, and the role columns seat0_name, seat1_name (empty for a game without
    seat names) and series."""
    frame = pd.DataFrame({
        "cell": results["cell"].to_numpy(dtype=np.int64) if "cell" in results else np.arange(len(results)),
        "agent0": results["strategy0"].astype(str).to_numpy(), "agent1": results["strategy1"].astype(str).to_numpy(),
        "seat0_name": results[SEAT_NAMES[0]].astype(str).to_numpy() if SEAT_NAMES[0] in results else "",
        "seat1_name": results[SEAT_NAMES[1]].astype(str).to_numpy() if SEAT_NAMES[1] in results else "",
        "wins0": results["seat0_wins"].to_numpy(dtype=np.int64), "wins1": results["seat1_wins"].to_numpy(dtype=np.int64),
        "draws": results["draws"].to_numpy(dtype=np.int64),
        "series": results[SERIES].astype(str).to_numpy() if SERIES in results else "all",
        # who moved first (a seat number); UNKNOWN_FIRST for a frame without the column: no first-mover term
        "first": results[SEAT].to_numpy(dtype=np.int64) if SEAT in results else UNKNOWN_FIRST})
    return frame[frame["agent0"] != frame["agent1"]].reset_index(drop=True)  # a mirror match rates nobody


def _points_matrix(items: list, item0, item1, wins0, wins1, draws) -> np.ndarray:
    """W[i, j] = points of item i against item j (a draw: half a point each)."""
    return _points_matrices(items, item0, item1, np.asarray(wins0), np.asarray(wins1), np.asarray(draws))


def _points_matrices(items: list, item0, item1, wins0, wins1, draws) -> np.ndarray:
    """Points matrices (..., items, items) of counts with any leading axes (..., cells): one
    per bootstrap resample. Each cell adds its points through a 0/1 matrix, so every resample
    is summed in one product; the sums are of halves, so exact in floating point."""
    index = {item: k for k, item in enumerate(items)}
    k = len(items)
    rows = np.array([index[a] for a in item0], dtype=np.int64)
    cols = np.array([index[b] for b in item1], dtype=np.int64)
    cells = np.arange(len(rows))
    to_row, to_col = np.zeros((len(rows), k * k)), np.zeros((len(rows), k * k))
    np.add.at(to_row, (cells, rows * k + cols), 1.0)  # seat 0's points go to W[agent0, agent1]
    np.add.at(to_col, (cells, cols * k + rows), 1.0)  # seat 1's to W[agent1, agent0]
    wins0, wins1, draws = (np.asarray(c, dtype=float) for c in (wins0, wins1, draws))
    flat = (wins0 + 0.5 * draws) @ to_row + (wins1 + 0.5 * draws) @ to_col
    return flat.reshape(flat.shape[:-1] + (k, k))


def bradley_terry(points: np.ndarray) -> np.ndarray:
    """Elo-scale strengths (mean 0) from a points matrix, by choix's ILSR maximum likelihood."""
    import choix
    strengths = choix.ilsr_pairwise_dense(points, alpha=BT_ALPHA, max_iter=1000, tol=1e-10)
    elo = np.asarray(strengths, dtype=float) * ELO_PER_UNIT
    return elo - elo.mean()


def bradley_terry_batch(points: np.ndarray, max_iter: int = 1000, tol: float = 1e-10) -> np.ndarray:
    """`bradley_terry` of many points matrices (B, items, items) at once: (B, items).

    The same fixed point as choix's `ilsr_pairwise_dense` (tests/test_calibration_ladder_gap.py:
    equal within 1e-6 Elo), by the same iteration on every matrix together: each step builds
    the Luce spectral ranking Markov chain (rates α + W[j, i] / (w_i + w_j)) at the current
    weights and takes its stationary distribution as the next weights, by one batched linear
    solve. A bootstrap of 200 resamples is one call instead of 200 (choix costs about half a
    millisecond per fit), which is what lets a calibration test replay thousands of ladders."""
    points = np.asarray(points, dtype=float)
    batch, k = points.shape[0], points.shape[-1]
    params = np.zeros((batch, k))
    weights = np.ones((batch, k))
    previous = None
    todo = np.arange(batch)
    beaten_by = np.swapaxes(points, 1, 2)  # beaten_by[b, i, j] = W[b, j, i], the rate from i to j
    for _ in range(max_iter):
        w = weights[todo]
        chain = BT_ALPHA + beaten_by[todo] / (w[:, :, None] + w[:, None, :])
        generator = chain - chain.sum(axis=2)[:, :, None] * np.eye(k)
        # stationary distribution: pi @ generator = 0, with sum(pi) = k
        system = np.swapaxes(generator, 1, 2).copy()
        system[:, -1, :] = 1.0
        rhs = np.zeros((len(todo), k, 1))
        rhs[:, -1, 0] = k
        stationary = np.linalg.solve(system, rhs)[:, :, 0]
        logs = np.log(stationary)
        step = logs - logs.mean(axis=1, keepdims=True)
        if previous is not None:
            done = np.abs(previous - step).sum(axis=1) <= tol * k  # choix's NormOfDifferenceTest(order=1)
        else:
            done = np.zeros(len(todo), dtype=bool)
        params[todo] = step
        shifted = np.exp(step - step.mean(axis=1, keepdims=True))
        weights[todo] = k * shifted / shifted.sum(axis=1, keepdims=True)
        previous = step[~done]
        todo = todo[~done]
        if not len(todo):
            elo = params * ELO_PER_UNIT
            return elo - elo.mean(axis=1, keepdims=True)
    raise RuntimeError("Bradley-Terry fit did not converge after %d iterations" % max_iter)


def _fit_with_bootstrap(items: list, item0, item1, frame: pd.DataFrame, draws: int, seed,
                        resampling: Resampling) -> pd.DataFrame:
    """Ratings with intervals (estimate ± `resampling.multiplier` bootstrap s.d.); the bootstrap
    fits (draws, items) in `.attrs["samples"]`."""
    wins0, wins1, ties = (frame[c].to_numpy() for c in ("wins0", "wins1", "draws"))
    item0, item1 = list(item0), list(item1)
    elo = bradley_terry(_points_matrix(items, item0, item1, wins0, wins1, ties))
    low = high = np.full(len(items), np.nan)
    samples = None
    if draws > 0:
        counts = resampling.draw(wins0, wins1, ties, draws, np.random.default_rng(seed))
        samples = bradley_terry_batch(_points_matrices(items, item0, item1, counts[..., 0], counts[..., 1],
                                                       counts[..., 2]))
        low, high = gap_interval(elo, samples, resampling.multiplier)
    out = pd.DataFrame({"elo": elo, "elo_low": low, "elo_high": high})
    out.attrs["samples"] = samples
    return out


@dataclass
class Resampling:
    """How a ladder's bootstrap redraws its matches, and the interval that goes with it.

    Deal blocks when the run has them: a ladder's pairs play common deals, so one deal's luck
    reaches every pair that played it (a deal that makes seat 0 unbeatable lets the weakest
    agent beat everyone from seat 0) and the cells are not independent. A block is one chunk
    of deals at one grid point; drawing blocks with replacement within each grid point keeps
    a deal's outcomes together. With G blocks over S grid points the interval is the estimate
    ± t(G − S) · √(G / (G − S)) bootstrap s.d.: the small-sample factors of a cluster-robust
    variance, needed at 20 blocks a grid point (tests/test_calibration_ladder_common_deals.py).

    Cells otherwise (a run with fewer than MIN_DEAL_BLOCKS chunks a cell, or data with no
    chunks): each cell's matches redrawn independently, as before, ± 1.96 s.d., and `note`
    says that this ignores the shared deals."""

    blocks: np.ndarray | None = None   # (blocks, cells, 3) seat-0 wins, seat-1 wins, draws per block and cell
    stratum: np.ndarray | None = None  # (blocks,) the grid point of each block
    note: str = ""                     # why the bootstrap is over cells ("" over deal blocks)

    @property
    def kind(self) -> str:
        return "cells" if self.blocks is None else "deal blocks"

    def draw(self, wins0, wins1, ties, draws: int, generator: np.random.Generator) -> np.ndarray:
        if self.blocks is None:
            return resample_cells(wins0, wins1, ties, draws, generator)
        return resample_deal_blocks(self.blocks, self.stratum, draws, generator)

    @property
    def multiplier(self) -> float:
        """Bootstrap standard deviations either side of an estimate for its 95 % interval."""
        if self.blocks is None:
            return GAP_Z
        from scipy.stats import t
        blocks, points = len(self.stratum), len(np.unique(self.stratum))
        freedom = max(blocks - points, 1)
        return float(t.ppf(0.975, freedom) * math.sqrt(blocks / freedom))


CELLS_ONLY = Resampling(note="the matches' deals are not stored in blocks")


def deal_blocks(run, frame: pd.DataFrame) -> Resampling:
    """The deal blocks of a ladder run, aligned with `frame` (see `meetings`), read from its
    chunks/ (one aggregate vector per chunk of deals: sim/sweep/runfolder.py); else cells, and why."""
    from analysis.dimensions import run_dimensions
    from sim import aggregate
    from sim.registry import chunk_path
    results = run.results.set_index("cell")
    chunks = results.loc[frame["cell"], "chunks"].to_numpy(dtype=np.int64) if len(frame) else np.zeros(0, np.int64)
    if not (run.meta.get("sweep") or {}).get("common_deals"):
        return Resampling(note="the run did not play common deals")
    if not len(chunks) or chunks.min() != chunks.max() or chunks.min() < MIN_DEAL_BLOCKS:
        return Resampling(note="the run holds %s chunk(s) of deals a cell, fewer than the %d blocks a bootstrap over "
                               "deals needs (a ladder's default chunk size gives %d)" % (
                                   chunks.min() if len(chunks) else 0, MIN_DEAL_BLOCKS, DEAL_BLOCKS))
    per_cell = int(chunks[0])
    n_end = len(run.end_types)
    outcome_slots = aggregate.A_OUTCOMES + np.arange(3)[:, None] * n_end + np.arange(n_end)[None, :]
    grid_columns = [column for dimension in run_dimensions(run.meta) for column in dimension.get("columns", [])]
    point_of_cell = results.loc[frame["cell"], grid_columns].astype(str).agg("|".join, axis=1) if grid_columns \
        else pd.Series("all", index=frame.index)
    points = {point: k for k, point in enumerate(dict.fromkeys(point_of_cell))}
    block_of = {}  # (grid point, chunk) -> block number: chunk k of every cell at a point played the same deals
    counts = np.zeros((len(points) * per_cell, len(frame), 3))
    for row, (cell, point) in enumerate(zip(frame["cell"], point_of_cell)):
        for chunk in range(per_cell):
            try:
                vector = np.load(chunk_path(run.path, int(cell), chunk), allow_pickle=False)
            except (OSError, ValueError, EOFError):
                return Resampling(note="chunk %d of cell %d is missing or unreadable" % (chunk, cell))
            block = block_of.setdefault((points[point], chunk), len(block_of))
            counts[block, row] = vector[outcome_slots].sum(axis=1)
    stratum = np.empty(len(block_of), dtype=np.int64)
    for (point, _), block in block_of.items():
        stratum[block] = point
    if not np.array_equal(counts.sum(axis=0), frame[["wins0", "wins1", "draws"]].to_numpy(dtype=float)):
        return Resampling(note="the chunks do not add up to the results table")
    return Resampling(blocks=counts[:len(block_of)], stratum=stratum)


def first_mover_design(items: list, item0, item1, first) -> tuple[np.ndarray, np.ndarray]:
    """(rows, to_rows): the first-mover fit's design, one row per distinct (seat 0's item, seat
    1's item, first mover), and the 0/1 matrix (cells, rows) that sums cells' counts into them.
    Cells of one row differ only by series; the likelihood depends on their sums alone."""
    index = {item: k for k, item in enumerate(items)}
    keys = np.stack([np.array([index[a] for a in item0], dtype=np.int64),
                     np.array([index[b] for b in item1], dtype=np.int64),
                     np.asarray(first, dtype=np.int64)], axis=1).reshape(-1, 3)
    distinct, row_of_cell = np.unique(keys, axis=0, return_inverse=True)
    to_rows = np.zeros((len(keys), len(distinct)))
    to_rows[np.arange(len(keys)), np.ravel(row_of_cell)] = 1.0
    return first_mover_fit.design(distinct[:, 0], distinct[:, 1], distinct[:, 2], len(items)), to_rows


def fit_first_mover(rows: np.ndarray, to_rows: np.ndarray, wins0, wins1, ties,
                    start=None) -> tuple[np.ndarray, np.ndarray]:
    """(Elo ratings (..., items) centred at mean 0, the first mover's Elo offset (...)) of cell
    counts with any leading axes (..., cells): one fit per leading index. `start`: (ratings,
    offset) of a fit to begin from (a bootstrap's: the original data's)."""
    wins0, wins1, ties = (np.asarray(c, dtype=float) for c in (wins0, wins1, ties))
    if start is not None:
        start = np.concatenate([np.asarray(start[0], dtype=float), np.asarray(start[1], dtype=float)[..., None]],
                               axis=-1) / ELO_PER_UNIT
    beta = first_mover_fit.fit(rows, (wins0 + 0.5 * ties) @ to_rows, (wins0 + wins1 + ties) @ to_rows,
                               start=start) * ELO_PER_UNIT
    elo = beta[..., :-1]
    return elo - elo.mean(axis=-1, keepdims=True), beta[..., -1]


def _fit_first_mover_with_bootstrap(agents: list, frame: pd.DataFrame, draws: int, seed,
                                    resampling: Resampling) -> tuple[pd.DataFrame, dict]:
    """The overall ratings, fitted jointly with the first mover's offset, each with its
    bootstrap interval (estimate ± `resampling.multiplier` s.d.); the ratings' bootstrap fits
    (draws, agents) in `.attrs["samples"]`, that multiplier in `.attrs["multiplier"]`."""
    wins0, wins1, ties = (frame[c].to_numpy() for c in ("wins0", "wins1", "draws"))
    rows, to_rows = first_mover_design(agents, frame["agent0"], frame["agent1"], frame["first"])
    elo, offset = fit_first_mover(rows, to_rows, wins0, wins1, ties)
    known = bool((frame["first"] != UNKNOWN_FIRST).any())
    low = high = np.full(len(agents), np.nan)
    offset_low = offset_high = float("nan")
    samples = None
    if draws > 0:
        counts = resampling.draw(wins0, wins1, ties, draws, np.random.default_rng(seed))
        samples, offset_samples = fit_first_mover(rows, to_rows, counts[..., 0], counts[..., 1], counts[..., 2],
                                                  start=(elo, offset))
        low, high = gap_interval(elo, samples, resampling.multiplier)
        offset_low, offset_high = (float(end) for end in gap_interval(offset, offset_samples, resampling.multiplier))
    ratings = pd.DataFrame({"elo": elo, "elo_low": low, "elo_high": high})
    ratings.attrs["samples"] = samples
    ratings.attrs["multiplier"] = resampling.multiplier
    first_mover = {"elo": float(offset), "elo_low": offset_low, "elo_high": offset_high,
                   "note": "" if known else "the run does not record who moved first"}
    if not known:
        first_mover.update(elo=float("nan"), elo_low=float("nan"), elo_high=float("nan"))
    return ratings, first_mover


def resample_cells(wins0, wins1, ties, draws: int, generator: np.random.Generator) -> np.ndarray:
    """(draws, ..., cells, 3) resampled seat-0 wins, seat-1 wins and draws: each cell's matches
    redrawn (multinomial at its observed shares). Counts of shape (cells,) give one ladder's
    bootstrap — the same random stream as one call per resample, as before the batched fit —
    and (replications, cells) many ladders' at once (tests/test_calibration_ladder_gap.py)."""
    wins0, wins1, ties = (np.asarray(c, dtype=np.int64) for c in (wins0, wins1, ties))
    n = wins0 + wins1 + ties
    shares = np.stack([wins0, wins1, ties], axis=-1) / np.maximum(n, 1)[..., None]
    return generator.multinomial(n, shares, size=(draws,) + n.shape)


def resample_deal_blocks(block_counts, stratum, draws: int, generator: np.random.Generator) -> np.ndarray:
    """(draws, ..., cells, 3) counts of a bootstrap over deal blocks: `block_counts` (...,
    blocks, cells, 3) holds each block's seat-0 wins, seat-1 wins and draws in every cell, a
    block being one chunk of deals at one grid point, which every agent pair played (common
    deals); `stratum` (blocks,) names each block's grid point. Within each grid point its
    blocks are drawn with replacement, as many as it has, so every cell keeps its size in
    expectation and a deal's outcomes stay together across all the pairs that played it."""
    block_counts = np.asarray(block_counts, dtype=float)
    stratum = np.asarray(stratum)
    lead = block_counts.shape[:-3]
    weights = np.zeros((draws,) + lead + (len(stratum),))
    for value in np.unique(stratum):
        members = np.flatnonzero(stratum == value)
        picks = generator.multinomial(len(members), np.full(len(members), 1.0 / len(members)), size=(draws,) + lead)
        weights[..., members] = picks
    return np.einsum("...k,...kcj->...cj", weights, block_counts[None])


def gap_interval(gap, gap_samples, multiplier: float = GAP_Z) -> tuple[np.ndarray, np.ndarray]:
    """95 % interval of a rating gap (or a rating, or the first mover's offset): the estimate ±
    `multiplier` · the bootstrap standard deviation (`gap_samples`, resamples on the first axis);
    z = 1.96 for a bootstrap over cells, more over deal blocks (`Resampling.multiplier`).

    Not the percentiles of the resamples: at the shipped 200 resamples the 2.5 % and 97.5 %
    points are the 5th and 195th of 200, noisy enough to cover 92.2-94.0 % on synthetic ladders
    with a known gap, and a skewed gap (a 600-Elo rung) misses mostly on one side. The normal
    interval on the bootstrap standard deviation covers 94.2-95.9 % on the same ladders
    (tests/test_calibration_ladder_gap.py)."""
    spread = np.std(np.asarray(gap_samples, dtype=float), axis=0, ddof=1)
    gap = np.asarray(gap, dtype=float)
    return gap - multiplier * spread, gap + multiplier * spread


def bootstrap_seed(root_seed: int, part: int) -> np.random.SeedSequence:
    return np.random.SeedSequence([int(root_seed), BOOTSTRAP_STREAM, int(part)])


# ---- the tables ------------------------------------------------------------------------

def pairwise_table(frame: pd.DataFrame, agents: list[str]) -> pd.DataFrame:
    """Per unordered pair (in agent order): A's wins, B's wins, draws and A's score with its Wilson interval."""
    order = {agent: k for k, agent in enumerate(agents)}
    rows: dict[tuple[str, str], list[int]] = {}
    for row in frame.itertuples(index=False):
        a, b, wa, wb = row.agent0, row.agent1, row.wins0, row.wins1
        if order[a] > order[b]:
            a, b, wa, wb = b, a, wb, wa
        totals = rows.setdefault((a, b), [0, 0, 0])
        totals[0] += int(wa)
        totals[1] += int(wb)
        totals[2] += int(row.draws)
    table = pd.DataFrame([(a, b, sum(t), t[0], t[1], t[2]) for (a, b), t in rows.items()],
                         columns=["agent_a", "agent_b", "matches", "a_wins", "b_wins", "draws"])
    table = table.sort_values(["agent_a", "agent_b"], key=lambda column: column.map(order), kind="stable")
    table["a_points"] = table["a_wins"] + 0.5 * table["draws"]
    stats.add_rate_columns(table, "score", "a_points", "matches")
    return table.reset_index(drop=True)


def score_matrix(table: pd.DataFrame, agents: list[str]) -> pd.DataFrame:
    matrix = pd.DataFrame(np.nan, index=agents, columns=agents)
    for row in table.itertuples(index=False):
        matrix.loc[row.agent_a, row.agent_b] = row.score
        matrix.loc[row.agent_b, row.agent_a] = 1.0 - row.score
    return matrix


def pair_score(table: pd.DataFrame, a: str, b: str) -> tuple[float, float, float, int]:
    """(score, low, high, matches) of `a` against `b`, whichever order the table holds them in."""
    for row in table.itertuples(index=False):
        if (row.agent_a, row.agent_b) == (a, b):
            return row.score, row.score_low, row.score_high, int(row.matches)
        if (row.agent_a, row.agent_b) == (b, a):
            return 1.0 - row.score, 1.0 - row.score_high, 1.0 - row.score_low, int(row.matches)
    return float("nan"), 0.0, 1.0, 0


def rung_p_values(score, matches) -> np.ndarray:
    """Two-sided p-values of rung scores against 50 % (score test: variance ¼/n, which a draw
    only lowers); 1 where no match was played."""
    from scipy.special import ndtr
    score, matches = np.asarray(score, dtype=float), np.asarray(matches, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (score - 0.5) / np.sqrt(0.25 / matches)
    return np.where((matches > 0) & np.isfinite(z), np.minimum(1.0, 2.0 * ndtr(-np.abs(z))), 1.0)


def rung_beats(score, matches, adjust: str = RUNG_ADJUST, alpha: float = RUNG_ALPHA) -> np.ndarray:
    """Which rungs (the last axis) show the upper agent beating the lower one, corrected together."""
    from analysis.verdict import reject_family
    return reject_family(rung_p_values(score, matches), adjust, alpha) & (np.asarray(score, dtype=float) > 0.5)


def rung_table(ratings: pd.DataFrame, table: pd.DataFrame) -> pd.DataFrame:
    """Strongest first; each agent against the next one down, with the Holm-corrected 'beats'
    and the rating gap to it with its bootstrap interval (`ratings.attrs["samples"]`)."""
    ordered = ratings.sort_values("elo", ascending=False, kind="stable")["agent"].tolist()
    position = {agent: k for k, agent in enumerate(ratings["agent"])}
    samples = ratings.attrs.get("samples")
    rows = []
    for rank, agent in enumerate(ordered, start=1):
        below = ordered[rank] if rank < len(ordered) else ""
        score, low, high, n = pair_score(table, agent, below) if below else (float("nan"), float("nan"), float("nan"), 0)
        gap = gap_low = gap_high = float("nan")
        if below:
            gap = float(ratings["elo"].iloc[position[agent]] - ratings["elo"].iloc[position[below]])
            if samples is not None:
                gap_low, gap_high = (float(end) for end in gap_interval(
                    gap, samples[:, position[agent]] - samples[:, position[below]],
                    ratings.attrs.get("multiplier", GAP_Z)))
        rows.append((rank, agent, below, n, score, low, high, gap, gap_low, gap_high))
    frame = pd.DataFrame(rows, columns=["rank", "agent", "below", "matches", "score", "score_low", "score_high",
                                        "elo_gap", "elo_gap_low", "elo_gap_high"])
    has_below = frame["below"] != ""
    frame["p_rung"] = np.nan
    frame["beats"] = False
    if has_below.any():
        frame.loc[has_below, "p_rung"] = rung_p_values(frame.loc[has_below, "score"], frame.loc[has_below, "matches"])
        frame.loc[has_below, "beats"] = rung_beats(frame.loc[has_below, "score"].to_numpy(),
                                                   frame.loc[has_below, "matches"].to_numpy())
    frame["beats"] = frame["beats"].astype(bool)
    return frame


def rungs_statement(rungs: pd.DataFrame) -> str:
    """How many rung decisions, at what rate."""
    from analysis.decisions import family_statement
    m = int((rungs["below"] != "").sum())
    return family_statement(m, RUNG_ALPHA, RUNG_ADJUST if m > 1 else "none",
                            "rung decisions ('beats the agent below': two-sided score test of the pair's score)")


def find_cycles(table: pd.DataFrame, agents: list[str]) -> list[list[str]]:
    """Every intransitive cycle of 'beats' (score interval above 50 %), each once, shortest first."""
    beats = {agent: set() for agent in agents}
    for row in table.itertuples(index=False):
        if row.score_low > 0.5:
            beats[row.agent_a].add(row.agent_b)
        elif row.score_high < 0.5:
            beats[row.agent_b].add(row.agent_a)
    order = {agent: k for k, agent in enumerate(agents)}
    found: list[list[str]] = []

    def walk(start, path):
        for nxt in sorted(beats[path[-1]], key=order.get):
            if nxt == start and len(path) >= 3:
                found.append(list(path))
            elif order[nxt] > order[start] and nxt not in path:  # each cycle from its first agent only
                walk(start, path + [nxt])

    for agent in agents:
        walk(agent, [agent])
    return sorted(found, key=len)


def ladder(results: pd.DataFrame, agents: list[str], root_seed: int, bootstrap: int = DEFAULT_BOOTSTRAP,
           words: dict | None = None, resampling=None) -> Ladder:
    """Everything a ladder report shows, from a cell frame (see `meetings`); `words`: the
    run's role labels (`Run.labels`), for the notes; `resampling`: a function of the meetings
    frame giving the bootstrap's `Resampling` (`load_ladder`: the run's deal blocks), else cells."""
    words = {"series": "series", "seat_name": "", **(words or {})}
    frame = meetings(results)
    resampled = resampling(frame) if resampling is not None and bootstrap > 0 else CELLS_ONLY
    table = pairwise_table(frame, agents)
    overall, first_mover = _fit_first_mover_with_bootstrap(agents, frame, bootstrap, bootstrap_seed(root_seed, 0),
                                                           resampled)
    overall.insert(0, "agent", agents)
    overall["rank"] = overall["elo"].rank(ascending=False, method="first").astype(int)
    names = sorted(set(frame["seat0_name"]) | set(frame["seat1_name"]) - {""})
    by_seat_name = pd.DataFrame(columns=["agent", "seat_name", "elo", "elo_low", "elo_high"])
    note = "" if names and "" not in set(frame["seat0_name"]) else "the game has no seat names (no choice dimension)"
    seat0, seat1 = list(zip(frame["agent0"], frame["seat0_name"])), list(zip(frame["agent1"], frame["seat1_name"]))
    items = [(agent, name) for agent in agents for name in names]
    items = [item for item in items if item in set(seat0) | set(seat1)]
    if not note and not _connected(items, zip(seat0, seat1)):
        # e.g. one series A_vs_B only: "X as A" never meets "Y as A", so the scale is not identified
        word, series = words["seat_name"] or "seat name", words["series"]
        note = ("per-%s ratings need every (agent, %s) linked by matches; play the mirror %ss too (e.g. the "
                "default %ss)" % (word, word, series, series))
    if not note:
        fit = _fit_with_bootstrap(items, seat0, seat1, frame, bootstrap, bootstrap_seed(root_seed, 1), resampled)
        by_seat_name = pd.concat([pd.DataFrame(items, columns=["agent", "seat_name"]), fit], axis=1)
    return Ladder(agents=list(agents), pairwise=table, ratings=overall, by_seat_name=by_seat_name,
                  rungs=rung_table(overall, table), cycles=find_cycles(table, agents), bootstrap=bootstrap,
                  seat_name_note=note, matrix=score_matrix(table, agents), by_series=_by_series(frame, agents),
                  words=words, first_mover=first_mover, resampling=resampled.kind, resampling_note=resampled.note)


def _by_series(frame: pd.DataFrame, agents: list[str]) -> pd.DataFrame:
    parts = [pairwise_table(part, agents).assign(series=series)
             for series, part in frame.groupby("series", sort=False)]
    table = pd.concat(parts, ignore_index=True) if parts else pairwise_table(frame, agents).assign(series="")
    return table[["series", *[c for c in table.columns if c != "series"]]]


def _connected(items: list, edges) -> bool:
    """Whether the comparisons link every item (one connected graph), so one scale rates them all."""
    neighbours = {item: set() for item in items}
    for a, b in edges:
        neighbours[a].add(b)
        neighbours[b].add(a)
    seen, todo = set(), [items[0]] if items else []
    while todo:
        item = todo.pop()
        if item not in seen:
            seen.add(item)
            todo.extend(neighbours[item] - seen)
    return len(seen) == len(items)


def load_ladder(run, bootstrap: int | None = None) -> Ladder:
    """The ladder of a loaded run (analysis.runs.Run) made by `cardbalance ladder`."""
    from analysis.tables import _cell_frame
    info = run.meta.get("ladder") or {}
    agents = list(info.get("agents") or dict.fromkeys(list(run.results["strategy0"]) + list(run.results["strategy1"])))
    frame = _cell_frame(run)
    return ladder(frame, agents, int(run.meta.get("seed", 1)),
                  int(info.get("bootstrap", DEFAULT_BOOTSTRAP)) if bootstrap is None else bootstrap, run.labels,
                  resampling=lambda meetings_frame: deal_blocks(run, meetings_frame))


def ratings_of(run_dir) -> dict[str, float]:
    """{agent: Elo} of a ladder run (for the skill report's x axis); no bootstrap."""
    from analysis.runs import load_run
    from sim.errors import CardbalanceError
    run = load_run(run_dir)
    if "ladder" not in run.meta:
        raise CardbalanceError("--ladder: '%s' is a sweep run, not a ladder run (make one with cardbalance ladder)."
                               % run_dir)
    return dict(zip(*(load_ladder(run, bootstrap=0).ratings[c] for c in ("agent", "elo"))))
