"""The Novel TCG's face of `sim.contract.GameEngine` (docs/engine-contract.md).

A thin layer over the game's own parts: the numba kernel (`kernel.py`), the
reference engine (`reference.py`), the view and policies of the match loop
(`strategies/novel_tcg/policies.py`), the sampler (`sampler.py`) and the
position format (`position.py`). The TCG holds a hand as copies per kind and a
graveyard as a count, so it has no per-card zone slots: a "card" here is a
place — ("deck", side, i) the i-th deck card from the bottom, ("hand", side, j)
one of a hand's cards, ("front", side, slot) a face-down character.
"""

from __future__ import annotations

import numpy as np

from sim.contract import CardEngine
from sim.novel_tcg import layout as L
from sim.novel_tcg import rules as R
from sim.novel_tcg.card_pool import CAT_ARMOUR, CAT_BLADE, CAT_CHARACTER, F_CATEGORY, F_HP, KIND_WEAPON
from sim.rng import MASK64, to_signed


def _at(seat: int, offset: int) -> int:
    return L.SEAT_BASE + seat * L.SEAT_SIZE + offset


class NovelTcgEngine(CardEngine):
    """Kernel steps, reference twin, view, sampler, positions and the agents."""

    STATE_SIZE, S_DECIDER, S_WINNER, S_END_TYPE = L.STATE_SIZE, L.S_ACTIVE, L.S_WINNER, L.S_END_TYPE

    def __init__(self):
        from sim.novel_tcg import actions, kernel, position, reference, sampler
        from strategies.novel_tcg import batch, policies, strategy_id
        from strategies.novel_tcg import is_search_id
        self._searches = is_search_id

        self.K, self.actions, self.position, self.Match, self.sampler = kernel, actions, position, reference.Match, sampler
        self.batch, self.policies, self._strategy_id = batch, policies, strategy_id
        self.LEGAL_CAPACITY = kernel.MAX_LEGAL

    # ---- rules, a new match, moving on
    def rules_array(self, rules):
        return self.batch.checked_rules(rules.to_array())

    def new_match(self, rules_array, cell, seed):
        deck0, deck1 = self.batch.decks_of(rules_array, cell)
        state = np.zeros(L.STATE_SIZE, dtype=np.int64)
        C = self.batch
        self.K.new_match(state, rules_array, cell[C.C_RANK0], cell[C.C_RANK1], deck0, deck1, cell[C.C_FIRST],
                         np.int64(to_signed(int(seed) & MASK64)))
        return state

    def _legal(self, state, rules_array, out):
        return self.K.legal_actions(state, rules_array, out)

    def apply_action(self, state, rules_array, action):
        self.K.apply_action(state, rules_array, np.int64(action))

    def is_over(self, state):
        return int(state[L.S_PHASE]) == L.PH_OVER

    def invariant_errors(self, state, rules_array):
        """Card conservation (deck + hand + graveyard + field + back row + weapon = the deck size),
        lists agreeing with their counts, equipment agreeing with its host, values in bounds."""
        errors = []
        pool = rules_array[R.R_POOL:R.R_POOL + R.POOL_SIZE].reshape(R.N_KINDS, R.POOL_FIELDS)
        front_slots, back_slots = int(rules_array[R.R_FRONT_SLOTS]), int(rules_array[R.R_BACK_SLOTS])
        over = int(state[L.S_PHASE]) == L.PH_OVER
        if state[L.S_PHASE] not in (L.PH_ACTION, L.PH_BATTLE, L.PH_DISCARD, L.PH_OVER) or state[L.S_ACTIVE] not in (0, 1):
            errors.append("phase or active seat out of range")
        if over != (state[L.S_WINNER] in (0, 1, L.DRAW)) or over != (state[L.S_END_TYPE] != L.END_NONE):
            errors.append("winner / end type disagree with the phase")
        if state[L.S_TURN] < 1 or (state[L.G_SIZE:L.SEAT_BASE] < 0).any():
            errors.append("turn below 1 or a negative counter")
        for p in (0, 1):
            count, hand = int(state[_at(p, L.P_DECK_COUNT)]), state[_at(p, L.P_HAND):_at(p, L.P_HAND + R.N_KINDS)]
            deck = state[_at(p, L.P_DECK):_at(p, L.P_DECK + L.MAX_DECK)]
            if not 0 <= count <= L.MAX_DECK or ((deck[:count] < 0) | (deck[:count] >= R.N_KINDS)).any() or deck[count:].any():
                errors.append("seat %d's deck list disagrees with its count" % p)
            if (hand < 0).any() or hand.sum() != state[_at(p, L.P_HAND_COUNT)]:
                errors.append("seat %d's hand disagrees with its count" % p)
            on_field = 0
            for slot in range(L.MAX_FRONT):
                f = state[_at(p, L.P_FRONT + slot * L.FRONT_FIELDS):][:L.FRONT_FIELDS]
                kind = int(f[L.F_KIND])
                if kind == L.NONE:
                    if f[1:].any():
                        errors.append("seat %d's empty front slot %d holds values" % (p, slot))
                    continue
                on_field += 1
                # its equipment: in its own back row, or (T-AMB-31 "true") in the opponent's with HOST_OPPONENT + slot
                hosted = [int(b[L.B_KIND]) for side, host in ((p, slot), (1 - p, L.HOST_OPPONENT + slot))
                          for b in (state[_at(side, L.P_BACK + k * L.BACK_FIELDS):][:L.BACK_FIELDS]
                                    for k in range(L.MAX_BACK)) if b[L.B_KIND] != L.NONE and b[L.B_HOST] == host]
                bonus = {c: sum(int(pool[k, F_HP]) for k in hosted if pool[k, F_CATEGORY] == c) for c in (CAT_BLADE, CAT_ARMOUR)}
                if (slot >= front_slots or not 0 <= kind < R.N_KINDS or pool[kind, F_CATEGORY] != CAT_CHARACTER
                        or f[L.F_POS] not in (L.POS_ATTACK, L.POS_DEFENSE, L.POS_FACEDOWN)):
                    errors.append("seat %d's front slot %d: not a character in a valid slot and position" % (p, slot))
                elif (f[L.F_EQUIPS] != len(hosted) or f[L.F_ATK_BONUS] != bonus[CAT_BLADE]
                      or f[L.F_HP_BONUS] != bonus[CAT_ARMOUR]):
                    errors.append("seat %d's front slot %d: equipment count or bonuses disagree with the back row" % (p, slot))
                elif not 1 <= f[L.F_HP_NOW] <= pool[kind, F_HP] + f[L.F_HP_BONUS]:
                    errors.append("seat %d's front slot %d: HP %d outside 1..max" % (p, slot, f[L.F_HP_NOW]))
                elif max(f[L.F_SUMMONED], f[L.F_CHANGED], f[L.F_ATTACKED]) > state[L.S_TURN]:
                    errors.append("seat %d's front slot %d: a turn stamp in the future" % (p, slot))
            for back in range(L.MAX_BACK):
                b = state[_at(p, L.P_BACK + back * L.BACK_FIELDS):][:L.BACK_FIELDS]
                if b[L.B_KIND] == L.NONE:
                    if b[1:].any():
                        errors.append("seat %d's empty back slot %d holds values" % (p, back))
                    continue
                on_field += 1
                host, host_seat = int(b[L.B_HOST]), p
                if host >= L.HOST_OPPONENT:  # T-AMB-31 "true": on an opposing character
                    host, host_seat = host - L.HOST_OPPONENT, 1 - p
                if (back >= back_slots or pool[b[L.B_KIND], F_CATEGORY] not in (CAT_BLADE, CAT_ARMOUR) or b[L.B_DUR] < 1
                        or not 0 <= host < L.MAX_FRONT
                        or state[_at(host_seat, L.P_FRONT + host * L.FRONT_FIELDS)] == L.NONE):
                    errors.append("seat %d's back slot %d: not live equipment on a character" % (p, back))
            weapon, durability = int(state[_at(p, L.P_WEAPON)]), int(state[_at(p, L.P_WEAPON_DUR)])
            if (weapon, durability > 0) not in ((L.NONE, False), (KIND_WEAPON, True)) or durability < 0:
                errors.append("seat %d's weapon and durability disagree" % p)
            on_field += weapon != L.NONE
            total = count + int(hand.sum()) + int(state[_at(p, L.P_GY_COUNT)]) + on_field
            if total != rules_array[R.R_DECK_SIZE]:
                errors.append("seat %d holds %d cards in all zones, not the deck size %d"
                              % (p, total, rules_array[R.R_DECK_SIZE]))
        return errors

    # ---- hidden information
    def view(self, state, rules_array, seat):
        view = np.zeros(L.STATE_SIZE, dtype=np.int64)
        self.policies.nb_view(state, np.int64(seat), view)
        return view

    def hidden_cards(self, state, rules_array, seat):
        """T-AMB-16 (a), T-AMB-84 (a): both decks' orders, the opponent's hand and its face-down
        characters (read from the true state)."""
        q, hidden = 1 - seat, set()
        for p in (0, 1):
            hidden.update(("deck", p, i) for i in range(int(state[_at(p, L.P_DECK_COUNT)])))
        hidden.update(("hand", q, j) for j in range(int(state[_at(q, L.P_HAND_COUNT)])))
        hidden.update(("front", q, slot) for slot in range(L.MAX_FRONT)
                      if state[_at(q, L.P_FRONT + slot * L.FRONT_FIELDS + L.F_KIND)] != L.NONE
                      and state[_at(q, L.P_FRONT + slot * L.FRONT_FIELDS + L.F_POS)] == L.POS_FACEDOWN)
        return frozenset(hidden)

    def hidden_in_view(self, view, rules_array):
        """A deck slot showing UNSEEN - kind (not a card's place), a hand whose kinds show
        HIDDEN_COUNT (its size less the copies a view shows), a HIDDEN front kind."""
        shown = set()
        for p in (0, 1):
            deck = view[_at(p, L.P_DECK):_at(p, L.P_DECK + L.MAX_DECK)]
            shown.update(("deck", p, i) for i in range(int(view[_at(p, L.P_DECK_COUNT)])) if deck[i] <= L.VIEW_UNSEEN)
            hand = view[_at(p, L.P_HAND):_at(p, L.P_HAND + R.N_KINDS)]
            if (hand == L.VIEW_HIDDEN_COUNT).any():
                unknown = int(view[_at(p, L.P_HAND_COUNT)]) - int(hand[hand > 0].sum())
                shown.update(("hand", p, j) for j in range(max(0, unknown)))
            shown.update(("front", p, slot) for slot in range(L.MAX_FRONT)
                         if view[_at(p, L.P_FRONT + slot * L.FRONT_FIELDS + L.F_KIND)] == L.VIEW_HIDDEN)
        return frozenset(shown)

    def sample_world(self, view, rules_array, seat, rng_word):
        return self.sampler.sample_world(view, rules_array, seat, rng_word)

    # ---- reference engine, notation, positions
    def reference_new(self, rules, cell, seed):
        deck0, deck1 = self.batch.decks_of(rules.to_array(), cell)
        C = self.batch
        return self.Match(rules, (int(cell[C.C_RANK0]), int(cell[C.C_RANK1])), [deck0.tolist(), deck1.tolist()],
                          int(cell[C.C_FIRST]), int(seed) & MASK64)

    def action_text(self, state, action):
        return self.actions.to_text(int(action))

    def dump_position(self, reference):
        return self.position.dump_position(reference)

    def load_position(self, data, rules):
        return self.position.match_from_position(data)

    # ---- agents
    def agent_names(self):
        return ("random", "greedy", "defensive", "tuned", "pimc-random:8", "pimc:8", "ismcts:8")

    def decide(self, agent, state, rules_array, legal, seat, policy_words):
        strategy = self._strategy_id(agent)
        buffer = np.zeros(self.LEGAL_CAPACITY, dtype=np.int64)
        buffer[:len(legal)] = legal
        if self._searches(strategy):  # the search switch, with a workspace of its own
            from strategies.novel_tcg import search_batch
            workspace = search_batch.loop_workspace(np.int64(strategy), np.int64(strategy))
            return search_batch.search_choice(strategy, self.view(state, rules_array, seat), rules_array,
                                              buffer[:len(legal)], policy_words, seat, workspace)
        return int(self.policies.choose(np.int64(strategy), self.view(state, rules_array, seat),
                                        rules_array, buffer, np.int64(len(legal)), policy_words, np.int64(seat)))
