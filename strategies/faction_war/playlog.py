"""One match played on the reference engine with the compiled strategies: the play log.

`cardbalance play` uses this so that its log narrates every rule step
(`Match.events`), while the decisions come from the same numba strategies,
views and policy generators as the batch kernels (engine contract, "Match
loop"). The same (rules, cell, seed) therefore gives the same match here and
inside a sweep; `tests/test_fw_playlog.py` checks that.
"""

from __future__ import annotations

import re

import numpy as np

from sim import rng as rng_module
from sim.faction_war import actions as A
from sim.faction_war import layout as L
from sim.faction_war.reference import Match
from sim.faction_war.rules import Rules


def play_logged(rules: Rules, factions: tuple[int, int], lives: tuple[int, int], first: int,
                strategies: tuple[int, int], seed: int) -> Match:
    """Play a whole match; the returned Match holds the log in `events`."""
    from strategies.faction_war.batch import chooser
    from strategies.faction_war.view import build_view
    from strategies.faction_war.workspace import new_workspace

    match = Match.new(rules, factions[0], factions[1], lives[0], lives[1], first, seed)
    from strategies.faction_war.weights import with_policy
    rules_array = with_policy(rules.to_array())  # `tuned` reads the shipped weights from it
    policy_rng = np.array([rng_module.to_signed(rng_module.match_seed(seed, seat + 1)) for seat in (0, 1)],
                          dtype=np.int64)
    view = np.zeros(L.STATE_SIZE, dtype=np.int64)
    workspace = new_workspace(strategies[0], strategies[1])
    choose = chooser(strategies[0], strategies[1])  # a greedy-only match compiles no search agent
    while not match.is_over():
        legal = match.legal_actions()
        decider = match.decider
        if len(legal) == 1:
            action = legal[0]
        else:
            build_view(match.to_array(), rules_array, decider, view)
            legal_array = np.array(legal, dtype=np.int64)
            index = choose(strategies[decider], view, rules_array, legal_array, len(legal), policy_rng,
                           decider, workspace)
            action = legal[int(index)]
            match.events.extend(search_lines(decider, strategies[decider], legal, workspace))
        if A.decode(action)[0] == A.END and match.phase == L.PH_PLACEMENT:
            match.events.append("p%d ends placement" % decider)
        match.apply(action)
    return match


TOP_CANDIDATES = 3


def search_lines(decider: int, strategy: int, legal: list[int], workspace) -> list[str]:
    """Why a search agent chose: its best candidates by visits, with their mean value
    (the decider's expected result, 1 win, 0.5 draw, 0 loss) and visit counts; none
    after a decision that did not search."""
    from strategies.faction_war import strategy_name
    from strategies.search_tree import last_statistics
    statistics = [row for row in last_statistics(workspace) if row[1] > 0]
    if not statistics:
        return []
    statistics.sort(key=lambda row: (-row[1], -row[2], row[0]))
    shown = ", ".join("%s (value %.2f, visits %d)" % (A.to_text(legal[i], decider), points / (2 * visits), visits)
                      for i, visits, points in statistics[:TOP_CANDIDATES])
    return ["p%d %s weighs %d of %d actions: %s" % (decider, strategy_name(strategy), len(statistics), len(legal),
                                                    shown)]


def _cell_parameters(cell_array):
    from strategies.faction_war import batch
    cell = [int(v) for v in cell_array]
    return ((cell[batch.CELL_FACTION0], cell[batch.CELL_FACTION1]), (cell[batch.CELL_LIFE0], cell[batch.CELL_LIFE1]),
            cell[batch.CELL_FIRST], (cell[batch.CELL_STRATEGY0], cell[batch.CELL_STRATEGY1]))


def reference_record(rules, cell_array, match_seed: int) -> np.ndarray:
    """One match on the reference engine → the record a batch kernel would fold
    (`sim/aggregate.py`); the bench's reference side and the replay checks use it.
    `rules` is a Rules object or its packed array."""
    from sim import aggregate
    from sim.faction_war.rules import rules_from_array
    if not isinstance(rules, Rules):
        rules = rules_from_array(rules)
    factions, lives, first, strategies = _cell_parameters(cell_array)
    match = play_logged(rules, factions, lives, first, strategies, int(match_seed))
    record = np.zeros(aggregate.REC_COUNTERS + L.N_COUNTERS, dtype=np.int64)
    record[aggregate.REC_WINNER] = match.winner
    record[aggregate.REC_END_TYPE] = match.end_type
    record[aggregate.REC_TURNS] = match.turn
    record[aggregate.REC_LIFE0], record[aggregate.REC_LIFE1] = match.life
    record[aggregate.REC_FIRST] = match.first
    record[aggregate.REC_COUNTERS:] = match.counters
    return record


ATTACK_LINE = re.compile(r"^p(\d) attacks p(\d) (row\d) with (row\d): (-?\d+) vs (-?\d+)$")
DIRECT_LINE = re.compile(r"^p(\d) attacks p(\d) directly with (row\d) \(sum (-?\d+)\)$")
DAMAGE_LINE = re.compile(r"^  p(\d) takes (\d+): life")
FACE_USE_LINE = re.compile(r"^p(\d) uses (\S+)")
LEAVES_LINE = re.compile(r"^  \S+ leaves the field( \(exiled: [^)]*\))?$")  # F-ALQ-1's exile reason may follow


def _attack_reasons(head: str, details: list[str]) -> list[str]:
    """An ordinary row attack ('X leaves the field', 'pN takes D') gets its rules; anything
    else (a joker's attack, a Q's exile) is left as the engine told it."""
    found = ATTACK_LINE.match(head)
    mine, theirs = int(found.group(5)), int(found.group(6))
    head += (" (sum %d > %d: a row may attack a row of smaller sum, F-ATK-3)" % (mine, theirs)
             if mine > theirs else " (its big joker wins regardless of the sums, F-JOK-2)")
    if len(details) == 2 and LEAVES_LINE.match(details[0]) and DAMAGE_LINE.match(details[1]):
        doubled = found.group(3) == "row3" and found.group(4) == "row1"
        details = [details[0] + " (the attacked row's smallest normal card, F-ATK-4/5)",
                   details[1] + (" (twice the removed card's number: row 1 reaching row 3, F-TGT-1)" if doubled
                                 else " (the removed card's number, F-ATK-4)")]
    return [head, *details]


def with_reasons(lines: list[str], factions: tuple[int, int]) -> list[str]:
    """The engine's log with the rule behind each attack, its damage and a Human face card's cost:
    'p0 attacks p1 row2 with row2: 19 vs 4 (sum 19 > 4: a row may attack a row of smaller sum, F-ATK-3)'."""
    out, index = [], 0
    while index < len(lines):
        line = lines[index]
        details_end = index + 1
        while details_end < len(lines) and lines[details_end].startswith("  "):
            details_end += 1
        details = lines[index + 1:details_end]
        if ATTACK_LINE.match(line):
            out += _attack_reasons(line, details)
        elif DIRECT_LINE.match(line):
            out += [line + " (damage: the attacking row's sum, F-ATK-7)", *details]
        elif FACE_USE_LINE.match(line) and factions[int(FACE_USE_LINE.match(line).group(1))] == L.HUMAN:
            user = FACE_USE_LINE.match(line).group(1)
            out += [line, *[d + (" (a Human face card used up costs 1 life, F-HUP-1)"
                                 if d.startswith("  p%s takes 1:" % user) else "") for d in details]]
        else:
            out += [line, *details]
        index = details_end
    return out


def replay_log(rules: Rules, cell_array, match_seed: int) -> list[str]:
    """The narrated log of one match of a cell (`cardbalance play --from`), with the rule behind
    each attack and each cost (`with_reasons`)."""
    factions, lives, first, strategies = _cell_parameters(cell_array)
    match = play_logged(rules, factions, lives, first, strategies, int(match_seed))
    lines = with_reasons(list(match.events), factions)
    if not lines or not lines[-1].startswith("match over"):
        lines.append("match over: %s" % match.outcome_text())
    return lines
