"""Limbic's own keys in the memory JSONL format, which the reference format ignores.

Entity lines may carry ``status``, ``createdAt``, ``updatedAt``, ``observationKinds`` and
``observationDates`` (parallel to ``observations``) and ``superseded`` (observations kept as
history: ``content``, ``kind``, ``createdAt``, ``supersededAt``, ``supersededBy`` = the text that
replaced it). Relation lines may carry ``context``, ``createdAt``, ``endedAt`` and ``active``
(an ended relation is exported with ``"active": false``). Valid time (when a fact held in the
world): ``observationValidity`` on an entity line (parallel to ``observations``, each ``null`` or
``[validFrom, validUntil]`` with either ``null``), ``validFrom``/``validUntil`` on a superseded
observation and on a relation line. Lines of ``"type": "reflection"`` hold
reflections: ``about`` (entity, relation, session, global), ``entity`` or ``from``/``to``/
``relationType``, ``ref``, ``author``, ``content``, ``mood``, ``createdAt``. An entity line may
carry ``aliases`` (its other names; only when it has some). A reference reader skips what it does
not know; Limbic reads everything back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from limbic.engine.errors import NameTakenError, ValidationError
from limbic.engine.graph.graph import clean_name, clean_observation, shown
from limbic.engine.graph.graph_history import REFLECTION_TARGETS, clean_stamp, clean_status
from limbic.engine.formats.jsonl_records import EntityRecord, ReflectionRecord, RelationRecord
from limbic.engine.store.values import clean_valid

if TYPE_CHECKING:
    from limbic.engine.graph.graph import Entity, Graph, Relation
    from limbic.engine.graph.graph_history import Reflection

ENTITY_KEYS = ("status", "createdAt", "updatedAt", "observationKinds", "observationDates", "superseded",
               "observationValidity", "aliases")
RELATION_KEYS = ("context", "createdAt", "endedAt", "active", "validFrom", "validUntil")


def _validity(value: object) -> tuple[str | None, str | None] | None:
    """A ``[validFrom, validUntil]`` pair (either may be null), or None for no valid time."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 2:
        raise ValidationError('"observationValidity" must hold, per observation, null or [validFrom, validUntil].')
    return clean_valid(value[0], "validFrom"), clean_valid(value[1], "validUntil")


def _text(obj: dict, key: str, what: str) -> str | None:
    value = obj.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValidationError(f'"{key}" must be text ({what}).')
    return value


def _list(obj: dict, key: str, length: int) -> list | None:
    value = obj.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != length or not all(isinstance(v, str) or v is None for v in value):
        raise ValidationError(f'"{key}" must be a list of texts, one per observation.')
    return value


def entity_extra(obj: dict, n_obs: int) -> dict | None:
    """Validated extra keys of an entity line, or None if it has none."""
    if not any(k in obj for k in ENTITY_KEYS):
        return None
    out: dict = {}
    status = _text(obj, "status", "active, paused, done or archived")
    out["status"] = clean_status(status) if status else None
    out["created"] = clean_stamp(_text(obj, "createdAt", "a date"))
    out["updated"] = clean_stamp(_text(obj, "updatedAt", "a date"))
    out["kinds"] = _list(obj, "observationKinds", n_obs) or [None] * n_obs
    out["dates"] = [clean_stamp(d) for d in (_list(obj, "observationDates", n_obs) or [None] * n_obs)]
    validity = obj.get("observationValidity")
    if validity is not None and (not isinstance(validity, list) or len(validity) != n_obs):
        raise ValidationError('"observationValidity" must be a list, one entry per observation.')
    out["valid"] = [_validity(v) for v in validity] if validity is not None else [None] * n_obs
    aliases = obj.get("aliases") or []
    if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
        raise ValidationError('"aliases" must be a list of texts (the entity\'s other names).')
    out["aliases"] = [clean_name(a, "alias") for a in aliases]
    superseded = obj.get("superseded") or []
    if not isinstance(superseded, list) or not all(isinstance(s, dict) for s in superseded):
        raise ValidationError('"superseded" must be a list of objects.')
    out["superseded"] = [
        (
            clean_observation(s.get("content")),
            _text(s, "kind", "an observation kind"),
            clean_stamp(_text(s, "createdAt", "a date")),
            clean_stamp(_text(s, "supersededAt", "a date")),
            _text(s, "supersededBy", "the text that replaced it"),
            (clean_valid(s.get("validFrom"), "validFrom"), clean_valid(s.get("validUntil"), "validUntil"))
            if ("validFrom" in s or "validUntil" in s) else None,
        )
        for s in superseded
    ]
    return out


def relation_extra(obj: dict) -> dict | None:
    if not any(k in obj for k in RELATION_KEYS):
        return None
    context = _text(obj, "context", "free text")
    active = obj.get("active", True)
    if not isinstance(active, bool):
        raise ValidationError('"active" must be true or false.')
    ended = clean_stamp(_text(obj, "endedAt", "a date"))
    valid = None
    if "validFrom" in obj or "validUntil" in obj:
        valid = (clean_valid(obj.get("validFrom"), "validFrom"), clean_valid(obj.get("validUntil"), "validUntil"))
    return {"context": context, "created": clean_stamp(_text(obj, "createdAt", "a date")), "ended": ended,
            "active": active and ended is None, "valid": valid}


def reflection_record(obj: dict, line: int) -> ReflectionRecord:
    about = obj.get("about", "entity" if "entity" in obj else "global")
    if about not in REFLECTION_TARGETS:
        raise ValidationError(f'"about" must be one of {", ".join(REFLECTION_TARGETS)}.')
    relation = None
    if about == "relation":
        relation = (clean_name(obj.get("from")), clean_name(obj.get("to")),
                    clean_name(obj.get("relationType"), "relation type", 128))
    ref = obj.get("ref")
    if ref is not None and (not isinstance(ref, int) or isinstance(ref, bool)):
        raise ValidationError('"ref" must be a whole number.')
    return ReflectionRecord(
        line, about, clean_observation(obj.get("content"), "A reflection"), _text(obj, "author", "a name") or "",
        clean_name(obj.get("entity")) if about == "entity" else None, relation, ref,
        _text(obj, "mood", "a word"), clean_stamp(_text(obj, "createdAt", "a date")),
    )


def write_entity(graph: Graph, rec: EntityRecord) -> int:
    """Merge an entity line with its extras (dates, kinds, history kept); idempotent."""
    x = rec.extra
    entity_id, _ = graph.merge_entity(rec.name, rec.entity_type, x["status"], x["created"], x["updated"])
    ids = {}
    for content, kind, date, valid in zip(rec.observations, x["kinds"], x["dates"], x["valid"]):
        ids[content], _ = graph.merge_observation(entity_id, content, kind, date or x["created"])
        _set_valid(graph, "observations", ids[content], valid)
    for content, kind, created, superseded_at, _by, valid in x["superseded"]:
        ids.setdefault(content, graph.merge_observation(entity_id, content, kind, created, superseded_at or created)[0])
        _set_valid(graph, "observations", ids[content], valid)
    for content, _kind, _created, superseded_at, by, _valid in x["superseded"]:
        graph.link_superseded(ids[content], ids.get(by) if by != content else None, superseded_at)
    return entity_id


def write_aliases(graph: Graph, rec: EntityRecord, entity_id: int) -> list[str]:
    """Give the entity its line's aliases (after every entity is written); what was not kept, in words."""
    refused = []
    for alias in rec.extra["aliases"]:
        try:
            graph.add_alias(entity_id, alias)
        except NameTakenError as exc:
            refused.append(f"line {rec.line}: the alias “{shown(alias, 40)}” was not kept ({str(exc).rstrip('.')})")
    return refused


def _set_valid(graph: Graph, table: str, row_id: int | None, valid: tuple | None) -> None:
    # Only a line that says when its fact held changes it: a line without valid time keeps what is stored.
    if valid is not None and row_id is not None:
        graph.db.execute(f"UPDATE {table} SET valid_from = ?, valid_until = ? WHERE id = ?", (*valid, row_id))


def write_relation(graph: Graph, rec: RelationRecord) -> None:
    x = rec.extra
    a, b = graph.entity_id(rec.source), graph.entity_id(rec.target)
    graph.merge_relation(a, b, rec.relation_type, x["context"], x["active"], x["created"], x["ended"])
    if x.get("valid") is not None:
        rel = graph.db.scalar("SELECT id FROM relations WHERE from_entity = ? AND to_entity = ? AND relation_type = ?",
                              (a, b, rec.relation_type))
        _set_valid(graph, "relations", rel, x["valid"])


def write_reflection(graph: Graph, rec: ReflectionRecord) -> bool:
    """Add a reflection line; False when what it is about is not in the graph."""
    entity_id = relation_id = None
    if rec.about == "entity":
        entity_id = graph.entity_id(rec.entity)
        if entity_id is None:
            return False
    elif rec.about == "relation":
        a, b = graph.entity_id(rec.relation[0]), graph.entity_id(rec.relation[1])
        relation_id = graph.db.scalar(
            "SELECT id FROM relations WHERE from_entity = ? AND to_entity = ? AND relation_type = ?", (a, b, rec.relation[2])
        )
        if relation_id is None:
            return False
    graph.merge_reflection(rec.about, rec.content, rec.author, entity_id, relation_id, rec.ref, rec.mood, rec.created_at)
    return True


def _has_valid_time(graph: Graph) -> bool:
    # A read-only file of an older schema cannot be upgraded and has no valid time to export.
    known = getattr(graph.db, "_has_valid_time", None)
    if known is None:
        known = "valid_from" in {r[1] for r in graph.db.execute("PRAGMA table_info(relations)")}
        graph.db._has_valid_time = known  # type: ignore[attr-defined]
    return known


def _valid_of(graph: Graph | None, ent: Entity) -> dict[int, tuple]:
    if graph is None or not ent.observations or not _has_valid_time(graph):
        return {}
    return {r[0]: (r[1], r[2]) for r in graph.db.execute(
        "SELECT id, valid_from, valid_until FROM observations WHERE entity_id = ? "
        "AND (valid_from IS NOT NULL OR valid_until IS NOT NULL)", (ent.id,))}


def entity_keys(ent: Entity, graph: Graph | None = None) -> dict:
    current = [o for o in ent.observations if o.current]
    valid = _valid_of(graph, ent)
    out: dict = {"status": ent.status, "createdAt": ent.created_at, "updatedAt": ent.updated_at}
    if any(o.kind != "note" for o in current):
        out["observationKinds"] = [o.kind for o in current]
    if current:
        out["observationDates"] = [o.created_at for o in current]
    by_id = {o.id: o.content for o in ent.observations}
    if ent.superseded:
        out["superseded"] = [
            {"content": o.content, "kind": o.kind, "createdAt": o.created_at, "supersededAt": o.superseded_at,
             "supersededBy": by_id.get(o.superseded_by)}
            for o in ent.superseded
        ]
        for entry, o in zip(out["superseded"], ent.superseded):
            if o.id in valid:
                entry["validFrom"], entry["validUntil"] = valid[o.id]
    if any(o.id in valid for o in current):
        out["observationValidity"] = [list(valid[o.id]) if o.id in valid else None for o in current]
    aliases = graph.aliases_by_entity([ent.id]).get(ent.id) if graph is not None else None
    if aliases:
        out["aliases"] = aliases
    return out


def relation_keys(graph: Graph, rel: Relation) -> dict:
    out: dict = {"createdAt": graph.db.scalar("SELECT created_at FROM relations WHERE id = ?", (rel.id,))}
    if rel.context:
        out["context"] = rel.context
    if not rel.active:
        out["active"] = False
        if rel.ended_at:
            out["endedAt"] = rel.ended_at
    start, until = (graph.db.one("SELECT valid_from, valid_until FROM relations WHERE id = ?", (rel.id,))
                    if _has_valid_time(graph) else (None, None))
    if start is not None or until is not None:
        out["validFrom"], out["validUntil"] = start, until
    return out


def reflection_line(graph: Graph, refl: Reflection) -> dict:
    out: dict = {"type": "reflection", "about": refl.target_type}
    if refl.entity_id is not None:
        out["entity"] = refl.about
    if refl.relation_id is not None:
        a, b, t = graph.db.one(
            "SELECT a.name, b.name, r.relation_type FROM relations r JOIN entities a ON a.id = r.from_entity "
            "JOIN entities b ON b.id = r.to_entity WHERE r.id = ?", (refl.relation_id,),
        )
        out.update({"from": a, "to": b, "relationType": t})
    if refl.target_ref is not None:
        out["ref"] = refl.target_ref
    out.update({"author": refl.author, "content": refl.content, "createdAt": refl.created_at})
    if refl.mood:
        out["mood"] = refl.mood
    return out
