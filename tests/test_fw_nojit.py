"""The kernel's clause tests also pass with NUMBA_DISABLE_JIT=1 (issue 2, part 7).

Run as plain Python the kernel gives tracebacks and coverage for the rules
code; this runs every scenario test's kernel variant that way in a
subprocess (the flag must be set before numba is imported).
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CLAUSE_FILES = ["tests/test_fw_base_clauses.py", "tests/test_fw_human_clauses.py",
                "tests/test_fw_alien_clauses.py", "tests/test_fw_joker_clauses.py"]


@pytest.mark.slow
def test_kernel_scenarios_pass_without_jit():
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", "kernel",
                             *CLAUSE_FILES], cwd=REPO, env=env, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert " passed" in result.stdout and "skipped" not in result.stdout.splitlines()[-1]
