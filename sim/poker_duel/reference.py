"""Poker Duel reference engine: plain Python, the executable spec.

Clause IDs (D-…) and ambiguity switches (D-AMB-nn) refer to
`../shared/rules/poker-duel.md`; where a method implements a clause its
docstring names it. The state packs into `layout.py` (`Match.to_array`)
so the coming numba kernel can be checked against it after every action.

Flow: a match is a loop of decisions. `legal_actions()` lists the decider's
choices (ascending integers, `actions.py`); `apply(action)` moves on until the
next decision. A pending choice (J targets, Q count, a response window, K's
picks and placements …) takes precedence over the phase's own actions.
Randomness: the state's SplitMix64 generator is drawn only to shuffle the
two decks at the start (player 0's first) and, under D-AMB-07 "one_redraw",
to shuffle a redrawn deck; nowhere else.
"""

from __future__ import annotations

import numpy as np

from sim import rng as rng_module
from sim.cards import BIG_JOKER, CLUB, DIAMOND, HEART, JACK, KING, QUEEN, SMALL_JOKER, SPADE, rank_of, suit_of
from sim.errors import CardbalanceError
from sim.poker_duel import actions as A
from sim.poker_duel import layout as L
from sim.poker_duel.rules import Rules

N = L.N_CODES
Z = L.ZONE_SLOTS


class GameOver(Exception):
    """Raised inside an action when the match ends; `apply` stops there."""


def owner_of(card: int) -> int:
    return card // N


def code_of(card: int) -> int:
    return card % N


def is_monster_card(card: int) -> bool:
    """A–10 (D-COMP-2)."""
    code = code_of(card)
    return code < 52 and rank_of(code) <= 10


def fn_kind(card: int) -> int:
    """J/Q/K and the jokers (D-COMP-3/4) -> layout.FN_*, else -1."""
    code = code_of(card)
    if code == BIG_JOKER:
        return L.FN_BIG
    if code == SMALL_JOKER:
        return L.FN_SMALL
    return {JACK: L.FN_J, QUEEN: L.FN_Q, KING: L.FN_K}.get(rank_of(code), -1)


def colour(card: int) -> int:
    """0 red (♥ ♦), 1 black (♠ ♣) (D-COMP-5)."""
    return 1 if suit_of(code_of(card)) in (SPADE, CLUB) else 0


class Match:
    """One match in Python objects; `to_array` packs it into the shared layout."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.rng = rng_module.PyRng(0)
        self.turn, self.active, self.first = 1, 0, 0
        self.phase, self.decider = L.PH_MAIN, 0
        self.winner, self.end_type = -1, L.END_NONE
        self.hp, self.start_hp = [0, 0], [0, 0]
        self.seq = 0
        self.uses = [[0, 0, 0], [0, 0, 0]]
        self.turn_suit = -1
        self.new_attacks = 0
        self.attacker, self.target = -1, -1
        self.passes = 0
        self.priority_owner = 0
        self.redirected = 0
        self.extra_attacker = -1
        self.chain: list[list[int]] = []  # [card, player, kind, n, count, targets...]
        self.pend_kind, self.pend_player, self.pend_entry = L.PK_NONE, 0, -1
        self.pend_max, self.pend_chosen, self.pend_return = 0, 0, 0
        self.pend_list: list[int] = []
        self.resolving: list[int] | None = None  # chain entry whose resolution waits on a choice
        self.counters = [0] * L.N_COUNTERS
        self.deck: list[list[int]] = [[], []]
        self.monster = [[-1] * Z, [-1] * Z]
        self.back = [[-1] * Z, [-1] * Z]
        self.zone = [L.Z_DECK] * L.N_CARDS
        self.pos = [0] * L.N_CARDS
        self.set_turn = [0] * L.N_CARDS
        self.boost = [0] * L.N_CARDS
        self.flags = [0] * L.N_CARDS

    # ================================================================ set-up
    @classmethod
    def new(cls, rules: Rules, hp0: int, hp1: int, first: int, seed: int) -> "Match":
        """D-COMP-1, D-SETUP-1..4: own 54-card decks shuffled (player 0's first),
        `start_hand` cards each, the first player first, then the first turn."""
        m = cls(rules)
        m.rng = rng_module.PyRng(seed)
        m.hp, m.start_hp = [hp0, hp1], [hp0, hp1]
        m.first = m.active = m.decider = first
        for p in (0, 1):
            deck = [L.card_id(p, code) for code in range(N)]
            for i in range(N - 1, 0, -1):
                j = m.rng.below(i + 1)
                deck[i], deck[j] = deck[j], deck[i]
            m.deck[p] = deck
            for i, card in enumerate(deck):
                m.pos[card] = i
        try:
            for p in (first, 1 - first):
                for _ in range(rules.start_hand):
                    m._draw_one(p, check=False)
            m._opening_straight_flush()
            if rules.reading("D-AMB-07") == "one_redraw":
                m._pend(L.PK_MULLIGAN, first, 0)  # the first player decides first
                return m
            m._begin_turn()
        except GameOver:
            pass
        return m

    def _redraw(self, p: int):
        """D-AMB-07 "one_redraw": the hand goes back on the deck (ascending card id), the
        whole deck is shuffled again from the state's generator, and the player draws
        `start_hand` cards; the new hand is then checked for a straight flush."""
        for card in self.hand(p):
            self.zone[card], self.set_turn[card], self.boost[card], self.flags[card] = L.Z_DECK, 0, 0, 0
            self.deck[p].append(card)
        deck = self.deck[p]
        for i in range(len(deck) - 1, 0, -1):
            j = self.rng.below(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        for _ in range(min(self.rules.start_hand, len(deck))):
            self._draw_one(p, check=False)
        self._check_straight_flush(p)

    # ================================================================ helpers
    def value(self, card: int) -> int:
        """Point value (§0.3); A per D-AMB-06 (1 / 14 / 11)."""
        rank = rank_of(code_of(card))
        return int(self.rules.reading("D-AMB-06")) if rank == 1 else rank

    def controller(self, card: int) -> int:
        """Whose zones hold `card`: its owner, or the K user that took it (D-AMB-60)."""
        return L.controller(card, self.flags[card])

    def _candidates(self, p: int) -> list[int]:
        """The cards `p` may hold: their own, and under D-AMB-60 "k_searches_both" also
        the opponent's (which a K may have taken), own first."""
        span = 2 * N if self.rules.reading("D-AMB-60") == "k_searches_both" else N
        return [(p * N + i) % L.N_CARDS for i in range(span)]

    def hand(self, p: int) -> list[int]:
        return [c for c in self._candidates(p) if self.zone[c] == L.Z_HAND and self.controller(c) == p]

    def name(self, p: int, kind: int, card: int, b: int = 0) -> int:
        """The action of kind `kind` naming `card` for decider `p` (actions.OTHER for the opponent's card)."""
        return A.encode(kind, code_of(card), b + A.name_bits(p, card))

    def graveyard(self, p: int) -> list[int]:
        return sorted((c for c in range(p * N, p * N + N) if self.zone[c] == L.Z_GRAVE), key=lambda c: self.pos[c])

    def monsters(self, p: int) -> list[int]:
        return [c for c in self.monster[p] if c >= 0]

    def set_cards(self, p: int) -> list[int]:
        return [c for c in self.back[p] if c >= 0 and self.zone[c] == L.Z_BACK]

    def free_back_slot(self, p: int) -> int:
        for i in range(self.rules.back_row):
            if self.back[p][i] < 0:
                return i
        return -1

    def free_monster_slot(self, p: int) -> int:
        for i in range(self.rules.monster_zone):
            if self.monster[p][i] < 0:
                return i
        return -1

    def atk(self, card: int) -> int:
        """D-DC-5: point value plus the boosts active on it."""
        return self.value(card) + self.boost[card]

    def _win(self, player: int, end_type: int):
        self.winner, self.end_type, self.phase = player, end_type, L.PH_OVER
        self.pend_kind = L.PK_NONE
        raise GameOver

    def _draw_end(self, end_type: int):
        self.winner, self.end_type, self.phase = -1, end_type, L.PH_OVER
        self.pend_kind = L.PK_NONE
        raise GameOver

    def _to_grave(self, card: int):
        """Every card goes to its owner's graveyard (D-AMB-60, either reading), in arrival
        order, leaving its controller's zone."""
        p = self.controller(card)
        if self.zone[card] == L.Z_MONSTER:
            self.monster[p][self.pos[card]] = -1
        elif self.zone[card] in (L.Z_BACK, L.Z_CHAIN) and self.pos[card] >= 0 and self.back[p][self.pos[card]] == card:
            self.back[p][self.pos[card]] = -1
        self.seq += 1
        self.zone[card], self.pos[card] = L.Z_GRAVE, self.seq
        self.set_turn[card] = self.boost[card] = self.flags[card] = 0

    def _to_hand(self, card: int, check: bool = True, p: int = -1):
        """Into `p`'s hand (default the owner's); another player's card is F_TAKEN (D-AMB-60)."""
        p = owner_of(card) if p < 0 else p
        self.zone[card], self.pos[card] = L.Z_HAND, 0
        self.set_turn[card] = self.boost[card] = 0
        self.flags[card] = L.F_TAKEN if p != owner_of(card) else 0
        if check:
            self._check_straight_flush(p)

    def _draw_one(self, p: int, check: bool = True):
        card = self.deck[p].pop()
        self._to_hand(card, check)

    def _damage(self, p: int, amount: int, spade: bool = False):
        """D-WIN-1, D-AMB-44 "every_event": HP <= 0 loses at once; "end_of_step": the
        loss waits for the end of the step or phase; D-AMB-54 "end_of_phase": a spade
        burn's loss waits for the end of the phase."""
        if amount <= 0:
            return
        self.hp[p] -= amount
        deferred = (self.rules.reading("D-AMB-44") == "end_of_step"
                    or (spade and self.rules.reading("D-AMB-54") == "end_of_phase"))
        if self.hp[p] <= 0 and not deferred:
            self._win(1 - p, L.END_LIFE)

    def _hp_checkpoint(self, step: bool):
        """Where deferred losses are checked: the end of a step (D-AMB-44 "end_of_step")
        or of the main / battle phase (that, or D-AMB-54 "end_of_phase"); a heart may
        have healed in between; both at 0 -> D-AMB-45."""
        if not (self.rules.reading("D-AMB-44") == "end_of_step"
                or (not step and self.rules.reading("D-AMB-54") == "end_of_phase")):
            return
        low = [p for p in (0, 1) if self.hp[p] <= 0]
        if len(low) == 2:
            if self.rules.reading("D-AMB-45") == "turn_player_wins":
                self._win(self.active, L.END_LIFE)
            self._draw_end(L.END_DRAW_HP)
        if low:
            self._win(1 - low[0], L.END_LIFE)

    def _heal(self, p: int, amount: int):
        """D-ADV-2; cap per D-AMB-50."""
        self.hp[p] += amount
        if self.rules.reading("D-AMB-50") == "starting_hp":
            self.hp[p] = min(self.hp[p], self.start_hp[p])

    # ================================================================ straight flush
    def has_straight_flush(self, p: int) -> bool:
        """D-SF-1..3: 5 same-suit consecutive values in hand (D-AMB-58 zone), A = 1 or 14
        (D-SF-2), J/Q/K = 11/12/13; wrap per D-AMB-56, jokers wild per D-AMB-57."""
        cards = self.hand(p)
        if self.rules.reading("D-AMB-58") == "hand_and_back_row":
            cards += self.set_cards(p)
        jokers = sum(1 for c in cards if code_of(c) >= 52) if self.rules.reading("D-AMB-57") == "yes" else 0
        wrap = self.rules.reading("D-AMB-56") == "yes"
        for suit in range(4):
            ranks = {rank_of(code_of(c)) for c in cards if code_of(c) < 52 and suit_of(code_of(c)) == suit}
            if len(ranks) + jokers < 5:
                continue
            starts = range(1, 14) if wrap else range(1, 11)
            for start in starts:
                run = [((start - 1 + k) % 13) + 1 for k in range(5)]  # 14 is A (rank 1)
                if sum(1 for r in run if r not in ranks) <= jokers:
                    return True
        return False

    def _check_straight_flush(self, p: int):
        """D-AMB-55 "automatic": revealed the first moment a hand holds one (D-WIN-3)."""
        if self.rules.straight_flush_on and self.rules.reading("D-AMB-55") == "automatic" and self.has_straight_flush(p):
            self._win(p, L.END_STRAIGHT_FLUSH)

    def _opening_straight_flush(self):
        """D-AMB-45: both opening hands straight flushes -> a draw (or the turn player wins)."""
        if not (self.rules.straight_flush_on and self.rules.reading("D-AMB-55") == "automatic"):
            return
        both = [self.has_straight_flush(p) for p in (0, 1)]
        if all(both):
            if self.rules.reading("D-AMB-45") == "turn_player_wins":
                self._win(self.first, L.END_STRAIGHT_FLUSH)
            self._draw_end(L.END_DRAW_SF)
        for p in (self.first, 1 - self.first):
            if both[p]:
                self._win(p, L.END_STRAIGHT_FLUSH)

    # ================================================================ turn structure
    def _begin_turn(self):
        """D-TURN-1, D-DRAW-1..3: reset this turn's counters, draw, main phase."""
        p = self.active
        if self.turn > self.rules.turn_cap:
            self._draw_end(L.END_TURN_CAP)
        self.uses = [[0, 0, 0], [0, 0, 0]]  # D-AMB-19: reset at each turn start
        self.turn_suit, self.new_attacks = -1, 0
        for card in range(L.N_CARDS):
            self.flags[card] &= ~(L.F_NEW | L.F_ATTACKED | L.F_EXTRA_USED | L.F_NEW_ATTACKER)
        need = self.rules.p1_first_draw if (self.turn == 1 and p == self.first) else self.rules.draw_per_turn
        threshold = 2 if self.rules.reading("D-AMB-09") == "literal_2" else need
        if len(self.deck[p]) < threshold:
            self._win(1 - p, L.END_DECK_OUT)  # D-DRAW-3, D-WIN-2
        self.phase, self.decider = L.PH_MAIN, p
        count = min(need, len(self.deck[p]))
        if self.rules.reading("D-AMB-11") == "optional" and count > 0:
            self._pend(L.PK_DRAW, p, count)  # D-AMB-11 "optional": draw all `count` or none
            return
        for _ in range(count):
            self._draw_one(p)

    def _end_main(self):
        """D-BP-1: the first player skips the battle phase on turn 1; D-AMB-29: it
        also ends at once when no attack is legal."""
        self._hp_checkpoint(step=False)
        p = self.active
        if self.turn == 1 and p == self.first and not self.rules.p1_first_battle:
            self._end_phase()
            return
        self.phase, self.decider = L.PH_DECLARE, p
        self.extra_attacker = -1
        if not self._declare_has_options():
            self._end_battle_phase()

    def _end_battle_phase(self):
        """Boosts expire (D-DS-3, D-AMB-38 "battle_phase"); late boost cards go (D-AMB-39)."""
        self._hp_checkpoint(step=False)
        for card in self.monsters(self.active):  # D-AMB-52 "also_defending": use it or lose it
            self.flags[card] &= ~L.F_EXTRA_EARNED
        for p in (0, 1):
            for card in self.monsters(p):
                self.boost[card] = 0
            for card in list(self.back[p]):
                if card >= 0 and self.flags[card] & L.F_BOOSTING:
                    self._to_grave(card)
        self.attacker = self.target = self.extra_attacker = -1
        self._end_phase()

    def _end_phase(self):
        """D-END-1 (D-AMB-46 scope), then D-END-2 / D-TURN-3: the opponent's turn."""
        self.phase = L.PH_DISCARD
        order = [self.active] + ([1 - self.active] if self.rules.reading("D-AMB-46") == "both" else [])
        for p in order:
            if len(self.hand(p)) > self.rules.hand_limit:
                self.decider = p
                return
        self._next_turn()

    def _next_turn(self):
        self.turn += 1
        self.active = 1 - self.active
        self._begin_turn()

    # ================================================================ legal actions
    def legal_actions(self) -> list[int]:
        if self.phase == L.PH_OVER:
            return []
        if self.pend_kind != L.PK_NONE:
            out = self._pending_options()
        elif self.phase == L.PH_MAIN:
            out = self._main_options()
        elif self.phase == L.PH_DECLARE:
            out = self._declare_options()
        elif self.phase == L.PH_BATTLE:
            out = self._battle_step_options()
        elif self.phase == L.PH_DAMAGE:
            out = self._damage_options()
        else:
            out = [self.name(self.decider, A.DISCARD, c) for c in self.hand(self.decider)]
        if (self.rules.reading("D-AMB-18") == "must_at_once" and self.pend_kind == L.PK_NONE
                and any(A.decode(a)[0] == A.ACT_SET for a in out)):
            out = [a for a in out if A.decode(a)[0] == A.ACT_SET]  # only just-set cards: activate them now
        if (self.rules.straight_flush_on and self.rules.reading("D-AMB-55") == "optional"
                and self.has_straight_flush(self.decider)):
            out.append(A.encode(A.REVEAL))  # D-AMB-55 "optional": at any decision, as a choice
        return sorted(set(out))

    def _summon_options(self, p: int, card: int, by_k: bool) -> list[int]:
        """D-SUM-2, D-SUM-5 (D-AMB-15 "when_summoning"): a free slot, or bump one."""
        if self.free_monster_slot(p) >= 0:
            return [self.name(p, A.SUMMON, card)]
        return [self.name(p, A.SUMMON, card, slot + 1) for slot in range(self.rules.monster_zone)
                if self.monster[p][slot] >= 0]

    def _suit_allows(self, p: int, card: int) -> bool:
        """D-SUM-1 with D-AMB-12: per turn (default) or field-wide."""
        suit = suit_of(code_of(card))
        scope = self.rules.reading("D-AMB-12")
        if scope == "field_wide":
            return all(suit_of(code_of(m)) == suit for m in self.monsters(p))
        if scope == "match_field":  # the suit of a monster already on one's field (any, when K mixed them)
            return not self.monsters(p) or any(suit_of(code_of(m)) == suit for m in self.monsters(p))
        return self.turn_suit in (-1, suit)  # per turn; per batch: turn_suit is reset between batches

    def _can_activate(self, p: int, card: int, in_battle: bool = False) -> bool:
        """D-AMB-20 "no": J/Q/K and jokers need something to act on; "yes": any
        function card may be activated empty (to raise the counter, D-FN-7)."""
        kind = fn_kind(card)
        opponent = 1 - p
        if (self.rules.reading("D-AMB-18") == "must_at_once" and self.zone[card] == L.Z_BACK
                and not self.flags[card] & L.F_JUST_SET):
            return False  # D-AMB-18 "must_at_once": a set function card not used at once never is
        if kind >= 0 and self.rules.reading("D-AMB-20") == "yes":
            return True
        if kind == L.FN_J:
            return bool(self._j_targets(p))
        if kind == L.FN_Q:
            return len(self.deck[p]) > 0 or self.rules.reading("D-AMB-10") != "capped"
        if kind == L.FN_K:
            return bool(self._k_eligible(p))
        if kind == L.FN_BIG:
            return bool(self.monsters(opponent))
        if kind == L.FN_SMALL:
            return bool(self._small_joker_targets(opponent))
        return False

    def _small_joker_targets(self, opponent: int) -> list[int]:
        """D-JOKER-1, D-AMB-28: every set card (set A–10 included by default)."""
        hits_monsters = self.rules.reading("D-AMB-28") == "yes"
        return [c for c in self.set_cards(opponent) if hits_monsters or not is_monster_card(c)]

    def _j_targets(self, p: int) -> list[int]:
        """D-J-1, D-AMB-21: opponent field positions (0..4 monsters, 5..9 set cards),
        never a card on the chain."""
        opponent = 1 - p
        out = [slot for slot in range(Z) if self.monster[opponent][slot] >= 0]
        if self.rules.reading("D-AMB-21") == "monsters_and_set":
            out += [Z + slot for slot in range(Z) if self.back[opponent][slot] >= 0
                    and self.zone[self.back[opponent][slot]] == L.Z_BACK]
        return out

    def _k_eligible(self, p: int) -> list[int]:
        """D-K-1, D-K-4: own graveyard, no K and no jokers; under D-AMB-60
        "k_searches_both" the opponent's graveyard too."""
        searched = self.graveyard(p)
        if self.rules.reading("D-AMB-60") == "k_searches_both":
            searched += self.graveyard(1 - p)
        return [c for c in searched if fn_kind(c) not in (L.FN_K, L.FN_BIG, L.FN_SMALL)]

    def _may_set(self, card: int) -> bool:
        """D-AMB-18 "set_is_activation": setting a function card is its activation, so
        J/Q/K and jokers are never set face-down (they are activated from hand,
        D-FN-2); A-10 are set as usual."""
        return not (fn_kind(card) >= 0 and self.rules.reading("D-AMB-18") == "set_is_activation")

    def _hand_activation_allowed(self, p: int, card: int) -> bool:
        """D-FN-2/3: a function card from hand needs a free back-row slot; jokers
        are function cards by D-AMB-02 "yes" (no slot needed under "no")."""
        if fn_kind(card) in (L.FN_BIG, L.FN_SMALL) and self.rules.reading("D-AMB-02") == "no":
            return True
        return self.free_back_slot(p) >= 0

    def _main_options(self) -> list[int]:
        """D-MAIN-1/2: summon, set, use function cards, in any order; or end the main phase."""
        p = self.decider
        if p != self.active:  # D-AMB-25 "both_freely": the non-turn player holds priority
            return [A.encode(A.PASS)] + self._free_activations(p)
        out = [A.encode(A.PASS)]
        hand = self.hand(p)
        for card in hand:
            if is_monster_card(card) and self._suit_allows(p, card):
                out += self._summon_options(p, card, by_k=False)
            if self.free_back_slot(p) >= 0 and self._may_set(card):
                out.append(self.name(p, A.SET, card))  # D-SET-1/2
            if fn_kind(card) >= 0 and self._hand_activation_allowed(p, card) and self._can_activate(p, card):
                out.append(self.name(p, A.ACT_HAND, card))
        for slot in range(Z):
            card = self.back[p][slot]
            if card >= 0 and self.zone[card] == L.Z_BACK and fn_kind(card) >= 0 and self._can_activate(p, card):
                out.append(A.encode(A.ACT_SET, slot))  # D-FN-5, D-FN-6
            if (card >= 0 and self.zone[card] == L.Z_BACK and is_monster_card(card)
                    and self.rules.reading("D-AMB-16") == "yes" and self._suit_allows(p, card)):
                out += self._summon_options(p, card, by_k=False)  # a set monster card flipped up
        if self.rules.reading("D-AMB-15") == "any_time_main":  # a bump on its own, any monster
            out += [A.encode(A.BUMP, slot) for slot in range(Z) if self.monster[p][slot] >= 0]
        if (self.rules.straight_flush_on and self.rules.reading("D-AMB-55") == "main_phase_declaration"
                and self.has_straight_flush(p)):
            out.append(A.encode(A.REVEAL))
        return out

    def _free_activations(self, p: int) -> list[int]:
        """D-AMB-25 "both_freely": the set function cards the non-turn player may
        activate in the turn player's main phase (as the turn player could, D-FN-5)."""
        if self.rules.reading("D-AMB-25") != "both_freely":
            return []
        return [A.encode(A.ACT_SET, slot) for slot in range(Z)
                if self.back[p][slot] >= 0 and self.zone[self.back[p][slot]] == L.Z_BACK
                and fn_kind(self.back[p][slot]) >= 0 and self._can_activate(p, self.back[p][slot])]

    def _attack_options(self) -> list[int]:
        """D-ATK-1/2, D-BP-2 (D-AMB-31), D-AMB-30, D-ADV-4 (D-AMB-63)."""
        p, opponent = self.active, 1 - self.active
        targets = [slot for slot in range(Z) if self.monster[opponent][slot] >= 0]
        out = []
        unlimited = self.rules.reading("D-AMB-30") == "unlimited"
        count_attacks = self.rules.reading("D-AMB-31") == "attacks"
        for slot in range(Z):
            card = self.monster[p][slot]
            if card < 0:
                continue
            if card == self.extra_attacker:
                if not (self.rules.reading("D-AMB-53") == "counts_new_attacker" and self.flags[card] & L.F_NEW):
                    out += [A.encode(A.ATTACK, slot, t) for t in targets]
                continue
            if self.flags[card] & L.F_ATTACKED and not unlimited:
                if self.flags[card] & L.F_EXTRA_EARNED:  # D-AMB-52 "also_defending": monsters only (S72)
                    out += [A.encode(A.ATTACK, slot, t) for t in targets]
                continue
            if self.flags[card] & L.F_NEW:
                used = self.new_attacks >= 1
                if used and (count_attacks or not self.flags[card] & L.F_NEW_ATTACKER):
                    continue
            out += [A.encode(A.ATTACK, slot, t) for t in (targets or [L.DIRECT])]
        return out

    def _battle_summon_options(self) -> list[int]:
        """D-AMB-17 "hand_in_battle_too": hand summons also at attack declaration
        (same suit rule and slot/bump rule as in the main phase)."""
        if self.rules.reading("D-AMB-17") != "hand_in_battle_too":
            return []
        p = self.active
        out = []
        for card in self.hand(p):
            if is_monster_card(card) and self._suit_allows(p, card):
                out += self._summon_options(p, card, by_k=False)
        return out

    def _declare_activations(self) -> list[int]:
        """D-AMB-64 "any_priority": the battle step's activations also whenever the
        turn player holds priority at attack declaration."""
        if self.rules.reading("D-AMB-64") != "any_priority":
            return []
        return self._battle_activatable(self.active)

    def _declare_has_options(self) -> bool:
        """Anything but 'pass' at attack declaration? (else the battle phase ends, D-AMB-29)"""
        return bool(self._attack_options() or self._battle_summon_options() or self._declare_activations())

    def _declare_options(self) -> list[int]:
        attacks = self._attack_options()
        out = attacks + self._battle_summon_options() + self._declare_activations()
        compulsory = (self.rules.reading("D-AMB-29") == "compulsory"
                      or self.rules.reading("D-AMB-61") == "attack_compulsory")
        # what is compulsory is an attack (not a summon or activation), and only a monster's first of
        # this battle phase: repeat attacks (D-AMB-30 "unlimited", the diamond's extra) stay optional,
        # else two monsters that tie under D-AMB-42 "nothing" would attack each other forever
        first_attacks = [a for a in attacks if not self.flags[self.monster[self.active][A.decode(a)[1]]] & L.F_ATTACKED]
        if not first_attacks or not compulsory:
            out.append(A.encode(A.PASS))
        return out

    def _battle_activatable(self, p: int) -> list[int]:
        """D-BS-1/7: set J/Q/K (jokers per D-AMB-26; from hand per D-AMB-27)."""
        out = []
        jokers = self.rules.reading("D-AMB-26") == "yes"
        for slot in range(Z):
            card = self.back[p][slot]
            if card >= 0 and self.zone[card] == L.Z_BACK:
                kind = fn_kind(card)
                if (kind in (L.FN_J, L.FN_Q, L.FN_K) or (jokers and kind >= 0)) and self._can_activate(p, card):
                    out.append(A.encode(A.ACT_SET, slot))
        if self.rules.reading("D-AMB-27") == "yes":
            for card in self.hand(p):
                kind = fn_kind(card)
                if ((kind in (L.FN_J, L.FN_Q, L.FN_K) or (jokers and kind >= 0))
                        and self._hand_activation_allowed(p, card) and self._can_activate(p, card)):
                    out.append(self.name(p, A.ACT_HAND, card))
        return out

    def _battle_step_options(self) -> list[int]:
        return [A.encode(A.PASS)] + self._battle_activatable(self.decider)

    def _damage_options(self) -> list[int]:
        """D-DS-2, D-DS-8 (D-AMB-62): set A–10 boosts on either battler."""
        p = self.decider
        out = [A.encode(A.PASS)]
        same_turn = self.rules.reading("D-AMB-62") == "yes"
        for slot in range(Z):
            card = self.back[p][slot]
            if (card >= 0 and self.zone[card] == L.Z_BACK and is_monster_card(card)
                    and not self.flags[card] & (L.F_BOOSTING | L.F_COMMITTED)
                    and (same_turn or self.set_turn[card] < self.turn)):
                out += [A.encode(A.BOOST, slot, which) for which in self._boost_targets()]
        return out

    def _boost_targets(self) -> list[int]:
        """D-AMB-37: 0 the attacker, 1 the defender; under "any_monster" also any other
        monster on the field, as 2 + owner * 5 + monster slot."""
        out = [0] if self.target == L.DIRECT_TARGET else [0, 1]  # D-AMB-04 "attacks_player"
        if self.rules.reading("D-AMB-37") == "any_monster":
            out += [2 + q * Z + slot for q in (0, 1) for slot in range(Z)
                    if self.monster[q][slot] >= 0 and self.monster[q][slot] not in (self.attacker, self.target)]
        return out

    def _pending_options(self) -> list[int]:
        p, kind = self.pend_player, self.pend_kind
        if kind == L.PK_J_TARGETS:
            chosen = set(self.pend_list)
            out = [A.encode(A.TARGET, t) for t in self._j_targets(p) if t not in chosen]
            return out + ([A.encode(A.PASS)] if self.pend_chosen >= 1 else [])
        if kind == L.PK_Q_COUNT:
            top = self.pend_max if self.rules.reading("D-AMB-10") != "capped" else min(self.pend_max, len(self.deck[p]))
            return [A.encode(A.COUNT, k) for k in range(1, top + 1)]
        if kind == L.PK_RESPONSE:
            return [A.encode(A.PASS)] + self._response_options(p)
        if kind == L.PK_K_PICKS:
            out = [self.name(p, A.PICK, c) for c in self._k_eligible(p) if c not in self.pend_list]
            return out + ([A.encode(A.PASS)] if self.pend_chosen >= 1 else [])
        if kind == L.PK_K_PLACE:
            card = self.pend_list[self.pend_chosen]
            together = self._k_monsters_together(card)
            if together == 1:
                return self._summon_options(p, card, by_k=True)  # the others were summoned: this one too
            out = [A.encode(A.PASS)]
            if is_monster_card(card) and together != 0:
                out += self._summon_options(p, card, by_k=True)
            if self.pend_return == L.PH_BATTLE and self.free_back_slot(p) >= 0 and self._may_set(card):
                out.append(self.name(p, A.SET, card))
            return out
        if kind == L.PK_Q_SET:
            card = self.pend_list[self.pend_chosen]
            out = [A.encode(A.PASS)]
            if self.free_back_slot(p) >= 0 and self._may_set(card):
                out.append(self.name(p, A.SET, card))
            return out
        if kind == L.PK_REDIRECT:
            return [A.encode(A.TARGET, self.pos[c]) for c in self.pend_list if self.zone[c] == L.Z_MONSTER]
        if kind == L.PK_DRAW:
            return [A.encode(A.PASS), A.encode(A.DRAW)]
        if kind == L.PK_MULLIGAN:
            return [A.encode(A.PASS), A.encode(A.REDRAW)]
        raise AssertionError(kind)

    def _k_monsters_together(self, card: int) -> int:
        """D-AMB-22 "all_or_none": the first recovered monster decides for the rest of
        this K's monsters: 1 = it was summoned (so must this one be), 0 = it was
        kept or set (so is this one); -1 = free (each optional, or no earlier monster)."""
        if self.rules.reading("D-AMB-22") != "all_or_none" or not is_monster_card(card):
            return -1
        for earlier in self.pend_list[:self.pend_chosen]:
            if is_monster_card(earlier):
                return 0 if self.zone[earlier] in (L.Z_HAND, L.Z_BACK) else 1
        return -1

    def _response_options(self, p: int) -> list[int]:
        """D-FN-8: set J/Q/K of the responder (never against the Small Joker, D-JOKER-2)."""
        out = []
        for slot in range(Z):
            card = self.back[p][slot]
            if (card >= 0 and self.zone[card] == L.Z_BACK and fn_kind(card) in (L.FN_J, L.FN_Q, L.FN_K)
                    and self._can_activate(p, card)):
                out.append(A.encode(A.ACT_SET, slot))
        return out

    # ================================================================ apply
    def apply(self, action: int):
        """Apply one legal action (CardbalanceError otherwise) and move on to the next decision."""
        if action not in self.legal_actions():
            raise CardbalanceError("illegal action '%s' (%d) for player %d in phase %s; legal: %s."
                                   % (A.to_text(action), action, self.decider, L.PHASE_NAMES[self.phase],
                                      ", ".join(A.to_text(a) for a in self.legal_actions()) or "none"))
        try:
            self._apply(action)
        except GameOver:
            pass

    def _apply(self, action: int):
        kind, a, b = A.decode(action)
        p = self.decider
        if (self.rules.reading("D-AMB-18") == "must_at_once" and self.pend_kind == L.PK_NONE
                and not (kind == A.ACT_SET and self.flags[self.back[p][a]] & L.F_JUST_SET)):
            for card in self._candidates(p):  # the moment has passed: those cards stay dead
                if self.controller(card) == p:
                    self.flags[card] &= ~L.F_JUST_SET
        if (self.rules.reading("D-AMB-12") == "per_batch" and kind != A.SUMMON and self.pend_kind == L.PK_NONE
                and self.phase in (L.PH_MAIN, L.PH_DECLARE)):
            self.turn_suit = -1  # D-AMB-12 "per_batch": any other action ends the batch of summons
        if kind == A.REVEAL:
            self._win(p, L.END_STRAIGHT_FLUSH)  # D-SF-1, D-WIN-3
        if self.pend_kind != L.PK_NONE:
            self._apply_pending(kind, a, b)
        elif self.phase == L.PH_MAIN:
            if kind == A.PASS and p == self.active and self._free_activations(1 - p):
                self.decider = 1 - p  # D-AMB-25 "both_freely": the opponent may act before the phase ends
            elif kind == A.PASS:
                self._end_main()
            elif kind == A.SUMMON:
                self._summon(p, A.card_of(p, a, b), A.bump_of(b), by_k=False)  # from hand (or back row, D-AMB-16)
            elif kind == A.SET:
                self._set(p, A.card_of(p, a, b))
            elif kind == A.ACT_HAND:
                self._activate(p, A.card_of(p, a, b), from_hand=True)
            elif kind == A.ACT_SET:
                self._activate(p, self.back[p][a], from_hand=False)
            elif kind == A.BUMP:  # D-AMB-15 "any_time_main"
                self._bump(p, a)
                self._check_straight_flush(p)  # a bumped-to-hand card (D-AMB-14 "hand")
            elif kind == A.REVEAL:
                self._win(p, L.END_STRAIGHT_FLUSH)
        elif self.phase == L.PH_DECLARE:
            if kind == A.PASS:
                self._end_battle_phase()
            elif kind == A.SUMMON:
                self._summon(p, A.card_of(p, a, b), A.bump_of(b), by_k=False)  # D-AMB-17 "hand_in_battle_too"
            elif kind in (A.ACT_HAND, A.ACT_SET):  # D-AMB-64 "any_priority"
                card = A.card_of(p, a, b) if kind == A.ACT_HAND else self.back[p][a]
                self._activate(p, card, from_hand=kind == A.ACT_HAND)
            else:
                self._declare(a, b)
        elif self.phase == L.PH_BATTLE and self.rules.reading("D-AMB-32") == "simultaneous":
            self._battle_commit(p, kind, a, b)
        elif self.phase == L.PH_BATTLE:
            if kind == A.PASS:
                self._battle_step_pass()
            else:
                self.priority_owner = p
                card = A.card_of(p, a, b) if kind == A.ACT_HAND else self.back[p][a]
                self._activate(p, card, from_hand=kind == A.ACT_HAND)
        elif self.phase == L.PH_DAMAGE:
            if kind == A.PASS:
                self._damage_pass()
            else:
                self._boost(p, self.back[p][a], b)
        elif self.phase == L.PH_DISCARD:
            self._discard(p, A.card_of(p, a, b))

    # ---------------------------------------------------------------- main-phase actions
    def _summon(self, p: int, card: int, bump_slot: int, by_k: bool):
        """D-SUM-1..6: face-up attack position; D-SUM-5 bump (D-AMB-14 destination);
        D-AMB-13 for K summons; D-ADV-1/2 on entering the field (D-AMB-49)."""
        if bump_slot >= 0:
            self._bump(p, bump_slot)
            slot = bump_slot
        else:
            slot = self.free_monster_slot(p)
        if self.zone[card] == L.Z_BACK:  # D-AMB-16 "yes": summoned from the back row
            self.back[p][self.pos[card]] = -1
        self.zone[card], self.pos[card] = L.Z_MONSTER, slot
        self.monster[p][slot] = card
        self.flags[card] = L.F_NEW | (self.flags[card] & L.F_TAKEN)  # a taken card stays p's (D-AMB-60)
        self.boost[card] = self.set_turn[card] = 0
        suit = suit_of(code_of(card))
        if not by_k or (self.rules.reading("D-AMB-13") == "fixes_suit" and self.turn_suit == -1):
            self.turn_suit = suit
        self.counters[1 if by_k else 0] += 1
        if bump_slot >= 0 and self.target == -1:
            pass
        self._enter_field(p, card)
        if bump_slot >= 0 and not by_k:
            self._check_straight_flush(p)  # a bumped-to-hand card (D-AMB-14 "hand")

    def _bump(self, p: int, slot: int):
        """D-SUM-5: the monster in `slot` leaves for the D-AMB-14 destination (not destroyed)."""
        bumped = self.monster[p][slot]
        destination = self.rules.reading("D-AMB-14")
        if destination == "graveyard":
            self._to_grave(bumped)
        elif destination == "hand":  # back to the hand it was summoned from (its controller's)
            self.monster[p][slot] = -1
            self._to_hand(bumped, check=False, p=p)
        else:  # the bottom of its owner's deck (a deck holds only its owner's cards, D-AMB-60)
            self.monster[p][slot] = -1
            self.zone[bumped], self.boost[bumped], self.flags[bumped] = L.Z_DECK, 0, 0
            self.deck[owner_of(bumped)].insert(0, bumped)
        self.counters[2] += 1

    def _enter_field(self, p: int, card: int):
        """D-ADV-1 spade burn ⌈v/2⌉ (D-AMB-54 at once), D-ADV-2 heart heal v."""
        if not self.rules.advanced_rules:
            return
        suit, value = suit_of(code_of(card)), self.value(card)
        if suit == SPADE:
            self.counters[14] += (value + 1) // 2
            self._damage(1 - p, (value + 1) // 2, spade=True)
        elif suit == HEART:
            self.counters[15] += value
            self._heal(p, value)

    def _set(self, p: int, card: int):
        """D-SET-1/2: face-down in the back row, remembering the turn (D-DS-8)."""
        slot = self.free_back_slot(p)
        self.zone[card], self.pos[card] = L.Z_BACK, slot
        self.back[p][slot] = card
        self.set_turn[card] = self.turn
        self.counters[3] += 1
        if self.rules.reading("D-AMB-18") == "must_at_once" and fn_kind(card) >= 0:
            self.flags[card] |= L.F_JUST_SET
        if self.rules.reading("D-AMB-49") == "also_set" and is_monster_card(card):
            self._enter_field(p, card)
        if self.rules.reading("D-AMB-58") == "hand_and_back_row":
            self._check_straight_flush(p)

    def _discard(self, p: int, card: int):
        """D-END-1, D-AMB-47: to the graveyard (or banished)."""
        if self.rules.reading("D-AMB-47") == "banished":
            self.zone[card], self.pos[card] = L.Z_BANISHED, 0
            self.flags[card] &= ~L.F_TAKEN  # out of play: nobody's
        else:
            self._to_grave(card)
        if len(self.hand(p)) <= self.rules.hand_limit:
            if self.rules.reading("D-AMB-46") == "both" and p == self.active and len(self.hand(1 - p)) > self.rules.hand_limit:
                self.decider = 1 - p
                return
            self._next_turn()

    # ---------------------------------------------------------------- function cards
    def _activate(self, p: int, card: int, from_hand: bool):
        """D-FN-2..7: from hand into a back-row slot, or a set card; escalation n (D-FN-7,
        D-AMB-19); the card waits on the chain (D-FN-8) holding its slot (D-AMB-23)."""
        if from_hand:
            needs_slot = not (fn_kind(card) in (L.FN_BIG, L.FN_SMALL) and self.rules.reading("D-AMB-02") == "no")
            slot = self.free_back_slot(p) if needs_slot else -1
            if slot >= 0:
                self.back[p][slot] = card
            self.pos[card] = slot
        self.zone[card] = L.Z_CHAIN
        if self.rules.reading("D-AMB-23") == "freed" and self.pos[card] >= 0:
            self.back[p][self.pos[card]] = -1
            self.pos[card] = -1
        kind = fn_kind(card)
        n = 1
        if kind in (L.FN_J, L.FN_Q, L.FN_K):
            scope = self.rules.reading("D-AMB-19")
            counter = self.uses[0] if scope == "global" else self.uses[p]
            n = counter[kind] + 1
            if scope != "own_turn_only" or p == self.active:
                counter[kind] += 1
            self.counters[4 + kind] += 1
        else:
            self.counters[7 if kind == L.FN_BIG else 8] += 1
        if self.chain:
            self.counters[9] += 1
        entry = [card, p, kind, n, 0]
        self.chain.append(entry)
        empty = self.rules.reading("D-AMB-20") == "yes"
        if kind == L.FN_J:
            self._pend(L.PK_J_TARGETS, p, n)
            if empty and not self._j_targets(p):
                self._finish_j_targets()  # D-AMB-20 "yes": an empty J
        elif kind == L.FN_Q:
            self._pend(L.PK_Q_COUNT, p, n + 1)
            if empty and self.rules.reading("D-AMB-10") == "capped" and not self.deck[p]:
                self.chain[-1][4] = 0  # D-AMB-20 "yes": an empty Q draws nothing
                self._after_activation()
        else:
            self._after_activation()

    def _pend(self, kind: int, player: int, maximum: int, items=()):
        self.pend_kind, self.pend_player, self.pend_max = kind, player, maximum
        self.pend_chosen, self.pend_list = 0, list(items)
        self.decider = player

    def _after_activation(self):
        """D-FN-8 (D-AMB-24): the opponent of the latest activator may respond with a set
        J/Q/K; nothing responds to the Small Joker (D-JOKER-2)."""
        entry = self.chain[-1]
        self.pend_kind = L.PK_NONE
        committed = self._committed(1 - entry[1])
        if committed >= 0:  # D-AMB-32 "simultaneous": the other revealed card joins the chain now
            self.flags[committed] &= ~L.F_COMMITTED
            from_hand = self.zone[committed] == L.Z_HAND
            if self._can_activate(1 - entry[1], committed) and (not from_hand or self._hand_activation_allowed(
                    1 - entry[1], committed)):
                self._activate(1 - entry[1], committed, from_hand=from_hand)
                return
        if entry[2] == L.FN_SMALL or self.rules.reading("D-AMB-24") == "none":
            self._resolve_chain()
            return
        responder = 1 - entry[1]
        if self._may_respond(responder):
            self._pend(L.PK_RESPONSE, responder, 0)
        else:
            self._resolve_chain()

    def _may_respond(self, p: int) -> bool:
        """Has `p` a response now? (D-AMB-25 "turn_player_only": never the non-turn
        player in the main phase.)"""
        if self.phase == L.PH_MAIN and p != self.active and self.rules.reading("D-AMB-25") == "turn_player_only":
            return False
        return bool(self._response_options(p))

    def _apply_pending(self, kind: int, a: int, b: int):
        p, pend = self.pend_player, self.pend_kind
        if pend == L.PK_J_TARGETS:
            if kind == A.PASS:
                self._finish_j_targets()
                return
            self.pend_list.append(a)
            self.pend_chosen += 1
            remaining = [t for t in self._j_targets(p) if t not in self.pend_list]
            if self.pend_chosen >= self.pend_max or not remaining:
                self._finish_j_targets()
        elif pend == L.PK_Q_COUNT:
            self.chain[-1][4] = a
            self._after_activation()
        elif pend == L.PK_RESPONSE:
            if (kind == A.PASS and self.rules.reading("D-AMB-24") == "full_chain" and self.pend_chosen == 0
                    and self._may_respond(1 - p)):
                self._pend(L.PK_RESPONSE, 1 - p, 0)  # D-AMB-24 "full_chain": the other player may add a link
                self.pend_chosen = 1  # one pass so far: a second one in a row resolves the chain
            elif kind == A.PASS:
                self.pend_kind = L.PK_NONE
                self._resolve_chain()
            else:
                self._activate(p, self.back[p][a], from_hand=False)
        elif pend == L.PK_K_PICKS:
            if kind == A.PASS:
                self._k_picks_done()
                return
            self.pend_list.append(A.card_of(p, a, b))
            self.pend_chosen += 1
            if self.pend_chosen >= self.pend_max or not [c for c in self._k_eligible(p) if c not in self.pend_list]:
                self._k_picks_done()
        elif pend == L.PK_K_PLACE:
            card = self.pend_list[self.pend_chosen]
            if kind == A.SUMMON:
                self._summon(p, card, A.bump_of(b), by_k=True)
                self.resolving.append(card)  # remember the K-summoned monsters (D-BS-4/5)
            elif kind == A.SET:
                self._set(p, card)
            self.pend_chosen += 1
            if self.pend_chosen >= len(self.pend_list):
                self._k_done()
        elif pend == L.PK_Q_SET:
            card = self.pend_list[self.pend_chosen]
            if kind == A.SET:
                self._set(p, card)
            else:
                self._check_straight_flush(p)  # D-AMB-59 "no": checked once it stays in hand
            self.pend_chosen += 1
            if self.pend_chosen >= len(self.pend_list):
                self._finish_entry()
        elif pend == L.PK_DRAW:  # D-AMB-11 "optional"
            self.pend_kind = L.PK_NONE
            if kind == A.DRAW:
                for _ in range(self.pend_max):
                    self._draw_one(p)
        elif pend == L.PK_MULLIGAN:  # D-AMB-07 "one_redraw": first player, then the other
            self.pend_kind = L.PK_NONE
            if kind == A.REDRAW:
                self._redraw(p)
            if p == self.first:
                self._pend(L.PK_MULLIGAN, 1 - p, 0)
            else:
                self._begin_turn()
        elif pend == L.PK_REDIRECT:
            self.target = self.monster[1 - self.active][a]
            self.redirected = 1
            if not self.chain:  # D-AMB-33 "replay": the battle step is over, boosts next
                self.pend_kind = L.PK_NONE
                self._damage_step()
                return
            self._finish_entry()

    def _finish_j_targets(self):
        entry = self.chain[-1]
        opponent = 1 - entry[1]
        cards = [self.monster[opponent][t] if t < Z else self.back[opponent][t - Z] for t in self.pend_list]
        entry[4] = len(cards)
        entry += cards  # targets remembered as cards (D-AMB-21: gone before resolving -> nothing)
        self._after_activation()

    # ---------------------------------------------------------------- resolving the chain
    def _resolve_chain(self):
        """D-FN-8: last in, first out; each card to the graveyard when resolved (D-FN-4)."""
        self.pend_kind = L.PK_NONE
        while self.chain:
            entry = self.chain[-1]
            card, p, kind, n, count = entry[:5]
            if kind == L.FN_J:
                self._resolve_j(entry)
            elif kind == L.FN_Q:
                if self._resolve_q(p, count):
                    return  # waits for the Q_SET choices
            elif kind == L.FN_K:
                self._pend(L.PK_K_PICKS, p, n)
                self.resolving = []
                if not self._k_eligible(p):
                    self._k_picks_done()
                return
            elif kind == L.FN_BIG:
                for target in self.monsters(1 - p):  # D-JOKER-3
                    self._to_grave(target)
            else:
                for target in self._small_joker_targets(1 - p):  # D-JOKER-1
                    self._to_grave(target)
            self.chain.pop()
            self._to_grave(card)
        self._after_chain()

    def _resolve_j(self, entry):
        """D-J-1/2: destroy the chosen opponent cards still on the field."""
        for target in entry[5:]:
            if self.zone[target] in (L.Z_MONSTER, L.Z_BACK):
                self._to_grave(target)

    def _resolve_q(self, p: int, count: int) -> bool:
        """D-Q-1/2 (D-AMB-10): draw; in the battle step each may be set (D-BS-2).
        Returns True when the set choices are pending."""
        if count > len(self.deck[p]):
            reading = self.rules.reading("D-AMB-10")
            if reading == "lose":
                self._win(1 - p, L.END_DECK_OUT)
            count = len(self.deck[p])
        in_battle = self.phase == L.PH_BATTLE
        check = not (in_battle and self.rules.reading("D-AMB-59") == "no")
        drawn = []
        for _ in range(count):
            card = self.deck[p].pop()
            self._to_hand(card, check=check)
            drawn.append(card)
        if in_battle and drawn:
            self._pend(L.PK_Q_SET, p, len(drawn), drawn)
            return True
        return False

    def _k_picks_done(self):
        """D-K-1..3: the picks join the hand (D-AMB-59: checked for a straight flush),
        then each may be summoned (D-K-2, D-AMB-22) or, in the battle step, set (D-BS-6)."""
        p = self.pend_player
        picks = list(self.pend_list)
        for card in picks:
            self._to_hand(card, p=p)  # the K user's hand, whoever owns it (D-AMB-60)
        self.pend_return = self.phase
        if picks:
            self._pend(L.PK_K_PLACE, p, len(picks), picks)
        else:
            self._k_done()

    def _k_done(self):
        """D-BS-4/5 (D-AMB-35): a defender's K summon in the battle step redirects the attack."""
        entry = self.chain[-1]
        p = entry[1]
        summoned = [c for c in (self.resolving or []) if self.zone[c] == L.Z_MONSTER]
        reading = self.rules.reading("D-AMB-35")
        redirect = (self.phase == L.PH_BATTLE and summoned and p != self.active and self.attacker >= 0
                    and not (reading == "not_on_direct" and self.target == L.DIRECT_TARGET)
                    and not (reading == "first_wins" and self.redirected))
        self.resolving = None
        if redirect and len(summoned) > 1:
            self._pend(L.PK_REDIRECT, p, len(summoned), summoned)
            return
        if redirect:
            self.target = summoned[0]
            self.redirected = 1
        self._finish_entry()

    def _finish_entry(self):
        entry = self.chain.pop()
        self._to_grave(entry[0])
        self.pend_kind = L.PK_NONE
        self._resolve_chain()

    def _after_chain(self):
        """Back to the phase: the turn player in the main phase; in the battle step the
        player who started the chain keeps priority (D-BS-3, D-BS-6)."""
        self.pend_kind = L.PK_NONE
        if self.phase == L.PH_MAIN:
            self.decider = self.active
        elif self.phase == L.PH_BATTLE:
            self.decider, self.passes = self.priority_owner, 0
        elif self.phase == L.PH_DECLARE:  # D-AMB-64 "any_priority": back to attack declaration
            self.decider = self.active
            if not self._declare_has_options():
                self._end_battle_phase()

    # ---------------------------------------------------------------- battle
    def _declare(self, slot: int, target_slot: int):
        """D-ATK-1/2: attack a monster, or the player when there is none."""
        self._hp_checkpoint(step=True)  # the declaration step ends
        p = self.active
        card = self.monster[p][slot]
        extra = card == self.extra_attacker
        if (not extra and self.flags[card] & L.F_ATTACKED and self.flags[card] & L.F_EXTRA_EARNED
                and self.rules.reading("D-AMB-30") == "one"):
            self.flags[card] &= ~L.F_EXTRA_EARNED  # D-AMB-52 "also_defending": the earned attack used
        if extra:
            self.flags[card] |= L.F_EXTRA_USED
        elif self.flags[card] & L.F_NEW:
            if not self.flags[card] & L.F_NEW_ATTACKER or self.rules.reading("D-AMB-31") == "attacks":
                self.new_attacks += 1
            self.flags[card] |= L.F_NEW_ATTACKER
        if extra or self.rules.reading("D-AMB-63") == "next_declaration":
            self.extra_attacker = -1  # D-AMB-63 (a): declared now or lost
        self.flags[card] |= L.F_ATTACKED
        self.attacker = card
        self.target = L.DIRECT_TARGET if target_slot == L.DIRECT else self.monster[1 - p][target_slot]
        self.redirected = 0
        self.counters[10] += 1
        if self.target == L.DIRECT_TARGET and self.rules.reading("D-AMB-65") == "skipped":
            self._damage_step()
            return
        if extra and self.rules.reading("D-AMB-53") == "skips_battle_step":
            self._damage_step(turn_player_first=True)
            return
        self._open_priority(L.PH_BATTLE)

    def _damage_step(self, turn_player_first: bool = False):
        """Step 3: the boost window (D-DS-2) or straight to damage (D-DS-1). D-AMB-04
        "between_monsters": boosts in a battle between monsters, none in a direct
        attack; "attacks_player" (S54 read literally): boosts only in a direct attack
        (on the attacker: the defender has no monster), a monster battle goes
        straight to damage."""
        direct = self.target == L.DIRECT_TARGET
        boosts = direct if self.rules.reading("D-AMB-04") == "attacks_player" else not direct
        if not boosts:
            self._damage_calculation()
            return
        self._open_priority(L.PH_DAMAGE)
        if turn_player_first or self.rules.reading("D-AMB-32") == "defender_only":
            self.decider = self.active  # boosts alternate turn player first (D-AMB-36)

    def _open_priority(self, phase: int):
        """D-AMB-32 / D-AMB-36: alternate, turn player first (or defender first / only)."""
        self.phase, self.passes = phase, 0
        order = self.rules.reading("D-AMB-32")  # "simultaneous": hidden commits, the turn player's first
        self.decider = self.active if order in ("turn_player_first", "simultaneous") else 1 - self.active

    def _committed(self, p: int) -> int:
        """D-AMB-32 "simultaneous": `p`'s card committed face-down this round, or -1."""
        for card in self._candidates(p):
            if (self.flags[card] & L.F_COMMITTED and self.zone[card] in (L.Z_BACK, L.Z_HAND)
                    and self.controller(card) == p):
                return card
        return -1

    def _battle_commit(self, p: int, kind: int, a: int, b: int):
        """D-AMB-32 "simultaneous", played as two sequential hidden choices per round:
        each player commits one activation face-down or nothing (their view does not
        show the other's commitment); then both are revealed: the turn player's card
        starts the chain and the other's joins it next, and the chain resolves as
        usual (D-FN-8). A round with nothing committed ends the battle step."""
        if kind != A.PASS:
            card = A.card_of(p, a, b) if kind == A.ACT_HAND else self.back[p][a]
            self.flags[card] |= L.F_COMMITTED
        self.passes += 1
        if self.passes < 2:
            self.decider = 1 - self.decider
            return
        first = self.active if self._committed(self.active) >= 0 else 1 - self.active
        card = self._committed(first)
        if card < 0:
            self._end_battle_step()
            return
        self.flags[card] &= ~L.F_COMMITTED
        self.priority_owner, self.passes = first, 0
        self._activate(first, card, from_hand=self.zone[card] == L.Z_HAND)

    def _battle_step_pass(self):
        self.passes += 1
        ends = 1 if self.rules.reading("D-AMB-32") == "defender_only" else 2
        if self.passes < ends:
            self.decider = 1 - self.decider
            return
        self._end_battle_step()

    def _end_battle_step(self):
        self._hp_checkpoint(step=True)  # the battle step ends
        # D-AMB-33 / D-AMB-34: a battler gone -> the attack ends with no damage
        if self.zone[self.attacker] != L.Z_MONSTER:
            if (self.rules.reading("D-AMB-34") == "defender_deals" and self.target >= 0
                    and self.zone[self.target] == L.Z_MONSTER):
                self._damage(self.active, self.atk(self.target))  # as if unopposed
            self._next_declaration()
        elif self.target == L.DIRECT_TARGET:
            self._damage_step()  # D-DS-1: no boosts in a direct attack (D-AMB-04)
        elif self.zone[self.target] != L.Z_MONSTER:
            reading = self.rules.reading("D-AMB-33")
            targets = self.monsters(1 - self.active)
            if reading == "direct" or (reading == "replay" and not targets):
                self.target = L.DIRECT_TARGET
                self._damage_step()
            elif reading == "replay":  # the attacker picks a new target, then the damage step
                self._pend(L.PK_REDIRECT, self.active, len(targets), targets)
            else:
                self._next_declaration()
        else:
            self._damage_step()

    def boost_amount(self, boost_card: int, target: int) -> int:
        """D-DS-3..7 (D-AMB-40): ×6 same suit and number, ×3 number, ×2 suit, else ×1."""
        value = self.value(boost_card)
        same_number = self.value(boost_card) == self.value(target)
        if self.rules.reading("D-AMB-40") == "colour":
            same_suit = colour(boost_card) == colour(target)
        else:
            same_suit = suit_of(code_of(boost_card)) == suit_of(code_of(target))
        if same_number and same_suit:
            return 6 * value
        if same_number:
            return 3 * value
        if same_suit:
            return 2 * value
        return value

    def _boost(self, p: int, card: int, which: int):
        """D-DS-2: a set A–10 raises the attacker's (0) or defender's (1) ATK.
        D-AMB-36 "simultaneous": it is only committed now (face-down, the target kept in
        the card's boost slot); the decider goes on committing until they pass."""
        if self.rules.reading("D-AMB-36") == "simultaneous":
            self.flags[card] |= L.F_COMMITTED
            self.boost[card] = which + 1
            return
        self._raise(card, which)
        self.passes = 0
        self.decider = 1 - self.decider

    def _raise(self, card: int, which: int):
        """A boost card's effect on its target (D-DS-3..7, D-AMB-37)."""
        if which >= 2:  # D-AMB-37 "any_monster"
            target = self.monster[(which - 2) // Z][(which - 2) % Z]
        else:
            target = self.attacker if which == 0 else self.target
        self.boost[target] += self.boost_amount(card, target)
        self.zone[card] = L.Z_BACK
        self.flags[card] |= L.F_BOOSTING
        self.counters[12] += 1

    def _damage_pass(self):
        self.passes += 1
        if self.passes < 2:
            self.decider = 1 - self.decider
            return
        if self.rules.reading("D-AMB-36") == "simultaneous":  # both committed: reveal, first committer first
            for q in (1 - self.decider, self.decider):
                for card in list(self.back[q]):
                    if card >= 0 and self.flags[card] & L.F_COMMITTED:
                        which = self.boost[card] - 1
                        self.flags[card] &= ~L.F_COMMITTED
                        self.boost[card] = 0
                        self._raise(card, which)
        self._damage_calculation()

    def _club_factor(self, club: int) -> int:
        return self.rules.club_multiplier if (self.rules.advanced_rules and club >= 0
                                              and suit_of(code_of(club)) == CLUB) else 1

    def _damage_calculation(self):
        """D-DC-1..5, D-AMB-41..43, D-ADV-3 (D-AMB-51), D-ADV-4 (D-AMB-52)."""
        p, opponent = self.active, 1 - self.active
        attacker, target = self.attacker, self.target
        if target == L.DIRECT_TARGET:
            amount = self.value(attacker) if self.rules.reading("D-AMB-41") == "printed" else self.atk(attacker)
            self.counters[11] += 1
            self._send_boosts()  # D-AMB-04 "attacks_player": a direct attack's boost cards
            self._damage(opponent, amount * self._club_factor(attacker))
        else:
            a, d = self.atk(attacker), self.atk(target)
            same_colour = colour(attacker) == colour(target)
            if a == d:
                self.counters[13] += 1
                tie = self.rules.reading("D-AMB-42")
                destroyed = {"both_destroyed": [attacker, target], "nothing": [],
                             "attacker_dies": [attacker], "defender_dies": [target]}[tie]
                self._send_boosts()
                for card in destroyed:
                    self._to_grave(card)
            else:
                attacker_wins = (a > d) == same_colour
                winner, loser = (attacker, target) if attacker_wins else (target, attacker)
                amount = abs(a - d)
                scope = self.rules.reading("D-AMB-51")
                if scope == "direct_and_wins":
                    amount *= self._club_factor(winner)
                elif scope == "also_losing":
                    amount *= max(self._club_factor(winner), self._club_factor(loser))
                else:
                    amount *= self._club_factor(attacker) if winner == attacker else 1
                taker = {"destroyed_controller": self.controller(loser), "defender": opponent,
                         "attacker": p}[self.rules.reading("D-AMB-43")]
                self._send_boosts()
                self._to_grave(loser)
                self._damage(taker, amount)
                if (winner == target and self.rules.advanced_rules and suit_of(code_of(target)) == DIAMOND
                        and self.rules.reading("D-AMB-52") == "also_defending"):
                    self.flags[target] |= L.F_EXTRA_EARNED  # used in its owner's next battle phase
                if (winner == attacker and self.rules.advanced_rules
                        and suit_of(code_of(attacker)) == DIAMOND and self.monsters(opponent)):
                    recursive = self.rules.reading("D-AMB-52") == "recursive"
                    if recursive or not self.flags[attacker] & L.F_EXTRA_USED:
                        self.extra_attacker = attacker
                        self.flags[attacker] |= L.F_EXTRA_USED
                        self._next_declaration(keep_extra=True)
                        return
        self._next_declaration()

    def _send_boosts(self):
        """D-AMB-39 "after_damage": used boost cards go to the graveyard now."""
        if self.rules.reading("D-AMB-39") != "after_damage":
            return
        for q in (0, 1):
            for card in list(self.back[q]):
                if card >= 0 and self.flags[card] & L.F_BOOSTING:
                    self._to_grave(card)

    def _next_declaration(self, keep_extra: bool = False):
        """D-BP-3: back to attack declaration; boosts of a single battle expire (D-AMB-38)."""
        self._hp_checkpoint(step=True)  # the attack's last step ends
        if self.rules.reading("D-AMB-38") == "single_battle":
            for q in (0, 1):
                for card in self.monsters(q):
                    self.boost[card] = 0
        if not keep_extra and not self._extra_attack_waits():
            self.extra_attacker = -1
        self.attacker = self.target = -1
        self.phase, self.decider = L.PH_DECLARE, self.active
        if not self._declare_has_options():
            self._end_battle_phase()

    # ================================================================ result and packing
    def _extra_attack_waits(self) -> bool:
        """D-AMB-63 "any_later": a diamond's extra attack waits for any later
        declaration of this battle phase while the diamond stays on the field
        (a card that left and came back lost F_EXTRA_USED with its flags)."""
        card = self.extra_attacker
        return (self.rules.reading("D-AMB-63") == "any_later" and card >= 0
                and self.zone[card] == L.Z_MONSTER and bool(self.flags[card] & L.F_EXTRA_USED))

    def is_over(self) -> bool:
        return self.phase == L.PH_OVER

    def record(self) -> dict:
        return {"winner": self.winner, "end_type": self.end_type, "turns": self.turn,
                "hp": tuple(self.hp), "first": self.first, "counters": tuple(self.counters)}

    def to_array(self) -> np.ndarray:
        s = L.new_state()
        s[L.S_RNG] = rng_module.to_signed(self.rng.state)
        s[L.S_TURN], s[L.S_ACTIVE], s[L.S_FIRST] = self.turn, self.active, self.first
        s[L.S_PHASE], s[L.S_DECIDER] = self.phase, self.decider
        s[L.S_WINNER], s[L.S_END_TYPE] = self.winner, self.end_type
        for p in (0, 1):
            s[L.S_HP + p], s[L.S_START_HP + p] = self.hp[p], self.start_hp[p]
            for k in range(3):
                s[L.S_USES + p * 3 + k] = self.uses[p][k]
            s[L.S_DECK_COUNT + p] = len(self.deck[p])
            s[L.S_DECK + p * N:L.S_DECK + p * N + len(self.deck[p])] = self.deck[p]
            s[L.S_MONSTER + p * Z:L.S_MONSTER + (p + 1) * Z] = self.monster[p]
            s[L.S_BACK + p * Z:L.S_BACK + (p + 1) * Z] = self.back[p]
        s[L.S_SEQ] = self.seq
        s[L.S_TURN_SUIT], s[L.S_NEW_ATTACKS] = self.turn_suit, self.new_attacks
        s[L.S_ATTACKER], s[L.S_TARGET], s[L.S_PASSES] = self.attacker, self.target, self.passes
        s[L.S_PRIORITY_OWNER], s[L.S_REDIRECTED] = self.priority_owner, self.redirected
        s[L.S_EXTRA_ATTACKER] = self.extra_attacker
        s[L.S_CHAIN_LEN] = len(self.chain)
        for i, entry in enumerate(self.chain):
            for k, value in enumerate(entry[:L.CH_SIZE]):
                s[L.S_CHAIN + i * L.CH_SIZE + k] = value
        s[L.S_PEND_KIND], s[L.S_PEND_PLAYER] = self.pend_kind, self.pend_player
        s[L.S_PEND_MAX], s[L.S_PEND_CHOSEN], s[L.S_PEND_RETURN] = self.pend_max, self.pend_chosen, self.pend_return
        for i, card in enumerate(self.pend_list[:L.PEND_LIST_SIZE]):
            s[L.S_PEND_LIST + i] = card
        s[L.S_COUNTERS:L.S_COUNTERS + L.N_COUNTERS] = self.counters
        s[L.C_ZONE:L.C_ZONE + L.N_CARDS] = self.zone
        s[L.C_POS:L.C_POS + L.N_CARDS] = self.pos
        for p in (0, 1):  # a deck card's position is its index in the stack
            if self.deck[p]:
                s[L.C_POS + np.asarray(self.deck[p])] = np.arange(len(self.deck[p]))
        s[L.C_SET_TURN:L.C_SET_TURN + L.N_CARDS] = self.set_turn
        s[L.C_BOOST:L.C_BOOST + L.N_CARDS] = self.boost
        s[L.C_FLAGS:L.C_FLAGS + L.N_CARDS] = self.flags
        return s

    def view(self, seat: int) -> np.ndarray:
        """The packed state as `seat` sees it (D-AMB-08)."""
        return L.build_view(self.to_array(), seat, open_info=self.rules.reading("D-AMB-08") == "open")


def play_random(rules: Rules, seed: int, hp=(40, 40), first: int = 0, policy_seed: int = 1, max_steps: int = 20000):
    """A match of uniformly random legal actions (smoke tests, the random strategy)."""
    m = Match.new(rules, hp[0], hp[1], first, seed)
    picker = rng_module.PyRng(policy_seed)
    steps = 0
    while not m.is_over() and steps < max_steps:
        legal = m.legal_actions()
        m.apply(legal[0] if len(legal) == 1 else legal[picker.below(len(legal))])
        steps += 1
    return m
