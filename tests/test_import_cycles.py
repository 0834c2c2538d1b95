"""No import circles among Limbic's modules.

The imports are read from the source (ast), at module level and inside functions alike (a local
import is still a dependency); imports under ``if TYPE_CHECKING:`` are left out, since they never
run. Circles are the strongly connected components of that graph.
"""

from __future__ import annotations

import ast
from pathlib import Path

import limbic

APP = Path(limbic.__file__).resolve().parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(APP.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(APP.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST):
    """Every Import/ImportFrom node, skipping the bodies of ``if TYPE_CHECKING:``."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def _resolve(name: str, known: dict[str, Path]) -> str | None:
    """The Limbic module ``name`` refers to (its nearest existing enclosing module), or None."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def import_graph() -> dict[str, set[str]]:
    """module -> the Limbic modules it imports."""
    known = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        is_package = path.name == "__init__.py"
        deps: set[str] = set()
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    package = name if is_package else name.rpartition(".")[0]
                    for _ in range(node.level - 1):
                        package = package.rpartition(".")[0]
                    base = f"{package}.{base}" if base else package
                # ``from a import b`` depends on a.b when b is a module, else on a.
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
            for target in targets:
                if target.split(".")[0] != "limbic":
                    continue
                resolved = _resolve(target, known)
                if resolved and resolved != name:
                    deps.add(resolved)
        graph[name] = deps
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_cycle_finder_sees_a_circle_through_a_local_import():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert import_cycles(graph) == [["a", "b", "c"]]
    assert import_cycles({"a": {"b"}, "b": set()}) == []


def test_function_level_imports_count_and_type_checking_ones_do_not():
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import limbic.x\n"
                     "def f():\n    import limbic.y\n")
    assert sorted(alias.name for node in _imports(tree) for alias in node.names) == ["TYPE_CHECKING", "limbic.y"]


def test_no_import_circles_among_limbics_modules():
    graph = import_graph()
    assert len(graph) > 50 and graph["limbic.cli"], "the import graph was not read"
    cycles = import_cycles(graph)
    assert cycles == [], "import circles: " + "; ".join(" <-> ".join(c) for c in cycles)
