"""The lines of a memory JSONL file once parsed: entities, relations and Limbic's reflections."""

from __future__ import annotations

from dataclasses import dataclass


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
