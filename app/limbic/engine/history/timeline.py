"""One entity's life read from the recorded history: each version compared with the one before it.

Every version of the entity, of its observations, of the relations that start or end at it and of
its aliases is read in recorded order; what differs between a row's consecutive versions is one
event (created, renamed, an observation added or superseded, a relation ended…), with the time it
was recorded and who wrote it. A deletion closes a row's last version without naming its writer:
the activity log names it while it still keeps that change.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from limbic.engine.store.db import Database
from limbic.engine.store.recorded import has_history, history_ok

# Who wrote a version: "origin:client:tool" as the history's triggers join them (empty parts left out).


@dataclass(frozen=True)
class Event:
    """One thing that happened to the entity or to a row of it."""

    at: str  # stored time (UTC)
    who: str  # the writer as recorded: "assistant:Claude:add_observations", "app", "sync:laptop:sync"…
    kind: str  # entity, observation, relation, alias
    what: str  # created, renamed, retyped, status, deleted, added, edited, superseded, removed, started,
    # ended, restarted, dated
    text: str  # the observation's text, the relation as "type → other", the alias, the entity's name
    before: str = ""  # the earlier value of a rename, retype, edit, status or dates
    after: str = ""  # the dates a row was given ("2024-03-01 · 2025-01-31", either side may be empty)
    row_id: int = 0
    seq: int = 0  # the history row: orders events recorded in one commit


def _rows(db: Database, entity_id: int):
    # Observations, relations and aliases of the entity are found through their stored values: a
    # deleted one is only in the history. One pass over the kinds that can name the entity.
    return db.execute(
        "SELECT id, kind, row_id, value, recorded_from, recorded_to, ended, who FROM history "
        "WHERE (kind = 'entity' AND row_id = ?) "
        "OR (kind IN ('observation', 'alias') AND json_extract(value, '$.entity_id') = ?) "
        "OR (kind = 'relation' AND (json_extract(value, '$.from_entity') = ? OR json_extract(value, '$.to_entity') = ?)) "
        "ORDER BY kind, row_id, recorded_from, id",
        (entity_id, entity_id, entity_id, entity_id),
    ).fetchall()


def _names(db: Database, ids: set[int]) -> dict[int, str]:
    """The name of each entity id: as it is now, else its last recorded name (a deleted entity)."""
    out: dict[int, str] = {}
    for i in ids:
        name = db.scalar("SELECT name FROM entities WHERE id = ?", (i,))
        if name is None:
            value = db.scalar("SELECT value FROM history WHERE kind = 'entity' AND row_id = ? "
                              "ORDER BY recorded_from DESC, id DESC LIMIT 1", (i,))
            name = json.loads(value)["name"] if value else "?"
        out[i] = name
    return out


def _remover(db: Database, kind: str, row_id: int) -> str:
    """Who deleted a row, as the activity log still tells it ("" once pruned)."""
    if not db.has_table("change_item") or not db.has_table("activity_session"):
        return ""
    row = db.one(
        "SELECT l.origin, coalesce(s.client, ''), coalesce(l.tool, '') FROM change_item i "
        "JOIN change_log l ON l.id = i.change_id LEFT JOIN activity_session s ON s.id = l.session "
        "WHERE i.kind = ? AND i.row_id = ? AND i.op = 'remove' ORDER BY i.id DESC LIMIT 1", (kind, row_id))
    return ":".join(x for x in row if x) if row else ""


def _valid(value: dict) -> tuple:
    return value.get("valid_from"), value.get("valid_until")


def entity_events(db: Database, entity_id: int) -> list[Event]:
    """Everything recorded about one entity, oldest first (empty when the file keeps no history)."""
    if not has_history(db) or not history_ok(db):
        return []
    rows = _rows(db, entity_id)
    others = set()
    for _id, kind, _row, value, *_ in rows:
        if kind == "relation":
            v = json.loads(value)
            others.update((v["from_entity"], v["to_entity"]))
    names = _names(db, others)
    events: list[Event] = []
    last: dict[tuple[str, int], dict] = {}
    for seq, kind, row_id, value, rec_from, rec_to, ended, who in rows:
        v = json.loads(value)
        key = (kind, row_id)
        before = last.get(key)
        add = lambda what, text, was="", now="": events.append(  # noqa: E731
            Event(rec_from, who, kind, what, text, was, now, row_id, seq))
        text = _text(kind, v, entity_id, names)
        if before is None:
            if kind == "relation" and not v["active"]:
                add("ended", text)  # it came in already ended (an import)
            else:
                add("created" if kind == "entity" else "started" if kind == "relation" else "added", text)
        else:
            _compare(kind, before, v, text, add)
        last[key] = v
        if ended == "delete":
            gone_by = _remover(db, kind, row_id)
            events.append(Event(rec_to, gone_by, kind, "deleted" if kind == "entity" else "removed", text,
                                row_id=row_id, seq=seq))
    # An entity's deletion takes its observations, relations and aliases with it: one event, not one per row.
    gone = {e.at for e in events if e.kind == "entity" and e.what == "deleted"}
    events = [e for e in events if not (e.what == "removed" and e.at in gone)]
    events.sort(key=lambda e: (e.at, e.seq, e.kind != "entity"))
    return events


def _text(kind: str, v: dict, entity_id: int, names: dict[int, str]) -> str:
    if kind == "entity":
        return v["name"]
    if kind == "observation":
        return v["content"]
    if kind == "alias":
        return v["alias"]
    if v["from_entity"] == entity_id:
        return f"{v['relation_type']} → {names.get(v['to_entity'], '?')}"
    return f"{v['relation_type']} ← {names.get(v['from_entity'], '?')}"


def _compare(kind: str, a: dict, b: dict, text: str, add) -> None:
    """The events between two consecutive versions of one row."""
    if kind == "entity":
        if a["name"] != b["name"]:
            add("renamed", b["name"], a["name"])
        if a["entity_type"] != b["entity_type"]:
            add("retyped", b["entity_type"], a["entity_type"])
        if a["status"] != b["status"]:
            add("status", b["status"], a["status"])
        return
    if kind == "observation":
        if a["superseded_at"] is None and b["superseded_at"] is not None:
            add("superseded", text)
        elif a["superseded_at"] is not None and b["superseded_at"] is None:
            add("added", text)  # brought back (an undo)
        if a["content"] != b["content"]:
            add("edited", text, a["content"])
    elif kind == "relation":
        if a["active"] and not b["active"]:
            add("ended", text)
        elif not a["active"] and b["active"]:
            add("restarted", text)
    if kind in ("observation", "relation") and _valid(a) != _valid(b):
        add("dated", text, " · ".join(x or "" for x in _valid(a)), " · ".join(x or "" for x in _valid(b)))


def _name_at(db: Database, entity_id: int, at: str) -> str | None:
    value = db.scalar("SELECT value FROM history WHERE kind = 'entity' AND row_id = ? AND recorded_from <= ? "
                      "AND (recorded_to IS NULL OR recorded_to > ?) ORDER BY id DESC LIMIT 1", (entity_id, at, at))
    return json.loads(value)["name"] if value else None


def entity_at(db: Database, entity_id: int, at: str) -> dict | None:
    """The entity as recorded at ``at`` (a stored time), as ``limbic show`` pages it; None: it did not exist then.

    Read from its own rows' versions only (not the whole graph rebuilt), so a click on a timeline
    event answers at once on a large graph.
    """
    if not has_history(db) or not history_ok(db):
        return None
    live = [(kind, row_id, json.loads(value)) for _id, kind, row_id, value, rec_from, rec_to, _e, _w
            in _rows(db, entity_id) if rec_from <= at and (rec_to is None or rec_to > at)]
    ent = next((v for kind, _r, v in live if kind == "entity"), None)
    if ent is None:
        return None
    page: dict = {"name": ent["name"], "entityType": ent["entity_type"], "status": ent["status"],
                  "createdAt": ent["created_at"], "observations": [], "superseded": [], "relations": []}
    aliases = []
    for kind, _row_id, v in sorted(live, key=lambda x: (x[0], x[1])):
        if kind == "observation":
            if v["superseded_at"] is None:
                page["observations"].append({"content": v["content"], "createdAt": v["created_at"], **_dates(v)})
            else:
                page["superseded"].append({"content": v["content"], "supersededAt": v["superseded_at"]})
        elif kind == "relation":
            ends = {i: (ent["name"] if i == entity_id else _name_at(db, i, at) or "?")
                    for i in (v["from_entity"], v["to_entity"])}
            page["relations"].append({"from": ends[v["from_entity"]], "to": ends[v["to_entity"]],
                                      "relationType": v["relation_type"], "active": bool(v["active"]),
                                      "endedAt": v["ended_at"], **_dates(v)})
        elif kind == "alias":
            aliases.append(v["alias"])
    if aliases:
        page["aliases"] = sorted(aliases, key=str.casefold)
    return page


def _dates(v: dict) -> dict:
    return {k: v[c] for k, c in (("validFrom", "valid_from"), ("validUntil", "valid_until")) if v.get(c)}
