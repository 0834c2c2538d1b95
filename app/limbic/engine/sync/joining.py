"""Two entities here found to be one by sync: the rows of one move to the other, the same rows merging.

Where a name made on another device wins over a rename made here (a later stamp), and an entity
made here since holds that name, the two are one: on a device where that name arrived before the
rename, the later entity was made under a name already held and merged with its holder by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from limbic.engine.store.schema import SYNCED_TABLES
from limbic.engine.sync import rows, state
from limbic.engine.vectors import index

if TYPE_CHECKING:
    from limbic.engine.sync.apply import Applier

_ENDS = ("entity", "from", "to")
_ROWS = (
    ("observation", "SELECT gid FROM observations WHERE entity_id = ?1 ORDER BY id"),
    ("relation", "SELECT gid FROM relations WHERE from_entity = ?1 OR to_entity = ?1 ORDER BY id"),
    ("reflection", "SELECT gid FROM reflections WHERE entity_id = ?1 ORDER BY id"),
    ("alias", "SELECT gid FROM entity_aliases WHERE entity_id = ?1 ORDER BY id"),
)
_REPOINT = {"observation": ("observations", "superseded_by"), "relation": ("reflections", "relation_id")}


def join(applier: Applier, keep: tuple[int, str], other: tuple[int, str]) -> str:
    """Entity ``other`` becomes one with entity ``keep`` (its row stays): the global id both go by now."""
    db = applier.db
    keep_id, keep_gid = keep
    other_id, other_gid = other
    for kind, sql in _ROWS:
        for (dep_gid,) in db.execute(sql, (other_id,)).fetchall():
            found = rows.current(db, kind, dep_gid)
            if found is None:
                continue
            dep_id, values = found
            values = {k: (keep_gid if k in _ENDS and v == other_gid else v) for k, v in values.items()}
            columns, missing = rows.local_values(db, kind, values)
            if missing:
                continue
            twin = rows.twin(db, kind, columns)
            if twin is not None and twin[0] != dep_id:  # the same text, relation or alias on both: one row
                if kind in _REPOINT:
                    table, column = _REPOINT[kind]
                    db.execute(f"UPDATE {table} SET {column} = ? WHERE {column} = ?", (twin[0], dep_id))
                db.execute(f"DELETE FROM {SYNCED_TABLES[kind]} WHERE id = ?", (dep_id,))
                applier._merge_restored(kind, twin, state.resolve_alias(db, dep_gid), values)
            else:
                moved = {c: columns[c] for c in ("entity_id", "from_entity", "to_entity") if c in columns}
                rows.update(db, kind, dep_id, moved)
    values = rows.current(db, "entity", other_gid)[1]
    index.delete_index_rows(db, other_id)
    db.execute("DELETE FROM entities WHERE id = ?", (other_id,))
    db.note("removed", (other_id,))
    applier.graph._dirty.discard(other_id)
    gid = applier._merge_restored("entity", (keep_id, keep_gid), other_gid, values)
    applier._touch("entity", keep_id)
    return gid
