"""greedy's choice at the optional draw (D-AMB-11 "optional"; the rule is in the docstring of
strategies/poker_duel/policies.py): take it, unless the hand already holds `hand_limit` cards, or
the deck would be left with DRAW_DECK_LOW cards or fewer and fewer than the opponent's. Both
greedy twins (policies.greedy_index, kernel_policies.greedy_index) choose the same."""

import numpy as np
import pytest

from sim.poker_duel import actions as A
from sim.poker_duel import layout as L
from sim.poker_duel.position import apply_texts, load_position
from strategies.poker_duel import kernel_policies, policies
from tests.test_pd_switch_clauses import pos

OPTIONAL = {"D-AMB-11": "optional"}
ELEVEN = ["D2", "D3", "D4", "D5", "D6", "D7", "D8", "D9", "D10", "S2", "S3"]


def greedy_at_the_draw(p1, p0=None):
    """p0 ends its turn (nothing to attack with): p1's turn starts at the optional draw."""
    m = load_position(pos(p0 or {}, p1, amb=OPTIONAL))
    apply_texts(m, ["pass"])
    assert m.pend_kind == L.PK_DRAW and m.decider == 1 and m.legal_actions() == [A.encode(A.PASS), A.encode(A.DRAW)]
    rules_array = m.rules.to_array()
    view, legal = m.view(1), m.legal_actions()
    python = legal[policies.greedy_index(view, legal, rules_array, None)]
    compiled = legal[kernel_policies.greedy_index(view, np.array(legal, dtype=np.int64), len(legal), rules_array)]
    assert python == compiled
    return A.to_text(python)


@pytest.mark.parametrize("p1, p0, choice", [
    ({"hand": ["H2", "H3", "H4"]}, None, "draw"),                              # early: cards are worth having
    ({"hand": ["H2", "H3", "H4", "H5", "H6", "H7"]}, None, "pass"),            # at the hand limit (6)
    ({"hand": ["H2"], "deck": ELEVEN}, None, "pass"),                          # 9 left, the opponent holds 40+
    ({"hand": ["H2"], "deck": ELEVEN}, {"deck": ["C2", "C3", "C4", "C5", "C6"]}, "draw"),  # 9 left, theirs 5
    ({"hand": ["H2"], "deck": ELEVEN + ["S4", "S5"]}, None, "draw"),           # 11 left: not low yet
])
def test_D_AMB_11_optional_greedy_draws_unless_the_hand_is_full_or_its_deck_would_run_out_first(p1, p0, choice):
    assert greedy_at_the_draw(p1, p0) == choice
