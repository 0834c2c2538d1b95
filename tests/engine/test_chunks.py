"""Long entities embedded in windows: found by any part of their text, kept exact and in step."""

from __future__ import annotations

from dataclasses import dataclass

import apsw
import numpy as np
import pytest

from limbic.engine import check

from limbic.engine.vectors import chunked_knn, index, index_chunks
from limbic.engine.store.db import SCHEMA_VERSION, Database
from limbic.engine.vectors.entity_chunks import build_chunks
from limbic.engine.vectors.entity_text import EntitySource, build_text
from limbic.engine.graph.graph import Graph
from limbic.engine.search.search import knn_branch, search
from tests.engine.test_vector_index import HashEmbedder

BUDGET = 24


@dataclass(frozen=True)
class _SmallSpec:
    name: str = "hash-bag"
    text_budget: int = BUDGET


class CountingEmbedder(HashEmbedder):
    """The hash model with a window of 24 words, counting the texts it encodes."""

    def __init__(self) -> None:
        super().__init__()
        self.spec = _SmallSpec()
        self.encoded: list[str] = []

    def encode(self, texts, kind="passage", batch_size=32, progress=None):
        if kind == "passage":
            self.encoded += list(texts)
        return super().encode(texts, kind, batch_size, progress)


def filler(n: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    words = [f"f{i}" for i in range(300)]
    return [" ".join(rng.choice(words, size=8)) for _ in range(n)]


@pytest.fixture
def cgraph(tmp_path):
    g = Graph(Database(tmp_path / "chunks.db"), CountingEmbedder())
    yield g
    g.db.close()


def windows_of(g: Graph, entity_id: int) -> dict[str, int]:
    return index_chunks.stored(g.db, entity_id)


def brute_force(g: Graph, q: np.ndarray, k: int) -> list[int]:
    """Every stored vector in float64, each entity scored by its best one."""
    best: dict[int, float] = {}
    q64 = q.astype(np.float64) / np.linalg.norm(q)
    tables = [(index.VEC_TABLE, 0)]
    if g.db.has_table(index_chunks.CHUNK_TABLE):
        tables.append((index_chunks.CHUNK_TABLE, index_chunks.SLOT_BITS))
    for table, shift in tables:
        for rowid, blob in g.db.execute(f"SELECT rowid, embedding FROM {table}"):
            v = np.frombuffer(blob, dtype=np.float32).astype(np.float64)
            s = float(v @ q64 / np.linalg.norm(v))
            owner = rowid >> shift
            best[owner] = max(best.get(owner, -2.0), s)
    return [e for e, _ in sorted(best.items(), key=lambda kv: (-kv[1], kv[0]))[:k]]


def test_short_entity_has_one_vector_from_todays_text(cgraph):
    eid = cgraph.upsert_entity("Tea", "Drink", ["green and black"])
    assert windows_of(cgraph, eid) == {}
    src = index.load_source(cgraph.db, eid)
    assert build_chunks(src, cgraph.embedder.count_tokens, BUDGET) == [build_text(src, cgraph.embedder.count_tokens, BUDGET)]


def test_fact_only_in_the_tail_is_found_by_meaning(cgraph):
    long_id = cgraph.upsert_entity("Logbook", "Log", filler(30, 1)[:15] + ["zebra marmalade okapi quartz"] + filler(30, 1)[15:])
    for i in range(40):
        cgraph.upsert_entity(f"Other {i}", "Note", filler(2, 100 + i))
    src = index.load_source(cgraph.db, long_id)
    assert "zebra" not in build_text(src, cgraph.embedder.count_tokens, BUDGET)  # beyond the first window
    assert len(windows_of(cgraph, long_id)) > 5
    q = cgraph.embedder.encode_query("zebra marmalade okapi quartz")
    assert knn_branch(cgraph, q, 1)[0][0] == long_id
    page = search(cgraph, "zebra marmalade okapi quartz", branches="meaning", record=False)
    assert page.results[0].name == "Logbook"


def test_windows_replaced_on_edit_and_removed_on_delete(cgraph):
    obs = filler(40, 2)
    eid = cgraph.upsert_entity("Diary", "Log", obs)
    before = windows_of(cgraph, eid)
    assert before
    cgraph.embedder.encoded.clear()
    cgraph.add_observations("Diary", ["a new day with kiwi"])
    after = windows_of(cgraph, eid)
    # The first text and the last window are new; every earlier window kept its vector and row.
    assert len(cgraph.embedder.encoded) <= 3
    assert len(set(before.items()) & set(after.items())) >= len(before) - 2
    assert any("kiwi" in t for t in cgraph.embedder.encoded[1:])
    q = cgraph.embedder.encode_query("kiwi")
    assert brute_force(cgraph, q, 5) == [i for i, _ in knn_branch(cgraph, q, 5)]
    cgraph.delete_entity("Diary")
    low, high = index_chunks.chunk_range(eid)
    assert cgraph.db.scalar("SELECT count(*) FROM embedding_chunks") == 0
    assert cgraph.db.scalar(f"SELECT count(*) FROM {index_chunks.CHUNK_TABLE}") == 0
    assert eid not in [i for i, _ in knn_branch(cgraph, q, 10)]


def test_knn_over_windows_equals_exact_brute_force(cgraph):
    rng = np.random.default_rng(5)
    with cgraph.write():
        for i in range(120):
            cgraph.upsert_entity(f"E{i}", "Thing", filler(int(rng.integers(1, 25)), i))
    with cgraph.write():  # edits and deletes after the mirrors were loaded
        knn_branch(cgraph, rng.standard_normal(24).astype(np.float32), 3)
        for i in range(0, 120, 7):
            cgraph.add_observations(f"E{i}", filler(6, 1000 + i))
        for i in range(3, 120, 11):
            cgraph.delete_entity(f"E{i}")
    assert cgraph.db.scalar(f"SELECT count(*) FROM {index_chunks.CHUNK_TABLE}") > 100
    for _ in range(25):
        q = rng.standard_normal(24).astype(np.float32)
        got = [i for i, _ in knn_branch(cgraph, q, 20)]
        assert got == brute_force(cgraph, q, 20)
    # Another connection's writes are seen too.
    other = Graph(Database(cgraph.db.path), CountingEmbedder())
    other.upsert_entity("Far", "Log", filler(20, 9) + ["zebra marmalade"])
    other.db.close()
    q = cgraph.embedder.encode_query("zebra marmalade")
    assert [i for i, _ in knn_branch(cgraph, q, 10)] == brute_force(cgraph, q, 10)


def _make_schema5(path) -> tuple[int, bytes]:
    """A file as the previous schema left it: one vector per entity, no windows."""
    g = Graph(Database(path), CountingEmbedder())
    long_id = g.upsert_entity("Logbook", "Log", filler(30, 1) + ["zebra marmalade okapi quartz"] + filler(10, 3))
    for i in range(10):
        g.upsert_entity(f"Other {i}", "Note", filler(2, 100 + i))
    first = g.db.scalar(f"SELECT embedding FROM {index.VEC_TABLE} WHERE rowid = ?", (long_id,))
    g.db.close()
    conn = apsw.Connection(str(path))
    conn.enableloadextension(True)
    import sqlite_vec

    conn.loadextension(sqlite_vec.loadable_path())
    conn.execute(f"DROP TABLE {index_chunks.CHUNK_TABLE}; DROP TABLE embedding_chunks")
    conn.execute("ALTER TABLE embedding_state DROP COLUMN chunked; PRAGMA user_version = 5")
    conn.close()
    return long_id, first


def test_migration_from_schema_5_embeds_only_the_backlog(tmp_path):
    path = tmp_path / "old.db"
    long_id, first = _make_schema5(path)
    g = Graph(Database(path), CountingEmbedder())
    assert g.db.user_version() == SCHEMA_VERSION
    assert g.db.scalar("SELECT count(*) FROM embedding_state WHERE chunked = 0") == 11
    report = check.check_graph(g.db, g.embedder)
    assert report.consistent and report.windows_pending == 11
    g.embedder.encoded.clear()
    g.embed_pending()
    assert g.embedder.encoded and all(t.startswith("Logbook (Log)") for t in g.embedder.encoded)  # windows only
    assert g.db.scalar(f"SELECT embedding FROM {index.VEC_TABLE} WHERE rowid = ?", (long_id,)) == first
    assert g.db.scalar("SELECT count(*) FROM embedding_state WHERE chunked = 0") == 0
    assert g.db.scalar("SELECT count(*) FROM entities") == 11
    assert g.db.scalar("SELECT count(*) FROM observations") == 61
    q = g.embedder.encode_query("zebra marmalade okapi quartz")
    assert knn_branch(g, q, 1)[0][0] == long_id
    after = check.check_graph(g.db, g.embedder)
    assert after.consistent and after.windows_pending == 0 and after.windows == len(windows_of(g, long_id))
    g.db.close()


def test_check_and_repair_understand_windows(cgraph):
    eid = cgraph.upsert_entity("Diary", "Log", filler(40, 2))
    cgraph.upsert_entity("Short", "Note", ["brief"])
    report = check.check_graph(cgraph.db, cgraph.embedder)
    assert report.consistent and report.windows == len(windows_of(cgraph, eid)) > 0
    rowid = sorted(windows_of(cgraph, eid).values())[0]
    with cgraph.db.transaction():  # a window's record lost, and a vector left behind by no entity
        cgraph.db.execute("DELETE FROM embedding_chunks WHERE id = ?", (rowid,))
        stray = np.full(24, 1 / np.sqrt(24), dtype=np.float32)
        cgraph.db.execute(f"INSERT INTO {index_chunks.CHUNK_TABLE}(rowid, embedding) VALUES (?, ?)", ((999 << 12) | 1, stray.tobytes()))
    report = check.check_graph(cgraph.db, cgraph.embedder)
    assert not report.consistent and set(report.windows_bad) == {eid, 999}
    check.repair(cgraph.db, cgraph.embedder)
    after = check.check_graph(cgraph.db, cgraph.embedder)
    assert after.consistent and after.windows_pending == 0
    assert after.windows == len(windows_of(cgraph, eid)) == report.windows - 1
    q = cgraph.embedder.encode_query("anything at all")
    assert [i for i, _ in knn_branch(cgraph, q, 2)] == brute_force(cgraph, q, 2)


def test_chunks_are_capped(cgraph):
    src = EntitySource(1, "Huge", "Log", tuple(filler(3000, 4)), ())
    texts = build_chunks(src, cgraph.embedder.count_tokens, BUDGET, max_chunks=9)
    assert len(texts) == 9
    assert texts[-1].endswith(src.observations[-1])  # the latest window is among those kept
    # The first window holds only what the first text holds (the first two observations): left out.
    assert src.observations[1] not in texts[1] and src.observations[2] in texts[1]


def test_similarities_take_the_best_window(cgraph):
    eid = cgraph.upsert_entity("Logbook", "Log", filler(30, 1) + ["zebra marmalade okapi quartz"])
    q = cgraph.embedder.encode_query("zebra marmalade okapi quartz")
    sims = chunked_knn.similarities(cgraph.db, index.VEC_TABLE, q, [eid])
    assert sims[eid] == pytest.approx(1 - knn_branch(cgraph, q, 1)[0][1], abs=1e-6)


def test_passage_weight_falls_with_the_query_length():
    assert chunked_knn.passage_weight(0, 224) == 1.0
    assert chunked_knn.passage_weight(56, 224) == pytest.approx(0.75)
    assert chunked_knn.passage_weight(224, 224) == 0.0
    assert chunked_knn.passage_weight(900, 224) == 0.0


def test_windows_raise_an_entity_as_far_as_the_query_is_short(cgraph):
    from limbic.engine.vectors import vector_index
    from limbic.engine.search.search import passage_weight

    eid = cgraph.upsert_entity("Logbook", "Log", filler(30, 1) + ["zebra marmalade okapi quartz"])
    q = cgraph.embedder.encode_query("zebra marmalade okapi quartz")
    first = vector_index.mirror_for(cgraph.db, index.VEC_TABLE).similarities(cgraph.db, q, [eid])[eid]
    best = chunked_knn.similarities(cgraph.db, index.VEC_TABLE, q, [eid])[eid]
    assert best > first + 0.2  # the window holds the four words, the first text none of them
    for weight in (0.0, 0.5):
        want = first + weight * (best - first)
        assert chunked_knn.similarities(cgraph.db, index.VEC_TABLE, q, [eid], weight)[eid] == pytest.approx(want, abs=1e-6)
        assert 1 - knn_branch(cgraph, q, 1, weight)[0][1] == pytest.approx(want, abs=1e-6)
    # The search's weight: the model's count of the query's tokens against its window (24 here).
    assert passage_weight(cgraph, "zebra marmalade okapi quartz") == pytest.approx(1 - 4 / BUDGET)
    assert passage_weight(cgraph, " ".join(filler(3, 7))) == 0.0  # 24 words: a text, not a question


def test_similarities_after_a_scan_are_read_from_it_and_never_stale(cgraph):
    ids = [cgraph.upsert_entity(f"E{i}", "Thing", filler(int(i % 7) * 4 + 1, i)) for i in range(30)]
    q = cgraph.embedder.encode_query("f3 f7 f11 zebra")
    for weight in (1.0, 0.4, 0.0):
        knn_branch(cgraph, q, 5, weight)  # the scan the fusion's look-ups follow
        read = chunked_knn.similarities(cgraph.db, index.VEC_TABLE, q, ids, weight)
        chunked_knn._last_scan.clear()
        fresh = chunked_knn.similarities(cgraph.db, index.VEC_TABLE, q, ids, weight)
        assert read.keys() == fresh.keys() == set(ids)
        assert all(read[i] == pytest.approx(fresh[i], abs=1e-6) for i in ids)
    knn_branch(cgraph, q, 5)
    before = chunked_knn.similarities(cgraph.db, index.VEC_TABLE, q, [ids[3]])[ids[3]]
    cgraph.upsert_entity("E3", "Thing", ["zebra f3 f7 f11"])  # its vector changes after the scan
    after = chunked_knn.similarities(cgraph.db, index.VEC_TABLE, q, [ids[3]])[ids[3]]
    assert after > before + 0.1
    chunked_knn._last_scan.clear()
    assert chunked_knn.similarities(cgraph.db, index.VEC_TABLE, q, [ids[3]])[ids[3]] == pytest.approx(after, abs=1e-6)
    assert 1 - dict(knn_branch(cgraph, q, 30))[ids[3]] == pytest.approx(after, abs=1e-6)


def test_windows_scanned_on_their_own_thread_give_the_same_answer(cgraph, monkeypatch):
    rng = np.random.default_rng(8)
    for i in range(60):
        cgraph.upsert_entity(f"E{i}", "Thing", filler(int(rng.integers(1, 20)), i))
    queries = [rng.standard_normal(24).astype(np.float32) for _ in range(10)]
    alone = [knn_branch(cgraph, q, 15) for q in queries]
    monkeypatch.setattr(chunked_knn, "PARALLEL_WINDOWS", 1)
    chunked_knn._last_scan.clear()
    beside = [knn_branch(cgraph, q, 15) for q in queries]
    assert chunked_knn._scanner  # the thread was used
    assert [[i for i, _ in r] for r in beside] == [[i for i, _ in r] for r in alone] == [brute_force(cgraph, q, 15) for q in queries]
