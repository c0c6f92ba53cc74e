"""The scripted strategies play the FA-4 "choice" and FA-6 "choice" decisions (issue 14).

- random picks among the offered answers uniformly (both timings, every tied card);
- greedy follows its documented rule: `effects now`, and among tied cards one the
  opponent controls when there is one (Self-Destruct), else the lowest card id;
- on the batch kernel they choose exactly as on the reference engine.
"""

import numpy as np
import pytest

from sim.faction_war import actions as A
from strategies.faction_war import batch as B
from sim.faction_war import layout as L
from sim.faction_war.rules import Rules
from strategies.faction_war import STRATEGY_GREEDY, STRATEGY_RANDOM

from test_strategies_factions import HUMAN, play

CHOICES = Rules().with_changes(ambiguities={"FA-4": "choice", "FA-6": "choice"})
MATCHES = 60


def _decisions(strategy, matches=MATCHES):
    """(pending kind, site, offered actions, chosen index, decider, state) of every FA-4/FA-6
    decision in Human mirrors of `strategy`."""
    seen = []

    def record(match, state, decider, actions, index):
        pending = int(state[L.S_PENDING + L.P_KIND])
        if pending in (L.PENDING_TIMING, L.PENDING_TIE):
            seen.append((pending, int(state[L.S_PENDING + L.P_TIE_SITE]), actions, index, decider, state))

    for seed in range(matches):
        play(CHOICES, (HUMAN, HUMAN), (strategy, strategy), 700 + seed, on_decision=record)
    return seen


def test_random_picks_every_answer_uniformly():
    seen = _decisions(STRATEGY_RANDOM)
    timings = [index for pending, _, _, index, _, _ in seen if pending == L.PENDING_TIMING]
    # uniform over two answers: 'effects after-draw' (index 1) in 30-70 % of the decisions
    assert len(timings) >= 100 and 0.3 < np.mean(timings) < 0.7, (len(timings), np.mean(timings))
    ties = [(site, index, len(actions)) for pending, site, actions, index, _, _ in seen if pending == L.PENDING_TIE]
    assert {site for site, _, _ in ties} >= {L.TIE_SITE_ATTACK, L.TIE_SITE_MIND_MAGIC, L.TIE_SITE_SELF_DESTRUCT}
    # a uniform index over n answers has mean (n - 1) / 2: compare the mean of index / (n - 1) with 1/2
    shares = [index / (n - 1) for _, index, n in ties]
    assert len(shares) >= 30 and 0.3 < np.mean(shares) < 0.7, (len(shares), np.mean(shares))


def test_greedy_resolves_now_and_picks_the_opponents_card_first():
    seen = _decisions(STRATEGY_GREEDY)
    assert any(pending == L.PENDING_TIMING for pending, *_ in seen)
    mixed = 0
    for pending, site, actions, index, decider, state in seen:
        if pending == L.PENDING_TIMING:
            assert A.decode(actions[index])[1] == 0  # effects now
            continue
        cards = [A.decode(action)[1] for action in actions]
        theirs = [card for card in cards if state[L.C_CTRL + card] != decider]
        chosen = cards[index]
        assert chosen == (theirs[0] if theirs else cards[0]), (site, cards, chosen)
        mixed += 0 < len(theirs) < len(cards)
    assert mixed > 0  # Self-Destruct ties across both sides did occur


@pytest.mark.parametrize("strategy", [STRATEGY_GREEDY, STRATEGY_RANDOM])
def test_choices_choose_the_same_on_kernel_and_reference(strategy):
    decisions = 0
    for seed in range(6):
        reference = []
        play(CHOICES, (HUMAN, HUMAN), (strategy, strategy), seed,
             on_decision=lambda m, s, d, actions, i: reference.append(actions[i]))
        cell = B.cell_array(HUMAN, HUMAN, 50, 50, seed % 2, strategy, strategy)
        kernel = [action for _, action, legal in B.trace_match(CHOICES.to_array(), cell, seed) if len(legal) > 1]
        assert kernel == reference, seed
        decisions += sum(A.decode(a)[0] in (A.MANDATORY_TIMING, A.TIE_PICK) for a in kernel)
    assert decisions > 0
