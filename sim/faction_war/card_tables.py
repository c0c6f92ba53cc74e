"""Per-id card tables: a card's suit and number by one lookup, not by division.

The kernel and the strategies ask "which suit / which number is card c" in
nearly every loop. Computed, that is `c % 54` then `// 13` or `% 13`, with
the sign fix-ups numba adds for Python's modulo: a chain of multiplies on
the critical path of every card walk. The tables are numpy constants that
numba embeds in the compiled code.

The tables cover ids 0..269 (five packs' worth): every id a state can hold
(0..215), the action field NONE (255), and, because numba wraps negative
indices and 270 is a multiple of 54, the "no card" value -1 gives the same
answer as the modulo did (a small joker: suit -1, number 0).
"""

import numpy as np

from sim.cards import CARDS_PER_PACK, rank_of, suit_of

TABLE_SIZE = 5 * CARDS_PER_PACK
CARD_SUIT = np.array([suit_of(card % CARDS_PER_PACK) for card in range(TABLE_SIZE)], dtype=np.int64)
CARD_NUMBER = np.array([rank_of(card % CARDS_PER_PACK) for card in range(TABLE_SIZE)], dtype=np.int64)
