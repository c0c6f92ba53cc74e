"""sim/inline_once.py: an `inline="always"` function's front end runs once per process
however many sites inline it, and every site still computes its own values (own copy,
own variable names). Runs in a fresh interpreter with an empty cache: the hook is
process-wide."""

import subprocess
import sys

CODE = """
import numba as nb
from numba.core.inline_closurecall import InlineWorker
front_ends = []
original = InlineWorker.run_untyped_passes
def counting(self, func, enable_ssa=False):
    front_ends.append(func.__name__)
    return original(self, func, enable_ssa)
InlineWorker.run_untyped_passes = counting
from sim import inline_once
inline_once.install()

@nb.njit(inline="always")
def clipped_square(x):
    y = x * x
    if y > 50:
        y = 50
    return y

@nb.njit
def three_sites(a, b):
    total = clipped_square(a) + 10 * clipped_square(b)
    for k in range(3):
        total += 100 * clipped_square(k + a)
    return total

print(three_sites(3, 9), three_sites.py_func(3, 9), front_ends.count("clipped_square"))
"""


def _run(tmp_path, switch: str | None) -> str:
    env = {"NUMBA_CACHE_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    if switch is not None:
        env["CARDBALANCE_INLINE_ONCE"] = switch
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, check=True, env=env)
    return out.stdout.strip()


def test_three_sites_share_one_front_end_and_compute_their_own_values(tmp_path):
    # 9 + 10 * 50 + 100 * (9 + 16 + 25) = 5509, as plain Python computes it
    assert _run(tmp_path, None) == "5509 5509 1"


def test_the_switch_restores_one_front_end_per_site(tmp_path):
    assert _run(tmp_path, "0") == "5509 5509 3"
