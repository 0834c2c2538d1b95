"""What a commit changed, kept durably so every program on the same file can follow the others.

Each write transaction collects a ``ChangeSet`` while it runs (``Database.changes``). Just before
it commits, the set is written as one row of ``change_log`` and the revision of every entity it
touched goes up by one, in the same transaction: a commit and its record of what it touched are
never apart. A reader that remembers the last row it saw turns the rows after it into one merged
``ChangeSet`` (``read_since``) and refreshes only those entities. The log is pruned to the newest
``KEEP_ROWS`` rows; a reader that fell further behind (or a file restored from a backup, which
carries another epoch) gets ``full=True`` and re-reads everything.
"""

from __future__ import annotations

import json
import logging
import secrets
from datetime import datetime, timedelta, timezone
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from limbic.engine.store import db as _db
from limbic.engine.store.activity import NEXT_CHANGE_SQL
from limbic.engine.store.values import TIME_FORMAT

if TYPE_CHECKING:
    from limbic.engine.store.db import Database

logger = logging.getLogger(__name__)

KEEP_ROWS = 5_000  # the newest rows of change_log are never pruned (readers follow them)
PRUNE_EVERY = 100  # prune when the new row's id is a multiple of this
EPOCH_KEY = "change_epoch"  # changes when the file's history is replaced (a restore)

# Who wrote a change, as stored in change_log.origin and shown to the person.
ORIGIN_APP = "app"
ORIGIN_CLI = "cli"
ORIGIN_ASSISTANT = "assistant"  # an AI assistant through `limbic mcp`
ORIGIN_IMPORT = "import"  # an import of a file (from the app or the CLI)
KEEP_DAYS_KEY = "activity_keep_days"  # retention of the change log, in days (a setting in the file)
DEFAULT_KEEP_DAYS = 180
MAX_KEEP_DAYS = 36_500  # a hundred years; a longer retention cannot be subtracted from today
PRUNED_KEY = "change_pruned_upto"  # the highest change_log id pruned so far
SYNC_JOINED_KEY = "sync_joined"  # set when the graph syncs with other devices (engine/sync/state.py)
SYNC_PUBLISHED_KEY = "sync_published_upto"  # the last change_log id sync has published


@dataclass
class ChangeSet:
    """Entity ids touched by one or more commits, by what happened to them."""

    added: set[int] = field(default_factory=set)
    changed: set[int] = field(default_factory=set)  # name, type, observations or status
    removed: set[int] = field(default_factory=set)
    relations: set[int] = field(default_factory=set)  # either end of a relation added or removed
    vectors: set[int] = field(default_factory=set)  # vector written or dropped
    names: bool = False  # names, entity types or relation types may differ now
    vectors_reset: bool = False  # the vector table was re-created (a change of model)
    full: bool = False  # too much to say: re-read everything
    origins: set[str] = field(default_factory=set)
    counts: dict[str, dict[str, int]] = field(default_factory=dict)  # origin -> {"added": n, ...}
    log_ids: list[int] = field(default_factory=list)  # the change_log rows of these commits (own writes)
    # Entities the open transaction inserted with the revision its commit gives them (a batch of new ones):
    # the commit does not raise it again. Not part of what the set says, nor of its comparisons.
    bumped: set[int] = field(default_factory=set, compare=False, repr=False)
    # What the open transaction wrote before it was cut (``cut``): logged already, heard with the rest at commit.
    earlier: ChangeSet | None = field(default=None, compare=False, repr=False)

    @property
    def empty(self) -> bool:
        return not (
            self.added or self.changed or self.removed or self.relations or self.vectors
            or self.names or self.vectors_reset or self.full
        )

    @property
    def graph_changed(self) -> bool:
        """Something a person sees changed (not only vectors)."""
        return bool(self.added or self.changed or self.removed or self.relations or self.names or self.full)

    def touched(self) -> set[int]:
        """Every entity whose stored state or relations may differ."""
        return self.added | self.changed | self.removed | self.relations

    def touches(self, entity_id: int | None) -> bool:
        return self.full or (entity_id is not None and entity_id in self.touched())

    def merge(self, other: ChangeSet) -> ChangeSet:
        """Fold a later change set into this one (an id added then removed is just removed)."""
        self.removed |= other.removed
        self.added = (self.added | other.added) - other.removed
        self.changed = (self.changed | other.changed) - self.removed - self.added
        self.relations |= other.relations
        self.vectors |= other.vectors
        self.names = self.names or other.names
        self.vectors_reset = self.vectors_reset or other.vectors_reset
        self.full = self.full or other.full
        self.origins |= other.origins
        self.log_ids.extend(other.log_ids)
        for origin, numbers in other.counts.items():
            mine = self.counts.setdefault(origin, {})
            for key, n in numbers.items():
                mine[key] = mine.get(key, 0) + n
        return self

    def tally(self, origin: str) -> None:
        """Record this set's own sizes under ``origin`` (for "3 entities added by an assistant")."""
        self.origins.add(origin)
        self.counts[origin] = {
            "added": len(self.added),
            "changed": len(self.changed - self.added - self.removed),
            "removed": len(self.removed),
        }

    def describe(self, origin: str) -> str:
        """A short phrase of what ``origin`` did, e.g. "3 entities added, 1 changed"; empty if nothing."""
        numbers = self.counts.get(origin, {})
        parts = []
        for key in ("added", "changed", "removed"):
            n = numbers.get(key, 0)
            if n:
                parts.append(f"{n} {'entity' if n == 1 else 'entities'} {key}" if not parts else f"{n} {key}")
        return ", ".join(parts)

    # -- storage -------------------------------------------------------------------------

    def to_json(self) -> str:
        data: dict[str, object] = {}
        for key in ("added", "changed", "removed", "relations", "vectors"):
            ids = getattr(self, key)
            if ids:
                data[key] = sorted(ids)
        if self.names:
            data["names"] = 1
        if self.vectors_reset:
            data["vectors_reset"] = 1
        if self.full:
            data["full"] = 1
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str, origin: str) -> ChangeSet:
        try:
            data = json.loads(text)
        except ValueError:
            return cls(full=True, origins={origin})
        out = cls(
            added=set(data.get("added", ())),
            changed=set(data.get("changed", ())),
            removed=set(data.get("removed", ())),
            relations=set(data.get("relations", ())),
            vectors=set(data.get("vectors", ())),
            names=bool(data.get("names")),
            vectors_reset=bool(data.get("vectors_reset")),
            full=bool(data.get("full")),
        )
        out.tally(origin)
        return out


def write_log(db: Database, cs: ChangeSet) -> None:
    """Inside the committing transaction: one change_log row and the touched entities' revisions.

    Nothing is written for a transaction that changed nothing; one whose rows were recorded by the
    activity triggers but that noted nothing still gets its row (and its entities count as changed).
    """
    recorder = db.activity
    detailed = recorder.ensure_installed()
    change_id = int(db.scalar(NEXT_CHANGE_SQL)) if detailed else None
    if cs.empty:
        if not detailed:
            return
        touched = {r[0] for r in db.execute(
            "SELECT DISTINCT entity_id FROM change_item WHERE change_id = ? AND entity_id IS NOT NULL", (change_id,)
        )}
        if not touched and db.scalar("SELECT 1 FROM change_item WHERE change_id = ? LIMIT 1", (change_id,)) is None:
            return
        cs.changed |= touched
        cs.names = True
    cs.changed -= cs.added | cs.removed
    cs.added -= cs.removed
    bump = sorted((cs.added | cs.changed | cs.relations) - cs.removed - cs.bumped)
    for start in range(0, len(bump), 500):
        chunk = bump[start : start + 500]
        db.execute(f"UPDATE entities SET revision = revision + 1 WHERE id IN ({','.join('?' * len(chunk))})", chunk)
    now = db.moment()  # the time every write of this transaction was stamped with (updated_at)
    if detailed:
        session = recorder.session_for_commit(now)
        # A commit that only wrote vectors has nothing a person reviews: it is born reviewed, with
        # an empty mark that tells it from a reviewed change.
        visible = db.scalar("SELECT 1 FROM change_item WHERE change_id = ? LIMIT 1", (change_id,)) is not None
        db.execute(
            "INSERT INTO change_log(id, at, origin, writer, changes, session, tool, reverts, reviewed_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (change_id, now, db.origin, db.writer_id, cs.to_json(), session, recorder.tool, recorder.reverting,
             None if visible else ""),
        )
        row_id = change_id
    else:
        db.execute(
            "INSERT INTO change_log(at, origin, writer, changes) VALUES (?, ?, ?, ?)",
            (now, db.origin, db.writer_id, cs.to_json()),
        )
        row_id = db.conn.last_insert_rowid()
    cs.log_ids.append(row_id)
    recorder.last_change_id = row_id
    if row_id % PRUNE_EVERY == 0:
        prune(db, detailed)
    cs.tally(db.origin)


def keep_days(db: Database) -> int:
    """How many days the change log keeps a change (``limbic activity --keep DAYS`` sets it)."""
    try:
        # Clamped: a file written before the range was checked may hold a number no date can go back by.
        return min(MAX_KEEP_DAYS, max(0, int(db.get_meta(KEEP_DAYS_KEY) or DEFAULT_KEEP_DAYS)))
    except ValueError:
        return DEFAULT_KEEP_DAYS


def prune(db: Database, detailed: bool) -> int:
    """Drop changes older than the retention, except unreviewed assistant changes; returns how many."""
    cutoff = (datetime.now(timezone.utc) - timedelta(days=keep_days(db))).strftime(TIME_FORMAT)
    keep_unreviewed = " AND NOT (origin = ? AND reviewed_at IS NULL)" if detailed else ""
    params = (cutoff, ORIGIN_ASSISTANT) if detailed else (cutoff,)
    doomed = [r[0] for r in db.execute(
        f"SELECT id FROM change_log WHERE at < ?{keep_unreviewed} ORDER BY id LIMIT 20000", params
    )]
    # The newest rows stay in any case: readers following the log need a recent stretch of it.
    newest = int(db.scalar("SELECT coalesce(max(id), 0) FROM change_log"))
    doomed = [i for i in doomed if i <= newest - KEEP_ROWS]
    if db.get_meta(SYNC_JOINED_KEY):
        # A change not yet published to the sync folder stays until it is: it exists nowhere else.
        published = int(db.get_meta(SYNC_PUBLISHED_KEY) or 0)
        doomed = [i for i in doomed if i <= published]
    for start in range(0, len(doomed), 500):
        chunk = doomed[start : start + 500]
        marks = ",".join("?" * len(chunk))
        if detailed:
            db.execute(f"DELETE FROM change_item WHERE change_id IN ({marks})", chunk)
        db.execute(f"DELETE FROM change_log WHERE id IN ({marks})", chunk)
    if doomed and db.has_table("sync_tombstone"):
        # The global ids of rows deleted by pruned changes name nothing a later change refers to.
        db.execute("DELETE FROM sync_tombstone WHERE change_id <= ?", (max(doomed),))
    if doomed:
        db.set_meta(PRUNED_KEY, str(max(max(doomed), int(db.get_meta(PRUNED_KEY) or 0))))
    return len(doomed)


def epoch(db: Database) -> str:
    """The file's change-history epoch (set by the schema 3 migration, renewed by a restore)."""
    return db.get_meta(EPOCH_KEY) or ""


def new_epoch(db: Database) -> None:
    """Mark the history as replaced (after a restore): every reader re-reads everything."""
    db.set_meta(EPOCH_KEY, secrets.token_hex(8))


@dataclass
class Cursor:
    """Where a reader is in the change log of one file."""

    last_id: int = 0
    epoch: str = ""


def start_cursor(db: Database) -> Cursor:
    """A cursor at the current end of the log: what a reader that just loaded everything knows."""
    if not db.has_table("change_log"):
        return Cursor(0, "")
    return Cursor(int(db.scalar("SELECT coalesce(max(id), 0) FROM change_log")), epoch(db))


def read_since(db: Database, cursor: Cursor, skip_own: bool = True) -> ChangeSet:
    """Merge the rows written after ``cursor`` (by other writers) and move the cursor to the end."""
    if not db.has_table("change_log"):
        return ChangeSet(full=True)
    current_epoch = epoch(db)
    low, high = db.one("SELECT coalesce(min(id), 0), coalesce(max(id), 0) FROM change_log")
    pruned = int(db.get_meta(PRUNED_KEY) or 0)
    out = ChangeSet()
    if (current_epoch != cursor.epoch or high < cursor.last_id or (low > cursor.last_id + 1 and cursor.last_id < high)
            or cursor.last_id < pruned):
        out.full = True
    else:
        for origin, writer, text in db.execute(
            "SELECT origin, writer, changes FROM change_log WHERE id > ? ORDER BY id", (cursor.last_id,)
        ):
            if skip_own and writer == db.writer_id:
                continue
            out.merge(ChangeSet.from_json(text, origin))
    cursor.last_id, cursor.epoch = int(high), current_epoch
    return out


def _log_commit(db: Database, cs: ChangeSet) -> None:
    """Before a write transaction commits: its change_log row, where the file has the log."""
    if db.has_change_log():
        write_log(db, cs)
    if cs.earlier is not None:  # cut: the commit's listeners hear of the whole transaction
        whole = cs.earlier.merge(ChangeSet(**{f: getattr(cs, f) for f in _FIELDS}))
        for name in _FIELDS:
            setattr(cs, name, getattr(whole, name))
        cs.earlier = None


def cut(db: Database) -> None:
    """Inside a write transaction: what it wrote so far becomes a change of its own in the log, under the origin
    set now, and what it writes next another (a sync applying several devices' changes in one transaction names
    each by its device). The transaction still commits or rolls back whole."""
    if db.changes is None:
        return
    _log_commit(db, db.changes)
    db.changes = ChangeSet(earlier=db.changes)


_FIELDS = ("added", "changed", "removed", "relations", "vectors", "names", "vectors_reset", "full", "origins",
           "counts", "log_ids")


# Every connection tracks its write transactions' changes in a ChangeSet and logs them before commit.
_db.HOOKS.new_changes = ChangeSet
_db.HOOKS.before_commit.append(_log_commit)
