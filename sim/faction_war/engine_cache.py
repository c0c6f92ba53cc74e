"""Faction War's compiled engine, declared for the numba cache stamp (`sim/jit_cache.py`).

Every engine module (kernels, and the strategies and match loop in
`strategies/faction_war/`) calls `install()` before defining a cached kernel.
"""

from sim import jit_cache

ENGINE = jit_cache.Engine(
    name="faction_war",
    dirs=("sim/faction_war", "strategies/faction_war"),
    sources=("sim/faction_war/layout.py", "sim/faction_war/rules.py", "sim/faction_war/actions.py",
             "sim/faction_war/kernel*.py", "sim/faction_war/card_tables.py", "sim/faction_war/sampler.py",
             "sim/faction_war/engine_cache.py",
             "strategies/faction_war/*.py", "strategies/search_tree.py",  # the search agents compile it in
             "strategies/__init__.py"),  # the standard agents' default budgets
    test_prefix="test_",
)


def install() -> bool:
    return jit_cache.install(ENGINE)
