"""The client's modules import each other without a cycle (counting imports made only for type checking): a
cycle means two modules cannot be understood, changed or tested apart. Built from the source with ast."""

from __future__ import annotations

import ast
from pathlib import Path

CLIENT = Path(__file__).resolve().parents[2] / "client"
PACKAGE = "dungeon_twister.client"


def imported_modules(path: Path) -> set[str]:
    """The client modules a module imports, anywhere in it (also under `if TYPE_CHECKING:` and in functions)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                base = node.module
                names = [base] if base else [alias.name for alias in node.names]
            elif node.level == 0 and (node.module or "").startswith(PACKAGE + "."):
                names = [node.module[len(PACKAGE) + 1:]]
            elif node.level == 0 and node.module == PACKAGE:
                names = [alias.name for alias in node.names]
            else:
                continue
            out.update(name.split(".")[0] for name in names if name)
        elif isinstance(node, ast.Import):
            out.update(alias.name[len(PACKAGE) + 1:].split(".")[0] for alias in node.names
                       if alias.name.startswith(PACKAGE + "."))
    return out


def import_graph() -> dict[str, set[str]]:
    modules = {path.stem: path for path in CLIENT.glob("*.py")}
    return {name: imported_modules(path) & modules.keys() - {name} for name, path in modules.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle (as a path that ends where it starts), or None."""
    done: set[str] = set()
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        if module in path:
            return path[path.index(module):] + [module]
        if module in done:
            return None
        path.append(module)
        for target in sorted(graph[module]):
            if (cycle := visit(target)) is not None:
                return cycle
        path.pop()
        done.add(module)
        return None

    for module in sorted(graph):
        if (cycle := visit(module)) is not None:
            return cycle
    return None


def test_the_cycle_finder_finds_a_cycle_and_accepts_a_tree():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_the_graph_sees_relative_absolute_and_type_checking_imports(tmp_path):
    source = tmp_path / "m.py"
    source.write_text("from typing import TYPE_CHECKING\nfrom . import inbox, secret_choice\n"
                      "from .state import ClientState\nimport dungeon_twister.client.names\n"
                      "if TYPE_CHECKING:\n    from .session import Session\n")
    assert imported_modules(source) == {"inbox", "secret_choice", "state", "names", "session"}


def test_client_has_no_import_cycle():
    graph = import_graph()
    assert {"session", "inbox", "secret_choice", "app"} <= graph.keys()
    assert find_cycle(graph) is None, f"import cycle: {' -> '.join(find_cycle(graph))}"
