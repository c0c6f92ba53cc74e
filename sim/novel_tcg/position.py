"""Novel TCG positions as JSON: the scenario sandbox (`cardbalance scenario --game novel_tcg FILE`).

A position file sets up a mid-match state and lists actions to play from it:

    {"rules": "default" | {TOML-style overrides, "ambiguities": {...}},
     "turn": 3, "active": 0, "first": 0, "phase": "action" | "battle" | "discard" | "over",
     "summons_used": 0,              (bits: 1 the normal summon, 2 the set of T-AMB-20 "no";
                                      T-AMB-23 "summon_set_activate": 4 a set made, 8 equipment played)
     "winner": 0, "end_type": "hp",  (phase "over" only; winner 2 = a draw)
     "seats": [{"rank": 10, "hp": 150,
                "hand": [CARD, ...], "deck": [CARD, ...],      (deck: bottom first)
                "front": [{"slot": 0, "card": CARD, "hp": 10, "position": "attack",
                           "summoned": 1, "changed": 0, "attacked": 0}, ...],  (turn stamps)
                "back": [{"slot": 0, "card": "blade", "host": 0, "durability": 3}, ...],
                "weapon": 3,                                    (its durability; omit for none)
                "graveyard": 0, "person_attacked": 0, "fatigue": 0},
               {...}],
     "actions": ["attack 0 1", ...]}

CARD is a character "10" / "10★" / "10 aggressive" (stars, then the shape,
balanced by default), "blade", "armour" or "weapon". Missing fields default
to a fresh position (HP from the rank, nothing on the field). `dump_position`
writes a reference match in this format (the rules in full); loading it gives
the same position and legal actions. Not written: the generator (the setup
shuffles are a match's only draws) and the record's counters. Every bad
field is one line naming it and what is allowed (exit code 2, nothing
written): the file is read by sim/position_file.py (not UTF-8, not JSON, nested
too deeply, a number past the integer-string limit), each zone's type is checked
before its cards (a hand that is a number, a front-row entry that is a string),
stars are ASCII digits ("²" is refused), and the actions are checked one by one
against the legal list.
"""

from __future__ import annotations

from pathlib import Path

from sim.errors import CardbalanceError, IllegalActionError
from sim.novel_tcg import actions as A
from sim.novel_tcg import layout as L
from sim.novel_tcg.card_pool import KIND_ARMOUR, KIND_BLADE, KIND_WEAPON, character_kind, kind_name, check_rank
from sim.novel_tcg.reference import Character, Equipment, Match
from sim.novel_tcg.rules import DECK_SHAPES, STAR_MAX, Rules, load_rules, rules_from_mapping
from sim.position_file import action_texts, check_choice, check_keys, check_list, check_object, read_position
from sim.user_input import shorten

PHASES = {"action": L.PH_ACTION, "battle": L.PH_BATTLE, "discard": L.PH_DISCARD, "over": L.PH_OVER}
EQUIPMENT = {"blade": KIND_BLADE, "armour": KIND_ARMOUR, "weapon": KIND_WEAPON}
POSITION_KEYS = ("rules", "turn", "active", "first", "phase", "seats", "actions", "summons_used", "winner", "end_type")
SEAT_KEYS = ("rank", "hp", "hand", "deck", "front", "back", "weapon", "graveyard", "person_attacked", "fatigue")
FRONT_KEYS = ("slot", "card", "hp", "position", "summoned", "changed", "attacked")
BACK_KEYS = ("slot", "card", "host", "durability", "on_opponent")


def parse_card(value, where: str) -> int:
    """A card in the position format (a star as text or a JSON number, a shape, or equipment) -> its kind.
    Stars are ASCII digits: "²" or "١٠" is a digit to str.isdigit, not to int()."""
    text = value.strip().lower().replace("★", "") if isinstance(value, str) else ""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= STAR_MAX:
        text = str(value)  # (only a small one: str() of a 5,000-digit integer raises)
    if text in EQUIPMENT:
        return EQUIPMENT[text]
    words = text.split()
    if words and words[0].isascii() and words[0].isdigit() and len(words[0]) <= 4 and 1 <= int(words[0]) <= STAR_MAX \
            and (len(words) == 1 or (len(words) == 2 and words[1] in DECK_SHAPES)):
        return character_kind(int(words[0]), DECK_SHAPES.index(words[1]) if len(words) == 2 else 0)
    raise CardbalanceError("%s: card %s must be a star 1-20 with an optional shape (%s), or blade, armour, weapon."
                           % (where, _shown(value), ", ".join(DECK_SHAPES)))


def _shown(value) -> str:
    """`value` quoted for an error line, short (a huge integer or a long list is summarised)."""
    try:
        return shorten(repr(value))
    except ValueError:  # repr of an integer past Python's 4,300-digit limit
        return "(a number of over 4300 digits)"


def _int(data: dict, key: str, where: str, low: int, high: int, default: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise CardbalanceError("%s: '%s' must be an integer from %d to %d (got %s)."
                               % (where, key, low, high, _shown(value)))
    return value


def _rules(spec) -> Rules:
    if spec is None or isinstance(spec, str):
        return load_rules(spec)
    if isinstance(spec, dict):
        return rules_from_mapping(spec, "position rules")
    raise CardbalanceError("position: 'rules' must be a preset name or a table of rules fields.")


def match_from_position(data) -> Match:
    """A reference Match in the position `data` describes (validated field by field: every zone's
    type before its cards, so a bad value is one line naming its field)."""
    if not isinstance(data, dict):
        raise CardbalanceError("position: the file must hold one JSON object.")
    check_keys(data, POSITION_KEYS)
    rules = _rules(data.get("rules"))
    seats = data.get("seats", [{}, {}])
    if not isinstance(seats, list) or len(seats) != 2 or not all(isinstance(s, dict) for s in seats):
        raise CardbalanceError("position: 'seats' must be a list of two objects (seat 0, seat 1).")
    for seat, spec in enumerate(seats):
        check_keys(spec, SEAT_KEYS, "seats[%d]." % seat)
    match = _match_state(data, rules, [check_rank(spec.get("rank", 10), "position: seats[%d].rank" % seat)
                                       for seat, spec in enumerate(seats)])
    on_opponents = []  # (seat, back slot, entry): hosts in the other front row, placed once both rows are loaded
    for seat, spec in enumerate(seats):
        _load_seat(match, seat, spec, on_opponents)
    for seat, back, entry in on_opponents:  # T-AMB-31 "true": equipment in this back row on an opposing character
        _attach_to_opponent(match, seat, back, entry)
    return match


def _match_state(data: dict, rules: Rules, ranks: list[int]) -> Match:
    """The match-wide fields: turn, seats to act, phase, the summon bits and a finished match's result."""
    first = _int(data, "first", "position", 0, 1, 0)
    match = Match(rules.with_changes(opening_hand=0, p1_skip_draw=1), ranks, [[], []], first, 1)
    match.rules = rules
    match.winner, match.end_type, match.summons_used = L.NONE, L.END_NONE, 0
    match.turn = _int(data, "turn", "position", 1, rules.numbers["turn_cap"] + 1, 1)  # cap + 1: ended by the cap
    match.active = _int(data, "active", "position", 0, 1, first)
    match.phase = PHASES[check_choice(data.get("phase", "action"), list(PHASES), "phase")]
    match.summons_used = _int(data, "summons_used", "position", 0,
                              L.USED_SUMMON | L.USED_SET | L.ORDER_SET | L.ORDER_ACTIVATE, 0)
    if match.phase == L.PH_OVER:
        match.winner = _int(data, "winner", "position", 0, L.DRAW, 0)
        end_type = data.get("end_type")
        if not isinstance(end_type, str) or end_type not in L.END_TYPE_NAMES[1:]:
            raise CardbalanceError("position: 'end_type' of a finished match must be one of %s (got %s)."
                                   % (", ".join(L.END_TYPE_NAMES[1:]), _shown(end_type)))
        match.end_type = L.END_TYPE_NAMES.index(end_type)
    match.counters = [0] * L.N_COUNTERS
    return match


def _load_seat(match: Match, seat: int, spec: dict, on_opponents: list) -> None:
    """One seat's duelist: counts, deck, hand, both rows and the weapon."""
    where, field = "position: seats[%d]" % seat, "seats[%d]" % seat
    rules, duelist = match.rules, match.duelists[seat]
    duelist.hp = _int(spec, "hp", where, -10_000, 10_000, duelist.hp)
    duelist.graveyard = _int(spec, "graveyard", where, 0, L.MAX_DECK, 0)
    duelist.person_attacked = _int(spec, "person_attacked", where, 0, match.turn, 0)
    duelist.fatigue = _int(spec, "fatigue", where, 0, L.MAX_DECK + rules.numbers["turn_cap"], 0)
    for zone in ("deck", "hand"):  # a duelist holds at most a deck's worth of cards in each
        if len(check_list(spec.get(zone, []), "%s.%s" % (field, zone))) > L.MAX_DECK:
            raise CardbalanceError("%s: '%s' holds at most %d cards." % (where, zone, L.MAX_DECK))
    duelist.deck = [parse_card(c, where + ".deck") for c in spec.get("deck", [])]
    duelist.hand = [0] * len(duelist.hand)
    for card in spec.get("hand", []):
        duelist.hand[parse_card(card, where + ".hand")] += 1
    for index, entry in enumerate(check_list(spec.get("front", []), field + ".front")):
        entry_field = "%s.front[%d]" % (field, index)
        _place_character(match, duelist, check_object(entry, entry_field, FRONT_KEYS), where, entry_field)
    back_entries = check_list(spec.get("back", []), field + ".back")
    for index, entry in enumerate(back_entries):
        check_object(entry, "%s.back[%d]" % (field, index), BACK_KEYS)
        _place_equipment(match, seat, index, entry, where, on_opponents)
    if "weapon" in spec:
        duelist.weapon = KIND_WEAPON
        duelist.weapon_durability = _int(spec, "weapon", where, 1, 100, rules.numbers["durability"])


def _place_character(match: Match, duelist, entry: dict, where: str, field: str) -> None:
    n = match.rules.numbers
    slot = _int(entry, "slot", where + ".front", 0, n["front_slots"] - 1, -1)
    kind = parse_card(entry.get("card"), where + ".front")
    if kind >= KIND_BLADE:
        raise CardbalanceError("%s.front: slot %d must hold a character, not %s." % (where, slot, entry.get("card")))
    if duelist.front[slot] is not None:
        raise CardbalanceError("%s.front: slot %d is given twice." % (where, slot))
    position = check_choice(entry.get("position", "attack"), L.POSITION_NAMES, field + ".position")
    hp = _int(entry, "hp", where + ".front", 1, 10_000, int(match.pool[kind, 3]))
    summoned = _int(entry, "summoned", where + ".front", 0, match.turn, 0)
    changed = _int(entry, "changed", where + ".front", 0, match.turn, 0)
    attacked = _int(entry, "attacked", where + ".front", 0, match.turn, 0)
    duelist.front[slot] = Character(kind, hp, L.POSITION_NAMES.index(position), summoned, changed, attacked)


def _place_equipment(match: Match, seat: int, index: int, entry: dict, where: str, on_opponents: list) -> None:
    n, rules, duelist = match.rules.numbers, match.rules, match.duelists[seat]
    back = _int(entry, "slot", where + ".back", 0, n["back_slots"] - 1, index) if index < n["back_slots"] else index
    if back >= n["back_slots"]:
        raise CardbalanceError("%s.back: at most back_slots = %d cards." % (where, n["back_slots"]))
    if duelist.back[back] is not None:
        raise CardbalanceError("%s.back: slot %d is given twice." % (where, back))
    kind = parse_card(entry.get("card"), where + ".back")
    if kind not in (KIND_BLADE, KIND_ARMOUR):
        raise CardbalanceError("%s.back: only blade or armour go to the back row (got %s)."
                               % (where, _shown(entry.get("card"))))
    if entry.get("on_opponent", False) not in (True, False):
        raise CardbalanceError("%s.back: 'on_opponent' must be true or false (got %s)."
                               % (where, _shown(entry["on_opponent"])))
    if entry.get("on_opponent"):
        if rules.reading("T-AMB-31") != "true":
            raise CardbalanceError("%s.back: 'on_opponent' needs ambiguities.T-AMB-31 (equip_opponent_chars) "
                                   "= \"true\"." % where)
        duelist.back[back] = Equipment(kind, L.NONE, 0, True)  # the slot is taken; the host is set below
        on_opponents.append((seat, back, entry))
        return
    host = _int(entry, "host", where + ".back", 0, n["front_slots"] - 1, -1)
    character = duelist.front[host]
    if character is None:
        raise CardbalanceError("%s.back: host slot %d holds no character." % (where, host))
    duelist.back[back] = Equipment(kind, host, _int(entry, "durability", where + ".back", 1, 100, n["durability"]))
    _equip(match, character, kind)


def _attach_to_opponent(match: Match, seat: int, back: int, entry: dict) -> None:
    n, where = match.rules.numbers, "position: seats[%d].back" % seat
    equipment = match.duelists[seat].back[back]
    equipment.host = _int(entry, "host", where, 0, n["front_slots"] - 1, -1)
    equipment.durability = _int(entry, "durability", where, 1, 100, n["durability"])
    character = match.duelists[1 - seat].front[equipment.host]
    if character is None:
        raise CardbalanceError("%s: the opponent's host slot %d holds no character." % (where, equipment.host))
    _equip(match, character, equipment.kind)


def _equip(match: Match, character: Character, kind: int) -> None:
    """A Blade adds its value to the character's ATK, an Armour to its HP."""
    character.equips += 1
    value = int(match.pool[kind, 3])
    if kind == KIND_BLADE:
        character.atk_bonus += value
    else:
        character.hp_bonus += value


def card_text(kind: int) -> str:
    """A kind in the position format (`parse_card` reads it back): "10 balanced", "blade"."""
    for name, value in EQUIPMENT.items():
        if kind == value:
            return name
    return "%d %s" % (kind % STAR_MAX + 1, DECK_SHAPES[kind // STAR_MAX])


def rules_mapping(rules: Rules) -> dict:
    """The rules in full as a position's 'rules' table (`rules_from_mapping` reads it)."""
    return {**rules.numbers, **rules.reals, "deck_shape": rules.deck_shape, "ambiguities": dict(rules.ambiguities)}


def dump_position(match: Match) -> dict:
    """A reference match as a position (JSON-ready); `match_from_position` loads it back."""
    data = {"rules": rules_mapping(match.rules), "turn": match.turn, "active": match.active, "first": match.first,
            "phase": next(name for name, value in PHASES.items() if value == match.phase),
            "summons_used": match.summons_used, "seats": []}
    if match.over:
        data["winner"], data["end_type"] = match.winner, L.END_TYPE_NAMES[match.end_type]
    for duelist in match.duelists:
        seat = {"rank": duelist.rank, "hp": duelist.hp,
                "hand": [card_text(k) for k in range(len(duelist.hand)) for _ in range(duelist.hand[k])],
                "deck": [card_text(k) for k in duelist.deck],
                "front": [{"slot": slot, "card": card_text(c.kind), "hp": c.hp, "position": L.POSITION_NAMES[c.position],
                           "summoned": c.summoned, "changed": c.changed, "attacked": c.attacked}
                          for slot, c in duelist.characters()],
                "back": [{"slot": slot, "card": card_text(e.kind), "host": e.host, "durability": e.durability,
                          **({"on_opponent": True} if e.on_opponent else {})}
                         for slot, e in enumerate(duelist.back) if e is not None],
                "graveyard": duelist.graveyard, "person_attacked": duelist.person_attacked, "fatigue": duelist.fatigue}
        if duelist.weapon != L.NONE:
            seat["weapon"] = duelist.weapon_durability
        data["seats"].append(seat)
    return data


def play_actions(match: Match, texts, log: list[str] | None = None) -> Match:
    """Apply actions in text notation; an illegal one is one line naming it and the legal ones."""
    for text in texts:
        action = A.parse(text)
        legal = match.legal_actions()
        if action not in legal:
            raise IllegalActionError("position: action '%s' is not legal here; legal: %s."
                                     % (text, ", ".join(A.to_text(a) for a in legal) or "none (the match is over)"))
        match.apply(action)
        if log is not None:
            log.append("%s -> %s" % (text, describe(match)))
    return match


def describe(match: Match) -> str:
    """A one-line summary: HPs, both front rows, phase."""
    parts = []
    for seat, duelist in enumerate(match.duelists):
        row = ", ".join("%d:%s hp %d %s" % (slot, kind_name(match.pool, c.kind).split()[0], c.hp,
                                            L.POSITION_NAMES[c.position]) for slot, c in duelist.characters())
        parts.append("P%d HP %d [%s]" % (seat, duelist.hp, row))
    state = "over: winner %s, %s" % (match.winner, L.END_TYPE_NAMES[match.end_type]) if match.over else \
        "turn %d P%d %s" % (match.turn, match.active, {1: "action", 2: "battle", 3: "discard"}[match.phase])
    return "; ".join(parts) + "; " + state


def run_scenario(path, legal: bool = False):
    """`cardbalance scenario`: load, play the file's actions -> (final position summary dict, log lines)."""
    data = read_position(Path(path), "position file")  # sim/position_file.py: one line for any bad file
    match = match_from_position(data)
    texts = action_texts(data, "attack 0 1")
    log = ["start -> %s" % describe(match)]
    play_actions(match, texts, log)
    if legal:
        log.append("legal: " + ", ".join(A.to_text(a) for a in match.legal_actions()))
    result = {"hp": [d.hp for d in match.duelists], "over": match.over,
              "winner": match.winner, "end_type": L.END_TYPE_NAMES[match.end_type],
              "front": [[None if c is None else {"card": kind_name(match.pool, c.kind), "hp": c.hp,
                                                 "position": L.POSITION_NAMES[c.position]} for c in d.front]
                        for d in match.duelists]}
    return result, log
