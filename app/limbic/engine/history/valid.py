"""Valid time: when an observation or a relation held in the world, set on them and asked of the graph.

An observation or a relation may carry ``valid_from`` and ``valid_until`` (a date, or a date and
time, UTC; a bare ``valid_until`` date holds to the end of that day). Where a bound is missing the
graph's own knowledge stands in: a superseded observation held until it was superseded and the one
that replaced it from then; an ended relation held until it ended; anything else is open on that
side. "Valid at" a date keeps every observation and relation whose period meets that date (a bare
date means the whole day), superseded and ended ones included, as the graph knows them now.
"""

from __future__ import annotations

from limbic.engine.errors import NotFoundError, ValidationError
from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.engine.store.values import clean_valid, valid_end


def checked_bounds(valid_from: object, valid_until: object) -> tuple[str | None, str | None]:
    """Both bounds as stored, or one sentence when either is not a date or they are in the wrong order."""
    start, until = clean_valid(valid_from, "valid_from"), clean_valid(valid_until, "valid_until")
    if start is not None and until is not None and valid_end(until) < start:
        raise ValidationError(f"valid_until ({until}) comes before valid_from ({start}).")
    return start, until


def set_observation_validity(graph: Graph, obs_id: int, valid_from: object = None, valid_until: object = None) -> None:
    """Say when an observation held in the world (None leaves that side open)."""
    start, until = checked_bounds(valid_from, valid_until)
    with graph.write():
        entity_id = graph.db.scalar("SELECT entity_id FROM observations WHERE id = ?", (obs_id,))
        if entity_id is None:
            raise NotFoundError(f"There is no observation with id {obs_id}.")
        graph.db.execute("UPDATE observations SET valid_from = ?, valid_until = ? WHERE id = ?", (start, until, obs_id))
        graph.db.note("changed", [entity_id])


def set_relation_validity(graph: Graph, source, target, relation_type: str, valid_from: object = None,
                          valid_until: object = None) -> None:
    """Say when a relation held in the world (None leaves that side open)."""
    start, until = checked_bounds(valid_from, valid_until)
    with graph.write():
        a, b = graph.resolve(source), graph.resolve(target)
        graph.db.execute(
            "UPDATE relations SET valid_from = ?, valid_until = ? WHERE from_entity = ? AND to_entity = ? "
            "AND relation_type = ?", (start, until, a, b, relation_type))
        if graph.db.conn.changes() == 0:
            raise NotFoundError(f"There is no relation '{relation_type}' between those entities.")
        graph.db.note("relations", (a, b))


def day_or_moment(text: str) -> tuple[str, str]:
    """The span a --valid-at date names: a whole day for a bare date, one moment for a time."""
    value = clean_valid(text, "--valid-at")
    if value is None:
        raise ValidationError("--valid-at needs a date: YYYY-MM-DD or YYYY-MM-DD HH:MM:SS (UTC).")
    if len(value) == 10:
        return value + " 00:00:00", value + " 23:59:59"
    return value, value


def _meets(start: str | None, until: str | None, lo: str, hi: str) -> bool:
    end = valid_end(until)
    return (start is None or start <= hi) and (end is None or end >= lo)


def keep_valid_at(db: Database, when: str) -> None:
    """Narrow a graph rebuilt in memory (asof.rebuild) to what held in the world at ``when``."""
    lo, hi = day_or_moment(when)
    replaced_at = {by: at for by, at in db.execute(
        "SELECT superseded_by, superseded_at FROM observations WHERE superseded_by IS NOT NULL")}
    gone, held = [], []
    for obs_id, start, until, superseded_at in db.execute(
            "SELECT id, valid_from, valid_until, superseded_at FROM observations").fetchall():
        start = start or replaced_at.get(obs_id)
        until = until or superseded_at
        (held if _meets(start, until, lo, hi) else gone).append(obs_id)
    rel_gone, rel_held = [], []
    for rel_id, start, until, ended_at in db.execute(
            "SELECT id, valid_from, valid_until, ended_at FROM relations").fetchall():
        (rel_held if _meets(start, until or ended_at, lo, hi) else rel_gone).append(rel_id)
    with db.transaction():
        db.execute("PRAGMA defer_foreign_keys = ON")
        for chunk in _chunks(gone):
            db.execute(f"DELETE FROM observations WHERE id IN ({','.join('?' * len(chunk))})", chunk)
        for chunk in _chunks(held):  # what held then is shown as it was then: current
            db.execute(f"UPDATE observations SET superseded_by = NULL, superseded_at = NULL "
                       f"WHERE id IN ({','.join('?' * len(chunk))})", chunk)
        for chunk in _chunks(rel_gone):
            db.execute(f"DELETE FROM relations WHERE id IN ({','.join('?' * len(chunk))})", chunk)
        for chunk in _chunks(rel_held):
            db.execute(f"UPDATE relations SET active = 1, ended_at = NULL WHERE id IN ({','.join('?' * len(chunk))})",
                       chunk)


def _chunks(ids: list[int], size: int = 500):
    for start in range(0, len(ids), size):
        yield ids[start : start + size]
