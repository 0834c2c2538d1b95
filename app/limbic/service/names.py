"""Names as a person sees them: invisible characters in them (for the health report), text drawn with its bidi
controls kept in, and when two names are one."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from limbic.engine.graph.graph import Graph
from limbic.engine.store.name_rules import BIDI_CONTROLS, char_label
from limbic.engine.store.values import name_key

# Letters that draw as nothing though Unicode calls them letters (Hangul fillers, braille blank).
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


@dataclass(frozen=True)
class InvisibleName:
    """An entity whose name holds invisible characters, each as ``U+200B ZERO WIDTH SPACE``."""

    entity_id: int
    name: str
    characters: tuple[str, ...]


def invisible_characters(name: str) -> list[str]:
    """The invisible characters of one name, labelled, in order of first appearance."""
    found: list[str] = []
    for i, ch in enumerate(name):
        if unicodedata.category(ch) != "Cf" and ch not in _BLANK_LETTERS:
            continue
        if ch == "\u200d" and 0 < i < len(name) - 1 and _pictographic(name[i - 1]) and _pictographic(name[i + 1]):
            continue  # a joiner inside an emoji sequence (👩‍💻) draws as one picture, as meant
        label = char_label(ch)
        if label not in found:
            found.append(label)
    return found


def _pictographic(ch: str) -> bool:
    return unicodedata.category(ch) == "So" or ord(ch) >= 0x1F000 or ch == "\ufe0f"


def names_with_invisible_characters(graph: Graph) -> list[InvisibleName]:
    """Every entity whose name holds zero-width, bidi or other invisible characters (read only)."""
    out = []
    for entity_id, name in graph.db.execute("SELECT id, name FROM entities ORDER BY id"):
        found = invisible_characters(name)
        if found:
            out.append(InvisibleName(int(entity_id), name, tuple(found)))
    return out


_ISOLATE_OPENERS = frozenset("\u2066\u2067\u2068")
_PDI = "\u2069"


def bidi_isolated(text: str) -> str:
    """An observation as drawn: each line isolated (U+2068 … U+2069), its unclosed isolates closed too,
    so a bidi control it holds cannot reorder anything beyond its own line. For display only."""
    out = []
    for line in text.split("\n"):
        depth = 0
        for ch in line:
            if ch in _ISOLATE_OPENERS:
                depth += 1
            elif ch == _PDI and depth:
                depth -= 1
        # The closing PDI also ends every embedding and override (U+202A–U+202E) opened inside it.
        out.append("\u2068" + line + _PDI * (depth + 1) if any(c in BIDI_CONTROLS for c in line) else line)
    return "\n".join(out)


def same_name_key(name: str) -> str:
    """What two names share when the graph counts them as one name (case and composition aside)."""
    return name_key(name)
