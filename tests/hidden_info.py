"""A state that differs from another only in what one player cannot see (for the
strategy tests' hidden-information checks)."""

from sim.faction_war import layout as L


def hide_differently(state, player, rng):
    """A copy of `state` with another rule generator word, both deck orders shuffled
    and the opponent's hand and deck contents swapped around (`rng`: a PyRng)."""
    other = state.copy()
    opponent = 1 - player
    other[L.S_RNG] = 1234567
    for seat in (0, 1):  # both deck orders
        count = other[L.S_DECK_COUNT + seat]
        deck = L.S_DECK + seat * L.CARDS_PER_PLAYER
        order = [int(other[deck + i]) for i in range(count)]
        for i in range(count - 1, 0, -1):
            j = rng.below(i + 1)
            order[i], order[j] = order[j], order[i]
        other[deck:deck + count] = order
    # swap opponent hand cards with opponent deck cards (different contents)
    hand = [c for c in range(opponent * L.CARDS_PER_PLAYER, (opponent + 1) * L.CARDS_PER_PLAYER)
            if other[L.C_ZONE + c] == L.Z_HAND]
    count = other[L.S_DECK_COUNT + opponent]
    deck = L.S_DECK + opponent * L.CARDS_PER_PLAYER
    for k in range(min(len(hand), count)):
        slot = deck + rng.below(count)
        in_deck, in_hand = int(other[slot]), hand[k]
        if other[L.C_ZONE + in_deck] != L.Z_DECK:
            continue
        other[slot] = in_hand
        other[L.C_ZONE + in_hand] = L.Z_DECK
        other[L.C_ZONE + in_deck] = L.Z_HAND
        hand[k] = in_deck
    return L.fill_masks(other)
