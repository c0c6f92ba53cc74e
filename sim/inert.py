"""Where a rules number or reading can act: a game's declaration, read for the design commands.

Each game's rules module declares `ACTS_ONLY_WHEN`: {parameter: (condition on the rules, what
would make it act, the rules keys the condition reads, the clause that says why)}; condition
None means the parameter acts under no rules. Outside its condition the engines never read the
parameter, so `sensitivity` would rank it 0, `fair` and `map` would measure noise and `compare`
would play identical matches. The commands refuse such a parameter (one line, exit 2, before
any match is played) and `compare` says so up front.

The trade-off: a declaration is a claim about the engines, not derived from them; the clause
tests (tests/test_inert.py) play matches on both sides of every declared condition, so a claim
that drifts from the engines fails there.
"""

from __future__ import annotations

import itertools
import sys
from dataclasses import dataclass
from typing import Any, Callable

from sim.errors import CardbalanceError
from sim.fair.params import FACTOR, REAL, SEAT_VALUE
from sim.sweep import vary

@dataclass(frozen=True)
class ActsWhen:
    """One declared entry: `condition(rules)` says whether `name` can act under `rules`."""

    name: str
    condition: Callable[[Any], bool] | None  # None: acts under no rules
    needs: str | None                        # what would make it act, in the rules' own words
    reads: tuple[str, ...]                   # the rules keys the condition reads
    clause: str

    def acts(self, rules) -> bool:
        return self.condition is not None and bool(self.condition(rules))

    def sentence(self) -> str:
        """'acts only when advanced_rules = true (...) (D-ADV-3: ...)'."""
        if self.condition is None:
            return "it acts under no rules (%s)" % self.clause
        return "it acts only when %s (%s)" % (self.needs, self.clause)


def declaration(rules) -> dict[str, ActsWhen]:
    """{parameter: ActsWhen} of the rules' game (empty when its rules module declares none)."""
    table = getattr(sys.modules.get(type(rules).__module__), "ACTS_ONLY_WHEN", {}) or {}
    return {name: ActsWhen(name, *entry) for name, entry in table.items()}


def check_design(rules, params, command: str, factors: bool = False) -> None:
    """Refuse (CardbalanceError, one line) the first parameter of a design that can act at none
    of the design's points: its condition is false under the base rules and stays false at every
    corner of the varied parameters it reads (each numeric one at its low and high, each factor
    at every reading it takes). `factors`: the command can vary switches (sensitivity), so the
    line may suggest varying the one the condition reads."""
    table = declaration(rules)
    by_name = {param.name: param for param in params if param.kind != SEAT_VALUE}
    for param in params:
        entry = table.get(param.name)
        if entry is None or entry.acts(rules):
            continue
        varied = [by_name[key] for key in entry.reads if key in by_name and key != param.name]
        if entry.condition is not None and varied and _acts_somewhere(entry, rules, varied):
            continue
        remedy = ""
        if entry.condition is not None:
            remedy = ": change the rules to that%s" % (", or vary %s too" % " or ".join(entry.reads) if factors else "")
        raise CardbalanceError("parameter '%s' has no effect under these rules: %s; %s refuses it rather than "
                               "measure nothing%s." % (param.name, entry.sentence(), command, remedy))


def _levels(param) -> tuple:
    if param.kind == FACTOR:
        return tuple(param.levels)
    kind = float if param.kind == REAL else int
    return (kind(param.low), kind(param.high))


def _acts_somewhere(entry: ActsWhen, rules, varied) -> bool:
    # a condition reads one to three keys, so the corners are few (at most 2 x 2 x 3 today)
    for corner in itertools.product(*(_levels(param) for param in varied)):
        changed = vary.apply(rules, {param.name: value for param, value in zip(varied, corner)}, "design")
        if entry.acts(changed):
            return True
    return False


def _flat_values(rules) -> dict:
    values = dict(rules.as_dict())
    values.update(values.pop("ambiguities", {}) or {})
    return values


def inert_changes(base_rules, tweak_rules) -> list[ActsWhen]:
    """The declared parameters TWEAK changes from BASE that can act under neither arm's rules."""
    base, tweak = _flat_values(base_rules), _flat_values(tweak_rules)
    table = declaration(tweak_rules)
    return [table[name] for name in tweak if name in table and base.get(name) != tweak[name]
            and not table[name].acts(base_rules) and not table[name].acts(tweak_rules)]


def changed_keys(base_rules, tweak_rules) -> list[str]:
    """Every rules key (ambiguity IDs flattened) whose value differs between the arms."""
    base, tweak = _flat_values(base_rules), _flat_values(tweak_rules)
    return [name for name in tweak if base.get(name) != tweak[name]]


def compare_note(base_rules, tweak_rules) -> str | None:
    """`compare`'s up-front line when TWEAK changes parameters that can act under neither arm's
    rules (None when it changes none): all of them -> every paired match will be identical."""
    inert = inert_changes(base_rules, tweak_rules)
    if not inert:
        return None
    why = "; ".join("%s: %s" % (entry.name, entry.sentence()) for entry in inert)
    names = ", ".join(entry.name for entry in inert)
    if len(inert) == len(changed_keys(base_rules, tweak_rules)):
        return ("the tweak changes only %s, which can act under neither arm's rules, so every paired match will "
                "be identical (%s)." % (names, why))
    return ("of the tweak's changes, %s can act under neither arm's rules; only the others can move a match (%s)."
            % (names, why))
