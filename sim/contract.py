"""The engine contract as code: what every game's engine offers the shared
layers, its strategies and the contract test (docs/engine-contract.md).

A game declares `GameSpec.engine`, a factory returning an object with the
methods of `GameEngine` (a typing Protocol: no base class to inherit). The
methods are a thin Python face over the game's own parts (kernels, reference
engine, view, sampler, position format, agents); the hot loops stay the
game's numba code. `tests/test_contract.py` holds every registered game to
it, and a game that lacks a method fails `test_engine_declares_the_contract`
(`missing_methods`).

States are int64 arrays (the game's layout); a rules array is what the
kernels read (`rules_array(rules)`, with a policy block where the game's
batches append one); a cell array is `GameSpec.cell_array(values, s0, s1)`.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class GameEngine(Protocol):
    """One game's engine, as the contract test and generic tools drive it."""

    # ---- rules, layout, a new match
    def rules_array(self, rules) -> np.ndarray:
        """The array the kernels read for `rules` (the game's rules object)."""

    def new_match(self, rules_array: np.ndarray, cell: np.ndarray, seed: int) -> np.ndarray:
        """A fresh kernel state of `cell` with match seed `seed` (rule generator seeded from it)."""

    # ---- moving on
    def legal_actions(self, state: np.ndarray, rules_array: np.ndarray) -> np.ndarray:
        """The decider's actions, ascending; empty exactly when the match is over."""

    def apply_action(self, state: np.ndarray, rules_array: np.ndarray, action: int) -> None:
        """The kernel's one way a state moves on (in place)."""

    def is_over(self, state: np.ndarray) -> bool: ...

    def decider(self, state: np.ndarray) -> int:
        """The seat that chooses the next action."""

    def result(self, state: np.ndarray) -> tuple[int, int]:
        """(winner: 0, 1 or sim.aggregate.DRAW, end type code) of a finished match."""

    def invariant_errors(self, state: np.ndarray, rules_array: np.ndarray) -> list[str]:
        """The game's own invariants broken by `state` (each card in exactly one zone, zone
        lists agreeing with the per-card zones, values within their bounds); [] when none."""

    # ---- hidden information
    def view(self, state: np.ndarray, rules_array: np.ndarray, seat: int) -> np.ndarray:
        """`seat`'s view, as the match loop builds it for that seat's agent."""

    def hidden_cards(self, state: np.ndarray, rules_array: np.ndarray, seat: int) -> frozenset:
        """The cards the rules hide from `seat`, read from the true state (not from the view)."""

    def hidden_in_view(self, view: np.ndarray, rules_array: np.ndarray) -> frozenset:
        """The cards a view shows as hidden."""

    def sample_world(self, view: np.ndarray, rules_array: np.ndarray, seat: int, rng_word: int) -> np.ndarray:
        """A full state consistent with `seat`'s view, drawn from the generator word `rng_word`."""

    # ---- the plain-Python twin, notation and positions
    def reference_new(self, rules, cell: np.ndarray, seed: int) -> Any:
        """The reference engine's match (`legal_actions()`, `apply(a)`, `is_over()`,
        `to_array()` = the kernel's state) of the same cell and seed."""

    def action_text(self, state: np.ndarray, action: int) -> str:
        """An action in the game's notation (play logs, scenario files)."""

    def dump_position(self, reference) -> dict:
        """A reference match as the game's position format (JSON-ready)."""

    def load_position(self, data: dict, rules) -> Any:
        """A position (the format `dump_position` writes) -> a reference match."""

    # ---- agents
    def agent_names(self) -> tuple[str, ...]:
        """The agents the contract test drives, one per kind, at small budgets."""

    def decide(self, agent: str, state: np.ndarray, rules_array: np.ndarray, legal: np.ndarray,
               seat: int, policy_words: np.ndarray) -> int:
        """The index into `legal` that `agent` picks for `seat` in `state`, as the match loop
        asks it: from the seat's view and its policy generator (`policy_words`: both seats'
        generator words, advanced in place)."""


CONTRACT_METHODS = tuple(name for name in GameEngine.__dict__
                         if not name.startswith("_") and callable(GameEngine.__dict__[name]))


def missing_methods(engine) -> list[str]:
    """The contract's methods `engine` lacks (empty: it offers them all)."""
    return [name for name in CONTRACT_METHODS if not callable(getattr(engine, name, None))]


class CardEngine:
    """The plumbing most games' `GameEngine` share: a kernel over one int64 state array whose
    per-card zones sit at `C_ZONE` (a view marks hidden cards `Z_HIDDEN`), a decider / winner /
    end-type slot, a sampler `sample(view, rules, seat, rng, slot, out)` and a compiled
    strategy switch `choose(strategy, view, rules, legal, n, policy, seat, workspace)`.
    A game subclasses it, sets the layout constants and the callables, and writes the rest."""

    STATE_SIZE = LEGAL_CAPACITY = N_CARDS = C_ZONE = Z_HIDDEN = S_DECIDER = S_WINNER = S_END_TYPE = 0
    DRAW = 2  # sim.aggregate.DRAW: a record's winner of a drawn match

    def _legal(self, state, rules_array, out) -> int:
        raise NotImplementedError

    def _sample(self, view, rules_array, seat, rng, slot, out):
        raise NotImplementedError

    def _choose(self, strategy, view, rules_array, legal, n, policy_words, seat, workspace) -> int:
        raise NotImplementedError

    def _workspace(self, strategy):
        raise NotImplementedError

    def _strategy_id(self, agent: str) -> int:
        raise NotImplementedError

    def legal_actions(self, state, rules_array):
        out = np.zeros(self.LEGAL_CAPACITY, dtype=np.int64)
        return out[:self._legal(state, rules_array, out)].copy()

    def decider(self, state):
        return int(state[self.S_DECIDER])

    def result(self, state):
        winner = int(state[self.S_WINNER])
        return (winner if winner in (0, 1) else self.DRAW), int(state[self.S_END_TYPE])

    def hidden_in_view(self, view, rules_array):
        zones = view[self.C_ZONE:self.C_ZONE + self.N_CARDS]
        return frozenset(int(c) for c in np.nonzero(zones == self.Z_HIDDEN)[0])

    def sample_world(self, view, rules_array, seat, rng_word):
        out = np.zeros(self.STATE_SIZE, dtype=np.int64)
        self._sample(view, rules_array, seat, np.array([rng_word], dtype=np.int64), 0, out)
        return out

    def decide(self, agent, state, rules_array, legal, seat, policy_words):
        strategy = self._strategy_id(agent)
        buffer = np.zeros(self.LEGAL_CAPACITY, dtype=np.int64)
        buffer[:len(legal)] = legal
        return int(self._choose(strategy, self.view(state, rules_array, seat), rules_array, buffer, len(legal),
                                policy_words, seat, self._workspace(strategy)))
