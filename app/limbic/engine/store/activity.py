"""Who changed what: sessions with origins, and each commit's precise changes, kept in the graph file.

Every program that writes a graph file opens a *session* (its origin: the app, a CLI command, an
import, an assistant through `limbic mcp` with the client's name and version) the first time it
commits. Each commit is one ``change_log`` row carrying its session and the tool or command that
made it (``Recorder.using``). What the commit did, row by row, lands in ``change_item`` through
connection-local (TEMP) triggers on entities, observations, relations and reflections: an item
holds the row's state before and after as JSON. The triggers write into the same transaction as
the commit, so every write function, present or future, is recorded without doing anything.

A commit's ``change_log`` id is known before it is written: rows are only added at commit time,
one writer at a time, so the open transaction's row will be ``seq + 1`` of ``sqlite_sequence``;
the triggers use that number and ``write_log`` inserts the row with exactly that id.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from limbic.engine.store.db import Database

logger = logging.getLogger(__name__)

# v5: sessions with origins, the tool of each commit, review and revert marks, each commit's
# precise changes (before/after of every row), and what each assistant read.
SCHEMA_V5 = """
ALTER TABLE change_log ADD COLUMN session INTEGER;
ALTER TABLE change_log ADD COLUMN tool TEXT NOT NULL DEFAULT '';
ALTER TABLE change_log ADD COLUMN reviewed_at TEXT;
ALTER TABLE change_log ADD COLUMN reverted_by INTEGER;
ALTER TABLE change_log ADD COLUMN reverts TEXT;
CREATE INDEX IF NOT EXISTS change_log_session ON change_log(session);
CREATE TABLE IF NOT EXISTS activity_session (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    origin         TEXT NOT NULL,
    client         TEXT NOT NULL DEFAULT '',
    client_version TEXT NOT NULL DEFAULT '',
    started        TEXT NOT NULL,
    writer         TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS change_item (
    id        INTEGER PRIMARY KEY,
    change_id INTEGER NOT NULL,
    kind      TEXT NOT NULL,
    op        TEXT NOT NULL,
    row_id    INTEGER NOT NULL,
    entity_id INTEGER,
    other_id  INTEGER,
    before    TEXT,
    after     TEXT
);
CREATE INDEX IF NOT EXISTS change_item_change ON change_item(change_id);
CREATE INDEX IF NOT EXISTS change_item_entity ON change_item(entity_id);
CREATE INDEX IF NOT EXISTS change_item_other ON change_item(other_id) WHERE other_id IS NOT NULL;
CREATE TABLE IF NOT EXISTS activity_read (
    session   INTEGER NOT NULL,
    entity_id INTEGER,
    tool      TEXT NOT NULL DEFAULT '',
    at        TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS activity_read_entity ON activity_read(entity_id);
CREATE INDEX IF NOT EXISTS activity_read_session ON activity_read(session);
"""

KINDS = ("entity", "observation", "relation", "reflection", "alias")
ADD, REMOVE, CHANGE = "add", "remove", "change"

# The id the open transaction's change_log row will get (see the module's docstring).
NEXT_CHANGE_SQL = "SELECT coalesce(max(seq), 0) + 1 FROM main.sqlite_sequence WHERE name = 'change_log'"
_NEXT = "(" + NEXT_CHANGE_SQL + ")"

# JSON of one row of each table, for NEW or OLD.
_JSON = {
    "entity": "json_object('name', {r}.name, 'type', {r}.entity_type, 'status', {r}.status, 'created_at', {r}.created_at{private})",
    "observation": (
        "json_object('entity', {r}.entity_id, 'content', {r}.content, 'kind', {r}.kind, 'created_at', {r}.created_at, "
        "'superseded_by', {r}.superseded_by, 'superseded_at', {r}.superseded_at{valid})"
    ),
    "relation": (
        "json_object('from', {r}.from_entity, 'to', {r}.to_entity, 'type', {r}.relation_type, 'context', {r}.context, "
        "'active', {r}.active, 'created_at', {r}.created_at, 'ended_at', {r}.ended_at{valid}, "
        "'from_name', (SELECT name FROM main.entities WHERE id = {r}.from_entity), "
        "'to_name', (SELECT name FROM main.entities WHERE id = {r}.to_entity))"
    ),
    "reflection": (
        "json_object('target_type', {r}.target_type, 'entity', {r}.entity_id, 'relation', {r}.relation_id, "
        "'target_ref', {r}.target_ref, 'author', {r}.author, 'content', {r}.content, 'mood', {r}.mood, "
        "'created_at', {r}.created_at)"
    ),
    "alias": "json_object('entity', {r}.entity_id, 'alias', {r}.alias, 'created_at', {r}.created_at)",
}
# Valid time (schema 8) in the JSON of observations and relations; a file still being upgraded has none yet.
_VALID = ", 'valid_from', {r}.valid_from, 'valid_until', {r}.valid_until"
VALID_COLUMNS = ("valid_from", "valid_until")
# An entity's private mark (schema 11) in its JSON; a file still being upgraded has none yet.
_PRIVATE = ", 'private', {r}.private"
# The column each key of an item's JSON (above) comes from, per kind: what reads items back into rows uses it.
ITEM_COLUMNS = {
    "entity": {"name": "name", "type": "entity_type", "status": "status", "created_at": "created_at",
               "private": "private"},
    "observation": {"entity": "entity_id", "content": "content", "kind": "kind", "created_at": "created_at",
                    "superseded_by": "superseded_by", "superseded_at": "superseded_at",
                    "valid_from": "valid_from", "valid_until": "valid_until"},
    "relation": {"from": "from_entity", "to": "to_entity", "type": "relation_type", "context": "context",
                 "active": "active", "created_at": "created_at", "ended_at": "ended_at",
                 "valid_from": "valid_from", "valid_until": "valid_until"},
    "reflection": {"target_type": "target_type", "entity": "entity_id", "relation": "relation_id",
                   "target_ref": "target_ref", "author": "author", "content": "content", "mood": "mood",
                   "created_at": "created_at"},
    "alias": {"entity": "entity_id", "alias": "alias", "created_at": "created_at"},
}
_TABLE = {"entity": "entities", "observation": "observations", "relation": "relations", "reflection": "reflections",
          "alias": "entity_aliases"}
_ENTITY_OF = {"entity": "{r}.id", "observation": "{r}.entity_id", "relation": "{r}.from_entity", "reflection": "{r}.entity_id",
              "alias": "{r}.entity_id"}
_OTHER_OF = {"relation": "{r}.to_entity"}
# An update is recorded only when something a person sees changed (not updated_at or revision).
_WATCHED = {
    "entity": ("name", "entity_type", "status", "created_at", "private"),
    "observation": ("entity_id", "content", "kind", "superseded_by", "superseded_at", "valid_from", "valid_until"),
    "relation": ("from_entity", "to_entity", "relation_type", "context", "active", "ended_at", "valid_from",
                 "valid_until"),
    "reflection": ("entity_id", "relation_id", "content", "mood", "author"),
    "alias": ("entity_id", "alias"),
}


# Indexes created on a file's first write by this version if an earlier one did not: those the activity
# panel reads through (a session's counts, the badge), and the texts a text superseded, which removing a
# text looks for (its foreign key) with an index rather than through every text of the graph.
LATE_INDEXES = (
    "CREATE INDEX IF NOT EXISTS change_log_session_reviewed ON change_log(session, reviewed_at)",
    "CREATE INDEX IF NOT EXISTS change_log_unreviewed ON change_log(origin) WHERE reviewed_at IS NULL",
    # main.: a connection serving an assistant shows it its own view of the texts under the same name
    "CREATE INDEX IF NOT EXISTS main.observations_superseded_by ON observations(superseded_by) "
    "WHERE superseded_by IS NOT NULL",
)

_NEEDED = {
    "change_item": ("change_id", "kind", "op", "row_id", "entity_id", "other_id", "before", "after"),
    "activity_session": ("id", "origin", "client", "client_version", "started", "writer"),
    "change_log": ("session", "tool", "reviewed_at", "reverted_by", "reverts"),
}


def tables_ok(db: Database) -> bool:
    """True when the file has the activity tables in the shape Limbic writes (schema 5, not damaged)."""
    return all(
        set(columns) <= {r[1] for r in db.execute(f"PRAGMA table_info({table})")} for table, columns in _NEEDED.items()
    )


def _trigger_ddl(kind: str, valid: bool = True) -> list[str]:
    """``valid``: the table has its later columns (valid time; an entity's private mark)."""
    table = _TABLE[kind]
    other = _OTHER_OF.get(kind, "NULL")
    watched = [c for c in _WATCHED[kind] if valid or c not in (*VALID_COLUMNS, "private")]
    out = []
    for event, op, row in (("INSERT", ADD, "NEW"), ("DELETE", REMOVE, "OLD"), ("UPDATE", CHANGE, "NEW")):
        when = ""
        if event == "UPDATE":
            when = " WHEN " + " OR ".join(f"OLD.{c} IS NOT NEW.{c}" for c in watched)
        before = _json(kind, "OLD", valid) if event != "INSERT" else "NULL"
        after = _json(kind, "NEW", valid) if event != "DELETE" else "NULL"
        out.append(f"DROP TRIGGER IF EXISTS temp.limbic_log_{kind}_{op}")  # one made before an upgrade
        out.append(
            f"CREATE TEMP TRIGGER limbic_log_{kind}_{op} AFTER {event} ON main.{table}{when} BEGIN "
            "INSERT INTO main.change_item(change_id, kind, op, row_id, entity_id, other_id, before, after) VALUES "
            f"({_NEXT}, '{kind}', '{op}', {row}.id, {_ENTITY_OF[kind].format(r=row)}, {other.format(r=row)}, "
            f"{before}, {after}); END"
        )
    return out


def _json(kind: str, row: str, valid: bool) -> str:
    return _JSON[kind].format(r=row, valid=_VALID.format(r=row) if valid else "",
                              private=_PRIVATE.format(r=row) if valid else "")


# More connection-local triggers to create with the recorder's (recorded.py adds the history's).
INSTALLERS: list = []


class Recorder:
    """A connection's side of the activity log: its origin and session, the tool of the commits under way."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.origin = "app"
        self.client = ""
        self.client_version = ""
        self.tool = ""
        self.reverting: str | None = None  # JSON list of the change ids the commit under way takes back
        self.last_change_id: int | None = None  # the change_log id of this connection's latest commit
        self.session_id: int | None = None  # written at the first commit that needs it
        self._session_new = False  # the session row was written by the open transaction
        self.installed: bool | None = None  # None: not looked at on this connection yet
        self._key: object = None  # the connection (of a server) whose session is current
        self._sessions: dict[object, int | None] = {}

    # -- who is writing -------------------------------------------------------------------

    def set_origin(self, origin: str, client: str = "", client_version: str = "") -> None:
        """From now on this connection writes as ``origin`` (and client); a new session starts at the next commit."""
        if (origin, client, client_version) != (self.origin, self.client, self.client_version):
            self.origin, self.client, self.client_version = origin, client or "", client_version or ""
            self.session_id = None

    def act_as(self, key: object, origin: str, client: str = "", client_version: str = "") -> None:
        """Switch to connection ``key``'s session (one per connection; a server may hold several)."""
        if key == self._key and (origin, client, client_version) == (self.origin, self.client, self.client_version):
            return
        if self._key is not None and not self._session_new:
            self._sessions[self._key] = self.session_id
        self._key = key
        self.origin, self.client, self.client_version = origin, client or "", client_version or ""
        self.session_id = self._sessions.get(key)

    @contextlib.contextmanager
    def session_as(self, origin: str, client: str = "") -> Iterator[None]:
        """The commits inside are one session of their own (an import of a file), then the connection's again."""
        saved = (self.origin, self.client, self.client_version, self.session_id, self._key)
        self.origin, self.client, self.client_version, self.session_id = origin, client or "", "", None
        try:
            yield
        finally:
            self.origin, self.client, self.client_version, self.session_id, self._key = saved

    def switch(self, origin: str) -> None:
        """Inside ``session_as``: what is written from now on is a session of ``origin`` (``changes.cut``)."""
        self.origin, self.session_id = origin, None

    def new_session(self) -> None:
        """The next commit opens a new session with the same origin (a new connection of a client)."""
        self.session_id = None

    @contextlib.contextmanager
    def using(self, tool: str) -> Iterator[None]:
        """The commits inside are made by ``tool`` (an MCP tool, a CLI command, a service operation).

        Nested calls keep the outermost name: that is what the person or the assistant asked for.
        """
        if self.tool:
            yield
            return
        self.tool = tool
        try:
            yield
        finally:
            self.tool = ""

    # -- inside the committing transaction ----------------------------------------------------

    def ensure_installed(self) -> bool:
        """Create this connection's triggers if the file has the item table; True when they are there."""
        if self.installed is None:
            db = self.db
            # A lost or malformed table (until `limbic check --repair`) turns recording off, not writing.
            self.installed = not db.readonly and tables_ok(db)
            for install in INSTALLERS:  # recorded-time history, kept whether or not the log can be written
                install(db)
            if self.installed:
                for ddl in LATE_INDEXES:
                    db.execute(ddl)
                for kind in KINDS:
                    if not db.has_table(_TABLE[kind]):  # reflections (v4) or aliases (v9) in an older file
                        continue
                    later = {"observation": "valid_from", "relation": "valid_from", "entity": "private"}.get(kind)
                    valid = later is None or later in {r[1] for r in db.execute(f"PRAGMA table_info({_TABLE[kind]})")}
                    for ddl in _trigger_ddl(kind, valid):
                        db.execute(ddl)
        return bool(self.installed)

    def reset(self) -> None:
        """The file was replaced (a restore) or re-opened: look again, and start a new session."""
        self.installed = None
        self.session_id = None

    def session_for_commit(self, now: str) -> int | None:
        """The session id for the commit being written (its row is written now if it is new)."""
        if not self.ensure_installed():
            return None
        if self.session_id is None:
            self.db.execute(
                "INSERT INTO activity_session(origin, client, client_version, started, writer) VALUES (?, ?, ?, ?, ?)",
                (self.origin, self.client, self.client_version, now, self.db.writer_id),
            )
            self.session_id = self.db.conn.last_insert_rowid()
            self._session_new = True
        return self.session_id

    def pending_change_id(self) -> int:
        """Inside a write transaction: the change_log id its commit will have, if it changes anything."""
        return int(self.db.scalar(NEXT_CHANGE_SQL))

    def committed(self) -> None:
        self._session_new = False

    def rolled_back(self) -> None:
        """A session row (or triggers) written by a transaction that rolled back are gone again."""
        self.installed = None
        if self._session_new:
            self.session_id = None
            self._session_new = False
