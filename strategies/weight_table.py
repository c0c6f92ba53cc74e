"""An agent's weights as data: the named integer vector a `tuned` agent plays, and the
JSON document it ships in (`strategies/<game>/tuned_weights.json`, package data).

A game's `weights.py` declares its weights once, `WeightTable(package, WEIGHTS,
rules_size, groups)`: (name, greedy's value, tuning range low, high) per weight, and
the groups its document holds a vector for (Faction War: one per faction; none: one
vector for both seats). The table does the rest for every game: checking a vector or a
document (one clear line naming the field), the shipped weights, and the *policy
block* appended after the rules slots of a rules array (which the engine never reads
past): group g's weight k at `policy_base + g * n_weights + k`. Why a block in the
rules array: numba freezes module globals into compiled code, so weights tried as
globals would recompile per candidate; a compiled `tuned` reads them at run time, and
a rules array without the block gives it greedy's own values.
What stays per game is the weight names and what its policies do with them.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Mapping

import numpy as np

from sim.errors import CardbalanceError


def check_vector(values: dict, names: tuple[str, ...], where: str) -> np.ndarray:
    """{name: int} (every weight of `names`) -> the int64 vector; a bad entry is one clear error."""
    if not isinstance(values, dict):
        raise CardbalanceError("%s must be a table of weights %s." % (where, ", ".join(names)))
    unknown = sorted(set(values) - set(names))
    missing = [name for name in names if name not in values]
    if unknown or missing:
        raise CardbalanceError("%s: %s; the weights are %s." % (
            where, "unknown weight '%s'" % unknown[0] if unknown else "missing weight '%s'" % missing[0],
            ", ".join(names)))
    vector = np.zeros(len(names), dtype=np.int64)
    for index, name in enumerate(names):
        value = values[name]
        if isinstance(value, bool) or not isinstance(value, int):
            raise CardbalanceError("%s: weight %s must be an integer (got %r)." % (where, name, value))
        vector[index] = value
    return vector


def with_block(rules_array, rules_size: int, block) -> np.ndarray:
    """The first `rules_size` entries of `rules_array` (a plain rules array) with the
    policy `block` appended: the array a `tuned` kernel reads its weights from."""
    plain = np.asarray(rules_array, dtype=np.int64)[:rules_size]
    return np.ascontiguousarray(np.concatenate([plain, np.asarray(block, dtype=np.int64)]))


def as_dict(names: tuple[str, ...], vector) -> dict:
    return {name: int(value) for name, value in zip(names, vector)}


def read_document(package: str, file_name: str, path=None) -> tuple[object, str]:
    """(the parsed JSON, where it came from): the shipped `file_name` of `package` unless
    `path`; one error line when it cannot be read as JSON (the caller checks its shape)."""
    where = str(path) if path is not None else "%s/%s" % (package.replace(".", "/"), file_name)
    try:
        if path is None:
            text = resources.files(package).joinpath(file_name).read_text()
        else:
            text = open(path, encoding="utf-8").read()
        document = json.loads(text)
    except (OSError, ValueError) as error:
        raise CardbalanceError("%s cannot be read as JSON: %s." % (where, error)) from None
    return document, where


TUNED_FILE = "tuned_weights.json"


class WeightTable:
    """One game's tuned-agent weights (the module docstring)."""

    def __init__(self, package: str, weights, rules_size: int, groups: tuple[str, ...] = (),
                 file_name: str = TUNED_FILE):
        self.package, self.file_name, self.groups = package, file_name, tuple(groups)
        self.weights = tuple(weights)
        self.names = tuple(name for name, _, _, _ in self.weights)
        self.n_weights = len(self.names)
        self.defaults = np.array([default for _, default, _, _ in self.weights], dtype=np.int64)
        self.ranges = {name: (low, high) for name, _, low, high in self.weights}
        assert all(low <= default <= high for _, default, low, high in self.weights), self.package
        self.policy_base = int(rules_size)
        self.policy_slots = max(1, len(self.groups)) * self.n_weights
        self.policy_rules_size = self.policy_base + self.policy_slots
        self._shipped = None

    def index(self, name: str) -> int:
        return self.names.index(name)

    # ---- vectors and documents
    def check(self, values, where: str) -> np.ndarray:
        """{name: int} (every weight) -> the int64 vector; a bad entry is one clear error."""
        return check_vector(values, self.names, where)

    def as_dict(self, vector) -> dict:
        return as_dict(self.names, vector)

    def default_dict(self) -> dict:
        return self.as_dict(self.defaults)

    def vectors(self, document, where: str) -> dict:
        """A document's weights: {group: vector}, or {None: vector} for a game without groups."""
        weights = document.get("weights") if isinstance(document, dict) else None
        if self.groups:
            if not isinstance(weights, dict):
                raise CardbalanceError("%s must hold a 'weights' table by %s." % (where, " and ".join(self.groups)))
            return {group: self.check(weights.get(group), "%s: weights.%s" % (where, group)) for group in self.groups}
        if not isinstance(document, dict):
            raise CardbalanceError("%s must hold a 'weights' table (%s)." % (where, ", ".join(self.names)))
        return {None: self.check(weights, "%s: weights" % where)}

    def document_weights(self, vectors: Mapping) -> dict:
        """{group: vector} (or {None: vector}) -> the document's 'weights' entry."""
        if self.groups:
            return {group: self.as_dict(vectors[group]) for group in self.groups}
        return self.as_dict(vectors[None])

    def load_document(self, path=None) -> dict:
        """The tuned weights document (the shipped package data unless `path`), checked."""
        document, where = read_document(self.package, self.file_name, path)
        self.vectors(document, where)
        return document

    # ---- the policy block
    def block(self, vectors: Mapping) -> np.ndarray:
        """{group: vector} ({None: vector} without groups; a missing group: the defaults)
        -> the policy block."""
        keys = self.groups or (None,)
        parts = [np.asarray(vectors.get(key, self.defaults), dtype=np.int64) for key in keys]
        for part in parts:
            if part.shape != (self.n_weights,):
                raise CardbalanceError("a policy block must have %d weights (got shape %s)."
                                       % (self.n_weights, part.shape))
        return np.concatenate(parts)

    def document_block(self, document) -> np.ndarray:
        """A parsed weights document (a run's game data) -> its policy block."""
        return self.block(self.vectors(document, "game data %s" % self.file_name))

    def shipped_block(self) -> np.ndarray:
        """The shipped weights as a policy block (read once, read-only)."""
        if self._shipped is None:
            block = self.block(self.vectors(self.load_document(), self.file_name))
            block.setflags(write=False)
            self._shipped = block
        return self._shipped

    def has_policy(self, rules_array) -> bool:
        return len(rules_array) >= self.policy_rules_size

    def policy_of(self, rules_array) -> np.ndarray:
        """The block `tuned` plays with under `rules_array`: its own, else the shipped one."""
        if self.has_policy(rules_array):
            return np.asarray(rules_array[self.policy_base:self.policy_rules_size], dtype=np.int64)
        return self.shipped_block()

    def with_policy(self, rules_array, block=None) -> np.ndarray:
        """A plain rules array with a policy block appended (the shipped weights unless `block`)."""
        block = self.shipped_block() if block is None else np.asarray(block, dtype=np.int64)
        if block.shape != (self.policy_slots,):
            raise CardbalanceError("a policy block must have %d weights (got shape %s)."
                                   % (self.policy_slots, block.shape))
        return with_block(rules_array, self.policy_base, block)
