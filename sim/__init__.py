"""cardbalance simulation core: one package per rule set plus what they share.

Shared here: card codes (`cards`), the in-state random generator (`rng`),
the error class every user-facing failure raises (`errors`), the game
registry (`registry`) and the sweep runner (`sweep`).
"""

__version__ = "0.1.0"
