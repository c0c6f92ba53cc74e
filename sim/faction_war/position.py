"""JSON positions: a designer's "what happens here?" and how rule tests are written.

A position describes a whole table; `load_position` validates it and builds a
reference `Match`, `dump_position` writes a match back in the same format.
The format is documented with examples in `docs/scenario-format.md`.
Every validation failure raises `CardbalanceError` with one sentence naming
the field.
"""

from __future__ import annotations

from pathlib import Path

from sim import rng as rng_module
from sim.cards import is_face, is_normal, parse_code, suit_of
from sim.errors import CardbalanceError
from sim.position_file import (action_texts, check_choice, check_keys, check_list, players_of, position_rules,
                               read_counters, read_position)
from sim.faction_war import actions as A
from sim.faction_war import layout as L
from sim.faction_war.reference import Match
from sim.faction_war.rules import DEFAULT_LIFE, Rules, load_rules, rules_from_mapping

PHASES = {"discard": L.PH_DISCARD, "placement": L.PH_PLACEMENT, "attack": L.PH_ATTACK, "over": L.PH_OVER}
PILES = {"hand": L.Z_HAND, "graveyard": L.Z_GRAVE, "exile": L.Z_EXILE}
PLAYER_KEYS = {"faction", "life", "start_life", "deck", "hand", "rows", "graveyard", "exile"}
TOP_KEYS = {"rules", "preset", "turn", "active", "first", "phase", "decider", "rng", "extra",
            "used_this_turn", "pending", "players", "actions", "counters", "note", "winner", "end_type"}
ZONE_SUITS = "DSC"  # the three shared extra zones (F-EXT-1)
USED_KEYS = {"normal_rows", "face_rows", "hearts", "extra_zone", "pair_zones", "rebirth_rows", "charge_rows",
             "spent_kings"}
PENDING_KINDS = {"none": L.PENDING_NONE, "special": L.PENDING_SPECIAL, "k1_answer": L.PENDING_K1_ANSWER,
                 "k3_answer": L.PENDING_K3_ANSWER}
PENDING_NUMBERS = {"player": L.P_PLAYER, "target": L.P_TARGET, "count": L.P_COUNT, "row": L.P_EXCLUDED,
                   "flags": L.P_FLAGS, "owner": L.P_OWNER, "kept_target": L.P_KEPT_TARGET}
PENDING_CARDS = {"excluded": L.P_EXCLUDED, "kept_excluded": L.P_KEPT_EXCLUDED}


def _fail(message: str):
    raise CardbalanceError("position: " + message)


# Numbers land in the engines' int64 state: anything larger is an error, never wrapped.
INT_MAX = 10**9
LIFE_MAX = 1_000_000  # the rules' cap on starting life (rules.LIFE_MAX)
RNG_MAX = 2**64 - 1   # the generator state is one unsigned 64-bit word


def _int(value, field: str, low: int | None = None, high: int = INT_MAX) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        _fail("'%s' must be an integer (got %r)." % (field, value))
    if low is not None and value < low:
        _fail("'%s' must be at least %d (got %d)." % (field, low, value))
    if value > high:
        _fail("'%s' must be at most %d (got %d)." % (field, high, value))
    return value


class _CardRegistry:
    """Parses card text and remembers where each card was put (no duplicates)."""

    def __init__(self, packs: int):
        self.packs = packs
        self.where: dict[int, str] = {}

    def take(self, text, default_owner: int, field: str) -> int:
        if not isinstance(text, str):
            _fail("%s: a card must be text like \"D7\" (got %r)." % (field, text))
        owner = default_owner
        body = text
        if ":" in text:
            prefix, _, body = text.partition(":")
            if prefix not in ("p0", "p1"):
                _fail("%s: unknown owner prefix '%s' (allowed p0:, p1:)." % (field, prefix))
            owner = int(prefix[1])
        try:
            code, pack = parse_code(body)
        except ValueError:
            _fail("%s: unknown card code '%s' (suits D S C H, ranks A 2-10 J Q K, jokers BJ LJ, '#2' for a second pack)." % (field, text))
        if pack >= self.packs:
            _fail("%s: card '%s' is from pack %d but each player has %d pack(s) (FA-34)." % (field, text, pack + 1, self.packs))
        card = L.card_id(owner, pack, code)
        if card in self.where:
            _fail("%s: card '%s' of p%d is also in %s." % (field, text, owner, self.where[card]))
        self.where[card] = field
        return card


def load_position(data: dict | str | Path, rules: Rules | None = None) -> tuple[Match, list[str]]:
    """Validate a position (dict, JSON text or path) → (reference Match, action texts).
    The file format is sim/position_file.py's; what follows is Faction War's rules check,
    one section of the table at a time."""
    data = read_position(data)
    check_keys(data, TOP_KEYS)
    if rules is None:
        rules = position_rules(data, load_rules, rules_from_mapping, "default")
    match = Match(rules)
    _load_turn(match, data)
    registry = _CardRegistry(2 if rules.reading("FA-34") == "two" else 1)
    max_order = 0
    for p, player in enumerate(players_of(data, PLAYER_KEYS)):
        max_order = _load_player(match, registry, p, player, max_order)
    max_order = _load_extra(match, registry, data.get("extra", {}), max_order)
    _fill_decks(match, registry)
    match.seq = max_order + 1
    _load_used(match, data.get("used_this_turn", {}))
    _load_pending(match, data.get("pending", {}))
    if match.phase == L.PH_OVER:
        match.winner = _int(data.get("winner", 2), "winner", 0, 2)
        match.end_type = L.END_NAMES.index(check_choice(data.get("end_type", "none"), L.END_NAMES, "end_type"))
    for index, count in read_counters(data.get("counters", {}), L.COUNTER_NAMES).items():
        match.counters[index] = count
    return match, action_texts(data, "place D7 row1")


def _load_turn(match: Match, data: dict) -> None:
    """Turn, active and first player, phase, decider and the rule generator."""
    match.turn = _int(data.get("turn", 3), "turn", 1)
    match.active = _player(data.get("active", 0), "active")
    match.first = _player(data.get("first", (match.active + match.turn - 1) % 2), "first")
    match.phase = PHASES[check_choice(data.get("phase", "placement"), PHASES, "phase")]
    match.decider = _player(data.get("decider", match.active), "decider")
    match.rng = rng_module.PyRng(_int(data.get("rng", 0), "rng", 0, RNG_MAX))


def _load_player(match: Match, registry: "_CardRegistry", p: int, player: dict, max_order: int) -> int:
    """One player's faction, life, piles, rows and listed deck -> the highest placement order so far."""
    match.faction[p] = L.FACTION_NAMES.index(check_choice(player.get("faction", "human"), L.FACTION_NAMES,
                                                          "players[%d].faction" % p))
    # Below 0 only in a finished match (F-WIN-1 ends it there); 0 is a sandbox
    # position "already at 0" whose next life check ends the match (F-WIN-2 tests).
    low_life = -LIFE_MAX if match.phase == L.PH_OVER else 0
    match.life[p] = _int(player.get("life", DEFAULT_LIFE[p]), "players[%d].life" % p, low_life, LIFE_MAX)
    match.start_life[p] = _int(player.get("start_life", DEFAULT_LIFE[p]), "players[%d].start_life" % p, 1, LIFE_MAX)
    for pile, zone in PILES.items():
        for text in check_list(player.get(pile, []), "players[%d].%s" % (p, pile)):
            card = registry.take(text, p, "players[%d].%s" % (p, pile))
            if zone == L.Z_HAND and L.card_owner(card) != p:
                _fail("players[%d].hand: card '%s' belongs to the other player." % (p, text))
            match.zone[card], match.ctrl[card] = zone, p
            match.order[card] = match.arrival[card] = 0
    rows = player.get("rows", [[], [], []])
    if not isinstance(rows, list) or len(rows) != 3:
        _fail("players[%d].rows must be a list of three rows." % p)
    for r, row in enumerate(rows):
        max_order = _load_row(match, registry, p, r, row, max_order)
    deck = player.get("deck", [])
    if not isinstance(deck, list):
        _fail("players[%d].deck must be a list of cards, top first." % p)
    top_first = [registry.take(text, p, "players[%d].deck" % p) for text in deck]
    for card in top_first:
        if L.card_owner(card) != p:
            _fail("players[%d].deck: card '%s' belongs to the other player." % (p, A.card_text(card, p)))
    match.deck[p] = list(reversed(top_first))
    return max_order


def _load_row(match: Match, registry: "_CardRegistry", p: int, r: int, row, max_order: int) -> int:
    """Row r of player p: cards (text, or {card, order, arrival}) at most `face_cards_per_row` faces (F-PLC-5)."""
    field = "players[%d].rows[%d]" % (p, r)
    if not isinstance(row, list):
        _fail("%s must be a list of cards." % field)
    faces = 0
    for entry in row:
        if isinstance(entry, dict):
            unknown = set(entry) - {"card", "order", "arrival"}
            if unknown:
                _fail("%s: unknown card key '%s' (allowed card, order, arrival)." % (field, sorted(unknown)[0]))
            text, order = entry.get("card"), entry.get("order")
            arrival = _int(entry.get("arrival", 1), field + ".arrival", 1)
        else:
            text, order, arrival = entry, None, 1
        card = registry.take(text, p, field)
        if is_face(L.card_code(card)):
            faces += 1
            if faces > match.rules.face_cards_per_row:
                _fail("%s holds more than %d face cards (F-PLC-5)." % (field, match.rules.face_cards_per_row))
        order = _int(max_order + 1 if order is None else order, field + ".order", 1)
        max_order = max(max_order, order)
        match.zone[card], match.ctrl[card] = L.Z_ROW0 + r, p
        match.order[card], match.arrival[card] = order, arrival
    return max_order


def _load_extra(match: Match, registry: "_CardRegistry", extra, max_order: int) -> int:
    """The three shared extra zones (F-EXT-1): a normal card of the zone's suit each, or none."""
    if not isinstance(extra, dict):
        _fail("'extra' must be an object like {\"D\": \"p1:D7\"} (zones D, S, C).")
    for suit_letter, entry in extra.items():
        if suit_letter not in ZONE_SUITS:
            _fail("extra: unknown zone '%s' (allowed D, S, C)." % suit_letter)
        if entry is None:
            continue
        text, order, arrival = (entry.get("card"), entry.get("order"), entry.get("arrival", 1)) \
            if isinstance(entry, dict) else (entry, None, 1)
        card = registry.take(text, 0, "extra.%s" % suit_letter)
        if not is_normal(L.card_code(card)) or suit_of(L.card_code(card)) != ZONE_SUITS.index(suit_letter):
            _fail("extra.%s must hold a normal card of that suit (got %s)." % (suit_letter, text))
        match.zone[card], match.ctrl[card] = L.Z_EXTRA, L.card_owner(card)
        match.order[card] = _int(max_order + 1 if order is None else order, "extra.%s.order" % suit_letter, 1)
        match.arrival[card] = _int(arrival, "extra.%s.arrival" % suit_letter, 1)
        max_order = max(max_order, match.order[card])
    return max_order


def _fill_decks(match: Match, registry: "_CardRegistry") -> None:
    """Cards of a player listed nowhere lie under the listed deck, ascending from the top."""
    for p in (0, 1):
        rest = [L.card_id(p, pack, code) for pack in range(registry.packs) for code in range(54)
                if L.card_id(p, pack, code) not in registry.where]
        match.deck[p] = sorted(rest, reverse=True) + match.deck[p]
        for card in match.deck[p]:
            match.zone[card], match.ctrl[card] = L.Z_DECK, p
            match.order[card] = match.arrival[card] = 0


def _load_used(match: Match, used) -> None:
    """What the turn player already used this turn (placements per row, hearts, the extra zone, kings)."""
    if not isinstance(used, dict):
        _fail("'used_this_turn' must be an object.")
    unknown_used = set(used) - USED_KEYS
    if unknown_used:
        _fail("used_this_turn: unknown key '%s' (allowed %s)." % (sorted(unknown_used)[0], ", ".join(sorted(USED_KEYS))))
    for key, target in (("normal_rows", match.normal_placed), ("face_rows", match.face_placed),
                        ("pair_zones", match.pairs_used), ("rebirth_rows", match.j_used),
                        ("charge_rows", match.k_used)):
        for row in check_list(used.get(key, []), "used_this_turn." + key):
            if isinstance(row, bool) or row not in (1, 2, 3):
                _fail("used_this_turn.%s must list rows 1-3 (got %r)." % (key, row))
            target.add(row - 1)
    match.hearts_used = _int(used.get("hearts", 0), "used_this_turn.hearts", 0)
    match.extra_used = 1 if used.get("extra_zone", False) else 0
    for text in check_list(used.get("spent_kings", []), "used_this_turn.spent_kings"):
        match.k_spent.add(L.k_spent_bit(_parse_any_card(text, "used_this_turn.spent_kings")))


def _load_pending(match: Match, pending) -> None:
    """A pending decision (its kind, numbers and cards in the P_* slots)."""
    if not isinstance(pending, dict):
        _fail("'pending' must be an object.")
    for key, value in pending.items():
        if key == "kind":
            match.pending[L.P_KIND] = PENDING_KINDS[check_choice(value, PENDING_KINDS, "pending.kind")]
        elif key in PENDING_NUMBERS:
            match.pending[PENDING_NUMBERS[key]] = _int(value, "pending." + key, 0)
        elif key in PENDING_CARDS:
            match.pending[PENDING_CARDS[key]] = _parse_any_card(value, "pending." + key)
        else:
            _fail("pending: unknown key '%s'." % key)


def _parse_any_card(text, field: str) -> int:
    """A card reference outside the piles (owner prefix p0:/p1:, default p0)."""
    return _CardRegistry(2).take(text, 0, field)


def _player(value, field: str) -> int:
    if value not in (0, 1) or isinstance(value, bool):
        _fail("'%s' must be 0 or 1 (got %r)." % (field, value))
    return value


def apply_texts(match: Match, texts: list[str]) -> None:
    """Apply actions in notation, each by the player who must decide then."""
    for index, text in enumerate(texts):
        action = A.from_text(text, match.decider)
        try:
            match.apply(action)
        except CardbalanceError as error:
            raise CardbalanceError("actions[%d] '%s': %s" % (index, text, error)) from None


def dump_position(match: Match) -> dict:
    """The match as a position object (every card listed; decks top first)."""
    def cards(zone, p):
        return [A.card_text(c, p) for c in match.cards_in(zone, p)]

    players = []
    for p in (0, 1):
        rows = []
        for r in range(3):
            row_cards = sorted(match.row(p, r), key=lambda c: match.order[c])
            rows.append([{"card": A.card_text(c, p), "order": match.order[c], "arrival": match.arrival[c]}
                         for c in row_cards])
        players.append({
            "faction": L.FACTION_NAMES[match.faction[p]],
            "life": match.life[p],
            "start_life": match.start_life[p],
            "deck": [A.card_text(c, p) for c in reversed(match.deck[p])],
            "hand": cards(L.Z_HAND, p),
            "rows": rows,
            "graveyard": cards(L.Z_GRAVE, p),
            "exile": cards(L.Z_EXILE, p),
        })
    out = {
        "rules": {k: v for k, v in match.rules.differences_from_default().items() if not k.startswith("FA-")},
        "turn": match.turn,
        "active": match.active,
        "first": match.first,
        "phase": L.PHASE_NAMES[match.phase],
        "decider": match.decider,
        "rng": match.rng.state,
        "used_this_turn": {"normal_rows": sorted(r + 1 for r in match.normal_placed),
                           "face_rows": sorted(r + 1 for r in match.face_placed)},
        "players": players,
    }
    used = out["used_this_turn"]
    for key, rows in (("pair_zones", match.pairs_used), ("rebirth_rows", match.j_used), ("charge_rows", match.k_used)):
        if rows:
            used[key] = sorted(r + 1 for r in rows)
    if match.hearts_used:
        used["hearts"] = match.hearts_used
    if match.extra_used:
        used["extra_zone"] = True
    extra = {}
    for p in (0, 1):
        for card in match.cards_in(L.Z_EXTRA, p):
            extra[ZONE_SUITS[suit_of(L.card_code(card))]] = {
                "card": A.card_text(card, 0),  # p1's cards carry their "p1:" prefix
                "order": match.order[card], "arrival": match.arrival[card]}
    if extra:
        out["extra"] = extra
    if any(match.pending):
        names = {v: k for k, v in PENDING_KINDS.items()}
        pending = {"kind": names[match.pending[L.P_KIND]]}
        for key, slot in PENDING_NUMBERS.items():
            if match.pending[slot] and key != "row":
                pending[key] = match.pending[slot]
        if match.pending[L.P_KIND] in (L.PENDING_K1_ANSWER, L.PENDING_K3_ANSWER):
            pending["row"] = match.pending[L.P_EXCLUDED]
        elif match.pending[L.P_EXCLUDED] not in (0, A.NONE):
            pending["excluded"] = A.card_text(match.pending[L.P_EXCLUDED], 0)
        if match.pending[L.P_KEPT_EXCLUDED]:
            pending["kept_excluded"] = A.card_text(match.pending[L.P_KEPT_EXCLUDED], 0)
        out["pending"] = pending
    ambiguities = {k: v for k, v in match.rules.differences_from_default().items() if k.startswith("FA-")}
    if ambiguities:
        out["rules"]["ambiguities"] = ambiguities
    if not out["rules"]:
        del out["rules"]
    if match.phase == L.PH_OVER:
        out["winner"] = match.winner
        out["end_type"] = L.END_NAMES[match.end_type]
    counters = {name: match.counters[i] for i, name in enumerate(L.COUNTER_NAMES) if match.counters[i]}
    if counters:
        out["counters"] = counters
    return out


def run_scenario(path, legal: bool = False) -> tuple[dict, list[str]]:
    """`cardbalance scenario`: load a position file, apply its actions -> (the
    resulting position, with the legal actions when asked; the step log)."""
    match, texts = load_position(path)
    apply_texts(match, texts)
    output = dump_position(match)
    if legal:
        output["legal"] = [A.to_text(a, match.decider) for a in match.legal_actions()]
    return output, list(match.events)
