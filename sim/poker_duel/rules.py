"""Poker Duel rules: every number and every D-AMB switch, validated and frozen.

A `Rules` object is what a designer edits (TOML file or named preset);
`Rules.to_array()` packs it into the int64 array the engines read (rules
travel as data, never as module globals, so one compiled kernel serves every
rule tweak — the same reason as Faction War's rules).

Clause and ambiguity IDs refer to `../shared/rules/poker-duel.md`; the seed
`../shared/seeds/004_*.txt` is the authority. Switches are keyed by their
ambiguity ID ("D-AMB-24"), value one of the readings listed in `AMBIGUITIES`,
the first being the reference's §16 default.

The club multiplier (D-AMB-01, D-ADV-3) is a number, not a reading: the digit
is destroyed in the source (§0.2 row 5). Default 2 — "變為2倍" is the stock
phrase and ×3 already names the same-number boost (D-DS-4); sweep {2, 3}.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.errors import CardbalanceError
from sim.user_input import check_path, did_you_mean, read_toml

# Bump when the meaning of a rules array changes (reports refuse to mix versions).
# 2: "pimc" names the greedy-rollout agent (it was the random-rollout one, now "pimc-random").
BEHAVIOUR_VERSION = 2

# ---- ambiguity switches (§15/§16) ----------------------------------------------------
# ID -> (§16 switch name, readings); readings[0] is the reference's default.
AMBIGUITIES: dict[str, tuple[str, tuple[str, ...]]] = {
    "D-AMB-02": ("jokers_are_function_cards", ("yes", "no")),
    "D-AMB-03": ("special_summon_means", ("k_summon", "multi_summon", "both")),  # inert (§15)
    "D-AMB-04": ("s54_reading", ("between_monsters", "attacks_player")),
    "D-AMB-05": ("first_player", ("uniform_random", "fixed_seat")),  # the grid's `first` dimension plays it
    "D-AMB-06": ("ace_value", ("1", "14", "11")),
    "D-AMB-07": ("mulligan", ("none", "one_redraw")),
    "D-AMB-08": ("hidden_info", ("hidden", "open")),
    "D-AMB-09": ("deckout_threshold", ("needed", "literal_2")),
    "D-AMB-10": ("q_overdraw", ("capped", "lose", "truncate")),
    "D-AMB-11": ("draw_optional", ("mandatory", "optional")),
    "D-AMB-12": ("suit_scope", ("per_turn", "per_batch", "field_wide", "match_field")),
    "D-AMB-13": ("k_summon_suit", ("exempt", "fixes_suit")),
    "D-AMB-14": ("bump_destination", ("graveyard", "hand", "deck_bottom")),
    "D-AMB-15": ("bump_when", ("when_summoning", "any_time_main")),
    "D-AMB-16": ("set_monster_can_summon", ("no", "yes")),
    "D-AMB-17": ("summon_timing", ("main_and_k_battle", "hand_in_battle_too")),
    "D-AMB-18": ("set_fn_same_turn", ("may", "must_at_once", "set_is_activation")),
    "D-AMB-19": ("escalation_scope", ("per_player", "global", "own_turn_only")),
    "D-AMB-20": ("allow_empty_activation", ("no", "yes")),
    "D-AMB-21": ("j_targets", ("monsters_and_set", "monsters_only")),
    "D-AMB-22": ("k_multi_summon", ("each_optional", "all_or_none")),
    "D-AMB-23": ("slot_during_resolution", ("occupied", "freed")),
    "D-AMB-24": ("response_windows", ("simple_lifo", "none", "full_chain")),
    "D-AMB-25": ("main_phase_set_activation", ("turn_player_and_responses", "turn_player_only", "both_freely")),
    "D-AMB-26": ("jokers_in_battle", ("no", "yes")),
    "D-AMB-27": ("hand_fn_in_battle", ("no", "yes")),
    "D-AMB-28": ("small_joker_hits_set_monsters", ("yes", "no")),
    "D-AMB-29": ("battle_phase_end", ("optional", "compulsory")),
    "D-AMB-30": ("attacks_per_monster", ("one", "unlimited")),
    "D-AMB-31": ("new_attacker_limit_counts", ("monsters", "attacks")),
    "D-AMB-32": ("priority_order", ("turn_player_first", "defender_first", "defender_only", "simultaneous")),
    "D-AMB-33": ("target_lost", ("attack_ends", "replay", "direct")),
    "D-AMB-34": ("attacker_lost", ("attack_ends", "defender_deals")),
    "D-AMB-35": ("k_redirect", ("defender_last_wins", "not_on_direct", "either_player", "first_wins")),
    "D-AMB-36": ("boost_order", ("alternate", "simultaneous")),
    "D-AMB-37": ("boost_targets", ("battlers", "any_monster")),
    "D-AMB-38": ("boost_duration", ("battle_phase", "single_battle")),
    "D-AMB-39": ("boost_card_to_gy", ("after_damage", "end_of_battle_phase")),
    "D-AMB-40": ("multiplier_match", ("suit", "colour")),
    "D-AMB-41": ("direct_damage_uses", ("printed", "current_atk")),
    "D-AMB-42": ("tie_rule", ("both_destroyed", "nothing", "attacker_dies", "defender_dies")),
    "D-AMB-43": ("damage_taker", ("destroyed_controller", "defender", "attacker")),
    "D-AMB-44": ("hp_check", ("every_event", "end_of_step")),
    "D-AMB-45": ("simultaneous_end", ("draw", "turn_player_wins")),
    "D-AMB-46": ("hand_limit_scope", ("turn_player", "both")),
    "D-AMB-47": ("discard_destination", ("graveyard", "banished")),
    "D-AMB-48": ("straight_flush_module", ("with_advanced", "own_switch", "core")),
    "D-AMB-49": ("enter_field_triggers", ("summons", "also_set")),
    "D-AMB-50": ("hp_cap", ("none", "starting_hp")),
    "D-AMB-51": ("club_scope", ("direct_and_wins", "also_losing", "attacker_only")),
    "D-AMB-52": ("diamond_extra", ("once_attacker", "recursive", "also_defending")),
    "D-AMB-53": ("diamond_extra_uses_limit", ("no", "counts_new_attacker", "skips_battle_step")),
    "D-AMB-54": ("spade_can_win", ("at_once", "end_of_phase")),
    "D-AMB-55": ("sf_timing", ("automatic", "main_phase_declaration", "optional")),
    "D-AMB-56": ("sf_wrap", ("no", "yes")),
    "D-AMB-57": ("jokers_wild", ("no", "yes")),
    "D-AMB-58": ("sf_zone", ("hand", "hand_and_back_row")),
    "D-AMB-59": ("drawn_then_set_checked", ("yes", "no")),
    "D-AMB-60": ("graveyard_owner", ("own", "k_searches_both")),
    "D-AMB-61": ("may_pass", ("yes", "attack_compulsory")),
    "D-AMB-62": ("set_boost_same_turn", ("no", "yes")),
    "D-AMB-63": ("diamond_extra_immediate", ("next_declaration", "any_later")),
    "D-AMB-64": ("bp_activation_window", ("battle_step_only", "any_priority")),
    "D-AMB-65": ("direct_attack_battle_step", ("held", "skipped")),
}
AMB_IDS = ("D-AMB-01",) + tuple(AMBIGUITIES)  # every ambiguity of the reference (01 is a number)
assert len(AMB_IDS) == 65

# Readings the engines play today. Choosing any other reading is a rules error
# (one line, exit 2) rather than a silent fallback to the default.
IMPLEMENTED: dict[str, tuple[str, ...]] = {
    amb: readings for amb, (_, readings) in AMBIGUITIES.items()}
# Readings the seed itself rules out: refused with the reason (one line, exit 2), never played.
NOT_PLAYABLE: dict[tuple[str, str], str] = {
    ("D-AMB-35", "either_player"): (
        "S49 names the attacked player (被攻擊者發動K) and changes the opponent's attack target (對方的攻擊宣言對象) "
        "to the K-summoned monster; the turn player's own K monster cannot become the target of their own attack, "
        "so there is nothing for it to redirect"),
}
for _amb, _missing in {
    "D-AMB-35": ("either_player",),
}.items():
    IMPLEMENTED[_amb] = tuple(r for r in IMPLEMENTED[_amb] if r not in _missing)

# ---- numbers --------------------------------------------------------------------------
# name -> (description with clause, minimum, maximum)
NUMBERS: dict[str, tuple[str, int, int]] = {
    "start_hand": ("cards each player draws at set-up (D-SETUP-2)", 0, 20),
    "draw_per_turn": ("cards drawn in each draw phase (D-DRAW-1)", 0, 10),
    "p1_first_draw": ("cards the first player draws on turn 1 (D-DRAW-2)", 0, 10),
    "monster_zone": ("monsters one player may have on the field (D-SUM-2)", 1, 5),
    "back_row": ("set cards one back row holds (D-SET-2, D-FN-3)", 1, 5),
    "hand_limit": ("hand size the end phase discards down to (D-END-1)", 0, 54),
    "club_multiplier": ("club damage factor; the source's digit is lost (D-ADV-3, D-AMB-01)", 1, 10),
    "turn_cap": ("turns after which the match is a draw (a safety net; §14.2: the game ends by turn 50)", 1, 10_000),
}
MAX_ZONE = 5  # fixed zone size of the state layout; monster_zone and back_row may be smaller
HP_MIN, HP_MAX = 1, 1_000_000
DEFAULT_HP = (40, 40)  # D-SETUP-4: the grid's single value (game.py's HP), a scenario's default
# Starting HP is no rules field: it is a grid dimension (game.py's HP), set by a
# sweep file's `hp` / `hp_pairs`, `play --hp` or a scenario's players.
HP_MOVED = ("'hp' is no longer a rules field: starting HP is set by the grid (a sweep file's 'hp' / 'hp_pairs', "
            "compare --sweep FILE, play --hp N or N0,N1); remove it from the rules file")


@dataclass(frozen=True)
class Rules:
    """Every number and switch of one Poker Duel rule set (immutable)."""

    start_hand: int = 5
    draw_per_turn: int = 2
    p1_first_draw: int = 1
    p1_first_battle: bool = False  # D-BP-1: the first player may not battle on turn 1
    monster_zone: int = 5
    back_row: int = 5
    hand_limit: int = 6
    club_multiplier: int = 2
    turn_cap: int = 200
    advanced_rules: bool = False  # D-ADV-0: the four suit rules (and, by D-AMB-48, the straight flush)
    straight_flush: bool = False  # only read under D-AMB-48 "own_switch"
    ambiguities: dict = field(default_factory=lambda: {k: v[1][0] for k, v in AMBIGUITIES.items()})

    def __post_init__(self):
        validate(self)

    # -- accessors -----------------------------------------------------------------
    def reading(self, amb_id: str) -> str:
        return self.ambiguities[amb_id]

    def is_default(self, amb_id: str) -> bool:
        return self.ambiguities[amb_id] == AMBIGUITIES[amb_id][1][0]

    @property
    def straight_flush_on(self) -> bool:
        """Is the straight-flush win (D-SF-1, D-WIN-3) in play? (D-AMB-48)"""
        module = self.ambiguities["D-AMB-48"]
        if module == "with_advanced":
            return self.advanced_rules
        if module == "own_switch":
            return self.straight_flush
        return True

    def with_changes(self, **changes) -> "Rules":
        """A copy with numbers changed and/or `ambiguities={"D-AMB-42": "nothing"}` merged."""
        merged = dict(self.ambiguities)
        merged.update(changes.pop("ambiguities", {}))
        return dataclasses.replace(self, ambiguities=merged, **changes)

    def as_dict(self) -> dict:
        return {**{name: getattr(self, name) for name in NUMBERS},
                **{name: getattr(self, name) for name in FLAGS},
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
        """Pack into the int64 array the engines read (slots below)."""
        arr = np.zeros(RULES_ARRAY_SIZE, dtype=np.int64)
        for name, slot in NUMBER_SLOTS.items():
            arr[slot] = getattr(self, name)
        for name, slot in FLAG_SLOTS.items():
            arr[slot] = int(getattr(self, name))
        for amb_id, (_, readings) in AMBIGUITIES.items():
            arr[amb_slot(amb_id)] = readings.index(self.ambiguities[amb_id])
        return arr


FLAGS = ("p1_first_battle", "advanced_rules", "straight_flush")

# ---- where a number or reading can act (sim/inert.py reads this table) -----------------
# parameter -> (condition on the rules, what would make it act, the rules keys the condition
# reads, the clause that says why). Outside its condition the engines never read the parameter,
# so a design that varies it there ranks noise; tests/test_inert.py plays matches on both sides
# of every condition, so the table cannot drift from the engines.


def _advanced_on(rules) -> bool:
    return rules.advanced_rules


def _straight_flush_in_play(rules) -> bool:
    return rules.straight_flush_on


def _straight_flush_switch_read(rules) -> bool:
    return rules.reading("D-AMB-48") == "own_switch"


_ADVANCED = (_advanced_on, "advanced_rules = true (--rules advanced)", ("advanced_rules",))
_STRAIGHT_FLUSH = (_straight_flush_in_play, "the straight flush in play (advanced_rules = true under D-AMB-48 "
                   "with_advanced, straight_flush = true under own_switch, or D-AMB-48 = core)",
                   ("advanced_rules", "straight_flush", "D-AMB-48"))
ACTS_ONLY_WHEN: dict[str, tuple] = {
    "club_multiplier": (*_ADVANCED, "D-ADV-3: only the advanced module's club monsters multiply damage"),
    "straight_flush": (_straight_flush_switch_read, "D-AMB-48 = own_switch", ("D-AMB-48",),
                       "D-AMB-48: the flag is the straight flush's own switch only under reading own_switch"),
    "D-AMB-49": (*_ADVANCED, "D-ADV-1/2: entering the field matters only to the spade and heart rules"),
    "D-AMB-50": (*_ADVANCED, "D-ADV-2: only the heart rule heals"),
    "D-AMB-51": (*_ADVANCED, "D-ADV-3: the club scope places the club multiplier"),
    "D-AMB-52": (*_ADVANCED, "D-ADV-4: only the diamond rule gives an extra attack"),
    "D-AMB-53": (*_ADVANCED, "D-ADV-4: the diamond's extra attack"),
    "D-AMB-54": (*_ADVANCED, "D-ADV-1: only the spade rule burns"),
    "D-AMB-63": (*_ADVANCED, "D-ADV-4: the diamond's extra attack"),
    # inert under every rules (the condition None): §15 says so, and no engine reads them
    "D-AMB-03": (None, None, (), "D-AMB-03 (§15): S42 counts both kinds of summon and S49 concerns K only"),
    "D-AMB-05": (None, None, (), "D-AMB-05: the grid's first-player dimension plays the first player"),
    **{amb: (*_STRAIGHT_FLUSH, "D-SF-1..3: a reading of the straight-flush win") for amb in
       ("D-AMB-55", "D-AMB-56", "D-AMB-57", "D-AMB-58", "D-AMB-59")},
}


# ---- rules array slots ------------------------------------------------------------------
NUMBER_SLOTS = {name: i for i, name in enumerate(NUMBERS)}
FLAG_SLOTS = {name: len(NUMBERS) + i for i, name in enumerate(FLAGS)}
R_AMB_BASE = len(NUMBERS) + len(FLAGS)  # slot of D-AMB-nn is R_AMB_BASE + nn - 1
RULES_ARRAY_SIZE = R_AMB_BASE + 65


def amb_slot(amb_id: str) -> int:
    return R_AMB_BASE + int(amb_id.split("-")[2]) - 1


def rules_from_array(array) -> Rules:
    """Inverse of `Rules.to_array` (for tools that only hold the array)."""
    values = [int(v) for v in array]
    return Rules(**{name: values[slot] for name, slot in NUMBER_SLOTS.items()},
                 **{name: bool(values[slot]) for name, slot in FLAG_SLOTS.items()},
                 ambiguities={a: r[values[amb_slot(a)]] for a, (_, r) in AMBIGUITIES.items()})


# ---- validation -----------------------------------------------------------------------

def _bad_int(value, low, high) -> bool:
    return isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high


def validate(rules: Rules) -> None:
    """Raise CardbalanceError naming the first bad field and what is allowed."""
    for name, (_, low, high) in NUMBERS.items():
        if _bad_int(getattr(rules, name), low, high):
            raise CardbalanceError("rules: '%s' must be an integer from %d to %d (got %r)."
                                   % (name, low, high, getattr(rules, name)))
    for name in FLAGS:
        if not isinstance(getattr(rules, name), bool):
            raise CardbalanceError("rules: '%s' must be true or false (got %r)." % (name, getattr(rules, name)))
    unknown = sorted(set(rules.ambiguities) - set(AMBIGUITIES))
    if unknown or set(rules.ambiguities) != set(AMBIGUITIES):
        raise CardbalanceError("rules: unknown ambiguity '%s'; allowed: D-AMB-02 to D-AMB-65 (D-AMB-01 is "
                               "'club_multiplier')." % (unknown[0] if unknown else "?"))
    for amb_id, value in rules.ambiguities.items():
        readings = AMBIGUITIES[amb_id][1]
        if value not in readings:
            raise CardbalanceError("rules: ambiguities.%s must be one of %s (got %r)%s."
                                   % (amb_id, ", ".join(readings), value, did_you_mean(value, readings)))
        if (amb_id, value) in NOT_PLAYABLE:
            raise CardbalanceError("rules: ambiguities.%s = '%s' is not playable: %s; playable: %s."
                                   % (amb_id, value, NOT_PLAYABLE[amb_id, value], ", ".join(IMPLEMENTED[amb_id])))
        if value not in IMPLEMENTED[amb_id]:
            raise CardbalanceError("rules: ambiguities.%s = '%s' is not implemented yet; implemented: %s."
                                   % (amb_id, value, ", ".join(IMPLEMENTED[amb_id])))


# ---- presets and loading --------------------------------------------------------------
PRESETS: dict[str, dict] = {
    "default": {},                           # the core game (advanced module off, §16 baseline)
    "core": {},                              # the same, by the reference's name
    "advanced": {"advanced_rules": True},    # suit effects + straight flush (D-ADV-0, D-AMB-48)
}


def rules_from_mapping(data: dict, source: str = "rules") -> Rules:
    """Build Rules from a parsed TOML mapping, rejecting unknown keys and types."""
    if "hp" in data:
        raise CardbalanceError("%s: %s." % (source, HP_MOVED))
    allowed = {"ambiguities", *NUMBERS, *FLAGS}
    for key in data:
        if key not in allowed:
            raise CardbalanceError("%s: unknown key '%s'; allowed keys: %s%s." % (
                source, key, ", ".join(sorted(allowed)), did_you_mean(key, allowed)))
    kwargs = {name: data[name] for name in (*NUMBERS, *FLAGS) if name in data}
    given = data.get("ambiguities", {})
    if not isinstance(given, dict):
        raise CardbalanceError("%s: 'ambiguities' must be a table of \"D-AMB-nn\" = \"reading\"." % source)
    ambiguities = {k: v[1][0] for k, v in AMBIGUITIES.items()}
    for amb_id, value in given.items():
        if amb_id not in AMBIGUITIES:
            raise CardbalanceError("%s: unknown ambiguity '%s'; allowed: D-AMB-02 to D-AMB-65 (D-AMB-01 is "
                                   "'club_multiplier')%s." % (source, amb_id, did_you_mean(amb_id, AMBIGUITIES)))
        ambiguities[amb_id] = value
    kwargs["ambiguities"] = ambiguities
    try:
        return Rules(**kwargs)
    except CardbalanceError as error:
        raise CardbalanceError(str(error).replace("rules:", "%s:" % source, 1)) from None


def load_rules(name_or_path: str | Path | None = None) -> Rules:
    """A preset name ("core", "advanced") or a TOML file path -> Rules."""
    if name_or_path is None:
        return Rules()
    text = str(name_or_path)
    if text in PRESETS:
        return rules_from_mapping(PRESETS[text], "preset %s" % text)
    path = Path(check_path(text, "rules"))
    if not path.is_file():
        raise CardbalanceError("rules: '%s' is neither a preset (%s) nor a readable TOML file%s." % (
            text, ", ".join(PRESETS), did_you_mean(text, PRESETS)))
    data = read_toml(path, "rules file")
    return rules_from_mapping(data, str(path))


def rules_to_toml(rules: Rules) -> str:
    """TOML text of the effective rules, every key documented, changed values marked."""
    base = Rules()
    lines = ["# starting HP is no rules field: the grid sets it (a sweep file's hp / hp_pairs, play --hp; D-SETUP-4)"]
    for name, (description, low, high) in NUMBERS.items():
        value, default = getattr(rules, name), getattr(base, name)
        lines.append("%s = %d  # %s, %d-%d%s" % (name, value, description, low, high,
                                                 "; CHANGED from default %d" % default if value != default else ""))
    notes = {"p1_first_battle": "may the first player battle on turn 1 (D-BP-1)",
             "advanced_rules": "advanced module: suit effects D-ADV-1..4 and the straight flush (D-AMB-48)",
             "straight_flush": "straight-flush win when D-AMB-48 = own_switch (D-SF-1)"}
    for name in FLAGS:
        value = getattr(rules, name)
        lines.append("%s = %s  # %s%s" % (name, str(value).lower(), notes[name],
                                          "; CHANGED from default" if value != getattr(base, name) else ""))
    lines += ["", "[ambiguities]"]
    for amb_id, (switch, readings) in AMBIGUITIES.items():
        value = rules.ambiguities[amb_id]
        changed = "; CHANGED from default %s" % readings[0] if value != readings[0] else ""
        pending = [r for r in readings if r not in IMPLEMENTED[amb_id] and (amb_id, r) not in NOT_PLAYABLE]
        todo = " (not implemented yet: %s)" % ", ".join(pending) if pending else ""
        ruled_out = [r for r in readings if (amb_id, r) in NOT_PLAYABLE]
        todo += " (not playable, the seed rules it out: %s)" % ", ".join(ruled_out) if ruled_out else ""
        lines.append('"%s" = "%s"  # %s: %s%s%s' % (amb_id, value, switch, " | ".join(readings), todo, changed))
    return "\n".join(lines) + "\n"
