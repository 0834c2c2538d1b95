"""Whose changes stand in a save's way: the person's own (another Limbic window, the command line) or
another writer's, so the editor's conflict question says "you" where it was the person."""

from __future__ import annotations

from limbic.engine.graph import activity_log
from limbic.engine.graph.graph import Graph
from limbic.engine.graph.revert_words import by_person
from limbic.service.entities import HISTORY_CHANGES, EntityDraft


def changed_by_person(graph: Graph, draft: EntityDraft) -> bool:
    """Every change made to the draft's entity since the editor loaded it was the person's own."""
    base = draft.base
    if draft.entity_id is None or base is None:
        return False
    seen = max((c.id for c in base.changes), default=None)
    since = [c for c in activity_log.entity_history(graph.db, draft.entity_id, limit=HISTORY_CHANGES)
             if (c.id > seen if seen is not None else c.at > base.entity.updated_at)]
    return bool(since) and all(by_person(c.who) for c in since)
