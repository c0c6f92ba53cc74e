"""The kernel's special-placement feasibility test (F-ALJ-4) against the reference's.

`kernel_alien._sum_reachable` answers "can these sources add up to `total`
with at least `at_least` cards" with two bitsets; the reference computes the
most cards (`max_cards_for_sum`) and compares. Both must agree on every
source multiset, or the kernel would list different SPECIAL_PICK actions.
"""

import random

from sim.faction_war.kernel_alien import COUNT_BITS, MAX_SUM, _sum_reachable
from sim.faction_war.reference_alien import max_cards_for_sum


def _counts_word(numbers):
    counts = 0
    for number in numbers:
        shift = COUNT_BITS * (number - 1)
        if (counts >> shift) & 15 < 15:
            counts += 1 << shift
    return counts


def test_sum_reachable_agrees_with_the_reference_most_cards():
    """F-ALJ-4: reachable with >= k cards (k = 0, 1, 2) iff the reference's most >= k."""
    chooser = random.Random(20261130)
    checked = {0: 0, 1: 0, 2: 0}
    for _ in range(3000):
        numbers = [chooser.randint(1, MAX_SUM) for _ in range(chooser.randint(0, 12))]
        counts = _counts_word(numbers)
        for total in range(1, MAX_SUM + 1):
            most = max_cards_for_sum(numbers, total)
            for at_least in (-1, 0, 1, 2):
                expected = most >= 0 and most >= at_least
                assert _sum_reachable(counts, total, at_least) == expected, (numbers, total, at_least)
                if expected:
                    checked[max(at_least, 0)] += 1
    assert min(checked.values()) > 100  # every threshold was met by many multisets


def test_sum_reachable_edge_cases():
    """Two cards of the same number make a pair; one card alone is not two cards."""
    assert _sum_reachable(_counts_word([5, 5]), 10, 2)
    assert not _sum_reachable(_counts_word([5]), 10, 1)
    assert _sum_reachable(_counts_word([10]), 10, 1)
    assert not _sum_reachable(_counts_word([10]), 10, 2)
    assert not _sum_reachable(0, 3, 0)
    assert _sum_reachable(_counts_word([1, 2, 3, 4]), 10, 2)
