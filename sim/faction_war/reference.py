"""The Faction War reference engine: plain Python, one method per rule.

This is the executable spec. It reads the rules object directly
(`rules.reading("FA-3")`), keeps the table in plain dictionaries keyed by
card id, and narrates every step into `events` (the play log). It is slow on
purpose: clarity first. The numba kernel (`kernel.py`) must match it step for
step; `to_array()` packs this engine's state into the kernel's layout so the
differential test can compare the two after every action. Both follow
`docs/engine-contract.md`.
"""

from __future__ import annotations

from sim import rng as rng_module
from sim.cards import (BIG_JOKER, CLUB, DIAMOND, HEART, JACK, SPADE, is_face, is_normal, rank_of,
                       suit_of)
from sim.errors import IllegalActionError
from sim.faction_war import actions as A
from sim.faction_war import layout as L
from sim.faction_war.layout import fill_masks
from sim.faction_war.reference_alien import AlienRules
from sim.faction_war.reference_choices import ChoiceRules
from sim.faction_war.reference_human import HumanRules
from sim.faction_war.reference_jokers import JokerRules
from sim.faction_war.rules import Rules

ROW_OF_SUIT = {DIAMOND: 0, SPADE: 1, CLUB: 2}
FIELD_ROWS = (L.Z_ROW0, L.Z_ROW1, L.Z_ROW2)


class Match(HumanRules, AlienRules, JokerRules, ChoiceRules):
    """One match. Create with `Match.new(...)`; then `legal_actions()` / `apply()`.

    The core turn structure, placement and attacks live here; faction rules
    come from the mixins (`reference_human.HumanRules`, `reference_alien.AlienRules`,
    `reference_jokers.JokerRules`, the FA-4/FA-6 decisions `reference_choices.ChoiceRules`).
    """

    def __init__(self, rules: Rules):
        self.rules = rules
        self.rng = rng_module.PyRng(0)
        self.turn = 1
        self.active = 0
        self.first = 0
        self.phase = L.PH_PLACEMENT
        self.decider = 0
        self.winner = -1
        self.end_type = L.END_NONE
        self.seq = 1
        self.life = [0, 0]
        self.start_life = [0, 0]
        self.faction = [L.HUMAN, L.HUMAN]
        # per-turn usage (F-PLC-1, F-PLC-3, later effects)
        self.normal_placed: set[int] = set()
        self.face_placed: set[int] = set()
        self.hearts_used = 0
        self.extra_used = 0
        self.pairs_used: set[int] = set()
        self.j_used: set[int] = set()
        self.k_used: set[int] = set()
        self.k_spent: set[int] = set()  # bits of S_K_SPENT
        self.pending = [0] * L.N_PENDING
        self.counters = [0] * L.N_COUNTERS
        # the table: decks bottom-first (top = last), and per-card facts
        self.deck: list[list[int]] = [[], []]
        self.zone: dict[int, int] = {}
        self.ctrl: dict[int, int] = {}
        self.order: dict[int, int] = {}
        self.arrival: dict[int, int] = {}
        self.events: list[str] = []
        # Memo of table queries, emptied on every card movement (`_touch`): the
        # rules read rows far more often than cards move.
        self._memo: dict = {}

    # ---- set-up (F-SET) --------------------------------------------------------
    @classmethod
    def new(cls, rules: Rules, faction0: int, faction1: int, life0: int, life1: int,
            first: int, seed: int) -> "Match":
        """F-SET-1..3: lives, shuffled decks (FA-34 packs), opening hands, first turn."""
        match = cls(rules)
        match.rng = rng_module.PyRng(seed)
        match.active = match.first = first
        match.life = [life0, life1]
        match.start_life = [life0, life1]
        match.faction = [faction0, faction1]
        packs = 2 if rules.reading("FA-34") == "two" else 1
        for player in (0, 1):
            for pack in range(packs):
                for code in range(54):
                    card = L.card_id(player, pack, code)
                    match.deck[player].append(card)
                    match.zone[card] = L.Z_DECK
                    match.ctrl[card] = player
                    match.order[card] = 0
                    match.arrival[card] = 0
            match._shuffle(player)
        match.events.append("p%d moves first; life %d / %d" % (first, life0, life1))
        for player in (first, 1 - first):
            hand = [match._draw_one(player) for _ in range(rules.opening_hand)]
            match.events.append("p%d opening hand: %s" % (player, " ".join(A.card_text(c, player) for c in hand)))
        match._begin_turn()
        return match

    def _shuffle(self, player: int) -> None:
        """Fisher-Yates over the player's deck with the match generator."""
        deck = self.deck[player]
        for i in range(len(deck) - 1, 0, -1):
            j = self.rng.below(i + 1)
            deck[i], deck[j] = deck[j], deck[i]

    def _draw_one(self, player: int) -> int:
        card = self.deck[player].pop()
        self._move(card, L.Z_HAND, player)
        return card

    # ---- queries ---------------------------------------------------------------
    def cards_in(self, zone: int, ctrl: int) -> list[int]:
        """Cards in a zone of a player, ascending card id."""
        key = ("in", zone, ctrl)
        if key not in self._memo:
            self._memo[key] = sorted(c for c, z in self.zone.items() if z == zone and self.ctrl[c] == ctrl)
        return list(self._memo[key])

    def hand(self, player: int) -> list[int]:
        return self.cards_in(L.Z_HAND, player)

    def row(self, player: int, row: int) -> list[int]:
        return self.cards_in(L.Z_ROW0 + row, player)

    def normals_in_row(self, player: int, row: int) -> list[int]:
        return [c for c in self.row(player, row) if is_normal(L.card_code(c))]

    def faces_in_row(self, player: int, row: int) -> list[int]:
        return [c for c in self.row(player, row) if is_face(L.card_code(c))]

    def has_big_joker(self, player: int, row: int) -> bool:
        return any(L.card_code(c) == BIG_JOKER for c in self.row(player, row))

    @staticmethod
    def original_number(card: int) -> int:
        return rank_of(L.card_code(card))

    def effective_number(self, card: int) -> int:
        """F-CARD-4: the number effects read: after Polymorph (F-HUJ-1) on the field."""
        zone = self.zone[card]
        if zone in FIELD_ROWS and is_normal(L.card_code(card)):
            return self.polymorphed_number(card, zone - L.Z_ROW0)
        return self.original_number(card)

    def row_sum(self, player: int, row: int) -> int:
        """F-ATK-3: sum of the effective numbers of the row's normal cards."""
        return sum(self.effective_number(c) for c in self.normals_in_row(player, row))

    def occupied(self, player: int, row: int) -> bool:
        """FA-8: what makes a row a target for F-TGT."""
        reading = self.rules.reading("FA-8")
        cards = self.row(player, row)
        if reading == "any_card":
            return bool(cards)
        has_normal = any(is_normal(L.card_code(c)) for c in cards)
        if reading == "normal_only":
            return has_normal
        return has_normal or self.has_big_joker(player, row)

    def is_over(self) -> bool:
        return self.phase == L.PH_OVER

    # ---- turn structure (F-TURN) -------------------------------------------------
    def _begin_turn(self) -> None:
        """F-TURN-1: reset per-turn usage, turn cap, preparation, draw, placement."""
        self.normal_placed.clear()
        self.face_placed.clear()
        self.hearts_used = 0
        self.extra_used = 0
        self.pairs_used.clear()
        self.j_used.clear()
        self.k_used.clear()
        if self.turn > self.rules.turn_cap:
            self.events.append("turn cap %d reached: draw" % self.rules.turn_cap)
            self._end(2, L.END_TURN_CAP)
            return
        self.events.append("-- turn %d: p%d (life %d / %d)" % (self.turn, self.active, *self.life))
        self._preparation(self.active)

    def _hand_check_candidates(self) -> list[int]:
        """FA-1: whose hand the preparation phase checks, in order."""
        if self.rules.reading("FA-1") == "both":
            return [self.active, 1 - self.active]
        return [self.active]

    def _preparation(self, start_with: int) -> None:
        """F-TURN-2: a candidate holding hand_limit_trigger+ cards discards down."""
        candidates = self._hand_check_candidates()
        for player in candidates[candidates.index(start_with):]:
            if len(self.hand(player)) >= self.rules.hand_limit_trigger:
                self.phase = L.PH_DISCARD
                self.decider = player
                return
        self._after_hand_check()

    def _after_hand_check(self) -> None:
        """F-TURN-5 / FA-4: mandatory effects after the hand check, then the draw phase."""
        reading = self.rules.reading("FA-4")
        if reading == "preparation":
            # the effects, then the draw phase unless they ended the match (F-WIN-3: e.g.
            # Deep-Sea Era reached by a Self-Destruct) or wait for a FA-6 "choice" pick
            self._resume_mandatory(0, L.STAGE_BEFORE_DRAW)
            return
        if reading == "choice" and self.mandatory_effect_due(self.active):
            self._open_timing()  # the turn player decides: now or after the draw
            return
        self._draw_phase()

    def _draw_phase(self) -> None:
        """F-TURN-3 with FA-2 (first turn) and FA-3 (short deck)."""
        player = self.active
        count = self.rules.draws_per_turn
        if self.turn == 1 and self.rules.reading("FA-2") == "skip":
            count = 0
        if len(self.deck[player]) < count:
            reading = self.rules.reading("FA-3")
            if reading == "lose":
                self.events.append("p%d cannot draw %d cards: loses (deck out)" % (player, count))
                self._end(1 - player, L.END_DECK_OUT)
                return
            if reading == "draw":
                self.events.append("p%d cannot draw %d cards: the match is a draw" % (player, count))
                self._end(2, L.END_DECK_OUT_DRAW)
                return
            count = len(self.deck[player])
        drawn = [self._draw_one(player) for _ in range(count)]
        if drawn:
            self.events.append("p%d draws %s" % (player, " ".join(A.card_text(c, player) for c in drawn)))
        self.phase = L.PH_PLACEMENT
        self.decider = player
        if self.rules.reading("FA-4") == "placement_start":
            self._mandatory_effects(0, L.STAGE_AFTER_DRAW)

    def _end_turn(self) -> None:
        self.turn += 1
        self.active = 1 - self.active
        self._begin_turn()

    def _end(self, winner: int, end_type: int) -> None:
        self.phase = L.PH_OVER
        self.winner = winner
        self.end_type = end_type

    # ---- legal actions ------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        """Every legal action in ascending integer order; none when over."""
        if self.phase == L.PH_OVER:
            return []
        if self.pending[L.P_KIND] != L.PENDING_NONE:  # also FA-4/FA-6 decisions at preparation
            return sorted(self._pending_actions())
        if self.phase == L.PH_DISCARD:
            return sorted(A.encode(A.DISCARD, c) for c in self.hand(self.decider))
        if self.phase == L.PH_PLACEMENT:
            return sorted([A.encode(A.END)] + self._placement_actions() + self._dispel_actions()
                          + self._alien_actions() + self._joker_actions())
        return sorted([A.encode(A.END)] + self._attack_actions())

    def _placement_actions(self) -> list[int]:
        """F-PLC-1..5: normal cards one per row per turn, face cards one per row per turn."""
        player = self.decider
        out = []
        for card in self.hand(player):
            code = L.card_code(card)
            suit = suit_of(code)
            if is_normal(code):
                rows = (0, 1) if suit == HEART else (ROW_OF_SUIT[suit],)
                out += [A.encode(A.PLACE_NORMAL, card, r) for r in rows if r not in self.normal_placed]
            elif is_face(code) and suit != HEART:
                row = ROW_OF_SUIT[suit]
                if row in self.face_placed:
                    continue
                faces = self.faces_in_row(player, row)
                if len(faces) < self.rules.face_cards_per_row:
                    out.append(A.encode(A.PLACE_FACE, card, A.NONE))
                else:
                    out += [A.encode(A.PLACE_FACE, card, old) for old in faces]
        return out

    def attack_targets(self, player: int, row: int) -> list[int]:
        """F-TGT-1..3: which defender rows (or DIRECT) own row `row` may attack."""
        defender = 1 - player
        o0, o1, o2 = (self.occupied(defender, r) for r in range(3))
        if not (o0 or o1 or o2):
            return [L.DIRECT]
        if row == 0:  # F-TGT-1
            return [0] if o0 else [1] if o1 else [2]
        if row == 1:  # F-TGT-2
            if o0:
                return [0, 1] if o1 else [0]
            return [1] if o1 else []
        # F-TGT-3
        if o0:
            return [0]
        return [2] if o2 else []

    def _attack_actions(self) -> list[int]:
        """F-SET-4, F-ATK-1..3, F-TGT, FA-7."""
        player = self.active
        if self.turn == 1:  # F-SET-4: the first player's first turn
            return []
        out = []
        for row in range(3):
            joker = self.has_big_joker(player, row)
            if not joker and not self.normals_in_row(player, row):  # F-ATK-2
                continue
            attack_sum = self.row_sum(player, row)
            for target in self.attack_targets(player, row):
                if target == L.DIRECT:
                    out.append(A.encode(A.ATTACK, row, target))
                    continue
                defender_normals = self.normals_in_row(1 - player, target)
                if not defender_normals and self.rules.reading("FA-7") == "not_allowed":
                    continue
                if joker or attack_sum > self.row_sum(1 - player, target):
                    out.append(A.encode(A.ATTACK, row, target))
        return out

    def _pending_actions(self) -> list[int]:
        """Legal actions while a multi-step decision is open (layout PENDING_*)."""
        kind = self.pending[L.P_KIND]
        if kind == L.PENDING_SPECIAL:
            return self._special_actions()
        if kind in (L.PENDING_K1_ANSWER, L.PENDING_K3_ANSWER):
            return self._answer_actions()
        if kind == L.PENDING_RESPOND:
            return [A.encode(A.RESPOND_SMALL_JOKER, 0), A.encode(A.RESPOND_SMALL_JOKER, 1)]
        if kind == L.PENDING_TIMING:
            return [A.encode(A.MANDATORY_TIMING, 0), A.encode(A.MANDATORY_TIMING, 1)]
        if kind == L.PENDING_TIE:
            return self._tie_actions()
        return [A.encode(A.DUEL, 0), A.encode(A.DUEL, 1)]

    # ---- applying actions ------------------------------------------------------------
    def apply(self, action: int) -> None:
        """Apply one legal action; IllegalActionError names it otherwise."""
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError("action '%s' is not legal for p%d here; legal: %s." % (
                A.to_text(action, self.decider), self.decider,
                ", ".join(A.to_text(a, self.decider) for a in legal) or "none (the match is over)"))
        kind, a, b, c = A.decode(action)
        # a FA-6 "choice" pick of an attack's victim completes that attack
        completes_attack = kind == A.TIE_PICK and self.pending[L.P_TIE_SITE] == L.TIE_SITE_ATTACK
        if kind == A.END and self.pending[L.P_KIND] == L.PENDING_SPECIAL:
            self._decline_special()
        elif kind == A.DISCARD:
            self._discard(a)
        elif kind == A.PLACE_NORMAL:
            self._place_normal(a, b)
        elif kind == A.PLACE_FACE:
            self._place_face(a, b)
        elif kind == A.DISPEL:
            self._dispel(a, b, c)
        elif kind == A.EXTRA_PLACE:
            self._extra_place(a)
        elif kind == A.EXTRA_PAIR:
            self._extra_pair(a, b)
        elif kind == A.ALIEN_J_MOVE:
            self._j_move(a)
        elif kind == A.SPECIAL_PICK:
            self._special_pick(a, b)
        elif kind == A.K_ACTIVATE:
            self._k_activate(a, b, c)
        elif kind == A.K_ANSWER:
            self._k_answer(a)
        elif kind == A.PLACE_BIG_JOKER:
            self._place_big_joker(a, b)
        elif kind == A.SMALL_JOKER:
            self._use_small_joker(a)
        elif kind == A.RESPOND_SMALL_JOKER:
            self._respond(a)
        elif kind == A.DUEL:
            self._duel_choice(a)
        elif kind == A.MANDATORY_TIMING:
            self._apply_timing(a)
        elif kind == A.TIE_PICK:
            self._apply_tie(a)
        elif kind == A.END and self.phase == L.PH_PLACEMENT:
            self.phase = L.PH_ATTACK
        elif kind == A.END:
            self.events.append("p%d does not attack" % self.active)
            self._end_turn()
        elif kind == A.ATTACK:
            self._attack(a, b)
        # FA-29 "after_action": once after the action; an effect stopped for a FA-6 pick
        # is checked when the pick completes it
        if self.rules.reading("FA-29") == "after_action" and self.pending[L.P_KIND] != L.PENDING_TIE:
            self._check_life()
        # F-ATK-1: one attack per turn; the turn ends once it (and any duel or pick) is resolved
        if ((kind in (A.ATTACK, A.DUEL) or completes_attack) and self.phase != L.PH_OVER
                and self.pending[L.P_KIND] == L.PENDING_NONE):
            self._end_turn()

    def _discard(self, card: int) -> None:
        """F-TURN-2: one discard; then the next candidate or the draw phase."""
        player = self.decider
        self._move(card, L.Z_GRAVE, L.card_owner(card))
        self.counters[L.CT_DISCARDS] += 1
        self.events.append("p%d discards %s" % (player, A.card_text(card, player)))
        if len(self.hand(player)) > self.rules.hand_limit_target:
            return
        candidates = self._hand_check_candidates()
        position = candidates.index(player)
        if position + 1 < len(candidates):
            self._preparation(candidates[position + 1])
        else:
            self._after_hand_check()

    def _place_normal(self, card: int, row: int) -> None:
        """F-PLC-1, F-PLC-2."""
        player = self.decider
        self._enter_row(card, player, row)
        self.normal_placed.add(row)
        self.events.append("p%d places %s in %s (sum %d)%s" % (
            player, A.card_text(card, player), A.row_text(row), self.row_sum(player, row),
            self._placed_under_polymorph(player, card, row)))
        self._check_destiny(player)

    def _place_face(self, card: int, displaced: int) -> None:
        """F-PLC-3, F-PLC-5: a full row first loses the displaced face card."""
        player = self.decider
        row = ROW_OF_SUIT[suit_of(L.card_code(card))]
        if displaced != A.NONE:
            self.counters[L.CT_FACE_DISPLACED] += 1
            self.events.append("p%d displaces %s" % (player, A.card_text(displaced, player)))
            self._leave_field(displaced)
        self._enter_row(card, player, row)
        self.face_placed.add(row)
        human_jack = rank_of(L.card_code(card)) == JACK and self.is_human(player)
        self.events.append("p%d places face card %s in %s%s" % (player, A.card_text(card, player), A.row_text(row),
                                                               self._polymorph_reason(player, row) if human_jack else ""))
        if human_jack:
            self.counters[L.CT_POLYMORPH_PLACED] += 1
        self._check_destiny(player)

    def _attack(self, row: int, target: int) -> None:
        """F-ATK-3..7, F-TGT-4 (doubling); big-joker rows: F-JOK-2, the duel, the joker attacks."""
        player, defender = self.active, 1 - self.active
        self.counters[L.CT_ATTACKS] += 1
        attack_sum = self.row_sum(player, row)
        joker = self.big_joker_in(player, row)
        if target == L.DIRECT:
            self.counters[L.CT_DIRECT_ATTACKS] += 1
            self.events.append("p%d attacks p%d directly with %s (sum %d)" % (player, defender, A.row_text(row), attack_sum))
        else:
            self.events.append("p%d attacks p%d %s with %s: %d vs %d" % (
                player, defender, A.row_text(target), A.row_text(row), attack_sum, self.row_sum(defender, target)))
        if joker is not None:
            if target != L.DIRECT and self.big_joker_in(defender, target) is not None:
                self._open_duel(row, target)  # F-JOK-D-1
                return
            self._joker_attack(row, target)
            if self.pending[L.P_KIND] != L.PENDING_TIE:  # else after the victim pick (FA-6)
                self._after_attack(row)
        elif target == L.DIRECT:  # F-ATK-7
            self._damage(defender, attack_sum)
        else:
            self._plain_row_hit(row, target)

    def _plain_row_hit(self, row: int, target: int) -> None:
        """F-ATK-4..6 on the defender's row: the smallest normal card leaves, damage (doubled)."""
        defender = 1 - self.active
        if not self.normals_in_row(defender, target):  # F-ATK-6, FA-7
            self.counters[L.CT_EMPTY_ROW_HITS] += 1
            if self.rules.reading("FA-7") == "faces_lost":
                for face in self.faces_in_row(defender, target):
                    self._leave_field(face)
            self.events.append("  the row has no normal card: no damage")
            return
        # F-ATK-4, F-ATK-5; None: the attacker picks among tied cards first (FA-6 "choice")
        victim = self.choose_card(target, 1 << defender, -1, False, L.TIE_SITE_ATTACK, row)
        if victim is not None:
            self._row_hit_with(row, target, victim)

    def _row_hit_with(self, row: int, target: int, victim: int) -> None:
        """F-ATK-4 with the victim chosen: it leaves the field, the defender takes its number."""
        defender = 1 - self.active
        damage = self.effective_number(victim)
        if row == 0 and target == 2:  # F-TGT-1 / F-TGT-4
            damage *= 2
            self.counters[L.CT_DOUBLED_ATTACKS] += 1
        self.events.append("  %s leaves the field%s" % (A.card_text(victim, defender), self._exile_reason(victim, row)))
        self._leave_field(victim, attacker_row=row)
        self._damage(defender, damage)

    # ---- card movement and life ------------------------------------------------------
    def _touch(self) -> None:
        self._memo.clear()

    def _set_ctrl(self, card: int, player: int) -> None:
        """A card changes sides on the field (stolen, swapped, split): same row index."""
        self.ctrl[card] = player
        self._touch()

    def _move(self, card: int, zone: int, ctrl: int) -> None:
        self._touch()
        self.zone[card] = zone
        self.ctrl[card] = ctrl
        if zone not in FIELD_ROWS and zone != L.Z_EXTRA:
            self.order[card] = 0
            self.arrival[card] = 0

    def _enter_row(self, card: int, player: int, row: int) -> None:
        self._move(card, L.Z_ROW0 + row, player)
        self.order[card] = self.seq
        self.seq += 1
        self.arrival[card] = self.turn

    def _leave_field(self, card: int, attacker_row=None) -> None:
        """F-ZONE-4 / FA-14: to the owner's graveyard (or the controller's), unless an
        Abyss row exiles it (F-ALQ-1); then the Human penalty (F-HUP-1)."""
        from_zone, from_ctrl = self.zone[card], self.ctrl[card]
        if self._leave_destination(card, attacker_row) == L.Z_EXILE:
            self._exile(card, from_zone, from_ctrl)
        else:
            pile_owner = L.card_owner(card) if self.rules.reading("FA-14") == "owner" else from_ctrl
            self._move(card, L.Z_GRAVE, pile_owner)
        self._face_left_field(card)

    def _damage(self, player: int, amount: int) -> None:
        self.life[player] -= amount
        self.events.append("  p%d takes %d: life %d / %d" % (player, amount, *self.life))
        if self.rules.reading("FA-29") == "each_step":
            self._check_life()

    def _damage_both(self, amounts: list[int]) -> None:
        """One step that hurts both players at once (F-JOK-A-2); checked together (F-WIN-2)."""
        for player in (0, 1):
            self.life[player] -= amounts[player]
        self.events.append("  both take damage: life %d / %d" % tuple(self.life))
        if self.rules.reading("FA-29") == "each_step":
            self._check_life()

    def _check_life(self) -> None:
        """F-WIN-1, F-WIN-2 with FA-24."""
        if self.phase == L.PH_OVER:
            return
        dead0, dead1 = self.life[0] <= 0, self.life[1] <= 0
        if dead0 and dead1:
            reading = self.rules.reading("FA-24")
            if reading == "draw":
                self._end(2, L.END_DOUBLE_KO)
            elif reading == "turn_player_wins":
                self._end(self.active, L.END_LIFE)
            else:
                self._end(1 - self.active, L.END_LIFE)
        elif dead0 or dead1:
            self._end(1 if dead0 else 0, L.END_LIFE)
        if self.phase == L.PH_OVER:
            self.events.append("match over: %s" % self.outcome_text())

    def outcome_text(self) -> str:
        from sim.faction_war.layout import END_NAMES
        if self.winner == 2:
            return "draw (%s) on turn %d" % (END_NAMES[self.end_type], self.turn)
        return "p%d wins (%s) on turn %d" % (self.winner, END_NAMES[self.end_type], self.turn)

    # ---- packing into the kernel layout ------------------------------------------------
    def to_array(self):
        """This state in the kernel's layout (`layout.py`), for the differential test."""
        import numpy as np
        state = np.zeros(L.STATE_SIZE, dtype=np.int64)
        state[L.S_RNG] = rng_module.to_signed(self.rng.state)
        state[L.S_TURN] = self.turn
        state[L.S_ACTIVE] = self.active
        state[L.S_FIRST] = self.first
        state[L.S_PHASE] = self.phase
        state[L.S_DECIDER] = self.decider
        state[L.S_WINNER] = self.winner
        state[L.S_END_TYPE] = self.end_type
        state[L.S_SEQ] = self.seq
        for p in (0, 1):
            state[L.S_LIFE + p] = self.life[p]
            state[L.S_FACTION + p] = self.faction[p]
            state[L.S_START_LIFE + p] = self.start_life[p]
            state[L.S_DECK_COUNT + p] = len(self.deck[p])
            start = L.S_DECK + p * L.CARDS_PER_PLAYER
            state[start:start + len(self.deck[p])] = self.deck[p]
        state[L.S_NORMAL_PLACED] = sum(1 << r for r in self.normal_placed)
        state[L.S_FACE_PLACED] = sum(1 << r for r in self.face_placed)
        state[L.S_HEARTS_USED] = self.hearts_used
        state[L.S_EXTRA_USED] = self.extra_used
        state[L.S_PAIRS_USED] = sum(1 << z for z in self.pairs_used)
        state[L.S_J_USED] = sum(1 << r for r in self.j_used)
        state[L.S_K_USED] = sum(1 << r for r in self.k_used)
        state[L.S_K_SPENT] = sum(1 << bit for bit in self.k_spent)
        state[L.S_PENDING:L.S_PENDING + L.N_PENDING] = self.pending
        state[L.S_COUNTERS:L.S_COUNTERS + L.N_COUNTERS] = self.counters
        cards = np.fromiter(self.zone.keys(), dtype=np.int64, count=len(self.zone))
        for base, table in ((L.C_ZONE, self.zone), (L.C_CTRL, self.ctrl), (L.C_ORDER, self.order),
                            (L.C_ARRIVAL, self.arrival)):
            state[base + cards] = np.fromiter((table[c] for c in self.zone), dtype=np.int64, count=len(cards))
        return fill_masks(state)
