"""The architecture as docs/architecture.md draws it: dependencies point inward (client, server -> protocol ->
engine), the engine is a pure core, and no package has an import cycle, counting the imports made only for type
checking (a cycle there is still two modules that each need the other to be understood)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "protocol", "server", "client")
ALLOWED = {
    "engine": set(),
    "protocol": {"engine"},
    "server": {"engine", "protocol"},
    "client": {"engine", "protocol"},
}
ENGINE_FORBIDDEN = {"trio", "msgpack", "prompt_toolkit", "cryptography", "sqlite3", "socket", "asyncio",
                    "threading", "subprocess", "platformdirs"}


def _imports(path: Path, package: str) -> list[str]:
    """Every module `path` imports (absolute names; relative ones resolved inside `package`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    here = path.relative_to(ROOT / package).with_suffix("").parts
    parent = (package, *here[:-1]) if here[-1] != "__init__" else (package, *here[:-1])
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = parent[:len(parent) - node.level + 1]
                module = ".".join(base + ((node.module,) if node.module else ()))
                if node.module is None:  # from . import a, b: each is a module of the package
                    out += [f"{module}.{alias.name}" for alias in node.names]
                else:
                    out.append(module)
            else:
                out.append(node.module)
    return [name.removeprefix("dungeon_twister.") for name in out]


def _modules(package: str) -> dict[str, list[str]]:
    return {".".join((package, *p.relative_to(ROOT / package).with_suffix("").parts)): _imports(p, package)
            for p in sorted((ROOT / package).rglob("*.py"))}


def test_dependencies_point_inward():
    for package in PACKAGES:
        for module, imports in _modules(package).items():
            for name in imports:
                top = name.split(".")[0]
                if top in PACKAGES and top != package:
                    assert top in ALLOWED[package], f"{module} imports {name}: {package} may not depend on {top}"


def test_the_engine_imports_no_io_or_third_party_library():
    for module, imports in _modules("engine").items():
        bad = {name for name in imports if name.split(".")[0] in ENGINE_FORBIDDEN}
        assert not bad, f"{module} imports {sorted(bad)}"


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of the graph, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycle(package):
    modules = _modules(package)

    def owner(name: str) -> str | None:
        """The module of this package that `name` refers to (a submodule, or a name imported from one)."""
        while name:
            if name in modules:
                return name
            if f"{name}.__init__" in modules:
                return None  # the package itself: its __init__ re-exports and imports everything
            name = name.rpartition(".")[0]
        return None

    graph = {m: {o for name in imports if (o := owner(name)) and o != m}
             for m, imports in modules.items() if not m.endswith("__init__")}
    assert _cycle(graph) is None, f"import cycle in {package}/: {' -> '.join(_cycle(graph))}"


def test_the_cycle_finder_finds_a_cycle():
    """Control: the check above can fail."""
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def _set_branches(tree: ast.AST) -> list[int]:
    """Lines that decide by a rule ID's set prefix: `x.startswith("PD-...")` / `("PR-...")`, or a `.rule` compared
    with a set's rule ID, i.e. a set-specific branch (a set is data plus rule modules)."""
    sets = ("PD-", "PR-", "CG-")
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "startswith" \
                and any(isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.startswith(sets)
                        for a in node.args):
            lines.append(node.lineno)
        elif isinstance(node, ast.Compare) and isinstance(node.left, ast.Attribute) and node.left.attr == "rule" \
                and any(isinstance(c, ast.Constant) and isinstance(c.value, str) and c.value.startswith(sets)
                        for c in node.comparators):
            lines.append(node.lineno)
    return lines


def test_the_board_game_family_has_no_set_specific_branch():
    """docs/architecture.md: a set is data plus rule modules; the family's shared code never asks which set's rule
    a refusal cites to decide what to do (moves.py asked `problem.rule.startswith("PD-TERR-ROCKFALL")`; Rockfall's
    refusals are now the terrain module's `move_stop`)."""
    found = {str(p.relative_to(ROOT)): lines for p in sorted((ROOT / "engine" / "boardgame").rglob("*.py"))
             if (lines := _set_branches(ast.parse(p.read_text(encoding="utf-8"))))}
    assert found == {}


def test_the_set_branch_finder_finds_one():
    """Control: the check above can fail."""
    assert _set_branches(ast.parse('if problem.rule.startswith("PD-TERR-ROCKFALL"):\n    pass')) == [1]
    assert _set_branches(ast.parse('if problem.rule == "PR-SLIT-02":\n    pass')) == [1]
    assert _set_branches(ast.parse('if problem.rule.startswith("BG-"):\n    pass')) == []
