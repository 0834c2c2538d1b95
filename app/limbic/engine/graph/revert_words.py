"""The words of a revert: what another writer did since to a piece it would take back, and what taking a
piece back does, each thing quoted once and named with what it is now (a piece is ``revert.Piece``)."""

from __future__ import annotations

from typing import Any

from limbic.engine.graph.activity_log import ORIGIN_WORDS, describe_item
from limbic.engine.store.db import Database
from limbic.engine.store.values import shown

# The person's own writers, as the log names them: said as "you", not as another writer.
_PERSON = {ORIGIN_WORDS["app"]: "you, in Limbic", ORIGIN_WORDS["cli"]: "you, on the command line"}


def by_person(by: str) -> bool:
    """``by`` (a change's writer in words) is the person, in Limbic or on the command line."""
    return by in _PERSON


def who_words(by: str) -> str:
    """A change's writer as a conflict names it: "you, in Limbic" for the person's own edits."""
    return _PERSON.get(by, by)


def _name_of(db: Database, entity_id: object) -> str:
    """An entity's name now (the words of a conflict), shortened; "?" when it is gone."""
    return shown(db.scalar("SELECT name FROM entities WHERE id = ?", (entity_id,)) or "?", 40)


def _observation_text(db: Database, observation_id: object) -> str:
    """What an observation says now, shortened ("" when there is none)."""
    text = db.scalar("SELECT content FROM observations WHERE id = ?", (observation_id,)) if observation_id else None
    return shown(text, 60) if text else ""


def changed_since(db: Database, p: Any, now: dict | None) -> str:
    """What another writer did since to a piece this revert would take back, and what it is now, in plain words.

    Each quoted thing is quoted once: the piece's own summary inside quotes read “added to “X”: “…””."""
    was = p.after or p.before or {}
    if p.kind == "entity":
        name = shown(was.get("name"), 40)
        if now is None:
            return f"“{name}” was deleted since"
        if now.get("name") != was.get("name"):
            return f"“{name}” was renamed “{shown(now.get('name'), 40)}” since"
        if now.get("type") != was.get("type"):
            return f"the type of “{name}” was changed since, to {now.get('type')}"
        if now.get("status") != was.get("status"):
            return f"“{name}” was marked {now.get('status')} since"
        return f"“{name}” was changed since"
    if p.kind == "observation":
        text, owner = shown(was.get("content") or "", 60), _name_of(db, was.get("entity"))
        it = f"the observation “{text}” of “{owner}”"
        if now is None:
            return f"{it} was deleted since"
        if now.get("superseded_at") and not was.get("superseded_at"):
            by = _observation_text(db, now.get("superseded_by"))
            return f"{it} was replaced since by “{by}”" if by else f"{it} was marked out of date since"
        if was.get("superseded_at") and not now.get("superseded_at"):
            return f"{it} was brought back since"
        if now.get("content") != was.get("content"):
            return f"{it} was edited since, to “{shown(now.get('content'), 60)}”"
        if (now.get("valid_from"), now.get("valid_until")) != (was.get("valid_from"), was.get("valid_until")):
            return f"the dates of {it} were changed since"
        return f"{it} was changed since"
    if p.kind == "relation":
        arrow = (f"{shown(was.get('from_name') or _name_of(db, was.get('from')), 40)} —{was.get('type')}→ "
                 f"{shown(was.get('to_name') or _name_of(db, was.get('to')), 40)}")
        if now is None:
            return f"the relation {arrow} was removed since"
        if was.get("active") and not now.get("active"):
            return f"the relation {arrow} was ended since"
        if not was.get("active") and now.get("active"):
            return f"the relation {arrow} was made again since"
        return f"the relation {arrow} was changed since"
    if p.kind == "alias":
        it = f"the alias “{shown(was.get('alias'), 40)}” of “{_name_of(db, was.get('entity'))}”"
        return f"{it} was removed since" if now is None else f"{it} was changed since"
    owner = f" on “{_name_of(db, was.get('entity'))}”" if was.get("entity") else ""
    return f"a reflection{owner} was {'removed' if now is None else 'changed'} since"


def undo_words(db: Database, p: Any, names: dict[int, str]) -> str:
    """What taking a piece back does; an observation the change replaced is named with what replaced it."""
    words = describe_item(p.inverse(), names)
    b, a = p.before or {}, p.after or {}
    if p.kind == "observation" and a.get("superseded_at") and not b.get("superseded_at"):
        owner = shown(names.get(b.get("entity") or -1) or _name_of(db, b.get("entity")), 40)
        old, new = shown(b.get("content"), 60), _observation_text(db, a.get("superseded_by"))
        return f"brought back in “{owner}”: “{old}”" + (f", in place of “{new}”" if new else " (it had been marked out of date)")
    return words


_PIECE_WORDS = (("observation", "observation", "observations"), ("relation", "relation", "relations"),
                ("alias", "alias", "aliases"), ("reflection", "reflection", "reflections"))


def _belongs_to(p: Any, entity_id: int) -> bool:
    """An added piece of ``entity_id`` (a relation either way), which deleting the entity takes with it."""
    if p.before is not None or p.after is None:
        return False
    if p.kind == "relation":
        return entity_id in (p.after.get("from"), p.after.get("to"))
    return p.kind in ("observation", "alias", "reflection") and p.after.get("entity") == entity_id


def taking_lines(pieces: list[Any]) -> list[str]:
    """What taking ``pieces`` back does, one line each, except that an entity it deletes is one line with
    its pieces counted: “deleted “pgBackRest” (with its 2 observations and 1 relation)”."""
    deleted = [p.row_id for p in pieces if p.kind == "entity" and p.before is None and p.after is not None]
    folded: dict[int, list[Any]] = {e: [] for e in deleted}
    rest = []
    for p in pieces:
        owner = next((e for e in deleted if _belongs_to(p, e)), None)
        (folded[owner] if owner is not None else rest).append(p)
    lines = []
    for p in rest:
        line = p.undo or p.item.summary
        with_it = folded.get(p.row_id) if p.kind == "entity" else None
        if with_it:
            counts = [f"{n} {one if n == 1 else many}" for kind, one, many in _PIECE_WORDS
                      if (n := sum(q.kind == kind for q in with_it))]
            line += f" (with its {' and '.join([', '.join(counts[:-1]), counts[-1]] if len(counts) > 1 else counts)})"
        lines.append(line)
    return lines
