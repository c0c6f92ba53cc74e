"""The numba kernel, part 5: the player decisions of FA-4 "choice" and FA-6 "choice".

Mirrors `reference_choices.py` (see docs/engine-contract.md, "Player
decisions of FA-4 and FA-6"): opening PENDING_TIMING / PENDING_TIE and
listing their actions. Going on after a decision needs the turn structure
and the attack, so that part lives with them (`kernel.resume_after_tie`,
`kernel.apply_timing`); the effects themselves call `choose_normal` where
they used `pick_normal`.
"""

import numba as nb

from sim.faction_war.kernel_jit import kernel_jit

from sim.faction_war import actions as A
from sim.faction_war.kernel_alien import clear_pending
from sim.faction_war.kernel_core import (BIG, JACK, _pick_key, _row_normals_word, is_human,
                                         pick_normal, row_effect, row_poly)
from sim.faction_war.kernel_masks import WORD_SHIFT, lowest_bit
from sim.faction_war.layout import (MASK_WORDS, N_ROWS, P_KIND, P_PLAYER, P_TIE_CONTEXT,
                                    P_TIE_EXCLUDED, P_TIE_LARGEST, P_TIE_PLAYERS, P_TIE_ROW,
                                    P_TIE_SITE, PENDING_TIE, PENDING_TIMING, PH_OVER, S_ACTIVE,
                                    S_DECIDER, S_PENDING, S_PHASE, S_TURN)
from sim.faction_war.rules import FA6_CHOICE, R_FA6

WAITING = -2  # `choose_normal`: a PENDING_TIE decision was opened, the effect stops here
J_BIT = 1  # kernel_core.row_effect bits


@kernel_jit
def _tied(state, rules, row, players, exclude, largest, out, n, write):
    """The candidates of `pick_normal` tied on the best key, ascending card id: written
    as TIE_PICK actions into out[n:] when `write`; returns n + how many."""
    best_a = BIG
    best_b = BIG
    j_order, spared = row_poly(state, rules, row)
    for word in range(MASK_WORDS):
        bits = _row_normals_word(state, row, players, word)
        while bits != 0:
            card = (word << WORD_SHIFT) + lowest_bit(bits)
            bits &= bits - 1
            ok, a, b = _pick_key(state, rules, card, exclude, largest, j_order, spared)
            if ok and (a < best_a or (a == best_a and b < best_b)):
                best_a = a
                best_b = b
    for word in range(MASK_WORDS):
        bits = _row_normals_word(state, row, players, word)
        while bits != 0:
            card = (word << WORD_SHIFT) + lowest_bit(bits)
            bits &= bits - 1
            ok, a, b = _pick_key(state, rules, card, exclude, largest, j_order, spared)
            if ok and a == best_a and b == best_b:
                if write:
                    out[n] = (A.TIE_PICK << 24) | (card << 16)
                n += 1
    return n


@kernel_jit
def choose_normal(state, rules, row, players, exclude, largest, site, context):
    """`pick_normal`, except under FA-6 "choice" with two or more tied cards while the
    match goes on: then PENDING_TIE opens for the effect's controller (the turn
    player: the attacker, or the Human whose face cards act) and WAITING returns."""
    if rules[R_FA6] != FA6_CHOICE or state[S_PHASE] == PH_OVER:
        return pick_normal(state, rules, row, players, exclude, largest)
    card = pick_normal(state, rules, row, players, exclude, largest)
    if card < 0 or _tied(state, rules, row, players, exclude, largest, state, 0, False) < 2:
        return card
    chooser = state[S_ACTIVE]
    state[S_PENDING + P_KIND] = PENDING_TIE
    state[S_PENDING + P_PLAYER] = chooser
    state[S_PENDING + P_TIE_ROW] = row
    state[S_PENDING + P_TIE_PLAYERS] = players
    state[S_PENDING + P_TIE_EXCLUDED] = exclude
    state[S_PENDING + P_TIE_LARGEST] = 1 if largest else 0
    state[S_PENDING + P_TIE_SITE] = site
    state[S_PENDING + P_TIE_CONTEXT] = context
    state[S_DECIDER] = chooser
    return WAITING


@kernel_jit
def tie_actions(state, rules, out):
    """Legal actions of PENDING_TIE: one TIE_PICK per tied card, ascending."""
    return _tied(state, rules, state[S_PENDING + P_TIE_ROW], state[S_PENDING + P_TIE_PLAYERS],
                 state[S_PENDING + P_TIE_EXCLUDED], state[S_PENDING + P_TIE_LARGEST] == 1, out, 0, True)


@kernel_jit
def close_tie(state):
    """Clear PENDING_TIE; returns (site, row, excluded card, context)."""
    site = state[S_PENDING + P_TIE_SITE]
    row = state[S_PENDING + P_TIE_ROW]
    exclude = state[S_PENDING + P_TIE_EXCLUDED]
    context = state[S_PENDING + P_TIE_CONTEXT]
    clear_pending(state, state[S_ACTIVE])
    state[S_PENDING + P_TIE_CONTEXT] = 0
    return site, row, exclude, context


@kernel_jit
def mandatory_effect_due(state, rules, player):
    """F-TURN-5/6: a Human player's row holds a Q, K or combination present since an
    earlier turn (what `kernel_human.mandatory_effects` would resolve)."""
    if not is_human(state, player):
        return False
    for row in range(N_ROWS):
        bits, since = row_effect(state, rules, player, row)
        if bits != 0 and bits != J_BIT and since < state[S_TURN]:
            return True
    return False


@kernel_jit
def open_timing(state):
    """PENDING_TIMING for the turn player (FA-4 "choice")."""
    state[S_PENDING + P_KIND] = PENDING_TIMING
    state[S_PENDING + P_PLAYER] = state[S_ACTIVE]
    state[S_DECIDER] = state[S_ACTIVE]


@nb.njit(cache=True, inline="always")
def tie_context(stage, step, keep_a, keep_b):
    """`layout.tie_context` (the reference's packing of P_TIE_CONTEXT), compiled."""
    return stage | step << 1 | (keep_a + 1) << 3 | (keep_b + 1) << 11


@nb.njit(cache=True, inline="always")
def tie_context_fields(context):
    """`layout.tie_context_fields`: (stage, step, keep_a, keep_b)."""
    return context & 1, (context >> 1) & 3, ((context >> 3) & 255) - 1, ((context >> 11) & 255) - 1
