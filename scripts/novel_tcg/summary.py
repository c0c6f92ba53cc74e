"""Answer §18.3's questions from a Novel TCG sweep run folder (reads the run, never simulates).

    python scripts/novel_tcg/summary.py runs/tcg-default > docs/examples/tcg-default/summary.md

Sections: Q1 first-player advantage by template and rank, deck-out wins by seat (§17 note 5);
Q2 the higher-ranked seat's win rate against the rank gap; Q4 the advance-summon economy;
Q6 game length and end types by rank; Q7 where duelist damage comes from; Q9 how often the
front row, back row and hand limit bind; Q10 the template x template matrix with a
rock-paper-scissors flag. Intervals are 95 % Wilson intervals over matches.
"""

import sys
from itertools import permutations
from pathlib import Path

import pandas as pd

from analysis.stats import wilson_interval


def pct(wins, n) -> str:
    low, high = wilson_interval(wins, n)
    return "%.1f%% [%.1f, %.1f]" % (100 * wins / n, 100 * low, 100 * high)


def main(run: str) -> None:
    d = pd.read_parquet(Path(run) / "results.parquet")
    d["seat0_wins"] = d.filter(like="seat0_").sum(axis=1)
    d["seat1_wins"] = d.filter(like="seat1_").sum(axis=1)
    d["draws"] = d.filter(like="draw_").sum(axis=1)
    out = ["# Novel TCG: §18.3 answers from `%s`" % Path(run).name, "",
           "Greedy against greedy unless the skill column says otherwise; %d matches in all." % d.matches.sum(), ""]
    skill = "strategy0"
    mirrors = d[(d.deck0 == d.deck1) & (d.rank0 == d.rank1)]

    out += ["## Q1 First-player advantage (mirror matches)", "",
            "| template | rank | skill | first player wins | deck-out wins: first / second player | draws |",
            "|---|---|---|---|---|---|"]
    for (deck, rank, agent), g in mirrors.groupby(["deck0", "rank0", skill]):
        n = g.matches.sum()
        first_deckout = (g[g["first"] == 0].seat0_deck_out.sum() + g[g["first"] == 1].seat1_deck_out.sum())
        second_deckout = (g[g["first"] == 0].seat1_deck_out.sum() + g[g["first"] == 1].seat0_deck_out.sum())
        out.append("| %s | %d | %s | %s | %d / %d | %d |" % (deck, rank, agent, pct(g.first_player_wins.sum(), n),
                                                             first_deckout, second_deckout, g.draws.sum()))
    out += ["", "A deck-out win of the first player means the second player could not draw (§17 note 5).", ""]

    gaps = d[(d.deck0 == d.deck1) & (d.rank0 != d.rank1)]
    if len(gaps):
        out += ["## Q2 Rank gap: the higher-ranked seat's win rate (mirror templates)", "",
                "| template | ranks | gap | higher rank wins | same template at the lower rank, seat 0 |",
                "|---|---|---|---|---|"]
        for (deck, r0, r1), g in gaps.groupby(["deck0", "rank0", "rank1"]):
            base = mirrors[(mirrors.deck0 == deck) & (mirrors.rank0 == min(r0, r1))]
            wins = g.seat0_wins.sum() if r0 > r1 else g.seat1_wins.sum()
            base_text = pct(base.seat0_wins.sum(), base.matches.sum()) if len(base) else "-"
            out.append("| %s | %d/%d | %d | %s | %s |" % (deck, r0, r1, abs(r0 - r1), pct(wins, g.matches.sum()),
                                                          base_text))
        out += ["", "The gap adds HP (hp_per_rank per rank) and star ceiling (one star per rank) together; "
                "compare runs of hp_per_rank and summon_limit_offset split them (docs/novel-tcg.md).", ""]

    out += ["## Q4 Advance-summon economy and Q6 game length by rank", "",
            "| template pair | rank | skill | turns (mean) | advance summons / match | bases / advance | "
            "end types (hp / deck-out / cap / double KO) |", "|---|---|---|---|---|---|---|"]
    same = d[d.rank0 == d.rank1]
    for (decks, rank, agent), g in same.groupby(["decks", "rank0", skill]):
        n = g.matches.sum()
        adv = g.ct_advance_summons.sum()
        ends = [int(g.filter(like="_" + e).sum().sum()) for e in ("hp", "deck_out", "turn_cap", "double_ko")]
        out.append("| %s | %d | %s | %.1f | %.2f | %s | %d / %d / %d / %d |" % (
            decks, rank, agent, g.turns_sum.sum() / n, adv / n, "%.2f" % (g.ct_bases_used.sum() / adv) if adv else "-",
            *ends))
    out.append("")

    out += ["## Q7 Where duelist damage comes from", "",
            "| skill | rank | overflow | direct attacks | person vs person | hit back on a person | fatigue |",
            "|---|---|---|---|---|---|---|"]
    kinds = ["ct_dmg_overflow", "ct_dmg_direct", "ct_dmg_person", "ct_dmg_hitback", "ct_dmg_fatigue"]
    for (agent, rank), g in same.groupby([skill, "rank0"]):
        total = g[kinds].sum().sum()
        out.append("| %s | %d | %s |" % (agent, rank, " | ".join("%.0f%%" % (100 * g[k].sum() / total) for k in kinds)))
    out.append("")

    out += ["## Q9 How often the limits bind (per match)", "",
            "| template pair | rank | Action phases with a full front row | with a full back row | "
            "hand-limit discards |", "|---|---|---|---|---|"]
    for (decks, rank), g in same[same[skill] == same[skill].iloc[0]].groupby(["decks", "rank0"]):
        n = g.matches.sum()
        out.append("| %s | %d | %.2f | %.2f | %.2f |" % (decks, rank, g.ct_front_full.sum() / n,
                                                       g.ct_back_full.sum() / n, g.ct_discards.sum() / n))
    out.append("")

    out += ["## Q10 Template x template (row template's win rate against the column's, both seats pooled)", ""]
    for (rank, agent), g in same.groupby(["rank0", skill]):
        templates = sorted(set(g.deck0))
        rate = {}
        for a in templates:
            for b in templates:
                as0 = g[(g.deck0 == a) & (g.deck1 == b)]
                as1 = g[(g.deck0 == b) & (g.deck1 == a)]
                wins = as0.seat0_wins.sum() + as1.seat1_wins.sum()
                n = as0.matches.sum() + as1.matches.sum()
                if n:
                    rate[a, b] = (wins, n)
        out += ["Rank %d, %s:" % (rank, agent), "", "| vs | " + " | ".join(templates) + " |",
                "|---" * (len(templates) + 1) + "|"]
        for a in templates:
            out.append("| %s | %s |" % (a, " | ".join(pct(*rate[a, b]) if (a, b) in rate and a != b else "-"
                                                      for b in templates)))
        beats = {(a, b) for (a, b), (w, n) in rate.items() if a != b and wilson_interval(w, n)[0] > 0.5}
        cycle = [c for c in permutations(templates, 3) if c[0] == min(c) and
                 {(c[0], c[1]), (c[1], c[2]), (c[2], c[0])} <= beats]
        out += ["", "Rock-paper-scissors: %s." % ("yes, " + " > ".join(cycle[0] + (cycle[0][0],)) if cycle else
                                               "no cycle (a template that beats every other at this rank: %s)" %
                                               (", ".join(a for a in templates if all((a, b) in beats for b in templates if b != a)) or "none")), ""]
    print("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1])
