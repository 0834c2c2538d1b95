"""What changed between two moments, entity by entity, and the periods a relation held."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from limbic.engine.history.asof import versions_at
from limbic.engine.store.db import Database

ADDED, CHANGED, ENDED, DELETED = "added", "changed", "ended", "deleted"
DATES = "dates"  # the dates it held in the world changed


@dataclass
class EntityChange:
    """One entity's changes between two moments: ``what`` it underwent as a whole, and each detail."""

    entity: str
    what: str  # added, changed or deleted
    details: list[dict] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"entity": self.entity, "what": self.what, "details": self.details}


def _state(db: Database, at: str) -> dict[str, dict[int, dict]]:
    out: dict[str, dict[int, dict]] = {"entity": {}, "observation": {}, "relation": {}, "reflection": {}, "alias": {}}
    for kind, row_id, _gid, value in versions_at(db, at):
        out.setdefault(kind, {})[row_id] = value
    return out


def _relation_text(rel: dict, names: dict[int, str]) -> str:
    return f"{rel['relation_type']} {names.get(rel['to_entity'], '?')}"


def _dates(old: dict | None, new: dict | None, kind: str, text: str) -> dict | None:
    """When a text or relation held in the world, set, changed or taken off (“When it held…”), or None."""
    if old is None or new is None:
        return None
    was, now = (old.get("valid_from"), old.get("valid_until")), (new.get("valid_from"), new.get("valid_until"))
    if was == now:
        return None
    return {"kind": kind, "change": DATES, "text": text, "valid_from": now[0], "valid_until": now[1],
            "was_from": was[0], "was_until": was[1]}


def diff(db: Database, before: str, after: str, hidden: set[int] | frozenset[int] = frozenset()) -> list[EntityChange]:
    """Each entity whose recorded state differs between ``before`` and ``after`` (stored times), by name.

    ``hidden``: entities left out, with every change of their rows and of relations to them."""
    old, new = _state(db, before), _state(db, after)
    if hidden:
        _leave_out(old, hidden)
        _leave_out(new, hidden)
    old_names = {i: v["name"] for i, v in old["entity"].items()}
    new_names = {i: v["name"] for i, v in new["entity"].items()}
    names = {**old_names, **new_names}
    out: dict[int, EntityChange] = {}

    def entry(entity_id: int) -> EntityChange:
        if entity_id not in out:
            what = ADDED if entity_id not in old_names else DELETED if entity_id not in new_names else CHANGED
            out[entity_id] = EntityChange(names.get(entity_id, "?"), what)
        return out[entity_id]

    for i in old_names.keys() | new_names.keys():
        a, b = old["entity"].get(i), new["entity"].get(i)
        if a is None or b is None:
            entry(i)
            continue
        for key, label in (("name", "renamed"), ("entity_type", "retyped"), ("status", "status")):
            if a[key] != b[key]:
                entry(i).details.append({"kind": "entity", "change": label, "from": a[key], "to": b[key]})
    for i in old["observation"].keys() | new["observation"].keys():
        a, b = old["observation"].get(i), new["observation"].get(i)
        owner = (b or a)["entity_id"]
        if a is None:
            entry(owner).details.append({"kind": "observation", "change": ADDED, "text": b["content"]})
        elif b is None:
            if owner in new_names:
                entry(owner).details.append({"kind": "observation", "change": DELETED, "text": a["content"]})
        elif a["superseded_at"] is None and b["superseded_at"] is not None:
            entry(owner).details.append({"kind": "observation", "change": ENDED, "text": b["content"],
                                         "superseded_at": b["superseded_at"]})
        elif a["content"] != b["content"]:
            entry(owner).details.append({"kind": "observation", "change": CHANGED, "from": a["content"],
                                         "to": b["content"]})
        if dated := _dates(a, b, "observation", (b or a)["content"]):
            entry(owner).details.append(dated)
    for i in old["relation"].keys() | new["relation"].keys():
        a, b = old["relation"].get(i), new["relation"].get(i)
        rel = b or a
        owner = rel["from_entity"]
        text = _relation_text(rel, names)
        if a is None or (not a["active"] and b is not None and b["active"]):
            entry(owner).details.append({"kind": "relation", "change": ADDED, "text": text})
        elif b is None:
            if owner in new_names:
                entry(owner).details.append({"kind": "relation", "change": DELETED, "text": text})
        elif a["active"] and not b["active"]:
            entry(owner).details.append({"kind": "relation", "change": ENDED, "text": text, "ended_at": b["ended_at"]})
        elif a["context"] != b["context"]:
            entry(owner).details.append({"kind": "relation", "change": CHANGED, "text": text})
        if dated := _dates(a, b, "relation", text):
            entry(owner).details.append(dated)
    for i in old["reflection"].keys() | new["reflection"].keys():
        a, b = old["reflection"].get(i), new["reflection"].get(i)
        owner = (b or a)["entity_id"]
        if owner is None or (a is not None and b is not None and a == b):
            continue
        change = ADDED if a is None else DELETED if b is None else CHANGED
        if b is None and owner not in new_names:
            continue
        entry(owner).details.append({"kind": "reflection", "change": change, "text": (b or a)["content"]})
    for i in old["alias"].keys() | new["alias"].keys():  # a name given or taken off (a merge gives one)
        a, b = old["alias"].get(i), new["alias"].get(i)
        owner = (b or a)["entity_id"]
        if a == b or (b is None and owner not in new_names):
            continue
        change = ADDED if a is None else DELETED if b is None else CHANGED
        entry(owner).details.append({"kind": "alias", "change": change, "text": (b or a)["alias"]})
    return sorted(out.values(), key=lambda c: (c.entity.casefold(), c.entity))


def _leave_out(state: dict[str, dict[int, dict]], hidden: set[int] | frozenset[int]) -> None:
    """A state without the hidden entities, their rows and the relations to them."""
    for kind, keys in (("entity", None), ("observation", ("entity_id",)), ("relation", ("from_entity", "to_entity")),
                       ("reflection", ("entity_id",)), ("alias", ("entity_id",))):
        rows = state.get(kind, {})
        for row_id in [i for i, v in rows.items()
                       if (keys is None and i in hidden) or (keys and any(v.get(k) in hidden for k in keys))]:
            del rows[row_id]


def relation_periods(db: Database, relation_id: int) -> list[tuple[str, str | None]]:
    """Each period the relation held, oldest first: (from, until), ``until`` None while it holds.

    A relation ended and created again is one row whose ``created_at`` stays the first period's;
    the periods come from its recorded versions.
    """
    periods: list[tuple[str, str | None]] = []
    start: str | None = None
    for value, rec_from, rec_to, ended in db.execute(
        "SELECT value, recorded_from, recorded_to, ended FROM history WHERE kind = 'relation' AND row_id = ? "
        "ORDER BY recorded_from, id", (relation_id,)
    ):
        v = json.loads(value)
        if not v["active"] and start is None and not periods and v["ended_at"]:
            periods.append((v["created_at"], v["ended_at"]))  # it came in already ended (an import)
            continue
        if v["active"] and start is None:
            start = v["created_at"] if not periods else rec_from
        if not v["active"] and start is not None:
            periods.append((start, v["ended_at"] or rec_from))
            start = None
        if ended == "delete" and start is not None:
            periods.append((start, rec_to))
            start = None
    if start is not None:
        periods.append((start, None))
    return periods
