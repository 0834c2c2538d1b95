"""Aliases for the front ends: adding and removing one, the names a merge keeps, and look-ups by alias."""

from __future__ import annotations

from dataclasses import dataclass, field

from limbic.engine.errors import ValidationError
from limbic.engine.graph.graph import Graph, name_key, shown
from limbic.service.undo import OneEntityStep, pending_change, recorded


def add_alias(graph: Graph, ref: int | str, alias: str) -> bool:
    """Give the entity another name; False when it had it already (NameTakenError when another entity goes by it)."""
    with graph.db.activity.using("add alias"):
        return graph.add_alias(ref, alias)


def remove_alias(graph: Graph, ref: int | str, alias: str) -> bool:
    """Take an alias off the entity; False when it had no such alias."""
    with graph.db.activity.using("remove alias"):
        return graph.remove_alias(ref, alias)


@dataclass
class AliasStep(OneEntityStep):
    """An alias given or taken off in the editor: one undoable step, like its other edits."""

    entity_id: int
    aliases: list[str]  # the entity's aliases once it is done (what the editor shows)
    label: str = ""
    live: list[int] = field(default_factory=list)
    undone: list[int] = field(default_factory=list)


def change_alias(graph: Graph, entity_id: int, alias: str, add: bool) -> AliasStep:
    """Service operation: give (``add``) or take off one alias; the step undoes it (``live`` empty: nothing changed)."""
    with graph.db.activity.using("add alias" if add else "remove alias"), graph.write():
        change_id = pending_change(graph)
        changed = graph.add_alias(entity_id, alias) if add else graph.remove_alias(entity_id, alias)
        after = graph.aliases_of(entity_id)
        name = graph.db.scalar("SELECT name FROM entities WHERE id = ?", (entity_id,))
    label = f"{'alias' if add else 'alias removal'} “{shown(alias.strip(), 30)}” of “{shown(name, 30)}”"
    return AliasStep(entity_id, after, label, live=recorded(graph, change_id) if changed else [])


def names_kept_by_merge(graph: Graph, source_id: int, target_id: int) -> list[str]:
    """What the survivor of merging ``source_id`` into it will also go by: the source's name and aliases."""
    target_name = graph.db.scalar("SELECT name FROM entities WHERE id = ?", (target_id,)) or ""
    have = {name_key(a) for a in graph.aliases_by_entity([target_id]).get(target_id, [])} | {name_key(target_name)}
    source_name = graph.db.scalar("SELECT name FROM entities WHERE id = ?", (source_id,))
    names = [source_name, *graph.aliases_by_entity([source_id]).get(source_id, [])]
    return [n for n in dict.fromkeys(names) if n and name_key(n) not in have]


def keep_names(graph: Graph, target_id: int, names: list[str]) -> None:
    """Inside the merge's write, once the source is deleted: its names become the survivor's aliases."""
    graph.add_aliases(target_id, names)


def keep_aliases(graph: Graph, entity_id: int, aliases: list[str], where: str) -> list[str]:
    """Inside an import's write: give the entity these aliases; a sentence for each one another entity goes by."""
    name = graph.db.scalar("SELECT name FROM entities WHERE id = ?", (entity_id,)) or ""
    refused = []
    for alias in aliases:
        if name_key(alias.strip()) == name_key(name):
            continue  # a note may list its own name among its aliases
        try:
            graph.add_alias(entity_id, alias)
        except ValidationError as exc:  # another entity goes by it, or it cannot be a name
            refused.append(f"{where}: the alias “{shown(alias, 40)}” was not kept ({str(exc).rstrip('.')})")
    return refused


def alias_matches(graph: Graph, text: str, limit: int = 20) -> list[tuple[int, str, str]]:
    """(entity id, entity name, alias) of the aliases that start with ``text`` (any case), exact ones first."""
    text = text.strip()
    if not text or not graph.db.has_table("entity_aliases"):
        return []
    key = name_key(text)
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    rows = graph.db.execute(
        "SELECT a.entity_id, e.name, a.alias FROM entity_aliases a JOIN entities e ON e.id = a.entity_id "
        "WHERE a.alias LIKE ? ESCAPE '\\' ORDER BY length(a.alias), a.alias LIMIT ?", (escaped + "%", limit)
    ).fetchall()
    exact = graph.alias_owner(text)
    out = [(int(i), n, a) for i, n, a in rows]
    if exact is not None and not any(name_key(a) == key for _, _, a in out):
        name = graph.db.scalar("SELECT name FROM entities WHERE id = ?", (exact,))
        alias = next(a for a in graph.aliases_by_entity([exact])[exact] if name_key(a) == key)
        out.insert(0, (exact, name, alias))
    out.sort(key=lambda r: name_key(r[2]) != key)
    return out
