"""Reference engine, part 5: the player decisions of FA-4 "choice" and FA-6 "choice".

A mixin of `reference.Match`. Both readings turn a fixed rule into a decision
(see docs/engine-contract.md, "Player decisions of FA-4 and FA-6"):

- FA-4 "choice": after the hand check, a Human turn player with a mandatory
  effect due (F-TURN-5) decides whether it resolves now (as "preparation")
  or after the draw (as "placement_start"): PENDING_TIMING, actions
  `effects now` / `effects after-draw`.
- FA-6 "choice": when a card choice (`pick`) of F-ATK-5, Mind Magic,
  Self-Destruct or the J+K cull finds several tied cards, the effect's
  controller picks one: PENDING_TIE, one `tie CARD` per tied card. The
  interrupted effect stops there and goes on from the pick (`_apply_tie`);
  everything it would have done after the pick happens after it, in the
  same order, so the readings differ from "earliest" only in which card.

Polymorph's largest card (F-HUJ-1) stays "earliest": a continuous effect
cannot stop to ask.
"""

from __future__ import annotations

from sim.cards import JACK
from sim.faction_war import actions as A
from sim.faction_war import layout as L


class ChoiceRules:
    """FA-4 and FA-6 decisions: opening them, listing them, going on after them."""

    # ---- FA-6 "choice" -----------------------------------------------------------------
    def choose_card(self, row: int, players: int, exclude: int, largest: bool, site: int,
                    context: int):
        """`pick` over the normal cards of row `row` controlled by the players in bit set
        `players` (but `exclude`); under FA-6 "choice" with two or more tied cards (and
        the match not over) opens PENDING_TIE for the effect's controller and returns
        None. The controller is the attacker for TIE_SITE_ATTACK, else the turn player
        (the Human whose face cards act)."""
        cards = self._tie_pool(row, players, exclude)
        key = self.largest_key if largest else self.smallest_key
        if self.rules.reading("FA-6") != "choice" or self.phase == L.PH_OVER:
            return self.pick(cards, key)
        tied = self._tied(cards, key)
        if len(tied) == 1:
            return tied[0]
        chooser = self.active
        self.pending[L.P_KIND] = L.PENDING_TIE
        self.pending[L.P_PLAYER] = chooser
        self.pending[L.P_TIE_ROW] = row
        self.pending[L.P_TIE_PLAYERS] = players
        self.pending[L.P_TIE_EXCLUDED] = exclude
        self.pending[L.P_TIE_LARGEST] = 1 if largest else 0
        self.pending[L.P_TIE_SITE] = site
        self.pending[L.P_TIE_CONTEXT] = context
        self.decider = chooser
        self.events.append("  p%d chooses among the tied %s" % (
            chooser, " ".join(A.card_text(c, chooser) for c in tied)))
        return None

    def _tie_pool(self, row: int, players: int, exclude: int) -> list[int]:
        return [c for p in (0, 1) if players >> p & 1 for c in self.normals_in_row(p, row) if c != exclude]

    def _tied(self, cards: list[int], key) -> list[int]:
        best = min(key(c) for c in cards)
        return sorted(c for c in cards if key(c) == best)

    def _tie_actions(self) -> list[int]:
        pending = self.pending
        cards = self._tie_pool(pending[L.P_TIE_ROW], pending[L.P_TIE_PLAYERS], pending[L.P_TIE_EXCLUDED])
        key = self.largest_key if pending[L.P_TIE_LARGEST] else self.smallest_key
        return [A.encode(A.TIE_PICK, c) for c in self._tied(cards, key)]

    def _close_tie(self) -> tuple[int, int, int, int]:
        """Clear PENDING_TIE; returns (site, row, excluded card, context)."""
        site, row, exclude, context = (self.pending[L.P_TIE_SITE], self.pending[L.P_TIE_ROW],
                                       self.pending[L.P_TIE_EXCLUDED], self.pending[L.P_TIE_CONTEXT])
        self._clear_pending(self.active)
        self.pending[L.P_TIE_CONTEXT] = 0
        return site, row, exclude, context

    def _apply_tie(self, card: int) -> None:
        """TIE_PICK: finish the interrupted effect with `card`, then go on after it."""
        site, row, exclude, context = self._close_tie()
        self.events.append("  p%d picks %s" % (self.active, A.card_text(card, self.active)))
        if site == L.TIE_SITE_ATTACK:
            attack_row = context
            self._row_hit_with(attack_row, row, card)
            self._finish_joker_row_hit(attack_row, row)
            return
        stage, step, keep_a, keep_b = L.tie_context_fields(context)
        player = self.active
        if site == L.TIE_SITE_MIND_MAGIC:
            self._steal(player, row, card)
        elif site == L.TIE_SITE_SELF_DESTRUCT:
            self._destroy_largest(player, row, card)
        else:  # the cull's keeps so far: the third one (step 3) was the excluded card
            if not self._cull_from(player, row, stage, [keep_a, keep_b, exclude][:step] + [card]):
                return  # another tie to decide
        self._resume_mandatory(row + 1, stage)

    # ---- FA-4 "choice" -----------------------------------------------------------------
    def mandatory_effect_due(self, player: int) -> bool:
        """F-TURN-5/6: a Human player's row holds a Q, K or combination present since an
        earlier turn (the effects `_mandatory_effects` would resolve)."""
        if not self.is_human(player):
            return False
        for row in range(3):
            ranks, present_since = self.row_effect(player, row)
            if ranks and ranks != (JACK,) and present_since < self.turn:
                return True
        return False

    def _open_timing(self) -> None:
        self.pending[L.P_KIND] = L.PENDING_TIMING
        self.pending[L.P_PLAYER] = self.active
        self.decider = self.active
        self.events.append("  p%d chooses when its mandatory effects resolve" % self.active)

    def _apply_timing(self, after_draw: int) -> None:
        """MANDATORY_TIMING: the effects now (then the draw), or the draw first."""
        self._clear_pending(self.active)
        self.events.append("p%d resolves its effects %s" % (self.active, "after the draw" if after_draw else "now"))
        if after_draw:
            self._draw_phase()
            if self.phase != L.PH_OVER:
                self._mandatory_effects(0, L.STAGE_AFTER_DRAW)
            return
        self._resume_mandatory(0, L.STAGE_BEFORE_DRAW)

    def _resume_mandatory(self, first_row: int, stage: int) -> None:
        """Mandatory effects from `first_row` on; before the draw, then the draw phase."""
        self._mandatory_effects(first_row, stage)
        if self.phase == L.PH_OVER or self.pending[L.P_KIND] != L.PENDING_NONE:
            return
        if stage == L.STAGE_BEFORE_DRAW:
            self._draw_phase()
