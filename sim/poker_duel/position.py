"""JSON positions for Poker Duel: the scenario sandbox (`cardbalance scenario
--game poker_duel FILE`), the way clause tests are written, and the contract's
position round-trip (docs/engine-contract.md).

A position describes the whole table; `load_position` validates it and builds
a reference `Match`, `dump_position` writes a match back in the same format,
in full: loading a dump gives the same state array (`Match.to_array`), so the
match plays on exactly as it would have. A hand-written file needs only the
first block of keys; the second block is what a dump adds (the deck order,
the rules, the generator and the engine's bookkeeping). Format (examples in
docs/examples/pd_*.json):

    {
      "preset": "core",                      # or "advanced"; default core
      "rules": {"club_multiplier": 3, "ambiguities": {"D-AMB-42": "nothing"}},
      "turn": 3, "active": 0, "first": 0,    # defaults 3, 0, 0
      "phase": "main",                       # main | declare | battle_step | damage_step | discard | over
      "attack": {"attacker": "S7", "target": "H9"},   # battle_step / damage_step ("target": "player")
      "uses": [[0, 0, 0], [0, 0, 0]],        # J/Q/K used this turn per player (D-FN-7)
      "turn_suit": "S",                      # suit of this turn's hand summons (D-SUM-1)
      "rng": 12345,                          # the rule generator's SplitMix64 state (default 0)
      "players": [
        {"hp": 40, "hand": ["S7", "HJ"], "monsters": ["C5"], "back_row": ["D3", {"card": "HQ", "set_turn": 3}],
         "graveyard": ["SK"], "deck": ["D2", "D4"], "new": ["C5"]},
        {...}
      ],
      "actions": ["summon S7", "pass"],      # actions.to_text notation, applied in order

      "decider": 0,                          # who chooses next (default: the active player)
      "pending": "k_picks",                  # a pending choice (layout.PENDING_NAMES; default none)
      "choice": {"player": 0, "max": 2, "chosen": 0, "return": "main", "list": ["SK"]},
      "winner": 1, "end_type": "life",       # phase "over" only (winner -1: a draw)
      "seq": 17,                             # the graveyard arrival counter
      "new_attacks": 0, "passes": 0, "priority_owner": 0, "redirected": 0, "extra_attacker": "D9",
      "chain": [{"card": "HJ", "player": 0, "n": 1, "count": 1, "targets": ["C5"]}],
      "counters": {"summons": 3},            # the record's effect counters (layout.COUNTER_NAMES)
      per player: "start_hp", "banished": [cards], "graveyard_seq": [4],   # each graveyard card's arrival
                  "marks": {"S7": {"flags": ["attacked"], "boost": 2, "set_turn": 3}}
    }

Cards are the owner's own (each player plays their own deck). Under D-AMB-60
"k_searches_both" a hand, monster zone or back row (and `new`, `marks`, a
chain entry) may hold a card of the other deck that a K took: written with a
trailing ', as actions name it ("S9'"); the dump marks such cards the same
way. `deck` lists the deck bottom to top; when it is left out every card of
that player not placed elsewhere forms the deck in ascending code order; when
it is given, the unlisted cards are out of play (banished). A back-row card
set without a `set_turn` was set on the previous turn (so it may boost,
D-DS-8); `new` names monsters summoned this turn (D-BP-2); without
`graveyard_seq` the graveyards arrived in the order listed, player 0's first. A chain entry's card sits
in its back-row slot when the back row lists it (D-AMB-23 "occupied"), else
it holds none; its targets are the opponent's cards (named from the
opponent's side). `choice` names cards from its player's side, J targets
(pending j_targets) as field positions 0-9; after a choice ends the engine
keeps its last values, and a dump writes them too. `marks` are per-card
flags (`FLAG_NAMES`), boosts (D-DS-3) and set turns. Every validation
failure raises CardbalanceError with one sentence naming the field.
"""

from __future__ import annotations

from pathlib import Path

from sim import rng as rng_module
from sim.cards import SUIT_LETTERS, code_text, parse_code
from sim.errors import CardbalanceError
from sim.position_file import (check_choice, check_keys, check_list, check_object, players_of, position_rules,
                               read_counters, read_position)
from sim.poker_duel import actions as A
from sim.poker_duel import layout as L
from sim.poker_duel.narration import describe
from sim.poker_duel.reference import Match, fn_kind
from sim.poker_duel.rules import DEFAULT_HP, HP_MAX, Rules, load_rules, rules_from_mapping

PHASES = {name: code for code, name in enumerate(L.PHASE_NAMES)}  # main .. discard, over
PENDING = {name: code for code, name in enumerate(L.PENDING_NAMES)}
FLAG_NAMES = {"new": L.F_NEW, "attacked": L.F_ATTACKED, "extra_used": L.F_EXTRA_USED, "boosting": L.F_BOOSTING,
              "new_attacker": L.F_NEW_ATTACKER, "extra_earned": L.F_EXTRA_EARNED, "committed": L.F_COMMITTED,
              "just_set": L.F_JUST_SET}  # F_TAKEN is the trailing ' of a card's name
TOP_KEYS = {"preset", "rules", "turn", "active", "first", "phase", "attack", "uses", "turn_suit", "players",
            "actions", "note", "rng", "decider", "pending", "choice", "winner", "end_type", "seq", "new_attacks",
            "passes", "priority_owner", "redirected", "extra_attacker", "chain", "counters"}
PLAYER_KEYS = {"hp", "start_hp", "hand", "monsters", "back_row", "graveyard", "graveyard_seq", "deck", "new", "banished",
               "marks"}
CHOICE_KEYS = {"player", "max", "chosen", "return", "list"}
CHAIN_KEYS = {"card", "player", "n", "count", "targets"}
MARK_KEYS = {"flags", "boost", "set_turn"}
INT_MAX = 10**9  # counts and sequence numbers land in int64 slots: larger is an error, never wrapped


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
    card = _named(text, owner, field, other_allowed=False)
    if card in seen:
        _fail("'%s': player %d's %s is already in '%s'." % (field, owner, text, seen[card]))
    seen[card] = field
    return card


def _named(text, player: int, field: str, other_allowed: bool = True) -> int:
    """The card `text` names from `player`'s side: their own, or with a trailing ' the other deck's."""
    if other_allowed and isinstance(text, str) and text.endswith("'"):
        return _named(text[:-1], 1 - player, field, False)
    if not isinstance(text, str):
        _fail("'%s' must be a card like \"S7\", \"HQ\", \"BJ\" (got %r)." % (field, text))
    try:
        code, pack = parse_code(text)
    except ValueError:
        code, pack = -1, 1
    if pack or not 0 <= code < L.N_CODES:
        _fail("'%s': '%s' is not a card; cards are D/S/C/H + A,2..10,J,Q,K, or BJ / LJ." % (field, text))
    return L.card_id(player, code)


def _name(card: int, player: int) -> str:
    """`card` named from `player`'s side (the inverse of `_named`)."""
    return code_text(card % L.N_CODES) + ("'" if card // L.N_CODES != player else "")


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
    m.phase = PHASES[phase]
    m.decider = _int(data.get("decider", m.active), "decider", 0, 1)
    if m.phase in (L.PH_DECLARE, L.PH_BATTLE, L.PH_DAMAGE) and m.turn == 1 and m.active == m.first \
            and not rules.p1_first_battle:
        _fail("phase '%s': the first player has no battle phase on turn 1 (D-BP-1, p1_first_battle = false)." % phase)
    _load_result(m, data)
    players = players_of(data, PLAYER_KEYS, [{}, {}])
    seen = _load_table(m, rules, players, data)
    _load_chain(m, data, seen)
    _load_decks(m, players, seen)
    _load_turn(m, data)
    _load_choice(m, data)
    for p, spec in enumerate(players):  # last: a mark may name any card on the table
        _load_marks(m, spec.get("marks", {}), p, "players[%d].marks" % p)
    for index, count in read_counters(data.get("counters", {}), L.COUNTER_NAMES).items():
        m.counters[index] = count
    if "rng" in data:
        m.rng = rng_module.PyRng(_int(data["rng"], "rng", 0, rng_module.MASK64))
    return m


def _load_result(m: Match, data: dict) -> None:
    m.winner = _int(data.get("winner", -1), "winner", -1, 1)
    m.end_type = L.END_TYPE_NAMES.index(check_choice(data.get("end_type", "none"), L.END_TYPE_NAMES, "end_type"))
    if m.phase != L.PH_OVER and (m.winner != -1 or m.end_type != L.END_NONE):
        _fail("'winner' and 'end_type' are only read in phase 'over' (a finished match).")


def _load_table(m: Match, rules: Rules, players: list, data: dict) -> dict:
    """HP, hands, fields, graveyards and the cards out of play -> where each card was listed."""
    seen: dict[int, str] = {}
    taken: list = []  # (card, field, text): the other player's cards a K took (D-AMB-60)
    low_hp = -HP_MAX if m.phase == L.PH_OVER else 1  # at HP 0 the match is over (D-WIN)
    graveyard_seqs = []
    for p, spec in enumerate(players):
        where = "players[%d]" % p
        m.hp[p] = _int(spec.get("hp", DEFAULT_HP[p]), where + ".hp", low_hp, HP_MAX)
        m.start_hp[p] = _int(spec.get("start_hp", DEFAULT_HP[p]), where + ".start_hp", 1, HP_MAX)
        for card in (_card(t, p, where + ".hand", seen, taken) for t in check_list(spec.get("hand", []), where + ".hand")):
            m.zone[card] = L.Z_HAND
        monsters = check_list(spec.get("monsters", []), where + ".monsters")
        if len(monsters) > rules.monster_zone:
            _fail("'%s.monsters' holds at most %d cards (monster_zone; got %d)." % (where, rules.monster_zone, len(monsters)))
        for slot, text in enumerate(monsters):
            if text is None:
                continue
            card = _card(text, p, where + ".monsters", seen, taken)
            if code_text(card % L.N_CODES)[1:] in ("J", "Q", "K") or card % L.N_CODES >= 52:
                _fail("'%s.monsters': %s is not a monster card (A-10, D-COMP-2)." % (where, text))
            m.zone[card], m.pos[card], m.monster[p][slot] = L.Z_MONSTER, slot, card
        back = check_list(spec.get("back_row", []), where + ".back_row")
        if len(back) > rules.back_row:
            _fail("'%s.back_row' holds at most %d cards (back_row; got %d)." % (where, rules.back_row, len(back)))
        for slot, item in enumerate(back):
            if item is None:
                continue
            text, set_turn = (item.get("card"), item.get("set_turn", m.turn - 1)) if isinstance(item, dict) else (item, m.turn - 1)
            card = _card(text, p, where + ".back_row", seen, taken)
            m.zone[card], m.pos[card], m.back[p][slot] = L.Z_BACK, slot, card
            m.set_turn[card] = _int(set_turn, where + ".back_row.set_turn", 0, m.turn)
        graveyard = check_list(spec.get("graveyard", []), where + ".graveyard")
        seqs = check_list(spec.get("graveyard_seq", [None] * len(graveyard)), where + ".graveyard_seq")
        if len(seqs) != len(graveyard):
            _fail("'%s.graveyard_seq' must give one arrival number per graveyard card (%d, got %d)."
                  % (where, len(graveyard), len(seqs)))
        for text, seq in zip(graveyard, seqs):
            card = _card(text, p, where + ".graveyard", seen)
            m.seq = m.seq + 1 if seq is None else _int(seq, where + ".graveyard_seq", 1, INT_MAX)
            m.zone[card], m.pos[card] = L.Z_GRAVE, m.seq
            graveyard_seqs.append(m.seq)
        for text in check_list(spec.get("banished", []), where + ".banished"):
            m.zone[_card(text, p, where + ".banished", seen)] = L.Z_BANISHED
    if len(set(graveyard_seqs)) != len(graveyard_seqs):
        _fail("'graveyard_seq' numbers must differ (each card arrived at its own moment).")
    m.seq = _int(data.get("seq", max(graveyard_seqs, default=0)), "seq", max(graveyard_seqs, default=0), INT_MAX)
    for card, field, text in taken:
        if rules.reading("D-AMB-60") != "k_searches_both":
            _fail("'%s': %s is the other player's card; only a K under D-AMB-60 = k_searches_both takes one."
                  % (field, text))
        m.flags[card] |= L.F_TAKEN
    return seen


def _load_decks(m: Match, players: list, seen: dict) -> None:
    """Decks last: a card listed anywhere else (the other player's hand, the chain) is in neither."""
    for p, spec in enumerate(players):
        where = "players[%d]" % p
        if "deck" in spec:
            deck = [_card(t, p, where + ".deck", seen) for t in check_list(spec["deck"], where + ".deck")]
            for card in range(p * L.N_CODES, (p + 1) * L.N_CODES):
                if card not in seen:
                    m.zone[card] = L.Z_BANISHED  # out of play
        else:
            deck = [c for c in range(p * L.N_CODES, (p + 1) * L.N_CODES) if c not in seen]
        for card in deck:
            m.zone[card] = L.Z_DECK
        m.deck[p] = deck
        for card in check_list(spec.get("new", []), where + ".new"):
            target = _field_card(card, p)
            if target < 0 or m.zone[target] != L.Z_MONSTER or m.controller(target) != p:
                _fail("'%s.new' must name monsters on that player's field (got %r)." % (where, card))
            m.flags[target] |= L.F_NEW


def _load_turn(m: Match, data: dict) -> None:
    """This turn's counts, the attack in progress and the priority loop."""
    if "uses" in data:
        uses = check_list(data["uses"], "uses")
        if len(uses) != 2 or not all(isinstance(u, list) and len(u) == 3 for u in uses):
            _fail("'uses' must be [[J, Q, K], [J, Q, K]] counts (got %r)." % (uses,))
        m.uses = [[_int(v, "uses", 0, 100) for v in u] for u in uses]
    if "turn_suit" in data:
        if data["turn_suit"] not in tuple(SUIT_LETTERS):
            _fail("'turn_suit' must be one of D, S, C, H (got %r)." % (data["turn_suit"],))
        m.turn_suit = SUIT_LETTERS.index(data["turn_suit"])
    m.new_attacks = _int(data.get("new_attacks", 0), "new_attacks", 0, INT_MAX)
    m.passes = _int(data.get("passes", 0), "passes", 0, INT_MAX)
    m.priority_owner = _int(data.get("priority_owner", 0), "priority_owner", 0, 1)
    m.redirected = _int(data.get("redirected", 0), "redirected", 0, 1)
    if "extra_attacker" in data:
        m.extra_attacker = _field_card(data["extra_attacker"], m.active)
        if m.extra_attacker < 0 or m.zone[m.extra_attacker] != L.Z_MONSTER:
            _fail("'extra_attacker' must be a monster on the field (got %r)." % (data["extra_attacker"],))
    if m.phase in (L.PH_BATTLE, L.PH_DAMAGE):
        attack = data.get("attack")
        if not isinstance(attack, dict) or "attacker" not in attack or "target" not in attack:
            _fail("phase '%s' needs 'attack': {\"attacker\": card, \"target\": card or \"player\"}." % L.PHASE_NAMES[m.phase])
    elif "attack" in data and m.phase != L.PH_OVER:
        _fail("'attack' is only read in phases battle_step, damage_step and over.")
    if "attack" not in data:
        return
    attack = check_object(data["attack"], "attack", {"attacker", "target"})
    # A card the battle step's J destroyed stays the attacker / target until the step ends (in a graveyard).
    attacker = _field_card(attack.get("attacker"), m.active)
    if attacker < 0 or not (m.zone[attacker] == L.Z_GRAVE or (m.zone[attacker] == L.Z_MONSTER
                                                            and m.controller(attacker) == m.active)):
        _fail("'attack.attacker' must be a monster of the active player (got %r)." % (attack.get("attacker"),))
    m.attacker = attacker
    m.flags[attacker] |= L.F_ATTACKED if m.zone[attacker] == L.Z_MONSTER else 0
    if attack.get("target") == "player":
        m.target = L.DIRECT_TARGET
        return
    target = _field_card(attack.get("target"), 1 - m.active)
    if target < 0 or not (m.zone[target] == L.Z_GRAVE or (m.zone[target] == L.Z_MONSTER
                                                        and m.controller(target) == 1 - m.active)):
        _fail("'attack.target' must be a monster of the other player or \"player\" (got %r)." % (attack.get("target"),))
    m.target = target


def _load_chain(m: Match, data: dict, seen: dict) -> None:
    """The chain (D-FN-8), first activated first: each card on it, its activator, escalation and
    targets. Its card is in its back-row slot when the back row lists it, else it holds none."""
    for i, item in enumerate(check_list(data.get("chain", []), "chain")):
        field = "chain[%d]" % i
        entry = check_object(item, field, CHAIN_KEYS)
        p = _int(entry.get("player"), field + ".player", 0, 1)
        card = _named(entry.get("card"), p, field + ".card")
        kind = fn_kind(card)
        if kind < 0:
            _fail("'%s.card' must be a J, Q, K or joker (got %r)." % (field, entry.get("card")))
        if card in seen and seen[card] != "players[%d].back_row" % p:
            _fail("'%s.card': %s is already in '%s'." % (field, entry.get("card"), seen[card]))
        if card not in seen:
            seen[card] = field
            m.pos[card] = -1
        if card // L.N_CODES != p:
            if m.rules.reading("D-AMB-60") != "k_searches_both":
                _fail("'%s.card': %s is the other player's card; only a K under D-AMB-60 = k_searches_both "
                      "takes one." % (field, entry.get("card")))
            m.flags[card] |= L.F_TAKEN
        m.zone[card] = L.Z_CHAIN
        targets = [_named(t, 1 - p, field + ".targets") for t in check_list(entry.get("targets", []), field + ".targets")]
        if len(targets) > L.CH_TARGETS:
            _fail("'%s.targets' names at most %d cards (got %d)." % (field, L.CH_TARGETS, len(targets)))
        m.chain.append([card, p, kind, _int(entry.get("n", 1), field + ".n", 1, 100),
                        _int(entry.get("count", len(targets)), field + ".count", 0, L.N_CODES)] + targets)
    if len(m.chain) > L.CHAIN_MAX:
        _fail("'chain' holds at most %d entries (got %d)." % (L.CHAIN_MAX, len(m.chain)))


def _load_choice(m: Match, data: dict) -> None:
    """A pending choice (`pending`, layout.PENDING_NAMES) and its details (`choice`)."""
    kind = PENDING[check_choice(data.get("pending", "none"), PENDING, "pending")]
    choice = check_object(data.get("choice", {}), "choice", CHOICE_KEYS)
    m.pend_kind = kind
    m.pend_player = _int(choice.get("player", m.decider if kind else 0), "choice.player", 0, 1)
    m.pend_max = _int(choice.get("max", 0), "choice.max", 0, INT_MAX)
    m.pend_chosen = _int(choice.get("chosen", 0), "choice.chosen", 0, INT_MAX)
    m.pend_return = PHASES[check_choice(choice.get("return", "main"), PHASES, "choice.return")]
    items = check_list(choice.get("list", []), "choice.list")
    if len(items) > L.PEND_LIST_SIZE:
        _fail("'choice.list' holds at most %d items (got %d)." % (L.PEND_LIST_SIZE, len(items)))
    if kind == L.PK_J_TARGETS:
        m.pend_list = [_int(t, "choice.list", 0, 2 * L.ZONE_SLOTS - 1) for t in items]  # field positions
    else:
        m.pend_list = [_named(t, m.pend_player, "choice.list") for t in items]
    if kind == L.PK_NONE:
        return
    needs = {L.PK_J_TARGETS: L.FN_J, L.PK_Q_COUNT: L.FN_Q, L.PK_K_PICKS: L.FN_K, L.PK_K_PLACE: L.FN_K}
    if kind in needs and not (m.chain and m.chain[-1][2] == needs[kind]):
        _fail("pending '%s' needs its card last on the 'chain'." % L.PENDING_NAMES[kind])
    if kind in (L.PK_K_PLACE, L.PK_Q_SET) and m.pend_chosen >= len(m.pend_list):
        _fail("pending '%s' needs 'choice.chosen' below the length of 'choice.list'." % L.PENDING_NAMES[kind])
    if kind == L.PK_REDIRECT and m.attacker < 0:
        _fail("pending 'redirect' needs an 'attack'.")
    if kind == L.PK_K_PICKS:  # the K-summoned monsters, remembered for the redirect (D-BS-4/5)
        m.resolving = []
    elif kind == L.PK_K_PLACE:
        m.resolving = [c for c in m.pend_list[:m.pend_chosen]
                       if m.zone[c] == L.Z_MONSTER and m.flags[c] & L.F_NEW]


def _load_marks(m: Match, marks, p: int, where: str) -> None:
    """Per-card flags, boosts (D-DS-3) and set turns, by cards named from player p's side."""
    if not isinstance(marks, dict):
        _fail("'%s' must be an object of cards to their marks (got %r)." % (where, marks))
    for text, value in marks.items():
        field = "%s.%s" % (where, text)
        card = _named(text, p, field)
        mark = check_object(value, field, MARK_KEYS)
        for name in check_list(mark.get("flags", []), field + ".flags"):
            m.flags[card] |= FLAG_NAMES[check_choice(name, FLAG_NAMES, field + ".flags")]
        m.boost[card] = _int(mark.get("boost", m.boost[card]), field + ".boost", -HP_MAX, HP_MAX)
        m.set_turn[card] = _int(mark.get("set_turn", m.set_turn[card]), field + ".set_turn", 0, m.turn)


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
    for index, text in enumerate(check_list(texts, "actions")):
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
    """The whole match as a position (JSON-ready): `load_position` of it gives the same state."""
    differences = m.rules.differences_from_default()
    rules = {k: v for k, v in differences.items() if not k.startswith("D-AMB-")}
    if any(k.startswith("D-AMB-") for k in differences):
        rules["ambiguities"] = {k: v for k, v in differences.items() if k.startswith("D-AMB-")}
    out = {"rules": rules} if rules else {}
    out.update({"turn": m.turn, "active": m.active, "first": m.first, "phase": L.PHASE_NAMES[m.phase],
                "decider": m.decider, "pending": L.PENDING_NAMES[m.pend_kind], "winner": m.winner,
                "end_type": L.END_TYPE_NAMES[m.end_type], "rng": m.rng.state, "seq": m.seq,
                "uses": [list(u) for u in m.uses]})
    if m.pend_kind or m.pend_player or m.pend_max or m.pend_chosen or m.pend_return or m.pend_list:
        out["choice"] = {"player": m.pend_player, "max": m.pend_max, "chosen": m.pend_chosen,
                         "return": L.PHASE_NAMES[m.pend_return],
                         "list": list(m.pend_list) if m.pend_kind == L.PK_J_TARGETS
                         else [_name(c, m.pend_player) for c in m.pend_list]}
    if m.turn_suit >= 0:
        out["turn_suit"] = SUIT_LETTERS[m.turn_suit]
    if m.attacker >= 0:
        out["attack"] = {"attacker": _name(m.attacker, m.active),
                         "target": "player" if m.target == L.DIRECT_TARGET else _name(m.target, 1 - m.active)}
    for key, value in (("new_attacks", m.new_attacks), ("passes", m.passes), ("priority_owner", m.priority_owner),
                       ("redirected", m.redirected)):
        if value:
            out[key] = value
    if m.extra_attacker >= 0:
        out["extra_attacker"] = _name(m.extra_attacker, m.active)
    if m.chain:
        out["chain"] = [{"card": _name(e[0], e[1]), "player": e[1], "n": e[3], "count": e[4],
                         "targets": [_name(c, 1 - e[1]) for c in e[5:]]} for e in m.chain]
    counters = {name: m.counters[i] for i, name in enumerate(L.COUNTER_NAMES) if m.counters[i]}
    if counters:
        out["counters"] = counters
    out["players"] = [_dump_player(m, p) for p in (0, 1)]
    if legal:
        out["legal"] = [A.to_text(a) for a in m.legal_actions()]
    return out


def _dump_player(m: Match, p: int) -> dict:
    """One player's table: every card they control (deck bottom to top) and their cards' marks."""
    def slot(card, with_turn):
        if card < 0:
            return None
        if with_turn and m.set_turn[card] != m.turn - 1:
            return {"card": _name(card, p), "set_turn": m.set_turn[card]}
        return _name(card, p)

    player = {"hp": m.hp[p], "start_hp": m.start_hp[p], "hand": [_name(c, p) for c in sorted(m.hand(p))],
              "monsters": [slot(c, False) for c in m.monster[p][:m.rules.monster_zone]],
              "back_row": [slot(c, True) for c in m.back[p][:m.rules.back_row]],
              "graveyard": [_name(c, p) for c in m.graveyard(p)],
              "graveyard_seq": [m.pos[c] for c in m.graveyard(p)],
              "deck": [_name(c, p) for c in m.deck[p]]}
    banished = [_name(c, p) for c in range(p * L.N_CODES, (p + 1) * L.N_CODES) if m.zone[c] == L.Z_BANISHED]
    if banished:
        player["banished"] = banished
    in_back_row = set(m.back[p][:m.rules.back_row])
    marks = {}
    for card in range(L.N_CARDS):
        if m.controller(card) != p:
            continue
        mark = {}
        flags = [name for name, bit in FLAG_NAMES.items() if m.flags[card] & bit]
        if flags:
            mark["flags"] = flags
        if m.boost[card]:
            mark["boost"] = m.boost[card]
        if m.set_turn[card] and card not in in_back_row:
            mark["set_turn"] = m.set_turn[card]
        if mark:
            marks[_name(card, p)] = mark
    if marks:
        player["marks"] = marks
    return player


def run_scenario(path, legal: bool = False):
    """`cardbalance scenario --game poker_duel FILE` -> (position dict, event lines)."""
    data = read_position(Path(path))
    m = load_position(data)
    events: list[str] = []
    apply_texts(m, data.get("actions", []), events)
    return dump_position(m, legal), events
