"""The synthetic card pool of §18.1 (v1 of §18.6) and the deck templates built from it.

The seed has no card list, so the pool is generated from the rules' numbers:
vanilla characters of 1-20 stars in three shapes, and three equipment cards.
Everything is a pure function of the `Rules` (no randomness at all: "seeded"
is trivially deterministic), so a run folder's rules reproduce its pool and
its decks exactly.

Kinds (the pool table's rows, `rules.N_KINDS` = 63):
    shape * 20 + (star - 1)   characters, shape 0 balanced, 1 aggressive, 2 defensive
    60 Blade (character equipment, +blade_atk ATK), 61 Armour (+armour_hp HP),
    62 Weapon (person equipment, person ATK = weapon_atk); all with durability d.

Stats: ATK = round(a0 + a1 * star^gamma), HP = round(h0 + h1 * star^gamma),
then aggressive multiplies ATK by (1 + k) and HP by (1 - k), defensive the
reverse; `round` is half-up (floor(x + 0.5)) in every engine; ATK is at least
0 and HP at least 1 (a character printed at 0 HP could not stand on the field).

Deck templates (60 cards by default) are built relative to the rank's star
ceiling c = min(20, rank + L) (T-LIMIT-1), so a rank sweep never measures
dead cards: with f = min(free_summon_max_star, c) the highest free star,
- Swarm:   `swarm_characters` characters spread over the six stars f-5..f;
- Advance: `advance_bases` bases over min(4, f)..f and `advance_high`
  characters over f+1..c (when c <= f no advance target exists at that rank,
  and the high characters fold onto star f);
- Curve:   `curve_characters` characters spread over 1..c.
"Spread" gives each star n // m copies and one more to the n % m highest
stars. The rest of the deck is equipment, split by blade/armour/weapon
weights with the largest remainder (ties Blade, Armour, Weapon). A template
that the parameters cannot fill is refused in one line.
"""

from __future__ import annotations

import math

import numpy as np

from sim.errors import CardbalanceError
from sim.novel_tcg.rules import DECK_SHAPES, N_KINDS, POOL_FIELDS, RANK_MAX, RANK_MIN, STAR_MAX, Rules

CAT_CHARACTER, CAT_BLADE, CAT_ARMOUR, CAT_WEAPON = 0, 1, 2, 3
F_CATEGORY, F_STAR, F_ATK, F_HP, F_DURABILITY = 0, 1, 2, 3, 4  # F_HP holds an equipment's value
KIND_BLADE, KIND_ARMOUR, KIND_WEAPON = 60, 61, 62
TEMPLATES = ("swarm", "advance", "curve")
CATEGORY_NAMES = ("character", "Blade", "Armour", "Weapon")


def character_kind(star: int, shape: int = 0) -> int:
    return shape * STAR_MAX + star - 1


def round_half_up(x: float) -> int:
    return int(math.floor(x + 0.5))


def character_stats(rules: Rules, star: int, shape: int) -> tuple[int, int]:
    """(ATK, HP) of the `shape` character of `star` stars (§18.1)."""
    r = rules.reals
    growth = float(star) ** r["curve_exponent"]
    atk, hp = r["atk_base"] + r["atk_slope"] * growth, r["hp_base"] + r["hp_slope"] * growth
    k = r["shape_k"]
    if shape == 1:
        atk, hp = atk * (1 + k), hp * (1 - k)
    elif shape == 2:
        atk, hp = atk * (1 - k), hp * (1 + k)
    return max(0, round_half_up(atk)), max(1, round_half_up(hp))


def pool_table(rules: Rules) -> np.ndarray:
    """The (N_KINDS, POOL_FIELDS) int64 table both engines read from the rules array."""
    table = np.zeros((N_KINDS, POOL_FIELDS), dtype=np.int64)
    for shape in range(len(DECK_SHAPES)):
        for star in range(1, STAR_MAX + 1):
            atk, hp = character_stats(rules, star, shape)
            table[character_kind(star, shape)] = (CAT_CHARACTER, star, atk, hp, 0)
    n = rules.numbers
    table[KIND_BLADE] = (CAT_BLADE, 0, 0, n["blade_atk"], n["durability"])
    table[KIND_ARMOUR] = (CAT_ARMOUR, 0, 0, n["armour_hp"], n["durability"])
    table[KIND_WEAPON] = (CAT_WEAPON, 0, 0, n["weapon_atk"], n["durability"])
    return table


def kind_name(table, kind: int) -> str:
    """'10★ balanced 10/10', 'Blade +3 (d3)' -- the notation of T-CHAR-3."""
    category = int(table[kind, F_CATEGORY])
    if category == CAT_CHARACTER:
        return "%d★ %s %d/%d" % (table[kind, F_STAR], DECK_SHAPES[kind // STAR_MAX], table[kind, F_ATK], table[kind, F_HP])
    sign = "+%d HP" if category == CAT_ARMOUR else "+%d ATK" if category == CAT_BLADE else "ATK %d"
    return "%s %s (d%d)" % (CATEGORY_NAMES[category], sign % table[kind, F_HP], table[kind, F_DURABILITY])


def _spread(counts: dict, n: int, low: int, high: int, shape: int) -> None:
    stars = list(range(low, high + 1))
    base, extra = divmod(n, len(stars))
    for i, star in enumerate(stars):
        copies = base + (1 if i >= len(stars) - extra else 0)
        if copies:
            kind = character_kind(star, shape)
            counts[kind] = counts.get(kind, 0) + copies


def check_rank(rank, field_name: str = "rank") -> int:
    if isinstance(rank, bool) or not isinstance(rank, (int, np.integer)) or not RANK_MIN <= rank <= RANK_MAX:
        raise CardbalanceError("%s must be an integer from %d to %d (T-RANK-1; got %r)." % (field_name, RANK_MIN, RANK_MAX, rank))
    return int(rank)


def deck_counts(rules: Rules, template: str, rank: int) -> dict[int, int]:
    """{kind: copies} of `template` for a duelist of `rank` (see the module docstring)."""
    return _deck_counts(rules.numbers, DECK_SHAPES.index(rules.deck_shape), rules.reading("T-AMB-46") == "on",
                        template, rank)


def deck_counts_from_array(rules_array, template: str, rank: int) -> dict[int, int]:
    """`deck_counts` from a packed rules array (the batch loops hold only the array)."""
    from sim.novel_tcg import rules as R

    numbers = {name: int(rules_array[slot]) for name, slot in R.NUMBER_SLOTS.items()}
    return _deck_counts(numbers, int(rules_array[R.R_DECK_SHAPE]), int(rules_array[R.R_SUMMON_LIMIT]) == 0,
                        template, rank)


def _deck_counts(n: dict, shape: int, limit_on: bool, template: str, rank: int) -> dict[int, int]:
    if template not in TEMPLATES:
        raise CardbalanceError("deck template '%s' is unknown; known templates: %s." % (template, ", ".join(TEMPLATES)))
    rank = check_rank(rank)
    ceiling = min(STAR_MAX, rank + n["summon_limit_offset"]) if limit_on else STAR_MAX
    free = min(n["free_summon_max_star"], ceiling)
    counts: dict[int, int] = {}
    if template == "swarm":
        parts = (("swarm_characters", n["swarm_characters"]),)
        _spread(counts, n["swarm_characters"], max(1, free - 5), free, shape)
    elif template == "advance":
        parts = (("advance_bases", n["advance_bases"]), ("advance_high", n["advance_high"]))
        if n["advance_bases"]:
            _spread(counts, n["advance_bases"], min(4, free), free, shape)
        if n["advance_high"]:
            if ceiling > free:
                _spread(counts, n["advance_high"], free + 1, ceiling, shape)
            else:
                _spread(counts, n["advance_high"], free, free, shape)
    else:
        parts = (("curve_characters", n["curve_characters"]),)
        _spread(counts, n["curve_characters"], 1, ceiling, shape)
    characters = sum(count for _, count in parts)
    if characters > n["deck_size"] or characters == 0:
        raise CardbalanceError("deck: template '%s' needs %s = %d characters, which must be from 1 to deck_size %d."
                               % (template, " + ".join(name for name, _ in parts), characters, n["deck_size"]))
    equipment = n["deck_size"] - characters
    weights = (n["blade_weight"], n["armour_weight"], n["weapon_weight"])
    if equipment and not sum(weights):
        raise CardbalanceError("deck: template '%s' leaves %d equipment cards but blade_weight, armour_weight and "
                               "weapon_weight are all 0; give one of them a positive weight." % (template, equipment))
    if equipment:
        exact = [equipment * w / sum(weights) for w in weights]
        shares = [int(math.floor(x)) for x in exact]
        order = sorted(range(3), key=lambda i: (-(exact[i] - shares[i]), i))
        for i in order[:equipment - sum(shares)]:
            shares[i] += 1
        for kind, share in zip((KIND_BLADE, KIND_ARMOUR, KIND_WEAPON), shares):
            if share:
                counts[kind] = share
    limit = n["copy_limit"]
    if limit:
        worst = max(counts, key=lambda kind: (counts[kind], -kind))
        if counts[worst] > limit:
            raise CardbalanceError("deck: template '%s' at rank %d needs %d copies of %s, above copy_limit %d; raise "
                                   "copy_limit to at least %d or set it to 0 (no limit, §18.6)."
                                   % (template, rank, counts[worst], _short_name(worst), limit,
                                      counts[worst]))
    return dict(sorted(counts.items()))


def _short_name(kind: int) -> str:
    if kind >= KIND_BLADE:
        return CATEGORY_NAMES[kind - KIND_BLADE + 1]
    return "the %d★ %s character" % (kind % STAR_MAX + 1, DECK_SHAPES[kind // STAR_MAX])


def check_every_deck(rules: Rules) -> None:
    """`GameSpec.check_rules`: every template builds at every rank. `sweep` and `play` build
    the decks of their cells with `deck_counts`; `rules --check`, which has no cells, asks the
    same function about all of them, so a file it calls valid plays in any grid."""
    for template in TEMPLATES:
        for rank in range(RANK_MIN, RANK_MAX + 1):
            deck_counts(rules, template, rank)


def build_deck(rules: Rules, template: str, rank: int) -> np.ndarray:
    """The deck list of `template` at `rank`: deck_size kinds in ascending order (engines shuffle it)."""
    counts = deck_counts(rules, template, rank)
    return np.array([kind for kind, copies in counts.items() for _ in range(copies)], dtype=np.int64)


def describe_deck(rules: Rules, template: str, rank: int) -> str:
    """One line per card kind, for reports and `play`."""
    table = pool_table(rules)
    return "; ".join("%d x %s" % (copies, kind_name(table, kind)) for kind, copies in deck_counts(rules, template, rank).items())
