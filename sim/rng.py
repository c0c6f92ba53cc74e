"""The small random generator kept inside a match state.

SplitMix64: one 64-bit word of state, a few integer operations per draw, and
bit-identical results in plain Python (masking to 64 bits) and in numba
(uint64 arithmetic wraps). Both engines and any replay therefore draw the
same numbers from the same state. The state word lives in the match's int64
state array; it is reinterpreted as unsigned for the arithmetic.

`below(n)` maps a draw to 0..n-1 by multiply-shift on the high 32 bits, which
is exact integer arithmetic in both engines (no floats, no modulo loop).
"""

import numba as nb
import numpy as np

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB


# ---- plain Python (reference engine, seeding) -------------------------------

def splitmix_next(state: int) -> tuple[int, int]:
    """Advance an unsigned 64-bit state; return (new_state, output)."""
    state = (state + GOLDEN) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return state, z ^ (z >> 31)


def below_from_output(output: int, n: int) -> int:
    """Map one 64-bit output to 0..n-1 (multiply-shift on the high half)."""
    return ((output >> 32) * n) >> 32


def to_signed(value: int) -> int:
    """Unsigned 64-bit → the int64 stored in a state array."""
    value &= MASK64
    return value - (1 << 64) if value >= 1 << 63 else value


def to_unsigned(value: int) -> int:
    return value & MASK64


def match_seed(chunk_seed: int, index: int) -> int:
    """Seed of match `index` of a chunk: one SplitMix step from chunk_seed+index.

    A match is fully determined by (rules, cell, this seed); the seed itself is
    determined by (root seed, cell, chunk, index) through `chunk_seed`.
    """
    _, out = splitmix_next((chunk_seed + index * GOLDEN) & MASK64)
    return out


# ---- numba (kernels) --------------------------------------------------------

@nb.njit(cache=True, inline="always")
def nb_next(state_array, slot):
    """Advance the generator stored at state_array[slot]; return uint64 output."""
    s = np.uint64(state_array[slot]) + np.uint64(GOLDEN)
    state_array[slot] = np.int64(s)
    z = s
    z = (z ^ (z >> np.uint64(30))) * np.uint64(MIX1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(MIX2)
    return z ^ (z >> np.uint64(31))


@nb.njit(cache=True, inline="always")
def nb_below(state_array, slot, n):
    """Uniform integer in 0..n-1 from the generator at state_array[slot]."""
    out = nb_next(state_array, slot)
    return np.int64(((out >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@nb.njit(cache=True)
def nb_match_seed(chunk_seed, index):
    """numba twin of `match_seed` (chunk_seed and result are uint64)."""
    s = np.uint64(chunk_seed) + np.uint64(index) * np.uint64(GOLDEN) + np.uint64(GOLDEN)
    z = s
    z = (z ^ (z >> np.uint64(30))) * np.uint64(MIX1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(MIX2)
    return z ^ (z >> np.uint64(31))


class PyRng:
    """Reference-engine view of the generator: same numbers as `nb_below`."""

    def __init__(self, state: int):
        self.state = to_unsigned(state)

    def below(self, n: int) -> int:
        self.state, out = splitmix_next(self.state)
        return below_from_output(out, n)
