"""A look-up by name without case: the one query an entity's name and an alias are both found by."""

from __future__ import annotations

from limbic.engine.store.values import case_spellings, name_key


def by_name_key(db, table: str, id_column: str, name_column: str, name: str) -> int | None:
    """``id_column`` of the row of ``table`` whose ``name_column`` has the name key of ``name``, or None.

    Each spelling of ``case_spellings`` is one probe of the column's NOCASE index; the name key decides.
    """
    key = name_key(name)
    spellings = case_spellings(name)
    marks = ",".join("?" * len(spellings))
    for row_id, stored in db.execute(
        f"SELECT {id_column}, {name_column} FROM {table} WHERE {name_column} COLLATE NOCASE IN ({marks})", spellings
    ):
        if name_key(stored) == key:
            return int(row_id)
    return None
