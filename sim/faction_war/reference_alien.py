"""Reference engine, part 3: the Alien faction (§6).

A mixin of `reference.Match`, like `reference_human.HumanRules`: extra zones
and their pairs, Split Rebirth with its special placement, Call of the Abyss,
Outer Charge, Deep-Sea Era. The core calls `_alien_actions` (placement
phase), `_pending_actions` / `_apply_pending` (multi-step decisions),
`_leave_destination` (where a card leaving the field goes) and `_exile`.

Multi-step decisions live in `pending` (layout P_* slots) so that both
engines, a strategy and a replay see them as ordinary actions:
- the F-ALJ-4 special placement is a run of SPECIAL_PICK actions (card, row),
  each keeping an exact completion possible; END declines before the first;
- the opponent answers an Alien K (F-ALK-2 modes 1 and 3) with K_ANSWER.
"""

from __future__ import annotations

from sim.cards import HEART, JACK, KING, QUEEN, is_normal, rank_of, suit_of
from sim.faction_war import actions as A
from sim.faction_war import layout as L

MIN_SPECIAL_CARDS = 3  # "any number greater than 2" (F-ALJ-4)
ZONE_NAMES = {L.Z_HAND: "hand", L.Z_DECK: "deck", L.Z_GRAVE: "graveyard", L.Z_EXILE: "exile zone",
              L.Z_EXTRA: "extra zone"}  # a special placement's sources, for the play log (FA-33)


def max_cards_for_sum(numbers: list[int], total: int) -> int:
    """Most cards among `numbers` adding up to exactly `total` (-1: impossible)."""
    best = [-1] * (total + 1)
    best[0] = 0
    for number in numbers:
        for s in range(total, number - 1, -1):
            if best[s - number] >= 0 and best[s - number] + 1 > best[s]:
                best[s] = best[s - number] + 1
    return best[total]


class AlienRules:
    """Alien faction rules for the reference engine."""

    # ---- queries ------------------------------------------------------------------------
    def is_alien(self, player: int) -> bool:
        return self.faction[player] == L.ALIEN

    def alien_face(self, player: int, row: int, rank: int):
        """The earliest-placed Alien face card of `rank` in the row (identical ones act as one)."""
        if not self.is_alien(player):
            return None
        cards = [c for c in self.faces_in_row(player, row) if rank_of(L.card_code(c)) == rank]
        return min(cards, key=lambda c: self.order[c]) if cards else None

    def zone_card(self, suit: int):
        """The card in the shared extra zone of a suit (F-EXT-2), or None."""
        for player in (0, 1):
            for card in self.cards_in(L.Z_EXTRA, player):
                if suit_of(L.card_code(card)) == suit:
                    return card
        return None

    def exile_count(self) -> int:
        return sum(1 for z in self.zone.values() if z == L.Z_EXILE)

    # ---- where cards go ---------------------------------------------------------------------
    def _leave_destination(self, card: int, attacker_row) -> int:
        """F-ALQ-1 / FA-20: Z_EXILE for normal cards an Abyss row exiles, else Z_GRAVE."""
        if not is_normal(L.card_code(card)) or self.zone[card] not in (L.Z_ROW0, L.Z_ROW1, L.Z_ROW2):
            return L.Z_GRAVE
        row, ctrl = self.zone[card] - L.Z_ROW0, self.ctrl[card]
        exiled = False
        if attacker_row is not None and self.alien_face(1 - ctrl, attacker_row, QUEEN) is not None:
            exiled = True  # (1) the Abyss row's successful attack
        elif self.alien_face(ctrl, row, QUEEN) is not None and L.card_owner(card) == ctrl:
            exiled = True  # (2) own normal card leaving an Abyss row
        if exiled and not self.is_alien(L.card_owner(card)) and self.rules.reading("FA-20") == "graveyard":
            exiled = False
        return L.Z_EXILE if exiled else L.Z_GRAVE

    def _exile_reason(self, card: int, attacker_row: int) -> str:
        """The play log's why for a normal card an attack removes into exile (F-ALQ-1, FA-20); "" otherwise."""
        if self._leave_destination(card, attacker_row) != L.Z_EXILE:
            return ""
        whose = ("the attacking row's Alien Q" if self.alien_face(1 - self.ctrl[card], attacker_row, QUEEN) is not None
                 else "an Alien Q in its own row")
        return " (exiled: %s, Call of the Abyss, F-ALQ-1)" % whose

    def _exile(self, card: int, from_zone: int, from_ctrl: int) -> None:
        """Send a card to its owner's exile zone (FA-14 "controller": the controller's);
        F-ALK-1 heals, then F-ALW-1 is checked."""
        pile_owner = L.card_owner(card) if self.rules.reading("FA-14") == "owner" else from_ctrl
        self._move(card, L.Z_EXILE, pile_owner)
        if is_normal(L.card_code(card)):
            self._outer_charge_passive(card, from_zone, from_ctrl)
        self._check_deep_sea()

    def _outer_charge_passive(self, card: int, from_zone: int, from_ctrl: int) -> None:
        """F-ALK-1: a normal card exiled from a K's row or its suit's extra zone heals the K's owner 1."""
        if from_zone == L.Z_EXTRA:
            row = suit_of(L.card_code(card))
            holders = (0, 1)
        elif from_zone in (L.Z_ROW0, L.Z_ROW1, L.Z_ROW2):
            row = from_zone - L.Z_ROW0
            holders = (from_ctrl,)
        else:
            return
        for player in holders:
            king = self.alien_face(player, row, KING)
            if king is not None and self.arrival[king] < self.turn:
                self.counters[L.CT_OUTER_CHARGE] += 1
                self._heal(player, 1, "a normal card exiled from the %s of its K, present since turn %d, F-ALK-1"
                           % ("extra zone" if from_zone == L.Z_EXTRA else A.row_text(row), self.arrival[king]))

    def _heal(self, player: int, amount: int, reason: str = "") -> None:
        """Life gain; FA-36 "starting_life" caps it at the starting life. `reason`: the play log's why."""
        life = self.life[player] + amount
        if self.rules.reading("FA-36") == "starting_life":
            life = min(life, max(self.start_life[player], self.life[player]))
        if life < self.life[player] + amount:
            reason += "%scapped at the starting life %d, FA-36" % ("; " if reason else "", self.start_life[player])
        self.life[player] = life
        self.events.append("  p%d heals %d: life %d / %d%s" % (player, amount, *self.life,
                                                             " (%s)" % reason if reason else ""))
        if self.rules.reading("FA-29") == "each_step":
            self._check_life()

    def _check_deep_sea(self) -> None:
        """F-ALW-1 / FA-17: more than 54 cards in both exile zones: the Alien wins."""
        if self.phase == L.PH_OVER or self.exile_count() <= 54:
            return
        aliens = [p for p in (0, 1) if self.is_alien(p)]
        if not aliens:
            return
        self.events.append("Deep-Sea Era: %d cards in exile" % self.exile_count())
        if len(aliens) == 2 and self.rules.reading("FA-17") == "draw":
            self._end(2, L.END_DEEP_SEA_DRAW)
        else:
            self._end(self.active if len(aliens) == 2 else aliens[0], L.END_DEEP_SEA)

    def _special_placement_cost(self, player: int, cards: int) -> None:
        """F-ALN-1: 1 life per own normal card special-placed."""
        self.counters[L.CT_SPECIAL_PLACED] += cards
        if cards:
            self._damage(player, cards)

    # ---- placement-phase actions ----------------------------------------------------------------
    def _alien_actions(self) -> list[int]:
        """F-EXT-1, F-EXT-4, F-ALJ-1, F-ALK-2 actions of the Alien turn player."""
        player = self.decider
        if not self.is_alien(player):
            return []
        out = []
        hand = self.hand(player)
        # F-EXT-1 / F-EXT-2: one extra-zone placement per turn
        if not self.extra_used:
            for card in hand:
                code = L.card_code(card)
                suit = suit_of(code)
                if is_normal(code) and suit != HEART and rank_of(code) >= 3:
                    holder = self.zone_card(suit)
                    if holder is None or self.ctrl[holder] == player:
                        out.append(A.encode(A.EXTRA_PLACE, card))
        # F-EXT-4: the pair of a zone holding an own card since an earlier turn
        pairs_done = len(self.pairs_used)
        for suit in range(3):
            holder = self.zone_card(suit)
            if holder is None or self.ctrl[holder] != player or self.arrival[holder] >= self.turn:
                continue
            if suit in self.pairs_used or (pairs_done and self.rules.reading("FA-13") == "one_total"):
                continue
            if suit in self.normal_placed and self.rules.reading("FA-32") == "replaces":
                continue
            target = self.original_number(holder)
            suited = [c for c in hand if is_normal(L.card_code(c)) and suit_of(L.card_code(c)) == suit]
            for i, first in enumerate(suited):
                for second in suited[i + 1:]:
                    if self.original_number(first) + self.original_number(second) == target:
                        out.append(A.encode(A.EXTRA_PAIR, first, second))
        # F-ALJ-1: Split Rebirth moves
        extra_blocked = self.extra_used and self.rules.reading("FA-35") == "uses_it"
        for row in range(3):
            jack = self.alien_face(player, row, JACK)
            if jack is None or self.arrival[jack] >= self.turn or row in self.j_used or extra_blocked:
                continue
            for card in self.normals_in_row(player, row):
                code = L.card_code(card)
                if suit_of(code) == row and 3 <= rank_of(code) <= 10:
                    out.append(A.encode(A.ALIEN_J_MOVE, card))
        # F-ALK-2: Outer Charge activations
        for row in range(3):
            king = self.alien_face(player, row, KING)
            if king is None or self.arrival[king] >= self.turn or not self._k_may_activate(king, row):
                continue
            mine = self.normals_in_row(player, row)
            theirs = [c for r in range(3) for c in self.normals_in_row(1 - player, r)]
            for card in mine:
                number = self.effective_number(card)
                if any(self.effective_number(c) == number for c in theirs) or \
                        self.rules.reading("FA-16") == "own_only":
                    out.append(A.encode(A.K_ACTIVATE, 1, card, row))
                out.append(A.encode(A.K_ACTIVATE, 2, card, row))
            if mine and (len(theirs) >= len(mine) or self.rules.reading("FA-31") == "all_they_have"):
                out.append(A.encode(A.K_ACTIVATE, 3, A.NONE, row))
        # FA-15 "kept": a special placement right kept from an earlier move
        if self.pending[L.P_KEPT_TARGET]:
            out += self._special_picks(player, self.pending[L.P_KEPT_TARGET], 0, self.pending[L.P_KEPT_EXCLUDED])
        return out

    def _k_may_activate(self, king: int, row: int) -> bool:
        """FA-30: once per own turn per K row / once per K card / unlimited."""
        reading = self.rules.reading("FA-30")
        if reading == "per_turn_per_row":
            return row not in self.k_used
        if reading == "once_per_k":
            return L.k_spent_bit(king) not in self.k_spent
        return True

    # ---- applying Alien actions ---------------------------------------------------------------------
    def _extra_place(self, card: int) -> None:
        """F-EXT-1, F-EXT-3 (FA-12): into the zone of its suit; an own card there is pushed out."""
        player = self.decider
        suit = suit_of(L.card_code(card))
        holder = self.zone_card(suit)
        self.extra_used = 1
        self.counters[L.CT_EXTRA_PLACED] += 1
        self.events.append("p%d puts %s into the %s extra zone" % (player, A.card_text(card, player), "DSC"[suit]))
        if holder is not None:
            self._push_out_own(holder, self.rules.reading("FA-12") == "exile")
        self._enter_zone(card, player)

    def _push_out_own(self, card: int, to_exile: bool, reason: str = "") -> None:
        self.events.append("  %s is pushed out of the extra zone%s" % (A.card_text(card, self.ctrl[card]), reason))
        if to_exile:
            self._exile(card, L.Z_EXTRA, self.ctrl[card])
        else:
            self._move(card, L.Z_GRAVE, L.card_owner(card))

    def _enter_zone(self, card: int, player: int) -> None:
        self._move(card, L.Z_EXTRA, player)
        self.order[card] = self.seq
        self.seq += 1
        self.arrival[card] = self.turn

    def _extra_pair(self, first: int, second: int) -> None:
        """F-EXT-4 (FA-11, FA-13, FA-32): two hand cards summing to the zone card, into the row."""
        player = self.decider
        suit = suit_of(L.card_code(first))
        self.pairs_used.add(suit)
        if self.rules.reading("FA-32") == "replaces":
            self.normal_placed.add(suit)
        self.counters[L.CT_EXTRA_PAIRS] += 1
        for card in (first, second):
            self._enter_row(card, player, suit)
        self.events.append("p%d places the pair %s %s in %s" % (
            player, A.card_text(first, player), A.card_text(second, player), A.row_text(suit)))
        if self.rules.reading("FA-11") == "special":
            self._special_placement_cost(player, 2)

    def _j_move(self, card: int) -> None:
        """F-ALJ-1..3: a row card into its suit's extra zone, then the special placement window."""
        player = self.decider
        row = self.zone[card] - L.Z_ROW0
        self.j_used.add(row)
        if self.rules.reading("FA-35") == "uses_it":
            self.extra_used = 1
        self.counters[L.CT_SPLIT_REBIRTH] += 1
        jack = self.alien_face(player, row, JACK)
        self.events.append("p%d Split Rebirth moves %s into the extra zone (J in %s since turn %d: a normal card of "
                           "the row's suit, original number %d within 3-10, once each own turn, F-ALJ-1; FA-35 \"%s\")"
                           % (player, A.card_text(card, player), A.row_text(row), self.arrival[jack],
                              self.original_number(card), self.rules.reading("FA-35")))
        holder = self.zone_card(row)
        if holder is not None and self.ctrl[holder] != player:  # F-ALJ-2
            damage = self.original_number(holder)
            owner = self.ctrl[holder]
            self.events.append("  pushes out p%d's %s (the J overrides the opponent's zone: to its graveyard, and "
                               "p%d takes its number %d, F-ALJ-2)" % (owner, A.card_text(holder, owner), owner, damage))
            self._move(holder, L.Z_GRAVE, L.card_owner(holder))
            self._damage(1 - player, damage)
        elif holder is not None:  # F-ALJ-3
            self._push_out_own(holder, True, " (its own card there is exiled, F-ALJ-3)")
        self._enter_zone(card, player)
        target = self.original_number(card)
        if self.rules.reading("FA-15") == "kept":
            self.pending[L.P_KEPT_TARGET] = target
            self.pending[L.P_KEPT_EXCLUDED] = card
        if self.phase != L.PH_OVER and self._special_picks(player, target, 0, card):
            self.pending[L.P_KIND] = L.PENDING_SPECIAL
            self.pending[L.P_PLAYER] = player
            self.pending[L.P_TARGET] = target
            self.pending[L.P_COUNT] = 0
            self.pending[L.P_EXCLUDED] = card
            self.pending[L.P_FLAGS] = 0

    # ---- F-ALJ-4 special placement ---------------------------------------------------------------------
    def _special_sources(self, player: int, excluded: int) -> list[int]:
        """Normal cards a special placement may take (FA-33), ascending card id."""
        zones = [L.Z_HAND, L.Z_DECK, L.Z_GRAVE]
        if self.rules.reading("FA-33") == "with_exile":
            zones.append(L.Z_EXILE)
        cards = [c for z in zones for c in self.cards_in(z, player)]
        cards += [c for c in self.cards_in(L.Z_EXTRA, player) if c != excluded]
        return sorted(c for c in cards if is_normal(L.card_code(c)))

    def _special_picks(self, player: int, remaining: int, count: int, excluded: int) -> list[int]:
        """SPECIAL_PICK actions that keep an exact sum of at least 3 cards reachable."""
        sources = self._special_sources(player, excluded)
        out = []
        for card in sources:
            number = self.original_number(card)
            if number > remaining:
                continue
            rest = remaining - number
            if rest == 0:
                ok = count + 1 >= MIN_SPECIAL_CARDS
            else:
                most = max_cards_for_sum([self.original_number(c) for c in sources if c != card], rest)
                ok = most >= 0 and count + 1 + most >= MIN_SPECIAL_CARDS
            if ok:
                suit = suit_of(L.card_code(card))
                rows = (0, 1) if suit == HEART else (suit,)
                out += [A.encode(A.SPECIAL_PICK, card, row) for row in rows]
        return out

    def _special_pick(self, card: int, row: int) -> None:
        """One card of the special placement onto its row; 1 life (F-ALN-1, FA-33)."""
        player = self.decider
        if self.pending[L.P_KIND] != L.PENDING_SPECIAL:  # FA-15 "kept": the first pick opens it
            self.pending[L.P_KIND] = L.PENDING_SPECIAL
            self.pending[L.P_PLAYER] = player
            self.pending[L.P_TARGET] = self.pending[L.P_KEPT_TARGET]
            self.pending[L.P_COUNT] = 0
            self.pending[L.P_EXCLUDED] = self.pending[L.P_KEPT_EXCLUDED]
            self.pending[L.P_FLAGS] = 0
        self.pending[L.P_KEPT_TARGET] = self.pending[L.P_KEPT_EXCLUDED] = 0
        source = self.zone[card]
        if source == L.Z_DECK:
            self.deck[player].remove(card)
            self.pending[L.P_FLAGS] = 1
        self._enter_row(card, player, row)
        self.pending[L.P_TARGET] -= self.original_number(card)
        self.pending[L.P_COUNT] += 1
        free = source == L.Z_EXTRA and self.rules.reading("FA-33") == "zones_free"
        left = self.pending[L.P_TARGET]
        self.events.append("p%d special-places %s in %s (card %d of the special placement for the moved card's %d: "
                           "%s, at least 3 cards, F-ALJ-4; from the %s, %s)"
                           % (player, A.card_text(card, player), A.row_text(row), self.pending[L.P_COUNT],
                              self.original_number(self.pending[L.P_EXCLUDED]),
                              "%d still to reach" % left if left else "the sum is exact",
                              ZONE_NAMES.get(source, "zone %d" % source),
                              "free under FA-33 \"zones_free\"" if free else "1 life, F-ALN-1"))
        self._special_placement_cost(player, 0 if free else 1)
        if self.pending[L.P_TARGET] == 0:
            self._close_special(player)

    def _close_special(self, player: int) -> None:
        if self.pending[L.P_FLAGS]:
            self._shuffle(player)  # a searched deck is shuffled (convention)
        for slot in (L.P_KIND, L.P_PLAYER, L.P_TARGET, L.P_COUNT, L.P_EXCLUDED, L.P_FLAGS):
            self.pending[slot] = 0

    def _special_actions(self) -> list[int]:
        """Legal actions while the special placement window is open."""
        picks = self._special_picks(self.pending[L.P_PLAYER], self.pending[L.P_TARGET],
                                    self.pending[L.P_COUNT], self.pending[L.P_EXCLUDED])
        return picks + ([A.encode(A.END)] if self.pending[L.P_COUNT] == 0 else [])

    def _decline_special(self) -> None:
        """END before the first pick: the special placement is not made (FA-15)."""
        kept = self.rules.reading("FA-15") == "kept"
        self.events.append("p%d makes no special placement (declined before the first card: %s, F-ALJ-4; FA-15 \"%s\")"
                           % (self.decider, "the right is kept for a later window" if kept else
                              "allowed again only after another card is moved into an extra zone",
                              self.rules.reading("FA-15")))
        self._close_special(self.decider)

    # ---- F-ALK-2 Outer Charge ---------------------------------------------------------------------------
    def _k_activate(self, mode: int, card: int, row: int) -> None:
        player = self.decider
        king = self.alien_face(player, row, KING)
        self.k_used.add(row)
        self.k_spent.add(L.k_spent_bit(king))
        self.counters[L.CT_K_ACTIVATIONS] += 1
        opponent = 1 - player
        theirs = [c for r in range(3) for c in self.normals_in_row(opponent, r)]
        if mode in (1, 2):
            why = "exiles %s (number %d) for as much life%s" % (
                A.card_text(card, player), self.effective_number(card),
                "; the opponent then exiles one of that number, if it has any" if mode == 1 else "")
        else:
            why = "exiles the row's %d own normal cards against as many of the opponent's" % len(
                self.normals_in_row(player, row))
        self.events.append("p%d activates Outer Charge (%d) in %s (K: %s, once per own turn, F-ALK-2)" % (
            player, mode, A.row_text(row), why))
        if mode in (1, 2):
            number = self.effective_number(card)
            self._exile(card, self.zone[card], player)
            self._heal(player, number, "the exiled card's number, Outer Charge, F-ALK-2")
            if mode == 1 and any(self.effective_number(c) == number for c in theirs):
                self._open_answer(L.PENDING_K1_ANSWER, opponent, number, row, player)
            return
        mine = self.normals_in_row(player, row)
        for own in mine:
            self._exile(own, self.zone[own], player)
        wanted = min(len(mine), len(theirs))
        if wanted:
            self._open_answer(L.PENDING_K3_ANSWER, opponent, wanted, row, player)
            self.pending[L.P_COUNT] = len(mine)
        else:
            self._heal(player, len(mine), "its %d exiled cards, Outer Charge, F-ALK-2" % len(mine))
            self._heal(opponent, len(mine), "as many as the K's side exiled, Outer Charge, F-ALK-2")

    def _open_answer(self, kind: int, who: int, target: int, row: int, owner: int) -> None:
        self.pending[L.P_KIND] = kind
        self.pending[L.P_PLAYER] = who
        self.pending[L.P_TARGET] = target
        self.pending[L.P_EXCLUDED] = row
        self.pending[L.P_OWNER] = owner
        self.decider = who

    def _answer_actions(self) -> list[int]:
        who = self.pending[L.P_PLAYER]
        theirs = [c for r in range(3) for c in self.normals_in_row(who, r)]
        if self.pending[L.P_KIND] == L.PENDING_K1_ANSWER:
            theirs = [c for c in theirs if self.effective_number(c) == self.pending[L.P_TARGET]]
        return [A.encode(A.K_ANSWER, c) for c in theirs]

    def _k_answer(self, card: int) -> None:
        who = self.pending[L.P_PLAYER]
        owner = self.pending[L.P_OWNER]
        self.events.append("p%d answers with %s" % (who, A.card_text(card, who)))
        number = self.effective_number(card)
        self._exile(card, self.zone[card], who)
        if self.pending[L.P_KIND] == L.PENDING_K1_ANSWER:
            self._clear_pending(owner)
            self._heal(who, number, "the answering card's number, Outer Charge, F-ALK-2")
            return
        self.pending[L.P_TARGET] -= 1
        self.pending[L.P_COUNT] += 1
        if self.pending[L.P_TARGET] == 0:
            total = self.pending[L.P_COUNT]
            self._clear_pending(owner)
            self._heal(owner, total, "%d cards exiled by each side, Outer Charge, F-ALK-2" % total)
            self._heal(who, total, "%d cards exiled by each side, Outer Charge, F-ALK-2" % total)

    def _clear_pending(self, decider: int) -> None:
        for slot in (L.P_KIND, L.P_PLAYER, L.P_TARGET, L.P_COUNT, L.P_EXCLUDED, L.P_FLAGS, L.P_OWNER):
            self.pending[slot] = 0
        self.decider = decider
