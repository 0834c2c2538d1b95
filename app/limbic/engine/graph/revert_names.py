"""Who goes by a name a revert would give back: another entity, by its name or by one of its aliases.

Taking a change back must not give one name to two entities: an alias put back, an entity brought
back or renamed back, whose name another writer has given since to another entity, is a conflict.
"""

from __future__ import annotations

from limbic.engine.store.values import name_key


def holder(graph, name: str, owner: int | None, freed_aliases: set[int], freed_entities: set[int]) -> tuple[int, int | None] | None:
    """(entity, alias row or None) of another entity than ``owner`` going by ``name`` once the revert has
    taken off ``freed_aliases`` and ``freed_entities`` (rows it removes); None when the name is free."""
    entity_id = graph.entity_id(name)
    if entity_id is not None and entity_id != owner and entity_id not in freed_entities:
        return entity_id, None
    alias_owner = graph.alias_owner(name)
    if alias_owner is None or alias_owner == owner or alias_owner in freed_entities:
        return None
    key = name_key(name)
    for row_id, alias in graph.db.execute("SELECT id, alias FROM entity_aliases WHERE entity_id = ?", (alias_owner,)):
        if name_key(alias) == key and row_id not in freed_aliases:
            return alias_owner, row_id
    return None
