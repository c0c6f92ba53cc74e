"""sim/optimise_once.py: a callee compiled inside its caller's compile skips LLVM's module
optimisation, the function Python calls gets it (over the callee's code too); the switch
restores numba's behaviour. Each case runs in a fresh interpreter with an empty cache, since
the hook is process-wide."""

import subprocess
import sys

CODE = """
import numba as nb
from numba.core import codegen
optimised = []
original = codegen.CPUCodeLibrary._optimize_final_module
def recording(self):
    optimised.append(self.name)
    original(self)
codegen.CPUCodeLibrary._optimize_final_module = recording
from sim import optimise_once
optimise_once.install()

@nb.njit
def callee_twice(x):
    return 2 * x

@nb.njit
def caller_plus_one(x):
    return callee_twice(x) + 1

assert caller_plus_one(20) == 41
assert callee_twice(5) == 10  # compiled already (inside the caller): no new library
print(sorted({name.split(".")[-1] for name in optimised if "_twice" in name or "_plus_one" in name}))
"""


def _optimised_libraries(tmp_path, switch: str | None) -> str:
    env = {"NUMBA_CACHE_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    if switch is not None:
        env["CARDBALANCE_OPTIMISE_CALLEES"] = switch
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, check=True, env=env)
    return out.stdout.strip()


def test_only_the_function_python_calls_is_module_optimised(tmp_path):
    assert _optimised_libraries(tmp_path, None) == "['caller_plus_one']"


def test_the_switch_restores_optimising_every_callee(tmp_path):
    assert _optimised_libraries(tmp_path, "1") == "['callee_twice', 'caller_plus_one']"
