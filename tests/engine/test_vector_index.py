"""The in-memory vector mirror: exact KNN equal to sqlite-vec's, and kept in step with the table."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np
import pytest

from limbic.engine.vectors import index, vector_index
from limbic.engine.store.db import Database
from limbic.engine.graph.graph import Graph
from limbic.engine.search.search import knn_branch, search

DIM = 24


@dataclass(frozen=True)
class _Spec:
    name: str = "hash-bag"
    text_budget: int = 480


class HashEmbedder:
    """A cheap deterministic model: a normalised bag of hashed word vectors (no ONNX)."""

    def __init__(self, identity: str = "hash-bag/24") -> None:
        self.spec = _Spec()
        self.dim = DIM
        self.identity = identity

    def count_tokens(self, texts):
        return [len(t.split()) for t in texts]

    def _word(self, word: str) -> np.ndarray:
        seed = int.from_bytes(hashlib.blake2b(word.lower().encode(), digest_size=8).digest(), "little")
        return np.random.default_rng(seed).standard_normal(DIM).astype(np.float32)

    def encode(self, texts, kind="passage", batch_size=32, progress=None):
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in text.split():
                out[i] += self._word(word)
            out[i] /= max(float(np.linalg.norm(out[i])), 1e-9)
        return out

    def encode_query(self, text):
        return self.encode([text], kind="query")[0]


def vec0_knn(db: Database, vector: np.ndarray, k: int) -> list[tuple[int, float]]:
    """sqlite-vec's own exact scan: the reference the mirror must equal."""
    sql = f"SELECT rowid, distance FROM {index.VEC_TABLE} WHERE embedding MATCH ? AND k = ? ORDER BY distance"
    return [(r[0], float(r[1])) for r in db.execute(sql, (np.asarray(vector, np.float32).tobytes(), k))]


def assert_same_knn(got, want):
    assert [i for i, _ in got] == [i for i, _ in want]
    np.testing.assert_allclose([d for _, d in got], [d for _, d in want], atol=1e-5)


@pytest.fixture
def hgraph(tmp_path):
    g = Graph(Database(tmp_path / "hash.db"), HashEmbedder())
    yield g
    g.db.close()


def fill(g: Graph, n: int, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(60)]
    with g.write():
        for i in range(n):
            g.upsert_entity(f"E{i}", "Thing", [" ".join(rng.choice(words, size=6))])


def random_queries(n: int, seed: int = 1) -> np.ndarray:
    q = np.random.default_rng(seed).standard_normal((n, DIM)).astype(np.float32)
    return q / np.linalg.norm(q, axis=1, keepdims=True)


def test_knn_equals_sqlite_vec_and_numpy(hgraph):
    fill(hgraph, 300)
    for q in random_queries(20):
        got = knn_branch(hgraph, q, 15)
        assert_same_knn(got, vec0_knn(hgraph.db, q, 15))
        ids = [r[0] for r in hgraph.db.execute(f"SELECT rowid FROM {index.VEC_TABLE}")]
        mat = np.stack([hgraph.embedder.encode([t])[0] for t in _texts(hgraph, ids)]).astype(np.float64)
        dist = 1 - mat @ q.astype(np.float64)
        want = [ids[i] for i in np.argsort(dist, kind="stable")[:15]]
        assert [i for i, _ in got] == want


def _texts(g: Graph, ids):
    return index.entity_texts([index.load_source(g.db, i) for i in ids], g.embedder)


def test_k_larger_than_table_and_empty_table(hgraph):
    q = random_queries(1)[0]
    assert knn_branch(hgraph, q, 10) == []
    fill(hgraph, 4)
    assert len(knn_branch(hgraph, q, 10)) == 4


def test_writes_and_deletes_are_reflected_without_reloading(hgraph):
    fill(hgraph, 50)
    q = hgraph.embedder.encode_query("zebra giraffe okapi")
    knn_branch(hgraph, q, 5)
    mirror = vector_index.mirror_for(hgraph.db, index.VEC_TABLE)
    loads = mirror.loads
    new_id = hgraph.upsert_entity("Savanna", "Place", ["zebra giraffe okapi"])
    assert knn_branch(hgraph, q, 1)[0][0] == new_id
    hgraph.add_observations("E3", ["zebra giraffe okapi"])  # re-embedded in place
    assert_same_knn(knn_branch(hgraph, q, 10), vec0_knn(hgraph.db, q, 10))
    hgraph.delete_entity("Savanna")
    got = knn_branch(hgraph, q, 60)
    assert new_id not in [i for i, _ in got]
    assert_same_knn(got, vec0_knn(hgraph.db, q, 60))
    assert mirror.loads == loads  # followed every change in place
    assert len(mirror) == 50


def test_vector_dropped_when_not_embedding_now(hgraph):
    fill(hgraph, 10)
    q = random_queries(1)[0]
    knn_branch(hgraph, q, 5)
    with hgraph.write(embed=False):
        hgraph.add_observations("E1", ["something new"])
    assert hgraph.entity_id("E1") not in [i for i, _ in knn_branch(hgraph, q, 20)]


def test_rolled_back_write_is_not_searched(hgraph):
    fill(hgraph, 20)
    q = hgraph.embedder.encode_query("zebra giraffe okapi")
    knn_branch(hgraph, q, 5)
    with pytest.raises(RuntimeError):
        with hgraph.write():
            hgraph.upsert_entity("Ghost", "Place", ["zebra giraffe okapi"])
            raise RuntimeError("abandon")
    got = knn_branch(hgraph, q, 25)
    assert len(got) == 20
    assert_same_knn(got, vec0_knn(hgraph.db, q, 25))


def test_rollback_then_new_write_is_still_caught(hgraph):
    fill(hgraph, 20)
    q = hgraph.embedder.encode_query("zebra giraffe okapi")
    knn_branch(hgraph, q, 5)
    with pytest.raises(RuntimeError):
        with hgraph.write():
            hgraph.upsert_entity("Ghost", "Place", ["zebra giraffe okapi"])
            raise RuntimeError("abandon")
    hgraph.upsert_entity("Real", "Place", ["nothing alike"])  # no search in between
    assert_same_knn(knn_branch(hgraph, q, 25), vec0_knn(hgraph.db, q, 25))


def test_changes_by_another_connection_are_picked_up(tmp_path):
    path = tmp_path / "shared.db"
    a = Graph(Database(path), HashEmbedder())
    b = Graph(Database(path), HashEmbedder())
    try:
        fill(a, 30)
        q = a.embedder.encode_query("zebra giraffe okapi")
        knn_branch(a, q, 5)
        mirror = vector_index.mirror_for(a.db, index.VEC_TABLE)
        loads = mirror.loads
        knn_branch(a, q, 5)
        assert mirror.loads == loads  # nothing changed: no reload
        new_id = b.upsert_entity("Savanna", "Place", ["zebra giraffe okapi"])
        assert knn_branch(a, q, 1)[0][0] == new_id
        b.delete_entity("E0")
        b.delete_entity("Savanna")
        got = knn_branch(a, q, 50)
        assert {new_id, a.entity_id("E0")}.isdisjoint(i for i, _ in got)
        assert_same_knn(got, vec0_knn(a.db, q, 50))
    finally:
        a.db.close()
        b.db.close()


def test_model_change_empties_the_mirror(hgraph):
    fill(hgraph, 10)
    q = random_queries(1)[0]
    assert knn_branch(hgraph, q, 5)
    hgraph.attach_embedder(HashEmbedder(identity="another-model/24"))
    assert knn_branch(hgraph, q, 5) == []
    hgraph.embed_pending()
    assert_same_knn(knn_branch(hgraph, q, 10), vec0_knn(hgraph.db, q, 10))


def test_portable_scan_equals_chunk_reader(hgraph, monkeypatch):
    fill(hgraph, 120)
    for name in ("E7", "E20", "E50", "E118"):  # holes in the chunk, one filled again below
        hgraph.delete_entity(name)
    hgraph.upsert_entity("Late", "Thing", ["w1 w2 w3"])
    fast = vector_index.VectorMirror(index.VEC_TABLE)
    fast.load(hgraph.db)
    monkeypatch.setattr(vector_index.VectorMirror, "_load_chunks", lambda self, db: False)
    slow = vector_index.VectorMirror(index.VEC_TABLE)
    slow.load(hgraph.db)
    assert sorted(fast.ids()) == sorted(slow.ids()) and len(fast) == 117
    for q in random_queries(5):
        assert fast.knn(hgraph.db, q, 10) == slow.knn(hgraph.db, q, 10)


def test_readonly_connection_searches(tmp_path):
    path = tmp_path / "ro.db"
    g = Graph(Database(path), HashEmbedder())
    fill(g, 15)
    g.db.close()
    ro = Graph(Database(path, readonly=True))
    ro.embedder = HashEmbedder()
    try:
        q = random_queries(1)[0]
        assert_same_knn(knn_branch(ro, q, 5), vec0_knn(ro.db, q, 5))
    finally:
        ro.db.close()


def test_wrong_dimension_query_is_refused(hgraph):
    fill(hgraph, 3)
    with pytest.raises(ValueError, match="dimension"):
        knn_branch(hgraph, np.ones(DIM + 1, dtype=np.float32), 3)


def test_search_with_real_model_matches_vec0(graph):
    graph.upsert_entity("Lisbon", "City", ["Capital of Portugal, on the Tagus river"])
    graph.upsert_entity("Porto", "City", ["Port wine comes from the Douro valley"])
    graph.upsert_entity("Kubernetes", "Tool", ["Schedules containers across a cluster"])
    q = graph.embedder.encode_query("river city in Portugal")
    assert_same_knn(knn_branch(graph, q, 3), vec0_knn(graph.db, q, 3))
    assert search(graph, "river city in Portugal", record=False).results[0].name == "Lisbon"


def test_release_frees_the_mirror_and_search_still_works(hgraph):
    fill(hgraph, 10)
    q = random_queries(1)[0]
    before = knn_branch(hgraph, q, 5)
    first = vector_index.mirror_for(hgraph.db, index.VEC_TABLE)
    vector_index.release(hgraph.db)
    assert knn_branch(hgraph, q, 5) == before
    assert vector_index.mirror_for(hgraph.db, index.VEC_TABLE) is not first


def test_repair_drops_an_orphan_vector_from_search(hgraph):
    from limbic.engine.check import repair

    fill(hgraph, 10)
    orphan = np.full(DIM, 1 / np.sqrt(DIM), dtype=np.float32)
    hgraph.db.execute(f"INSERT INTO {index.VEC_TABLE}(rowid, embedding) VALUES (999, ?)", (orphan.tobytes(),))
    assert knn_branch(hgraph, orphan, 1)[0][0] == 999  # damage the mirror has loaded
    repair(hgraph.db)
    assert 999 not in [i for i, _ in knn_branch(hgraph, orphan, 20)]
