"""Access and co-occurrence signals: recorded after a search, read back for limbic scoring."""

from __future__ import annotations

import itertools
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone

import apsw

from limbic.engine.store.db import Database
from limbic.engine.errors import DatabaseError
from limbic.engine.graph import signal_memory
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


epoch_seconds = signal_memory.epoch_seconds  # a stored UTC timestamp as seconds since the epoch (None: unreadable)


def hours_since(stamp: str | None, now: datetime) -> float:
    """Hours between a stored timestamp and now; 0 for a missing or unreadable one."""
    if not stamp:
        return 0.0
    then = epoch_seconds(stamp)
    if then is None:
        return 0.0
    return max(0.0, (now.timestamp() - then) / 3600.0)


def load_signals(db: Database, ids: Sequence[int]) -> dict[int, EntitySignals]:
    """Signals of a batch of candidates, with their co-occurrences among them.

    Read from this connection's memory of signals (``signal_memory``): only what it does not hold
    yet is read from the file.
    """
    ids = list(dict.fromkeys(ids))
    facts, use = signal_memory.memory(db).of(db, ids)
    wanted = set(ids)
    out = {}
    for i in ids:
        f, u = facts[i], use[i]
        out[i] = EntitySignals(u.access_count, u.last_access, f.created_at, f.status, u.access_days, f.degree,
                               {o: v for o, v in u.cooc.items() if o in wanted and o != i})
    return out


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
    kept = signal_memory.existing(db)
    try:
        before = kept.synced(db) if kept is not None else None
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
        if kept is not None and before is not None:  # the memory follows this connection's own recording
            kept.recorded(db, before, ids, pairs, now)
        return True
    except (apsw.Error, DatabaseError) as exc:
        # Never the user's problem: logged for diagnosis, not shown (the search itself succeeded).
        logger.info("access signals not recorded (%s)", type(exc).__name__)
        return False
