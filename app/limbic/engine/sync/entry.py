"""The entry checks a change from another device passes before any of it is applied: the same rules a local
write meets (names and types, lengths, statuses, dates, references), so a file planted in the sync folder
cannot put into the graph what no front end would let in. A change that fails is refused whole (apply.py
sets its segment aside, named with the reason)."""

from __future__ import annotations

from limbic.engine.errors import ValidationError
from limbic.engine.graph.graph_history import MAX_AUTHOR_CHARS, REFLECTION_TARGETS, STATUSES
from limbic.engine.store.values import MAX_TYPE_CHARS, clean_name, clean_observation, clean_reflection, clean_valid

MAX_SHORT = 512  # a kind, a mood, a context's words


def _time(value: object, key: str) -> None:
    if value is not None and (not isinstance(value, str) or len(value) > 64):
        raise ValidationError(f"{key} is not a time.")


def _same(clean, value, key: str) -> None:
    """The rule a local write applies (a graph written by an older Limbic may hold a spelling it would tidy today:
    only what the rule refuses is refused)."""
    try:
        clean(value)
    except ValidationError as exc:
        raise ValidationError(f"{key}: {exc}") from None


def _short(value: object, key: str, limit: int = MAX_SHORT) -> None:
    if value is not None and (not isinstance(value, str) or len(value) > limit):
        raise ValidationError(f"{key} is not a short text.")


def _gid(value: object, key: str) -> None:
    if value is not None and (not isinstance(value, str) or not 1 <= len(value) <= 64):
        raise ValidationError(f"{key} is not a global id.")


def check_values(kind: str, values: dict) -> None:
    """Raise ValidationError (one sentence) when a row's values, as they travel, break a rule of the graph."""
    for key, value in values.items():
        if key in ("created_at", "updated_at", "superseded_at", "ended_at"):
            _time(value, key)
        elif key in ("entity", "from", "to", "relation", "superseded_by"):
            _gid(value, key)
        elif key in ("valid_from", "valid_until"):
            clean_valid(value, key)
    if kind == "entity":
        if "name" in values:
            _same(clean_name, values["name"], "An entity's name")
        if "type" in values:
            _same(lambda v: clean_name(v, "type", MAX_TYPE_CHARS), values["type"], "An entity's type")
        if "status" in values and values["status"] not in STATUSES:
            raise ValidationError(f"An entity's status must be one of {', '.join(STATUSES)}.")
        if values.get("private", 0) not in (0, 1) or isinstance(values.get("private"), bool):
            raise ValidationError("An entity is private or not (1 or 0).")
    elif kind == "observation":
        if "content" in values:
            _same(clean_observation, values["content"], "An observation")
        _short(values.get("kind"), "An observation's kind", 64)
    elif kind == "relation":
        if "type" in values:
            _same(lambda v: clean_name(v, "relation type", MAX_TYPE_CHARS), values["type"], "A relation's type")
        _short(values.get("context"), "A relation's context", 200_000)
        if values.get("active", 1) not in (0, 1):
            raise ValidationError("A relation is active or not.")
    elif kind == "reflection":
        if "content" in values:
            _same(clean_reflection, values["content"], "A reflection")
        if values.get("target_type", "entity") not in REFLECTION_TARGETS:
            raise ValidationError("A reflection's target is not one Limbic knows.")
        _short(values.get("author"), "A reflection's author", MAX_AUTHOR_CHARS)
        _short(values.get("mood"), "A reflection's mood")
    elif kind == "alias" and "alias" in values:
        _same(clean_name, values["alias"], "An alias")


def check_change(change: dict) -> None:
    """Every item's after-values checked, before anything of the change is written."""
    for item in change.get("items", []):
        if item.get("a"):
            check_values(item.get("k", ""), item["a"])
