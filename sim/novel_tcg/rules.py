"""Novel TCG rules: every §18.2 number and every v1-scope T-AMB reading, validated and frozen.

A `Rules` object is what a designer edits (a TOML file or a named preset);
`Rules.to_array()` packs it, together with the synthetic card pool it implies
(`card_pool.py`, §18.1), into the int64 array both engines read. Rules travel
as data, never as module globals, so one compiled kernel serves every tweak.

Clause and ambiguity IDs refer to `../shared/rules/novel-tcg.md`; the seed
`../shared/seeds/003_e2426e006c899e91.txt` is the authority. Switches are
keyed by their ambiguity ID ("T-AMB-54"), value one of the readings listed
in `AMBIGUITIES`, the first being the reference's §16 default. Ambiguities
that cannot change a v1 match are no switches (`INERT_IN_V1` says why), nor
are v1 ambiguities whose other reading is not built (`FIXED_IN_V1`) and the
clauses and ambiguities outside v1 (`OUTSIDE_V1`: what the engine does
instead); a rules file naming one is refused in one line with the reason,
and docs/novel-tcg.md lists them.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.errors import CardbalanceError
from sim.user_input import read_toml

# Bump when the meaning of a rules array changes (reports refuse to mix versions).
BEHAVIOUR_VERSION = 1

# ---- ambiguity switches (§15/§16) -------------------------------------------------------
# ID -> (§16 switch name, readings); readings[0] is the reference's default.
AMBIGUITIES: dict[str, tuple[str, tuple[str, ...]]] = {
    "T-AMB-07": ("empty_deck", ("lose", "skip", "fatigue")),
    "T-AMB-20": ("set_uses_normal_summon", ("yes", "no")),
    "T-AMB-21": ("set_advance_with_bases", ("yes", "no")),
    "T-AMB-23": ("action_order", ("any_order", "summon_set_activate")),
    "T-AMB-24": ("summon_outside_action", ("action_phase_only", "sets_also_in_battle")),
    "T-AMB-26": ("char_damage_persists", ("persists", "reset_each_turn")),
    "T-AMB-31": ("equip_opponent_chars", ("false", "true")),
    "T-AMB-33": ("equip_hp_loss", ("cap_at_new_max", "subtract")),
    "T-AMB-34": ("durability_spend", ("attack_only", "also_when_attacked")),
    "T-AMB-36": ("equip_per_character", ("unlimited", "one")),
    "T-AMB-37": ("tribute_rule", ("exact_sum", "sum_at_least", "count_only")),
    "T-AMB-39": ("bases_from", ("front_row", "also_hand")),
    "T-AMB-41": ("normal_summon_positions", ("attack_or_set", "also_defense")),
    "T-AMB-46": ("summon_limit", ("on", "off")),  # the offset L itself is the number summon_limit_offset
    "T-AMB-47": ("limit_applies_to", ("all_entries", "summons_only")),
    "T-AMB-49": ("over_limit_summon", ("illegal", "loses")),
    "T-AMB-54": ("star_mod_reading", ("R2", "R1")),
    "T-AMB-55": ("damage_floor", ("zero", "none")),
    "T-AMB-56": ("star_mod_on_zero_atk", ("yes", "no")),
    "T-AMB-57": ("star_mod_vs_defense", ("yes", "no")),
    "T-AMB-58": ("attacker_overflow", ("yes", "no")),
    "T-AMB-59": ("double_ko", ("draw", "turn_player_loses")),
    "T-AMB-60": ("defense_hits_back", ("yes", "no")),
    "T-AMB-61": ("summoning_sickness", ("no", "yes")),
    "T-AMB-62": ("attack_targets", ("any", "attack_position_only")),
    "T-AMB-63": ("facedown_blocks_direct", ("yes", "no")),
    "T-AMB-64": ("person_can_attack", ("yes", "never")),
    "T-AMB-68": ("hp_loss_check", ("each_event", "end_of_turn")),
    "T-AMB-70": ("flip_uses_change", ("yes", "no")),
    "T-AMB-71": ("position_change_phase", ("action_only", "any_own_phase")),
    "T-AMB-73": ("nonattack_as_base_or_equip", ("yes", "face_up_attack_only")),
    "T-AMB-80": ("free_summon_ignores_limit", ("no", "yes")),
    "T-AMB-81": ("last_durability_applies", ("yes", "no")),
    "T-AMB-82": ("advance_with_full_row", ("no", "yes")),
    "T-AMB-86": ("person_hits_back_person", ("yes", "no")),
    "T-AMB-87": ("hitback_overflow", ("follows_attacker_overflow", "no")),
    "T-AMB-88": ("change_to_facedown", ("no", "yes")),
    "T-AMB-89": ("advance_bases", ("fewest_stars_first", "fewest_bases_first")),
}
SWITCH_NAMES = {name: amb for amb, (name, _) in AMBIGUITIES.items()}

# Ambiguities of the v1 scope that no v1 match can tell apart, and why (no switch).
INERT_IN_V1: dict[str, str] = {
    "T-AMB-05": "with vanilla cards no Battle-phase effect exists, so 'no attacks' and 'no Battle phase' coincide",
    "T-AMB-22": "a duelist's hand grows only in their own Draw phase, so at the opponent's End phase it is "
                "never above the limit: 'turn player only' and 'both' coincide",
    "T-AMB-32": "equipment leaves with its holder (the only reading that frees the back-row slot)",
    "T-AMB-48": "no card raises or waives the limit in v1, so 'at summon' and 'continuously' coincide",
    "T-AMB-65": "no effect removes a target in v1, and where the alternative readings of T-AMB-34, 33 and 81 "
                "remove one before damage (its Armour leaving), the attack ends and counts: no re-target",
    "T-AMB-67": "a flipped defender has no effect to use, so flipping at declaration or after damage coincide",
    "T-AMB-72": "the controller acts only in their own turn in v1; flips happen in the own Action phase",
}

# Ambiguities of the v1 scope whose other reading v1 does not build, and why (no switch).
FIXED_IN_V1: dict[str, str] = {
    "T-AMB-04": "the first player is a sweep dimension and a sweep plays both seats equally; a weighted coin "
                "is a weighting of the two seats' results, done when reading a run",
    "T-AMB-25": "the pool holds stars 1 to 20 (the layout's card kinds); an open-ended range is not built",
    "T-AMB-53": "rank and stars share one scale: the summon limit compares them directly",
}

# Clauses and ambiguities outside v1 (§18.6 "later"), and what the engine does instead. Each sentence is
# listed in docs/novel-tcg.md ("Outside v1: what the engine does instead"), and a test holds the two equal.
# An ambiguity here, or its §16 switch name used as a rules key, is refused in one line with the sentence.
OUTSIDE_V1: dict[str, tuple[str | None, str]] = {
    "T-GEN-2": (None, "No card changes a rule: every card is a vanilla character or a plain equipment card."),
    "T-CHAR-4": (None, "Characters carry no effects (effect value e = 0): a 15-20 star character has exactly "
                       "the stats of the curve."),
    "T-MAGIC-1": (None, "The pool has no magic cards: its only categories are character, Blade, Armour and Weapon."),
    "T-MAGIC-2": (None, "No field magic exists, so nothing affects both duelists at once."),
    "T-MAGIC-3": (None, "No continuous magic exists; the back row holds only character equipment."),
    "T-MAGIC-4": (None, "No normal magic exists; the graveyard receives only characters, equipment and discards."),
    "T-MAGIC-5": (None, "No magic can be set, and the duelist who is not the turn player never acts."),
    "T-TRAP-1": (None, "The pool has no traps, and no card is ever set in the back row."),
    "T-TRAP-2": (None, "No continuous traps exist."),
    "T-TRAP-3": (None, "No trap stays in the back row; only equipment occupies it."),
    "T-ZONE-4": (None, "The banished zone is never used: every card is always in a deck, a hand, the front row, "
                       "the back row, the person zone or the graveyard."),
    "T-ZONE-5": (None, "The field-magic zone stays empty, since no field magic exists."),
    "T-ZONE-6": (None, "The field-magic zone stays empty, so no card there is counted as magic."),
    "T-ZONE-7": (None, "The field-magic zone stays empty, so no field magic is ever replaced."),
    "T-ZONE-8": (None, "No magic or trap is activated; the back row serves only as the slots of character "
                       "equipment."),
    "T-PHASE-2": (None, "The Start phase has no decision: the turn goes straight to the draw."),
    "T-PHASE-5": (None, "The Draw phase has no decision besides the automatic draw."),
    "T-PHASE-7": (None, "Nothing is set face-down in the back row; equipment is attached face-up."),
    "T-PHASE-8": (None, "The Action phase offers summons, equipment and position changes only: no effect to "
                        "activate."),
    "T-PHASE-10": (None, "No character has an extra attack: each attacks at most once per Battle phase."),
    "T-PHASE-11": (None, "The Battle phase offers attacks and its end only: no effect window."),
    "T-PHASE-13": (None, "The End phase offers only the discards of the hand limit."),
    "T-POS-7": (None, "Face-down characters have no effects to hold back; a face-down character only waits to "
                      "be flipped or attacked."),
    "T-LIMIT-3": (None, "Nothing raises or waives the summon limit: the ceiling is rank + L for the whole match."),
    "T-SUMMON-7": (None, "No special summons: a character enters the field only by a normal or an advance summon "
                         "from the hand."),
    "T-SUMMON-8": (None, "No effects exist, so no special summon is ever triggered."),
    "T-SUMMON-9": (None, "No card discards a character to summon from the deck; deck cards reach only the hand."),
    "T-EQUIP-6": (None, "Only attacks spend durability: one point per attack declaration, nothing else."),
    "T-DECK-1": (None, "Cards have no rarity in the synthetic pool."),
    "T-DECK-2": (None, "No Legendary or Mythic cards exist, so no 1-copy limit applies."),
    "T-DECK-3": (None, "No copy limit by default (copy_limit = 0); a copy_limit above 0 refuses a template "
                       "that needs more copies of one card."),
    "T-TERM-1": (None, "No magic can be set, so none waits to be opened."),
    "T-TERM-3": (None, "No card carries an aura."),
    "T-TERM-4": (None, "No card carries a searchable wording, and nothing searches the deck."),
    "T-AMB-01": ("card_text_overrides", "No card text exists, so card text never meets the core rules."),
    "T-AMB-03": ("mulligan", "No mulligan: the opening hand is the top of the shuffled deck and the first "
                             "decision is the first player's Action phase."),
    "T-AMB-06": ("draw_optional", "The draw is mandatory; declining it (to put off a deck-out) would need a "
                                  "decision v1 does not have."),
    "T-AMB-10": ("field_magic_slot", "No field magic exists, so the slot is neither per duelist nor shared."),
    "T-AMB-11": ("magic_needs_backrow_slot", "No field magic exists; the back row is used only by character "
                                             "equipment."),
    "T-AMB-12": ("magic_needs_backrow_slot", "No magic is activated from the hand; only Blades and Armours need "
                                             "a back-row slot."),
    "T-AMB-13": ("full_backrow_blocks_set_activation", "No set back-row card exists to activate; a full back "
                                                       "row blocks only new Blades and Armours."),
    "T-AMB-14": ("banish_from", "Nothing is banished, from the graveyard or anywhere else."),
    "T-AMB-17": ("timing_model", "No set card or on-field effect exists, so no activation is timed or chained."),
    "T-AMB-18": ("hand_magic_timing", "No magic exists; equipment, the one other card played from the hand, is "
                                      "played in the own Action phase only."),
    "T-AMB-19": ("set_magic_window", "No magic can be set."),
    "T-AMB-28": ("effect_count_binding", "No character has effects (e = 0)."),
    "T-AMB-29": ("trap_to_gy_after_use", "No traps exist."),
    "T-AMB-30": ("set_wait_applies_to", "No traps or magic can be set; set characters wait as T-TERM-2 says."),
    "T-AMB-40": ("bases_if_negated", "Nothing can negate a summon: an advance summon always succeeds and its "
                                     "bases always go to the graveyard."),
    "T-AMB-42": ("special_summon_count", "No special summons exist."),
    "T-AMB-43": ("special_summon_bound", "No special summons exist; normal and advance summons are bound by the "
                                         "front slots and the limit."),
    "T-AMB-44": ("special_summon_position_change", "No special summons exist; a summoned character may not "
                                                   "change position in its summoning turn (T-POS-2)."),
    "T-AMB-45": ("special_uses_normal_summon", "No special summons exist; the one normal summon per Action phase "
                                               "is the only way onto the field."),
    "T-AMB-52": ("duelist_heal_cap", "Nothing heals a duelist, so duelist HP never rises above its start."),
    "T-AMB-66": ("extra_attack_rules", "No extra attacks exist."),
    "T-AMB-74": ("casual_exemption", "Casual games are ignored: every deck has exactly deck_size cards."),
    "T-AMB-75": ("rarity_order", "Cards have no rarity."),
    "T-AMB-76": ("copy_limit_by", "Each card kind is one name and one printing, so both readings count the same "
                                  "copies under copy_limit."),
    "T-AMB-77": ("open_means", "No set magic exists to open."),
    "T-AMB-78": ("aura_wording", "No card carries an aura or a wording."),
    "T-AMB-79": ("p1_t1_effect_draws_allowed", "No card draws, so the first player draws nothing at all on "
                                               "turn 1."),
    "T-AMB-83": ("effect_damage_overflows", "No card deals effect damage; only battle damage overflows."),
    "T-AMB-85": ("backrow_sets_per_turn", "Nothing is set in the back row; any number of Blades and Armours may "
                                          "be attached in one Action phase, up to the free slots."),
}
OUTSIDE_V1_SWITCHES: dict[str, list[str]] = {}  # §16 switch name -> its ambiguities (T-AMB-11 and 12 share one)
for _amb, (_switch, _) in OUTSIDE_V1.items():
    if _switch:
        OUTSIDE_V1_SWITCHES.setdefault(_switch, []).append(_amb)


def why_not_switchable(amb_id: str) -> str:
    """' (no v1 switch: ...)' / ' (outside v1: ...)' for an ambiguity that is no switch, else ''."""
    if amb_id in INERT_IN_V1:
        return " (no v1 switch: %s)" % INERT_IN_V1[amb_id]
    if amb_id in FIXED_IN_V1:
        return " (no v1 switch: %s)" % FIXED_IN_V1[amb_id]
    if amb_id in OUTSIDE_V1:
        return " (outside v1: %s)" % OUTSIDE_V1[amb_id][1].rstrip(".")
    return ""


def why_no_parameter(name: str) -> str:
    """Why a design cannot vary `name` (an ambiguity ID or the §16 switch name of one that is no
    v1 switch: inert, fixed or outside v1), or '' (sim/fair/params.py names it in its refusal)."""
    ids = OUTSIDE_V1_SWITCHES.get(name, [name])
    return "; ".join(why_not_switchable(amb_id).strip()[1:-1] for amb_id in ids if why_not_switchable(amb_id))

# ---- numbers ------------------------------------------------------------------------------
# name -> (description with clause, minimum, maximum, default)
NUMBERS: dict[str, tuple[str, int, int, int]] = {
    "hp_per_rank": ("duelist HP per rank (T-RANK-2, T-AMB-50)", 1, 200, 15),
    "hp_offset": ("HP added to every duelist's start (T-RANK-4, T-AMB-51)", -100, 100, 0),
    "star_mod": ("star modifier m, damage per star of difference (T-BATTLE-6/7)", 0, 30, 5),
    "summon_limit_offset": ("L: the highest summonable star is rank + L (T-LIMIT-1, T-AMB-46)", 0, 19, 2),
    "free_summon_max_star": ("highest star summoned without bases (T-SUMMON-2)", 1, 20, 6),
    "min_bases": ("fewest bases of an advance summon (T-SUMMON-3, T-AMB-38)", 1, 6, 2),
    "opening_hand": ("cards each duelist draws at set-up (T-SETUP-5, T-AMB-02)", 0, 20, 5),
    "hand_limit": ("hand size the End phase discards down to; 0 = no limit (T-PHASE-12)", 0, 80, 10),
    "front_slots": ("character slots of the front row (T-ZONE-12)", 1, 9, 7),
    "back_slots": ("slots of the back row (T-ZONE-9)", 0, 7, 5),
    "deck_size": ("cards in each deck, exactly (T-DECK-4, T-AMB-08)", 20, 80, 60),
    "copy_limit": ("most copies of one card in a deck; 0 = no limit (T-DECK-3; vacuous in v1, §18.6)", 0, 80, 0),
    "turn_cap": ("turns in total after which the match is a draw (T-AMB-69)", 1, 10_000, 200),
    "person_base_atk": ("the person's ATK without a weapon (T-AMB-35)", 0, 100, 0),
    "p1_skip_draw": ("1: the first player skips the Draw phase of turn 1 (T-SETUP-2, T-PHASE-4)", 0, 1, 1),
    "p1_no_attack": ("1: the first player may not attack on turn 1 (T-SETUP-3)", 0, 1, 1),
    "overflow": ("1: battle overflow reaches the duelist (T-BATTLE-5)", 0, 1, 1),
    "defense_blocks_overflow": ("1: a defense-position character's overflow is not passed on (T-POS-5)", 0, 1, 1),
    # the synthetic card pool (§18.1) -- equipment
    "blade_atk": ("ATK a Blade adds to its character (§18.1)", 0, 100, 3),
    "armour_hp": ("HP an Armour adds to its character (§18.1)", 0, 100, 3),
    "weapon_atk": ("the person's ATK with a Weapon (§18.1)", 0, 100, 3),
    "durability": ("durability d of every equipment card (T-EQUIP-4)", 1, 20, 3),
    # deck templates (§18.1), relative to the star ceiling c = min(20, rank + L)
    "swarm_characters": ("characters of a Swarm deck, at the top six free stars", 1, 80, 40),
    "advance_bases": ("base characters (4-6 star) of an Advance deck", 0, 80, 24),
    "advance_high": ("characters above the free cap, up to the ceiling, of an Advance deck", 0, 80, 14),
    "curve_characters": ("characters of a Curve deck, spread over 1..c stars", 1, 80, 40),
    "blade_weight": ("share of Blades among a deck's equipment", 0, 100, 2),
    "armour_weight": ("share of Armours among a deck's equipment", 0, 100, 1),
    "weapon_weight": ("share of Weapons among a deck's equipment", 0, 100, 1),
}
# Real-valued card-pool parameters: name -> (description, minimum, maximum, default).
REALS: dict[str, tuple[str, float, float, float]] = {
    "atk_base": ("a0 of ATK = round(a0 + a1 * star^gamma) (§18.1)", -50.0, 50.0, 0.0),
    "atk_slope": ("a1, ATK per star (§18.1)", 0.0, 50.0, 1.0),
    "hp_base": ("h0 of HP = round(h0 + h1 * star^gamma) (§18.1)", -50.0, 50.0, 0.0),
    "hp_slope": ("h1, HP per star (§18.1)", 0.0, 50.0, 1.0),
    "curve_exponent": ("gamma of the stat curve (§18.1)", 0.1, 3.0, 1.0),
    "shape_k": ("k of the aggressive/defensive shapes, ATK x (1 +- k) (§18.1)", 0.0, 0.95, 0.4),
}
DECK_SHAPES = ("balanced", "aggressive", "defensive")
# Named choices of the rules, declared for designs over them (`cardbalance sensitivity` reads them as
# categorical factors, as it reads switches and ambiguity readings): name -> levels.
CHOICES: dict[str, tuple[str, ...]] = {"deck_shape": DECK_SHAPES}
RANK_MIN, RANK_MAX = 1, 20  # T-RANK-1, T-AMB-50
STAR_MIN, STAR_MAX = 1, 20  # T-AMB-25
DEFAULT_RANK = 10           # §18.2 baseline


@dataclass(frozen=True)
class Rules:
    """Every number and switch of one Novel TCG rule set (immutable)."""

    numbers: dict = field(default_factory=lambda: {k: v[3] for k, v in NUMBERS.items()})
    reals: dict = field(default_factory=lambda: {k: v[3] for k, v in REALS.items()})
    deck_shape: str = "balanced"  # the character shape every template uses (§18.1)
    ambiguities: dict = field(default_factory=lambda: {k: v[1][0] for k, v in AMBIGUITIES.items()})

    def __post_init__(self):
        validate(self)

    def __getattr__(self, name):  # numbers, reals and switches by name: rules.star_mod, rules.empty_deck
        if name.startswith("__"):
            raise AttributeError(name)
        for table in ("numbers", "reals"):
            values = object.__getattribute__(self, table)
            if name in values:
                return values[name]
        if name in SWITCH_NAMES:
            return object.__getattribute__(self, "ambiguities")[SWITCH_NAMES[name]]
        raise AttributeError(name)

    def reading(self, amb_id: str) -> str:
        return self.ambiguities[amb_id]

    def reading_index(self, amb_id: str) -> int:
        return AMBIGUITIES[amb_id][1].index(self.ambiguities[amb_id])

    def star_ceiling(self, rank: int) -> int:
        """The highest star a duelist of `rank` may summon (T-LIMIT-1, T-AMB-46)."""
        if self.reading("T-AMB-46") == "off":
            return STAR_MAX
        return min(STAR_MAX, rank + self.numbers["summon_limit_offset"])

    def with_changes(self, **changes) -> "Rules":
        """A copy with numbers/reals changed by name and `ambiguities={"T-AMB-54": "R1"}` merged."""
        numbers, reals, ambiguities = dict(self.numbers), dict(self.reals), dict(self.ambiguities)
        ambiguities.update(changes.pop("ambiguities", {}))
        deck_shape = changes.pop("deck_shape", self.deck_shape)
        for name, value in changes.items():
            if name in NUMBERS:
                numbers[name] = value
            elif name in REALS:
                reals[name] = value
            elif name in SWITCH_NAMES:
                ambiguities[SWITCH_NAMES[name]] = value
            else:
                raise CardbalanceError("rules: unknown field '%s'." % name)
        return Rules(numbers=numbers, reals=reals, deck_shape=deck_shape, ambiguities=ambiguities)

    def as_dict(self) -> dict:
        return {**dict(self.numbers), **dict(self.reals), "deck_shape": self.deck_shape,
                "ambiguities": {k: self.ambiguities[k] for k in AMBIGUITIES}}

    def differences_from_default(self) -> dict:
        base, mine = Rules().as_dict(), self.as_dict()
        diff = {k: mine[k] for k in mine if k != "ambiguities" and mine[k] != base[k]}
        diff.update({k: v for k, v in mine["ambiguities"].items() if base["ambiguities"][k] != v})
        return diff

    def stable_hash(self) -> str:
        payload = json.dumps({"v": BEHAVIOUR_VERSION, **self.as_dict()}, sort_keys=True)
        return hashlib.sha256(payload.encode()).hexdigest()[:12]

    def to_array(self) -> np.ndarray:
        """Pack numbers, switch reading indexes and the card pool into one int64 array."""
        from sim.novel_tcg.card_pool import pool_table  # the pool is derived from these rules

        arr = np.zeros(RULES_ARRAY_SIZE, dtype=np.int64)
        for name, slot in NUMBER_SLOTS.items():
            arr[slot] = self.numbers[name]
        for amb_id in AMBIGUITIES:
            arr[AMB_SLOTS[amb_id]] = self.reading_index(amb_id)
        arr[R_DECK_SHAPE] = DECK_SHAPES.index(self.deck_shape)
        arr[R_POOL:R_POOL + POOL_SIZE] = pool_table(self).ravel()
        return arr


# ---- where a number or reading can act (sim/inert.py reads this table) ---------------------
# parameter -> (condition on the rules, what would make it act, the rules keys the condition
# reads, the clause that says why); tests/test_inert.py plays matches on both sides of each.


def _summon_limit_on(rules) -> bool:
    return rules.reading("T-AMB-46") == "on"


def _star_mod_above_zero(rules) -> bool:
    return rules.numbers["star_mod"] > 0


def _shaped_characters(rules) -> bool:
    return rules.deck_shape != "balanced"


def _limit_below_top_star(rules, cell) -> bool:
    # the ceiling min(20, rank + L) moves with L only while rank + L is below the top star for a seat
    return _summon_limit_on(rules) and min(cell["rank"]) + rules.numbers["summon_limit_offset"] < STAR_MAX


_STAR_MOD = (_star_mod_above_zero, "star_mod > 0", ("star_mod",))
ACTS_ONLY_WHEN: dict[str, tuple] = {
    "summon_limit_offset": (_limit_below_top_star, 'T-AMB-46 = "on" (the summon limit) and rank + L is below %d '
                            'for a seat (a lower L or --rank)' % STAR_MAX, ("T-AMB-46", "summon_limit_offset"),
                            "T-LIMIT-1: the star ceiling min(%d, rank + L) moves with L only while the limit is on "
                            "and rank + L is below %d" % (STAR_MAX, STAR_MAX), ("rank",)),
    # These refine a summon over the star ceiling, and no played match has one: every deck
    # template is built at or under its owner's ceiling (§18.1, card_pool.deck_counts), and with
    # the limit off the ceiling is the top star (T-AMB-25). (A scenario position may still.)
    **{amb: (None, None, (), "T-LIMIT-2: every generated deck holds only cards at or under its owner's "
                             "star ceiling (§18.1), so no summon of a played match is over the limit")
       for amb in ("T-AMB-47", "T-AMB-49", "T-AMB-80")},
    "T-AMB-54": (*_STAR_MOD, "T-BATTLE-6/7: which side the star modifier m x stars apart applies to"),
    "T-AMB-56": (*_STAR_MOD, "T-BATTLE-6/7: a 0-ATK side's modifier (with m = 0 it deals 0 either way)"),
    "T-AMB-57": (*_STAR_MOD, "T-BATTLE-6/7: the modifier against a defense-position defender"),
    "shape_k": (_shaped_characters, 'deck_shape = "aggressive" or "defensive"', ("deck_shape",),
                "§18.1: k shapes only aggressive and defensive characters; a balanced deck holds none"),
}


# ---- rules array slots ---------------------------------------------------------------------
# [ numbers (NUMBERS order) | switch reading indexes (AMBIGUITIES order) | deck shape | card pool table ]
NUMBER_SLOTS = {name: i for i, name in enumerate(NUMBERS)}
AMB_SLOTS = {amb: len(NUMBERS) + i for i, amb in enumerate(AMBIGUITIES)}
R_DECK_SHAPE = len(NUMBERS) + len(AMBIGUITIES)  # index into DECK_SHAPES (the deck builder reads it)
R_POOL = R_DECK_SHAPE + 1
# The pool table: one row per card kind (layout.N_KINDS), fields below.
N_KINDS = 63          # 3 shapes x 20 stars of characters, then Blade, Armour, Weapon
POOL_FIELDS = 5       # category, star, atk, hp (characters) / value (equipment), durability
POOL_SIZE = N_KINDS * POOL_FIELDS
RULES_ARRAY_SIZE = R_POOL + POOL_SIZE

# Named slots the engines read (asserted against the tables above, so they cannot drift).
R_HP_PER_RANK, R_HP_OFFSET, R_STAR_MOD, R_LIMIT_OFFSET, R_FREE_MAX, R_MIN_BASES = range(6)
R_OPENING_HAND, R_HAND_LIMIT, R_FRONT_SLOTS, R_BACK_SLOTS, R_DECK_SIZE, R_COPY_LIMIT = range(6, 12)
R_TURN_CAP, R_PERSON_BASE_ATK, R_P1_SKIP_DRAW, R_P1_NO_ATTACK, R_OVERFLOW, R_DEFENSE_BLOCKS = range(12, 18)
assert [R_HP_PER_RANK, R_TURN_CAP, R_DEFENSE_BLOCKS] == [NUMBER_SLOTS["hp_per_rank"], NUMBER_SLOTS["turn_cap"],
                                                        NUMBER_SLOTS["defense_blocks_overflow"]]
_A = len(NUMBERS)
(R_EMPTY_DECK, R_SET_USES_SUMMON, R_SET_ADVANCE, R_ACTION_ORDER, R_SETS_IN_BATTLE, R_DAMAGE_PERSISTS,
 R_EQUIP_OPPONENTS, R_EQUIP_HP_LOSS, R_DURABILITY_SPEND, R_EQUIP_PER_CHAR, R_TRIBUTE_RULE, R_BASES_FROM,
 R_SUMMON_POSITIONS, R_SUMMON_LIMIT, R_LIMIT_APPLIES, R_OVER_LIMIT,
 R_STAR_READING, R_DAMAGE_FLOOR, R_MOD_ZERO_ATK, R_MOD_VS_DEFENSE, R_ATTACKER_OVERFLOW, R_DOUBLE_KO,
 R_DEFENSE_HITS_BACK, R_SICKNESS, R_ATTACK_TARGETS, R_FACEDOWN_BLOCKS, R_PERSON_ATTACKS, R_HP_CHECK,
 R_FLIP_USES_CHANGE, R_CHANGE_PHASE, R_NONATTACK_USE, R_FREE_IGNORES_LIMIT, R_LAST_DURABILITY, R_ADVANCE_FULL_ROW,
 R_PERSON_HITS_PERSON, R_HITBACK_OVERFLOW, R_CHANGE_TO_FACEDOWN, R_ADVANCE_BASES) = range(_A, _A + 38)
assert len(AMBIGUITIES) == 38 and R_ADVANCE_BASES == AMB_SLOTS["T-AMB-89"] and R_STAR_READING == AMB_SLOTS["T-AMB-54"]
assert R_HITBACK_OVERFLOW == AMB_SLOTS["T-AMB-87"] and R_EMPTY_DECK == AMB_SLOTS["T-AMB-07"]
assert R_CHANGE_PHASE == AMB_SLOTS["T-AMB-71"] and R_NONATTACK_USE == AMB_SLOTS["T-AMB-73"]
assert R_SETS_IN_BATTLE == AMB_SLOTS["T-AMB-24"] and R_DAMAGE_PERSISTS == AMB_SLOTS["T-AMB-26"]
assert R_ACTION_ORDER == AMB_SLOTS["T-AMB-23"]
assert R_EQUIP_OPPONENTS == AMB_SLOTS["T-AMB-31"] and R_BASES_FROM == AMB_SLOTS["T-AMB-39"]
assert R_TRIBUTE_RULE == AMB_SLOTS["T-AMB-37"] and R_SUMMON_POSITIONS == AMB_SLOTS["T-AMB-41"]


# ---- validation ---------------------------------------------------------------------------

def _bad_int(value, low, high) -> bool:
    return isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high


def validate(rules: Rules) -> None:
    """Raise CardbalanceError naming the first bad field and what is allowed."""
    if set(rules.numbers) != set(NUMBERS) or set(rules.reals) != set(REALS):
        unknown = sorted((set(rules.numbers) - set(NUMBERS)) | (set(rules.reals) - set(REALS)))
        raise CardbalanceError("rules: unknown field '%s'; allowed: %s." % (
            unknown[0] if unknown else "?", ", ".join(sorted(set(NUMBERS) | set(REALS)))))
    for name, (_, low, high, _) in NUMBERS.items():
        value = rules.numbers[name]
        if _bad_int(value, low, high):
            raise CardbalanceError("rules: '%s' must be an integer from %d to %d (got %r)." % (name, low, high, value))
    for name, (_, low, high, _) in REALS.items():
        value = rules.reals[name]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
            raise CardbalanceError("rules: '%s' must be a number from %g to %g (got %r)." % (name, low, high, value))
    if rules.deck_shape not in DECK_SHAPES:
        raise CardbalanceError("rules: 'deck_shape' must be one of %s (got %r)." % (", ".join(DECK_SHAPES), rules.deck_shape))
    if set(rules.ambiguities) != set(AMBIGUITIES):
        unknown = sorted(set(rules.ambiguities) - set(AMBIGUITIES))
        raise CardbalanceError("rules: unknown ambiguity '%s'%s; switchable: %s." % (
            unknown[0] if unknown else "?", why_not_switchable(unknown[0]) if unknown else "", ", ".join(AMBIGUITIES)))
    for amb_id, value in rules.ambiguities.items():
        readings = AMBIGUITIES[amb_id][1]
        if value not in readings:
            raise CardbalanceError("rules: ambiguities.%s (%s) must be one of %s (got %r)."
                                   % (amb_id, AMBIGUITIES[amb_id][0], ", ".join(readings), value))


# ---- presets and loading ------------------------------------------------------------------
_ALT = {amb: readings[1] for amb, (_, readings) in AMBIGUITIES.items()}
PRESETS: dict[str, dict] = {
    "default": {},                                       # §16 defaults, §18.2 baselines
    "loose_limit": {"summon_limit_offset": 3},           # T-AMB-46 (b): highest star = rank + 3
    "r1": {"ambiguities": {"T-AMB-54": "R1"}},           # non-conforming arm (fails T-BATTLE-8); tests only
    "stall": {"ambiguities": {"T-AMB-07": "skip"}},      # empty deck skips the draw: the turn cap can bind
    "alternatives": {"ambiguities": dict(_ALT), "hand_limit": 6, "front_slots": 5, "back_slots": 3,
                     "p1_skip_draw": 0, "p1_no_attack": 0, "overflow": 1, "defense_blocks_overflow": 0,
                     "min_bases": 2, "free_summon_max_star": 4},  # every switch at its second reading
}


def rules_from_mapping(data: dict, source: str = "rules") -> Rules:
    """Build Rules from a parsed TOML mapping, rejecting unknown keys and types."""
    allowed = {"ambiguities", "deck_shape", *NUMBERS, *REALS}
    for key in data:
        if key in OUTSIDE_V1_SWITCHES:
            ids = OUTSIDE_V1_SWITCHES[key]
            raise CardbalanceError("%s: '%s' (%s) is outside v1: %s" % (
                source, key, ", ".join(ids), " ".join(OUTSIDE_V1[amb_id][1] for amb_id in ids)))
        if key not in allowed:
            raise CardbalanceError("%s: unknown key '%s'; allowed keys: %s." % (source, key, ", ".join(sorted(allowed))))
    numbers = {k: v[3] for k, v in NUMBERS.items()}
    numbers.update({k: data[k] for k in NUMBERS if k in data})
    reals = {k: v[3] for k, v in REALS.items()}
    reals.update({k: data[k] for k in REALS if k in data})
    given = data.get("ambiguities", {})
    if not isinstance(given, dict):
        raise CardbalanceError("%s: 'ambiguities' must be a table of \"T-AMB-nn\" = \"reading\"." % source)
    ambiguities = {k: v[1][0] for k, v in AMBIGUITIES.items()}
    for amb_id, value in given.items():
        if amb_id not in AMBIGUITIES:
            raise CardbalanceError("%s: unknown ambiguity '%s'%s; switchable: %s."
                                   % (source, amb_id, why_not_switchable(amb_id), ", ".join(AMBIGUITIES)))
        ambiguities[amb_id] = value
    try:
        return Rules(numbers=numbers, reals=reals, deck_shape=data.get("deck_shape", "balanced"),
                     ambiguities=ambiguities)
    except CardbalanceError as error:
        raise CardbalanceError(str(error).replace("rules:", "%s:" % source, 1)) from None


def load_rules(name_or_path: str | Path | None = None) -> Rules:
    """A preset name or a TOML file path -> Rules."""
    if name_or_path is None:
        return Rules()
    text = str(name_or_path)
    if text in PRESETS:
        return rules_from_mapping(PRESETS[text], "preset %s" % text)
    path = Path(text)
    if not path.is_file():
        raise CardbalanceError("rules: '%s' is neither a preset (%s) nor a readable TOML file." % (text, ", ".join(PRESETS)))
    return rules_from_mapping(read_toml(path, "rules file"), str(path))  # sim/user_input: one line for any bad file


def rules_to_toml(rules: Rules) -> str:
    """TOML text of the effective rules, every key documented, changed values marked."""
    lines = ["# duelist ranks and deck templates are no rules fields: the grid sets them (T-AMB-09)"]
    for name, (description, low, high, default) in NUMBERS.items():
        value = rules.numbers[name]
        lines.append("%s = %d  # %s, %d-%d%s" % (name, value, description, low, high,
                                                 "; CHANGED from default %d" % default if value != default else ""))
    for name, (description, low, high, default) in REALS.items():
        value = rules.reals[name]
        lines.append("%s = %r  # %s, %g-%g%s" % (name, float(value), description, low, high,
                                                 "; CHANGED from default %g" % default if value != default else ""))
    lines.append('deck_shape = "%s"  # %s' % (rules.deck_shape, " | ".join(DECK_SHAPES)))
    lines += ["", "[ambiguities]"]
    for amb_id, (switch, readings) in AMBIGUITIES.items():
        value = rules.ambiguities[amb_id]
        changed = "; CHANGED from default %s" % readings[0] if value != readings[0] else ""
        lines.append('"%s" = "%s"  # %s: %s%s' % (amb_id, value, switch, " | ".join(readings), changed))
    return "\n".join(lines) + "\n"
