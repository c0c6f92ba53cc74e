"""The two arrows that ran back up the layers stay mended (issue 25): the executor, which
sweep, compare and bench stand on, imports nothing of `sim/sweep/`, and the run reader
(analysis) takes the run format from the core, not from the sweep writer."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _imported(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_the_executor_imports_nothing_of_the_sweep():
    assert not {n for n in _imported(ROOT / "sim" / "executor.py") if n.startswith("sim.sweep")}


def test_analysis_imports_nothing_of_the_sweep_writer():
    found = {str(path.relative_to(ROOT)): sorted(n for n in _imported(path) if n.startswith("sim.sweep"))
             for path in (ROOT / "analysis").rglob("*.py")}
    assert not {path: names for path, names in found.items() if names}


def test_reader_and_writer_share_one_run_format_constant():
    from analysis import runs
    from sim import registry
    from sim.sweep import runfolder
    assert runs.RUN_FORMAT_VERSION is registry.RUN_FORMAT_VERSION and runfolder.FORMAT_VERSION is registry.RUN_FORMAT_VERSION
    assert runs.RUN_FORMAT is registry.RUN_FORMAT is runfolder.FORMAT
    assert "FORMAT_VERSION = " not in (ROOT / "analysis" / "runs.py").read_text(encoding="utf-8")
