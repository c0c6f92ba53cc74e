"""The report's answer in a sentence or two, generated from the verdict table.

`headline(verdicts, labels, order, game)` returns the sentences the page opens
with: per pairing (series), which side the balance verdicts favour and by how
many points at which axis values, where it is within the band and where it is
still undecided; then the first-player question over every pairing, mirrors
included (in a mirror it is the balance question); then which agents played.
Only rows with equal seats enter the sentences (a handicap row answers another
question). `decision_rule(verdicts)` words the rule that decided, from the
table's own columns, for the captions.

Pure functions of the analysis tables: no statistics are computed here, every
number is a share the table holds and every claim a verdict it made.
`run_headline(run, verdicts, order)` is the page's headline of a run, and
`terminal_summary` puts that same headline at the top of the terminal's summary
(analysis.summary_text), so the terminal and the page open alike.
"""

from __future__ import annotations

import pandas as pd

from analysis.skill import is_level

FIRST, SECOND = "first", "second"
MAX_PLACES = 2  # the first-player clause names at most this many places, else it counts the rows


def side_name(name: str) -> str:
    """'blue' -> 'Blue', 'hard_ai' -> 'Hard ai' (a seat's side as a sentence names it)."""
    text = str(name).replace("_", " ").strip()
    return text[:1].upper() + text[1:] if text else "seat"


def pairing_name(row) -> str:
    if row["seat0_name"] or row["seat1_name"]:
        return "%s vs %s" % (side_name(row["seat0_name"]), side_name(row["seat1_name"]))
    return str(row["series"])


def _axis_number(label):
    try:
        return int(label)
    except (TypeError, ValueError):
        return label


def spans(values: list, everything: list) -> str:
    """'30–70 and 100': runs of consecutive entries of `everything` (the run's equal values in order)."""
    where = {value: index for index, value in enumerate(everything)}
    picked = sorted(set(values), key=lambda value: where.get(value, len(where)))
    runs, current = [], []
    for value in picked:
        if current and where[value] != where[current[-1]] + 1:
            runs.append(current)
            current = []
        current.append(value)
    if current:
        runs.append(current)
    words = ["%s–%s" % (run[0], run[-1]) if len(run) > 1 else str(run[0]) for run in runs]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _range(numbers, unit: str) -> str:
    low, high = round(min(numbers)), round(max(numbers))
    return "%d%s" % (low, unit) if low == high else "%d–%d%s" % (low, high, unit)


def _equal_rows(verdicts: pd.DataFrame) -> pd.DataFrame:
    rows = verdicts[~verdicts["handicap"].astype(bool) & (verdicts["axis0"] == verdicts["axis1"])]
    return rows.assign(_value=rows["axis0"].astype(int)).sort_values("_value", kind="stable")


def _played(verdicts: pd.DataFrame) -> pd.DataFrame:
    """The rows of the agents the headline speaks for: both seats the same agent when the run has such rows."""
    levels = verdicts["skill"].map(is_level) if len(verdicts) else pd.Series([], dtype=bool)
    return verdicts[levels.to_numpy()] if levels.any() else verdicts


def _key(row, several_variants: bool) -> str:
    return pairing_name(row) + (" (%s)" % row["variant"] if several_variants else "")


def _sides(row) -> tuple[str, str]:
    """A row's two sides, seat 0's first."""
    return str(row["seat0_name"]), str(row["seat1_name"])


def _both_orders(rows: pd.DataFrame) -> set:
    """(variant, side, side) of every pairing played in both seat orders (sides sorted): one
    matchup, one question, however many seatings answer it."""
    played = {(row["variant"], *_sides(row)) for _, row in rows.iterrows() if row["seat0_name"] != row["seat1_name"]}
    return {(variant, *sorted((a, b))) for variant, a, b in played if (variant, b, a) in played}


def _matchup_key(row, several_variants: bool, folded: set) -> str:
    """The headline's name of a row: 'Advance vs Swarm' for both seat orders of a folded matchup
    (sides in alphabetical order), else the pairing as seated."""
    a, b = sorted(_sides(row))
    if (row["variant"], a, b) not in folded:
        return _key(row, several_variants)
    return "%s vs %s" % (side_name(a), side_name(b)) + (" (%s)" % row["variant"] if several_variants else "")


def _folded_verdict(part: pd.DataFrame, side: str) -> tuple[str, str, float]:
    """(verdict, the side favoured or "", `side`'s share of decided matches) of one matchup at one
    axis value over its seat orders: a side is favoured only where every seat order's verdict
    favours it, so the claim is wrong only if one of the table's verdicts is (its family-wise
    error bounds the headline's); every order balanced is balanced; anything else (an order
    undecided, or the orders favouring opposite sides) is undecided. The share pools the orders'
    decided matches."""
    verdicts, favoured = set(part["verdict"]), set(part["favoured"])
    share_of_side = part["seat0_share"].where(part["seat0_name"] == side, 1 - part["seat0_share"])
    weights = part["decisive"] if "decisive" in part else pd.Series(1.0, index=part.index)
    share = float((share_of_side * weights).sum() / weights.sum()) if weights.sum() else float("nan")
    if verdicts == {"imbalanced"} and len(favoured) == 1:
        return "imbalanced", str(favoured.pop()), share
    return ("balanced" if verdicts == {"balanced"} else "undecided"), "", share


def matchup_sentence(rows: pd.DataFrame, axis_word: str, values: list, variant_words: str = "") -> str:
    """'Advance beats Swarm by 46–49 points at rank 10–20, loses by 6 points at rank 5 and is
    undecided at rank 2': one matchup played in both seat orders, named by its sides."""
    a, b = sorted(_sides(rows.iloc[0]))
    folded = []  # (axis value, verdict, the side favoured or "", that side's share or a's)
    for value, part in rows.groupby("_value", sort=False):
        verdict, winner, share_a = _folded_verdict(part, a)
        folded.append((value, verdict, winner, 1 - share_a if winner == b else share_a))
    wins = {side: [f for f in folded if f[2] == side] for side in (a, b)}
    first = max((a, b), key=lambda side: (len(wins[side]), -(a, b).index(side)))
    other = b if first == a else a
    parts = []
    if wins[first]:
        parts.append("beats %s by %s at %s %s" % (side_name(other), _range([100 * (f[3] - 0.5) for f in wins[first]],
                                                                            " points"),
                                                  axis_word, spans([f[0] for f in wins[first]], values)))
    if wins[other]:
        parts.append("loses by %s at %s %s" % (_range([100 * (f[3] - 0.5) for f in wins[other]], " points"), axis_word,
                                               spans([f[0] for f in wins[other]], values)))
    balanced = [f[0] for f in folded if f[1] == "balanced"]
    if balanced:
        parts.append("is within ±%g points of even at %s %s" % (100 * float(rows["delta"].iloc[0]), axis_word,
                                                               spans(balanced, values)))
    undecided = [f[0] for f in folded if f[1] == "undecided"]
    if undecided:
        parts.append("is undecided at %s %s" % (axis_word, spans(undecided, values)))
    name = side_name(first) if wins[first] else "%s vs %s" % (side_name(first), side_name(other))
    return name + variant_words + " " + (parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1])


def balance_sentence(rows: pd.DataFrame, axis_word: str, values: list, name: str) -> str:
    """'Red vs Blue favours the Blue by 5–12 points at hp 30–70 and is undecided at 80–90'."""
    parts = []
    imbalanced = rows[rows["verdict"] == "imbalanced"]
    for favoured, part in imbalanced.groupby("favoured", sort=False):
        edge = (100 * (part["seat0_share"] - 0.5)).abs()
        parts.append("favours the %s by %s at %s %s" % (side_name(favoured), _range(edge, " points"), axis_word,
                                                       spans(list(part["_value"]), values)))
    balanced = rows[rows["verdict"] == "balanced"]
    if len(balanced):
        parts.append("is within ±%g points of even at %s %s" % (100 * float(balanced["delta"].iloc[0]), axis_word,
                                                               spans(list(balanced["_value"]), values)))
    undecided = rows[rows["verdict"] == "undecided"]
    if len(undecided):
        parts.append("is undecided at %s %s" % (axis_word, spans(list(undecided["_value"]), values)))
    if not parts:
        return ""
    return name + " " + (parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1])


def _first_side(row) -> str:
    if row["first_player_verdict"] != "imbalanced" or row["first_share"] != row["first_share"]:
        return row["first_player_verdict"]
    return FIRST if row["first_share"] > 0.5 else SECOND


def first_player_sentence(rows: pd.DataFrame, axis_word: str, values: list, names: dict, series_word: str) -> str:
    """'the first player wins 55–57 % of decided matches at life 30–60 in every pairing'."""
    rows = rows.assign(_side=[_first_side(row) for _, row in rows.iterrows()])
    keys = list(dict.fromkeys(rows["_key"]))
    parts = []
    for side in (FIRST, SECOND):
        won = rows[rows["_side"] == side]
        if won.empty:
            continue
        share = 100 * (won["first_share"] if side == FIRST else 1 - won["first_share"])
        everywhere = [value for value in values
                      if set(won.loc[won["_value"] == value, "_key"]) >= set(keys)]
        rest = won[~won["_value"].isin(everywhere)]
        where = []
        if everywhere:
            where.append("at %s %s in every %s" % (axis_word, spans(everywhere, values),
                                                    series_word if len(keys) > 1 else "match-up"))
        by_span: dict[str, list[str]] = {}  # the other rows, pairings with the same values together
        for key, part in rest.groupby("_key", sort=False):
            by_span.setdefault(spans(list(part["_value"]), values), []).append(names.get(key, key))
        for span, keys_there in by_span.items():
            where.append("at %s %s in %s" % (axis_word, span, " and ".join(keys_there)))
        if len(where) > MAX_PLACES:  # a list of every place is a table, not a headline: count them
            top = share.idxmax()
            place = names.get(won.loc[top, "_key"], won.loc[top, "_key"])
            where = ["in %d of the %d verdict rows (%.0f %% in %s at %s %s)"
                     % (len(won), len(rows), share[top], place, axis_word, won.loc[top, "_value"])]
        parts.append("the %s player wins %s of decided matches %s" % (
            side, _range(share, " %"), where[0] if len(where) == 1 else ", ".join(where[:-1]) + " and " + where[-1]))
    share = _range(100 * rows["first_share"].dropna(), " %") if rows["first_share"].notna().any() else "-"
    if not parts:
        if (rows["_side"] == "balanced").all():
            return "the first player wins %s of decided matches, within ½ ± %g points everywhere" % (
                share, 100 * float(rows["delta"].iloc[0]))
        return ("no first-player advantage is shown: the first player wins %s of decided matches, %d of %d rows "
                "undecided" % (share, int((rows["_side"] == "undecided").sum()), len(rows)))
    return "; ".join(parts)


def handicap_sentence(verdicts: pd.DataFrame, axis_word: str) -> str:
    """'With unequal seats, the seat with less HP wins 38–40 % of decided matches at 30/50' (mirrors only:
    there the seats differ in nothing else)."""
    rows = verdicts[verdicts["mirror"].astype(bool) & (verdicts["axis0"] != verdicts["axis1"])]
    if rows.empty:
        return ""
    low = rows["seat0_share"].where(rows["axis0"] < rows["axis1"], 1 - rows["seat0_share"])
    pairs = sorted({"%d/%d" % tuple(sorted((a, b))) for a, b in zip(rows["axis0"], rows["axis1"])})
    return ("in the mirrors with unequal seats (%s %s), the seat with less %s wins %s of decided matches"
            % (axis_word, " and ".join(pairs), axis_word, _range(100 * low.dropna(), " %")))


def agents_sentence(verdicts: pd.DataFrame, order: list[str], game_agents: tuple = ()) -> str:
    """Who played, and with one level only the pointer to the skill comparison."""
    played = list(dict.fromkeys(_played(verdicts)["skill"]))
    if len(order) >= 2:
        return ("Played at %d skill levels (%s); the sentences above are the strongest level's, %s — see "
                "'Does the verdict hold as skill rises?'." % (len(order), " < ".join(order), order[-1]))
    who = ", ".join(played)
    stronger = [agent for agent in game_agents if ":" in agent and agent not in played][:1]
    levels = " ".join(dict.fromkeys(["random", *played, *stronger]))
    return ("Both seats were played by the %s agent only; a verdict can move with skill, so before acting on it "
            "compare skill levels: cardbalance sweep --skills %s adds the section 'Does the verdict hold as "
            "skill rises?'." % (who, levels))


def headline(verdicts: pd.DataFrame, labels: dict, order: list[str], game_agents: tuple = ()) -> list[str]:
    """The page's opening sentences (empty for a run without verdicts)."""
    if verdicts.empty:
        return []
    from analysis.skill import headline as strongest
    rows = _equal_rows(_played(strongest(verdicts, order)))
    if rows.empty:
        return [agents_sentence(verdicts, order, game_agents)]
    axis_word = labels.get("axis") or "axis value"
    series_word = labels.get("series") or "series"
    several = rows["variant"].nunique() > 1
    folded = _both_orders(rows)  # pairings played in both seat orders: named once, as a matchup
    rows = rows.assign(_key=[_matchup_key(row, several, folded) for _, row in rows.iterrows()])
    values = list(dict.fromkeys(rows["_value"]))
    names = dict(zip(rows["_key"], rows["_key"]))
    level = list(dict.fromkeys(rows["skill"]))
    lead = "Under %s play, " % " and ".join(level)
    sentences = []
    for key, part in rows[~rows["mirror"].astype(bool)].groupby("_key", sort=False):
        a, b = sorted(_sides(part.iloc[0]))
        if (part["variant"].iloc[0], a, b) in folded:
            sentences.append(matchup_sentence(part, axis_word, values,
                                              " (%s)" % part["variant"].iloc[0] if several else ""))
        else:
            sentences.append(balance_sentence(part, axis_word, values, key))
    sentences = [s for s in sentences if s]
    first = first_player_sentence(rows, axis_word, values, names, series_word)
    handicaps = handicap_sentence(_played(strongest(verdicts, order)), axis_word)
    if sentences:
        text = lead + "; ".join(sentences) + "; " + first + (("; " + handicaps) if handicaps else "") + "."
    else:
        text = (lead + first + " (every %s is a mirror, so this is the balance question)" % series_word
                + (("; " + handicaps) if handicaps else "") + ".")
    return [text, agents_sentence(verdicts, order, game_agents)]


def decision_rule(verdicts: pd.DataFrame) -> str:
    """How a verdict is decided, in the table's own terms (its correction, family size and band)."""
    from analysis.decisions import ADJUST_NAMES
    if verdicts.empty:
        return "no verdicts"
    adjust = str(verdicts["adjust"].iloc[0])
    m = int(verdicts["decisions"].iloc[0])
    delta = float(verdicts["delta"].iloc[0])
    correction = ADJUST_NAMES.get(adjust, adjust)
    rule = verdicts.attrs.get("decision_rule")  # a table that states its own rule wins over this wording
    if rule:
        return str(rule)
    return ("each verdict is a test against the band ½ ± %g — balanced when the evidence puts the share inside it, "
            "imbalanced when outside — and all %d verdicts of the table (balance and first player) are decided "
            "together with %s at 5 %% for each kind of label (some 'balanced' label wrong, some 'imbalanced' label wrong); the intervals shown are each row's own 95 %%, so one just outside the band "
            "can stay undecided" % (delta, m, correction))


def decision_rule_short(verdicts: pd.DataFrame) -> str:
    """The figure's few words for it: 'Holm (family-wise error) over 56 verdicts decides'."""
    from analysis.decisions import ADJUST_NAMES
    if verdicts.empty:
        return "no verdicts"
    rule = verdicts.attrs.get("decision_rule_short")
    if rule:
        return str(rule)
    adjust = str(verdicts["adjust"].iloc[0])
    return "%s over %d verdicts decides" % (ADJUST_NAMES.get(adjust, adjust), int(verdicts["decisions"].iloc[0]))


def game_agents(game_name: str) -> tuple:
    """The agents the game's ladder knows (for the pointer to a stronger one), () for a game not installed."""
    try:
        from sim.registry import get_game
        return tuple(get_game(game_name).ladder_agents or ())
    except Exception:  # a report of a game this install does not have: no agent to suggest
        return ()


def run_headline(run, verdicts: pd.DataFrame, order: list[str]) -> list[str]:
    """The headline of a run's page: `headline` in the run's words, with its game's agents."""
    return headline(verdicts, run.labels, order, game_agents(run.game))


def terminal_summary(run_dir, report_path=None, delta: float | None = None, adjust: str | None = None,
                     ratings: dict | None = None, run_tables: dict | None = None) -> str:
    """What a sweep or a report prints: the page's headline, then analysis.summary_text (which leads with
    the page's counts, analysis/shown_verdict.verdict_counts). The skill order is the page's
    (analysis.skill.levels over the run's listed strategies and the ladder's ratings)."""
    from analysis import summary_text
    from analysis import skill
    from analysis.runs import Run, load_run
    from analysis.tables import all_tables
    from analysis.verdict import DEFAULT_ADJUST, DEFAULT_DELTA
    delta = DEFAULT_DELTA if delta is None else delta
    adjust = DEFAULT_ADJUST if adjust is None else adjust
    run = run_dir if isinstance(run_dir, Run) else load_run(run_dir)
    if run_tables is None:
        run_tables = all_tables(run, delta, adjust)
    verdicts = run_tables["verdicts"]
    order = skill.levels(verdicts, ratings, skill.listed(run.meta)) if len(verdicts) else []
    return summary_text(run, report_path=report_path, delta=delta, adjust=adjust, ratings=ratings,
                        run_tables=run_tables, headline=run_headline(run, verdicts, order))
