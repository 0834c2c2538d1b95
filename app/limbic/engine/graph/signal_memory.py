"""Each graph's usage signals kept in memory per connection: read once, followed, never re-read per search.

What the limbic score needs of a candidate (when it was made, its status, its active relations, how
often, on how many days and when it was last used, how often it came up with each other entity)
was read for every candidate of every search: five indexed reads over ~130 ids, about a sixth of a
search on a 200-entity graph. Now an entity's signals are read the first time it is a candidate and
kept for the connection:

- **What the change log tells** (``changes.read_since``: entities added, changed or removed, either
  end of a relation added or removed; everything when it says too much changed) is dropped and read
  again when next needed: creation time, status, degree. Writes by other programs, undo and sync all
  reach the log, as they reach the vocabulary (``engine/search/lexicon.py``).
- **Use is not in the log** (recording a search writes no row of it). This connection's own recording
  (``signals.record_access``) is applied here as it is written, the same arithmetic as its SQL; any
  other write (another program's, which moves the file's data version, or an import, a merge, an
  undo on this one) drops the use kept, and it is read again as candidates need it.

Each entity's co-occurrences are kept whole (every other entity it came up with), so the pairs
among any set of candidates are known without reading, and a recorded pair updates both ends exactly.
"""

from __future__ import annotations

import contextlib
import functools
import math
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from datetime import datetime, timezone

import apsw

from limbic.engine.store import changes
from limbic.engine.store.db import Database

if TYPE_CHECKING:
    import numpy as np

MAX_KEPT = 20_000  # entities kept at most, about 12 MB (then the memory starts again)
CHUNK = 500  # ids per read
_memories: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


@dataclass(slots=True)
class Facts:
    """What the change log follows: creation time, status, active relations, whether it has observations."""

    created_at: str | None = None
    status: str | None = None
    degree: int = 0
    created_s: float = math.nan  # created_at in seconds since the epoch (NaN: none, or unreadable)
    bare: bool = False  # only a name: its full-text row holds no observation
    text_key: int | None = None  # the hash of its full-text row's name and text (None: it has no row)


@dataclass(slots=True)
class Use:
    """What recording a search changes: accesses, days of use, co-occurrences (every other entity, whole)."""

    access_count: int = 0
    last_access: str | None = None
    last_s: float = math.nan  # last_access in seconds since the epoch (NaN: none, or unreadable)
    access_days: int = 0
    last_day: str | None = None  # the latest day of use (a day already counted is not counted again)
    cooc: dict[int, tuple[int, str | None]] = field(default_factory=dict)  # other id -> (co_count, last_co)
    _arrays: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
    _where: dict[int, int] | None = None  # other id -> its place in the arrays

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(other ids, log2(1 + co_count), seconds of last_co or NaN), made once and then updated in place."""
        if self._arrays is None:
            import numpy as np  # here, not at import: the window's module loads this before numpy may load

            others = np.fromiter(self.cooc.keys(), dtype=np.int64, count=len(self.cooc))
            weights = np.array([math.log2(1 + count) for count, _ in self.cooc.values()], dtype=np.float64)
            stamps = np.array([_seconds(last) for _, last in self.cooc.values()], dtype=np.float64)
            self._arrays = (others, weights, stamps)
            self._where = {other: n for n, other in enumerate(self.cooc)}
        return self._arrays

    def came_up_with(self, other: int, now: str, seconds: float) -> None:
        """One more co-occurrence with ``other`` at ``now`` (``seconds``: the same time since the epoch)."""
        count = self.cooc.get(other, (0, None))[0] + 1
        self.cooc[other] = (count, now)
        if self._arrays is not None:
            where = self._where.get(other) if self._where is not None else None
            if where is None:  # a new pair: the arrays are made again when next needed
                self._arrays = self._where = None
            else:
                self._arrays[1][where] = math.log2(1 + count)
                self._arrays[2][where] = seconds


@functools.lru_cache(maxsize=65_536)
def epoch_seconds(stamp: str) -> float | None:
    """A stored UTC timestamp as seconds since the epoch (None when unreadable). Cached: the same
    stamps come back again and again (every candidate's, every co-occurrence's)."""
    try:
        return datetime.fromisoformat(stamp).replace(tzinfo=timezone.utc).timestamp()  # much faster than strptime
    except ValueError:
        return None


def _seconds(stamp: str | None) -> float:
    value = epoch_seconds(stamp) if stamp else None
    return math.nan if value is None else value


class SignalMemory:
    """One connection's signals of the entities searched so far, current as of ``version``."""

    def __init__(self) -> None:
        self.facts: dict[int, Facts] = {}
        self.use: dict[int, Use] = {}
        self.version: tuple[int, int] | None = None
        self.cursor = changes.Cursor()
        self.reads = 0  # batches read from the file (tests: nothing is read again when nothing changed)
        self.rows: int | None = None  # how many entities the full-text index holds (``flat_terms.text_rows``)
        # The versions of the file between which only this connection's recording was written, the
        # current one among them: what else follows the file (the vocabulary) need not look again.
        self.quiet: set[tuple[int, int]] = set()

    def refresh(self, db: Database) -> None:
        """Drop what changed since the last look (nothing to do when no one wrote since)."""
        version = (db.data_version(), db.conn.total_changes())
        if version == self.version:
            return
        self.quiet = {version}
        if self.version is None:
            self.cursor = changes.start_cursor(db)
        else:
            cs = changes.read_since(db, self.cursor, skip_own=False)
            if cs.full:
                self.facts.clear()
            else:
                for entity_id in cs.touched():
                    self.facts.pop(entity_id, None)
            self.use.clear()  # not in the log: any write but this connection's recording may have changed it
            self.rows = None
        self.version = version

    def facts_of(self, db: Database, ids: Sequence[int]) -> dict[int, Facts]:
        """These entities' facts (as ``of``)."""
        if db.in_transaction:
            return _read_facts(db, ids)
        self.refresh(db)
        if len(self.facts) + len(ids) > MAX_KEPT:
            self.facts.clear()
        missing = [i for i in ids if i not in self.facts]
        if missing:
            self.facts.update(_read_facts(db, missing))
            self.reads += 1
        return self.facts

    def of(self, db: Database, ids: Sequence[int]) -> tuple[dict[int, Facts], dict[int, Use]]:
        """These entities' facts and use, read only for those not kept.

        Inside a write transaction everything is read and nothing kept: what it wrote may still be rolled back.
        """
        if db.in_transaction:
            return _read_facts(db, ids), _read_use(db, ids)
        self.refresh(db)
        if len(self.use) + len(ids) > MAX_KEPT:
            self.use.clear()
        self.facts_of(db, ids)
        use_missing = [i for i in ids if i not in self.use]
        if use_missing:
            self.use.update(_read_use(db, use_missing))
            self.reads += 1
        return self.facts, self.use

    def synced(self, db: Database) -> tuple[int, int] | None:
        """The current version when the memory holds everything up to now (None otherwise)."""
        if self.version is None or db.in_transaction:
            return None
        version = (db.data_version(), db.conn.total_changes())
        return version if version == self.version else None

    def recorded(self, db: Database, before: tuple[int, int], ids: Iterable[int], pairs: Sequence[int],
                 now: str) -> None:
        """Apply what ``signals.record_access`` just committed (``before``: ``synced`` before it began).

        Only when nothing else was written in between (the data version is where it was); otherwise
        the next look drops the use kept, as for any other write.
        """
        after = (db.data_version(), db.conn.total_changes())
        if after[0] != before[0] or self.version != before:
            return
        today = now[:10]
        seconds = _seconds(now)
        for entity_id in ids:
            use = self.use.get(entity_id)
            if use is None:
                continue
            use.access_count += 1
            use.last_access, use.last_s = now, seconds
            if use.last_day is None or use.last_day < today:
                use.access_days += 1
                use.last_day = today
            elif use.last_day > today:  # a day of use later than today (another clock): read it again
                del self.use[entity_id]
        ordered = sorted(pairs)
        for n, a in enumerate(ordered):
            for b in ordered[n + 1:]:
                for one, other in ((a, b), (b, a)):
                    use = self.use.get(one)
                    if use is not None:
                        use.came_up_with(other, now, seconds)
        self.version = after
        if len(self.quiet) > 10_000:
            self.quiet.clear()
        self.quiet.add(after)

    def only_recorded_since(self, db: Database, version: tuple[int, int]) -> bool:
        """True when nothing but this connection's recording of searches was written since ``version``
        (a ``(data_version, total_changes)`` pair a follower of the file last looked at)."""
        if db.in_transaction:
            return False
        self.refresh(db)
        return version in self.quiet


def memory(db: Database) -> SignalMemory:
    """This connection's memory of signals (made on first use)."""
    mem = _memories.get(db)
    if mem is None:
        mem = _memories[db] = SignalMemory()
    return mem


def existing(db: Database) -> SignalMemory | None:
    """The memory when this connection has one (recording keeps it current; none is made for it)."""
    return _memories.get(db)


def _chunks(ids: Sequence[int]) -> Iterable[tuple[list[int], str]]:
    for start in range(0, len(ids), CHUNK):
        part = list(ids[start:start + CHUNK])
        yield part, ",".join("?" * len(part))


def _read_facts(db: Database, ids: Sequence[int]) -> dict[int, Facts]:
    out = {i: Facts() for i in ids}
    for part, marks in _chunks(ids):
        for entity_id, created, status in db.execute(
                f"SELECT id, created_at, status FROM entities WHERE id IN ({marks})", part):
            out[entity_id].created_at, out[entity_id].status = created, status
            out[entity_id].created_s = _seconds(created)
        for entity_id, degree in _degrees(db, marks, part):
            out[entity_id].degree = int(degree)
        for entity_id, empty, text in db.execute(
                f"SELECT rowid, obs_text = '', name || ' ' || obs_text FROM entity_fts WHERE rowid IN ({marks})", part):
            if entity_id in out:
                out[entity_id].bare, out[entity_id].text_key = bool(empty), hash(text or "")
    return out


def _read_use(db: Database, ids: Sequence[int]) -> dict[int, Use]:
    out = {i: Use() for i in ids}
    for part, marks in _chunks(ids):
        with contextlib.suppress(apsw.SQLError):  # a missing signal table (check --repair) means no signals
            for entity_id, count, last in db.execute(
                    f"SELECT entity_id, access_count, last_access FROM entity_access WHERE entity_id IN ({marks})", part):
                out[entity_id].access_count, out[entity_id].last_access = int(count), last
                out[entity_id].last_s = _seconds(last)
        with contextlib.suppress(apsw.SQLError):
            for entity_id, days, last_day in db.execute(
                    f"SELECT entity_id, count(*), max(access_date) FROM entity_access_log "
                    f"WHERE entity_id IN ({marks}) GROUP BY entity_id", part):
                out[entity_id].access_days, out[entity_id].last_day = int(days), last_day
        with contextlib.suppress(apsw.SQLError):
            for a, b, count, last in db.execute(
                    f"SELECT entity_a_id, entity_b_id, co_count, last_co FROM co_occurrences WHERE entity_a_id IN ({marks}) "
                    f"UNION ALL SELECT entity_a_id, entity_b_id, co_count, last_co FROM co_occurrences "
                    f"WHERE entity_b_id IN ({marks})", part + part):
                if a in out:
                    out[a].cooc[b] = (int(count), last)
                if b in out:
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
