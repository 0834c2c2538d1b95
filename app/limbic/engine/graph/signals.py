"""Access and co-occurrence signals: recorded after a search, read back for limbic scoring."""

from __future__ import annotations

import contextlib
import functools
import itertools
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone

import apsw

from limbic.engine.store.db import Database
from limbic.engine.errors import DatabaseError
from limbic.engine.graph.graph import now_utc

logger = logging.getLogger(__name__)


@dataclass
class EntitySignals:
    """What the limbic score needs to know of one candidate."""

    access_count: int = 0
    last_access: str | None = None
    created_at: str | None = None
    status: str | None = None
    access_days: int = 0
    degree: int = 0
    cooc: dict[int, tuple[int, str | None]] = field(default_factory=dict)  # other id -> (co_count, last_co)


@functools.lru_cache(maxsize=65_536)
def _epoch_seconds(stamp: str) -> float | None:
    """A stored UTC timestamp as seconds since the epoch (None when unreadable). Cached: one search
    reads about a thousand (every candidate's and every co-occurrence's), mostly the same ones again."""
    try:
        return datetime.fromisoformat(stamp).replace(tzinfo=timezone.utc).timestamp()  # much faster than strptime
    except ValueError:
        return None


def hours_since(stamp: str | None, now: datetime) -> float:
    """Hours between a stored timestamp and now; 0 for a missing or unreadable one."""
    if not stamp:
        return 0.0
    then = _epoch_seconds(stamp)
    if then is None:
        return 0.0
    return max(0.0, (now.timestamp() - then) / 3600.0)


def load_signals(db: Database, ids: Sequence[int], known: dict[int, EntitySignals] | None = None) -> dict[int, EntitySignals]:
    """Signals of a batch of candidates, in a handful of queries.

    ``known``: signals an earlier call loaded for some of them (search loads the meaning branch's
    while the text branch is still running); only the rest are read, and the co-occurrences
    between the rest and every candidate.
    """
    ids = list(dict.fromkeys(ids))
    if known:
        out = {i: known[i] for i in ids if i in known}
        new = [i for i in ids if i not in known]
        out.update(load_signals(db, new))
        if new and out:
            _add_cooc(db, out, new, [i for i in ids if i in known])
        return out
    out = {i: EntitySignals() for i in ids}
    if not ids:
        return out
    marks = ",".join("?" * len(ids))
    for entity_id, created, status in db.execute(f"SELECT id, created_at, status FROM entities WHERE id IN ({marks})", ids):
        out[entity_id].created_at, out[entity_id].status = created, status
    with contextlib.suppress(apsw.SQLError):  # a missing signal table (check --repair) means no signals
        for entity_id, count, last in db.execute(
            f"SELECT entity_id, access_count, last_access FROM entity_access WHERE entity_id IN ({marks})", ids
        ):
            out[entity_id].access_count, out[entity_id].last_access = int(count), last
    with contextlib.suppress(apsw.SQLError):  # a missing signal table (check --repair) means no signals
        for entity_id, days in db.execute(
            f"SELECT entity_id, count(*) FROM entity_access_log WHERE entity_id IN ({marks}) GROUP BY entity_id", ids
        ):
            out[entity_id].access_days = int(days)
    for entity_id, degree in _degrees(db, marks, ids):
        out[entity_id].degree = int(degree)
    with contextlib.suppress(apsw.SQLError):  # a missing signal table (check --repair) means no signals
        for a, b, count, last in db.execute(
            f"SELECT entity_a_id, entity_b_id, co_count, last_co FROM co_occurrences "
            f"WHERE entity_a_id IN ({marks}) AND entity_b_id IN ({marks})",
            ids + ids,
        ):
            out[a].cooc[b] = (int(count), last)
            out[b].cooc[a] = (int(count), last)
    return out


_DEGREES = (
    "SELECT e, count(*) FROM (SELECT from_entity AS e FROM relations{0} WHERE active = 1 AND from_entity IN ({1}) "
    "UNION ALL SELECT to_entity FROM relations{2} WHERE active = 1 AND to_entity IN ({1})) GROUP BY e"
)


def _degrees(db: Database, marks: str, ids: list[int]) -> list[tuple[int, int]]:
    """(entity id, active relations) from the partial indexes of active relations (a fifth of the
    time of reading each relation), or from the table in a file that lacks them."""
    try:
        return db.execute(_DEGREES.format(" INDEXED BY relations_active_from", marks, " INDEXED BY relations_active_to"),
                          ids + ids).fetchall()
    except apsw.SQLError:  # no such index: `limbic check --repair` recreates them
        return db.execute(_DEGREES.format("", marks, ""), ids + ids).fetchall()


def _add_cooc(db: Database, out: dict[int, EntitySignals], new: list[int], old: list[int]) -> None:
    """The co-occurrences between ``new`` and ``old`` candidates (those within each are loaded)."""
    if not old:
        return
    a_marks, b_marks = ",".join("?" * len(new)), ",".join("?" * len(old))
    with contextlib.suppress(apsw.SQLError):  # a missing signal table (check --repair) means no signals
        for a, b, count, last in db.execute(
            f"SELECT entity_a_id, entity_b_id, co_count, last_co FROM co_occurrences "
            f"WHERE entity_a_id IN ({a_marks}) AND entity_b_id IN ({b_marks}) UNION ALL "
            f"SELECT entity_a_id, entity_b_id, co_count, last_co FROM co_occurrences "
            f"WHERE entity_a_id IN ({b_marks}) AND entity_b_id IN ({a_marks})",
            new + old + old + new,
        ):
            out[a].cooc[b] = (int(count), last)
            out[b].cooc[a] = (int(count), last)


def record_access(db: Database, ids: Sequence[int], together: Sequence[int] | None = None) -> bool:
    """Count an access of each entity in ``ids`` and a co-occurrence of each pair in ``together``.

    ``together`` defaults to ``ids`` (a search: everything returned was used together); the app
    passes the entity opened as ``ids`` and the hits shown beside it as ``together``. It waits for
    a busy file like every write; returns False (and logs) when it still could not be written
    (read-only, a damaged or missing signal table); recording never fails a search.
    """
    ids = list(dict.fromkeys(ids))
    pairs = ids if together is None else list(dict.fromkeys(together))
    if not (ids or len(pairs) > 1) or db.readonly:
        return False
    now = now_utc()
    today = now[:10]
    try:
        # The same waiting as every other write: a busy file delays the signals, it does not drop them.
        with db.transaction():
            for entity_id in ids:
                db.execute(
                    "INSERT INTO entity_access(entity_id, access_count, last_access) VALUES (?, 1, ?) "
                    "ON CONFLICT(entity_id) DO UPDATE SET access_count = access_count + 1, last_access = excluded.last_access",
                    (entity_id, now),
                )
                db.execute(
                    "INSERT INTO entity_access_log(entity_id, access_date, access_count) VALUES (?, ?, 1) "
                    "ON CONFLICT(entity_id, access_date) DO UPDATE SET access_count = access_count + 1",
                    (entity_id, today),
                )
            for a, b in itertools.combinations(sorted(pairs), 2):
                db.execute(
                    "INSERT INTO co_occurrences(entity_a_id, entity_b_id, co_count, last_co) VALUES (?, ?, 1, ?) "
                    "ON CONFLICT(entity_a_id, entity_b_id) DO UPDATE SET co_count = co_count + 1, last_co = excluded.last_co",
                    (a, b, now),
                )
        return True
    except (apsw.Error, DatabaseError) as exc:
        # Never the user's problem: logged for diagnosis, not shown (the search itself succeeded).
        logger.info("access signals not recorded (%s)", type(exc).__name__)
        return False
