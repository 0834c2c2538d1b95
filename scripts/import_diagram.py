"""The diagram of docs/architecture.md, drawn from the real imports: which room of Limbic imports which.

Usage: .venv/bin/python scripts/import_diagram.py          print the diagram (a Mermaid flowchart)
       .venv/bin/python scripts/import_diagram.py --write  put it in docs/architecture.md between its markers

The imports are read from the source with ``ast``, at module level and inside functions alike;
imports under ``if TYPE_CHECKING:`` are left out, since they never run. A room is a package under
``limbic.engine``, ``limbic.service`` or ``limbic.ui``; ``cli``, ``mcp``, ``config`` and each module beside
``config`` are one room each,
the service's root modules are one room, and each of the engine's root modules is its own. An arrow
means "imports"; tests/test_docs.py fails while the doc's diagram differs from what this prints.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app" / "limbic"
DOC = ROOT / "docs" / "architecture.md"
BEGIN = "<!-- import diagram: scripts/import_diagram.py --write -->"
END = "<!-- end of import diagram -->"

# The layers top to bottom, each with its rooms in the order they are drawn.
LAYERS: tuple[tuple[str, str], ...] = (
    ("front ends", "ui"),
    ("front ends", "cli"),
    ("front ends", "mcp"),
    ("service", "service"),
    ("engine", "engine"),
    ("config", "config"),
    ("config", "file_keys"),
    ("config", "localtime"),
    ("config", "osfiles"),
    ("config", "storage_places"),
)
# Imported by nearly every room: drawn once as a note instead of an arrow from each.
EVERYWHERE = ("engine.errors", "engine.wording", "config", "osfiles")


def module_name(path: Path) -> str:
    """``limbic.engine.store.db`` for app/limbic/engine/store/db.py (a package is its ``__init__``)."""
    parts = path.relative_to(APP.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def room_of(module: str) -> str:
    """The room a module lives in, without the leading ``limbic.``."""
    parts = module.split(".")[1:]
    if not parts:
        return "limbic"
    top = parts[0]
    if top == "__main__":
        return "cli"  # `python -m limbic` is the command line
    if top in ("engine", "service", "ui") and len(parts) > 1:
        if (APP / top / parts[1]).is_dir():
            return ".".join(parts[:2])
        return ".".join(parts[:2]) if top == "engine" else top  # each engine root module is a room of its own
    return top


def label(room: str) -> str:
    """How the diagram names a room: its folder, or its file for a single module."""
    parts = room.split(".")
    if room in ("engine", "ui"):
        return f"{room}/__init__.py"
    if room == "service":
        return "service/*.py"
    if len(parts) == 1 and (APP / f"{room}.py").is_file():
        return f"{room}.py"  # config and the standard-library helpers beside it
    if len(parts) == 2 and not (APP / parts[0] / parts[1]).is_dir():
        return f"{parts[0]}/{parts[1]}.py"
    return "/".join(parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def _resolve(name: str, known: set[str]) -> str | None:
    """The Limbic module ``name`` refers to (its nearest enclosing module), or None for another package."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name if name.startswith("limbic") else None


def _targets(node: ast.Import | ast.ImportFrom, known: set[str]) -> Iterator[str]:
    """The Limbic modules one import statement reaches (``from pkg import module`` reaches the module)."""
    if isinstance(node, ast.Import):
        candidates = [alias.name for alias in node.names]
    elif node.level == 0 and node.module:
        candidates = [f"{node.module}.{alias.name}" for alias in node.names]
    else:
        candidates = []  # Limbic uses no relative imports
    for name in candidates:
        module = _resolve(name, known)
        if module is not None:
            yield module


def room_edges() -> set[tuple[str, str]]:
    """(room, room it imports), for every pair of different rooms."""
    paths = {module_name(p): p for p in sorted(APP.rglob("*.py"))}
    known = set(paths)
    edges: set[tuple[str, str]] = set()
    for name, path in paths.items():
        source = room_of(name)
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            for target in _targets(node, known):
                room = room_of(target)
                if room not in (source, "limbic"):
                    edges.add((source, room))
    return edges


def rooms(edges: set[tuple[str, str]]) -> list[str]:
    """Every room that imports or is imported, layer by layer, top to bottom."""
    found = {room for edge in edges for room in edge}
    ordered: list[str] = []
    for _, top in LAYERS:
        ordered += sorted(r for r in found if r == top or r.startswith(top + "."))
    return ordered + sorted(found - set(ordered))


def _node(room: str) -> str:
    return "r_" + room.replace(".", "_")


def diagram() -> str:
    """The Mermaid flowchart: one box per layer, one node per room, one arrow per importing pair."""
    edges = room_edges()
    everywhere = [r for r in EVERYWHERE if any(t == r for _, t in edges)]
    lines = ["```mermaid", "flowchart TB"]
    all_rooms = rooms(edges)
    for layer in dict.fromkeys(layer for layer, _ in LAYERS):
        tops = [top for name, top in LAYERS if name == layer]
        members = [r for r in all_rooms if any(r == t or r.startswith(t + ".") for t in tops)]
        lines.append(f'  subgraph layer_{layer.replace(" ", "_")}["{layer}"]')
        lines += [f'    {_node(r)}["{label(r)}"]' for r in members]
        lines.append("  end")
    for source, target in sorted(edges):
        if target not in everywhere:
            lines.append(f"  {_node(source)} --> {_node(target)}")
    lines.append("```")
    # Named without a count, so that one more room importing errors does not make the page stale.
    quoted = [f"`{label(t)}`" for t in everywhere]
    named = " and ".join([", ".join(quoted[:-1]), quoted[-1]] if len(quoted) > 1 else quoted)
    return "\n".join(lines) + f"\n\nArrows into {named}, which many rooms import, are not drawn.\n"


def doc_diagram(text: str) -> str | None:
    """The diagram between the markers of docs/architecture.md, or None when the markers are missing."""
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        return None
    return text[start + len(BEGIN):end].strip("\n") + "\n"


def write(doc: Path = DOC) -> bool:
    """Put the current diagram in the doc; False when its markers are missing."""
    text = doc.read_text(encoding="utf-8")
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        return False
    doc.write_text(text[: start + len(BEGIN)] + "\n" + diagram() + text[end:], encoding="utf-8")
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="update docs/architecture.md instead of printing")
    args = parser.parse_args()
    if not args.write:
        sys.stdout.write(diagram())
        return 0
    if not write():
        print(f"import_diagram: {DOC.relative_to(ROOT)} has no diagram markers ({BEGIN} … {END}).", file=sys.stderr)
        return 1
    print(f"import_diagram: {DOC.relative_to(ROOT)} updated.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
