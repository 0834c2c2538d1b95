"""Reading the activity log: sessions, their changes and each change's items, in words; review marks and reads."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from datetime import datetime, timedelta, timezone

from limbic.engine.store.activity import ADD, REMOVE, tables_ok
from limbic.engine.store import changes as _changes
from limbic.engine.store.changes import KEEP_DAYS_KEY, MAX_KEEP_DAYS, ORIGIN_ASSISTANT
from limbic.engine.errors import ValidationError
from limbic.engine.graph.graph import TIME_FORMAT, now_utc
from limbic.engine.wording import counted
from limbic.engine.graph.change_words import describe_item, summarize  # noqa: F401  (this module's words)

if TYPE_CHECKING:
    from limbic.engine.store.db import Database

logger = logging.getLogger(__name__)

ORIGIN_WORDS = {"app": "Limbic", "cli": "the command line", "import": "an import", ORIGIN_ASSISTANT: "an assistant"}


@dataclass
class Item:
    """One row a change added, removed or changed, with its state before and after."""

    id: int
    change_id: int
    kind: str  # entity, observation, relation, reflection
    op: str  # add, remove, change
    row_id: int
    entity_id: int | None
    other_id: int | None
    before: dict | None
    after: dict | None
    summary: str = ""

    @property
    def state(self) -> dict:
        return self.after if self.after is not None else (self.before or {})


@dataclass
class Change:
    """One commit: who made it (origin, session, tool), when, and what it did."""

    id: int
    at: str
    origin: str
    session: int | None
    tool: str
    reviewed_at: str | None
    reverted_by: int | None
    reverts: list[int]
    client: str = ""
    items: list[Item] = field(default_factory=list)
    summary: str = ""
    names: dict[int, str] = field(default_factory=dict)  # the entities it names, by id (its words in a language)

    @property
    def who(self) -> str:
        """The writer in words: the client's name for an assistant, else the origin."""
        return self.client or ORIGIN_WORDS.get(self.origin, self.origin)

    def entity_ids(self) -> set[int]:
        return {i for it in self.items for i in (it.entity_id, it.other_id) if i is not None}


@dataclass
class Session:
    """One program's run on the file (for an assistant: one connection), with its changes."""

    id: int
    origin: str
    client: str
    client_version: str
    started: str
    changes: list[Change] = field(default_factory=list)
    total: int = 0  # changes in the whole session (when only the newest were loaded)
    unreviewed: int = 0
    more: bool = False  # older changes were left out
    loaded: bool = True  # False: its changes were not read yet (the panel reads them when opened)
    reads: int = 0  # entities the session was given to read (read_graph counts once)

    @property
    def who(self) -> str:
        return self.client or ORIGIN_WORDS.get(self.origin, self.origin)


def has_log(db: Database) -> bool:
    """True when the file keeps sessions and items (schema 5 or later)."""
    return tables_ok(db)


_CHANGE_SQL = (
    "SELECT c.id, c.at, c.origin, c.session, c.tool, c.reviewed_at, c.reverted_by, c.reverts, coalesce(s.client, '') "
    "FROM change_log c LEFT JOIN activity_session s ON s.id = c.session "
)


def _change(row) -> Change:
    try:
        reverts = json.loads(row[7]) if row[7] else []
    except ValueError:
        reverts = []
    return Change(row[0], row[1], row[2], row[3], row[4] or "", row[5], row[6], reverts, row[8])


def _items(db: Database, change_ids: Sequence[int]) -> dict[int, list[Item]]:
    out: dict[int, list[Item]] = {}
    ids = list(change_ids)
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        for r in db.execute(
            "SELECT id, change_id, kind, op, row_id, entity_id, other_id, before, after FROM change_item "
            f"WHERE change_id IN ({','.join('?' * len(chunk))}) ORDER BY id",
            chunk,
        ):
            out.setdefault(r[1], []).append(
                Item(r[0], r[1], r[2], r[3], r[4], r[5], r[6], json.loads(r[7]) if r[7] else None,
                     json.loads(r[8]) if r[8] else None)
            )
    return out


def load_changes(db: Database, change_ids: Iterable[int], items: bool = True) -> list[Change]:
    """These changes (in order), with their items and summaries."""
    ids = sorted(set(change_ids))
    found: list[Change] = []
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        found += [_change(r) for r in db.execute(_CHANGE_SQL + f"WHERE c.id IN ({','.join('?' * len(chunk))})", chunk)]
    found.sort(key=lambda c: c.id)
    if items:
        _describe(db, found)
    return found


def session_change_ids(db: Database, session_id: int) -> list[int]:
    return [r[0] for r in db.execute("SELECT id FROM change_log WHERE session = ? ORDER BY id", (session_id,))]


def list_sessions(
    db: Database, client: str | None = None, since: str | None = None, unreviewed: bool = False,
    origin: str | None = None, entity_id: int | None = None, kind: str | None = None, limit: int = 200,
    items: bool = True, max_changes: int | None = None, budget: int | None = None, session: int | None = None,
    with_readers: bool = True,
) -> list[Session]:
    """Sessions, newest first, each with its changes that match the filters (sessions without any are left out).

    ``client`` matches the client's name without case; ``since`` is a stored time or date
    (``YYYY-MM-DD``); ``unreviewed`` keeps changes not yet marked reviewed; ``kind`` one of
    entity/observation/relation/reflection; ``entity_id`` changes that touched that entity; ``with_readers``
    False leaves out the sessions that only read.
    """
    if not has_log(db):
        return []
    # Commits with no visible change (vectors only) are not activity a person reads.
    where, params = ["EXISTS (SELECT 1 FROM change_item v WHERE v.change_id = c.id)"], []
    if session is not None:
        where.append("c.session = ?")
        params.append(session)
    if client:
        where.append("s.client = ? COLLATE NOCASE")
        params.append(client)
    if origin:
        where.append("c.origin = ?")
        params.append(origin)
    if since:
        where.append("c.at >= ?")
        params.append(since)
    if unreviewed:
        where.append("c.reviewed_at IS NULL")
    if entity_id is not None:
        where.append("c.id IN (SELECT change_id FROM change_item WHERE entity_id = ? UNION "
                     "SELECT change_id FROM change_item WHERE other_id = ?)")
        params += [entity_id, entity_id]
    if kind:
        where.append("EXISTS (SELECT 1 FROM change_item i WHERE i.change_id = c.id AND i.kind = ?)")
        params.append(kind)
    # A session that only read is listed too, unless the filters are about changes.
    readers, reader_params = "", []
    if with_readers and not (unreviewed or kind or entity_id is not None):
        readers = " OR (s.id IN (SELECT r.session FROM activity_read r WHERE r.at >= ?)"
        reader_params = [since or ""]
        for column, value in (("s.id", session), ("s.client", client), ("s.origin", origin)):
            if value is not None and value != "":
                readers += f" AND {column} = ?" + (" COLLATE NOCASE" if column == "s.client" else "")
                reader_params.append(value)
        readers += ")"
    session_rows = db.execute(
        "SELECT s.id, s.origin, s.client, s.client_version, s.started FROM activity_session s "
        "WHERE s.id IN (SELECT c.session FROM change_log c LEFT JOIN activity_session s ON s.id = c.session "
        f"WHERE {' AND '.join(where)}){readers} ORDER BY s.id DESC LIMIT ?",
        (*params, *reader_params, limit),
    ).fetchall()
    sessions = [Session(*r) for r in session_rows]
    if not sessions:
        return []
    by_id = {s.id: s for s in sessions}
    if max_changes is None:
        marks = ",".join("?" * len(by_id))
        changes = [
            _change(r)
            for r in db.execute(_CHANGE_SQL + f"WHERE {' AND '.join(where)} AND c.session IN ({marks}) ORDER BY c.id",
                                (*params, *by_id))
        ]
    else:  # the newest ``max_changes`` of each session (the panel), each session through its index
        changes = []
        left = budget if budget is not None else len(by_id) * max_changes
        for sid in by_id:  # newest sessions first, until the budget of changes is spent
            if left <= 0:
                by_id[sid].loaded = False
                continue
            want = min(max_changes, left)
            rows = db.execute(_CHANGE_SQL + f"WHERE {' AND '.join(where)} AND c.session = ? ORDER BY c.id DESC LIMIT ?",
                              (*params, sid, want + 1)).fetchall()
            by_id[sid].more = len(rows) > want
            changes += [_change(r) for r in reversed(rows[:want])]
            left -= len(rows[:want])
        counts = db.execute(
            # Vector-only commits are born reviewed with an empty mark (changes.write_log): not counted.
            f"SELECT session, count(nullif(reviewed_at, '')) + count(*) - count(reviewed_at), "
            f"count(*) - count(reviewed_at) FROM change_log WHERE session IN "
            f"({','.join('?' * len(by_id))}) GROUP BY session", tuple(by_id)).fetchall()
        for sid, total, unreviewed in counts:
            by_id[sid].total, by_id[sid].unreviewed = total, unreviewed
        for sid, n in db.execute(
            f"SELECT session, count(*) FROM activity_read WHERE session IN ({','.join('?' * len(by_id))}) "
            "GROUP BY session", tuple(by_id)):
            by_id[sid].reads = n
    if items:
        _describe(db, changes)
    for c in changes:
        by_id[c.session].changes.append(c)
    return sessions


def entity_history(db: Database, entity_id: int, limit: int = 50) -> list[Change]:
    """The changes that touched this entity (its row, observations or relations): the newest ``limit``, oldest first."""
    if not has_log(db):
        return []
    ids = [r[0] for r in db.execute(
        "SELECT change_id FROM change_item WHERE entity_id = ? UNION SELECT change_id FROM change_item WHERE other_id = ? "
        "ORDER BY 1 DESC LIMIT ?", (entity_id, entity_id, limit)
    )]
    changes = load_changes(db, ids)
    for c in changes:  # an import or a merge touched many: the history says what it did to this one
        mine = [it for it in c.items if entity_id in (it.entity_id, it.other_id)]
        others = len(c.entity_ids() - {entity_id})
        if mine and len(mine) < len(c.items):
            c.summary = summarize(replace(c, items=mine)) + (
                f" (the same change touched {counted(others, 'other entity')})" if others else "")
    return changes


def client_names(db: Database) -> list[str]:
    """The names of every client that has a session, for the panel's filter."""
    if not has_log(db):
        return []
    return [r[0] for r in db.execute("SELECT DISTINCT client FROM activity_session WHERE client != '' ORDER BY 1")]


def unreviewed_count(db: Database) -> int:
    """Assistant changes not yet marked reviewed (the activity badge)."""
    if not has_log(db):
        return 0
    return int(db.scalar("SELECT count(*) FROM change_log WHERE origin = ? AND reviewed_at IS NULL", (ORIGIN_ASSISTANT,)))


def mark_reviewed(db: Database, change_ids: Iterable[int] | None = None, session: int | None = None,
                  everything: bool = False) -> int:
    """Mark changes reviewed (these, a session's, or all); returns how many were not already. Not itself a change."""
    now = now_utc()
    done = 0
    with db.transaction():
        if everything:
            db.execute("UPDATE change_log SET reviewed_at = ? WHERE reviewed_at IS NULL", (now,))
            done = db.conn.changes()
        elif session is not None:
            db.execute("UPDATE change_log SET reviewed_at = ? WHERE reviewed_at IS NULL AND session = ?", (now, session))
            done = db.conn.changes()
        else:
            ids = sorted(set(change_ids or ()))
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                db.execute(f"UPDATE change_log SET reviewed_at = ? WHERE reviewed_at IS NULL AND id IN "
                           f"({','.join('?' * len(chunk))})", (now, *chunk))
                done += db.conn.changes()
    return int(done)


def record_reads(db: Database, tool: str, entity_ids: Iterable[int | None]) -> None:
    """Note which entities an assistant was given (best effort: a busy file skips the note)."""
    ids = list(dict.fromkeys(entity_ids))
    if not ids or db.readonly or not has_log(db):
        return
    try:
        with db.transaction(retry=False):
            session = db.activity.session_for_commit(now_utc())
            if session is None:
                return
            now = now_utc()
            db.executemany("INSERT INTO activity_read(session, entity_id, tool, at) VALUES (?, ?, ?, ?)",
                           [(session, i, tool, now) for i in ids])
    except Exception as exc:  # a read must never fail because its note could not be written
        logger.info("reads not recorded: %s", exc)


@dataclass
class ReadCount:
    client: str
    count: int
    last: str


def reads_of(db: Database, entity_id: int, since: str | None = None) -> list[ReadCount]:
    """How often each assistant was given this entity (read_graph counts as a read of everything, but not of
    an entity private now: no assistant is given one)."""
    if not has_log(db):
        return []
    private = "private" in {r[1] for r in db.execute("PRAGMA main.table_info(entities)")} and bool(
        db.scalar("SELECT private FROM main.entities WHERE id = ?", (entity_id,)))
    rows = db.execute(
        "SELECT coalesce(nullif(s.client, ''), s.origin), count(*), max(r.at) FROM activity_read r "
        "JOIN activity_session s ON s.id = r.session WHERE (r.entity_id = ? OR (r.entity_id IS NULL AND NOT ?)) "
        "AND r.at >= ? GROUP BY 1 ORDER BY 2 DESC",
        (entity_id, private, since or ""),
    )
    return [ReadCount(*r) for r in rows]


def session_reads(db: Database, session_id: int) -> list[tuple[str, int | None, str]]:
    """(tool, entity id or None for the whole graph, time) of what a session read."""
    return [tuple(r) for r in db.execute(
        "SELECT tool, entity_id, at FROM activity_read WHERE session = ? ORDER BY rowid", (session_id,)
    )]


# -- words ------------------------------------------------------------------------------------


def _names(db: Database, changes: Sequence[Change]) -> dict[int, str]:
    """Entity names for the ids these changes mention: current ones, else the last the log knew."""
    names: dict[int, str] = {}
    for c in changes:
        for it in c.items:
            if it.kind == "entity":
                names[it.row_id] = it.state.get("name", names.get(it.row_id, ""))
    wanted = sorted({i for c in changes for it in c.items for i in (it.entity_id, it.other_id) if i is not None})
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        for i, name in db.execute(f"SELECT id, name FROM entities WHERE id IN ({','.join('?' * len(chunk))})", chunk):
            names[i] = name
    return names


def _describe(db: Database, changes: list[Change]) -> None:
    by_id = {c.id: c for c in changes}
    for cid, items in _items(db, list(by_id)).items():
        by_id[cid].items = items
    names = _names(db, changes)
    for c in changes:
        c.names = {i: names[i] for i in c.entity_ids() | {it.row_id for it in c.items if it.kind == "entity"}
                   if i in names}
        for it in c.items:
            it.summary = describe_item(it, names)
        c.summary = summarize(c)


def set_keep_days(db: Database, days: int) -> None:
    """Set the change log's retention (days); unreviewed assistant changes are kept past it."""
    if not 1 <= days <= MAX_KEEP_DAYS:
        raise ValidationError(f"The activity log keeps changes for 1 to {MAX_KEEP_DAYS:,} days; nothing was changed.")
    with db.transaction():
        db.set_meta(KEEP_DAYS_KEY, str(int(days)))


def kept_past_retention(db: Database) -> int:
    """Unreviewed assistant changes older than the retention: kept until reviewed (the panel says so)."""
    if not has_log(db):
        return 0
    cutoff = (datetime.now(timezone.utc) - timedelta(days=_changes.keep_days(db))).strftime(TIME_FORMAT)
    return int(db.scalar("SELECT count(*) FROM change_log WHERE origin = ? AND reviewed_at IS NULL AND at < ?",
                         (ORIGIN_ASSISTANT, cutoff)))
