"""meta.json's shape: the type of every top-level field a reader of a run folder uses (issue 39).

`report`, `sweep --resume` and `play --from` read meta.json's fields as the sweep wrote
them (a list of strategy names, an object per rules name, ...). A field of another type —
a damaged or hand-edited file — used to end in a traceback somewhere below; here it is
one line naming the field and the type it must have, before anything else reads it.

The trade-off: the check is shallow (a field's own type, and the type of a list's items):
what lies deeper (a dimension's keys, a rules entry's values) is checked where it is read.
A field the format does not name is left alone (ladder and compare runs add their own), and
a missing one is left to its reader, which says whether the run can do without it.
"""

from __future__ import annotations

from sim.errors import CardbalanceError
from sim.user_input import shorten


def _integer(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _list_of(kind):
    return lambda value: isinstance(value, list) and all(kind(item) for item in value)


def _text(value) -> bool:
    return isinstance(value, str)


def _object(value) -> bool:
    return isinstance(value, dict)


# field -> (test, what it must be)
FIELDS = {
    "game": (_text, "text (a game name)"),
    "name": (_text, "text"),
    "behaviour_version": (_integer, "an integer"),
    "seed": (_integer, "an integer"),
    "chunk_size": (lambda v: _integer(v) and v >= 1, "an integer of at least 1"),
    "length_bins": (lambda v: _integer(v) and v >= 1, "an integer of at least 1"),
    "jobs": (_integer, "an integer"),
    "complete": (lambda v: isinstance(v, bool), "true or false"),
    "sweep": (_object, "an object (the sweep's settings)"),
    "rules": (lambda v: _object(v) and all(_object(e) for e in v.values()), "an object of rules name -> object"),
    "strategies": (_list_of(_text), "a list of strategy texts"),
    "dimensions": (_list_of(_object), "a list of objects"),
    "derived_axes": (_list_of(_object), "a list of objects"),
    "cells": (_list_of(_object), "a list of objects"),
    "cell_columns": (_list_of(_text), "a list of column names"),
    "end_types": (_list_of(_text), "a list of end-type names"),
    "special_end_types": (_list_of(_text), "a list of end-type names"),
    "counter_names": (_list_of(_text), "a list of counter names"),
    "counts": (_object, "an object"),
    "timings": (_object, "an object"),
    "machine": (_object, "an object"),
    "package_version": (_text, "text"),
    "backend": (_text, "text"),
    "git_commit": (lambda v: v is None or _text(v), "text or null"),
}


def check_meta_fields(meta: dict, run) -> None:
    """Refuse, in one line naming it, the first field of `meta` whose type is not the format's."""
    for field, (test, allowed) in FIELDS.items():
        if field in meta and not test(meta[field]):
            raise CardbalanceError("run '%s': meta.json '%s' must be %s (got %s)."
                                   % (run, field, allowed, _shown(meta[field])))


def _shown(value) -> str:
    try:
        return shorten(repr(value))
    except ValueError:  # repr of an integer past the 4,300-digit limit
        return "a number of over 4300 digits"
