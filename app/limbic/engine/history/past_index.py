"""The full-text rows of a past moment's graph, made in bulk and borrowed from today's where the text is the same.

A graph opened without full-text rows fills them one entity at a time (``index.ensure_fts``: a few
queries and the word stems of each), which on 100,000 entities takes most of a minute. A past
moment's graph is made whole instead: every entity's source read in one query per table, and an
entity whose name, type, text and aliases then are those of today's full-text row takes that row's
stems rather than stemming its text again. The rows are the same either way.
"""

from __future__ import annotations

from collections.abc import Iterator

from limbic.engine.store.db import Database
from limbic.engine.text import stemming
from limbic.engine.vectors import index
from limbic.engine.vectors.entity_text import EntitySource, fts_obs_text


def sources(db: Database) -> Iterator[EntitySource]:
    """Every entity's index source, in id order: the same as ``index.load_source`` of each, in five queries."""
    obs: dict[int, list[str]] = {}
    current = " WHERE superseded_at IS NULL" if db.has_history() else ""
    for entity_id, content in db.execute(f"SELECT entity_id, content FROM observations{current} ORDER BY entity_id, id"):
        obs.setdefault(entity_id, []).append(content)
    if db.has_table("reflections"):
        for owner, content in db.execute(
            "SELECT coalesce(f.entity_id, r.from_entity), f.content FROM reflections f "
            "LEFT JOIN relations r ON r.id = f.relation_id "
            "WHERE coalesce(f.entity_id, r.from_entity) IS NOT NULL ORDER BY f.id"
        ):
            obs.setdefault(owner, []).append(content)
    rels: dict[int, list[tuple[str, str]]] = {}
    for source, rtype, target in db.execute(
        "SELECT r.from_entity, r.relation_type, e.name FROM relations r JOIN entities e ON e.id = r.to_entity "
        "WHERE r.active = 1 ORDER BY r.id"
    ):
        rels.setdefault(source, []).append((rtype, target))
    aliases = index.alias_texts(db)
    for entity_id, name, etype in db.execute("SELECT id, name, entity_type FROM entities ORDER BY id"):
        yield EntitySource(entity_id, name, etype, tuple(obs.pop(entity_id, ())), tuple(rels.pop(entity_id, ())),
                           tuple(aliases.pop(entity_id, ())))


def _live_rows(live: Database) -> Iterator[tuple]:
    if live.get_meta(index.FTS_STEMS_KEY) != index.FTS_CONTENT:
        return iter(())  # today's rows hold other stems (or no aliases): nothing to borrow
    return iter(live.execute("SELECT rowid, name, entity_type, obs_text, stem_name, stem_text FROM entity_fts ORDER BY rowid"))


def fill_text_index(past: Database, live: Database) -> int:
    """Inside ``past``'s open transaction: its full-text rows; returns how many were borrowed from ``live``."""
    rows = _live_rows(live)
    live_aliases = index.alias_texts(live)  # a row borrowed holds today's aliases' stems: only when they are then's
    nxt = next(rows, None)
    borrowed = 0
    out = []
    for src in sources(past):
        while nxt is not None and nxt[0] < src.entity_id:
            nxt = next(rows, None)
        text = fts_obs_text(src.observations)
        if (nxt is not None and nxt[0] == src.entity_id and nxt[1:4] == (src.name, src.entity_type, text)
                and tuple(live_aliases.get(src.entity_id, ())) == src.aliases):
            out.append(nxt)
            borrowed += 1
        else:
            out.append((src.entity_id, src.name, src.entity_type, text,
                        *stemming.stem_columns(src.name, src.entity_type, src.observations, src.aliases)))
    past.conn.executemany(index.FTS_INSERT, out)
    return borrowed
