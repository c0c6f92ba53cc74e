"""The Novel TCG reference engine: plain Python, the executable spec of v1 (§18.6).

Each method names the clauses it implements (`../shared/rules/novel-tcg.md`);
switches are read by their ambiguity ID. The numba kernel (`kernel.py`)
mirrors this file step for step over the array of `layout.py`; `pack()` gives
that array, so the differential test compares both engines slot by slot.

The match, in the order of the contract (docs/novel-tcg.md):
- New match: each deck list (card_pool.build_deck) is shuffled by the match's
  SplitMix64 generator, seat 0 first (Fisher-Yates, i from n-1 down to 1,
  j = below(i+1)); the first player draws the opening hand, then the other.
  These shuffles are the only random draws of a match.
- A turn: Start (nothing in v1), Draw, Action, Battle, End (T-PHASE-1).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.errors import IllegalActionError
from sim.novel_tcg import actions as A
from sim.novel_tcg import layout as L
from sim.novel_tcg.card_pool import (CAT_ARMOUR, CAT_BLADE, CAT_CHARACTER, CAT_WEAPON, F_ATK, F_CATEGORY, F_DURABILITY,
                                     F_HP, F_STAR, pool_table)
from sim.novel_tcg.rules import N_KINDS, Rules
from sim.rng import PyRng, to_signed


@dataclass
class Character:
    kind: int
    hp: int                 # current HP (T-CHAR-5, T-AMB-26)
    position: int           # layout.POS_*
    summoned: int           # turn it entered the field (T-POS-2)
    changed: int = 0        # turn of its last position change (T-POS-1)
    attacked: int = 0       # turn of its last attack (T-PHASE-9)
    atk_bonus: int = 0      # from Blades (T-EQUIP-1)
    hp_bonus: int = 0       # from Armours
    equips: int = 0


@dataclass
class Equipment:
    kind: int
    host: int               # front slot of the character it is attached to
    durability: int
    on_opponent: bool = False  # T-AMB-31 "true": the host is in the opposing front row (the card stays in ours)


class Duelist:
    def __init__(self, rank: int, hp: int, deck: list[int], front_slots: int, back_slots: int):
        self.rank, self.hp, self.hp_start = rank, hp, hp
        self.deck = list(deck)                  # bottom first; the top is deck[-1]
        self.hand = [0] * N_KINDS               # copies held per kind
        self.graveyard = 0
        self.weapon, self.weapon_durability = L.NONE, 0
        self.person_attacked = 0
        self.fatigue = 0
        self.front: list[Character | None] = [None] * front_slots
        self.back: list[Equipment | None] = [None] * back_slots

    def characters(self):
        return [(slot, c) for slot, c in enumerate(self.front) if c is not None]

    def free_front_slot(self) -> int:
        return next((slot for slot, c in enumerate(self.front) if c is None), L.NONE)

    def free_back_slot(self) -> int:
        return next((slot for slot, e in enumerate(self.back) if e is None), L.NONE)


class Match:
    """One match. `legal_actions()`, `apply(action)`, `over`, `record()`, `pack()`."""

    def __init__(self, rules: Rules, ranks, decks, first: int, seed: int):
        self.rules = rules
        self.pool = pool_table(rules)
        self.rng = PyRng(seed)
        self.turn, self.active, self.first = 1, first, first
        self.phase, self.winner, self.end_type = L.PH_ACTION, L.NONE, L.END_NONE
        self.summons_used = 0
        self.counters = [0] * L.N_COUNTERS
        self.last_battle = None  # (to defender, to attacker, defender HP, attacker HP, overflows) for logs and tests
        n = rules.numbers
        self.duelists = []
        for seat in (0, 1):  # T-SETUP-4, T-RANK-2/3: HP = hp_per_rank x rank (+ offset); ranks may differ (T-AMB-09)
            hp = max(1, n["hp_per_rank"] * ranks[seat] + n["hp_offset"])
            self.duelists.append(Duelist(ranks[seat], hp, decks[seat], n["front_slots"], n["back_slots"]))
        for duelist in self.duelists:
            deck = duelist.deck
            for i in range(len(deck) - 1, 0, -1):
                j = self.rng.below(i + 1)
                deck[i], deck[j] = deck[j], deck[i]
        for seat in (first, 1 - first):  # T-AMB-02: opening hand, no mulligan (T-AMB-03)
            for _ in range(n["opening_hand"]):
                if self.duelists[seat].deck:
                    self._take_top(seat)
        self._begin_turn()

    # ---- small helpers ---------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.phase == L.PH_OVER

    def _switch(self, amb_id: str) -> str:
        return self.rules.ambiguities[amb_id]

    def _take_top(self, seat: int) -> None:
        duelist = self.duelists[seat]
        kind = duelist.deck.pop()
        duelist.hand[kind] += 1

    def atk(self, character: Character) -> int:
        return int(self.pool[character.kind, F_ATK]) + character.atk_bonus

    def max_hp(self, character: Character) -> int:
        return int(self.pool[character.kind, F_HP]) + character.hp_bonus

    def star(self, kind: int) -> int:
        return int(self.pool[kind, F_STAR])

    def person_atk(self, seat: int) -> int:
        """T-AMB-35: base ATK, replaced by the Weapon's ATK while one is held (§18.1)."""
        duelist = self.duelists[seat]
        if duelist.weapon != L.NONE:
            return int(self.pool[duelist.weapon, F_HP])
        return self.rules.numbers["person_base_atk"]

    def _end(self, winner: int, end_type: int) -> None:
        self.phase, self.winner, self.end_type = L.PH_OVER, winner, end_type

    def _lose_hp(self, seat: int, amount: int) -> None:
        """Duelist damage, counted per seat (§18.3 Q8: the first player's loss against the second's)."""
        self.duelists[seat].hp -= amount
        self.counters[L.C_HP_LOST0 + seat - L.G_SIZE] += amount

    # ---- turn structure (T-PHASE-1) ---------------------------------------------------------
    def _begin_turn(self) -> None:
        """Start and Draw phases, then the Action phase (T-PHASE-1..5, T-SETUP-2, T-AMB-07, T-AMB-69)."""
        n = self.rules.numbers
        if self.turn > n["turn_cap"]:
            self._end(L.DRAW, L.END_TURN_CAP)
            return
        p = self.active
        duelist = self.duelists[p]
        if not (self.turn == 1 and n["p1_skip_draw"]):  # T-SETUP-2, T-PHASE-4: turn 1 is the first player's
            if duelist.deck:
                self._take_top(p)
            elif self._switch("T-AMB-07") == "lose":
                self._end(1 - p, L.END_DECK_OUT)
                return
            elif self._switch("T-AMB-07") == "fatigue":
                duelist.fatigue += 1
                self._lose_hp(p, duelist.fatigue)
                self.counters[L.C_DMG_FATIGUE - L.G_SIZE] += duelist.fatigue
                if self._check_life_now():
                    return
        self.phase = L.PH_ACTION
        self._count_binding_limits(p)

    def _count_binding_limits(self, p: int) -> None:
        """§18.3 Q9: does the front row or the back row bind at the start of this Action phase?"""
        duelist = self.duelists[p]
        holds = [k for k in range(N_KINDS) if duelist.hand[k]]
        if duelist.free_front_slot() == L.NONE and any(self.pool[k, F_CATEGORY] == CAT_CHARACTER for k in holds):
            self.counters[L.C_FRONT_FULL - L.G_SIZE] += 1
        hosts = duelist.characters() or (self._switch("T-AMB-31") == "true" and self.duelists[1 - p].characters())
        if (duelist.free_back_slot() == L.NONE and hosts
                and any(self.pool[k, F_CATEGORY] in (CAT_BLADE, CAT_ARMOUR) for k in holds)):
            self.counters[L.C_BACK_FULL - L.G_SIZE] += 1

    def _end_phase(self) -> None:
        """T-PHASE-12: discard down to the hand limit (the turn player only, T-AMB-22), then end the turn."""
        limit = self.rules.numbers["hand_limit"]
        if limit and sum(self.duelists[self.active].hand) > limit:
            self.phase = L.PH_DISCARD
            return
        self._finish_turn()

    def _finish_turn(self) -> None:
        """T-AMB-26 reset, T-AMB-68 end-of-turn HP check, then the other duelist's turn."""
        if self._switch("T-AMB-26") == "reset_each_turn":
            for duelist in self.duelists:
                for _, character in duelist.characters():
                    character.hp = self.max_hp(character)
        if self._switch("T-AMB-68") == "end_of_turn" and self._life_check():
            return
        self.turn += 1
        self.active = 1 - self.active
        self.summons_used = 0
        self._begin_turn()

    # ---- life (T-WIN-2, T-AMB-59, T-AMB-68) ------------------------------------------------
    def _life_check(self) -> bool:
        """End the match if a duelist is at HP <= 0; True when it ended."""
        down = [d.hp <= 0 for d in self.duelists]
        if down[0] and down[1]:
            if self._switch("T-AMB-59") == "draw":
                self._end(L.DRAW, L.END_DOUBLE_KO)
            else:
                self._end(1 - self.active, L.END_HP)
            return True
        if down[0] or down[1]:
            self._end(1 if down[0] else 0, L.END_HP)
            return True
        return False

    def _check_life_now(self) -> bool:
        """After each damage event (T-AMB-68 default); under "end_of_turn" only at the end of the turn."""
        return self._switch("T-AMB-68") == "each_event" and self._life_check()

    # ---- summoning (T-SUMMON-*, T-LIMIT-*) --------------------------------------------------
    def _allowance_bit(self, position: int) -> int:
        """T-PHASE-6, T-AMB-20: a set uses the normal summon, or (reading "no") its own once-per-phase set."""
        if position == L.POS_FACEDOWN and self._switch("T-AMB-20") == "no":
            return L.USED_SET
        return L.USED_SUMMON

    def _summon_positions(self, advance: bool) -> tuple[int, ...]:
        """T-AMB-41: attack or set face-down ("also_defense": face-up defense too); T-AMB-21 for advance sets."""
        positions = [L.POS_ATTACK]
        if self._switch("T-AMB-41") == "also_defense":
            positions.append(L.POS_DEFENSE)
        if not advance or self._switch("T-AMB-21") == "yes":
            positions.append(L.POS_FACEDOWN)
        return tuple(positions)

    def _over_limit(self, p: int, kind: int, position: int, advance: bool) -> bool:
        """T-LIMIT-1 (T-AMB-46 offset L), T-AMB-80 free-summon exemption, T-AMB-47 sets exempt."""
        if self.star(kind) <= self.rules.star_ceiling(self.duelists[p].rank):
            return False
        if not advance and self._switch("T-AMB-80") == "yes":
            return False
        if position == L.POS_FACEDOWN and self._switch("T-AMB-47") == "summons_only":
            return False
        return True

    def base_candidates(self, p: int) -> list[tuple[int, Character]]:
        """T-AMB-39, T-AMB-73: own front-row characters; "face_up_attack_only" keeps attack position only."""
        chars = self.duelists[p].characters()
        if self._switch("T-AMB-73") == "face_up_attack_only":
            chars = [(slot, c) for slot, c in chars if c.position == L.POS_ATTACK]
        return chars

    def canonical_bases(self, p: int, target_star: int) -> list[int] | None:
        """The front slots of the engine's base set for an advance summon of `target_star`, or None
        (`canonical_base_set` without a target card in the hand)."""
        found = self.canonical_base_set(p, target_star)
        return None if found is None else found[0]

    def canonical_base_set(self, p: int, target_star: int, target_kind: int = L.NONE):
        """The engine's base set for an advance summon (§18.4): (front slots, hand kinds), or None.

        T-SUMMON-3/6, T-AMB-37: >= min_bases bases (T-AMB-38) whose stars sum to the
        target ("sum_at_least": at least the target; "count_only": any stars).
        T-AMB-89 (a) "fewest_stars_first": the smallest largest base, then fewest bases,
        then the smallest star sum, then the lowest total current HP (the most damaged),
        then the lowest slot bitmask; (b) "fewest_bases_first" puts the count first.
        T-AMB-39 "also_hand": characters in the hand (less the summoned card) are bases too;
        after the star sum come the fewest front-row bases (keep the board), then the
        front-row keys above, then the fewest hand bases of the highest star (compared from
        20 stars down); of one star the lowest card kinds go first. Under "front_row" the two
        hand keys are constant, so the choice is the one above.
        """
        field = [(slot, self.star(c.kind), c.hp) for slot, c in self.base_candidates(p)]
        hand_stars = [0] * 21  # copies per star of the hand's characters that may be bases
        if self._switch("T-AMB-39") == "also_hand":
            hand = self.duelists[p].hand
            for kind in range(N_KINDS):
                if self.pool[kind, F_CATEGORY] == CAT_CHARACTER:
                    hand_stars[self.star(kind)] += hand[kind] - (kind == target_kind)
        items = [(star, 1, slot, hp) for slot, star, hp in field]
        items += [(star, hand_stars[star], L.NONE, 0) for star in range(20, 0, -1) if hand_stars[star]]
        rule, min_bases = self._switch("T-AMB-37"), self.rules.numbers["min_bases"]
        stars_first = self._switch("T-AMB-89") == "fewest_stars_first"
        best = [None, None]  # key, (slots, per-star hand counts)

        def search(i, taken, count, total, top):
            # a valid set is recorded and never extended: any superset has more bases, so a worse key
            if count >= min_bases and (rule == "count_only" or total == target_star
                                       or (rule == "sum_at_least" and total >= target_star)):
                slots = [items[j][2] for j, n in enumerate(taken) if n and items[j][2] != L.NONE]
                hp = sum(items[j][3] for j, n in enumerate(taken) if n and items[j][2] != L.NONE)
                hand_counts = [0] * 21
                for j, n in enumerate(taken):
                    if items[j][2] == L.NONE:
                        hand_counts[items[j][0]] = n
                first = (top, count) if stars_first else (count, top)
                key = (*first, total, len(slots), hp, sum(1 << slot for slot in slots), hand_counts[::-1])
                if best[0] is None or key < best[0]:
                    best[0], best[1] = key, (slots, hand_counts)
                return
            if i == len(items) or (rule == "exact_sum" and total > target_star):
                return
            star, copies = items[i][0], items[i][1]
            for n in range(copies + 1):
                if rule == "exact_sum" and total + n * star > target_star:
                    break
                search(i + 1, taken + [n], count + n, total + n * star, max(top, star) if n else top)

        search(0, [], 0, 0, 0)
        if best[1] is None:
            return None
        slots, hand_counts = best[1]
        kinds = []
        for kind in range(N_KINDS):  # of one star, the lowest kinds first
            if self.pool[kind, F_CATEGORY] == CAT_CHARACTER and hand_counts[self.star(kind)]:
                take = min(hand_counts[self.star(kind)], self.duelists[p].hand[kind] - (kind == target_kind))
                kinds += [kind] * take
                hand_counts[self.star(kind)] -= take
        return slots, kinds

    def _order_blocks(self, position: int) -> bool:
        """T-AMB-23 "summon_set_activate": no summon after a set, no summon or set after equipment."""
        if self._switch("T-AMB-23") != "summon_set_activate":
            return False
        later = L.ORDER_ACTIVATE if position == L.POS_FACEDOWN else L.ORDER_ACTIVATE | L.ORDER_SET
        return bool(self.summons_used & later)

    def _summon_legal(self, p: int, kind: int, position: int, advance: bool) -> bool:
        duelist = self.duelists[p]
        if self.summons_used & self._allowance_bit(position) or self._order_blocks(position):
            return False
        if self._over_limit(p, kind, position, advance) and self._switch("T-AMB-49") == "illegal":
            return False
        if not advance:
            return duelist.free_front_slot() != L.NONE  # T-ZONE-12
        # one search per target star while listing (per card under T-AMB-39 "also_hand": it is no base of itself)
        key = (self.star(kind), kind if self._switch("T-AMB-39") == "also_hand" else L.NONE)
        if key not in self._listing_bases:
            self._listing_bases[key] = self.canonical_base_set(p, key[0], key[1])
        if self._listing_bases[key] is None:
            return False
        # T-AMB-82: (a) the row must have a free slot while the bases are still there; (b) a front-row base's
        # slot serves (hand bases free none)
        return duelist.free_front_slot() != L.NONE or (self._switch("T-AMB-82") == "yes"
                                                       and bool(self._listing_bases[key][0]))

    def _summon(self, p: int, kind: int, position: int, advance: bool) -> None:
        """T-SUMMON-1..5: one normal summon per Action phase; advance bases go to the graveyard at success."""
        duelist = self.duelists[p]
        used = self._allowance_bit(position)
        self.summons_used |= L.USED_SUMMON | L.USED_SET if self._switch("T-AMB-20") == "yes" else used
        if position == L.POS_FACEDOWN and self._switch("T-AMB-23") == "summon_set_activate":
            self.summons_used |= L.ORDER_SET
        duelist.hand[kind] -= 1
        if self._over_limit(p, kind, position, advance):  # T-LIMIT-2, T-AMB-49 "loses"
            duelist.graveyard += 1
            self._end(1 - p, L.END_LIMIT)
            return
        if advance:
            # the summoned card has left the hand already, so the search needs no target kind here
            bases, hand_bases = self.canonical_base_set(p, self.star(kind))
            for slot in bases:
                self._leave_field(p, slot)
            for base_kind in hand_bases:  # T-AMB-39 "also_hand": hand bases go to the graveyard too (T-SUMMON-4)
                duelist.hand[base_kind] -= 1
                duelist.graveyard += 1
            self.counters[L.C_ADVANCE - L.G_SIZE] += 1
            self.counters[L.C_BASES - L.G_SIZE] += len(bases) + len(hand_bases)
        else:
            self.counters[L.C_SUMMONS - L.G_SIZE] += 1
        if position == L.POS_FACEDOWN:
            self.counters[L.C_SETS - L.G_SIZE] += 1
        slot = duelist.free_front_slot()
        duelist.front[slot] = Character(kind, int(self.pool[kind, F_HP]), position, self.turn)
        star_counter = (L.C_MAX_STAR0 if p == 0 else L.C_MAX_STAR1) - L.G_SIZE
        self.counters[star_counter] = max(self.counters[star_counter], self.star(kind))

    # ---- leaving the field and equipment (T-ZONE-3, T-EQUIP-*) -------------------------------
    def _leave_field(self, p: int, slot: int) -> None:
        """A defeated character or a base goes to the graveyard with its equipment (T-ZONE-3, T-AMB-32);
        T-AMB-31 "true": equipment the opponent put on it goes to the opponent's graveyard."""
        duelist = self.duelists[p]
        duelist.front[slot] = None
        duelist.graveyard += 1
        for back, equipment in enumerate(duelist.back):
            if equipment is not None and equipment.host == slot and not equipment.on_opponent:
                duelist.back[back] = None
                duelist.graveyard += 1
        if self._switch("T-AMB-31") == "true":
            other = self.duelists[1 - p]
            for back, equipment in enumerate(other.back):
                if equipment is not None and equipment.host == slot and equipment.on_opponent:
                    other.back[back] = None
                    other.graveyard += 1

    def _remove_equipment(self, p: int, back: int) -> None:
        """T-EQUIP-7: spent equipment goes to the graveyard; an Armour's HP leaves by T-AMB-33."""
        duelist = self.duelists[p]
        equipment = duelist.back[back]
        duelist.back[back] = None
        duelist.graveyard += 1
        host_seat = 1 - p if equipment.on_opponent else p  # T-AMB-31 "true"
        host = self.duelists[host_seat].front[equipment.host]
        host.equips -= 1
        value = int(self.pool[equipment.kind, F_HP])
        if self.pool[equipment.kind, F_CATEGORY] == CAT_BLADE:
            host.atk_bonus -= value
        else:
            host.hp_bonus -= value
            if self._switch("T-AMB-33") == "cap_at_new_max":
                host.hp = min(host.hp, self.max_hp(host))
            else:  # (b) the bonus comes off the current HP, which may defeat the character
                host.hp -= value
                self._defeat_if_down(host_seat, equipment.host)

    def _spend_durability(self, p: int, slot: int) -> None:
        """T-EQUIP-5, T-AMB-34: each equipment of the character loses 1; T-AMB-81 (b) removes spent ones now."""
        duelist = self.duelists[p]
        for back, equipment in enumerate(duelist.back):
            if equipment is not None and equipment.host == slot and not equipment.on_opponent:
                equipment.durability -= 1
        opponents = self._switch("T-AMB-31") == "true"
        if opponents:  # equipment the opponent put on this character, in the opponent's back row
            for equipment in self.duelists[1 - p].back:
                if equipment is not None and equipment.host == slot and equipment.on_opponent:
                    equipment.durability -= 1
        if self._switch("T-AMB-81") == "no":
            self._remove_spent(p)
            if opponents:
                self._remove_spent(1 - p)

    def _remove_spent(self, p: int) -> None:
        for back, equipment in enumerate(self.duelists[p].back):
            if equipment is not None and equipment.durability <= 0:
                self._remove_equipment(p, back)

    def _spend_weapon(self, p: int) -> None:
        """T-EQUIP-5 for the person's Weapon (T-AMB-64); T-AMB-81 (b) removes it before damage."""
        duelist = self.duelists[p]
        if duelist.weapon != L.NONE:
            duelist.weapon_durability -= 1
            if self._switch("T-AMB-81") == "no":
                self._remove_spent_weapon(p)

    def _remove_spent_weapon(self, p: int) -> None:
        duelist = self.duelists[p]
        if duelist.weapon != L.NONE and duelist.weapon_durability <= 0:
            duelist.weapon, duelist.weapon_durability = L.NONE, 0
            duelist.graveyard += 1

    def _equip_legal(self, p: int, kind: int, target: int, on_opponent: bool = False) -> bool:
        """T-EQUIP-1/2/3, T-AMB-15/31/36/73; `on_opponent`: a host in the opposing front row (T-AMB-31 "true")."""
        duelist = self.duelists[p]
        category = self.pool[kind, F_CATEGORY]
        if category == CAT_WEAPON:
            return target == A.PERSON and not on_opponent
        if target == A.PERSON or duelist.free_back_slot() == L.NONE:
            return False
        row = self.duelists[1 - p].front if on_opponent else duelist.front
        host = row[target] if target < len(row) else None
        if host is None:
            return False
        if self._switch("T-AMB-36") == "one" and host.equips:
            return False
        return not (self._switch("T-AMB-73") == "face_up_attack_only" and host.position != L.POS_ATTACK)

    def _equip(self, p: int, kind: int, target: int, on_opponent: bool = False) -> None:
        """T-EQUIP-1..3; T-AMB-31 "true" (`on_opponent`): the card takes our back-row slot, its host is theirs."""
        duelist = self.duelists[p]
        if self._switch("T-AMB-23") == "summon_set_activate":
            self.summons_used |= L.ORDER_ACTIVATE
        duelist.hand[kind] -= 1
        self.counters[L.C_EQUIPS - L.G_SIZE] += 1
        durability = int(self.pool[kind, F_DURABILITY])
        value = int(self.pool[kind, F_HP])
        if self.pool[kind, F_CATEGORY] == CAT_WEAPON:  # T-AMB-15: one at a time, the old one to the graveyard
            self.counters[L.C_WEAPON_EQUIPS - L.G_SIZE] += 1
            if duelist.weapon != L.NONE:
                duelist.graveyard += 1
            duelist.weapon, duelist.weapon_durability = kind, durability
            return
        duelist.back[duelist.free_back_slot()] = Equipment(kind, target, durability, on_opponent)
        host = self.duelists[1 - p if on_opponent else p].front[target]
        host.equips += 1
        if self.pool[kind, F_CATEGORY] == CAT_BLADE:
            host.atk_bonus += value
        else:  # an Armour raises the maximum and the current HP
            host.hp_bonus += value
            host.hp += value

    # ---- positions (T-POS-*) --------------------------------------------------------------------
    def _change_targets(self, character: Character) -> tuple[int, ...]:
        """T-POS-1/9, T-AMB-88: attack <-> defense; a face-down character flips to either."""
        if character.position == L.POS_FACEDOWN:
            return (L.POS_ATTACK, L.POS_DEFENSE)
        other = L.POS_DEFENSE if character.position == L.POS_ATTACK else L.POS_ATTACK
        if self._switch("T-AMB-88") == "yes":
            return tuple(sorted((other, L.POS_FACEDOWN)))
        return (other,)

    def _change(self, p: int, slot: int, position: int) -> None:
        character = self.duelists[p].front[slot]
        flip = character.position == L.POS_FACEDOWN
        character.position = position
        if not (flip and self._switch("T-AMB-70") == "no"):  # T-AMB-70: a flip is the change
            character.changed = self.turn

    # ---- battle (T-BATTLE-*) -------------------------------------------------------------------
    def _modified(self, atk: int, bonus: int) -> int:
        """T-BATTLE-6/7 damage: ATK + bonus, floored at 0 (T-AMB-55), 0-ATK rule by T-AMB-56."""
        if atk == 0 and self._switch("T-AMB-56") == "no":
            return 0
        damage = atk + bonus
        return max(0, damage) if self._switch("T-AMB-55") == "zero" else damage

    def battle_damage(self, attacker: Character, defender: Character, defender_in_defense: bool) -> tuple[int, int]:
        """(damage to the defender, damage to the attacker) of a character battle.

        T-BATTLE-4: each takes the other's ATK; T-BATTLE-6/7 with Δ = attacker's
        stars - defender's stars and m = star_mod: under R2 (T-AMB-54 default)
        the higher-star side deals ATK + mΔ and the lower ATK - mΔ, whoever
        attacks; under R1 only the attacker's damage is modified. T-AMB-57 "no":
        no modifier against a defense-position defender. T-AMB-60 "no": a
        defense-position defender deals nothing back.
        """
        m = self.rules.numbers["star_mod"]
        delta = self.star(attacker.kind) - self.star(defender.kind)
        if defender_in_defense and self._switch("T-AMB-57") == "no":
            delta = 0
        to_defender = self._modified(self.atk(attacker), m * delta)
        if self._switch("T-AMB-54") == "R2":
            to_attacker = self._modified(self.atk(defender), -m * delta)
        else:
            to_attacker = self._modified(self.atk(defender), 0)
        if defender_in_defense and self._switch("T-AMB-60") == "no":
            to_attacker = 0
        return to_defender, to_attacker

    def _hit(self, character: Character, damage: int) -> int:
        """Damage a character (negative heals, capped at its maximum, T-AMB-27); -> its overflow."""
        character.hp = min(character.hp - damage, self.max_hp(character))
        return max(0, -character.hp)

    def _overflow_to(self, seat: int, overflow: int, allowed: bool) -> None:
        """T-BATTLE-5: overflow reaches the duelist when the rule and the position allow it."""
        if overflow > 0 and allowed and self.rules.numbers["overflow"]:
            self._lose_hp(seat, overflow)
            self.counters[L.C_DMG_OVERFLOW - L.G_SIZE] += overflow

    def _defender_flips(self, q: int, slot: int) -> bool:
        """T-POS-8, T-AMB-67: an attacked face-down character turns face-up defense; -> in defense?"""
        defender = self.duelists[q].front[slot]
        if defender.position == L.POS_FACEDOWN:
            defender.position = L.POS_DEFENSE
        if self._switch("T-AMB-34") == "also_when_attacked":
            self._spend_durability(q, slot)
        return defender.position == L.POS_DEFENSE

    def _blocks(self, in_defense: bool) -> bool:
        return in_defense and bool(self.rules.numbers["defense_blocks_overflow"])  # T-POS-5

    def _defeat_if_down(self, p: int, slot: int) -> bool:
        character = self.duelists[p].front[slot]
        if character is not None and character.hp <= 0:  # T-CHAR-5
            self._leave_field(p, slot)
            self.counters[L.C_DESTROYED - L.G_SIZE] += 1
            return True
        return False

    def _person_defeats(self, p: int, slot: int, counter: int) -> None:
        """_defeat_if_down for a character a person hit: §18.3 Q8's kills (`counter`) and the victim's stars."""
        character = self.duelists[p].front[slot]
        if self._defeat_if_down(p, slot):
            self.counters[counter - L.G_SIZE] += 1
            self.counters[L.C_PERSON_KILL_STARS - L.G_SIZE] += self.star(character.kind)

    def _character_battle(self, p: int, slot: int, target: int) -> None:
        """T-BATTLE-4..8, T-BATTLE-14: simultaneous damage, overflow, defeats, then the duelists' HP."""
        q = 1 - p
        attacker = self.duelists[p].front[slot]
        self._spend_durability(p, slot)
        in_defense = self._defender_flips(q, target)
        defender = self.duelists[q].front[target]
        if self.duelists[p].front[slot] is None or defender is None:
            return  # equipment leaving before damage defeated a combatant (T-AMB-81 (b), T-AMB-33 (b)): the attack ends
        to_defender, to_attacker = self.battle_damage(attacker, defender, in_defense)
        defender_overflow = self._hit(defender, to_defender)
        attacker_overflow = self._hit(attacker, to_attacker)
        self.last_battle = (to_defender, to_attacker, defender.hp, attacker.hp, defender_overflow, attacker_overflow)
        self._overflow_to(q, defender_overflow, not self._blocks(in_defense))
        self._overflow_to(p, attacker_overflow, self._switch("T-AMB-58") == "yes")
        self._defeat_if_down(q, target)
        self._defeat_if_down(p, slot)
        self._remove_spent(p)  # T-AMB-81 (a): spent equipment leaves after the damage
        self._remove_spent(q)

    def _direct_attack(self, p: int, slot: int) -> None:
        """T-BATTLE-9..12: the character deals its ATK to the person; the person hits back with its ATK.
        T-EQUIP-8: the attacked person's Weapon spends nothing; T-AMB-87: the hit back's overflow."""
        q = 1 - p
        attacker = self.duelists[p].front[slot]
        self.counters[L.C_DIRECT - L.G_SIZE] += 1
        self._spend_durability(p, slot)
        if self.duelists[p].front[slot] is None:
            return  # defeated by its equipment leaving before damage (T-AMB-81 (b), T-AMB-33 (b))
        damage = self.atk(attacker)
        self._lose_hp(q, damage)
        self.counters[L.C_DMG_DIRECT - L.G_SIZE] += damage
        hit_back = self.person_atk(q)
        if hit_back > 0:  # the person blocks (§18.3 Q8)
            self.counters[L.C_PERSON_BLOCK_DMG - L.G_SIZE] += hit_back
            overflow = self._hit(attacker, hit_back)
            self._overflow_to(p, overflow, self._switch("T-AMB-87") == "follows_attacker_overflow"
                              and self._switch("T-AMB-58") == "yes")
            self._person_defeats(p, slot, L.C_PERSON_BLOCK_KILLS)
        else:
            self._defeat_if_down(p, slot)
        self._remove_spent(p)
        if self._switch("T-AMB-31") == "true":
            self._remove_spent(q)  # the attacker's equipment from the opponent

    def _person_attacks_character(self, p: int, target: int) -> None:
        """T-BATTLE-13, T-AMB-64: no star modifier; the character hits back; its overflow unless in defense."""
        q = 1 - p
        self.counters[L.C_PERSON_ATTACKS - L.G_SIZE] += 1
        self._spend_weapon(p)
        in_defense = self._defender_flips(q, target)
        defender = self.duelists[q].front[target]
        if defender is None:
            self._remove_spent_weapon(p)
            return  # defeated by its equipment leaving before damage (T-AMB-34 (b) with T-AMB-81 (b))
        damage = self.person_atk(p)
        self.counters[L.C_PERSON_CHAR_DMG - L.G_SIZE] += damage
        overflow = self._hit(defender, damage)
        if not (in_defense and self._switch("T-AMB-60") == "no"):
            hit_back = self.atk(defender)
            self._lose_hp(p, hit_back)
            self.counters[L.C_DMG_HITBACK - L.G_SIZE] += hit_back
        self._overflow_to(q, overflow, not self._blocks(in_defense))
        self._person_defeats(q, target, L.C_PERSON_KILLS)
        self._remove_spent_weapon(p)
        self._remove_spent(q)
        if self._switch("T-AMB-31") == "true":
            self._remove_spent(p)  # the defender's equipment from the opponent (T-AMB-34 "also_when_attacked")

    def _person_attacks_person(self, p: int) -> None:
        """T-AMB-64, T-AMB-86: the attacked person hits back with its own ATK ("no": it does not)."""
        q = 1 - p
        self.counters[L.C_PERSON_ATTACKS - L.G_SIZE] += 1
        self._spend_weapon(p)
        damage = self.person_atk(p)
        self._lose_hp(q, damage)
        self.counters[L.C_DMG_PERSON - L.G_SIZE] += damage
        if self._switch("T-AMB-86") == "yes":
            hit_back = self.person_atk(q)
            self._lose_hp(p, hit_back)
            self.counters[L.C_DMG_PERSON - L.G_SIZE] += hit_back
        self._remove_spent_weapon(p)

    def attack_targets(self, q: int) -> list[int]:
        """T-AMB-62: any opposing character ("attack_position_only": face-up attack only); the person when
        the front row is empty (T-ZONE-14, T-BATTLE-9; T-AMB-63: face-down characters block)."""
        duelist = self.duelists[q]
        chars = duelist.characters()
        targets = [slot for slot, c in chars
                   if self._switch("T-AMB-62") == "any" or c.position == L.POS_ATTACK]
        blockers = [c for _, c in chars if self._switch("T-AMB-63") == "yes" or c.position != L.POS_FACEDOWN]
        if not blockers:
            targets.append(A.PERSON)
        return targets

    def _attack(self, p: int, attacker: int, target: int) -> None:
        self.counters[L.C_ATTACKS - L.G_SIZE] += 1
        duelist = self.duelists[p]
        if attacker == A.PERSON:
            duelist.person_attacked = self.turn
            if target == A.PERSON:
                self._person_attacks_person(p)
            else:
                self._person_attacks_character(p, target)
        else:
            duelist.front[attacker].attacked = self.turn
            if target == A.PERSON:
                self._direct_attack(p, attacker)
            else:
                self._character_battle(p, attacker, target)
        self._check_life_now()

    # ---- legal actions and apply -------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        """The decider's (always the turn player's) choices, ascending; empty once the match is over."""
        if self.over:
            return []
        p = self.active
        duelist = self.duelists[p]
        self._listing_bases = {}
        if self.phase == L.PH_DISCARD:
            return [A.discard(k) for k in range(N_KINDS) if duelist.hand[k]]
        out = [A.A_END]
        if self.phase == L.PH_ACTION:
            free_max = self.rules.numbers["free_summon_max_star"]
            for kind in range(N_KINDS):
                if not duelist.hand[kind]:
                    continue
                category = self.pool[kind, F_CATEGORY]
                if category == CAT_CHARACTER:
                    advance = self.star(kind) > free_max
                    for position in self._summon_positions(advance):
                        if self._summon_legal(p, kind, position, advance):
                            out.append((A.advance if advance else A.summon)(kind, position))
                else:
                    for target in list(range(len(duelist.front))) + [A.PERSON]:
                        if self._equip_legal(p, kind, target):
                            out.append(A.equip(kind, target))
                    if self._switch("T-AMB-31") == "true":
                        for target in range(len(duelist.front)):
                            if self._equip_legal(p, kind, target, on_opponent=True):
                                out.append(A.equip_opponent(kind, target))
            self._list_changes(duelist, out)
        elif self.phase == L.PH_BATTLE:
            n = self.rules.numbers
            if self._switch("T-AMB-24") == "sets_also_in_battle":
                self._list_sets(p, out)
            if self._switch("T-AMB-71") == "any_own_phase":
                self._list_changes(duelist, out)
            if self.turn == 1 and n["p1_no_attack"]:  # T-SETUP-3, T-AMB-05
                return sorted(out)
            targets = self.attack_targets(1 - p)
            for slot, character in duelist.characters():
                # T-PHASE-9, T-POS-3/4, T-AMB-61
                if character.position != L.POS_ATTACK or character.attacked == self.turn:
                    continue
                if self._switch("T-AMB-61") == "yes" and character.summoned == self.turn:
                    continue
                out.extend(A.attack(slot, t) for t in targets)
            # T-BATTLE-3, T-AMB-64: the person with ATK > 0, once per Battle phase
            if (self._switch("T-AMB-64") == "yes" and self.person_atk(p) > 0
                    and duelist.person_attacked != self.turn):
                out.extend(A.attack(A.PERSON, t) for t in targets)
        return sorted(out)

    def _list_changes(self, duelist: Duelist, out: list[int]) -> None:
        """T-POS-1/2, T-AMB-44: once per turn, never in the turn it was summoned; in the Action phase, and
        under T-AMB-71 "any_own_phase" in the Battle phase too (the change stamp is per turn either way)."""
        for slot, character in duelist.characters():
            if character.summoned != self.turn and character.changed != self.turn:
                out.extend(A.change(slot, position) for position in self._change_targets(character))

    def _list_sets(self, p: int, out: list[int]) -> None:
        """T-AMB-24 "sets_also_in_battle": face-down sets (and advance sets, T-AMB-21) in the Battle phase too,
        under the same allowance as in the Action phase (T-AMB-20) and the same limit (T-AMB-47)."""
        free_max = self.rules.numbers["free_summon_max_star"]
        for kind in range(N_KINDS):
            if self.duelists[p].hand[kind] and self.pool[kind, F_CATEGORY] == CAT_CHARACTER:
                advance = self.star(kind) > free_max
                if (L.POS_FACEDOWN in self._summon_positions(advance)
                        and self._summon_legal(p, kind, L.POS_FACEDOWN, advance)):
                    out.append((A.advance if advance else A.summon)(kind, L.POS_FACEDOWN))

    def apply(self, action: int, check: bool = True) -> None:
        """Apply one legal action (IllegalActionError otherwise; `check=False`: the caller has checked)."""
        if check and action not in self.legal_actions():
            raise IllegalActionError("action '%s' is not legal here; legal: %s."
                                     % (A.to_text(action), ", ".join(A.to_text(a) for a in self.legal_actions())))
        family, a, b = A.decode(action)
        p = self.active
        if family == A.A_END:
            if self.phase == L.PH_ACTION:
                self.phase = L.PH_BATTLE
            else:
                self._end_phase()
        elif family in (A.A_SUMMON, A.A_ADVANCE):
            self._summon(p, a, b, family == A.A_ADVANCE)
        elif family == A.A_EQUIP:
            self._equip(p, a, b)
        elif family == A.A_EQUIP_OPPONENT:
            self._equip(p, a, b, on_opponent=True)
        elif family == A.A_CHANGE:
            self._change(p, a, b)
        elif family == A.A_ATTACK:
            self._attack(p, a, b)
        else:  # DISCARD (T-PHASE-12)
            duelist = self.duelists[p]
            duelist.hand[a] -= 1
            duelist.graveyard += 1
            self.counters[L.C_DISCARDS - L.G_SIZE] += 1
            if sum(duelist.hand) <= self.rules.numbers["hand_limit"]:
                self._finish_turn()

    # ---- record and packing --------------------------------------------------------------------
    def record(self) -> list[int]:
        """winner, end type, turns, both HPs, first player, counters (sim/aggregate.py)."""
        return [self.winner, self.end_type, self.turn, self.duelists[0].hp, self.duelists[1].hp, self.first,
                *self.counters]

    def is_over(self) -> bool:  # the engine contract's spelling (sim/contract.py)
        return self.over

    def to_array(self) -> np.ndarray:
        return self.pack()

    def pack(self) -> np.ndarray:
        """The layout.py array of this state (the kernel's state after the same actions)."""
        # built as one list in slot order (layout.py's diagram), converted once
        values = [to_signed(self.rng.state), self.turn, self.active, self.first, self.phase, self.winner,
                  self.end_type, self.summons_used, *self.counters]
        empty_front = [L.NONE] + [0] * (L.FRONT_FIELDS - 1)
        for d in self.duelists:
            values += [d.rank, d.hp, d.hp_start, len(d.deck), sum(d.hand), d.graveyard, d.weapon,
                       d.weapon_durability, d.person_attacked, d.fatigue]
            values += d.hand
            values += d.deck + [0] * (L.MAX_DECK - len(d.deck))
            for slot in range(L.MAX_FRONT):
                c = d.front[slot] if slot < len(d.front) else None
                values += empty_front if c is None else [c.kind, c.hp, c.position, c.summoned, c.changed,
                                                         c.attacked, c.atk_bonus, c.hp_bonus, c.equips]
            for slot in range(L.MAX_BACK):
                e = d.back[slot] if slot < len(d.back) else None
                values += [L.NONE, 0, 0] if e is None else [e.kind, e.host + L.HOST_OPPONENT * e.on_opponent,
                                                            e.durability]
        assert len(values) == L.STATE_SIZE
        return np.array(values, dtype=np.int64)
