"""Poker Duel (seed 004): rules, state layout, actions, reference engine, positions, declaration."""
