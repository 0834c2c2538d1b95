"""Many entities in one write: the look-ups of a batch of names done together, and new entities written
with the same rows, in the same order, as one ``upsert_entity`` after another would write them.

A write of hundreds of entities (an assistant's ``create_entities``, an import) spent most of its time
asking the database, name by name, what a set-based query answers at once: whether a name is taken
exactly, in another case, or as an alias. Here each of those is one query per few hundred names, and
the rows of a new entity (its own, its observations') are inserted without the reads an update needs.
The activity log's and history's triggers fire for each row as they would for single writes.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from limbic.engine.errors import NameTakenError, ValidationError
from limbic.engine.store import trigger_batch
from limbic.engine.store.schema import NEW_GID
from limbic.engine.vectors.entity_text import EntitySource
from limbic.engine.store.values import (DEFAULT_TYPE, MAX_TYPE_CHARS, case_spellings, clean_name, clean_observation,
                                        name_key, shown)

if TYPE_CHECKING:
    from limbic.engine.graph.graph import Graph

ALIASES = "entity_aliases"
CHUNK = 400  # parameters of one IN (...) list
_FOLD_ASCII = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _nocase(text: str) -> str:
    """What SQLite's NOCASE collation compares: the text with A-Z folded, nothing else."""
    return text.translate(_FOLD_ASCII)


@dataclass(frozen=True)
class Holders:
    """Who already goes by a name: each field an entity id, or None."""

    exact: int | None = None  # the entity with exactly this name
    exact_alias: int | None = None  # the entity with exactly this alias
    near: int | None = None  # the entity whose name differs from it only in case (or is it)
    near_alias: int | None = None  # the entity with an alias that differs from it only in case (or is it)

    @property
    def free(self) -> bool:
        return self.exact is None and self.exact_alias is None and self.near is None and self.near_alias is None


_FREE = Holders()  # the answer for most names of a batch, shared


def _chunks(values: Sequence, size: int = CHUNK) -> Iterable[Sequence]:
    for start in range(0, len(values), size):
        yield values[start : start + size]


@functools.lru_cache(maxsize=4096)
def _probes(name: str) -> tuple[str, ...]:
    """The NOCASE forms of ``case_spellings(name)``, each once, in their order (an ASCII name has one)."""
    if name.isascii() and "ss" not in name.lower():
        return (name.lower(),)  # every case spelling folds to it, and no "ss" is also written "ß"
    return tuple(dict.fromkeys(_nocase(s) for s in case_spellings(name)))


def _by_nocase(db, table: str, id_column: str, name_column: str, names: Sequence[str]) -> dict[str, list[tuple[int, str]]]:
    """(id, stored text) of every row whose ``name_column`` NOCASE-equals a spelling of one of ``names``,
    grouped by the NOCASE form of the stored text (as ``name_lookup.by_name_key`` probes, in a few queries)."""
    probes = list(dict.fromkeys(p for n in names for p in _probes(n)))
    found: dict[str, list[tuple[int, str]]] = {}
    for chunk in _chunks(probes):
        marks = ",".join("?" * len(chunk))
        for row_id, stored in db.execute(
            f"SELECT {id_column}, {name_column} FROM {table} WHERE {name_column} COLLATE NOCASE IN ({marks})", chunk,
        ):
            found.setdefault(_nocase(stored), []).append((int(row_id), stored))
    return found


def _near(found: dict[str, list[tuple[int, str]]], name: str) -> int | None:
    """The id ``by_name_key`` would find for ``name`` among the rows ``_by_nocase`` read.

    Several stored names may share the name key (a file written elsewhere): ``by_name_key`` takes the first
    its NOCASE index gives, in the index's order (the NOCASE text, as bytes, then the rowid: the order
    ``_by_nocase`` read each text's rows in), not the first in the order of the probes."""
    if not found:
        return None
    key = name_key(name)
    hits = [(probe.encode(), i, row_id) for probe in _probes(name)
            for i, (row_id, stored) in enumerate(found.get(probe, ())) if name_key(stored) == key]
    return min(hits)[2] if hits else None


def holders(db, names: Sequence[str]) -> dict[str, Holders]:
    """For each name (as ``clean_name`` returns it), who goes by it: the answers of ``exact_id``,
    ``exact_alias_owner``, ``case_variant`` and ``alias_owner`` for every name, in a few queries."""
    names = list(dict.fromkeys(names))
    # The rows of every name in any case: among them the one with exactly the name (NOCASE(name) is one of
    # its probes), so no query of its own finds it.
    near_rows = _by_nocase(db, "entities", "id", "name", names)
    has_aliases = db.scalar("SELECT 1 FROM sqlite_master WHERE name = ?", (ALIASES,)) is not None \
        and db.scalar(f"SELECT 1 FROM {ALIASES} LIMIT 1") is not None
    alias_rows = _by_nocase(db, ALIASES, "entity_id", "alias", names) if has_aliases else {}
    out: dict[str, Holders] = {}
    for name in names:
        folded = _nocase(name)
        exact = next((row_id for row_id, stored in near_rows.get(folded, ()) if stored == name), None)
        exact_alias = next((owner for owner, stored in alias_rows.get(folded, ()) if stored == name), None)
        held = (exact, exact_alias, _near(near_rows, name), _near(alias_rows, name))
        out[name] = _FREE if held == (None, None, None, None) else Holders(*held)
    return out


# A new entity's observations are noted right after it (trigger_batch writes the log's rows of both in one pass).
FAMILY = trigger_batch.Family("entities", "observations", "entity_id")
DEFER_ROWS = 32  # rows (entities and observations) from which a batch's triggers run once for all of them


@contextlib.contextmanager
def _row_by_row():
    yield trigger_batch.Noted(False)


LAST_ROWID = 2**63 - 1  # past it SQLite gives a new row a random id


def _next_ids(db, entities: int, observations: int) -> tuple[int, int] | None:
    """The ids SQLite would give the next new entity and observation (one past each table's largest), when the
    batch's rows all fit below the largest id; else None."""
    first = db.one("SELECT (SELECT coalesce(max(id), 0) FROM entities), (SELECT coalesce(max(id), 0) FROM observations)")
    entity_id, observation_id = int(first[0]) + 1, int(first[1]) + 1
    if entity_id + entities > LAST_ROWID or observation_id + observations > LAST_ROWID:
        return None
    return entity_id, observation_id


@dataclass(frozen=True)
class _Insert:
    sql: str  # the row's values as parameters, its id given by SQLite
    with_id: str  # the same with the id as the first parameter


def _insert(table: str, columns: Sequence[str], gid: bool, fixed: dict[str, str] | None = None) -> _Insert:
    """The INSERT of a new row of ``table``: ``columns`` as parameters, ``fixed`` columns as SQL, and its global id
    (``gid``) given in the row itself, as the schema's trigger would give it by an update after."""
    fixed = {**(fixed or {}), **({"gid": NEW_GID} if gid else {})}
    names = ", ".join([*columns, *fixed])
    values = ", ".join(["?"] * len(columns) + list(fixed.values()))
    return _Insert(f"INSERT INTO {table}({names}) VALUES ({values})", f"INSERT INTO {table}(id, {names}) VALUES (?, {values})")


def _has_gids(db) -> bool:
    """Entities and observations carry global ids (schema 7 and later)."""
    return all("gid" in {r[1] for r in db.execute(f"PRAGMA table_info({t})")} for t in ("entities", "observations"))


def create_new_entities(graph: Graph, items: Sequence[tuple[str, str | None, Sequence[str]]],
                        kind: str = "note", checked: bool = False) -> list[int]:
    """Create entities whose names nobody goes by (name, type, observations each); their ids, in order.

    The rows are those ``upsert_entity`` writes for a new name, one entity after the other (its row,
    then its observations, a repeated text once), in one transaction; the full-text rows and the
    vector bookkeeping of all of them are brought up to date together when the write ends. A name
    that is taken (exactly, in another case, as an alias) or repeated is refused and nothing is written.
    ``checked``: the caller cleaned every value (``clean_name``, ``clean_observation``) and found every
    name free and once in the batch (``holders``), in the same transaction.
    """
    rows = []
    for name, entity_type, observations in items:
        if not checked:
            name = clean_name(name)
            entity_type = clean_name(entity_type, "type", MAX_TYPE_CHARS) if entity_type is not None else None
            observations = [clean_observation(o) for o in observations]
        rows.append((name, DEFAULT_TYPE if entity_type is None else entity_type, list(dict.fromkeys(observations))))
    keys: set[str] = set()
    for name, _, _ in [] if checked else rows:
        if name_key(name) in keys:
            raise ValidationError(f"“{shown(name)}” is given twice (names that differ only in case are one name).")
        keys.add(name_key(name))
    db = graph.db
    ids: list[int] = []
    with graph.write():
        for name, held in ({} if checked else holders(db, [r[0] for r in rows])).items():
            if not held.free:
                raise NameTakenError(f"An entity or alias named “{shown(name)}” already exists.")
        now = db.moment()
        execute, last = db.conn.execute, db.conn.last_insert_rowid
        # The global id given in the row itself: what the schema's trigger would give it by an update after.
        has_gids = _has_gids(db)
        # The revision the commit's change log gives a new entity (0, then one up), written with the row
        # rather than by an update of every new row before the commit; the log then leaves them alone.
        bumped = getattr(db.changes, "bumped", None) if db.has_change_log() else None
        add_entity = _insert("entities", ("name", "entity_type", "created_at", "updated_at"), has_gids,
                             {"revision": "1"} if bumped is not None else {})
        add_observation = _insert("observations", ("entity_id", "content", "kind", "created_at"), has_gids)
        # The log's rows all at once, for a batch big enough to pay for taking its triggers away and back.
        deferring = sum(1 + len(r[2]) for r in rows) >= DEFER_ROWS
        changed_before = db.conn.total_changes()
        with trigger_batch.deferred(db, ("entities", "observations"), FAMILY) if deferring else _row_by_row() as inserted:
            first = _next_ids(db, len(rows), sum(len(r[2]) for r in rows)) if inserted.deferring else None
            if first is not None:
                # Nothing fires per row: each table's rows in one statement, under the ids SQLite would give
                # them one after the other, noted in the order one entity after another inserts them.
                entity_id, observation_id = first
                entity_rows, observation_rows, order = [], [], []
                for name, etype, contents in rows:
                    entity_rows.append((entity_id, name, etype, now, now))
                    order.append(("entities", entity_id))
                    ids.append(entity_id)
                    for content in contents:
                        observation_rows.append((observation_id, entity_id, content, kind, now))
                        order.append(("observations", observation_id))
                        observation_id += 1
                    entity_id += 1
                db.conn.executemany(add_entity.with_id, entity_rows)
                db.conn.executemany(add_observation.with_id, observation_rows)
                inserted.extend(order)
            else:
                for name, etype, contents in rows:
                    execute(add_entity.sql, (name, etype, now, now))
                    entity_id = last()
                    ids.append(entity_id)
                    inserted("entities", entity_id)
                    for content in contents:
                        execute(add_observation.sql, (entity_id, content, kind, now))
                        inserted("observations", last())
        if bumped is not None:
            bumped.update(ids)
        # The whole source of each new entity, for its full-text row when the write ends (with an earlier
        # batch's of the same write, if no row changed between them): nothing to read back.
        earlier = graph.written[1] if graph.written is not None and graph.written[0] == changed_before else {}
        graph.written = (db.conn.total_changes(), {**earlier, **{
            entity_id: EntitySource(entity_id, name, etype, tuple(contents), ())
            for entity_id, (name, etype, contents) in zip(ids, rows)}})
        # upsert_entity's touch after the observations sets updated_at to this same moment: no row changes.
        graph._dirty.update(ids)
        db.note("added", ids)
        db.note("changed", [i for i, r in zip(ids, rows) if r[2]])
        if ids:
            db.note_flag("names")
    return ids
