"""What a front end shows about the open file besides results: counts, names and types.

The first read takes everything (``read_catalog``); after that a ``ChangeSet`` turns into a
``CatalogDelta`` that names only the entities whose names came or went, so a graph of 100k
names is never read again because one entity changed. Aliases travel with the names: a relation's
target completes to the entity an alias names ("NYC" offers "New York City").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from limbic import storage_places
from limbic.engine.store.changes import ChangeSet
from limbic.engine.graph.graph import Graph


@dataclass
class Catalog:
    """Everything the window shows about the open file besides search results."""

    path: str
    counts: dict[str, int]
    entity_types: list[str]
    relation_types: list[str]
    names: dict[int, str]  # id -> name, for completion
    pending: int = 0
    readonly_note: str | None = None  # why the file opened read-only, if it did
    aliases: dict[int, list[str]] = field(default_factory=dict)  # id -> its aliases (entities that have some)
    place_note: str | None = None  # the file is in a cloud-synced folder or on a network file system (said once)


@dataclass
class CatalogDelta:
    """What changed in the catalog after some commits."""

    counts: dict[str, int]
    pending: int = 0
    entity_types: list[str] | None = None  # None: unchanged
    relation_types: list[str] | None = None
    names: dict[int, str] = field(default_factory=dict)  # id -> current name, for new or renamed entities
    removed: list[int] = field(default_factory=list)
    aliases: dict[int, list[str]] = field(default_factory=dict)  # id -> its aliases now, for each id in names


def read_catalog(graph: Graph) -> Catalog:
    """The whole catalog (on opening a file, or when the change log cannot say what changed)."""
    db = graph.db
    return Catalog(
        str(db.path),
        graph.counts(),
        graph.entity_types(),
        graph.relation_types(),
        {r[0]: r[1] for r in db.execute("SELECT id, name FROM entities")},
        graph.pending_embeddings() if graph.embedder else 0,
        db.readonly_note if db.readonly else None,
        graph.aliases_by_entity(),
        storage_places.place_warning(db.path) if str(db.path) != ":memory:" else None,
    )


def catalog_delta(graph: Graph, changes: ChangeSet) -> CatalogDelta:
    """The catalog's changes for a change set that is not ``full``."""
    delta = CatalogDelta(graph.counts(), graph.pending_embeddings() if graph.embedder else 0)
    if changes.names:
        delta.entity_types = graph.entity_types()
        delta.relation_types = graph.relation_types()
        ids = sorted(changes.added | changes.changed)
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ",".join("?" * len(chunk))
            delta.names.update(graph.db.execute(f"SELECT id, name FROM entities WHERE id IN ({marks})", chunk).fetchall())
        delta.removed = sorted(changes.removed | (set(ids) - set(delta.names)))
        # An alias given, taken off or kept by a merge marks its entity changed: its list is sent whole.
        held = graph.aliases_by_entity(list(delta.names))
        delta.aliases = {i: held.get(i, []) for i in delta.names}
    return delta
