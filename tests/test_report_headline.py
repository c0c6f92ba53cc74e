"""The report's headline is generated from the verdict table: its sides, edges, axis spans and the
first-player question come from the rows, and a change of the rows changes the sentence."""

from __future__ import annotations

import pandas as pd

from reports.headline import decision_rule, headline, spans

LABELS = {"series": "pairing", "axis": "life"}


def _row(series, a, b, life, verdict, share, first_verdict, first_share, favoured="", mirror=False, life1=None):
    life1 = life if life1 is None else life1
    return {"series": series, "seat0_name": a, "seat1_name": b, "axis0": life, "axis1": life1,
            "axis": str(life) if life == life1 else "%d/%d" % (life, life1), "handicap": life != life1,
            "mirror": mirror, "verdict": verdict, "favoured": favoured, "seat0_share": share, "delta": 0.02,
            "first_player_verdict": first_verdict, "first_share": first_share, "skill": "greedy",
            "variant": "greedy:greedy default", "adjust": "holm", "decisions": 12}


def _table(edge_at_70=0.45):
    rows = [_row("human_vs_alien", "human", "alien", 30, "imbalanced", 0.41, "imbalanced", 0.56, "alien"),
            _row("human_vs_alien", "human", "alien", 50, "imbalanced", 0.38, "imbalanced", 0.57, "alien"),
            _row("human_vs_alien", "human", "alien", 70, "imbalanced" if edge_at_70 < 0.48 else "balanced",
                 edge_at_70, "undecided", 0.52, "alien" if edge_at_70 < 0.48 else ""),
            _row("human_vs_alien", "human", "alien", 100, "imbalanced", 0.57, "imbalanced", 0.44, "human"),
            _row("human_vs_human", "human", "human", 30, "undecided", 0.50, "imbalanced", 0.55, mirror=True),
            _row("human_vs_human", "human", "human", 50, "undecided", 0.50, "imbalanced", 0.56, mirror=True),
            _row("human_vs_human", "human", "human", 70, "undecided", 0.50, "undecided", 0.51, mirror=True),
            _row("human_vs_human", "human", "human", 100, "undecided", 0.50, "undecided", 0.49, mirror=True),
            _row("human_vs_human", "human", "human", 40, "handicap", 0.22, "imbalanced", 0.55, mirror=True,
                 life1=60)]
    return pd.DataFrame(rows)


def test_the_headline_says_who_is_favoured_by_how_much_where_and_the_first_player():
    text, agents = headline(_table(), LABELS, [], ("random", "greedy", "pimc:64"))
    assert text.startswith("Under greedy play, Human vs Alien favours the Alien by 5–12 points at life 30–70")
    assert "favours the Human by 7 points at life 100" in text
    assert "the first player wins 55–57 % of decided matches at life 30–50 in every pairing" in text
    assert "the second player wins 56 % of decided matches at life 100 in Human vs Alien" in text
    assert "the seat with less life wins 22 % of decided matches" in text
    assert "greedy agent only" in agents and "--skills random greedy pimc:64" in agents


def test_the_headline_follows_the_rows():
    text = headline(_table(edge_at_70=0.49), LABELS, [])[0]
    assert "favours the Alien by 9–12 points at life 30–50" in text
    assert "is within ±2 points of even at life 70" in text


def test_spans_join_consecutive_values_of_the_run():
    assert spans([30, 40, 50, 100], [30, 40, 50, 60, 100]) == "30–50 and 100"
    assert spans([60], [30, 60]) == "60"


def test_the_decision_rule_is_worded_from_the_table():
    table = _table()
    assert "all 12 verdicts" in decision_rule(table) and "Holm" in decision_rule(table)
    table.attrs["decision_rule"] = "a sequential test decides"
    assert decision_rule(table) == "a sequential test decides"


# ---- issue 38 item 3: a matchup played in both seat orders is one clause, named by its sides ----

def _seated(a, b, rank, verdict, share, favoured="", decisive=100):
    row = _row("%s/%s" % (a, b), a, b, rank, verdict, share, "undecided", 0.5, favoured)
    return {**row, "decisive": decisive}


def _both_orders_table():
    # Advance beats Swarm from either seat at rank 10 (seat-0 shares 0.96 and 1 - 0.98), Swarm beats
    # Advance at rank 5 (0.44 with Advance in seat 0, 0.58 with Swarm there), rank 2 splits by seat
    rows = [_seated("advance", "swarm", 2, "imbalanced", 0.60, "advance"),
            _seated("swarm", "advance", 2, "undecided", 0.51),
            _seated("advance", "swarm", 5, "imbalanced", 0.44, "swarm"),
            _seated("swarm", "advance", 5, "imbalanced", 0.58, "swarm"),
            _seated("advance", "swarm", 10, "imbalanced", 0.96, "advance"),
            _seated("swarm", "advance", 10, "imbalanced", 0.02, "advance", decisive=300)]
    return pd.DataFrame(rows)


def test_both_seat_orders_of_a_matchup_are_one_clause_named_by_its_sides():
    text, _ = headline(_both_orders_table(), {"series": "deck", "axis": "rank"}, [])
    # pooled over the orders: Advance wins (96 + 3 x 98) / 4 = 97.5 % at rank 10, Swarm (56 + 58) / 2 = 57 % at 5
    assert text == ("Under greedy play, Advance beats Swarm by 48 points at rank 10, loses by 7 points at rank 5 "
                    "and is undecided at rank 2; no first-player advantage is shown: the first player wins 50 % of "
                    "decided matches, 6 of 6 rows "
                    "undecided."), text
    assert "Swarm vs Advance" not in text and "favours" not in text
    assert text.count(".") == 1  # one sentence; the agents' is the second


def test_a_side_is_named_only_where_every_seat_order_favours_it():
    table = _both_orders_table()
    table.loc[5, ["verdict", "favoured"]] = ["undecided", ""]  # one order no longer decided at rank 10
    text = headline(table, {"series": "deck", "axis": "rank"}, [])[0]
    assert "Swarm beats Advance by 7 points at rank 5" in text and "is undecided at rank 2 and 10" in text


def test_a_first_player_edge_in_many_places_is_counted_not_listed():
    rows = [{**_row("%s_vs_%s" % pair, *pair, life, "undecided", 0.5, "imbalanced", share), "decisive": 100}
            for pair, life, share in ((("human", "alien"), 30, 0.56), (("alien", "elf"), 50, 0.58),
                                      (("elf", "dwarf"), 70, 0.61), (("dwarf", "orc"), 100, 0.50))]
    rows[-1]["first_player_verdict"] = "undecided"
    text = headline(pd.DataFrame(rows), LABELS, [])[0]
    assert "the first player wins 56–61 % of decided matches in 3 of the 4 verdict rows (61 % in Elf vs Dwarf at " \
           "life 70)" in text, text


# ---- the folded claim's error rate: a side named in the headline is wrong at most as often as the
# ---- table's verdicts are (seeded; the two seat orders of one matchup at five axis values)

def _folded_claims(true_share_a: float, replications: int, decided: int, seed: int) -> tuple[int, int]:
    """(replications where the headline names a side wrongly, replications where it names the
    right one at every axis value): each replication draws both orders' counts, decides the
    ten rows as one Holm family (analysis.game_sections.family_verdicts, δ = 0.02) and folds
    them as the headline does (reports.headline._folded_verdict)."""
    import numpy as np
    from analysis.game_sections import family_verdicts
    from reports.headline import _folded_verdict
    rng = np.random.default_rng(seed)
    wrong = right = 0
    values = [2, 5, 10, 15, 20]
    # rows: (advance seat 0, swarm seat 1) then (swarm seat 0, advance seat 1) at each value
    seat0_true = np.array([true_share_a, 1 - true_share_a] * len(values))
    for _ in range(replications):
        wins0 = rng.binomial(decided, seat0_true)
        verdicts = family_verdicts(wins0, np.full(len(wins0), decided))
        frame = pd.DataFrame({"seat0_name": ["advance", "swarm"] * len(values), "seat0_share": wins0 / decided,
                              "decisive": decided, "verdict": verdicts, "_value": np.repeat(values, 2)})
        frame["favoured"] = np.where(frame["verdict"] != "imbalanced", "",
                                     np.where(frame["seat0_share"] > 0.5, frame["seat0_name"],
                                              np.where(frame["seat0_name"] == "advance", "swarm", "advance")))
        named = [_folded_verdict(part, "advance")[1] for _, part in frame.groupby("_value")]
        truth = "advance" if true_share_a > 0.52 else "swarm" if true_share_a < 0.48 else ""
        wrong += any(side and side != truth for side in named)
        right += bool(truth) and all(side == truth for side in named)
    return wrong, right


def test_the_folded_headline_names_a_wrong_side_at_most_as_often_as_the_tables_error_rate():
    # Advance's true share on the band's edge, 52 %, from both seats: naming Advance (or Swarm) the
    # winner anywhere is an error; the table bounds its wrong 'imbalanced' labels at 5 %, and the
    # fold needs both orders' labels. 1,000 replications: a 5 % rate would show 50 ± 14.
    wrong, _ = _folded_claims(0.52, 1000, 2000, seed=38)
    assert wrong <= 50, wrong  # measured: see the report (0 of 1,000 on this seed)


def test_the_folded_headline_names_a_clear_winner_with_high_power():
    # power, all five values named right: Advance at 58 % from both seats with 2,000 decided
    # matches a row (6 points beyond the band edge) ~100 %; at 56 % it is about half (103 of 200)
    _, right = _folded_claims(0.58, 300, 2000, seed=39)
    assert right >= 0.95 * 300, right
