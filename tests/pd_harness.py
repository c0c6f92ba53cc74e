"""Run one Poker Duel position through an engine and read the outcome.

Tests are written once against the packed state (sim/poker_duel/layout.py)
and run on both engines (`engine` fixture): the position is loaded by the
reference's loader and packed, then the actions are applied by the engine
under test, each checked against that engine's own legal list. So every
clause test is also a differential test.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.cards import code_text, parse_code
from sim.poker_duel import actions as A
from sim.poker_duel import layout as L
from sim.poker_duel.position import apply_texts, load_position
from sim.poker_duel.reference import Match
from sim.poker_duel.rules import load_rules

ENGINES = ("reference", "kernel")
END_NAMES = L.END_TYPE_NAMES


class Table:
    """Read access to a packed state by names tests can say out loud."""

    def __init__(self, state: np.ndarray, legal: list[int]):
        self.state = state
        self.legal_actions = legal

    def hp(self, p: int) -> int:
        return int(self.state[L.S_HP + p])

    def _cards(self, p: int, zone: int) -> list[str]:
        return sorted(code_text(c % L.N_CODES) for c in range(p * L.N_CODES, (p + 1) * L.N_CODES)
                      if self.state[L.C_ZONE + c] == zone)

    def hand(self, p: int) -> list[str]:
        return self._cards(p, L.Z_HAND)

    def graveyard(self, p: int) -> list[str]:
        return self._cards(p, L.Z_GRAVE)

    def monsters(self, p: int) -> list[str]:
        return [code_text(int(c) % L.N_CODES) if c >= 0 else None
                for c in self.state[L.S_MONSTER + p * L.ZONE_SLOTS:L.S_MONSTER + (p + 1) * L.ZONE_SLOTS]]

    def back_row(self, p: int) -> list[str]:
        return [code_text(int(c) % L.N_CODES) if c >= 0 else None
                for c in self.state[L.S_BACK + p * L.ZONE_SLOTS:L.S_BACK + (p + 1) * L.ZONE_SLOTS]]

    def zone(self, text: str, owner: int) -> str:
        return L.ZONE_NAMES.get(int(self.state[L.C_ZONE + L.card_id(owner, parse_code(text)[0])]), "?")

    def boost(self, text: str, owner: int) -> int:
        return int(self.state[L.C_BOOST + L.card_id(owner, parse_code(text)[0])])

    def deck_size(self, p: int) -> int:
        return int(self.state[L.S_DECK_COUNT + p])

    @property
    def phase(self) -> str:
        return L.PHASE_NAMES[int(self.state[L.S_PHASE])]

    @property
    def pending(self) -> str:
        return L.PENDING_NAMES[int(self.state[L.S_PEND_KIND])]

    @property
    def winner(self) -> int:
        return int(self.state[L.S_WINNER])

    @property
    def end_type(self) -> str:
        return END_NAMES[int(self.state[L.S_END_TYPE])]

    @property
    def turn(self) -> int:
        return int(self.state[L.S_TURN])

    @property
    def active(self) -> int:
        return int(self.state[L.S_ACTIVE])

    @property
    def decider(self) -> int:
        return int(self.state[L.S_DECIDER])

    def counter(self, name: str) -> int:
        return int(self.state[L.S_COUNTERS + L.COUNTER_NAMES.index(name)])

    @property
    def legal(self) -> list[str]:
        return [A.to_text(a) for a in self.legal_actions]

    def uses(self, p: int) -> list[int]:
        return [int(v) for v in self.state[L.S_USES + 3 * p:L.S_USES + 3 * p + 3]]


def play(engine: str, position: dict, actions=()) -> Table:
    """Set up `position`, apply its 'actions' and then `actions`, and read the table."""
    assert engine in ENGINES
    texts = list(position.get("actions", [])) + list(actions)
    match = load_position({k: v for k, v in position.items() if k != "actions"})
    if engine == "reference":
        apply_texts(match, texts)
        return Table(match.to_array(), match.legal_actions())
    from sim.poker_duel import kernel_chain as KC
    state, rules = match.to_array(), match.rules.to_array()
    out = np.zeros(512, dtype=np.int64)
    for text in texts:
        action = A.from_text(text)
        n = KC.legal_actions(state, rules, out)
        assert action in [int(a) for a in out[:n]], "kernel: %s is not legal" % text
        KC.apply_action(state, rules, action)
    n = KC.legal_actions(state, rules, out)
    return Table(state, [int(a) for a in out[:n]])


def new_match(engine: str, preset="core", hp=(40, 40), first=0, seed=1, **changes) -> Table:
    rules = load_rules(preset)
    if changes:
        rules = rules.with_changes(**changes)
    if engine == "reference":
        match = Match.new(rules, hp[0], hp[1], first, seed)
        return Table(match.to_array(), match.legal_actions())
    from sim import rng as rng_module
    from sim.poker_duel import kernel as K
    from sim.poker_duel import kernel_chain as KC
    state = L.new_state()
    K.new_match(rules.to_array(), hp[0], hp[1], first, np.int64(rng_module.to_signed(seed)), state)
    out = np.zeros(512, dtype=np.int64)
    n = KC.legal_actions(state, rules.to_array(), out)
    return Table(state, [int(a) for a in out[:n]])


@pytest.fixture(params=ENGINES)
def engine(request):
    return request.param
