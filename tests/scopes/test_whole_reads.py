"""Whole-table reads of a narrowed connection without the views (``visibility.seen_rows``, ``sum_over``) give
exactly the rows and sums the views give, follow each change of the graph and of the scope at the next call,
and a whole ``read_graph`` made that way still holds nothing hidden."""

from __future__ import annotations

import json

import pytest

from limbic.engine.store import visibility
from limbic.service import scope
from tests.scopes.host import Host, seeded

TYPES = ("Person", "Place", "Health")


def _seed(graph):
    for i in range(60):
        graph.upsert_entity(f"Node {i:02d}", TYPES[i % 3], [f"note {i} one", f"note {i} two"])
    for i in range(60):
        graph.add_relation(f"Node {i:02d}", f"Node {(i * 7 + 1) % 60:02d}", "knows")
    for i in (5, 17, 42):
        graph.set_private(f"Node {i:02d}", True)


@pytest.fixture
def host(tmp_path):
    h = Host(seeded(tmp_path / "g.db", _seed))
    yield h
    h.close()


READS = {  # (sql through the views, the same read of main. tables, the positions of its entity ids)
    "entities": ("SELECT id, name FROM entities ORDER BY id", "SELECT id, name FROM main.entities ORDER BY id", (0,)),
    "observations": ("SELECT entity_id, content FROM observations ORDER BY id",
                     "SELECT entity_id, content FROM main.observations ORDER BY id", (0,)),
    "relations": ("SELECT r.id, a.name, b.name FROM relations r JOIN entities a ON a.id = r.from_entity "
                  "JOIN entities b ON b.id = r.to_entity ORDER BY r.id",
                  "SELECT r.from_entity, r.to_entity, r.id, a.name, b.name FROM main.relations r JOIN main.entities a "
                  "ON a.id = r.from_entity JOIN main.entities b ON b.id = r.to_entity ORDER BY r.id", (0, 1)),
}
SUMS = {"entities": "length(name) + 1", "observations": "length(content) + 1", "relations": "1",
        "entity_aliases": "length(alias)"}


def _as_views_read(graph) -> dict:
    """Every read both ways, and every sum both ways, on the connection as it is narrowed now."""
    db = graph.db
    out = {}
    for table, (through_views, plain, ends) in READS.items():
        fast = [row[len(ends):] if table == "relations" else row
                for row in visibility.seen_rows(db, plain, ends=ends)]
        out[table] = (list(db.execute(through_views)), fast)
    for table, expression in SUMS.items():
        out[f"sum {table}"] = (db.scalar(f"SELECT coalesce(sum({expression}), 0) FROM {table}"),
                               visibility.sum_over(db, table, expression))
        out[f"count {table}"] = (db.scalar(f"SELECT count(*) FROM {table}"), visibility.count(db, table))
    return out


def _check(host, client: str) -> dict:
    def read(graph):
        with scope.ScopedView(graph, client).reading():
            return _as_views_read(graph)

    found = host.host.submit(read, host.graph()).result()
    for key, (views, fast) in found.items():
        assert views == fast, key
    return {key: views for key, (views, _) in found.items()}


def test_the_reads_without_views_give_what_the_views_give_with_few_or_most_hidden(host):
    host.run(lambda g: g.add_alias("Node 05", "Five"))  # a private entity's alias
    host.run(lambda g: g.add_alias("Node 08", "Eight"))
    few = _check(host, "work-assistant")  # three private: the TEMP table holds the hidden ids
    assert len(few["entities"]) == 57 and all("Node 05" not in str(r) for r in few["relations"])
    assert few["sum entity_aliases"] == len("Eight") and few["sum relations"] == len(few["relations"])
    host.run(scope.set_access, "work-assistant", ("Health",), "none")  # most hidden: it holds the seen ids
    most = _check(host, "work-assistant")
    health = {f"Node {i:02d}" for i in range(2, 60, 3)} - {"Node 05", "Node 17"}
    assert {name for _, name in most["entities"]} == health and most["sum entity_aliases"] == len("Eight")
    assert visibility.hidden_share(host.graph().db) == pytest.approx(1 - len(health) / 60)


def test_a_mark_or_scope_changed_while_the_server_runs_applies_to_the_next_whole_read(host, tmp_path):
    from limbic.service.opening import open_graph

    def names() -> set[str]:
        graph = json.loads(host.ok("read_graph"))
        ends = {n for r in graph["relations"] for n in (r["from"], r["to"])}
        return {e["name"] for e in graph["entities"]} | ends

    assert "Node 08" in names() and "Node 05" not in names()  # the set of hidden ids is read and kept
    other = open_graph(tmp_path / "g.db", None, load_model=False)  # the app, in another process
    try:
        other.graph.set_private("Node 08", True)
        assert "Node 08" not in names()
        _check(host, "work-assistant")
        other.graph.set_private("Node 05", False)
        assert "Node 05" in names() and "Node 08" not in names()
        scope.set_access(other.graph, "work-assistant", ("Place",), "none")
        assert names() == {f"Node {i:02d}" for i in range(1, 60, 3)}
        _check(host, "work-assistant")
    finally:
        other.close()


def test_a_whole_read_graph_holds_nothing_of_a_hidden_entity(host):
    text = host.ok("read_graph")
    for i in (5, 17, 42):
        assert f"Node {i:02d}" not in text and f"note {i} " not in text
    graph = json.loads(text)
    assert len(graph["entities"]) == 57 and json.loads(host.ok("read_graph", limit=5))["total_entities"] == 57
    assert len(graph["relations"]) == 60 - sum(1 for i in range(60) if i in (5, 17, 42) or (i * 7 + 1) % 60 in (5, 17, 42))


def test_a_search_of_an_assistant_that_sees_little_still_fills_its_limit(host):
    host.run(scope.set_access, "work-assistant", ("Place",), "none")
    results = json.loads(host.ok("search", query="note", limit=5))["results"]
    assert len(results) == 5 and all(r["entityType"] == "Place" for r in results)
    assert not any(r["name"] == "Node 17" for r in results)


def test_a_search_of_an_assistant_that_may_read_nothing_runs_once_and_finds_nothing(host, monkeypatch):
    from limbic.engine.search import search as engine

    runs = []
    real = engine.search
    monkeypatch.setattr(engine, "search", lambda *a, **k: runs.append(a[2]) or real(*a, **k))
    host.ok("search", query="note", limit=5)
    assert len(runs) == 1  # 57 seen: the first depth holds them
    runs.clear()
    host.run(scope.set_access, "work-assistant", "none", "none")
    assert json.loads(host.ok("search", query="note", limit=5))["results"] == []
    assert runs == [5]  # nothing to find deeper


def test_the_cap_on_characters_counts_what_the_assistant_sees_not_the_file(host):
    from limbic.service import memory
    from limbic.service import memory_reads as R

    def read(graph):
        with scope.ScopedView(graph, "work-assistant").reading():
            seen, whole = R.graph_chars(graph), R.graph_chars(graph, visibility.sum_bound)
            between = (seen + whole) // 2  # the file is past it, what the assistant sees is not
            return (seen, whole, R.within(graph, between), R.within(graph, seen), R.within(graph, seen - 1),
                    memory.read_graph(graph, max_chars=between), memory.read_graph(graph, max_chars=seen - 1))

    seen, whole, fits_between, fits_seen, fits_below, between, below = host.host.submit(read, host.graph()).result()
    assert seen < whole and (fits_between, fits_seen, fits_below) == (True, True, False)
    assert len(between["entities"]) == 57 and "next_offset" not in between
    assert "next_offset" in below and len(below["entities"]) < 57
