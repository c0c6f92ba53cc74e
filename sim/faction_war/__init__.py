"""Faction War (Human vs Alien): rules, state layout, both engines.

`rules` (config), `layout` (state array), `actions` (encoding/notation),
`reference` (plain-Python engine, the executable spec), `kernel` (numba
engine), `position` (JSON positions), `game` (registry entry).
"""
