"""Issues 27 (part 1) and 37 (item 2): the default sweep of every game can say "balanced", at the
family rate it prints.

Seeded, no engine: each replication draws the decided-match shares of a table of rows at the
game's default design (the default sweep's matches per row and its number of claims m, from
analysis/verdict_design.plan_family) and decides them with the shipped p-values and Holm
correction (analysis/verdict.score_p_values, decide_family). 4,000 replications per case.

Targets (issue 27): a truly fair row is labelled "balanced" with ≥ 80 % probability and a row
4 points off "imbalanced" with ≥ 95 %, in the hardest family for each (the other claims of
its family not rejected, so Holm starts at α/m); labels on the band edge are wrong at most
5 % + 3 MC s.e. per kind of label (balanced, imbalanced).

What the summary states (analysis/tables.family_statement) is tested as stated: each kind of
wrong label at most 5 %, and some label of either kind wrong at most their sum, 10 %, not 5 %:
with every claim on a band edge the union is measured at about 7 % (4.7 % + 2.3 % at Faction
War's default), and a table with rows both inside and outside the band can also hold both kinds.

The Novel TCG joined in issue 37: at its former default (1,000 matches a cell, 2,000 a row, 150
claims) a fair row was never balanced; at 9,000 a cell (18,000 decided a row, 150 claims) the
replay measures a fair row balanced 94.6 % (normal approximation 95.0 %), rows 4 points off
imbalanced 96.9 % (0.54) and 96.1 % (0.46), and with every claim on the band edge some balanced
label 4.7 %, some imbalanced 2.5 %, either 7.0 % (4,000 replications each, the seeds below).
"""

import math

import numpy as np
import pytest

from analysis import verdict_design
from analysis.verdict import DEFAULT_DELTA, decide_family, score_p_values
from sim.registry import get_game
from sim.sweep.grid import build_plan, parse_sweep

RUNS = 4000
LIMIT = 0.05 + 3 * math.sqrt(0.05 * 0.95 / RUNS)
UNION_LIMIT = 0.10 + 3 * math.sqrt(0.10 * 0.90 / RUNS)  # the stated bound for either kind: the sum of the two
DELTA = DEFAULT_DELTA  # the band ½ ± DELTA the labels are about
GAMES = ("faction_war", "poker_duel", "novel_tcg")


def default_design(name):
    """(decided matches per row, claims m) of the game's default sweep (no draws assumed)."""
    game = get_game(name)
    plan = build_plan(parse_sweep(dict(game.default_sweep), "default"), game)
    m, rows = verdict_design.plan_family(plan)
    cells_per_row = len(plan.cells) // rows  # the first-player orders
    return int(game.default_sweep["matches"]) * cells_per_row, m


def labels(truths, n, m, seed):
    """Labels of RUNS replayed tables: `truths` are the rows' rates (the first len(truths)
    claims of the family); the family's other claims are given p-values that no correction
    rejects (p = 1), which is the hardest case for the rows measured."""
    generator = np.random.default_rng(seed)
    shares = generator.binomial(n, np.asarray(truths, dtype=float), size=(RUNS, len(truths))) / n
    p_imbalanced, p_balanced = score_p_values(shares, np.full(shares.shape, float(n)))
    pad = np.ones((RUNS, m - len(truths)))
    return decide_family(np.hstack([p_imbalanced, pad]), np.hstack([p_balanced, pad]))[:, :len(truths)]


@pytest.mark.parametrize("name", GAMES)
def test_a_fair_row_is_labelled_balanced_at_least_80_percent_at_the_default(name):
    n, m = default_design(name)
    measured = float(np.mean(labels([0.5], n, m, seed=2701)[:, 0] == "balanced"))
    print("%s: n %d per row, m %d claims: fair row balanced %.4f (normal approx. %.3f)"
          % (name, n, m, measured, verdict_design.power_balanced(n, m)))
    assert measured >= 0.80


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("truth", [0.54, 0.46])
def test_a_row_four_points_off_is_labelled_imbalanced_at_least_95_percent(name, truth):
    n, m = default_design(name)
    # the other rows fair: their imbalanced claims are not rejected, Holm stays at its first step
    rows = labels([truth] + [0.5] * (m // 2 - 1), n, m, seed=2702 if truth > 0.5 else 2712)
    measured = float(np.mean(rows[:, 0] == "imbalanced"))
    print("%s: row at %.2f imbalanced %.4f (normal approx. %.3f)" % (name, truth, measured,
                                                                       verdict_design.power_imbalanced(n, m, truth)))
    assert measured >= 0.95


@pytest.mark.parametrize("name", GAMES)
def test_labels_on_the_band_edge_are_wrong_at_most_five_percent_per_kind(name):
    n, m = default_design(name)
    rows = labels([0.52] * m, n, m, seed=2703)  # every claim of the table on the edge: any label is wrong
    wrong_balanced = float(np.mean((rows == "balanced").any(axis=1)))
    wrong_imbalanced = float(np.mean((rows == "imbalanced").any(axis=1)))
    wrong_any = float(np.mean((rows != "undecided").any(axis=1)))
    print("%s: edge, some balanced label %.4f, some imbalanced %.4f, some label of either kind %.4f"
          % (name, wrong_balanced, wrong_imbalanced, wrong_any))
    assert wrong_balanced <= LIMIT and wrong_imbalanced <= LIMIT
    assert wrong_any <= UNION_LIMIT


@pytest.mark.parametrize("name", GAMES)
def test_a_table_inside_and_outside_the_band_keeps_each_kind_at_five_percent(name):
    """Half the claims just inside the band (only 'imbalanced' can be wrong there), half just
    outside (only 'balanced' can): each kind stays within 5 %, their union within the stated 10 %."""
    n, m = default_design(name)
    inside, outside = 0.5 + 0.95 * DELTA, 0.5 + 1.05 * DELTA
    truths = np.array([inside] * (m // 2) + [outside] * (m - m // 2))
    rows = labels(truths, n, m, seed=2706)
    wrong_balanced = float(np.mean((rows[:, truths > 0.5 + DELTA] == "balanced").any(axis=1)))
    wrong_imbalanced = float(np.mean((rows[:, truths < 0.5 + DELTA] == "imbalanced").any(axis=1)))
    wrong_any = float(np.mean(((rows == "balanced") & (truths > 0.5 + DELTA)).any(axis=1)
                              | ((rows == "imbalanced") & (truths < 0.5 + DELTA)).any(axis=1)))
    print("%s: rows at %.3f and %.3f: some balanced label wrong %.4f, some imbalanced %.4f, either %.4f"
          % (name, inside, outside, wrong_balanced, wrong_imbalanced, wrong_any))
    assert wrong_balanced <= LIMIT and wrong_imbalanced <= LIMIT
    assert wrong_any <= UNION_LIMIT


def test_the_summary_states_per_kind_rates_and_their_sum_not_one_rate_for_both():
    """The wording the calibration above holds the product to."""
    import pandas as pd
    from analysis.tables import family_statement

    table = pd.DataFrame({"decisions": [56], "adjust": ["holm"], "verdict": ["balanced"],
                          "first_player_verdict": ["balanced"], "more_matches": [np.nan],
                          "first_more_matches": [np.nan]})
    text = family_statement(table)
    assert "some 'balanced' label is wrong is at most 5 %" in text
    assert "some 'imbalanced' label is wrong is at most 5 %" in text
    assert "either kind is wrong is at most their sum, 10 %" in text
    assert "the chance that any of them is wrong" not in text


def test_the_old_default_could_not_say_balanced():
    """Issue 27's finding, reproduced: at 4,000 per row and 56 claims a fair row is never balanced."""
    assert float(np.mean(labels([0.5], 4000, 56, seed=2704)[:, 0] == "balanced")) == 0.0


def test_the_former_tcg_default_could_not_say_balanced():
    """Issue 37's finding, reproduced: at 2,000 per row and the TCG's 150 claims a fair row is never balanced."""
    assert default_design("novel_tcg")[1] == 150  # the claims did not change; the matches per row did
    assert float(np.mean(labels([0.5], 2000, 150, seed=3701)[:, 0] == "balanced")) == 0.0


def test_more_matches_to_decide_is_about_what_the_power_formula_needs():
    """An undecided fair-looking row at 4,000 told to play about 8,000 more then decides ≥ 80 % of the time."""
    m = 56
    more = verdict_design.matches_to_decide(0.5, math.sqrt(0.25 / 4000), 4000, m) - 4000
    total = int(4000 + more)
    measured = float(np.mean(labels([0.5], total, m, seed=2705)[:, 0] == "balanced"))
    print("told +%d matches: balanced %.4f at %d" % (more, measured, total))
    assert 0.78 <= measured <= 0.86


def test_the_design_counts_the_claims_the_verdict_table_makes(tmp_path, toy_game):
    """plan_family (which the tests above use for m) agrees with tables.verdicts on a real run."""
    from analysis import load_run, tables
    from sim.cli import main

    sweep = tmp_path / "toy.toml"
    sweep.write_text('game = "toy"\npairings = ["red_vs_blue", "red_vs_red", "blue_vs_blue"]\nlife = [10, 20]\n'
                     'life_pairs = [[10, 20]]\nmatches = 20\nchunk_size = 20\nseed = 3\n')
    assert main(["sweep", str(sweep), "--out", str(tmp_path / "run"), "--jobs", "1", "--quiet", "--no-report"]) == 0
    game = get_game("toy")
    plan = build_plan(parse_sweep({"game": "toy", "pairings": ["red_vs_blue", "red_vs_red", "blue_vs_blue"],
                                   "life": [10, 20], "life_pairs": [[10, 20]], "matches": 20}, "toy"), game)
    table = tables.verdicts(load_run(tmp_path / "run"))
    assert verdict_design.plan_family(plan) == (int(table["decisions"].iloc[0]), len(table))


def order_rates(first_rate, seat0_truth):
    """Seat 0's rate in each first-player order of a mirror row whose first player wins at
    `first_rate` and whose seat 0 is ahead by one log-odds shift in both orders, solved so that
    the orders' mean is `seat0_truth` (a shift in log-odds, not in points: at a first player of
    99 % no point shift reaches a band edge)."""
    from scipy.optimize import brentq
    from scipy.special import expit, logit

    base = np.array([logit(first_rate), logit(1.0 - first_rate)])
    shift = brentq(lambda b: float(np.mean(expit(base + b))) - seat0_truth, -20.0, 20.0, xtol=1e-14)
    return expit(base + shift)


def stratified_labels(first_rate, seat0_truths, n_per_order, m, seed, p_values=None):
    """`labels` for mirror rows as the report pools them: each row is two first-player orders
    of n_per_order decided matches (`order_rates`), decided by the pooled test tables.verdicts
    uses (analysis.verdict.stratified_score_p_values), or by `p_values(groups, wins, trials,
    n_groups)` when given. The family's other claims get p = 1, as in `labels`."""
    from analysis.verdict import stratified_score_p_values

    rates = np.array([order_rates(first_rate, truth) for truth in seat0_truths])  # (rows, orders)
    generator = np.random.default_rng(seed)
    wins = generator.binomial(n_per_order, np.broadcast_to(rates, (RUNS, *rates.shape)))
    groups = np.repeat(np.arange(RUNS * len(rates)), 2)
    decide = p_values or (lambda *counts: stratified_score_p_values(*counts, delta=DELTA))
    p_imbalanced, p_balanced = decide(groups, wins.ravel(), np.full(wins.size, float(n_per_order)), RUNS * len(rates))
    pad = np.ones((RUNS, m - len(rates)))
    return decide_family(np.hstack([p_imbalanced.reshape(RUNS, -1), pad]),
                         np.hstack([p_balanced.reshape(RUNS, -1), pad]))[:, :len(rates)]


def kish_p_values(groups, wins, trials, n_groups):
    """The pooled test before issue 37's mend: score tests at the Kish n_eff of the observed rates."""
    from analysis.stats import stratified_rates

    share, _, _, n_eff = stratified_rates(groups, wins, trials, n_groups)
    return score_p_values(share, n_eff, DELTA)


# The first player's share in the TCG's default mirrors runs from about 45 % to 99.9 %
# (docs/examples/tcg-default), and the error on the band edge must stay within 5 % there too.
# With the Kish n_eff of the observed rates it did up to a first player at 90 %, not beyond (5.7 %
# at 95 %, 7.2 % at 97 %, 20,000 replications): a stratum near 0 looks more precise the further its
# estimate falls, so a low pooled estimate got a too small standard error at the α/150 tail.
# The pooled test now takes its variance at each band edge from the strata fitted to that edge
# (analysis.stats.stratified_null_variance); `test_the_kish_pooled_test_over_labelled_balanced`
# keeps the old fault reproduced.
@pytest.mark.parametrize("name, first_rate", [*((name, rate) for name in GAMES for rate in (0.5, 0.9, 0.97, 0.99)),
                                              ("novel_tcg", 0.7), ("novel_tcg", 0.95)])
def test_fair_mirrors_pooled_over_first_player_orders_decide_at_every_first_player_rate(name, first_rate):
    n, m = default_design(name)
    fair = float(np.mean(stratified_labels(first_rate, [0.5], n // 2, m, seed=3702)[:, 0] == "balanced"))
    for edge in (0.5 - DELTA, 0.5 + DELTA):  # every claim on one edge; the two edges differ once the orders do
        rows = stratified_labels(first_rate, [edge] * m, n // 2, m, seed=3703)
        wrong_balanced = float(np.mean((rows == "balanced").any(axis=1)))
        wrong_imbalanced = float(np.mean((rows == "imbalanced").any(axis=1)))
        print("%s, first player %.2f: fair mirror balanced %.4f; edge %.2f: some balanced %.4f, "
              "some imbalanced %.4f" % (name, first_rate, fair, edge, wrong_balanced, wrong_imbalanced))
        assert wrong_balanced <= LIMIT and wrong_imbalanced <= LIMIT
    assert fair >= 0.80


def test_the_kish_pooled_test_over_labelled_balanced():
    """The fault the stratified score test mends, reproduced: at a first player of 99 % the old
    pooled test labels some band-edge row balanced more often than 5 % + 3 s.e. (measured 7.7 %;
    5.9 % at 97 % in this log-odds model, 7.2 % in the former point-shift one)."""
    n, m = default_design("novel_tcg")
    rows = stratified_labels(0.99, [0.5 + DELTA] * m, n // 2, m, seed=3703, p_values=kish_p_values)
    wrong_balanced = float(np.mean((rows == "balanced").any(axis=1)))
    print("Kish n_eff, first player 0.99, edge: some balanced %.4f" % wrong_balanced)
    assert wrong_balanced > LIMIT


def test_more_matches_past_100_times_the_rows_matches_is_the_band_edge():
    """Issue 37 item 6: the cap is exact at ON_EDGE_RATIO times the row's matches; decided rows say nothing."""
    more = verdict_design.more_matches([400_000, 400_001, 5_000, 3_000], 4_000, [True, True, True, False])
    assert more[0] == 396_000 and np.isinf(more[1]) and more[2] == 1_000 and np.isnan(more[3])
    assert [verdict_design.more_matches_text(v) for v in more] == [
        "+396,000", "on the band edge — more matches will not decide", "+1,000", ""]


@pytest.mark.parametrize("name", GAMES)
def test_the_band_edge_cell_says_so_on_the_edge_and_rarely_elsewhere(name):
    """What the band-edge words cost and buy, at each game's default design, 4,000 replications
    (normal approximation of a row, its family's other claims not rejected). The words appear when
    the row's estimate is within about 0.4 s.e. of a band edge. Measured (Faction War / Poker Duel):
    a fair row 0.0 % / 0.0 %, a row at 0.51 (2.5× more matches would decide it) 1.5 % / 1.6 %, 1.5
    points inside (0.515, about 10× would) 15 % / 15 %, a row on the edge (0.52: no size decides)
    31 % / 29 % — the rest of the edge rows get a projected size, which on the edge is noise."""
    n, m = default_design(name)
    rates = {}
    for truth in (0.5, 0.51, 0.515, 0.52):
        generator = np.random.default_rng(3706)
        shares = generator.binomial(n, truth, size=(RUNS, 1)) / n
        p_imbalanced, p_balanced = score_p_values(shares, np.full(shares.shape, float(n)))
        pad = np.ones((RUNS, m - 1))
        label = decide_family(np.hstack([p_imbalanced, pad]), np.hstack([p_balanced, pad]))[:, 0]
        share = shares[:, 0]
        needed = verdict_design.matches_to_decide(share, np.sqrt(share * (1 - share) / n), n, m)
        rates[truth] = float(np.mean(np.isinf(verdict_design.more_matches(needed, n, label == "undecided"))))
    print("%s: band-edge words at %s" % (name, rates))
    assert rates[0.5] <= LIMIT and rates[0.51] <= LIMIT
    assert rates[0.515] <= 0.20
    assert rates[0.52] >= 0.25
