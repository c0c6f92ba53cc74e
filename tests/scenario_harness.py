"""Run one scenario position through either engine and read the outcome.

Scenario tests are written once and run on the reference engine and on the
numba kernel (`engine` fixture), so every clause test is also a
differential test. Both are read through the packed state array, the
layout both engines share.
"""

from __future__ import annotations

import importlib.util

import pytest

import numpy as np

from sim.cards import parse_code
from sim.faction_war import actions as A
from sim.faction_war import layout as L
from sim.faction_war.position import apply_texts, load_position

ENGINES = ("reference", "kernel")


class Table:
    """Read access to a packed state by names tests can say out loud."""

    def __init__(self, state: np.ndarray, legal: list[int], events: list[str] | None = None):
        self.state = state
        self.legal_actions = legal
        self.events = events or []

    def life(self, player: int) -> int:
        return int(self.state[L.S_LIFE + player])

    @staticmethod
    def card(text: str, owner: int) -> int:
        code, pack = parse_code(text)
        return L.card_id(owner, pack, code)

    def zone(self, text: str, owner: int) -> tuple[str, int]:
        """(zone name, controller) of a card, e.g. ("grave", 1)."""
        card = self.card(text, owner)
        names = {L.Z_DECK: "deck", L.Z_HAND: "hand", L.Z_ROW0: "row1", L.Z_ROW1: "row2",
                 L.Z_ROW2: "row3", L.Z_GRAVE: "grave", L.Z_EXILE: "exile", L.Z_EXTRA: "extra",
                 L.Z_NONE: "none"}
        return names[int(self.state[L.C_ZONE + card])], int(self.state[L.C_CTRL + card])

    def hand_size(self, player: int) -> int:
        zone, ctrl = self.state[L.C_ZONE:L.C_ZONE + L.N_CARDS], self.state[L.C_CTRL:L.C_CTRL + L.N_CARDS]
        return int(np.sum((zone == L.Z_HAND) & (ctrl == player)))

    def deck_size(self, player: int) -> int:
        return int(self.state[L.S_DECK_COUNT + player])

    @property
    def phase(self) -> str:
        return L.PHASE_NAMES[int(self.state[L.S_PHASE])]

    @property
    def winner(self) -> int:
        return int(self.state[L.S_WINNER])

    @property
    def end_type(self) -> str:
        return L.END_NAMES[int(self.state[L.S_END_TYPE])]

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

    def legal(self) -> list[str]:
        return [A.to_text(a, self.decider) for a in self.legal_actions]


def play(engine: str, position: dict) -> Table:
    """Load `position`, apply its "actions" on `engine`, return the resulting table."""
    match, texts = load_position(dict(position))
    if engine == "reference":
        apply_texts(match, texts)
        return Table(match.to_array(), match.legal_actions(), match.events)
    from sim.faction_war import kernel
    rules = match.rules.to_array()
    state = match.to_array()
    buffer = np.zeros(1024, dtype=np.int64)
    for text in texts:
        decider = int(state[L.S_DECIDER])
        action = A.from_text(text, decider)
        n = kernel.legal_actions(state, rules, buffer)
        legal = [int(a) for a in buffer[:n]]
        assert action in legal, "kernel: '%s' not legal; legal: %s" % (
            text, [A.to_text(a, decider) for a in legal])
        kernel.apply_action(state, rules, action)
    n = kernel.legal_actions(state, rules, buffer)
    return Table(state, [int(a) for a in buffer[:n]])


def new_match_table(engine: str, rules, faction0=0, faction1=0, life0=50, life1=50, first=0, seed=1) -> Table:
    """A freshly set-up match (F-SET) on either engine."""
    if engine == "reference":
        from sim.faction_war.reference import Match
        match = Match.new(rules, faction0, faction1, life0, life1, first, seed)
        return Table(match.to_array(), match.legal_actions(), match.events)
    from sim.faction_war import kernel
    state = np.zeros(L.STATE_SIZE, dtype=np.int64)
    rules_array = rules.to_array()
    kernel.new_match(state, rules_array, faction0, faction1, life0, life1, first, np.uint64(seed))
    buffer = np.zeros(1024, dtype=np.int64)
    n = kernel.legal_actions(state, rules_array, buffer)
    return Table(state, [int(a) for a in buffer[:n]])


@pytest.fixture(params=ENGINES)
def engine(request):
    """Run the test on the reference engine and on the numba kernel."""
    if request.param == "kernel" and importlib.util.find_spec("sim.faction_war.kernel") is None:
        pytest.skip("the numba kernel engine is not built yet")
    return request.param
