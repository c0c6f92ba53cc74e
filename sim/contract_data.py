"""Agent weights as game data (`sim.registry.GameData`): the part of a run a game's cells
play with beside the rules, stored in the run folder and played again from there.

A game whose `tuned` agent reads a policy block appended to the rules array (its weights
file in `strategies/<game>/`) declares the file with `PolicyData` and wraps its batch
functions with it: given a run's `data`, a plain rules array gets the block parsed from
the run's copy; without (a caller that binds no data), the batch appends the shipped
weights itself, as before. The block equals the shipped one while the file is the
shipped one, so results do not move. The one-match functions (play log, reference
record) read the shipped weights only: they refuse a run whose stored weights differ,
rather than replay it with other weights.
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import Callable

from sim.errors import CardbalanceError
from sim.registry import GameData, lazy
from sim.user_input import read_json


class PolicyData:
    """One weights file as game data: `package`'s `name` (read as package data, not
    imported), `to_block(document) -> policy block`, `with_policy(rules_array, block)`."""

    def __init__(self, name: str, description: str, package: str, rules_size: int,
                 to_block: Callable, with_policy: Callable):
        self.name, self.package, self.rules_size = name, package, rules_size
        self.to_block, self.with_policy = to_block, with_policy
        self.game_data = GameData(name, description, self.shipped, check=self._block)  # a run's copy: checked first

    @classmethod
    def of_weight_table(cls, package: str, rules_size: int, name: str = "tuned_weights.json") -> "PolicyData":
        """The weights file of a game whose `package` declares `weights.TABLE`, a
        `strategies.weight_table.WeightTable` (named by dotted path: sim/ never imports strategies/)."""
        return cls(name, "the tuned agent's weights (%s/%s)" % (package.replace(".", "/"), name), package, rules_size,
                   lazy("%s.weights:TABLE.document_block" % package), lazy("%s.weights:TABLE.with_policy" % package))

    def shipped(self) -> bytes:
        return resources.files(self.package).joinpath(self.name).read_bytes()

    @functools.lru_cache(maxsize=8)
    def _block(self, blob: bytes):
        try:
            text = bytes(blob).decode("utf-8")
        except UnicodeDecodeError:
            raise CardbalanceError("game data %s is not UTF-8 text." % self.name) from None
        return self.to_block(read_json(text, "game data %s" % self.name))  # nesting, huge numbers: one line

    def rules_with(self, rules_array, data):
        """A plain rules array with the block of the run's weights (others as they are)."""
        if not data or len(rules_array) != self.rules_size:
            return rules_array
        return self.with_policy(rules_array, self._block(data[self.name]))

    def batch(self, function: Callable, arrays: int = 1, pass_data: bool = False) -> Callable:
        """`function(*rules_arrays, *rest)` taking keyword `data` (its first `arrays` arguments
        get the run's weights); `pass_data`: the game has other data too (the Novel TCG's card
        pool), so `function` gets the run's data as well."""
        return _Batch(self, function, arrays, pass_data)

    def one_match(self, function: Callable, pass_data: bool = False) -> Callable:
        """`function(rules, cell, seed)` taking keyword `data`: it plays the shipped weights, so a
        run that stored other weights is refused with one clear line (`pass_data` as in `batch`)."""
        return _OneMatch(self, function, pass_data)


class _Batch:  # a class, not a closure: chunks pickle it to their workers
    def __init__(self, policy: PolicyData, function: Callable, arrays: int, pass_data: bool):
        self.policy, self.function, self.arrays, self.pass_data = policy, function, arrays, pass_data

    def __call__(self, *args, data=None):
        arrays = [self.policy.rules_with(a, data) for a in args[:self.arrays]]
        if self.pass_data:
            return self.function(*arrays, *args[self.arrays:], data=data)
        return self.function(*arrays, *args[self.arrays:])


class _OneMatch:
    def __init__(self, policy: PolicyData, function: Callable, pass_data: bool):
        self.policy, self.function, self.pass_data = policy, function, pass_data

    def __call__(self, *args, data=None):
        name = self.policy.name
        if data and data[name] != self.policy.shipped():
            raise CardbalanceError("this run played tuned weights other than the shipped %s/%s (its copy: data/%s); "
                                   "a single match replays only with the shipped weights."
                                   % (self.policy.package.replace(".", "/"), name, name))
        if self.pass_data:
            return self.function(*args, data=data)
        return self.function(*args)
