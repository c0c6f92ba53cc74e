"""JSON positions for Poker Duel: the scenario sandbox (`cardbalance scenario
--game poker_duel FILE`) and the way clause tests are written.

A position describes the whole table; `load_position` validates it and builds
a reference `Match`, `dump_position` writes the interesting part of a match
back. Format (docs/poker-duel.md has examples):

    {
      "preset": "core",                      # or "advanced"; default core
      "rules": {"club_multiplier": 3, "ambiguities": {"D-AMB-42": "nothing"}},
      "turn": 3, "active": 0, "first": 0,    # defaults 3, 0, 0
      "phase": "main",                       # main | declare | battle_step | damage_step | discard
      "attack": {"attacker": "S7", "target": "H9"},   # battle_step / damage_step ("target": "player")
      "uses": [[0, 0, 0], [0, 0, 0]],        # J/Q/K used this turn per player (D-FN-7)
      "turn_suit": "S",                      # suit of this turn's hand summons (D-SUM-1)
      "players": [
        {"hp": 40, "hand": ["S7", "HJ"], "monsters": ["C5"], "back_row": ["D3", {"card": "HQ", "set_turn": 3}],
         "graveyard": ["SK"], "deck": ["D2", "D4"], "new": ["C5"]},
        {...}
      ],
      "actions": ["summon S7", "pass"]       # actions.to_text notation, applied in order
    }

Cards are the owner's own (each player plays their own deck). Under D-AMB-60
"k_searches_both" a hand, monster zone or back row (and `new`) may hold a
card of the other deck that a K took: written with a trailing ', as actions
name it ("S9'"); the dump marks such cards the same way. `deck` lists
the deck bottom to top; when it is left out every card of that player not
placed elsewhere forms the deck in ascending code order; when it is given,
the unlisted cards are out of play. A back-row card set without a
`set_turn` was set on the previous turn (so it may boost, D-DS-8); `new`
names monsters summoned this turn (D-BP-2). Every validation failure raises
CardbalanceError with one sentence naming the field.
"""

from __future__ import annotations

from pathlib import Path

from sim.cards import SUIT_LETTERS, code_text, parse_code
from sim.errors import CardbalanceError
from sim.position_file import check_choice, check_keys, position_rules, read_position
from sim.poker_duel import actions as A
from sim.poker_duel import layout as L
from sim.poker_duel.narration import describe
from sim.poker_duel.reference import Match
from sim.poker_duel.rules import DEFAULT_HP, HP_MAX, load_rules, rules_from_mapping

PHASES = {"main": L.PH_MAIN, "declare": L.PH_DECLARE, "battle_step": L.PH_BATTLE,
          "damage_step": L.PH_DAMAGE, "discard": L.PH_DISCARD}
TOP_KEYS = {"preset", "rules", "turn", "active", "first", "phase", "attack", "uses", "turn_suit", "players",
            "actions", "note", "rng"}
PLAYER_KEYS = {"hp", "start_hp", "hand", "monsters", "back_row", "graveyard", "deck", "new"}


def _fail(message: str):
    raise CardbalanceError("position: " + message)


def _int(value, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        _fail("'%s' must be an integer from %d to %d (got %r)." % (field, low, high, value))
    return value


def _card(text, owner: int, field: str, seen: dict, taken: list | None = None) -> int:
    """A card of `owner`'s deck; where `taken` is given (hand, monsters, back row) also the
    other player's card written with a trailing ' (a K's catch, D-AMB-60), collected there."""
    if taken is not None and isinstance(text, str) and text.endswith("'"):
        card = _card(text[:-1], 1 - owner, field, seen)
        taken.append((card, field, text))
        return card
    if not isinstance(text, str):
        _fail("'%s' must be a card like \"S7\", \"HQ\", \"BJ\" (got %r)." % (field, text))
    try:
        code, pack = parse_code(text)
    except ValueError:
        code, pack = -1, 1
    if pack or not 0 <= code < L.N_CODES:
        _fail("'%s': '%s' is not a card; cards are D/S/C/H + A,2..10,J,Q,K, or BJ / LJ." % (field, text))
    card = L.card_id(owner, code)
    if card in seen:
        _fail("'%s': player %d's %s is already in '%s'." % (field, owner, text, seen[card]))
    seen[card] = field
    return card


def _list(value, field: str) -> list:
    if not isinstance(value, list):
        _fail("'%s' must be a list (got %r)." % (field, value))
    return value


def load_position(data: dict) -> Match:
    """Validate a position (dict, JSON text or path) and build the reference Match it describes.
    The file format is sim/position_file.py's; what follows is Poker Duel's rules check."""
    data = read_position(data)
    check_keys(data, TOP_KEYS)
    rules = position_rules(data, load_rules, rules_from_mapping, "core")
    m = Match(rules)
    m.turn = _int(data.get("turn", 3), "turn", 1, 10_000)
    m.active = _int(data.get("active", 0), "active", 0, 1)
    m.first = _int(data.get("first", 0), "first", 0, 1)
    phase = check_choice(data.get("phase", "main"), PHASES, "phase")
    m.phase, m.decider = PHASES[phase], m.active
    if m.phase in (L.PH_DECLARE, L.PH_BATTLE, L.PH_DAMAGE) and m.turn == 1 and m.active == m.first \
            and not rules.p1_first_battle:
        _fail("phase '%s': the first player has no battle phase on turn 1 (D-BP-1, p1_first_battle = false)." % phase)
    players = _list(data.get("players", [{}, {}]), "players")
    if len(players) != 2:
        _fail("'players' must list exactly two players (got %d)." % len(players))
    seen: dict[int, str] = {}
    taken: list = []  # (card, field, text): the other player's cards a K took (D-AMB-60)
    for p, spec in enumerate(players):
        if not isinstance(spec, dict):
            _fail("'players[%d]' must be an object." % p)
        check_keys(spec, PLAYER_KEYS, "players[%d]." % p)
        where = "players[%d]" % p
        m.hp[p] = _int(spec.get("hp", DEFAULT_HP[p]), where + ".hp", 1, HP_MAX)  # at HP 0 the match is over (D-WIN)
        m.start_hp[p] = _int(spec.get("start_hp", DEFAULT_HP[p]), where + ".start_hp", 1, HP_MAX)
        for card in (_card(t, p, where + ".hand", seen, taken) for t in _list(spec.get("hand", []), where + ".hand")):
            m.zone[card] = L.Z_HAND
        monsters = _list(spec.get("monsters", []), where + ".monsters")
        if len(monsters) > rules.monster_zone:
            _fail("'%s.monsters' holds at most %d cards (monster_zone; got %d)." % (where, rules.monster_zone, len(monsters)))
        for slot, text in enumerate(monsters):
            if text is None:
                continue
            card = _card(text, p, where + ".monsters", seen, taken)
            if code_text(card % L.N_CODES)[1:] in ("J", "Q", "K") or card % L.N_CODES >= 52:
                _fail("'%s.monsters': %s is not a monster card (A-10, D-COMP-2)." % (where, text))
            m.zone[card], m.pos[card], m.monster[p][slot] = L.Z_MONSTER, slot, card
        back = _list(spec.get("back_row", []), where + ".back_row")
        if len(back) > rules.back_row:
            _fail("'%s.back_row' holds at most %d cards (back_row; got %d)." % (where, rules.back_row, len(back)))
        for slot, item in enumerate(back):
            if item is None:
                continue
            text, set_turn = (item.get("card"), item.get("set_turn", m.turn - 1)) if isinstance(item, dict) else (item, m.turn - 1)
            card = _card(text, p, where + ".back_row", seen, taken)
            m.zone[card], m.pos[card], m.back[p][slot] = L.Z_BACK, slot, card
            m.set_turn[card] = _int(set_turn, where + ".back_row.set_turn", 0, m.turn)
        for text in _list(spec.get("graveyard", []), where + ".graveyard"):
            card = _card(text, p, where + ".graveyard", seen)
            m.seq += 1
            m.zone[card], m.pos[card] = L.Z_GRAVE, m.seq
    for card, field, text in taken:
        if rules.reading("D-AMB-60") != "k_searches_both":
            _fail("'%s': %s is the other player's card; only a K under D-AMB-60 = k_searches_both takes one."
                  % (field, text))
        m.flags[card] |= L.F_TAKEN
    for p, spec in enumerate(players):  # decks last: a card the other player holds is in neither deck
        where = "players[%d]" % p
        if "deck" in spec:
            deck = [_card(t, p, where + ".deck", seen) for t in _list(spec["deck"], where + ".deck")]
            for card in range(p * L.N_CODES, (p + 1) * L.N_CODES):
                if card not in seen:
                    m.zone[card] = L.Z_BANISHED  # out of play
        else:
            deck = [c for c in range(p * L.N_CODES, (p + 1) * L.N_CODES) if c not in seen]
        m.deck[p] = deck
        for card in _list(spec.get("new", []), where + ".new"):
            target = _field_card(card, p)
            if target < 0 or m.zone[target] != L.Z_MONSTER or m.controller(target) != p:
                _fail("'%s.new' must name monsters on that player's field (got %r)." % (where, card))
            m.flags[target] |= L.F_NEW
    if "uses" in data:
        uses = _list(data["uses"], "uses")
        if len(uses) != 2 or not all(isinstance(u, list) and len(u) == 3 for u in uses):
            _fail("'uses' must be [[J, Q, K], [J, Q, K]] counts (got %r)." % (uses,))
        m.uses = [[_int(v, "uses", 0, 100) for v in u] for u in uses]
    if "turn_suit" in data:
        if data["turn_suit"] not in tuple(SUIT_LETTERS):
            _fail("'turn_suit' must be one of D, S, C, H (got %r)." % (data["turn_suit"],))
        m.turn_suit = SUIT_LETTERS.index(data["turn_suit"])
    if m.phase in (L.PH_BATTLE, L.PH_DAMAGE):
        attack = data.get("attack")
        if not isinstance(attack, dict) or "attacker" not in attack or "target" not in attack:
            _fail("phase '%s' needs 'attack': {\"attacker\": card, \"target\": card or \"player\"}." % phase)
        attacker = _field_card(attack["attacker"], m.active)
        if attacker < 0 or m.zone[attacker] != L.Z_MONSTER or m.controller(attacker) != m.active:
            _fail("'attack.attacker' must be a monster of the active player (got %r)." % (attack["attacker"],))
        m.attacker = attacker
        m.flags[attacker] |= L.F_ATTACKED
        if attack["target"] == "player":
            m.target = L.DIRECT_TARGET
        else:
            target = _field_card(attack["target"], 1 - m.active)
            if target < 0 or m.zone[target] != L.Z_MONSTER or m.controller(target) != 1 - m.active:
                _fail("'attack.target' must be a monster of the other player or \"player\" (got %r)." % (attack["target"],))
            m.target = target
    elif "attack" in data:
        _fail("'attack' is only read in phases battle_step and damage_step.")
    if m.phase == L.PH_DISCARD:
        m.decider = m.active
    if "rng" in data:
        from sim import rng as rng_module
        m.rng = rng_module.PyRng(_int(data["rng"], "rng", 0, 2**63 - 1))
    return m


def _field_card(text, player: int) -> int:
    """A card on `player`'s field named as in the players' lists ("S9'": the other deck's), or -1."""
    other = isinstance(text, str) and text.endswith("'")
    text = text[:-1] if other else text
    return L.card_id(1 - player if other else player, parse_code(str(text))[0]) if _is_card(text) else -1


def _is_card(text) -> bool:
    try:
        return isinstance(text, str) and parse_code(text)[0] < L.N_CODES and parse_code(text)[1] == 0
    except ValueError:
        return False


def apply_texts(m: Match, texts, events: list[str] | None = None) -> Match:
    """Apply actions in text notation; an unknown or illegal one is one error line."""
    for index, text in enumerate(_list(texts, "actions")):
        try:
            action = A.from_text(text)
        except (ValueError, TypeError):
            _fail("actions[%d] '%s' is not an action; e.g. \"summon S7\", \"attack 0 5\", \"pass\" "
                  "(docs/poker-duel.md)." % (index, text))
        if m.is_over():
            _fail("actions[%d] '%s': the match is already over." % (index, text))
        if action not in m.legal_actions():
            _fail("actions[%d] '%s' is illegal for player %d in phase %s; legal: %s."
                  % (index, text, m.decider, L.PHASE_NAMES[m.phase], ", ".join(A.to_text(a) for a in m.legal_actions())))
        before = tuple(m.hp)
        decider = m.decider
        words = describe(m, action) if events is not None else ""  # cards by name, before they move
        m.apply(action)
        if events is not None:
            events.append("player %d: %s" % (decider, words if words != text else text))
            if tuple(m.hp) != before:
                events.append("  HP now %d / %d" % tuple(m.hp))
    return m


def dump_position(m: Match, legal: bool = False) -> dict:
    """The table after the actions, JSON-ready."""
    def names(cards, p=None):  # a card of the other deck (a K's catch, D-AMB-60) is marked with '
        return [code_text(c % L.N_CODES) + ("'" if p is not None and c // L.N_CODES != p else "") for c in cards]

    out = {"turn": m.turn, "active": m.active, "phase": L.PHASE_NAMES[m.phase], "decider": m.decider,
           "pending": L.PENDING_NAMES[m.pend_kind], "winner": m.winner,
           "end_type": ("none", "life", "deck_out", "straight_flush", "draw_straight_flush", "turn_cap",
                        "draw_hp")[m.end_type], "players": []}
    for p in (0, 1):
        out["players"].append({
            "hp": m.hp[p], "hand": names(sorted(m.hand(p)), p),
            "monsters": [names([c], p)[0] if c >= 0 else None for c in m.monster[p][:m.rules.monster_zone]],
            "back_row": [names([c], p)[0] if c >= 0 else None for c in m.back[p][:m.rules.back_row]],
            "graveyard": names(m.graveyard(p)), "deck_count": len(m.deck[p])})
    if legal:
        out["legal"] = [A.to_text(a) for a in m.legal_actions()]
    return out


def run_scenario(path, legal: bool = False):
    """`cardbalance scenario --game poker_duel FILE` -> (position dict, event lines)."""
    data = read_position(Path(path))
    m = load_position(data)
    events: list[str] = []
    apply_texts(m, data.get("actions", []), events)
    return dump_position(m, legal), events
