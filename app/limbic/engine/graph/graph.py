"""Entities, observations and relations: every write keeps FTS rows and vectors in the same transaction."""

from __future__ import annotations

import contextlib
import logging
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from limbic.engine.store import tables

from limbic.engine.vectors import index
from limbic.engine.store.db import Database
from limbic.engine.errors import NotFoundError, ValidationError
from limbic.engine.graph.aliases import GraphAliases
from limbic.engine.graph.graph_history import GraphHistory
from limbic.engine.graph.name_lookup import by_name_key
# What a stored value may be lives below this module and graph_history (re-exported: used from here).
from limbic.engine.store.values import (DEFAULT_TYPE, MAX_NAME_CHARS, MAX_OBSERVATION_CHARS, MAX_TYPE_CHARS,  # noqa: F401
                                  TIME_FORMAT, _unstorable, clean_name, clean_observation, name_key, now_utc, shown)

if TYPE_CHECKING:
    from limbic.engine.vectors.embeddings import Embedder

logger = logging.getLogger(__name__)


@dataclass
class Observation:
    id: int
    content: str
    kind: str
    created_at: str
    superseded_by: int | None = None  # the newer observation that replaced this one
    superseded_at: str | None = None  # set: kept as history, left out of search

    @property
    def current(self) -> bool:
        return self.superseded_at is None


@dataclass
class Relation:
    id: int
    from_name: str
    to_name: str
    relation_type: str
    context: str | None
    from_id: int
    to_id: int
    active: bool = True
    ended_at: str | None = None  # an ended relation is kept (active False), shown greyed, not followed


@dataclass
class Entity:
    id: int
    name: str
    entity_type: str
    status: str
    created_at: str
    updated_at: str
    revision: int = 0  # goes up with every commit that touches the entity or its relations
    observations: list[Observation] = field(default_factory=list)

    @property
    def observation_texts(self) -> list[str]:
        """The current observations' texts (superseded ones are history, not part of the entity's text)."""
        return [o.content for o in self.observations if o.superseded_at is None]

    @property
    def superseded(self) -> list[Observation]:
        return [o for o in self.observations if o.superseded_at is not None]


EntityRef = int | str


class Graph(GraphHistory, GraphAliases):
    """The knowledge graph on one database; optionally with an embedder for vectors."""

    def __init__(self, db: Database, embedder: Embedder | None = None) -> None:
        self.db = db
        self.embedder: Embedder | None = None
        self._dirty: set[int] = set()
        self.written = None  # what a batch of new entities wrote (bulk.py), for the full-text rows of this write
        self._embed_now = True
        self.fts_rebuilt = 0  # entities re-indexed while opening (0: the index was as wanted)
        tables.ensure_present(db)  # a lost derived or signal table comes back empty, then refills
        # A read-only file of an older schema has no revision column (it cannot be upgraded).
        columns = {r[1] for r in db.execute("PRAGMA table_info(entities)")}
        self._revision = "revision" if "revision" in columns else "0"
        self._backfill_fts()
        if embedder is not None:
            self.attach_embedder(embedder)

    # -- model ---------------------------------------------------------------------------

    def attach_embedder(self, embedder: Embedder) -> int:
        """Use this model for vectors; returns how many entities wait for embedding."""
        self.embedder = embedder
        index.prepare_vectors(self.db, embedder)
        return index.pending_count(self.db)

    @property
    def vectors_ready(self) -> bool:
        return index.vectors_ready(self.db, self.embedder)

    def pending_embeddings(self) -> int:
        return index.pending_count(self.db) if self.embedder else int(self.db.scalar("SELECT count(*) FROM entities"))

    def embed_pending(self, progress=None, cancelled=None, only=None) -> int:
        """Embed the entities waiting for a vector (after an import or a change of model); ``only``: just these ids."""
        if self.embedder is None:
            return 0
        return index.embed_pending(self.db, self.embedder, progress=progress, cancelled=cancelled, only=only)

    def _backfill_fts(self) -> None:
        """Fill or re-index the full-text rows when they are missing or hold other stems (index.ensure_fts)."""
        self.fts_rebuilt = index.ensure_fts(self.db)

    # -- transactions --------------------------------------------------------------------

    @contextlib.contextmanager
    def write(self, embed: bool = True) -> Iterator[None]:
        """One user action: graph, FTS and vectors change together or not at all."""
        outer = not self.db.in_transaction
        if outer:
            self._dirty.clear()
            self._embed_now = embed
        try:
            with self.db.transaction():
                yield
                if outer:
                    index.sync_entities(self.db, self._dirty, self.embedder, embed=self._embed_now, written=self.written)
        finally:
            if outer:
                self._dirty.clear()
                self._embed_now, self.written = True, None

    def _touch(self, entity_id: int) -> None:
        self.db.execute("UPDATE entities SET updated_at = ? WHERE id = ?", (self.db.moment(), entity_id))
        self._dirty.add(entity_id)
        self.db.note("changed", (entity_id,))

    def _neighbours(self, entity_id: int) -> set[int]:
        """Entities related to this one either way (their views show its name)."""
        return {
            r[0]
            for r in self.db.execute(
                "SELECT to_entity FROM relations WHERE from_entity = ? UNION SELECT from_entity FROM relations WHERE to_entity = ?",
                (entity_id, entity_id),
            )
        }

    # -- lookups -------------------------------------------------------------------------

    def entity_id(self, name: str) -> int | None:
        """The entity with this name, or with one that differs from it only in case."""
        if isinstance(name, str):
            name = unicodedata.normalize("NFC", name.strip())
            if _unstorable(name):
                return None
        found = self.db.scalar("SELECT id FROM entities WHERE name = ?", (name,))
        if found is None and isinstance(name, str) and name:
            found = self.case_variant(name)
        return found

    def case_variant(self, name: str) -> int | None:
        """An entity whose name differs from ``name`` only in case (names are unique without case).

        SQLite's NOCASE index folds A-Z; other letters through ``case_spellings``, each an index
        probe: the cost does not grow with the graph, so a bulk import stays linear.
        """
        return by_name_key(self.db, "entities", "id", "name", name)

    def _taken(self, name: str, entity_id: int) -> str:
        """The sentence refusing a name another entity holds (the same, or differing only in case)."""
        other = self.db.scalar("SELECT name FROM entities WHERE id = ?", (entity_id,))
        if other == name:
            return f"An entity named “{shown(name)}” already exists."
        return (
            f"An entity named “{shown(other)}” already exists; names that differ only in case are the same name "
            "in Limbic."
        )

    def resolve(self, ref: EntityRef) -> int:
        """The id of the entity ``ref`` names (an id, a name or an alias); NotFoundError when there is none."""
        if isinstance(ref, int):
            if self.db.scalar("SELECT 1 FROM entities WHERE id = ?", (ref,)) is None:
                raise NotFoundError(f"There is no entity with id {ref}.")
            return ref
        entity_id = self.entity_id(ref)
        entity_id = self.alias_owner(ref) if entity_id is None else entity_id
        if entity_id is None:
            raise NotFoundError(f"There is no entity named “{shown(ref)}”.")
        return entity_id

    def get_entity(self, ref: EntityRef) -> Entity:
        """An entity with its observations; raises NotFoundError."""
        entity_id = self.resolve(ref)
        found = self.entities_by_ids([entity_id])
        return found[entity_id]

    def entities_by_ids(self, ids: Sequence[int]) -> dict[int, Entity]:
        """Hydrate many entities at once (name, type, observations)."""
        out: dict[int, Entity] = {}
        ids = list(ids)
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for row in self.db.execute(
                f"SELECT id, name, entity_type, status, created_at, updated_at, {self._revision} FROM entities "
                f"WHERE id IN ({marks})",
                chunk,
            ):
                out[row[0]] = Entity(*row)
            history = ", superseded_by, superseded_at" if self.db.has_history() else ", NULL, NULL"
            for row in self.db.execute(
                f"SELECT id, entity_id, content, kind, created_at{history} FROM observations "
                f"WHERE entity_id IN ({marks}) ORDER BY id",
                chunk,
            ):
                out[row[1]].observations.append(Observation(row[0], row[2], row[3], row[4], row[5], row[6]))
        return out

    def _relation_sql(self, where: str, ended: bool) -> str:
        ended_at = "r.ended_at" if self.db.has_history() else "NULL"
        return (
            "SELECT r.id, a.name, b.name, r.relation_type, r.context, r.from_entity, r.to_entity, r.active, "
            f"{ended_at} FROM relations r JOIN entities a ON a.id = r.from_entity JOIN entities b ON b.id = r.to_entity "
            f"WHERE {'1' if ended else 'r.active = 1'}{where} ORDER BY r.id"
        )

    def relations_of(self, ref: EntityRef, ended: bool = False) -> tuple[list[Relation], list[Relation]]:
        """(outgoing, incoming) relations of an entity: active ones, and ended ones too with ``ended``."""
        entity_id = self.resolve(ref)
        out = [self._relation(r) for r in self.db.execute(self._relation_sql(" AND r.from_entity = ?", ended), (entity_id,))]
        inc = [self._relation(r) for r in self.db.execute(self._relation_sql(" AND r.to_entity = ?", ended), (entity_id,))]
        return out, inc

    @staticmethod
    def _relation(row) -> Relation:
        return Relation(*row[:7], active=bool(row[7]), ended_at=row[8])

    def all_relations(self, ended: bool = False) -> Iterator[Relation]:
        yield from (self._relation(r) for r in self.db.execute(self._relation_sql("", ended)))

    def iter_entities(self, batch: int = 500) -> Iterator[Entity]:
        """Every entity with its observations, in creation order."""
        last = 0
        while True:
            ids = [r[0] for r in self.db.execute("SELECT id FROM entities WHERE id > ? ORDER BY id LIMIT ?", (last, batch))]
            if not ids:
                return
            found = self.entities_by_ids(ids)
            for entity_id in ids:
                if entity_id in found:
                    yield found[entity_id]
            last = ids[-1]

    def names(self, prefix: str = "", limit: int = 50) -> list[str]:
        """Entity names starting with ``prefix`` (case-insensitive), for completion."""
        if _unstorable(prefix):
            return []
        escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        return [
            r[0]
            for r in self.db.execute(
                "SELECT name FROM entities WHERE name LIKE ? ESCAPE '\\' ORDER BY name LIMIT ?", (escaped + "%", limit)
            )
        ]

    def entity_types(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT DISTINCT entity_type FROM entities ORDER BY entity_type")]

    def relation_types(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT DISTINCT relation_type FROM relations ORDER BY relation_type")]

    def counts(self) -> dict[str, int]:
        q = self.db.scalar
        return {"entities": int(q("SELECT count(*) FROM entities")), "observations": int(q("SELECT count(*) FROM observations")),
                "relations": int(q("SELECT count(*) FROM relations WHERE active = 1")),
                "vectors": int(q("SELECT count(*) FROM embedding_state"))}

    # -- entity writes -------------------------------------------------------------------

    def upsert_entity(
        self, name: str, entity_type: str | None = None, observations: Iterable[str] = (), kind: str = "note"
    ) -> int:
        """Create an entity or merge into the existing one: new observations are appended, duplicates skipped."""
        name = clean_name(name)
        etype = clean_name(entity_type, "type", MAX_TYPE_CHARS) if entity_type is not None else None
        contents = [clean_observation(o) for o in observations]
        with self.write():
            now = self.db.moment()
            row = self.db.one("SELECT id, entity_type FROM entities WHERE name = ?", (name,))
            if row is None and (other := self.case_variant(name) or self.alias_owner(name)) is not None:
                # A name differing only in case, or an alias, is that entity: merged into it, spelled as it is.
                row = self.db.one("SELECT id, entity_type FROM entities WHERE id = ?", (other,))
            if row is None:
                self.db.execute(
                    "INSERT INTO entities(name, entity_type, created_at, updated_at) VALUES (?, ?, ?, ?)",
                    (name, etype or DEFAULT_TYPE, now, now),
                )
                entity_id = self.db.conn.last_insert_rowid()
                self._dirty.add(entity_id)
                self.db.note("added", (entity_id,))
                self.db.note_flag("names")
            else:
                entity_id = row[0]
                if etype is not None and etype != row[1]:
                    self.db.execute("UPDATE entities SET entity_type = ? WHERE id = ?", (etype, entity_id))
                    self._touch(entity_id)
                    self.db.note_flag("names")
            self._append_observations(entity_id, contents, kind)
        return entity_id

    def create_entity(self, name: str, entity_type: str | None = None, observations: Iterable[str] = ()) -> int:
        """Create a new entity; raises ValidationError if the name is taken."""
        name = clean_name(name)
        existing = self.entity_id(name)
        if existing is not None:
            raise ValidationError(self._taken(name, existing))
        self.check_name_free(name)
        return self.upsert_entity(name, entity_type, observations)

    def restore_entity(self, entity_id: int, name: str, entity_type: str, created_at: str,
                       observations: Iterable[str] = ()) -> int:
        """Bring a deleted entity back with its old id and creation time (a new id if that one is taken)."""
        name = clean_name(name)
        etype = clean_name(entity_type, "type", MAX_TYPE_CHARS)
        contents = [clean_observation(o) for o in observations]
        with self.write():
            if self.entity_id(name) is not None:
                raise ValidationError(f"An entity named “{name}” already exists.")
            self.check_name_free(name)
            taken = self.db.scalar("SELECT 1 FROM entities WHERE id = ?", (entity_id,)) is not None
            self.db.execute(
                "INSERT INTO entities(id, name, entity_type, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
                (None if taken else entity_id, name, etype, created_at, self.db.moment()),
            )
            new_id = self.db.conn.last_insert_rowid()
            self._dirty.add(new_id)
            self.db.note("added", (new_id,))
            self.db.note_flag("names")
            self._append_observations(new_id, contents, "note")
        return new_id

    def rename_type(self, old: str, new: str, ids: Iterable[int] | None = None) -> list[int]:
        """Give every entity of type ``old`` (or only these ids) the type ``new``; returns the ids changed."""
        new = clean_name(new, "type", MAX_TYPE_CHARS)
        with self.write():
            if ids is None:
                changed = [r[0] for r in self.db.execute("SELECT id FROM entities WHERE entity_type = ?", (old,))]
            else:
                wanted = list(ids)
                changed = [i for i in wanted if self.db.scalar("SELECT entity_type FROM entities WHERE id = ?", (i,)) == old]
            now = self.db.moment()
            self.db.executemany("UPDATE entities SET entity_type = ?, updated_at = ? WHERE id = ?",
                                [(new, now, i) for i in changed])
            self._dirty.update(changed)  # the type is part of the embedded text
            self.db.note("changed", changed)
            if changed:
                self.db.note_flag("names")
        return changed

    def rename_entity(self, ref: EntityRef, new_name: str) -> None:
        """Rename; relations follow because they point at the id."""
        new_name = clean_name(new_name)
        with self.write():
            entity_id = self.resolve(ref)
            other = self.entity_id(new_name)
            if other is not None and other != entity_id:
                raise ValidationError(self._taken(new_name, other))
            self.check_name_free(new_name, entity_id)
            self.remove_alias(entity_id, new_name)  # renamed to one of its aliases: that is its name now
            self.db.execute("UPDATE entities SET name = ? WHERE id = ?", (new_name, entity_id))
            self._touch(entity_id)
            self.db.note_flag("names")
            self.db.note("relations", self._neighbours(entity_id))
            # Entities that point here mention the old name in their embedded text.
            self._dirty.update(r[0] for r in self.db.execute("SELECT from_entity FROM relations WHERE to_entity = ?", (entity_id,)))

    def set_entity_type(self, ref: EntityRef, entity_type: str) -> None:
        etype = clean_name(entity_type, "type", MAX_TYPE_CHARS)
        with self.write():
            entity_id = self.resolve(ref)
            # A write that changes nothing leaves the entity as it was, its last update time too (no other
            # device hears of it, so none could show that time).
            self.db.execute("UPDATE entities SET entity_type = ? WHERE id = ? AND entity_type IS NOT ?",
                            (etype, entity_id, etype))
            if self.db.conn.changes():
                self._touch(entity_id)
                self.db.note_flag("names")

    def delete_entity(self, ref: EntityRef) -> None:
        """Delete an entity, its observations, relations and index rows."""
        with self.write():
            entity_id = self.resolve(ref)
            sources = [r[0] for r in self.db.execute("SELECT from_entity FROM relations WHERE to_entity = ?", (entity_id,))]
            self.db.note("relations", self._neighbours(entity_id) - {entity_id})
            index.delete_index_rows(self.db, entity_id)
            self.db.execute("DELETE FROM entities WHERE id = ?", (entity_id,))
            self.db.note("removed", (entity_id,))
            self.db.note_flag("names")
            self._dirty.discard(entity_id)
            self._dirty.update(s for s in sources if s != entity_id)

    # -- observations --------------------------------------------------------------------

    def _append_observations(self, entity_id: int, contents: Sequence[str], kind: str) -> list[int]:
        # Only current observations make a duplicate: a superseded text said again is true again.
        current = " AND superseded_at IS NULL" if self.db.has_history() else ""
        existing = {r[0] for r in self.db.execute(f"SELECT content FROM observations WHERE entity_id = ?{current}", (entity_id,))}
        ids = []
        now = self.db.moment()
        for content in contents:
            if content in existing:
                continue
            existing.add(content)
            self.db.execute(
                "INSERT INTO observations(entity_id, content, kind, created_at) VALUES (?, ?, ?, ?)",
                (entity_id, content, kind, now),
            )
            ids.append(self.db.conn.last_insert_rowid())
        if ids:
            self._touch(entity_id)
        return ids

    def add_observations(self, ref: EntityRef, contents: Iterable[str], kind: str = "note") -> list[int]:
        """Append observations (duplicates of existing ones are skipped); returns the new ids."""
        cleaned = [clean_observation(c) for c in contents]
        with self.write():
            return self._append_observations(self.resolve(ref), cleaned, kind)

    def edit_observation(self, obs_id: int, content: str) -> None:
        content = clean_observation(content)
        with self.write():
            entity_id = self.db.scalar("SELECT entity_id FROM observations WHERE id = ?", (obs_id,))
            if entity_id is None:
                raise NotFoundError(f"There is no observation with id {obs_id}.")
            self.db.execute("UPDATE observations SET content = ? WHERE id = ? AND content IS NOT ?",
                            (content, obs_id, content))
            if self.db.conn.changes():
                self._touch(entity_id)

    def delete_observation(self, obs_id: int) -> None:
        with self.write():
            entity_id = self.db.scalar("SELECT entity_id FROM observations WHERE id = ?", (obs_id,))
            if entity_id is None:
                raise NotFoundError(f"There is no observation with id {obs_id}.")
            self.db.execute("DELETE FROM observations WHERE id = ?", (obs_id,))
            self._touch(entity_id)

    # -- relations -----------------------------------------------------------------------

    def add_relation(self, source: EntityRef, target: EntityRef, relation_type: str, context: str | None = None) -> bool:
        """Relate two entities; returns False if that relation already existed."""
        rtype = clean_name(relation_type, "relation type", MAX_TYPE_CHARS)
        with self.write():
            a, b = self.resolve(source), self.resolve(target)
            existing = self.db.one(
                "SELECT id, active FROM relations WHERE from_entity = ? AND to_entity = ? AND relation_type = ?", (a, b, rtype)
            )
            if existing is not None and existing[1]:
                return False
            if existing is not None:
                self.db.execute("UPDATE relations SET active = 1, context = ? WHERE id = ?", (context, existing[0]))
                if self.db.has_history():
                    self.db.execute("UPDATE relations SET ended_at = NULL WHERE id = ?", (existing[0],))
            else:
                self.db.execute(
                    "INSERT INTO relations(from_entity, to_entity, relation_type, context, created_at) VALUES (?, ?, ?, ?, ?)",
                    (a, b, rtype, context, self.db.moment()),
                )
            self._touch(a)
            self.db.note("relations", (a, b))
            self.db.note_flag("names")
            return True

    def remove_relation(self, source: EntityRef, target: EntityRef, relation_type: str) -> bool:
        """Remove a relation; returns False if there was none."""
        if not isinstance(relation_type, str) or _unstorable(relation_type):
            return False  # no stored relation has such a type
        with self.write():
            a, b = self.resolve(source), self.resolve(target)
            self.db.execute(
                "DELETE FROM relations WHERE from_entity = ? AND to_entity = ? AND relation_type = ?",
                (a, b, relation_type.strip()),
            )
            if self.db.conn.changes() == 0:
                return False
            self._touch(a)
            self.db.note("relations", (a, b))
            return True
