"""The "exile" strategy: an Alien that pursues Deep-Sea Era (F-ALW-1), else greedy.

Deep-Sea Era: more than 54 cards in both exile zones together and the
Alien wins at once. Every exile also fuels Outer Charge's passive heal
(F-ALK-1), and the heals keep the match going while the count rises.
Changes to greedy's scores (`greedy.py`, style STYLE_EXILE):
- Face cards: Q (Call of the Abyss: its row's attack victims and its own
  leaving cards are exiled) first, then K (Outer Charge), then J; Q and K
  are discarded last.
- Outer Charge (F-ALK-2) is activated every turn it can: mode 3 first (it
  exiles the whole row and as many opposing cards, healing both sides),
  then mode 1 (two cards exiled, both heal), then mode 2.
- Extra zone (F-EXT-1/3): one card every turn, preferring one that pushes
  an own zone card out — into the exile zone (FA-12 "exile").
- Split Rebirth (F-ALJ-3): moves that exile an own zone card are taken even
  without a cheap completion, when life allows.
- Attacks: a row with an Alien Q gets a bonus (its victim is exiled), and
  Abyss Magic row attacks count two points per card they exile, on top of
  greedy's exile-sum test (never a lethal own share).
Everything else — and every decision of a Human "exile" player — is greedy.
"""

import numba as nb

from strategies.faction_war.greedy import STYLE_EXILE, choose_styled


@nb.njit(cache=True)
def choose_exile(view, rules, legal, n_legal, policy_rng, seat):
    """Index chosen by the Deep-Sea-seeking Alien (see the module docstring)."""
    return choose_styled(view, rules, legal, n_legal, seat, STYLE_EXILE)
