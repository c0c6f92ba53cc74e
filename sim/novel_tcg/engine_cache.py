"""The Novel TCG's compiled engine, declared for the numba cache stamp (`sim/jit_cache.py`)."""

from sim import jit_cache

ENGINE = jit_cache.Engine(
    name="novel_tcg",
    dirs=("sim/novel_tcg", "strategies/novel_tcg"),
    sources=("sim/novel_tcg/layout.py", "sim/novel_tcg/rules.py", "sim/novel_tcg/actions.py",
             "sim/novel_tcg/card_pool.py", "sim/novel_tcg/kernel*.py", "sim/novel_tcg/engine_cache.py",
             "strategies/novel_tcg/*.py", "strategies/__init__.py",
             "strategies/search_tree.py"),  # the search agents compile it in (kernel_sampler.py is a kernel*.py)
    test_prefix="test_tcg_kernel",
)


def install() -> bool:
    return jit_cache.install(ENGINE)
