"""What a graph remembers beyond its current state: entity status, superseded observations, ended
relations, reflections, and the merging writes importers use to bring such history in unchanged.

``Graph`` inherits these methods; every write runs inside ``Graph.write()`` so it lands in the
change log and in the full-text and vector indexes like any other edit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from limbic.engine.store import values as _g
from limbic.engine.errors import Cancelled, NotFoundError, ValidationError

STATUSES = ("active", "paused", "done", "archived")
DEFAULT_STATUS = "active"
# The seed engine's Spanish status names.
SEED_STATUSES = {"activo": "active", "pausado": "paused", "completado": "done", "archivado": "archived"}
REFLECTION_TARGETS = ("entity", "relation", "session", "global")
MAX_AUTHOR_CHARS = 128


def clean_status(status: object) -> str:
    """An entity status in Limbic's words (the seed's Spanish names accepted); ValidationError otherwise."""
    if isinstance(status, str):
        key = status.strip().lower()
        key = SEED_STATUSES.get(key, key)
        if key in STATUSES:
            return key
    raise ValidationError(f"An entity status must be one of {', '.join(STATUSES)}, not “{_g.shown(status)}”.")


def clean_stamp(stamp: object) -> str | None:
    """A stored timestamp (``YYYY-MM-DD HH:MM:SS``, UTC) from text, or None when missing or unreadable."""
    if not isinstance(stamp, str) or not stamp.strip():
        return None
    from datetime import datetime, timezone

    text = stamp.strip().replace("T", " ").rstrip("Z")
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        return None
    if parsed.tzinfo is not None:
        parsed = parsed.astimezone(timezone.utc).replace(tzinfo=None)
    return parsed.strftime(_g.TIME_FORMAT)


@dataclass
class Reflection:
    """Prose about an entity, a relation, a session or the whole graph."""

    id: int
    target_type: str
    entity_id: int | None
    relation_id: int | None
    target_ref: int | None
    author: str
    content: str
    mood: str | None
    created_at: str
    about: str = ""  # what it is about, in words: an entity's name or "A —type→ B"


_REFLECTION_SQL = (
    "SELECT f.id, f.target_type, f.entity_id, f.relation_id, f.target_ref, f.author, f.content, f.mood, f.created_at, "
    "coalesce(e.name, a.name || ' —' || r.relation_type || '→ ' || b.name, '') "
    "FROM reflections f LEFT JOIN entities e ON e.id = f.entity_id LEFT JOIN relations r ON r.id = f.relation_id "
    "LEFT JOIN entities a ON a.id = r.from_entity LEFT JOIN entities b ON b.id = r.to_entity "
)


class GraphHistory:
    """Mixed into ``Graph``: status, supersede chains, ended relations, reflections."""

    # -- edits a person makes ---------------------------------------------------------------

    def set_status(self, ref, status: str) -> None:
        """Set an entity's status (active, paused, done, archived); archived ones rank lower."""
        status = clean_status(status)
        with self.write():
            entity_id = self.resolve(ref)
            self.db.execute("UPDATE entities SET status = ? WHERE id = ? AND status IS NOT ?", (status, entity_id, status))
            if self.db.conn.changes():
                self._touch(entity_id)

    def set_private(self, ref, private: bool) -> bool:
        """Mark an entity private (no assistant is shown it, nor anything on it) or not; True when it changed."""
        with self.write():
            entity_id = self.resolve(ref)
            self.db.execute("UPDATE entities SET private = ? WHERE id = ? AND private IS NOT ?",
                            (int(bool(private)), entity_id, int(bool(private))))
            if self.db.conn.changes():
                self._touch(entity_id)
                return True
        return False

    def supersede_observation(self, obs_id: int, content: str, kind: str | None = None) -> int:
        """Replace an observation by a newer one; the old one stays as history, out of search. Returns the newer one's id."""
        content = _g.clean_observation(content)
        with self.write():
            row = self.db.one("SELECT entity_id, kind, superseded_at, content FROM observations WHERE id = ?", (obs_id,))
            if row is None:
                raise NotFoundError(f"There is no observation with id {obs_id}.")
            if row[2] is not None:
                raise ValidationError("That observation has already been superseded.")
            if row[3] == content and (kind is None or kind == row[1]):
                return obs_id  # replaced by its own text: nothing changes (two rows of one text would be one elsewhere)
            now = _g.now_utc()
            # A text the entity already holds is not stored twice (two current copies): the old one points at it.
            new_id = self.db.scalar(
                "SELECT id FROM observations WHERE entity_id = ? AND content = ? AND superseded_at IS NULL AND id != ? "
                "ORDER BY id LIMIT 1", (row[0], content, obs_id))
            if new_id is None:
                self.db.execute(
                    "INSERT INTO observations(entity_id, content, kind, created_at) VALUES (?, ?, ?, ?)",
                    (row[0], content, kind or row[1], now),
                )
                new_id = self.db.conn.last_insert_rowid()
            self.db.execute(
                "UPDATE observations SET superseded_by = ?, superseded_at = ? WHERE id = ?", (new_id, now, obs_id)
            )
            self._touch(row[0])
        return new_id

    def end_relation(self, source, target, relation_type: str, ended_at: str | None = None) -> bool:
        """End a relation without deleting it (kept, shown greyed, no longer followed); False if none is active."""
        with self.write():
            a, b = self.resolve(source), self.resolve(target)
            self.db.execute(
                "UPDATE relations SET active = 0, ended_at = ? "
                "WHERE from_entity = ? AND to_entity = ? AND relation_type = ? AND active = 1",
                (ended_at or _g.now_utc(), a, b, relation_type.strip() if isinstance(relation_type, str) else relation_type),
            )
            if self.db.conn.changes() == 0:
                return False
            self._touch(a)
            self.db.note("relations", (a, b))
            return True

    def add_reflection(
        self,
        content: str,
        author: str = "",
        entity=None,
        relation: tuple | None = None,
        mood: str | None = None,
        target_type: str | None = None,
        target_ref: int | None = None,
        created_at: str | None = None,
    ) -> int | None:
        """Add a reflection about an entity, a relation ``(from, to, type)`` or the whole graph.

        An identical reflection (same target, author, text and time) is not added twice: None.
        """
        content = _g.clean_observation(content)
        author = _clean_author(author)
        with self.write():
            entity_id = relation_id = None
            if relation is not None:
                a, b = self.resolve(relation[0]), self.resolve(relation[1])
                relation_id = self.db.scalar(
                    "SELECT id FROM relations WHERE from_entity = ? AND to_entity = ? AND relation_type = ?",
                    (a, b, relation[2]),
                )
                if relation_id is None:
                    raise NotFoundError("There is no such relation to reflect on.")
                kind = "relation"
                dirty = a
            elif entity is not None:
                entity_id = self.resolve(entity)
                kind = "entity"
                dirty = entity_id
            else:
                kind = target_type or "global"
                if kind not in ("session", "global"):
                    raise ValidationError("A reflection is about an entity, a relation, a session or the whole graph.")
                dirty = None
            return self._insert_reflection(kind, entity_id, relation_id, target_ref, author, content, mood, created_at, dirty)

    def _insert_reflection(self, kind, entity_id, relation_id, target_ref, author, content, mood, created_at, dirty):
        stamp = clean_stamp(created_at) or _g.now_utc()
        exists = self.db.scalar(
            "SELECT id FROM reflections WHERE target_type = ? AND entity_id IS ? AND relation_id IS ? AND target_ref IS ? "
            "AND author = ? AND content = ? AND created_at = ?",
            (kind, entity_id, relation_id, target_ref, author, content, stamp),
        )
        if exists is not None:
            return None
        self.db.execute(
            "INSERT INTO reflections(target_type, entity_id, relation_id, target_ref, author, content, mood, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (kind, entity_id, relation_id, target_ref, author, content, mood, stamp),
        )
        new_id = self.db.conn.last_insert_rowid()
        if dirty is not None:
            self._touch(dirty)  # its text for search now holds the reflection
        return new_id

    # -- reading -----------------------------------------------------------------------------

    def reflections_of(self, ref) -> list[Reflection]:
        """Reflections about an entity and about the relations it takes part in, oldest first."""
        entity_id = self.resolve(ref)
        if not self.db.has_table("reflections"):
            return []
        return [
            Reflection(*r)
            for r in self.db.execute(
                _REFLECTION_SQL + "WHERE f.entity_id = ? OR r.from_entity = ? OR r.to_entity = ? ORDER BY f.id",
                (entity_id, entity_id, entity_id),
            )
        ]

    def all_reflections(self) -> list[Reflection]:
        if not self.db.has_table("reflections"):
            return []
        return [Reflection(*r) for r in self.db.execute(_REFLECTION_SQL + "ORDER BY f.id")]

    # -- merging writes for importers (timestamps kept; importing twice changes nothing) ---

    def merge_entity(
        self, name: str, entity_type: str | None, status: str | None = None, created_at=None, updated_at=None
    ) -> tuple[int, bool]:
        """Find or create an entity keeping the source's dates; returns (id, created)."""
        name = _g.clean_name(name)
        etype = _g.clean_name(entity_type, "type", _g.MAX_TYPE_CHARS) if entity_type else None
        status = clean_status(status) if status else None
        with self.write(embed=False):
            # The same name in another case is that entity, and so is an alias naming it.
            found = self.entity_id(name) or self.alias_owner(name)
            row = self.db.one("SELECT id, entity_type, status, created_at FROM entities WHERE id = ?", (found,))
            created = clean_stamp(created_at) or _g.now_utc()
            if row is None:
                self.db.execute(
                    "INSERT INTO entities(name, entity_type, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
                    (name, etype or _g.DEFAULT_TYPE, status or DEFAULT_STATUS, created, clean_stamp(updated_at) or created),
                )
                entity_id = self.db.conn.last_insert_rowid()
                self._dirty.add(entity_id)
                self.db.note("added", (entity_id,))
                self.db.note_flag("names")
                return entity_id, True
            entity_id = row[0]
            changed = False
            if etype and etype != row[1]:
                self.db.execute("UPDATE entities SET entity_type = ? WHERE id = ?", (etype, entity_id))
                self.db.note_flag("names")
                changed = True
            if status and status != row[2]:
                self.db.execute("UPDATE entities SET status = ? WHERE id = ?", (status, entity_id))
                changed = True
            if clean_stamp(created_at) and clean_stamp(created_at) < row[3]:
                self.db.execute("UPDATE entities SET created_at = ? WHERE id = ?", (clean_stamp(created_at), entity_id))
                changed = True
            if changed:
                self._touch(entity_id)
            return entity_id, False

    def merge_observation(
        self, entity_id: int, content: str, kind: str | None = None, created_at=None, superseded_at=None, similarity_flag=0
    ) -> tuple[int, bool]:
        """Find (by text) or add an observation with its source's date and history; returns (id, added)."""
        content = _g.clean_observation(content)
        with self.write(embed=False):
            found = self.db.scalar(
                "SELECT id FROM observations WHERE entity_id = ? AND content = ? ORDER BY id LIMIT 1", (entity_id, content)
            )
            if found is not None:
                return found, False
            self.db.execute(
                "INSERT INTO observations(entity_id, content, kind, created_at, superseded_at, similarity_flag) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (entity_id, content, kind or "note", clean_stamp(created_at) or _g.now_utc(), clean_stamp(superseded_at),
                 1 if similarity_flag else 0),
            )
            new_id = self.db.conn.last_insert_rowid()
            self._touch_keep_date(entity_id)
            return new_id, True

    def merge_observations(self, entity_id: int, items: Sequence[tuple[str, str | None]], created_at=None,
                           cancelled: Callable[[], bool] | None = None) -> int:
        """``merge_observation`` for many (content, kind) of one entity, in time linear in their number
        (a note of 100,000 paragraphs): the entity's texts are read once. Returns how many were added."""
        with self.write(embed=False):
            known = {c for (c,) in self.db.execute("SELECT content FROM observations WHERE entity_id = ?", (entity_id,))}
            stamp = clean_stamp(created_at) or _g.now_utc()
            added = 0
            for i, (content, kind) in enumerate(items):
                if cancelled and i % 5000 == 4999 and cancelled():
                    raise Cancelled("The import was cancelled; nothing was changed.")
                content = _g.clean_observation(content)
                if content in known:
                    continue
                known.add(content)
                self.db.execute("INSERT INTO observations(entity_id, content, kind, created_at) VALUES (?, ?, ?, ?)",
                                (entity_id, content, kind or "note", stamp))
                added += 1
            if added:
                self._touch_keep_date(entity_id)
            return added

    def link_superseded(self, old_id: int, new_id: int | None, at=None) -> None:
        """Mark ``old_id`` as replaced by ``new_id`` (None: replaced, by nothing kept)."""
        with self.write(embed=False):
            row = self.db.one("SELECT entity_id, superseded_by, superseded_at FROM observations WHERE id = ?", (old_id,))
            if row is None or (row[1] == new_id and row[2] is not None):
                return
            self.db.execute(
                "UPDATE observations SET superseded_by = ?, superseded_at = coalesce(?, superseded_at, ?) WHERE id = ?",
                (new_id, clean_stamp(at), _g.now_utc(), old_id),
            )
            self._touch_keep_date(row[0])

    def merge_relation(
        self, a: int, b: int, relation_type: str, context=None, active=True, created_at=None, ended_at=None
    ) -> tuple[int, bool]:
        """Find or add a relation between two entity ids keeping its context, end and date; returns (id, added)."""
        rtype = _g.clean_name(relation_type, "relation type", _g.MAX_TYPE_CHARS)
        context = context.strip() if isinstance(context, str) and context.strip() else None
        ended = clean_stamp(ended_at)
        active = bool(active) and ended is None
        with self.write(embed=False):
            row = self.db.one(
                "SELECT id, context, active, ended_at FROM relations WHERE from_entity = ? AND to_entity = ? AND relation_type = ?",
                (a, b, rtype),
            )
            if row is not None:
                want = (context if context is not None else row[1], int(active), ended if not active else None)
                if want != (row[1], row[2], row[3]):
                    self.db.execute(
                        "UPDATE relations SET context = ?, active = ?, ended_at = ? WHERE id = ?", (*want, row[0])
                    )
                    self._touch_keep_date(a)
                    self.db.note("relations", (a, b))
                return row[0], False
            self.db.execute(
                "INSERT INTO relations(from_entity, to_entity, relation_type, context, active, created_at, ended_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (a, b, rtype, context, int(active), clean_stamp(created_at) or _g.now_utc(), None if active else ended),
            )
            self._touch_keep_date(a)
            self.db.note("relations", (a, b))
            self.db.note_flag("names")
            return self.db.conn.last_insert_rowid(), True

    def merge_reflection(
        self, target_type: str, content: str, author: str = "", entity_id: int | None = None,
        relation_id: int | None = None, target_ref: int | None = None, mood: str | None = None, created_at=None,
    ) -> int | None:
        """Add a reflection unless the same one is there; returns its id or None."""
        if target_type not in REFLECTION_TARGETS:
            raise ValidationError(f"A reflection's target must be one of {', '.join(REFLECTION_TARGETS)}.")
        content = _g.clean_observation(content)
        with self.write(embed=False):
            dirty = entity_id
            if relation_id is not None:
                dirty = self.db.scalar("SELECT from_entity FROM relations WHERE id = ?", (relation_id,))
            return self._insert_reflection(
                target_type, entity_id, relation_id, target_ref, _clean_author(author), content,
                mood if isinstance(mood, str) and mood.strip() else None, created_at, dirty,
            )

    def merge_usage(self, entity_id: int, access_count: int, last_access=None) -> None:
        """Keep the larger access count and the later last access (importing twice doubles nothing)."""
        self.db.execute(
            "INSERT INTO entity_access(entity_id, access_count, last_access) VALUES (?, ?, ?) "
            "ON CONFLICT(entity_id) DO UPDATE SET access_count = max(access_count, excluded.access_count), "
            "last_access = CASE WHEN last_access IS NULL OR excluded.last_access > last_access "
            "THEN excluded.last_access ELSE last_access END",
            (entity_id, max(0, int(access_count or 0)), clean_stamp(last_access)),
        )

    def merge_access_day(self, entity_id: int, day: str, count: int) -> None:
        self.db.execute(
            "INSERT INTO entity_access_log(entity_id, access_date, access_count) VALUES (?, ?, ?) "
            "ON CONFLICT(entity_id, access_date) DO UPDATE SET access_count = max(access_count, excluded.access_count)",
            (entity_id, day, max(0, int(count or 0))),
        )

    def merge_cooccurrence(self, a: int, b: int, count: int, last=None) -> None:
        if a == b:
            return
        a, b = min(a, b), max(a, b)
        self.db.execute(
            "INSERT INTO co_occurrences(entity_a_id, entity_b_id, co_count, last_co) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(entity_a_id, entity_b_id) DO UPDATE SET co_count = max(co_count, excluded.co_count), "
            "last_co = CASE WHEN last_co IS NULL OR excluded.last_co > last_co THEN excluded.last_co ELSE last_co END",
            (a, b, max(0, int(count or 0)), clean_stamp(last)),
        )

    def _touch_keep_date(self, entity_id: int) -> None:
        """Re-index an entity changed by an import without making its source's dates look recent."""
        self._dirty.add(entity_id)
        self.db.note("changed", (entity_id,))


def _clean_author(author: object) -> str:
    if author is None:
        return ""
    if not isinstance(author, str):
        raise ValidationError("A reflection's author must be text.")
    author = author.strip()
    if len(author) > MAX_AUTHOR_CHARS:
        raise ValidationError(f"A reflection's author can be at most {MAX_AUTHOR_CHARS} characters long.")
    return author
