"""This device's own writes, kept as the changes of other devices are, so that a rebase can take them back too.

Every write transaction on a graph that syncs (the person's, an assistant's through ``limbic mcp``, an import, a
choice of a conflict) is recorded as it is made with SQLite's session extension: what it wrote to the synced
tables, their bookkeeping, the activity log and history (``rebase.RECORDED``), inverted. Until it is published the
record waits, above every stamp (``PENDING``). A publish gives it its place: the published changes it made, in the
form they travel in, become its steps, and the publish's own transaction (the fields' stamps it set) is recorded
beside it. A late change below them then takes them back like any other device's, and applies them again in clock
order through the same apply (under this device's name in the Activity panel, as the other devices show them).

What cannot be applied again is never taken back: a write whose changes do not all travel (one that wrote only
the log), one too large to keep (``rebase.KEEP_ITEMS`` rows), or one made before this graph joined its folder or
by a program that keeps no record: its stamps become the floor below which nothing is taken back, as before.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING

import apsw

from limbic.engine.store import db as _db
from limbic.engine.sync import rebase, state

if TYPE_CHECKING:
    from limbic.engine.store.db import Database

logger = logging.getLogger(__name__)
PRUNE_EVERY = 64  # records written between two looks at what is kept (rebase.KEEP)
PENDING = "~"  # the place of a record not published yet: above every stamp (stamps are digits)
_SESSION = "_own_session"
_PUBLISH = "own_publish"  # set by a publish on its connection: (low, high, steps) of its own record
_CHOICE = frozenset({"sync_conflicts", "sync_outbox"})  # what choosing the value a conflict already shows writes


def _wanted(db: Database) -> bool:
    return (not db.readonly and not db.activity.origin.startswith(state.SYNC_ORIGIN)
            and db.has_table("sync_replay") and state.joined(db))


def _begin(db: Database) -> None:
    setattr(db, _PUBLISH, None)
    stale = getattr(db, _SESSION, None)
    if stale is not None:  # a transaction rolled back: what it recorded never happened
        stale.close()
        setattr(db, _SESSION, None)
    if not _wanted(db):
        return
    session = apsw.Session(db.conn, "main")
    session.config(apsw.SQLITE_SESSION_OBJCONFIG_ROWID, 1)  # sync_tombstone has no key of its own
    session.table_filter(lambda name: name in rebase.RECORDED)
    session.attach()
    setattr(db, _SESSION, session)


def _keep(db: Database, done) -> None:
    """Before the commit, after the change log's rows are written: the transaction's record, if it logged a change
    or is a publish. A record that cannot be made never stops the write: its changes, unrecorded, raise the floor
    when they are published (``published``), as a write of a program that keeps no record does."""
    try:
        _record(db)
    except Exception:  # noqa: BLE001 - the person's write matters more than its record
        logger.warning("a write was not recorded for sync; a late change below it will go by the rules", exc_info=True)
        setattr(db, _SESSION, None)
        rebase.floor(db)  # nothing seen so far is taken back: what this write did is not known to the records


def _record(db: Database) -> None:
    session = getattr(db, _SESSION, None)
    if session is None:
        return
    setattr(db, _SESSION, None)
    publish = getattr(db, _PUBLISH, None)
    setattr(db, _PUBLISH, None)
    try:
        changeset = session.changeset()
    finally:
        session.close()
    cids, rows, tables = [], 0, set()
    for change in apsw.Changeset.iter(changeset):
        rows += 1
        tables.add(change.name)
        if change.name == "change_log" and change.op == "INSERT":
            cids.append(int(change.new[0]))
    choice = not cids and tables <= _CHOICE  # a conflict settled with the value held: it travels as a choice
    if rows == 0 or (not cids and publish is None and not choice) or rows > rebase.KEEP_ITEMS:
        return  # nothing the order holds; or too large to keep (its changes raise the floor when published)
    first = min(cids, default=int(db.scalar("SELECT coalesce(max(id), 0) + 1 FROM change_log")))
    if publish is not None:
        low, high, steps = publish
        record = (low, high, first, len(steps), json.dumps(steps, separators=(",", ":")), None)
    else:
        record = (PENDING, PENDING, first, len(cids), "[]", json.dumps(cids))
    rebase.ensure(db)
    if db.get_meta(rebase.CUT_KEY) is None:
        rebase.floor(db)  # what was applied before anything was kept cannot be taken back
    db.execute("INSERT INTO sync_replay(low, high, first, count, steps, own, undo) VALUES (?, ?, ?, ?, ?, ?, ?)",
               (*record, apsw.Changeset.invert(changeset)))
    if db.conn.last_insert_rowid() % PRUNE_EVERY == 0:
        rebase.prune(db)


def published(db: Database, changes: list[dict], device: str, seq: int, name: str, at: str) -> None:
    """Inside the publish's transaction: each waiting record whose changes were all published takes its place with
    them as its steps; this publish's record (set here, kept at its commit) holds the changes no write of this
    device made (the person's choices, what each assistant may see). Published changes that no record holds raise
    the floor: they cannot be taken back."""
    if not changes:
        return
    rebase.ensure(db)
    by_write: dict[int, list[list]] = {}  # the changes of this device's writes, by their log id
    rest: list[list] = []  # the others: choices, what each assistant may see
    upto = 0
    for index, change in enumerate(changes):
        step = [[str(change.get("stamp") or ""), device, seq, index], device, seq, name, at, change,
                index == len(changes) - 1]
        if change.get("items"):
            by_write.setdefault(int(change.get("cid") or 0), []).append(step)
            upto = max(upto, int(change.get("cid") or 0))
        else:
            rest.append(step)
    high = max((str(c.get("stamp") or "") for c in changes), key=state.norm)
    low = min((str(c.get("stamp") or "") for c in changes), key=state.norm)
    held: set[int] = set()
    for record_id, own in db.execute("SELECT id, own FROM sync_replay WHERE high = ? AND own IS NOT NULL",
                                     (PENDING,)).fetchall():
        cids = json.loads(own)
        if not all(c in by_write for c in cids):
            if all(c <= upto for c in cids):  # a write of which some change does not travel: never taken back
                db.execute("DELETE FROM sync_replay WHERE id = ?", (record_id,))
            continue
        mine = [step for c in cids for step in by_write[c]]
        held.update(cids)
        db.execute("UPDATE sync_replay SET low = ?, high = ?, steps = ?, own = NULL WHERE id = ?",
                   (min((step[0][0] for step in mine), key=state.norm, default=low), high,
                    json.dumps(mine, separators=(",", ":")), record_id))
    unheld = [step[0][0] for c, found in by_write.items() if c not in held for step in found]
    if unheld:
        rebase.floor(db, max(unheld, key=state.norm))
    setattr(db, _PUBLISH, (low, high, rest))


_db.HOOKS.after_begin.append(_begin)
_db.HOOKS.before_commit.append(_keep)
