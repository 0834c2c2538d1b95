"""The store: writes, cascades, index sync in the same transaction, and re-embedding only what changed."""

from __future__ import annotations

import apsw
import pytest

from limbic.engine.vectors import index
from limbic.engine.store.db import SCHEMA_VERSION, Database
from limbic.engine.errors import DatabaseError, NotFoundError, ValidationError
from limbic.engine.graph.graph import Graph
from tests.old_files import write_v1_file


def fts_row(g: Graph, entity_id: int):
    return g.db.one("SELECT name, entity_type, obs_text FROM entity_fts WHERE rowid = ?", (entity_id,))


def vector_ids(g: Graph) -> set[int]:
    return {r[0] for r in g.db.execute(f"SELECT rowid FROM {index.VEC_TABLE}")}


class EncodeSpy:
    """Counts the texts the embedder is asked to encode as passages."""

    def __init__(self, embedder, monkeypatch):
        self.texts: list[str] = []
        original = embedder.encode

        def spy(texts, kind="passage", **kw):
            if kind == "passage":
                self.texts.extend(texts)
            return original(texts, kind=kind, **kw)

        monkeypatch.setattr(embedder, "encode", spy)


def test_pragmas_and_schema_version(graph):
    db = graph.db
    assert db.scalar("PRAGMA journal_mode") == "wal"
    assert db.scalar("PRAGMA foreign_keys") == 1
    assert db.user_version() == SCHEMA_VERSION


def test_upsert_creates_then_merges_observations(graph):
    a = graph.upsert_entity("  Limbic ", "Project", ["A desktop app", "Local search"])
    b = graph.upsert_entity("Limbic", None, ["Local search", "Uses SQLite"])
    assert a == b
    ent = graph.get_entity("Limbic")
    assert ent.entity_type == "Project"
    assert ent.observation_texts == ["A desktop app", "Local search", "Uses SQLite"]
    assert fts_row(graph, a) == ("Limbic", "Project", "A desktop app | Local search | Uses SQLite")
    assert a in vector_ids(graph)
    assert graph.upsert_entity("Other") and graph.get_entity("Other").entity_type == "Generic"


def test_names_differing_only_in_case_are_one_entity_and_names_are_validated(graph):
    first = graph.upsert_entity("limbic", observations=["lower"])
    assert graph.upsert_entity("Limbic", observations=["upper"]) == first  # merged, first spelling kept
    assert graph.get_entity(first).name == "limbic" and graph.get_entity("LIMBIC").observation_texts == ["lower", "upper"]
    graph.upsert_entity("other")
    assert graph.counts()["entities"] == 2
    for bad in ["", "   ", "x" * 513, "bad\x00name", "tab\tname", "\ud800"]:
        with pytest.raises(ValidationError):
            graph.upsert_entity(bad)
    with pytest.raises(ValidationError, match="only in case"):
        graph.create_entity("LIMBIC")
    with pytest.raises(ValidationError, match="only in case"):
        graph.rename_entity("other", "Limbic")
    graph.rename_entity("limbic", "Limbic")  # its own spelling may change
    assert graph.get_entity(first).name == "Limbic"
    with pytest.raises(ValidationError):
        graph.upsert_entity("ok", observations=["x" * 200_001])
    assert graph.counts()["entities"] == 2


def test_rename_keeps_relations_and_refreshes_texts(graph):
    graph.upsert_entity("Limbic", "Project", ["desktop app"])
    graph.upsert_entity("SQLite", "Tool", ["database"])
    graph.add_relation("Limbic", "SQLite", "uses")
    graph.rename_entity("SQLite", "SQLite3")
    out, _ = graph.relations_of("Limbic")
    assert [(r.to_name, r.relation_type) for r in out] == [("SQLite3", "uses")]
    _, inc = graph.relations_of("SQLite3")
    assert [r.from_name for r in inc] == ["Limbic"]
    # The source entity's embedded text names the target, so its digest follows the rename.
    src = index.load_source(graph.db, graph.entity_id("Limbic"))
    assert src.relations == (("uses", "SQLite3"),)
    assert graph.db.scalar("SELECT text_hash FROM embedding_state WHERE entity_id = ?", (src.entity_id,)) == src.digest()
    assert fts_row(graph, graph.entity_id("SQLite3"))[0] == "SQLite3"
    with pytest.raises(ValidationError):
        graph.rename_entity("SQLite3", "Limbic")


def test_delete_cascades_to_everything(graph):
    a = graph.upsert_entity("A", "T", ["one", "two"])
    b = graph.upsert_entity("B", "T", ["three"])
    graph.add_relation("A", "B", "knows")
    graph.add_relation("B", "A", "knows")
    graph.db.execute("INSERT INTO entity_access(entity_id, access_count) VALUES (?, 1)", (a,))
    graph.delete_entity("A")
    db = graph.db
    assert db.scalar("SELECT count(*) FROM observations WHERE entity_id = ?", (a,)) == 0
    assert db.scalar("SELECT count(*) FROM relations") == 0
    assert db.scalar("SELECT count(*) FROM entity_access") == 0
    assert fts_row(graph, a) is None
    assert vector_ids(graph) == {b}
    # B lost its outgoing relation: its digest was refreshed.
    src = index.load_source(db, b)
    assert src.relations == ()
    assert db.scalar("SELECT text_hash FROM embedding_state WHERE entity_id = ?", (b,)) == src.digest()
    with pytest.raises(NotFoundError):
        graph.delete_entity("A")


def test_observation_edit_and_delete_sync_fts(graph):
    graph.upsert_entity("A", "T", ["alpha", "beta"])
    ent = graph.get_entity("A")
    graph.edit_observation(ent.observations[0].id, "gamma")
    graph.delete_observation(ent.observations[1].id)
    assert fts_row(graph, ent.id)[2] == "gamma"
    assert graph.get_entity("A").observation_texts == ["gamma"]
    with pytest.raises(NotFoundError):
        graph.edit_observation(99999, "x")


def test_relations_are_unique_and_removable(graph):
    graph.upsert_entity("A")
    graph.upsert_entity("B")
    assert graph.add_relation("A", "B", "uses") is True
    assert graph.add_relation("A", "B", "uses") is False
    assert graph.add_relation("A", "B", "likes") is True
    assert graph.counts()["relations"] == 2
    assert graph.remove_relation("A", "B", "uses") is True
    assert graph.remove_relation("A", "B", "uses") is False
    assert graph.relation_types() == ["likes"]
    with pytest.raises(NotFoundError):
        graph.add_relation("A", "Nobody", "uses")


def test_edit_reembeds_only_changed_entities(graph, embedder, monkeypatch):
    graph.upsert_entity("A", "T", ["alpha"])
    graph.upsert_entity("B", "T", ["beta"])
    graph.upsert_entity("C", "T", ["gamma"])
    spy = EncodeSpy(embedder, monkeypatch)
    graph.add_observations("A", ["more about alpha"])
    assert len(spy.texts) == 1 and spy.texts[0].startswith("A (T)")
    graph.upsert_entity("B", "T", ["beta"])  # nothing new: nothing re-embedded
    assert len(spy.texts) == 1
    graph.add_relation("C", "A", "mentions")  # only C's text changes
    assert len(spy.texts) == 2 and spy.texts[1].startswith("C (T)") and "Rel: mentions -> A" in spy.texts[1]


def test_reopening_reembeds_nothing(tmp_path, embedder, monkeypatch):
    path = tmp_path / "g.db"
    g = Graph(Database(path), embedder)
    with g.write():
        for i in range(300):
            g.upsert_entity(f"Entity {i}", "Note", [f"observation number {i}", "shared text"])
    g.db.close()
    spy = EncodeSpy(embedder, monkeypatch)
    g2 = Graph(Database(path), embedder)
    assert g2.pending_embeddings() == 0
    assert g2.embed_pending() == 0
    assert spy.texts == []
    g2.db.close()


def test_failed_action_rolls_back_graph_and_indexes(graph):
    graph.upsert_entity("A", "T", ["alpha"])
    before = (graph.counts(), fts_row(graph, 1))
    with pytest.raises(RuntimeError):
        with graph.write():
            graph.add_observations("A", ["beta"])
            graph.upsert_entity("B")
            raise RuntimeError("boom")
    assert (graph.counts(), fts_row(graph, 1)) == before


def test_text_only_graph_then_model_embeds_pending(text_graph, embedder):
    text_graph.upsert_entity("A", "T", ["alpha"])
    text_graph.upsert_entity("B", "T", ["beta"])
    assert text_graph.db.scalar("SELECT count(*) FROM entity_fts") == 2
    assert text_graph.attach_embedder(embedder) == 2
    assert text_graph.embed_pending() == 2
    assert text_graph.pending_embeddings() == 0


def test_newer_schema_is_refused_without_change(tmp_path):
    path = tmp_path / "new.db"
    conn = apsw.Connection(str(path))
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(DatabaseError, match="newer version of Limbic"):
        Database(path)
    assert path.read_bytes() == before


def test_not_a_database_is_refused(tmp_path):
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(DatabaseError, match="not a Limbic database"):
        Database(path)
    assert path.read_bytes() == b"this is not sqlite" * 100


def test_fts_is_backfilled_when_empty(tmp_path):
    path = tmp_path / "b.db"
    g = Graph(Database(path))
    g.upsert_entity("A", "T", ["alpha"])
    g.db.execute("DELETE FROM entity_fts")
    g.db.close()
    g2 = Graph(Database(path))
    assert fts_row(g2, 1) == ("A", "T", "alpha")
    g2.db.close()


def test_a_version_1_file_is_upgraded_in_place(tmp_path):
    path = tmp_path / "v1.db"
    write_v1_file(path)
    upgraded = Database(path)
    assert upgraded.user_version() == SCHEMA_VERSION
    assert upgraded.scalar("SELECT name FROM entities") == "Kept"
    assert upgraded.scalar("SELECT 1 FROM sqlite_master WHERE name = 'entities_name_nocase'") == 1
    upgraded.close()
