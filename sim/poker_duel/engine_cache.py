"""Poker Duel's compiled engine, declared for the numba cache stamp (`sim/jit_cache.py`)."""

from sim import jit_cache

ENGINE = jit_cache.Engine(
    name="poker_duel",
    dirs=("sim/poker_duel", "strategies/poker_duel"),
    sources=("sim/poker_duel/layout.py", "sim/poker_duel/rules.py", "sim/poker_duel/actions.py",
             "sim/poker_duel/kernel*.py", "sim/poker_duel/engine_cache.py", "strategies/poker_duel/*.py",
             "strategies/__init__.py",
             "sim/poker_duel/sampler.py", "strategies/search_tree.py"),  # the search agents compile both in
    test_prefix="test_pd_kernel",
)


def install() -> bool:
    return jit_cache.install(ENGINE)
