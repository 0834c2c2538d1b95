"""Taking changes back conditionally: the inverse of exactly what the logged changes did, piece by piece.

``plan`` compares each row a set of changes added, removed or changed with its state now. A
piece another writer changed since, an entity whose deletion would take another writer's rows
with it, a name another entity holds now: each is a ``Conflict`` naming what and by whom. With
no conflicts (or with a choice for them) ``apply`` performs the plan in one transaction, checking
again inside it; the revert is itself a logged change (``reverts`` names what it took back), so
it can be taken back in turn (that is redo).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from limbic.engine.vectors import index
from limbic.engine.store.activity import ADD, CHANGE, NEXT_CHANGE_SQL, REMOVE
from limbic.engine.graph.activity_log import Change, Item, _names, describe_item, load_changes
from limbic.engine.errors import LimbicError, NotFoundError, ValidationError
from limbic.engine.graph.graph import shown
from limbic.engine.graph.revert_names import holder as name_holder
from limbic.engine.graph.revert_words import by_person, changed_since, undo_words, who_words

if TYPE_CHECKING:
    from limbic.engine.graph.graph import Graph

logger = logging.getLogger(__name__)

SKIP = "skip"  # leave every conflicting piece as the other writer left it, take back the rest
INTO_EXISTING = "into_existing"  # a deleted entity whose name is taken again comes back into that entity
CHOICES = (SKIP, INTO_EXISTING)

_CURRENT = {
    "entity": "SELECT json_object('name', name, 'type', entity_type, 'status', status, 'created_at', created_at, "
              "'private', private) FROM entities WHERE id = ?",
    "observation": "SELECT json_object('entity', entity_id, 'content', content, 'kind', kind, 'created_at', created_at, "
                   "'superseded_by', superseded_by, 'superseded_at', superseded_at, 'valid_from', valid_from, "
                   "'valid_until', valid_until) FROM observations WHERE id = ?",
    "relation": "SELECT json_object('from', from_entity, 'to', to_entity, 'type', relation_type, 'context', context, "
                "'active', active, 'created_at', created_at, 'ended_at', ended_at, 'valid_from', valid_from, "
                "'valid_until', valid_until) FROM relations WHERE id = ?",
    "reflection": "SELECT json_object('target_type', target_type, 'entity', entity_id, 'relation', relation_id, "
                  "'target_ref', target_ref, 'author', author, 'content', content, 'mood', mood, 'created_at', created_at) "
                  "FROM reflections WHERE id = ?",
    "alias": "SELECT json_object('entity', entity_id, 'alias', alias, 'created_at', created_at) FROM entity_aliases "
             "WHERE id = ?",
}
_INFO_ONLY = ("from_name", "to_name")  # names kept for the words; the ids decide
_ORDER = {"entity": 0, "observation": 1, "relation": 2, "reflection": 3, "alias": 4}


@dataclass
class Conflict:
    """A piece that cannot be taken back without touching another writer's work."""

    what: str  # a sentence: what is in the way
    by: str  # who made it so ("beta", "Limbic")
    at: str  # when
    change_id: int | None  # their change
    kind: str  # changed / depends / name_taken / alias_taken / gone
    key: tuple[str, int]  # (kind, row id) of our piece

    @property
    def by_person(self) -> bool:
        """The other writer is the person (in Limbic or on the command line), not an assistant or a program."""
        return by_person(self.by)

    def sentence(self) -> str:
        who = f" ({who_words(self.by)}, {self.at[:16]}, change #{self.change_id})" if self.change_id else ""
        return self.what + who


@dataclass
class Piece:
    """One row's net change over the changes being taken back."""

    kind: str
    row_id: int
    before: dict | None  # as it was before the first of them (None: they added it)
    after: dict | None  # as they left it (None: they removed it)
    item: Item
    conflict: Conflict | None = None
    reused: bool = False  # its id belongs to another writer's new row now
    undo: str = ""  # what taking it back does, in words ("created “Y”" for a deletion taken back)

    def inverse(self) -> Item:
        """The item taking this piece back amounts to: its after and before swapped, its operation turned."""
        op = REMOVE if self.before is None else ADD if self.after is None else CHANGE
        it = self.item
        return Item(it.id, it.change_id, it.kind, op, it.row_id, it.entity_id, it.other_id, self.after, self.before)


@dataclass
class Plan:
    change_ids: list[int]
    pieces: list[Piece] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    already: list[int] = field(default_factory=list)  # changes taken back before
    change_id: int | None = None  # the revert's own change, once applied

    @property
    def empty(self) -> bool:
        return not self.pieces

    def lines(self) -> list[str]:
        """What taking back does, one line per piece (conflicting ones marked): once applied, only what it did."""
        return [("[conflict] " if p.conflict else "") + (p.undo or p.item.summary) for p in self.pieces]


class RevertConflict(LimbicError):
    """Taking back would touch another writer's work: nothing was changed; the plan names each conflict."""

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        lines = "; ".join(c.sentence() for c in plan.conflicts[:5])
        more = f" and {len(plan.conflicts) - 5} more" if len(plan.conflicts) > 5 else ""
        super().__init__(f"Nothing was changed: another writer's work is in the way: {lines}{more}.")


def _columns_of(db, table: str) -> set[str]:
    return {r[1] for r in db.execute(f"PRAGMA table_info({table})")}


_VALID_JSON = ", 'valid_from', valid_from, 'valid_until', valid_until"


def _current(db, kind: str, row_id: int) -> dict | None:
    sql = _CURRENT[kind]
    if _VALID_JSON in sql and "valid_from" not in _columns_of(db, _TABLES[kind]):
        sql = sql.replace(_VALID_JSON, "")  # a file of a schema before valid time (8)
    if kind == "entity" and "private" not in _columns_of(db, "entities"):
        sql = sql.replace(", 'private', private", "")  # ... or before private marks (11)
    text = db.scalar(sql, (row_id,))
    return json.loads(text) if text else None


def _same(a: dict | None, b: dict | None) -> bool:
    if a is None or b is None:
        return a is b
    # A change recorded before valid time was logged has no such keys: only the keys both name compare.
    keys = (a.keys() & b.keys()) - set(_INFO_ONLY)
    return all(a[k] == b[k] for k in keys)


def _who(db, change_id: int | None) -> tuple[str, str]:
    if change_id is None:
        return "another program", ""
    (c,) = load_changes(db, [change_id], items=False) or [None]
    return (c.who, c.at) if c else ("another program", "")


def _later_change(db, kind: str, row_id: int, after_id: int, op: str | None = None) -> int | None:
    extra = " AND op = ?" if op else ""
    return db.scalar(
        f"SELECT max(change_id) FROM change_item WHERE kind = ? AND row_id = ? AND change_id > ?{extra}",
        (kind, row_id, after_id, *((op,) if op else ())),
    )


def plan(graph: Graph, change_ids: list[int]) -> Plan:
    """What taking back these changes would do now, and what stands in the way."""
    db = graph.db
    changes = load_changes(db, change_ids)
    missing = set(change_ids) - {c.id for c in changes}
    if missing:
        raise NotFoundError(f"There is no change #{min(missing)} in the activity log: it was pruned, or sync put it "
                            "in its place again under this device's name (revert it there). Nothing was changed.")
    out = Plan([c.id for c in changes])
    net: dict[tuple[str, int], Piece] = {}
    for c in changes:
        if c.reverted_by is not None:
            out.already.append(c.id)
            continue
        for it in c.items:
            key = (it.kind, it.row_id)
            if key in net:
                net[key].after, net[key].item = it.after, it
            else:
                net[key] = Piece(it.kind, it.row_id, it.before, it.after, it)
    last = max(out.change_ids, default=0)
    first_item = {key: p.item for key, p in net.items()}
    for key, p in sorted(net.items(), key=lambda kv: (_ORDER[kv[0][0]], kv[0][1])):
        now = _current(db, p.kind, p.row_id)
        if now is not None and not _same(now, p.after) and _later_change(db, p.kind, p.row_id, last, ADD):
            # The row was removed since and its id given to a new row: that one is someone else's.
            if p.before is None:
                continue  # what we added is gone already
            now = None
            p.reused = True
        if _same(p.before, p.after) or (_same(now, p.before) and not p.reused):
            continue  # nothing to take back, or it is as it was already
        if not _same(now, p.after):
            later = _later_change(db, p.kind, p.row_id, last)
            by, at = _who(db, later)
            what = changed_since(db, p, now)
            p.conflict = Conflict(what, by, at, later, "changed", key)
        out.pieces.append(p)
    _dependencies(graph, out, last, set(first_item))
    out.conflicts = [p.conflict for p in out.pieces if p.conflict]
    names = _names(db, changes)
    for p in out.pieces:
        p.item.summary = describe_item(p.item, names)
        p.undo = undo_words(db, p, names)
    return out


def _dependencies(graph: Graph, out: Plan, last: int, ours: set[tuple[str, int]]) -> None:
    """Others' rows hanging on an entity we would delete; entities gone or names taken for what we restore."""
    db = graph.db
    removing = {p.row_id for p in out.pieces if p.kind == "entity" and p.after is not None and p.before is None}
    restoring = {p.row_id for p in out.pieces if p.kind == "entity" and p.before is not None and p.after is None}
    # Rows this revert takes off (the aliases a merge gave, the entities it made): their names are free.
    freed = ({p.row_id for p in out.pieces if p.kind == "alias" and p.before is None}, removing)
    reused = {p.row_id for p in out.pieces if p.kind == "entity" and p.reused}  # comes back under a new id
    for p in out.pieces:
        if p.conflict:
            continue
        if p.kind == "entity" and p.row_id in removing:
            theirs = _dependents(db, p.row_id, ours)
            if theirs:
                kind, row_id, text = theirs[0]
                added = _later_change(db, kind, row_id, 0, ADD) or _later_change(db, kind, row_id, 0)
                by, at = _who(db, added)
                more = f" (and {len(theirs) - 1} more)" if len(theirs) > 1 else ""
                p.conflict = Conflict(
                    f"“{shown(p.after.get('name'), 40)}” now holds {text}{more} that this change did not add",
                    by, at, added, "depends", (p.kind, p.row_id))
        elif p.kind == "entity" and p.before is not None:
            name = p.before.get("name", "")
            holder = graph.entity_id(name)
            if holder is not None and (holder != p.row_id or p.reused):
                added = _later_change(db, "entity", holder, 0, ADD)
                by, at = _who(db, added)
                p.conflict = Conflict(f"an entity named “{shown(name, 40)}” exists again", by, at, added, "name_taken",
                                      (p.kind, p.row_id))
            elif p.after is None or p.after.get("name") != name:
                _name_in_the_way(graph, p, name, None if p.reused else p.row_id, freed, "name_taken")
        elif p.kind != "entity" and p.before is not None:
            owners = [p.before.get(k) for k in (("from", "to") if p.kind == "relation" else ("entity",))]
            for owner in owners:
                if owner is None or owner in restoring:
                    continue
                if db.scalar("SELECT 1 FROM entities WHERE id = ?", (owner,)) is None:
                    removed = _later_change(db, "entity", owner, last, REMOVE)
                    by, at = _who(db, removed)
                    p.conflict = Conflict(f"the entity of “{p.item.summary}” was deleted since", by, at, removed, "gone",
                                          (p.kind, p.row_id))
                    break
            if p.kind == "alias" and not p.conflict and (p.after or {}).get("alias") != p.before.get("alias"):
                owner = p.before.get("entity")
                _name_in_the_way(graph, p, p.before.get("alias", ""), None if owner in reused else owner, freed, "alias_taken")


def _name_in_the_way(graph: Graph, p: Piece, name: str, owner: int | None, freed: tuple[set[int], set[int]],
                     kind: str) -> None:
    """A conflict on ``p`` when another entity goes by the name it would give back (by its name or an alias)."""
    found = name_holder(graph, name, owner, *freed)
    if found is None:
        return
    entity_id, alias_row = found
    other = shown(graph.db.scalar("SELECT name FROM entities WHERE id = ?", (entity_id,)), 40)
    added = _later_change(graph.db, *(("alias", alias_row) if alias_row else ("entity", entity_id)), 0, ADD)
    by, at = _who(graph.db, added)
    what = f"“{shown(name, 40)}” is an alias of “{other}” now" if alias_row else f"an entity named “{other}” exists now"
    p.conflict = Conflict(what, by, at, added, kind, (p.kind, p.row_id))


def _dependents(db, entity_id: int, ours: set[tuple[str, int]]) -> list[tuple[str, int, str]]:
    """Rows of this entity that the changes being taken back did not add (deleting it would take them)."""
    found = []
    for oid, content in db.execute("SELECT id, content FROM observations WHERE entity_id = ?", (entity_id,)):
        if ("observation", oid) not in ours:
            found.append(("observation", oid, f"the observation “{shown(content, 40)}”"))
    for rid, rtype in db.execute(
        "SELECT id, relation_type FROM relations WHERE from_entity = ? OR to_entity = ?", (entity_id, entity_id)
    ):
        if ("relation", rid) not in ours:
            found.append(("relation", rid, f"a relation “{shown(rtype, 30)}”"))
    if db.has_table("entity_aliases"):
        for aid, alias in db.execute("SELECT id, alias FROM entity_aliases WHERE entity_id = ?", (entity_id,)):
            if ("alias", aid) not in ours:
                found.append(("alias", aid, f"the alias “{shown(alias, 40)}”"))
    if db.has_table("reflections"):
        for (fid,) in db.execute("SELECT id FROM reflections WHERE entity_id = ?", (entity_id,)):
            if ("reflection", fid) not in ours:
                found.append(("reflection", fid, "a reflection"))
    return found


def apply(graph: Graph, change_ids: list[int], choice: str | None = None, tool: str = "revert") -> Plan:
    """Take these changes back in one transaction; RevertConflict (nothing changed) unless ``choice`` settles them.

    ``choice``: SKIP keeps every conflicting piece as the other writer left it (an entity that
    holds their rows stays, with them); INTO_EXISTING also brings a deleted entity whose name is
    taken back into the entity holding the name. The revert is logged, naming what it took back.
    """
    if choice is not None and choice not in CHOICES:
        raise ValidationError(f"A revert's choice must be one of {', '.join(CHOICES)}.")
    db = graph.db
    with db.activity.using(tool), graph.write():
        p = plan(graph, change_ids)
        if p.conflicts and choice is None:
            raise RevertConflict(p)
        if p.empty:
            return p
        # Once applied, the plan holds what was taken back: a piece left to another writer, or already as it
        # was, is neither counted nor said as done.
        p.pieces = _perform(graph, p, choice)
        if p.empty:
            return p  # nothing was written: no change is logged for the revert to be
        db.activity.reverting = json.dumps(p.change_ids)
        try:
            next_id = int(db.scalar(NEXT_CHANGE_SQL))
            p.change_id = next_id
            db.executemany("UPDATE change_log SET reverted_by = ? WHERE id = ? AND reverted_by IS NULL",
                           [(next_id, i) for i in p.change_ids])
            db.note_flag("names")
        except BaseException:
            db.activity.reverting = None
            raise
    db.activity.reverting = None
    return p


def _perform(graph: Graph, p: Plan, choice: str | None) -> list[Piece]:
    """Take the pieces back; returns those that changed the graph."""
    db = graph.db
    # A restored observation may name a newer one not restored yet: the keys are checked at commit.
    db.execute("PRAGMA defer_foreign_keys = ON")
    moved: dict[int, int] = {}  # an entity restored under another id (its own was taken, or into an existing one)
    pieces = [x for x in p.pieces if not (x.conflict and x.conflict.kind != "name_taken")]
    if choice != INTO_EXISTING:
        pieces = [x for x in pieces if not x.conflict]
    else:  # only a deleted entity comes back into the one holding its name; a rename back does not
        pieces = [x for x in pieces if not (x.conflict and x.after is not None)]
    kept_entities = {x.row_id for x in p.pieces if x.kind == "entity" and x.conflict and x.conflict.kind == "depends"}
    # Entities back first (their rows need them), then rows back or undone, entities removed last.
    done: set[int] = set()  # ids of the pieces that changed something
    for x in pieces:
        if x.kind == "entity" and x.after is None:
            moved[x.row_id] = _restore_entity(graph, x)
            done.add(id(x))
    # An alias added is taken off before one removed comes back: a merge moves a name from row to row.
    for x in sorted(pieces, key=lambda x: (_ORDER[x.kind], x.kind == "alias" and x.before is not None, x.row_id)):
        if x.kind == "entity" and x.after is not None and x.before is not None:
            _set_entity(graph, x.row_id, x.before)
            done.add(id(x))
        elif x.kind != "entity" and _row(graph, x, moved):
            done.add(id(x))
    for x in pieces:
        if x.kind == "entity" and x.before is None and x.row_id not in kept_entities and _remove_entity(graph, x.row_id):
            done.add(id(x))
    return [x for x in p.pieces if id(x) in done]


def _restore_entity(graph: Graph, x: Piece) -> int:
    db, b = graph.db, x.before
    holder = graph.entity_id(b["name"])
    if holder is None and x.conflict is not None:  # the name is another entity's alias now
        holder = graph.alias_owner(b["name"])
    if holder is not None:
        graph._dirty.add(holder)
        db.note("changed", (holder,))
        return holder  # INTO_EXISTING: its rows come back into the entity holding the name
    taken = db.scalar("SELECT 1 FROM entities WHERE id = ?", (x.row_id,)) is not None
    db.execute(
        "INSERT INTO entities(id, name, entity_type, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
        (None if taken else x.row_id, b["name"], b["type"], b.get("status") or "active", b["created_at"], db.moment()),
    )
    new_id = db.conn.last_insert_rowid()
    if b.get("private"):  # a file of schema 11 or later: its log records the mark
        db.execute("UPDATE entities SET private = 1 WHERE id = ?", (new_id,))
    graph._dirty.add(new_id)
    db.note("added", (new_id,))
    return new_id


def _set_entity(graph: Graph, entity_id: int, b: dict) -> None:
    db = graph.db
    holder = graph.entity_id(b["name"])
    if holder is not None and holder != entity_id:
        raise ValidationError(f"An entity named “{shown(b['name'])}” already exists.")
    db.execute("UPDATE entities SET name = ?, entity_type = ?, status = ?, updated_at = ? WHERE id = ?",
               (b["name"], b["type"], b.get("status") or "active", db.moment(), entity_id))
    if "private" in b:  # a file of schema 11 or later: its log records the mark
        db.execute("UPDATE entities SET private = ? WHERE id = ?", (int(b["private"] or 0), entity_id))
    graph._dirty.add(entity_id)
    graph._dirty.update(r[0] for r in db.execute("SELECT from_entity FROM relations WHERE to_entity = ?", (entity_id,)))
    db.note("changed", (entity_id,))
    db.note("relations", graph._neighbours(entity_id))


def _remove_entity(graph: Graph, entity_id: int) -> bool:
    db = graph.db
    if db.scalar("SELECT 1 FROM entities WHERE id = ?", (entity_id,)) is None:
        return False
    db.note("relations", graph._neighbours(entity_id) - {entity_id})
    index.delete_index_rows(db, entity_id)
    db.execute("DELETE FROM entities WHERE id = ?", (entity_id,))
    db.note("removed", (entity_id,))
    graph._dirty.discard(entity_id)
    return True


_COLUMNS = {
    "observation": ("entity_id", "content", "kind", "created_at", "superseded_by", "superseded_at", "valid_from",
                    "valid_until"),
    "relation": ("from_entity", "to_entity", "relation_type", "context", "active", "created_at", "ended_at",
                 "valid_from", "valid_until"),
    "reflection": ("target_type", "entity_id", "relation_id", "target_ref", "author", "content", "mood", "created_at"),
    "alias": ("entity_id", "alias", "created_at"),
}
_KEYS = {
    "observation": ("entity", "content", "kind", "created_at", "superseded_by", "superseded_at", "valid_from",
                    "valid_until"),
    "relation": ("from", "to", "type", "context", "active", "created_at", "ended_at", "valid_from", "valid_until"),
    "reflection": ("target_type", "entity", "relation", "target_ref", "author", "content", "mood", "created_at"),
    "alias": ("entity", "alias", "created_at"),
}
_TABLES = {"observation": "observations", "relation": "relations", "reflection": "reflections", "alias": "entity_aliases"}


def _values(kind: str, state: dict, moved: dict[int, int]) -> list:
    values = [state.get(k) for k in _KEYS[kind]]
    for i, k in enumerate(_KEYS[kind]):
        if k in ("entity", "from", "to") and values[i] in moved:
            values[i] = moved[values[i]]
    return values


def _row(graph: Graph, x: Piece, moved: dict[int, int]) -> bool:
    """Take one row back; False when there was nothing left to do (its entity stays deleted, or it is back already)."""
    db, table, cols = graph.db, _TABLES[x.kind], _COLUMNS[x.kind]
    have = _columns_of(db, table)  # a file not upgraded yet has no valid time
    if x.before is None:  # they added it: remove it
        db.execute(f"DELETE FROM {table} WHERE id = ?", (x.row_id,))
        if not db.conn.changes():
            return False  # gone already
        touched = [x.after.get(k) for k in ("entity", "from", "to") if x.after.get(k) is not None]
    else:
        values = _values(x.kind, x.before, moved)
        owners = [v for k, v in zip(_KEYS[x.kind], values) if k in ("entity", "from", "to") and v is not None]
        if any(db.scalar("SELECT 1 FROM entities WHERE id = ?", (o,)) is None for o in owners):
            return False  # its entity stays deleted (a conflict left as it is)
        if x.after is None:  # they removed it: put it back (under its old id when that is free)
            if x.kind == "relation" and db.scalar(
                "SELECT 1 FROM relations WHERE from_entity = ? AND to_entity = ? AND relation_type = ?", values[:3]
            ):
                return False  # the same relation exists again
            if x.kind == "observation" and db.scalar(
                "SELECT 1 FROM observations WHERE entity_id = ? AND content = ?", values[:2]
            ):
                return False  # the same observation is there again
            if x.kind == "alias" and graph.alias_owner(values[1]) is not None:
                return False  # another entity goes by that alias now
            taken = db.scalar(f"SELECT 1 FROM {table} WHERE id = ?", (x.row_id,)) is not None
            back = [(c, v) for c, v in zip(cols, values) if c in have]
            names, marks = ", ".join(c for c, _ in back), ", ".join("?" * len(back))
            db.execute(f"INSERT INTO {table}(id, {names}) VALUES (?, {marks})",
                       (None if taken else x.row_id, *[v for _, v in back]))
        else:  # only what the recorded row names (one logged before valid time leaves it as it is)
            kept = [(c, v) for c, k, v in zip(cols, _KEYS[x.kind], values) if k in x.before and c in have]
            db.execute(f"UPDATE {table} SET {', '.join(c + ' = ?' for c, _ in kept)} WHERE id = ?",
                       (*[v for _, v in kept], x.row_id))
        touched = [v for k, v in zip(_KEYS[x.kind], values) if k in ("entity", "from", "to") and v is not None]
    for entity_id in touched:
        if db.scalar("SELECT 1 FROM entities WHERE id = ?", (entity_id,)) is not None:
            graph._dirty.add(entity_id)
            db.note("changed", (entity_id,))
    if x.kind == "relation":
        db.note("relations", touched)
    return True


def resolve_ref(graph: Graph, ref: str) -> list[int]:
    """The change ids a revert ID names: ``123`` or ``#123`` a change, ``s12`` / ``session:12`` a session."""
    text = str(ref).strip().lower().lstrip("#")
    for prefix in ("session:", "session", "s"):
        digits = text[len(prefix):]
        if text.startswith(prefix) and digits.isascii() and digits.isdigit():
            if len(digits) > 18:  # beyond SQLite's integers: no session has such an id
                raise NotFoundError(f"There is no session {shown(digits, 24)} in the activity log.")
            session = int(digits)
            ids = [r[0] for r in graph.db.execute("SELECT id FROM change_log WHERE session = ? ORDER BY id", (session,))]
            if not ids:
                raise NotFoundError(f"There is no session {session} with changes in the activity log.")
            return ids
    if text.isascii() and text.isdigit():
        if len(text) > 18:  # beyond SQLite's integers: no change has such an id
            raise NotFoundError(f"There is no change #{shown(text, 24)} in the activity log.")
        return [int(text)]
    raise ValidationError(f"“{shown(ref, 40)}” is not a change or session id (use 123 for a change, s12 for a session).")


def taken_back(change: Change) -> bool:
    return change.reverted_by is not None

