"""Shared helpers of the Novel TCG tests: both engines from one position, and the differential walk."""

from __future__ import annotations

import random

import numpy as np

from sim.novel_tcg import card_pool, kernel
from sim.novel_tcg import layout as L
from sim.novel_tcg.reference import Match
from sim.novel_tcg.rules import Rules, load_rules
from sim.rng import to_signed


def new_both(rules: Rules, ranks=(10, 10), templates=("swarm", "swarm"), first=0, seed=1):
    """(reference Match, kernel state, rules array) of one new match."""
    decks = [card_pool.build_deck(rules, templates[seat], ranks[seat]) for seat in (0, 1)]
    match = Match(rules, ranks, [d.tolist() for d in decks], first, seed)
    r = rules.to_array()
    state = np.zeros(L.STATE_SIZE, dtype=np.int64)
    kernel.new_match(state, r, ranks[0], ranks[1], decks[0], decks[1], first, to_signed(seed))
    return match, state, r


def kernel_legal(state, r) -> list[int]:
    out = np.zeros(kernel.MAX_LEGAL, dtype=np.int64)
    n = kernel.legal_actions(state, r, out)
    return out[:n].tolist()


def mismatch(a, b) -> str:
    bad = np.nonzero(a != b)[0]
    return ", ".join("%s: reference %d kernel %d" % (L.slot_name(i), a[i], b[i]) for i in bad[:8])


def play_both(rules: Rules, ranks, templates, first, seed, choose_seed=None) -> Match:
    """Play one seeded random match on both engines; assert equal legal lists and states after every action."""
    match, state, r = new_both(rules, ranks, templates, first, seed)
    rng = random.Random(seed if choose_seed is None else choose_seed)
    step = 0
    while True:
        packed = match.pack()
        assert np.array_equal(packed, state), "seed %d step %d: %s" % (seed, step, mismatch(packed, state))
        legal = match.legal_actions()
        assert legal == kernel_legal(state, r), "seed %d step %d: legal lists differ" % (seed, step)
        if not legal:
            return match
        action = rng.choice(legal)
        match.apply(action, check=False)  # listed just above
        kernel.apply_action(state, r, action)
        step += 1


def preset_rules(name: str) -> Rules:
    return load_rules(name)


def both(position: dict, actions=()):
    """Set up `position` (sim/novel_tcg/position.py format) on both engines, play `actions` (text) on both,
    asserting equal legal lists and states after each; -> the reference Match (the kernel's equals it)."""
    from sim.novel_tcg import actions as A
    from sim.novel_tcg.position import match_from_position

    match = match_from_position(position)
    state, r = match.pack(), match.rules.to_array()
    for text in actions:
        legal = match.legal_actions()
        assert legal == kernel_legal(state, r), "before %r: legal lists differ" % text
        action = A.parse(text)
        assert action in legal, "%r not legal; legal: %s" % (text, [A.to_text(a) for a in legal])
        match.apply(action)
        kernel.apply_action(state, r, action)
        packed = match.pack()
        assert np.array_equal(packed, state), "after %r: %s" % (text, mismatch(packed, state))
    assert match.legal_actions() == kernel_legal(state, r)
    return match


def legal_texts(match) -> list[str]:
    from sim.novel_tcg import actions as A
    return [A.to_text(a) for a in match.legal_actions()]


# ---- positions in the scenario format (sim/novel_tcg/position.py) -------------------------------
def pos(rules=None, phase="battle", turn=3, active=0, me=None, them=None):
    """A position: seat 0 is "me", seat 1 "them"; turn 3 so that no first-turn rule applies."""
    return {"rules": rules or {}, "turn": turn, "active": active, "phase": phase,
            "seats": [dict(me or {}), dict(them or {})]}


def front(*cards, position="attack", summoned=0):
    """Front-row entries in slots 0, 1, ... of the given cards, all in one position."""
    return [{"slot": i, "card": c, "position": position, "summoned": summoned} for i, c in enumerate(cards)]


def walk_both(rules: Rules, seed: int, templates=("advance", "swarm"), ranks=(10, 10), check=None) -> Match:
    """`play_both` with a hook: check(packed state before, match after, action, legal list) after every
    action, so a test asserts an invariant of every step (both engines compared slot by slot as in play_both)."""
    match, state, r = new_both(rules, ranks, templates, seed % 2, seed)
    rng = random.Random(seed)
    while True:
        assert np.array_equal(match.pack(), state), "seed %d: %s" % (seed, mismatch(match.pack(), state))
        legal = match.legal_actions()
        assert legal == kernel_legal(state, r), "seed %d: legal lists differ" % seed
        if not legal:
            return match
        action = rng.choice(legal)
        before = match.pack()
        match.apply(action, check=False)
        kernel.apply_action(state, r, action)
        if check is not None:
            check(before, match, action, legal)
