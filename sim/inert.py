"""Where a rules number or reading can act: a game's declaration, read for the design commands.

Each game's rules module declares `ACTS_ONLY_WHEN`: {parameter: (condition, what would make it
act, the rules keys the condition reads, the clause that says why[, the grid dimensions it
reads])}; condition None means the parameter acts under no rules. A condition that reads no grid
dimension is `condition(rules)`; one that reads some (Faction War's pairing, the Novel TCG's
rank) is `condition(rules, cell)`, `cell` being {dimension: value} of one cell of the design
(`game.single_values()` shape). Outside its condition the engines never read the parameter, so
`sensitivity` would rank it 0, `fair` and `map` would measure noise, a sweep's [vary] would play
the same rows twice and `compare` would play identical matches. The design commands and `sweep`
refuse such a parameter (one line, exit 2, before any match is played); `compare` says so up front.

The trade-off: a declaration is a claim about the engines, not derived from them; the clause
tests (tests/test_inert.py) play matches on both sides of every declared condition, so a claim
that drifts from the engines fails there. Where the cells are not known (`cells=None`) a
condition on the grid is taken to hold somewhere: nothing is refused on a guess.
"""

from __future__ import annotations

import itertools
import sys
from dataclasses import dataclass
from typing import Any, Callable

from sim.errors import CardbalanceError
from sim.fair.params import FACTOR, REAL, SEAT_VALUE, apply
from sim.sweep import vary

@dataclass(frozen=True)
class ActsWhen:
    """One declared entry: `acts(rules, cells)` says whether `name` can act under `rules` in any of
    `cells` (grid values; None: cells unknown)."""

    name: str
    condition: Callable[..., bool] | None  # None: acts under no rules
    needs: str | None                      # what would make it act, in the rules' (or grid's) own words
    reads: tuple[str, ...]                 # the rules keys the condition reads
    clause: str
    cell_reads: tuple[str, ...] = ()       # the grid dimensions it reads (then it takes the cell too)

    def acts(self, rules, cells=None) -> bool:
        if self.condition is None:
            return False
        if not self.cell_reads:
            return bool(self.condition(rules))
        if cells is None:
            return True  # cannot tell without the cells: never refuse on a guess
        return any(bool(self.condition(rules, cell)) for cell in cells)

    def sentence(self) -> str:
        """'acts only when advanced_rules = true (...) (D-ADV-3: ...)'."""
        if self.condition is None:
            return "it acts under no rules (%s)" % self.clause
        return "it acts only when %s (%s)" % (self.needs, self.clause)


def declaration(rules) -> dict[str, ActsWhen]:
    """{parameter: ActsWhen} of the rules' game (empty when its rules module declares none)."""
    table = getattr(sys.modules.get(type(rules).__module__), "ACTS_ONLY_WHEN", {}) or {}
    return {name: ActsWhen(name, *entry) for name, entry in table.items()}


def check_design(rules, params, command: str, factors: bool = False, cells=None) -> None:
    """Refuse (CardbalanceError, one line) the first parameter of a design that can act at none
    of the design's points: its condition is false under the base rules in every cell the design
    plays (`cells`: {dimension: value} each; None: not known) and stays false at every corner of
    the varied parameters it reads (each numeric one at its low and high, each factor at every
    reading it takes; a per-seat grid value counts when the condition reads its dimension).
    `factors`: the command can vary switches (sensitivity), so the line may suggest varying the
    one the condition reads."""
    table = declaration(rules)
    for param in params:
        entry = table.get(param.name)
        if entry is None:
            continue
        varied = [other for other in params if _varied_key(other) in entry.reads + entry.cell_reads]
        if _acts_somewhere(entry, rules, cells, varied):
            continue
        raise CardbalanceError("parameter '%s' has no effect under these rules: %s; %s refuses it rather than "
                               "measure nothing%s." % (param.name, entry.sentence(), command,
                                                                   _remedy(entry, param.name, factors, cells)))


def _varied_key(param) -> str:
    return param.dimension if param.kind == SEAT_VALUE else param.name


def _remedy(entry: ActsWhen, name: str, factors: bool, cells) -> str:
    if entry.condition is None:
        return ""
    where = (["rules"] if entry.reads else []) + list(entry.cell_reads)
    if not factors:
        return ": change the %s to that" % " or ".join(where)
    # sensitivity can vary a rules key or a per-seat grid value (rank0=...), and play every value of a
    # choice dimension (--spread-over pairing)
    per_seat = [name for name in entry.cell_reads if cells and isinstance(cells[0].get(name), tuple)]
    others = [key for key in entry.reads if key != name] + per_seat  # the parameter itself is varied already
    also = ["vary %s too" % " or ".join(others)] if others else []
    also += ["play every %s (--spread-over %s)" % (name, name) for name in entry.cell_reads if name not in per_seat]
    return ": change the %s to that, or %s" % (" or ".join(where), ", or ".join(also))


def _levels(param) -> tuple:
    if param.kind == FACTOR:
        return tuple(param.levels)
    kind = float if param.kind == REAL else int
    return (kind(param.low), kind(param.high))


def _acts_somewhere(entry: ActsWhen, rules, cells, varied) -> bool:
    # a condition reads one to three keys, so the corners are few (at most 2 x 2 x 3 today)
    if entry.condition is None:
        return False
    for corner in itertools.product(*(_levels(param) for param in varied)):
        if cells is None:  # a condition on the grid holds somewhere then; only the rules part is corners
            rules_part = [(param, value) for param, value in zip(varied, corner) if param.kind != SEAT_VALUE]
            changed = apply(rules, {}, [param for param, _ in rules_part], [value for _, value in rules_part])
            if entry.acts(changed.rules, None):
                return True
            continue
        settings = [apply(rules, cell, varied, corner) for cell in cells]
        if settings and entry.acts(settings[0].rules, [setting.values for setting in settings]):
            return True
    return False


def _flat_values(rules) -> dict:
    values = dict(rules.as_dict())
    values.update(values.pop("ambiguities", {}) or {})
    return values


def inert_changes(base_rules, tweak_rules, cells=None) -> list[ActsWhen]:
    """The declared parameters TWEAK changes from BASE that can act under neither arm's rules in
    any of `cells` (the grid values compare plays; None: not known)."""
    base, tweak = _flat_values(base_rules), _flat_values(tweak_rules)
    table = declaration(tweak_rules)
    return [table[name] for name in tweak if name in table and base.get(name) != tweak[name]
            and not table[name].acts(base_rules, cells) and not table[name].acts(tweak_rules, cells)]


def changed_keys(base_rules, tweak_rules) -> list[str]:
    """Every rules key (ambiguity IDs flattened) whose value differs between the arms."""
    base, tweak = _flat_values(base_rules), _flat_values(tweak_rules)
    return [name for name in tweak if base.get(name) != tweak[name]]


def compare_note(base_rules, tweak_rules, cells=None, against: str | None = None) -> str | None:
    """`compare`'s up-front line when TWEAK changes parameters that can act under neither arm's
    rules in any cell of its grid (None when it changes none): all of them -> every paired match
    will be identical. `against` "the baseline's": BASE is a stored snapshot's rules, nothing is
    paired, and the line says the tweak plays the snapshot's game."""
    inert = inert_changes(base_rules, tweak_rules, cells)
    if not inert:
        return None
    why = "; ".join("%s: %s" % (entry.name, entry.sentence()) for entry in inert)
    names = ", ".join(entry.name for entry in inert)
    only = len(inert) == len(changed_keys(base_rules, tweak_rules))
    if against is not None and only:
        return ("the tweak changes from %s rules only %s, which can act under neither's rules in its grid, so it "
                "plays the snapshot's game and any difference is sampling noise (%s)." % (against, names, why))
    if against is not None:
        return ("of the tweak's changes from %s rules, %s can act under neither's rules in its grid; only the "
                "others can move a metric (%s)." % (against, names, why))
    if only:
        return ("the tweak changes only %s, which can act under neither arm's rules, so every paired match will "
                "be identical (%s)." % (names, why))
    return ("of the tweak's changes, %s can act under neither arm's rules; only the others can move a match (%s)."
            % (names, why))


def rules_from_values(like_rules, values: dict):
    """The rules of `like_rules`' game with `values` (an `as_dict()`, e.g. a baseline's stored
    BASE), or None when they do not load (a key renamed since the snapshot was written)."""

    flat = dict(values)
    flat.update(flat.pop("ambiguities", {}) or {})
    try:
        return vary.apply(like_rules, flat, "baseline")
    except CardbalanceError:
        return None


def check_sweep_vary(plan) -> list[str]:
    """A sweep's [vary] keys against where they can act (`plan`: sim.sweep.grid.Plan). A key that
    can act in no cell of the sweep (under no rules entry, in no grid cell) is refused, one line,
    as `sensitivity` refuses it: every variant would replay the same matches. A key that cannot act
    under some rules entries only is a note (returned, one line each): [vary] is a cross product,
    so a sweep that needs the key under one preset plays its idle variants under the others too."""
    table = declaration(next(iter(plan.rules.values())))
    grid = [cell.values for cell in plan.cells if cell.rules == plan.cells[0].rules]  # one rules entry's cells
    notes = []
    for key, _ in plan.spec.vary:
        entry = table.get(key)
        if entry is None:
            continue
        idle = [base for base in plan.spec.rules
                if not any(entry.acts(rules, grid) for name, rules in plan.rules.items()
                           if plan.rules_bases.get(name, (name,))[0] == base)]
        if len(idle) == len(plan.spec.rules):
            raise CardbalanceError("sweep '%s': [vary] %s has no effect under these rules: %s; sweep refuses it "
                                   "rather than play every variant's matches again: change the rules or the grid to "
                                   "that, or remove %s from [vary]." % (plan.spec.name, key, entry.sentence(), key))
        if idle:
            notes.append("[vary] %s cannot act under rules %s (%s), so their %s variants play the same game twice over."
                         % (key, ", ".join("'%s'" % base for base in idle), entry.sentence(), key))
    return notes
