"""The lines of a memory JSONL file once parsed: entities, relations and Limbic's reflections."""

from __future__ import annotations

from dataclasses import dataclass

# The last line of a JSONL file Limbic exported: how a later export knows the file is its own to replace.
# Readers of the reference format keep only "entity" and "relation" lines, so they skip it; so does Limbic.
EXPORT_MARKER_TYPE = "limbic-export"
EXPORT_MARKER_LINE = '{"type": "limbic-export", "format": "memory-jsonl", "note": "written by Limbic"}'


@dataclass
class EntityRecord:
    """An ``"type": "entity"`` line."""

    line: int
    name: str
    entity_type: str | None
    observations: list[str]
    # Limbic's extra keys, which the reference format ignores: status, dates, observation kinds
    # and dates, superseded observations. None for a plain reference line.
    extra: dict | None = None


@dataclass
class RelationRecord:
    """A ``"type": "relation"`` line."""

    line: int
    source: str
    target: str
    relation_type: str
    extra: dict | None = None  # context, createdAt, endedAt, active


@dataclass
class ReflectionRecord:
    """A ``"type": "reflection"`` line (Limbic's; reference readers skip unknown types)."""

    line: int
    about: str  # entity, relation, session, global
    content: str
    author: str
    entity: str | None = None
    relation: tuple[str, str, str] | None = None
    ref: int | None = None
    mood: str | None = None
    created_at: str | None = None
