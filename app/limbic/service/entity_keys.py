"""Opening an entity remembered across writes: by its global id, following a merge to the entity kept.

An entity's integer id is given again to the next entity made once it is deleted or merged away, so
a front end that keeps an entity between writes (Back/Forward) keeps its gid and its name instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from limbic.engine.errors import NotFoundError
from limbic.engine.graph.graph import Graph
from limbic.service.entities import EntityView, open_view


@dataclass(frozen=True)
class EntityKey:
    """An entity as remembered: its gid (None in a file older than sync), its id and name when seen."""

    gid: str | None
    entity_id: int
    name: str

    @classmethod
    def of(cls, view: EntityView) -> EntityKey:
        """The key of an entity just loaded."""
        return cls(view.gid, view.entity.id, view.entity.name)

    def same(self, other: EntityKey) -> bool:
        """The same entity: by gid when both have one, else by id."""
        if self.gid is not None and other.gid is not None:
            return self.gid == other.gid
        return self.entity_id == other.entity_id


@dataclass
class Reopened:
    """The entity a key opens now; ``was`` is the remembered name when it is now an alias of this one."""

    view: EntityView
    was: str | None = None


def reopen(graph: Graph, key: EntityKey) -> Reopened:
    """The entity ``key`` names now; a merged-away one's survivor (its name became an alias of it).

    Raises NotFoundError, in a sentence naming the entity, when it was deleted.
    """
    if key.gid is None:  # an older file: the id is all there is
        return Reopened(open_view(graph, key.entity_id))
    entity_id = graph.db.scalar("SELECT id FROM entities WHERE gid = ?", (key.gid,))
    if entity_id is not None:
        return Reopened(open_view(graph, entity_id))
    owner = graph.exact_alias_owner(key.name)
    owner = graph.alias_owner(key.name) if owner is None else owner
    if owner is not None:
        return Reopened(open_view(graph, owner), was=key.name)
    raise NotFoundError(f"“{key.name}” is no longer in the graph (deleted since).")
