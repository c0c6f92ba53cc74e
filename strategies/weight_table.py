"""An agent's weights as data: the named integer vector a `tuned` agent plays, and the
JSON document it ships in (`strategies/<game>/tuned_weights.json`, package data).

Every game's `weights.py` uses these; what stays per game is the weight names and
how its document groups them (one vector, or one per side of the game).
"""

from __future__ import annotations

import json
from importlib import resources

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
