"""The window's translatable texts as the code holds them: every ``translate(context, text, …)`` and
``QT_TRANSLATE_NOOP(context, text)`` call in ``limbic/ui``, read from the syntax tree (what lupdate must find)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

UI = Path(__file__).resolve().parents[2] / "app" / "limbic" / "ui"
CALLS = {"translate", "QT_TRANSLATE_NOOP"}


@dataclass(frozen=True)
class Call:
    context: str
    source: str
    plural: bool
    where: str
    simple: bool  # lupdate reads it: plain arguments, not inside an f-string


def _name(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def calls(root: Path = UI) -> list[Call]:
    out: list[Call] = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        in_fstring: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):
                in_fstring.update(id(n) for n in ast.walk(node) if n is not node)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and _name(node.func) in CALLS):
                continue
            if isinstance(node.func, ast.Attribute) and not (isinstance(node.func.value, ast.Name)
                                                             and node.func.value.id == "QCoreApplication"):
                continue  # painter.translate(x, y) and the like
            args = node.args
            if len(args) < 2 or not all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args[:2]):
                if args and isinstance(args[0], ast.Constant) and len(args) >= 2:
                    pass  # translate(context, a_marked_constant): the text is found where it is marked
                continue
            plural = len(args) >= 4
            simple = (id(node) not in in_fstring and not node.keywords
                      and all(isinstance(a, (ast.Constant, ast.Name)) for a in args[2:]))
            where = f"{path.relative_to(root.parent.parent)}:{node.lineno}"
            out.append(Call(args[0].value, args[1].value, plural, where, simple))
    return out
