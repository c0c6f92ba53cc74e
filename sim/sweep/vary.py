"""Rule values as a sweep dimension: a sweep file's `[vary]` table.

    rules = ["core", "advanced"]
    [vary]
    club_multiplier = [2, 3]                       # a rules number
    D-AMB-38 = ["battle_phase", "single_battle"]   # an ambiguity switch, by its ID

Every rules entry of the sweep is played under every combination of the
varied values (their product, in the order written), as a *rules variant*
named `BASE+KEY=VALUE+...` ("core+club_multiplier=3"): the name is the cell's
`rules` value, so every table and figure labels it. The variant is the base
rules with those values changed; the game's own validation judges each value,
so a reading the rules refuse is a one-line error before any run folder exists.

Game-independent: a rules object offers `as_dict()` (its numbers at the top,
its switches under "ambiguities") and `with_changes(**numbers, ambiguities={...})`
— Faction War's and Poker Duel's both do (a plain frozen dataclass of numbers
works too, through `dataclasses.replace`). A key is a top-level number of
`as_dict()` or a switch ID under its "ambiguities".
"""

from __future__ import annotations

import dataclasses
import itertools

from sim.errors import CardbalanceError

SEPARATOR = "+"  # between a base rules name and each KEY=VALUE of a variant


def _show(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def parse_vary(value, source: str) -> tuple[tuple[str, tuple], ...]:
    """The `[vary]` table of a sweep file -> ((key, values), ...), shape-checked only
    (keys and values are checked against the game's rules in `variants`)."""
    if not isinstance(value, dict) or not value:
        raise CardbalanceError("%s: 'vary' must be a table of rules keys to lists of values, e.g. "
                               "[vary] club_multiplier = [2, 3] (got %r)." % (source, value))
    out = []
    for key, values in value.items():
        if not isinstance(values, list):
            values = [values]
        if not values or not all(isinstance(v, (str, int, bool)) for v in values):
            raise CardbalanceError("%s: [vary] '%s' must be a non-empty list of numbers, strings or booleans (got %r)."
                                   % (source, key, value[key]))
        if len({(type(v), v) for v in values}) != len(values):
            raise CardbalanceError("%s: [vary] '%s' lists a value twice (%s)." % (source, key, ", ".join(map(_show, values))))
        out.append((str(key), tuple(values)))
    return tuple(out)


def vary_as_dict(vary) -> dict:
    return {key: list(values) for key, values in vary}


def variant_name(base: str, changes: dict) -> str:
    return SEPARATOR.join([base] + ["%s=%s" % (key, _show(value)) for key, value in changes.items()])


def combinations(vary) -> list[dict]:
    """Every combination of the varied values, first key slowest."""
    keys = [key for key, _ in vary]
    return [dict(zip(keys, values)) for values in itertools.product(*(values for _, values in vary))]


def allowed_keys(rules) -> tuple[list[str], list[str]]:
    """(numbers, switch IDs) a variant of `rules` may change."""
    values = rules.as_dict()
    return [k for k in values if k != "ambiguities"], list(values.get("ambiguities", {}))


def apply(rules, changes: dict, source: str):
    """`rules` with `changes` applied; one clear error for an unknown key or a refused value."""
    numbers, switches = allowed_keys(rules)
    plain, readings = {}, {}
    for key, value in changes.items():
        if key in numbers:
            plain[key] = value
        elif key in switches:
            readings[key] = value
        else:
            shown = ", ".join(numbers) + (", or a switch %s ... %s" % (switches[0], switches[-1]) if switches else "")
            raise CardbalanceError("%s: [vary] unknown rules key '%s'; allowed: %s." % (source, key, shown))
    try:
        if hasattr(rules, "with_changes"):
            return rules.with_changes(**plain, **({"ambiguities": readings} if readings else {}))
        return dataclasses.replace(rules, **plain)  # rules without switches (a plain frozen dataclass)
    except CardbalanceError as error:
        raise CardbalanceError("%s: [vary] %s: %s" % (source, variant_name("", changes).lstrip(SEPARATOR), error)) from None
    except (TypeError, ValueError) as error:
        raise CardbalanceError("%s: [vary] %s: not a value these rules take (%s)."
                               % (source, variant_name("", changes).lstrip(SEPARATOR), error)) from None


def variants(rules_names, vary, load_rules, source: str) -> tuple[dict, dict]:
    """({variant name: rules object}, {variant name: (base name, changes)}) in cell order:
    each base in turn, then the combinations. Without `vary`: the bases themselves."""
    rules, bases = {}, {}
    for base in rules_names:
        loaded = load_rules(base)
        if not vary:
            rules[base], bases[base] = loaded, (base, {})
            continue
        for changes in combinations(vary):
            name = variant_name(base, changes)
            rules[name], bases[name] = apply(loaded, changes, source), (base, changes)
    return rules, bases


def _parse_value(text: str):
    """A variant name's VALUE as TOML would read it: an integer, true/false, else the text."""
    if text in ("true", "false"):
        return text == "true"
    if text.isascii() and text.lstrip("-").isdigit() and len(text) <= 18:
        return int(text)
    return text


def load_named(load_rules, name: str):
    """`load_rules(name)`, or for a variant name "BASE+KEY=VALUE+..." (what a `[vary]` sweep
    labels its cells) the base with those values: `compare advanced advanced+club_multiplier=3`.
    A preset or file of that exact name wins."""
    from pathlib import Path
    text = str(name)
    parts = text.split(SEPARATOR)
    if len(parts) < 2 or Path(text).is_file() or not all("=" in part for part in parts[1:]):
        return load_rules(text)
    base = load_rules(parts[0])
    _, switches = allowed_keys(base)
    changes = {}
    for part in parts[1:]:
        key, _, value = part.partition("=")
        changes[key] = value if key in switches else _parse_value(value)  # a switch's reading is text ("14")
    return apply(base, changes, "rules '%s'" % text)
