"""The usage signals search keeps in memory per connection follow every write: this connection's recording,
another program's writes, an undo, a sync, a write rolled back; and ranking from memory is ranking from the file."""

from __future__ import annotations

import pytest

from limbic.engine.graph import revert, signal_memory, signals
from limbic.engine.graph.graph import Graph
from limbic.engine.search.search import search
from limbic.engine.store.db import Database
from tests.sync.replicas import two_devices, settle

QUERY = "practice scales daily"


def _notes(graph: Graph) -> tuple[int, int]:
    graph.upsert_entity("Cello practice", "Note", ["practice the cello scales daily"])
    graph.upsert_entity("Piano practice", "Note", ["practice the piano scales daily"])
    for name in ("Teacher", "Metronome", "Concert", "Studio", "Bow"):
        graph.upsert_entity(name, "Thing", [f"{name} for music"])
    return graph.entity_id("Cello practice"), graph.entity_id("Piano practice")


def _scores(graph: Graph, query: str = QUERY) -> dict[int, tuple[float, float, float, float]]:
    return {r.entity_id: (r.limbic_score, r.importance, r.temporal, r.cooc_boost)
            for r in search(graph, query, record=False).results}


def _fresh(graph: Graph) -> Graph:
    """Another connection to the same file, whose memory starts empty."""
    return Graph(Database(graph.db.path), graph.embedder)


def _same_as_fresh(graph: Graph, query: str = QUERY) -> dict[int, tuple[float, float, float, float]]:
    """This connection's answer, checked against a connection that reads every signal from the file."""
    got = _scores(graph, query)
    other = _fresh(graph)
    try:
        want = _scores(other, query)
    finally:
        other.db.close()
    assert got.keys() == want.keys()
    for entity_id, values in got.items():
        # The temporal factor moves with the clock between the two searches, by far less than this.
        assert values == pytest.approx(want[entity_id], rel=1e-6, abs=1e-9)
    return got


def test_use_recorded_by_another_connection_is_in_the_next_ranking(text_graph):
    cello, piano = _notes(text_graph)
    before = _same_as_fresh(text_graph)
    assert before[piano][1] == before[cello][1] == 0.0  # nothing used yet
    other = _fresh(text_graph)
    try:
        for _ in range(5):
            assert signals.record_access(other.db, [piano, cello], together=[piano, cello])
        for _ in range(20):
            assert signals.record_access(other.db, [piano])
    finally:
        other.db.close()
    after = _same_as_fresh(text_graph)
    assert after[piano][1] > after[cello][1] > 0  # piano used more: more important now
    assert after[piano][3] > 0 and after[cello][3] > 0  # and the two came up together
    assert next(iter(after)) == piano


def test_relations_added_by_another_connection_count_in_the_next_ranking(text_graph):
    cello, piano = _notes(text_graph)
    assert signals.record_access(text_graph.db, [cello, piano])  # used alike, so degree decides importance
    before = _same_as_fresh(text_graph)
    assert before[cello][1] == before[piano][1]
    other = _fresh(text_graph)
    try:
        for name in ("Teacher", "Metronome", "Concert", "Studio"):
            other.add_relation("Cello practice", name, "needs")
    finally:
        other.db.close()
    after = _same_as_fresh(text_graph)
    assert after[cello][1] > after[piano][1] == before[piano][1]


def test_this_connections_recording_is_applied_to_the_memory_without_reading_again(text_graph):
    cello, piano = _notes(text_graph)
    for query in (QUERY, "music", "cello", QUERY, "piano scales", "music"):
        search(text_graph, query, record=True)
    memory = signal_memory.memory(text_graph.db)
    ids = [cello, piano, *(text_graph.entity_id(n) for n in ("Teacher", "Metronome", "Concert"))]
    other = _fresh(text_graph)
    try:
        assert signals.load_signals(text_graph.db, ids) == signals.load_signals(other.db, ids)
    finally:
        other.db.close()
    reads = memory.reads
    search(text_graph, QUERY, record=True)
    search(text_graph, "music", record=True)
    _same_as_fresh(text_graph)
    _same_as_fresh(text_graph, "music")
    assert memory.reads == reads  # what was searched before is not read again: the recording was applied


def test_an_undone_archive_ranks_as_before_it(text_graph):
    cello, _ = _notes(text_graph)
    before = _same_as_fresh(text_graph)
    text_graph.set_status("Cello practice", "archived")
    archived = _same_as_fresh(text_graph)
    assert archived[cello][0] == pytest.approx(before[cello][0] / 2)
    revert.apply(text_graph, [text_graph.db.activity.last_change_id])
    assert _same_as_fresh(text_graph)[cello][0] == pytest.approx(before[cello][0])


def test_a_write_rolled_back_leaves_nothing_behind_in_the_memory(text_graph):
    cello, _ = _notes(text_graph)
    before = _same_as_fresh(text_graph)
    with pytest.raises(RuntimeError):
        with text_graph.db.transaction():
            text_graph.db.execute("UPDATE entities SET status = 'archived' WHERE id = ?", (cello,))
            assert _scores(text_graph)[cello][0] == pytest.approx(before[cello][0] / 2)  # seen inside the write
            raise RuntimeError("taken back")
    assert _same_as_fresh(text_graph)[cello][0] == pytest.approx(before[cello][0])


def test_an_archive_that_arrives_by_sync_counts_in_the_next_ranking(tmp_path):
    with two_devices(tmp_path, seed=_notes) as (laptop, desktop, folder):
        cello = desktop.graph.entity_id("Cello practice")
        before = _same_as_fresh(desktop.graph)
        laptop.graph.set_status("Cello practice", "archived")
        settle([laptop, desktop], folder)
        after = _same_as_fresh(desktop.graph)
        assert after[cello][0] == pytest.approx(before[cello][0] / 2)


def test_the_count_of_indexed_entities_follows_every_writer(text_graph):
    from limbic.engine.search.flat_terms import text_rows

    cello, piano = _notes(text_graph)
    rows = text_rows(text_graph.db)
    assert rows == 7
    assert signals.record_access(text_graph.db, [cello, piano])  # recording keeps the count
    assert signal_memory.memory(text_graph.db).rows == rows
    other = _fresh(text_graph)
    try:
        other.upsert_entity("Harp practice", "Note", ["practice the harp"])
    finally:
        other.db.close()
    assert text_rows(text_graph.db) == rows + 1
    text_graph.delete_entity("Harp practice")
    assert text_rows(text_graph.db) == rows


def test_the_vocabulary_skips_this_connections_recording_and_follows_the_rest(text_graph, monkeypatch):
    from limbic.engine.search import lexicon
    from limbic.engine.store import changes

    cello, piano = _notes(text_graph)
    search(text_graph, QUERY, record=False)  # the first search reads the vocabulary and the signals
    assert lexicon.lexicon(text_graph.db).doc("harp") == 0
    looks = []
    real = changes.read_since
    monkeypatch.setattr(changes, "read_since", lambda *a, **k: looks.append(1) or real(*a, **k))
    for _ in range(3):
        assert signals.record_access(text_graph.db, [cello, piano])
        lexicon.lexicon(text_graph.db)
    assert looks == []  # only searches recorded: the change log is not even looked at
    other = _fresh(text_graph)
    try:
        other.upsert_entity("Harp practice", "Note", ["practice the harp"])
    finally:
        other.db.close()
    assert lexicon.lexicon(text_graph.db).doc("harp") == 1
    assert signals.record_access(text_graph.db, [cello])
    text_graph.upsert_entity("Harp lesson", "Note", ["a harp lesson"])  # this connection's own write
    assert lexicon.lexicon(text_graph.db).doc("harp") == 2


def test_what_a_text_carries_and_whether_it_is_bare_follow_another_connections_edit(text_graph):
    from limbic.engine.search import bare, carry
    from limbic.engine.search.candidates import Candidate
    from limbic.engine.search.flat_terms import text_rows

    cello, piano = _notes(text_graph)
    text_graph.upsert_entity("Backups", "Topic", [])
    backups = text_graph.entity_id("Backups")
    ids = [cello, piano, backups]

    def sizes(graph):
        cands = [Candidate(i) for i in ids]
        carry.measure(graph.db, cands, text_rows(graph.db))
        return [c.size for c in cands]

    before = sizes(text_graph)
    assert bare._empty(text_graph.db, ids) == {backups}
    other = _fresh(text_graph)
    try:
        other.add_observations("Cello practice", ["a rare zygomorphic bridge"])
        other.add_observations("Backups", ["nightly restic backups"])
    finally:
        other.db.close()
    after = sizes(text_graph)
    assert after[0] > before[0]  # more and rarer words carried
    assert bare._empty(text_graph.db, ids) == set()
    fresh = _fresh(text_graph)
    try:
        assert after == sizes(fresh)
    finally:
        fresh.db.close()
