"""Faction War rules: every number and ambiguity switch, validated and frozen.

A `Rules` object is what a designer edits (TOML file or named preset); the
kernels never see it. `Rules.to_array()` packs it into the int64 array every
kernel takes as an argument (never a module global: numba would freeze a
global into compiled, cached code, so one compiled kernel serves every rule
tweak only because rules travel as data).

Ambiguity switches are named after the reference's table
(`../shared/rules/faction-war.md` §9): key "FA-n", value one of the readings
listed in `AMBIGUITIES`, the first being the reference's default.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.errors import CardbalanceError
from sim.faction_war import layout
from sim.user_input import check_path, did_you_mean, read_toml

# Bump when the meaning of a rules array changes (new effect implemented, a
# clause re-read): every stored result records it, and reports refuse to mix
# results of different behaviour versions. 3: "pimc" names the greedy-rollout agent
# (it was the random-rollout one, now "pimc-random"), so a stored run's "pimc" changed.
BEHAVIOUR_VERSION = 3

# ---- ambiguity switches -------------------------------------------------------
# ID -> (question, readings); readings[0] is the reference's default.
AMBIGUITIES: dict[str, tuple[str, tuple[str, ...]]] = {
    "FA-1": ("whose hand is checked at a preparation phase", ("turn_player", "both")),
    "FA-2": ("does the first player draw on turn 1", ("draw", "skip")),
    "FA-3": ("drawing from a short deck", ("lose", "continue", "draw")),
    "FA-4": ("when mandatory each-own-turn effects resolve", ("preparation", "placement_start", "choice")),
    "FA-5": ("limit on heart J/Q/K per turn", ("unlimited", "one_per_turn")),
    "FA-6": ("tie between equal cards", ("earliest", "random", "choice")),
    "FA-7": ("successful attack on a row with no normal card", ("no_damage", "faces_lost", "not_allowed")),
    # The source says a row is a target when "有被放置的牌存在" (placed cards exist): any
    # placed card, face cards included. The reference's default "normal_or_joker"
    # counts a placed joker but not a placed face card, which the text does not
    # support; it stays available as a switch (docs/rules-notes.md).
    "FA-8": ("what makes a row occupied for targeting", ("any_card", "normal_or_joker", "normal_only")),
    "FA-9": ("does a Human using heart J/Q/K take 1 damage", ("damage", "no_damage")),
    "FA-10": ("Destiny: placement order enforced", ("pattern", "order")),
    "FA-11": ("is the extra-zone pair a special placement", ("normal", "special")),
    "FA-12": ("where a pushed-out own extra-zone card goes", ("exile", "graveyard")),
    "FA-13": ("extra-zone pairs per turn", ("per_zone", "one_total")),
    "FA-14": ("where a stolen card goes when it leaves the field", ("owner", "controller")),
    "FA-15": ("Alien J special placement timing", ("at_once", "kept")),
    "FA-16": ("Alien K (1) when the opponent has no same-number card", ("not_allowed", "own_only")),
    "FA-17": ("Deep-Sea Era in Alien vs Alien", ("turn_player", "draw")),
    "FA-18": ("Dispeller scope", ("one_player_row", "both_players_row", "one_card")),
    "FA-19": ("jokers among Abyss Magic's five exiled cards", ("like_face", "exiled_zero")),
    "FA-20": ("Human cards exiled by Alien effects", ("exile", "graveyard")),
    "FA-21": ("Human joker's direct attack destroys", ("all", "defender")),
    "FA-22": ("Alien joker row attack also does F-ATK-4", ("replaced", "also")),
    "FA-23": ("joker duel: which hand cards are put down", ("suit_normal", "with_hearts", "with_faces", "special")),
    "FA-24": ("both players at 0 life together", ("draw", "turn_player_wins", "turn_player_loses")),
    "FA-25": ("Alien joker's exile-sum damage counts", ("whole_zone", "this_attack")),
    "FA-26": ("Polymorph on cards placed after the J", ("continuous", "on_arrival")),
    "FA-27": ("joker duel tie", ("nothing", "both_lose")),
    "FA-28": ("after a duel the defender lost", ("resolves", "ends")),
    "FA-29": ("when life is checked", ("each_step", "after_action")),
    "FA-30": ("Alien K activated ability frequency", ("per_turn_per_row", "once_per_k", "unlimited")),
    "FA-31": ("Alien K (3) when the opponent has fewer normal cards", ("all_they_have", "not_allowed")),
    "FA-32": ("extra-zone pair and the row's one normal card", ("replaces", "on_top")),
    "FA-33": ("Alien special-placement sources", ("zones_cost", "with_exile", "zones_free")),
    "FA-34": ("packs per player", ("one", "two")),
    "FA-35": ("Alien J's move and the turn's extra-zone placement", ("separate", "uses_it")),
    "FA-36": ("life ceiling for heals", ("none", "starting_life")),
}
# FA-4 "choice" (the reference's "player's choice") and FA-6 "choice" ("the
# effect's controller chooses") are decisions offered as actions (PENDING_TIMING,
# PENDING_TIE; docs/engine-contract.md, "Player decisions of FA-4 and FA-6").

# ---- numbers ------------------------------------------------------------------
# name -> (description, minimum, maximum)
NUMBERS: dict[str, tuple[str, int, int]] = {
    "opening_hand": ("cards each player draws at set-up (F-SET-3)", 0, 30),
    "draws_per_turn": ("cards the turn player draws in the draw phase (F-TURN-3)", 0, 10),
    "hand_limit_trigger": ("hand size that forces discards at preparation (F-TURN-2)", 1, 60),
    "hand_limit_target": ("hand size discarded down to (F-TURN-2)", 0, 59),
    "face_cards_per_row": ("face cards one row holds (F-PLC-5)", 1, 4),
    "turn_cap": ("turns after which the match is a draw (F-WIN-4)", 1, 100_000),
}
MAX_FACE_CARDS_PER_ROW = 4
LIFE_MIN, LIFE_MAX = 1, 1_000_000  # starting life's range (the grid's `life` dimension, game.py)
DEFAULT_LIFE = (50, 50)  # the designer's default starting life: one-match commands and the compare grid
# Starting life is no rules field: it is a grid dimension (game.py's LIFE), set by
# a sweep file's `life` / `life_pairs`, `play --life` or a scenario's players.
# Rules files written before that may still set it (see `rules_from_mapping`).
LIFE_MOVED = ("'life' is no longer a rules field: starting life is set by the grid (a sweep file's 'life' / "
              "'life_pairs', compare --sweep FILE, play --life N or N0,N1); remove it from the rules file")


@dataclass(frozen=True)
class Rules:
    """Every number and switch of one Faction War rule set (immutable)."""

    opening_hand: int = 5
    draws_per_turn: int = 2
    hand_limit_trigger: int = 7
    hand_limit_target: int = 5
    face_cards_per_row: int = 2
    turn_cap: int = 400
    ambiguities: dict = field(default_factory=lambda: {k: v[1][0] for k, v in AMBIGUITIES.items()})

    def __post_init__(self):
        validate(self)

    # -- accessors -------------------------------------------------------------
    def reading(self, fa_id: str) -> str:
        return self.ambiguities[fa_id]

    def with_changes(self, **changes) -> "Rules":
        """A copy with numbers changed and/or `ambiguities={"FA-3": "draw"}` merged."""
        merged = dict(self.ambiguities)
        merged.update(changes.pop("ambiguities", {}))
        return dataclasses.replace(self, ambiguities=merged, **changes)

    def as_dict(self) -> dict:
        return {
            **{name: getattr(self, name) for name in NUMBERS},
            "ambiguities": {k: self.ambiguities[k] for k in AMBIGUITIES},
        }

    def differences_from_default(self) -> dict:
        """Keys whose value differs from the `default` preset (for reports)."""
        base, mine = Rules().as_dict(), self.as_dict()
        diff = {k: mine[k] for k in mine if k != "ambiguities" and mine[k] != base[k]}
        diff.update({k: v for k, v in mine["ambiguities"].items() if base["ambiguities"][k] != v})
        return diff

    def stable_hash(self) -> str:
        """Hash of the effective rules and behaviour version (12 hex digits)."""
        payload = json.dumps({"v": BEHAVIOUR_VERSION, **self.as_dict()}, sort_keys=True)
        return hashlib.sha256(payload.encode()).hexdigest()[:12]

    def to_array(self) -> np.ndarray:
        """Pack into the int64 array the kernels read (slots below)."""
        arr = np.zeros(RULES_ARRAY_SIZE, dtype=np.int64)
        arr[R_OPENING_HAND] = self.opening_hand
        arr[R_DRAWS_PER_TURN] = self.draws_per_turn
        arr[R_HAND_TRIGGER] = self.hand_limit_trigger
        arr[R_HAND_TARGET] = self.hand_limit_target
        arr[R_FACES_PER_ROW] = self.face_cards_per_row
        arr[R_TURN_CAP] = self.turn_cap
        for fa_id, (_, readings) in AMBIGUITIES.items():
            arr[fa_slot(fa_id)] = readings.index(self.ambiguities[fa_id])
        return arr


def rules_from_array(array) -> "Rules":
    """Inverse of `Rules.to_array` (for tools that only hold the array)."""
    values = [int(v) for v in array]
    numbers = {name: values[slot] for name, slot in (
        ("opening_hand", R_OPENING_HAND), ("draws_per_turn", R_DRAWS_PER_TURN),
        ("hand_limit_trigger", R_HAND_TRIGGER), ("hand_limit_target", R_HAND_TARGET),
        ("face_cards_per_row", R_FACES_PER_ROW), ("turn_cap", R_TURN_CAP))}
    ambiguities = {fa_id: readings[values[fa_slot(fa_id)]] for fa_id, (_, readings) in AMBIGUITIES.items()}
    return Rules(ambiguities=ambiguities, **numbers)


# ---- where a number or reading can act (sim/inert.py reads this table) ---------------
# A faction's readings act only in a cell where a seat plays that faction: the condition
# reads the cell's pairing (a grid value), not the rules. parameter -> (condition(rules, cell),
# the pairings that make it act, the rules keys read (none), the clause, the grid dimensions
# read); tests/test_inert.py plays the reference loop on both sides of each. Not declared,
# though the code reads them only for one faction, because no random or greedy match of a few
# seconds shows their acting side (so the clause test could not prove the declaration):
# FA-13 (several pair zones in one turn), FA-19 (a joker among Abyss Magic's five), FA-10
# (Destiny), FA-14 (a stolen card leaving the field), FA-21 (the Human joker's direct attack).


def _an_alien_seat(rules, cell) -> bool:
    return layout.ALIEN in layout.PAIRINGS[cell["pairing"]]


def _a_human_seat(rules, cell) -> bool:
    return layout.HUMAN in layout.PAIRINGS[cell["pairing"]]


def _alien_vs_alien(rules, cell) -> bool:
    return layout.PAIRINGS[cell["pairing"]] == (layout.ALIEN, layout.ALIEN)


def _human_vs_alien(rules, cell) -> bool:
    return set(layout.PAIRINGS[cell["pairing"]]) == {layout.HUMAN, layout.ALIEN}


def _on_pairings(condition, what: str) -> tuple:
    """(condition, its words naming the pairings where it holds, no rules keys) of one entry."""
    names = [name for name in layout.PAIRINGS if condition(None, {"pairing": name})]
    listed = names[0] if len(names) == 1 else "%s or %s" % (", ".join(names[:-1]), names[-1])
    return condition, "%s (--pairing %s)" % (what, listed), ()


_ALIEN = _on_pairings(_an_alien_seat, "a seat plays the Alien")
_HUMAN = _on_pairings(_a_human_seat, "a seat plays the Human")
_PAIRING = ("pairing",)
ACTS_ONLY_WHEN: dict[str, tuple] = {
    **{fa_id: (*_ALIEN, clause, _PAIRING) for fa_id, clause in (
        ("FA-11", "F-EXT-4: the extra-zone pair is the Alien's"),
        ("FA-12", "F-EXT-3: only the Alien has extra zones"),
        ("FA-15", "F-ALJ-4: the Alien J's special placement"),
        ("FA-16", "F-ALK-2: the Alien K's ability (1)"),
        ("FA-22", "F-JOK-A-2: the Alien joker's row attack"),
        ("FA-25", "F-JOK-A-2: the Alien joker's exile-sum damage"),
        ("FA-30", "F-ALK-2: the Alien K's ability"),
        ("FA-31", "F-ALK-2: the Alien K's ability (3)"),
        ("FA-32", "F-EXT-4: the Alien's extra-zone pair"),
        ("FA-33", "F-ALJ-4: the Alien J's special placement"),
        ("FA-35", "F-ALJ-1: the Alien J's move"),
        ("FA-36", "F-ALK-1/2, F-JOK-A-4: only Alien cards heal"))},
    "FA-17": (*_on_pairings(_alien_vs_alien, "both seats play the Alien"),
              "F-ALW-1: the Deep-Sea Era when both players are Alien", _PAIRING),
    "FA-20": (*_on_pairings(_human_vs_alien, "one seat plays the Human and one the Alien"),
              "F-ALQ-1, F-JOK-A-2/3: a Human card exiled by an Alien effect", _PAIRING),
    **{fa_id: (*_HUMAN, clause, _PAIRING) for fa_id, clause in (
        ("FA-9", "F-HUP-1: the ♥ penalty is a Human's"),
        ("FA-26", "F-HUJ-1: the Human J's Polymorph"))},
}


# ---- rules array slots (what kernels read) ------------------------------------
R_OPENING_HAND = 0
R_DRAWS_PER_TURN = 1
R_HAND_TRIGGER = 2
R_HAND_TARGET = 3
R_FACES_PER_ROW = 4
R_TURN_CAP = 5
R_FA_BASE = 6  # slot of FA-n is R_FA_BASE + n - 1; value = index of its reading
RULES_ARRAY_SIZE = R_FA_BASE + len(AMBIGUITIES)


def fa_slot(fa_id: str) -> int:
    return R_FA_BASE + int(fa_id.split("-")[1]) - 1


# Reading indices kernels compare against, named after the FA id and reading.
def _reading_constants() -> dict[str, int]:
    out = {}
    for fa_id, (_, readings) in AMBIGUITIES.items():
        number = int(fa_id.split("-")[1])
        out["R_FA%d" % number] = fa_slot(fa_id)
        for index, reading in enumerate(readings):
            out["FA%d_%s" % (number, reading.upper())] = index
    return out


globals().update(_reading_constants())  # e.g. R_FA3 (slot), FA3_LOSE = 0, FA3_DRAW = 2


# ---- validation -----------------------------------------------------------------

def validate(rules: Rules) -> None:
    """Raise CardbalanceError naming the first bad field and what is allowed."""
    for name, (_, low, high) in NUMBERS.items():
        value = getattr(rules, name)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise CardbalanceError("rules: '%s' must be an integer from %d to %d (got %r)." % (name, low, high, value))
    if rules.hand_limit_target >= rules.hand_limit_trigger:
        raise CardbalanceError(
            "rules: 'hand_limit_target' must be smaller than 'hand_limit_trigger' (got %d and %d)."
            % (rules.hand_limit_target, rules.hand_limit_trigger))
    if set(rules.ambiguities) != set(AMBIGUITIES):
        unknown = sorted(set(rules.ambiguities) - set(AMBIGUITIES))
        raise CardbalanceError("rules: unknown ambiguity %s; allowed: FA-1 to FA-%d." % (unknown[0] if unknown else "?", len(AMBIGUITIES)))
    for fa_id, value in rules.ambiguities.items():
        readings = AMBIGUITIES[fa_id][1]
        if value not in readings:
            raise CardbalanceError("rules: ambiguities.%s must be one of %s (got %r)%s." % (
                fa_id, ", ".join(readings), value, did_you_mean(value, readings)))


# ---- loading --------------------------------------------------------------------
PRESETS: dict[str, dict] = {
    # The reference's defaults.
    "default": {},
    # Two 54-card packs per player: identical face cards can meet (F-HUC-1).
    "two-packs": {"ambiguities": {"FA-34": "two"}},
    # Running out of cards ends the match as a draw instead of a loss.
    "deck-out-draw": {"ambiguities": {"FA-3": "draw"}},
}


def rules_from_mapping(data: dict, source: str = "rules", stored: bool = False) -> Rules:
    """Build Rules from a parsed TOML mapping, rejecting unknown keys and types.

    `stored`: the mapping is a run's stored copy (or stored values) written
    when rules still carried `life`; that `life` is dropped, since the run's
    grid, stored beside it, always set the lives its matches played (no
    kernel read the rules' copy). Anywhere else `life` is refused."""
    if "life" in data:
        if not stored:
            raise CardbalanceError("%s: %s." % (source, LIFE_MOVED))
        data = {key: value for key, value in data.items() if key != "life"}
    allowed = {"ambiguities", *NUMBERS}
    for key in data:
        if key not in allowed:
            raise CardbalanceError("%s: unknown key '%s'; allowed keys: %s%s." % (
                source, key, ", ".join(sorted(allowed)), did_you_mean(key, allowed)))
    kwargs = {}
    for name in NUMBERS:
        if name in data:
            kwargs[name] = data[name]
    ambiguities = {k: v[1][0] for k, v in AMBIGUITIES.items()}
    given = data.get("ambiguities", {})
    if not isinstance(given, dict):
        raise CardbalanceError("%s: 'ambiguities' must be a table of FA-n = \"reading\"." % source)
    for fa_id, value in given.items():
        if fa_id not in AMBIGUITIES:
            raise CardbalanceError("%s: unknown ambiguity '%s'; allowed: FA-1 to FA-%d%s." % (
                source, fa_id, len(AMBIGUITIES), did_you_mean(fa_id, AMBIGUITIES)))
        ambiguities[fa_id] = value
    kwargs["ambiguities"] = ambiguities
    try:
        return Rules(**kwargs)
    except CardbalanceError as error:
        raise CardbalanceError(str(error).replace("rules:", "%s:" % source, 1)) from None


def load_rules(name_or_path: str | Path | None = None, stored: bool = False) -> Rules:
    """A preset name ("default") or a TOML file path → Rules (`stored`: a run's
    own copy, see `rules_from_mapping`)."""
    if name_or_path is None:
        return Rules()
    text = str(name_or_path)
    if text in PRESETS:
        return rules_from_mapping(PRESETS[text], "preset %s" % text)
    path = Path(check_path(text, "rules"))
    if not path.is_file():
        raise CardbalanceError(
            "rules: '%s' is neither a preset (%s) nor a readable TOML file%s." % (
            text, ", ".join(PRESETS), did_you_mean(text, PRESETS)))
    data = read_toml(path, "rules file")
    return rules_from_mapping(data, str(path), stored=stored)


def load_stored_rules(name_or_path: str | Path) -> Rules:
    """A run's stored rules copy (resume, `play --from`): old copies may set `life`."""
    return load_rules(name_or_path, stored=True)


def stored_values_match(values: dict, rules: Rules) -> bool:
    """Whether a run's stored rules values (`meta.json` rules.NAME.values) are `rules`.
    Their hash was taken with `life` in it before life moved to the grid, so an old
    run's hash differs from today's for the same rules; its values, without
    `life`, still say whether the rules are the same."""
    if not isinstance(values, dict):
        return False
    return {key: value for key, value in values.items() if key != "life"} == rules.as_dict()


def rules_to_toml(rules: Rules) -> str:
    """TOML text of the effective rules, values that differ from defaults marked."""
    base = Rules()
    lines = []

    def mark(differs):
        return "  # changed from default" if differs else ""

    lines.append("# starting life is no rules field: the grid sets it (a sweep file's life / life_pairs, play --life)")
    for name, (description, low, high) in NUMBERS.items():
        value = getattr(rules, name)
        lines.append("%s = %d  # %s%s" % (name, value, description,
                                          "; CHANGED from default %d" % getattr(base, name) if value != getattr(base, name) else ""))
    lines.append("")
    lines.append("[ambiguities]")
    for fa_id, (question, readings) in AMBIGUITIES.items():
        value = rules.ambiguities[fa_id]
        changed = "; CHANGED from default %s" % readings[0] if value != readings[0] else ""
        lines.append('"%s" = "%s"  # %s: %s%s' % (fa_id, value, question, " | ".join(readings), changed))
    return "\n".join(lines) + "\n"
