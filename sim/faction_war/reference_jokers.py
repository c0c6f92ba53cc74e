"""Reference engine, part 4: jokers of both factions (§7, F-JOK-*).

A mixin of `reference.Match`. Big jokers are placed (PLACE_BIG_JOKER), the
small joker is used in the own placement phase (SMALL_JOKER) or in answer to
the opponent's big joker (a RESPOND_SMALL_JOKER decision of the opponent,
taken in the middle of the placer's turn), and a big-joker row attacking the
opponent's big-joker row starts a duel: DUEL decisions, attacker first.
"""

from __future__ import annotations

from sim.cards import BIG_JOKER, HEART, SMALL_JOKER, is_face, is_joker, is_normal, rank_of, suit_of
from sim.faction_war import actions as A
from sim.faction_war import layout as L

JOKER_DUEL_DAMAGE = 10  # F-JOK-D-1
ABYSS_HEAL = 10  # F-JOK-A-4
RESPONSE_COST = 5  # F-JOK-S-2
DIRECT_EXILE_CARDS = 5  # F-JOK-A-3


class JokerRules:
    """Big jokers, small jokers and the joker duel."""

    # ---- queries ---------------------------------------------------------------------
    def big_joker_in(self, player: int, row: int):
        for card in self.row(player, row):
            if L.card_code(card) == BIG_JOKER:
                return card
        return None

    def big_joker_on_field(self, player: int):
        """(card, row) of the player's big joker on the field, or (None, -1)."""
        for row in range(3):
            card = self.big_joker_in(player, row)
            if card is not None:
                return card, row
        return None, -1

    def hand_jokers(self, player: int, code: int) -> list[int]:
        return [c for c in self.hand(player) if L.card_code(c) == code]

    # ---- placement-phase actions -------------------------------------------------------------
    def _joker_actions(self) -> list[int]:
        """F-JOK-1, F-JOK-H-1, F-JOK-A-1 placements; F-JOK-S-1 own-turn use."""
        player = self.decider
        out = []
        if self.big_joker_on_field(player)[0] is None:
            for card in self.hand_jokers(player, BIG_JOKER):
                for row in range(3):
                    if self.is_alien(player) and not self.normals_in_row(player, row):
                        continue  # F-JOK-A-1: only next to an own normal card
                    out.append(A.encode(A.PLACE_BIG_JOKER, card, row))
        if self.big_joker_on_field(1 - player)[0] is not None:
            out += [A.encode(A.SMALL_JOKER, card) for card in self.hand_jokers(player, SMALL_JOKER)]
        return out

    def _place_big_joker(self, card: int, row: int) -> None:
        player = self.decider
        self._enter_row(card, player, row)
        self.counters[L.CT_BIG_JOKER_PLACED] += 1
        self.events.append("p%d places the big joker in %s" % (player, A.row_text(row)))
        responder = 1 - player
        if self.hand_jokers(responder, SMALL_JOKER):  # F-JOK-S-2: the opponent may answer now
            self.pending[L.P_KIND] = L.PENDING_RESPOND
            self.pending[L.P_PLAYER] = responder
            self.pending[L.P_OWNER] = player
            self.decider = responder

    def _use_small_joker(self, card: int) -> None:
        """F-JOK-S-1 in the own placement phase: no cost."""
        player = self.decider
        self.counters[L.CT_SMALL_JOKER_USED] += 1
        self.events.append("p%d uses the small joker (destroys the opponent's big joker and the face cards of its row, "
                           "F-JOK-S-1; free in one's own placement, F-JOK-S-2)" % player)
        self._small_joker_strike(player, card)

    def _small_joker_strike(self, user: int, card: int) -> None:
        """Destroy the opponent's big joker and the face cards of its row; the small joker is spent."""
        joker, row = self.big_joker_on_field(1 - user)
        self._move(card, L.Z_GRAVE, user)
        self._destroy_big_joker(joker, row)

    def _respond(self, use: int) -> None:
        """F-JOK-S-2: the answer to the opponent's big joker (use costs 5)."""
        responder, placer = self.pending[L.P_PLAYER], self.pending[L.P_OWNER]
        self._clear_pending(placer)
        if not use:
            self.events.append("p%d lets the big joker stand" % responder)
            return
        self.counters[L.CT_SMALL_JOKER_RESPONSES] += 1
        self.events.append("p%d answers with the small joker (destroys the big joker just placed and the face cards of "
                           "its row, F-JOK-S-1; in answer it costs %d life, F-JOK-S-2)" % (responder, RESPONSE_COST))
        self._small_joker_strike(responder, self.hand_jokers(responder, SMALL_JOKER)[0])
        self._damage(responder, RESPONSE_COST)

    def _destroy_big_joker(self, joker: int, row: int) -> None:
        """A big joker leaves the field with the face cards of its row (F-JOK-S-1, F-JOK-D-1)."""
        owner = self.ctrl[joker]
        self.events.append("  p%d's big joker is destroyed" % owner)
        self._joker_leaves(joker)
        for face in self.faces_in_row(owner, row):
            self._leave_field(face)

    def _joker_leaves(self, joker: int) -> None:
        """F-JOK-A-4: an Alien big joker is exiled and heals its owner 10; a Human one is buried."""
        owner = L.card_owner(joker)
        if self.is_alien(owner):
            self._exile(joker, self.zone[joker], self.ctrl[joker])
            self._heal(owner, ABYSS_HEAL, "its Abyss joker left the field for the exile zone, F-JOK-A-4")
        else:
            self._move(joker, L.Z_GRAVE, owner)

    # ---- attacks -----------------------------------------------------------------------------------
    def _joker_attack(self, row: int, target: int) -> None:
        """F-JOK-H-1/2, F-JOK-A-2/3: the attack of a big-joker row (it always succeeds)."""
        player, defender = self.active, 1 - self.active
        if self.is_human(player):
            if target == L.DIRECT:  # F-JOK-H-2, FA-21
                scope = (0, 1) if self.rules.reading("FA-21") == "all" else (defender,)
                faces = sorted(c for p in scope for r in range(3) for c in self.faces_in_row(p, r))
                self.events.append("  the Holy Grail strikes directly: every face card is destroyed (no damage; "
                                   "whose face cards: FA-21 \"%s\", F-JOK-H-2)" % self.rules.reading("FA-21"))
                for face in faces:
                    self._leave_field(face)
                return
            for face in self.faces_in_row(defender, target):  # F-JOK-H-1
                self._leave_field(face)
            self._plain_row_hit(row, target)
            return
        if target == L.DIRECT:
            self._abyss_direct(defender)
        else:
            self._abyss_row_hit(row, target)

    def _abyss_row_hit(self, row: int, target: int) -> None:
        """F-JOK-A-2 with FA-22 and FA-25: exile the row, then each takes their exile sum."""
        defender = 1 - self.active
        if self.rules.reading("FA-22") == "also" and self.normals_in_row(defender, target):
            self._plain_row_hit(row, target)
            if self.phase == L.PH_OVER or self.pending[L.P_KIND] == L.PENDING_TIE:
                return  # over, or the attacker picks the victim first (FA-6 "choice")
        self._abyss_exile_row(row, target)

    def _abyss_exile_row(self, row: int, target: int) -> None:
        """F-JOK-A-2 after any F-ATK-4 hit: the row is exiled, each takes their exile sum."""
        defender = 1 - self.active
        exiled = []
        for card in self.normals_in_row(defender, target):
            self._leave_as_exile(card)
            if self.zone[card] == L.Z_EXILE:
                exiled.append(card)
        for face in self.faces_in_row(defender, target):
            self._leave_field(face)
        self.counters[L.CT_ABYSS_EXILES] += len(exiled)
        if self.rules.reading("FA-25") == "whole_zone":
            damage = [self.exile_points(p) for p in (0, 1)]
        else:
            damage = [0, 0]
            damage[defender] = sum(self.original_number(c) for c in exiled)
        if row == 0 and target == 2:  # F-TGT-4: the defender's share is doubled
            damage[defender] *= 2
        self.events.append("  Abyss Magic: exile sums hit p0 for %d and p1 for %d (%s%s, F-JOK-A-2)" % (
            *damage, "each player's whole exile zone, FA-25 \"whole_zone\"" if self.rules.reading("FA-25") == "whole_zone"
            else "the defender takes the exiled cards' numbers, FA-25 \"%s\"" % self.rules.reading("FA-25"),
            "; doubled: row 1 reaching row 3, F-TGT-4" if row == 0 and target == 2 else ""))
        self._damage_both(damage)

    def exile_points(self, player: int) -> int:
        """Point sum of a player's exile zone: normal numbers, 0 for others (F-CARD-3)."""
        return sum(self.original_number(c) for c in self.cards_in(L.Z_EXILE, player) if is_normal(L.card_code(c)))

    def _leave_as_exile(self, card: int) -> None:
        """An Alien effect exiles a field card (FA-20 may bury a Human's card instead)."""
        from_zone, from_ctrl = self.zone[card], self.ctrl[card]
        if not self.is_alien(L.card_owner(card)) and self.rules.reading("FA-20") == "graveyard":
            self._leave_field(card)
        else:
            self._exile(card, from_zone, from_ctrl)

    def _abyss_direct(self, defender: int) -> None:
        """F-JOK-A-3 / FA-19: five random deck cards of the defender leave; they take the points."""
        points = 0
        deck = self.deck[defender]
        for _ in range(min(DIRECT_EXILE_CARDS, len(deck))):
            card = deck.pop(self.rng.below(len(deck)))
            code = L.card_code(card)
            if is_normal(code):
                points += rank_of(code)
                if not self.is_alien(defender) and self.rules.reading("FA-20") == "graveyard":
                    self._move(card, L.Z_GRAVE, defender)
                else:
                    self._exile(card, L.Z_DECK, defender)
                    self.counters[L.CT_ABYSS_EXILES] += 1
            elif is_joker(code) and self.rules.reading("FA-19") == "exiled_zero":
                self._exile(card, L.Z_DECK, defender)
            else:  # face cards, and jokers read like face cards: graveyard, 1 point
                points += 1
                self._move(card, L.Z_GRAVE, defender)
        self.events.append("  Abyss Magic exiles from p%d's deck: %d points (up to %d random deck cards: a normal card its "
                           "number, any other 1, jokers per FA-19 \"%s\", F-JOK-A-3)" % (
                               defender, points, DIRECT_EXILE_CARDS, self.rules.reading("FA-19")))
        self._damage(defender, points)

    def _after_attack(self, row: int) -> None:
        """F-JOK-A-4: the attacking Alien big joker is exiled and heals 10."""
        joker = self.big_joker_in(self.active, row)
        if joker is not None and self.is_alien(L.card_owner(joker)) and self.phase != L.PH_OVER:
            self.events.append("  the Abyss joker returns to the exile zone (after its attack, F-JOK-A-4)")
            self._joker_leaves(joker)

    # ---- F-JOK-D-1 the joker duel -------------------------------------------------------------------
    def _open_duel(self, row: int, target: int) -> None:
        self.counters[L.CT_JOKER_DUELS] += 1
        self.events.append("  joker duel: p%d's %s against p%d's %s" % (
            self.active, A.row_text(row), 1 - self.active, A.row_text(target)))
        self.pending[L.P_KIND] = L.PENDING_DUEL
        self.pending[L.P_PLAYER] = self.active
        self.pending[L.P_TARGET] = row
        self.pending[L.P_COUNT] = target
        self.pending[L.P_OWNER] = self.active
        self.pending[L.P_FLAGS] = 0

    def _duel_choice(self, commit: int) -> None:
        """Attacker, then defender: commit or give up; both committed → the hand duel."""
        chooser = self.pending[L.P_PLAYER]
        attacker = self.active
        row, target = self.pending[L.P_TARGET], self.pending[L.P_COUNT]
        self.events.append("  p%d %s" % (chooser, "commits" if commit else "gives up"))
        if commit and chooser == attacker:
            self.pending[L.P_PLAYER] = 1 - attacker
            self.decider = 1 - attacker
            return
        self._clear_pending(attacker)
        defender_lost = False
        if not commit:
            self._lose_duel(chooser, row if chooser == attacker else target)
            defender_lost = chooser != attacker
        else:
            for player, joker_row in ((attacker, row), (1 - attacker, target)):
                self._duel_put_down(player, joker_row)
            sums = (self.row_sum(attacker, row), self.row_sum(1 - attacker, target))
            self.events.append("  duel sums: attacker %d, defender %d (%s, F-JOK-D-1)" % (
                *sums, "the lower sum loses" if sums[0] != sums[1]
                else "a tie: FA-27 \"%s\"" % self.rules.reading("FA-27")))
            if sums[0] < sums[1]:
                self._lose_duel(attacker, row)
            elif sums[1] < sums[0]:
                self._lose_duel(1 - attacker, target)
                defender_lost = True
            elif self.rules.reading("FA-27") == "both_lose":
                self._lose_duel(attacker, row)
                self._lose_duel(1 - attacker, target)
        if defender_lost and self.phase != L.PH_OVER and self.rules.reading("FA-28") == "resolves" \
                and self.big_joker_in(attacker, row) is not None:
            self._joker_attack(row, target)
        if self.phase != L.PH_OVER and self.pending[L.P_KIND] != L.PENDING_TIE:
            self._after_attack(row)

    def _finish_joker_row_hit(self, row: int, target: int) -> None:
        """What follows the F-ATK-4 hit of a big-joker row once the victim was picked
        (FA-6 "choice"): Abyss Magic's exile step, then the Abyss joker leaves."""
        if self.big_joker_in(self.active, row) is None:
            return  # a plain attack
        if not self.is_human(self.active):
            if self.phase == L.PH_OVER:
                return
            self._abyss_exile_row(row, target)
        if self.phase != L.PH_OVER:
            self._after_attack(row)

    def _lose_duel(self, player: int, joker_row: int) -> None:
        """The loser's joker is destroyed, they take 10, their joker row's face cards go."""
        joker = self.big_joker_in(player, joker_row)
        if joker is None:
            return
        self.events.append("  p%d loses the duel (its joker is destroyed, it takes %d and its joker row's face cards "
                           "go, F-JOK-D-1)" % (player, JOKER_DUEL_DAMAGE))
        self._joker_leaves(joker)
        self._damage(player, JOKER_DUEL_DAMAGE)
        for face in self.faces_in_row(player, joker_row):
            self._leave_field(face)

    def _duel_put_down(self, player: int, row: int) -> None:
        """FA-23: the hand cards of the joker row's suit go into that row."""
        reading = self.rules.reading("FA-23")
        placed = 0
        for card in self.hand(player):
            code = L.card_code(card)
            suit = suit_of(code)
            fits = is_normal(code) and suit == row
            if reading == "with_hearts" and is_normal(code) and suit == HEART and row < 2:
                fits = True
            if reading == "with_faces" and is_face(code) and suit == row and \
                    len(self.faces_in_row(player, row)) < self.rules.face_cards_per_row:
                fits = True
            if fits:
                self._enter_row(card, player, row)
                placed += 1
        if placed:
            self.events.append("  p%d puts down %d cards" % (player, placed))
        if reading == "special" and self.is_alien(player):
            self._special_placement_cost(player, placed)
