"""Reference engine, part 2: the Human faction and the ♥ Dispeller (§5, F-HRT-1).

A mixin of `reference.Match`: the core calls these hooks at fixed points
(effective numbers, the preparation phase, placement actions, cards leaving
the field, after each placement). Kept apart so each faction's rules read as
one piece; the numba kernel mirrors them in `kernel.py`.

Readings chosen where the reference is silent (also in docs/rules-notes.md):
- Cards moved between fields (stolen, swapped, split) keep their placement
  `order` and `arrival`: "earliest placed" stays the moment it was placed.
- Polymorph's "largest" uses original number then earliest placement, never
  a random draw (FA-6 "random" would re-draw on every look at a row).
- With more than two face cards per row (a config above the source's 2), the
  two earliest-placed different face cards form the combination.
"""

from __future__ import annotations

from sim.cards import HEART, JACK, KING, QUEEN, is_face, is_normal, rank_of, suit_of
from sim.faction_war import actions as A
from sim.faction_war import layout as L

BOTH_PLAYERS = A.BOTH_PLAYERS


class HumanRules:
    """Human face cards, combinations, penalty, Destiny; the Dispeller for both factions."""

    # ---- which effect a row has ------------------------------------------------------
    def is_human(self, player: int) -> bool:
        return self.faction[player] == L.HUMAN

    def human_faces(self, player: int, row: int) -> list[int]:
        """Face cards of a Human player's row, earliest placed first."""
        if not self.is_human(player):
            return []
        return sorted(self.faces_in_row(player, row), key=lambda c: self.order[c])

    def row_effect(self, player: int, row: int) -> tuple[tuple[int, ...], int]:
        """F-HUC-1: (ranks of the effect, the turn it became present), or ((), 0).

        Identical face cards act as one; two different ones form a combination
        (the two earliest-placed different ranks), present from the later arrival.
        """
        first_of_rank: dict[int, int] = {}
        for card in self.human_faces(player, row):
            first_of_rank.setdefault(rank_of(L.card_code(card)), card)
        if not first_of_rank:
            return (), 0
        cards = list(first_of_rank.values())[:2]
        ranks = tuple(sorted(rank_of(L.card_code(c)) for c in cards))
        return ranks, max(self.arrival[c] for c in cards)

    # ---- F-HUJ-1 Polymorph ---------------------------------------------------------------
    def polymorph_j_order(self, row: int) -> int:
        """Placement order of the earliest J polymorphing this row index, or 0."""
        orders = []
        for player in (0, 1):
            ranks, _ = self.row_effect(player, row)
            if ranks == (JACK,):
                orders += [self.order[c] for c in self.human_faces(player, row)]
        return min(orders) if orders else 0

    def polymorphed_number(self, card: int, row: int) -> int:
        """F-HUJ-1 / FA-26: 1 for every normal card of both rows but the largest."""
        key = ("polymorph", row)
        if key not in self._memo:
            self._memo[key] = self._polymorph_targets(row)
        return 1 if card in self._memo[key] else self.original_number(card)

    def _polymorph_targets(self, row: int) -> frozenset:
        """The cards of this row index that Polymorph turns into 1s (maybe none)."""
        affected, largest = self._polymorph_split(row)
        return frozenset(c for c in affected if c != largest)

    def _polymorph_split(self, row: int) -> tuple[list[int], int | None]:
        """(the normal cards Polymorph reaches in this row index, the largest of them: spared), or ([], None)."""
        j_order = self.polymorph_j_order(row)
        if not j_order:
            return [], None
        on_arrival = self.rules.reading("FA-26") == "on_arrival"
        affected = [c for p in (0, 1) for c in self.normals_in_row(p, row)
                    if not on_arrival or self.order[c] < j_order]
        if not affected:
            return [], None
        return affected, min(affected, key=lambda c: (-self.original_number(c), self.order[c]))

    def _polymorph_reason(self, player: int, row: int) -> str:
        """Why a Human J just placed in `row` does what it does (F-HUJ-1, F-HUC-1), for the play log."""
        ranks, _ = self.row_effect(player, row)
        names = "+".join("JQK"[r - JACK] for r in ranks)
        if JACK not in ranks:
            return " (the row's %s stays its effect: the two earliest different face cards act, F-HUC-1)" % names
        if ranks != (JACK,):
            return " (%s: the pair replaces both effects from the next own turn, F-HUC-1)" % names
        affected, largest = self._polymorph_split(row)
        reading = "FA-26 \"%s\"" % self.rules.reading("FA-26")
        if largest is None:
            return (" (Polymorph: no normal card in either player's %s yet; cards placed later count 1 unless the "
                    "largest, F-HUJ-1; %s)" % (A.row_text(row), reading))
        ones = [A.card_text(c, player) for c in affected if c != largest]
        return (" (Polymorph: every normal card of both players' %s but the single largest counts 1: %s; %s keeps %d, "
                "the largest by original number%s, F-HUJ-1; %s)"
                % (A.row_text(row), ", ".join(ones) + " -> 1" if ones else "no other card",
                   A.card_text(largest, player), self.original_number(largest),
                   self._tie_text(largest, affected, lambda c: -self.original_number(c)), reading))

    def _placed_under_polymorph(self, player: int, card: int, row: int) -> str:
        """What Polymorph makes of a normal card just placed in `row` (F-HUJ-1, FA-26); '' when no J acts."""
        affected, largest = self._polymorph_split(row)
        if not self.polymorph_j_order(row):
            return ""
        if card not in affected:
            return " (placed after the J: keeps its number, FA-26 \"on_arrival\")"
        if card == largest:
            return (" (Polymorph: the largest normal card of both players' %s keeps its number, the others count 1, "
                    "F-HUJ-1)" % A.row_text(row))
        return (" (Polymorph: counts 1, %s of both players' %s being the largest, F-HUJ-1)"
                % (A.card_text(largest, player), A.row_text(row)))

    # ---- card choice with FA-6 ------------------------------------------------------------
    def pick(self, cards: list[int], key) -> int:
        """The card with the smallest key; ties by FA-6 (earliest placed, or random)."""
        best = min(key(c) for c in cards)
        tied = sorted(c for c in cards if key(c) == best)
        if len(tied) > 1 and self.rules.reading("FA-6") == "random":
            return tied[self.rng.below(len(tied))]
        return min(tied, key=lambda c: self.order[c])

    def largest_key(self, card: int):
        return (-self.effective_number(card), -self.original_number(card))

    def smallest_key(self, card: int):
        return (self.effective_number(card), self.original_number(card))

    # ---- mandatory each-own-turn effects (F-TURN-5, FA-4) --------------------------------------
    def _mandatory_effects(self, first_row: int = 0, stage: int = L.STAGE_BEFORE_DRAW) -> None:
        """Human Q, K and combinations of the turn player, rows 1 → 3 (from `first_row`:
        a FA-6 "choice" decision stops the walk, `_apply_tie` resumes it)."""
        player = self.active
        if not self.is_human(player):
            return
        for row in range(first_row, 3):
            if self.phase == L.PH_OVER or self.pending[L.P_KIND] != L.PENDING_NONE:
                return
            ranks, present_since = self.row_effect(player, row)
            if not ranks or ranks == (JACK,) or present_since >= self.turn:  # F-TURN-6
                continue
            if ranks == (QUEEN,):
                self._mind_magic(player, row, stage)
            elif ranks == (KING,):
                self._self_destruct(player, row, stage)
            elif ranks == (JACK, QUEEN):
                self._combo_swap(player, row)
            elif ranks == (JACK, KING):
                self._combo_cull(player, row, stage)
            else:
                self._combo_pool(player, row)

    def _mind_magic(self, player: int, row: int, stage: int) -> None:
        """F-HUQ-1: steal the opponent's smallest normal card of the row (F-ATK-5 order)."""
        opponent = 1 - player
        if not self.normals_in_row(opponent, row):
            return
        card = self.choose_card(row, 1 << opponent, -1, False, L.TIE_SITE_MIND_MAGIC,
                                L.tie_context(stage, 0, -1, -1))
        if card is not None:
            self._steal(player, row, card)

    # ---- the play log's reasons (read the state only: no draw, no change) --------------------------
    def _numbers_text(self, cards) -> str:
        """The effective numbers of `cards`, ascending: "3, 7, 9" (F-CARD-4)."""
        return ", ".join(str(n) for n in sorted(self.effective_number(c) for c in cards))

    def _tie_text(self, card: int, cards, key) -> str:
        """How a tie on the key was broken, when `card` had equals among `cards` (FA-6)."""
        if sum(1 for c in cards if key(c) == key(card)) < 2:
            return ""
        return "; tied, FA-6 \"%s\"" % self.rules.reading("FA-6")

    def _effect_text(self, player: int, row: int, name: str) -> str:
        """The row's face-card effect and since when it acts (F-HUC-1, F-TURN-6)."""
        _, since = self.row_effect(player, row)
        return "%s in %s since turn %d" % (name, A.row_text(row), since)

    def _steal(self, player: int, row: int, card: int) -> None:
        candidates = self.normals_in_row(1 - player, row)
        reason = "%s: the opponent's smallest normal card there, %d among %s%s, F-HUQ-1" % (
            self._effect_text(player, row, "Q"), self.effective_number(card), self._numbers_text(candidates),
            self._tie_text(card, candidates, self.smallest_key))
        self._set_ctrl(card, player)
        self.counters[L.CT_MIND_MAGIC] += 1
        self.events.append("p%d Mind Magic steals %s into %s (%s)" % (
            player, A.card_text(card, player), A.row_text(row), reason))

    def _self_destruct(self, player: int, row: int, stage: int) -> None:
        """F-HUK-1: the largest normal card of both rows is destroyed."""
        mine, theirs = self.normals_in_row(player, row), self.normals_in_row(1 - player, row)
        if not mine or not theirs:
            return
        card = self.choose_card(row, 3, -1, True, L.TIE_SITE_SELF_DESTRUCT, L.tie_context(stage, 0, -1, -1))
        if card is not None:
            self._destroy_largest(player, row, card)

    def _destroy_largest(self, player: int, row: int, card: int) -> None:
        self.counters[L.CT_SELF_DESTRUCT] += 1
        candidates = self.normals_in_row(player, row) + self.normals_in_row(1 - player, row)
        self.events.append("p%d Self-Destruct destroys %s (%s: the largest normal card of both players' %s, "
                           "%d among %s%s, F-HUK-1)" % (
                               player, A.card_text(card, player), self._effect_text(player, row, "K"), A.row_text(row),
                               self.effective_number(card), self._numbers_text(candidates),
                               self._tie_text(card, candidates, self.largest_key)))
        self._leave_field(card)

    def _combo_swap(self, player: int, row: int) -> None:
        """F-HUC-JQ: one random normal card of each side's row changes sides."""
        mine, theirs = self.normals_in_row(player, row), self.normals_in_row(1 - player, row)
        if not mine or not theirs:
            return
        given = mine[self.rng.below(len(mine))]
        taken = theirs[self.rng.below(len(theirs))]
        self._set_ctrl(given, 1 - player)
        self._set_ctrl(taken, player)
        self.counters[L.CT_COMBO_JQ] += 1
        self.events.append("p%d J+Q swaps %s for %s (%s: one normal card of each side's row, drawn at random from "
                           "%d and %d, F-HUC-1)" % (player, A.card_text(given, player), A.card_text(taken, player),
                                                    self._effect_text(player, row, "J+Q"), len(mine), len(theirs)))

    def _combo_cull(self, player: int, row: int, stage: int) -> None:
        """F-HUC-JK: each side keeps its two largest normal cards of the row."""
        sides = [self.normals_in_row(player, row), self.normals_in_row(1 - player, row)]
        if min(len(side) for side in sides) <= 1:
            return
        self.counters[L.CT_COMBO_JK] += 1
        self._cull_from(player, row, stage, [])

    def _cull_from(self, player: int, row: int, stage: int, keeps: list[int]) -> bool:
        """The J+K cull from its kept cards so far (own first and second, then the
        opponent's): False when a FA-6 "choice" decision interrupts it."""
        while len(keeps) < 4:
            step = len(keeps)
            side = player if step < 2 else 1 - player
            exclude = keeps[step - 1] if step % 2 else -1
            card = self.choose_card(row, 1 << side, exclude, True, L.TIE_SITE_CULL, L.tie_context(
                stage, step, keeps[0] if step > 0 else -1, keeps[1] if step > 1 else -1))
            if card is None:
                return False
            keeps.append(card)
        doomed = [c for side in (player, 1 - player) for c in self.normals_in_row(side, row) if c not in keeps]
        self.events.append("p%d J+K culls %d cards (%s: each side keeps its two largest normal cards, p%d %s, p%d %s, "
                           "F-HUC-1)" % (player, len(doomed), self._effect_text(player, row, "J+K"),
                                         player, self._numbers_text(keeps[:2]), 1 - player, self._numbers_text(keeps[2:])))
        for card in doomed:
            self._leave_field(card)
        return True

    def _combo_pool(self, player: int, row: int) -> None:
        """F-HUC-QK: pool both rows, two random cards to the graveyard, split the rest."""
        pooled = self.normals_in_row(player, row) + self.normals_in_row(1 - player, row)
        if not pooled or len(pooled) % 2:
            return
        self.counters[L.CT_COMBO_QK] += 1
        effect = self._effect_text(player, row, "Q+K")
        for _ in range(2):
            size = len(pooled)
            card = pooled.pop(self.rng.below(len(pooled)))
            self.events.append("p%d Q+K sends %s to the graveyard (%s: drawn at random from the %d normal cards "
                               "pooled from both sides' row, F-HUC-1)" % (player, A.card_text(card, player), effect, size))
            self._leave_field(card)
        for i in range(len(pooled) - 1, 0, -1):
            j = self.rng.below(i + 1)
            pooled[i], pooled[j] = pooled[j], pooled[i]
        half = len(pooled) // 2
        for index, card in enumerate(pooled):
            self._set_ctrl(card, player if index < half else 1 - player)
        if pooled:
            self.events.append("p%d Q+K splits %d cards (shuffled: the first %d to p%d, the rest to p%d, F-HUC-1)"
                               % (player, len(pooled), half, player, 1 - player))

    # ---- F-HUP-1 penalty ----------------------------------------------------------------------
    def _face_left_field(self, card: int) -> None:
        """F-HUP-1: a Human's own face card leaving the field costs its owner 1 life."""
        owner = L.card_owner(card)
        if is_face(L.card_code(card)) and self.is_human(owner):
            self.counters[L.CT_HUMAN_PENALTY] += 1
            self._damage(owner, 1)

    # ---- F-HRT-1 Dispeller (both factions) --------------------------------------------------------
    def _dispel_actions(self) -> list[int]:
        player = self.decider
        if self.rules.reading("FA-5") == "one_per_turn" and self.hearts_used >= 1:
            return []
        hearts = [c for c in self.hand(player)
                  if suit_of(L.card_code(c)) == HEART and is_face(L.card_code(c))]
        if not hearts:
            return []
        scope = self.rules.reading("FA-18")
        targets = []
        for row in range(3):
            faces = [self.faces_in_row(p, row) for p in (0, 1)]
            if scope == "one_player_row":
                targets += [(p, row) for p in (0, 1) if faces[p]]
            elif scope == "both_players_row":
                targets += [(BOTH_PLAYERS, row)] if faces[0] or faces[1] else []
            else:  # one_card: c is the face card itself
                targets += [(A.NONE, card) for card in faces[0] + faces[1]]
        return [A.encode(A.DISPEL, heart, b, c) for heart in hearts for b, c in targets]

    def _dispel(self, heart: int, target: int, where: int) -> None:
        """F-HRT-1 with FA-18; F-HUP-1 for Human-owned cards and FA-9 for the user."""
        player = self.decider
        if target == A.NONE:
            removed = [where]
        elif target == BOTH_PLAYERS:
            removed = self.faces_in_row(0, where) + self.faces_in_row(1, where)
        else:
            removed = self.faces_in_row(target, where)
        self.hearts_used += 1
        self.counters[L.CT_DISPELS] += 1
        self.events.append("p%d uses %s: removes %s (a ♥ face card dispels face cards, target per FA-18 \"%s\", "
                           "F-HRT-1)" % (player, A.card_text(heart, player), " ".join(A.card_text(c, player) for c in removed),
                                         self.rules.reading("FA-18")))
        for card in removed:
            self._leave_field(card)
        self._move(heart, L.Z_GRAVE, player)
        if self.is_human(player) and self.rules.reading("FA-9") == "damage":
            self.counters[L.CT_HUMAN_PENALTY] += 1
            self._damage(player, 1)

    # ---- F-HUW-1 Destiny ----------------------------------------------------------------------------
    def _check_destiny(self, player: int) -> None:
        """F-HUW-1 / FA-10: 8-9-10 (or 10-9-8) and J-Q-K (or K-Q-J) placed this turn."""
        if not self.is_human(player) or self.phase == L.PH_OVER:
            return
        normals, faces = [], []
        for row in range(3):
            placed = [c for c in self.row(player, row)
                      if self.arrival[c] == self.turn and L.card_owner(c) == player]
            normal = [c for c in placed if is_normal(L.card_code(c))]
            face = [c for c in placed if is_face(L.card_code(c))]
            if not normal or not face:
                return
            normals.append(normal[0])
            faces.append(face[0])
        numbers = tuple(self.original_number(c) for c in normals)
        ranks = tuple(rank_of(L.card_code(c)) for c in faces)
        if numbers not in ((8, 9, 10), (10, 9, 8)) or ranks not in ((JACK, QUEEN, KING), (KING, QUEEN, JACK)):
            return
        # ♦/♥ in row 1, ♠/♥ in row 2, ♣ in row 3, face cards of the row's suit (placement
        # guarantees this; a sandbox position may not)
        suits = [suit_of(L.card_code(c)) for c in normals + faces]
        if suits[0] not in (0, HEART) or suits[1] not in (1, HEART) or suits[2:] != [2, 0, 1, 2]:
            return
        if self.rules.reading("FA-10") == "order":
            sequence = [self.order[c] for c in normals + faces]
            if sequence != sorted(sequence):
                return
        self.events.append("p%d completes Destiny" % player)
        self._end(player, L.END_DESTINY)
