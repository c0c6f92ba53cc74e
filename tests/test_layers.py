"""The package layers of docs/architecture.md hold: no import cycle, no import
that runs back up from a game's engine or from the shared core."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("sim", "analysis", "reports", "strategies")
CORE = ("sim.registry", "sim.errors", "sim.rng", "sim.aggregate", "sim.cards", "sim.jit_cache")


def _modules():
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            yield ".".join(parts[:-1] if parts[-1] == "__init__" else parts), path


def _imports(path: Path, module: str, top_level_only: bool):
    """Modules `path` imports (absolute names), at import time only or anywhere."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = tree.body if top_level_only else ast.walk(tree)
    found = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update("%s.%s" % (node.module, alias.name) for alias in node.names)
    known = dict(_modules())
    return {name for name in found if name in known and name != module}


def _graph(top_level_only=True):
    return {module: _imports(path, module, top_level_only) for module, path in _modules()}


def test_no_import_cycle_at_import_time():
    graph = _graph()
    state, stack, cycles = {}, [], []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == "open":
                cycles.append(stack[stack.index(target):] + [target])
            elif target not in state:
                visit(target)
        stack.pop()
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node)
    # a package's __init__ importing its own submodules is not a cycle between layers
    cycles = [c for c in cycles if not all(m.split(".")[:2] == c[0].split(".")[:2] for m in c)]
    assert not cycles, cycles


def test_a_games_engine_never_imports_strategies_and_the_core_names_no_game():
    graph = _graph(top_level_only=False)
    for module, targets in graph.items():
        if module.startswith("sim.faction_war"):
            assert not {t for t in targets if t.startswith("strategies")}, (module, targets)
        if module in CORE:
            assert not {t for t in targets if t.split(".")[0] in ("analysis", "reports", "strategies")
                        or t.startswith(("sim.faction_war", "sim.sweep", "sim.compare", "sim.cli"))}, (module, targets)
    # the registry names each game only by the dotted path of its declaration
    text = (ROOT / "sim" / "registry.py").read_text(encoding="utf-8")
    assert 'register("faction_war", "sim.faction_war.game:GAME_SPEC")' in text


def test_shared_layers_name_no_game_concept():
    """Outside the games' own packages (sim/<game>/, strategies/<game>/) and the registry line,
    no code names Faction War or its concepts."""
    words = ("faction_war", "human", "alien", "destiny", "deep_sea", "fa-")
    for module, path in _modules():
        if module.startswith(("sim.faction_war", "strategies.faction_war")) or module == "sim.registry":
            continue
        text = path.read_text(encoding="utf-8").lower()
        assert not [w for w in words if w in text], (path, [w for w in words if w in text])


def test_analysis_and_reports_read_no_games_grid_columns():
    """Issue 13: analysis and reports read a run's grid under neutral role names
    (analysis/dimensions.py) and word it from the run's stored dimensions, so no code
    there names Faction War's columns or labels (its pairing, factions, per-seat life).
    The synthetic run writer is exempt: it writes the toy game's own columns."""
    pattern = re.compile(r"faction|[\"']pairing[\"']|life[01]\b|[\"']life[\"']|starting life|mean_life", re.I)
    paths = [path for package in ("analysis", "reports") for path in (ROOT / package).rglob("*")
             if path.suffix in (".py", ".html") and path.name != "synthetic.py"]
    assert len(paths) > 10
    found = {str(path.relative_to(ROOT)): sorted(set(pattern.findall(path.read_text(encoding="utf-8"))))
             for path in paths}
    assert not {path: words for path, words in found.items() if words}


def test_templates_name_no_game_concept():
    words = ("faction_war", "human", "alien", "destiny", "deep_sea", "fa-", "pairing", "faction", "life")
    for path in (ROOT / "reports" / "templates").rglob("*.html"):
        text = path.read_text(encoding="utf-8").lower()
        assert not [w for w in words if w in text], (path, [w for w in words if w in text])
