"""Report sections a game declares for its own balance questions.

The shared report stays game-neutral; a game may add sections by naming a
builder in its declaration, `GameSpec.extra["report_sections"]` (a callable,
usually `sim.registry.lazy`). The builder gets the loaded run, the shared
tables and a `Kit` of the statistics it may need, and returns `Section`s:
a title, a caption, a table (a DataFrame of display strings), optionally a
figure (a function returning a matplotlib Figure) and lines for the terminal
summary. The kit is handed in so that a game's package imports nothing above
its own layer (docs/architecture.md).

Also here, because every game's builder needs them: the rules entries of a run
flattened to key -> value, and the pairs of rules that differ in exactly one key
(a `[vary]` sweep's variants: the effect of that one rule value).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Callable

import numpy as np
import pandas as pd

from analysis import stats, vary_effects, verdict


@dataclass
class Section:
    id: str
    title: str
    caption: str
    table: pd.DataFrame | None = None
    figure: Callable[[], object] | None = None  # -> matplotlib Figure
    lines: list[str] = field(default_factory=list)  # the terminal summary's words
    page: bool = True  # False: the terminal summary only (the shared report already shows it)


def difference_interval(k_a, n_a, k_b, n_b, z: float = stats.Z95):
    """b − a of two independent proportions with a normal 95 % interval (nan without trials)."""
    if n_a <= 0 or n_b <= 0:
        return float("nan"), float("nan"), float("nan")
    p_a, p_b = k_a / n_a, k_b / n_b
    half = z * np.sqrt(p_a * (1 - p_a) / n_a + p_b * (1 - p_b) / n_b)
    return p_b - p_a, p_b - p_a - half, p_b - p_a + half


def difference_test(k_a, n_a, k_b, n_b) -> tuple:
    """`difference_interval` and its two-sided normal p-value of no difference."""
    return vary_effects.normal_test(*difference_interval(k_a, n_a, k_b, n_b))


def points(value, low=None, high=None) -> str:
    """+3.1 [-0.4, +6.6] pts (percentage points)."""
    if value != value:
        return "-"
    text = "%+.1f" % (100 * value)
    if low is not None:
        text += " [%+.1f, %+.1f]" % (100 * low, 100 * high)
    return text + " pts"


def percent(k, n) -> str:
    """12.3% [10.1, 14.8] (Wilson)."""
    if n <= 0:
        return "-"
    low, high = stats.wilson_interval(k, n)
    return "%.1f%% [%.1f, %.1f]" % (100 * k / n, 100 * low, 100 * high)


def flat_rules(entry: dict) -> dict:
    """A run's rules entry's values as one key -> value mapping (numbers and switches)."""
    values = dict(entry.get("values") or {})
    switches = values.pop("ambiguities", {}) or {}
    return {**values, **switches}


def one_key_pairs(meta: dict, key: str, default=None) -> list[tuple[str, str, object, object]]:
    """(baseline rules, other rules, baseline value, other value) for every two rules of a run
    that differ in `key` only; the baseline holds `default` when given, else the first listed."""
    entries = {name: flat_rules(entry) for name, entry in (meta.get("rules") or {}).items()}
    names = list(entries)
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            va, vb = entries[a], entries[b]
            differing = {k for k in set(va) | set(vb) if va.get(k) != vb.get(k)}
            if differing != {key}:
                continue
            if default is not None and vb.get(key) == default:
                a, b, va, vb = b, a, vb, va
            pairs.append((a, b, va.get(key), vb.get(key)))
    return pairs


def family_verdicts(successes, trials, delta: float | None = None) -> list[str]:
    """The product's verdicts (balanced / undecided / imbalanced against ½ ± δ) of a table of
    shares `successes / trials`, decided as one family (Holm), as the shared tables do."""
    successes, trials = np.asarray(successes, dtype=float), np.asarray(trials, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(trials > 0, successes / np.maximum(trials, 1), 0.5)
    p_imbalanced, p_balanced = verdict.score_p_values(share, np.maximum(trials, 1),
                                                      verdict.DEFAULT_DELTA if delta is None else delta)
    p_imbalanced = np.where(trials > 0, p_imbalanced, 1.0)
    p_balanced = np.where(trials > 0, p_balanced, 1.0)
    return list(verdict.decide_family(p_imbalanced, p_balanced))


@dataclass(frozen=True)
class Kit:
    """What a game's section builder may use (handed in, never imported by the game)."""

    wilson: Callable = stats.wilson_interval
    difference: Callable = difference_interval
    points: Callable = points
    percent: Callable = percent
    flat_rules: Callable = flat_rules
    one_key_pairs: Callable = one_key_pairs
    Section: type = Section
    chunk_frame: Callable = vary_effects.chunk_frame                    # run -> per-(cell, chunk) rows, or None
    clustered_difference: Callable = vary_effects.frame_difference      # (rows A, rows B, successes, trials)
    clustered_test: Callable = vary_effects.frame_test                  # the same, and its t p-value
    difference_test: Callable = difference_test                         # `difference`, and its normal p-value
    family_flags: Callable = vary_effects.bonferroni_flags              # p-values -> rejected at 5 % family-wise
    verdicts: Callable = family_verdicts                                # (successes, trials) -> verdict per row
    delta: float = verdict.DEFAULT_DELTA


def kit_for(delta: float | None = None) -> Kit:
    """The kit whose verdicts and bands use `delta` (the report's --delta; None: the default)."""
    delta = verdict.DEFAULT_DELTA if delta is None else verdict.check_delta(delta)
    return Kit(verdicts=partial(family_verdicts, delta=delta), delta=delta)


def game_sections(run, tables: dict, delta: float | None = None) -> list[Section]:
    """The sections the run's game declares (none for a game that declares none), deciding
    with `delta`, else the δ the shared tables were built with (`all_tables(run, delta)`
    records it), so `cardbalance report --delta` reaches the game's own verdicts too."""
    from sim.errors import CardbalanceError
    from sim.registry import get_game
    try:
        builder = get_game(run.game).extra.get("report_sections")
    except CardbalanceError:
        return []
    if delta is None:
        delta = next((t.attrs["delta"] for t in tables.values() if "delta" in getattr(t, "attrs", {})), None)
    return list(builder(run, tables, kit_for(delta))) if builder else []
