"""An entity's other names: aliases, unique without case like names, so each names exactly one entity.

A merged-away name stays as an alias of the survivor, and every look-up by name falls back to the
aliases (``Graph.resolve``), so "NYC" still finds "New York City" after the two were merged. No
alias equals another entity's name or alias, and no entity takes a name that is someone's alias:
either would make a name point at two entities. Writes go through ``Graph.write`` like any other,
so the activity log, recorded history and sync see them (the ``alias`` kind of the change items).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence

from limbic.engine.errors import NameTakenError
from limbic.engine.graph.name_lookup import by_name_key
from limbic.engine.store.values import _unstorable, clean_name, name_key, now_utc, shown

TABLE = "entity_aliases"


class GraphAliases:
    """The alias methods ``Graph`` inherits (it provides ``db``, ``write``, ``resolve`` and the rest)."""

    def _has_aliases(self) -> bool:
        return self.db.has_table(TABLE)  # a read-only file older than schema 9 has none

    def alias_owner(self, name: str) -> int | None:
        """The entity one of whose aliases is ``name`` (any case), or None."""
        if not isinstance(name, str) or not self._has_aliases():
            return None
        name = unicodedata.normalize("NFC", name.strip())
        if not name or _unstorable(name):
            return None
        return by_name_key(self.db, TABLE, "entity_id", "alias", name)

    def exact_alias_owner(self, name: str) -> int | None:
        """The entity with exactly this alias (as NFC, case kept), as exact-name look-ups match."""
        if not isinstance(name, str) or not self._has_aliases() or _unstorable(name):
            return None
        # The NOCASE index finds the row; the plain comparison keeps only the exact spelling.
        return self.db.scalar(f"SELECT entity_id FROM {TABLE} WHERE alias = ?1 COLLATE NOCASE AND alias = ?1",
                              (unicodedata.normalize("NFC", name),))

    def aliases_of(self, ref) -> list[str]:
        """The entity's aliases, in the order they were given."""
        entity_id = self.resolve(ref)
        return self.aliases_by_entity([entity_id]).get(entity_id, [])

    def aliases_by_entity(self, ids: Sequence[int] | None = None) -> dict[int, list[str]]:
        """Aliases of these entities (of every entity when ``ids`` is None), each list in the order given."""
        out: dict[int, list[str]] = {}
        if not self._has_aliases():
            return out
        if ids is None:
            rows = self.db.execute(f"SELECT entity_id, alias FROM {TABLE} ORDER BY id").fetchall()
        else:
            ids, rows = list(ids), []
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                rows += self.db.execute(f"SELECT entity_id, alias FROM {TABLE} WHERE entity_id IN "
                                        f"({','.join('?' * len(chunk))}) ORDER BY id", chunk).fetchall()
        for entity_id, alias in rows:
            out.setdefault(int(entity_id), []).append(alias)
        return out

    def check_name_free(self, name: str, entity_id: int | None = None) -> None:
        """Refuse (NameTakenError) a name for a new or renamed entity that another entity has as an alias."""
        owner = self.alias_owner(name)
        if owner is not None and owner != entity_id:
            other = self.db.scalar("SELECT name FROM entities WHERE id = ?", (owner,))
            raise NameTakenError(f"“{shown(name)}” is an alias of “{shown(other)}”, so no other entity can take "
                                 "it as its name (open that entity, or remove the alias first).")

    def add_alias(self, ref, alias: str) -> bool:
        """Give the entity another name; False when it has it already. NameTakenError when another goes by it."""
        alias = clean_name(alias, "alias")
        with self.write():
            entity_id = self.resolve(ref)
            name = self.db.scalar("SELECT name FROM entities WHERE id = ?", (entity_id,))
            if name_key(name) == name_key(alias):
                raise NameTakenError(f"“{shown(alias)}” is the name of this entity already, so it needs no alias.")
            holder = self.entity_id(alias)
            if holder is not None:
                other = self.db.scalar("SELECT name FROM entities WHERE id = ?", (holder,))
                raise NameTakenError(f"“{shown(alias)}” cannot be an alias of “{shown(name)}”: it is the name of "
                                     f"another entity, “{shown(other)}” (merge the two to keep one).")
            owner = self.alias_owner(alias)
            if owner == entity_id:
                return False
            if owner is not None:
                other = self.db.scalar("SELECT name FROM entities WHERE id = ?", (owner,))
                raise NameTakenError(f"“{shown(alias)}” cannot be an alias of “{shown(name)}”: it is already an "
                                     f"alias of “{shown(other)}”.")
            self.db.execute(f"INSERT INTO {TABLE}(entity_id, alias, created_at) VALUES (?, ?, ?)",
                            (entity_id, alias, now_utc()))
            self._alias_touched(entity_id)
        return True

    def add_aliases(self, ref, aliases: Iterable[str]) -> list[str]:
        """Give the entity each of these names (those it has already are skipped); returns the ones added."""
        with self.write():
            entity_id = self.resolve(ref)
            return [a for a in dict.fromkeys(aliases) if self.add_alias(entity_id, a)]

    def remove_alias(self, ref, alias: str) -> bool:
        """Take an alias off the entity (matched without case); False when it had no such alias."""
        if not isinstance(alias, str) or not self._has_aliases():
            return False
        with self.write():
            entity_id = self.resolve(ref)
            key = name_key(alias.strip())
            for row_id, text in self.db.execute(f"SELECT id, alias FROM {TABLE} WHERE entity_id = ?",
                                                (entity_id,)).fetchall():
                if name_key(text) == key:
                    self.db.execute(f"DELETE FROM {TABLE} WHERE id = ?", (row_id,))
                    self._alias_touched(entity_id)
                    return True
        return False

    def _alias_touched(self, entity_id: int) -> None:
        # Its full-text row holds its aliases' words and is made again with the write; its vector stays
        # (an alias is not in the embedded text, so the entity's text digest does not change).
        self.db.execute("UPDATE entities SET updated_at = ? WHERE id = ?", (self.db.moment(), entity_id))
        self._dirty.add(entity_id)
        self.db.note("changed", (entity_id,))
        self.db.note_flag("names")  # completion and the quick switcher list aliases with the names

