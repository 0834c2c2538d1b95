"""What the graph view reads (neighbourhoods, hubs, filters, suggestions, positions) and its GraphML export."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest

from limbic.engine.store.db import Database
from limbic.engine.errors import NotFoundError
from limbic.engine.graph.graph import Graph
from limbic.service import graph_export, graph_view
from limbic.service.graph_view import entity_delta, link, neighbourhood, suggestions, whole_graph
from tests.engine.test_vector_index import HashEmbedder

GML = "{http://graphml.graphdrawing.org/xmlns}"
CROWD = 60  # members of the big hub


def build_known_graph(g: Graph) -> None:
    """A graph whose neighbourhood sizes are known: 5 / 12 / 13 nodes around "Hub" at depth 1 / 2 / 3.

    Hub -works_with-> A1..A3 (Person); B1 (Tool) -depends_on-> Hub; each A has two Notes
    (-mentions->); C1 (Tool) -uses-> B1; A1 note 1 -mentions-> D1. "Crowd" has 60 members.
    "Twin" shares Hub's words but has no relation to it; "Stranger" shares none.
    """
    with g.write():
        g.upsert_entity("Hub", "Project", ["alpha beta gamma delta"])
        for i in (1, 2, 3):
            g.upsert_entity(f"A{i}", "Person", ["alpha beta gamma"])
            g.add_relation("Hub", f"A{i}", "works_with")
            for j in (1, 2):
                g.upsert_entity(f"A{i} note {j}", "Note", [f"note {i} {j}"])
                g.add_relation(f"A{i}", f"A{i} note {j}", "mentions")
        g.upsert_entity("B1", "Tool", ["hammer"])
        g.add_relation("B1", "Hub", "depends_on")
        g.upsert_entity("C1", "Tool", ["saw"])
        g.add_relation("C1", "B1", "uses")
        g.upsert_entity("D1", "Note", ["deep"])
        g.add_relation("A1 note 1", "D1", "mentions")
        g.upsert_entity("Crowd", "Topic", ["many"])
        for i in range(CROWD):
            g.upsert_entity(f"Member {i:02d}", "Note", [f"member {i}"])
            g.add_relation(f"Member {i:02d}", "Crowd", "member_of")
        # Twin's text repeats Hub's embedded text word for word (the test model is a bag of words).
        g.upsert_entity("Twin", "Project", ["alpha beta gamma delta | Rel: works_with -> A1; works_with -> A2; works_with -> A3"])
        g.upsert_entity("Stranger", "Generic", ["zeta eta theta iota"])


@pytest.fixture
def kg(tmp_path):
    g = Graph(Database(tmp_path / "view.db"), HashEmbedder())
    build_known_graph(g)
    yield g
    g.db.close()


def names(view) -> set[str]:
    return {n.name for n in view.nodes}


def test_depth_one_two_three_follow_both_directions(kg):
    assert [len(neighbourhood(kg, "Hub", d).nodes) for d in (1, 2, 3)] == [5, 12, 13]
    one = neighbourhood(kg, "Hub", 1)
    assert names(one) == {"Hub", "A1", "A2", "A3", "B1"}  # B1 points at Hub: incoming counts
    assert {n.depth for n in one.nodes if n.name != "Hub"} == {1}
    hub = one.node(kg.entity_id("Hub"))
    assert hub.degree == 4 and hub.entity_type == "Project"
    # Every edge joins two shown nodes, with its type and direction.
    assert {(e.source, e.target, e.relation_type) for e in one.edges} == {
        (kg.entity_id("Hub"), kg.entity_id(f"A{i}"), "works_with") for i in (1, 2, 3)
    } | {(kg.entity_id("B1"), kg.entity_id("Hub"), "depends_on")}
    assert "D1" in names(neighbourhood(kg, "Hub", 3)) and "D1" not in names(neighbourhood(kg, "Hub", 2))
    assert len(neighbourhood(kg, "Hub", 9).nodes) == 13  # depth is kept within 1..3
    with pytest.raises(NotFoundError):
        neighbourhood(kg, "Nobody", 1)


def test_filters_by_entity_type_and_relation_type(kg):
    people = neighbourhood(kg, "Hub", 2, entity_types={"Project", "Person"})
    assert names(people) == {"Hub", "A1", "A2", "A3"}
    deps = neighbourhood(kg, "Hub", 2, relation_types={"depends_on"})
    assert names(deps) == {"Hub", "B1"} and [e.relation_type for e in deps.edges] == ["depends_on"]
    # The centre stays even when its own type is filtered out.
    assert "Hub" in names(neighbourhood(kg, "Hub", 1, entity_types={"Person"}))


def test_a_hub_folds_past_the_limit_and_expands_on_demand(kg):
    crowd = kg.entity_id("Crowd")
    folded = neighbourhood(kg, crowd, 1)
    more = [n for n in folded.nodes if n.is_more]
    assert len(folded.nodes) == 1 + graph_view.HUB_LIMIT + 1
    assert len(more) == 1 and more[0].more == CROWD - graph_view.HUB_LIMIT and more[0].id == -crowd
    assert more[0].name == f"+{CROWD - graph_view.HUB_LIMIT} more"
    assert any(e.source == crowd and e.target == -crowd for e in folded.edges)
    opened = neighbourhood(kg, crowd, 1, expanded={crowd})
    assert len(opened.nodes) == 1 + CROWD and not any(n.is_more for n in opened.nodes)
    assert len(neighbourhood(kg, crowd, 1, hub_limit=10).nodes) == 12


def test_suggestions_are_near_in_meaning_and_unlinked_and_link_makes_them_relations(kg):
    found = suggestions(kg, "Hub", k=3)
    got = [s.name for s in found]
    assert got[0] == "Twin"  # nearest by meaning with no relation
    assert not {"A1", "A2", "A3", "B1"} & set(got)  # A1..A3 share the words but are linked
    assert all(0 < s.similarity <= 1 for s in found)
    assert link(kg, "Hub", "Twin", "similar_to") is True
    assert "Twin" not in [s.name for s in suggestions(kg, "Hub", k=3)]
    assert "Twin" in names(neighbourhood(kg, "Hub", 1))
    plain = Graph(kg.db)  # no model: the stored vectors still answer
    assert suggestions(plain, "Stranger", k=2)


def test_whole_graph_arrays_and_positions_survive_a_reopen(kg, tmp_path):
    arrays = whole_graph(kg)
    n = kg.counts()["entities"]
    assert arrays.n == n and len(arrays.src) == kg.counts()["relations"]
    hub = int(np.searchsorted(arrays.ids, kg.entity_id("Hub")))
    assert arrays.degree[hub] == 4 and arrays.type_names[arrays.types[hub]] == "Project"
    assert np.isnan(arrays.positions).all()  # nothing laid out yet
    xy = np.column_stack((np.arange(n, dtype=float), -np.arange(n, dtype=float)))
    assert graph_view.save_positions(kg, arrays.ids, xy) == n
    kg.delete_entity("Stranger")  # its position goes with it
    again = whole_graph(Graph(Database(kg.db.path)))
    assert again.n == n - 1
    kept = np.searchsorted(arrays.ids, again.ids)
    assert np.array_equal(again.positions, xy[kept])


def test_entity_delta_reads_the_current_state(kg):
    a1, gone = kg.entity_id("A1"), kg.entity_id("Stranger")
    kg.delete_entity("Stranger")
    delta = entity_delta(kg, [a1, gone])
    assert [n.name for n in delta.present] == ["A1"] and delta.missing == [gone]
    assert delta.present[0].degree == 3
    assert {e.relation_type for e in delta.edges} == {"works_with", "mentions"}


def test_graphml_reads_back_with_every_node_edge_and_attribute(kg, tmp_path):
    kg.upsert_entity("Odd <&> \"quoted\" \u00e9 name", "Note & co", ["x"])
    arrays = whole_graph(kg)
    graph_view.save_positions(kg, arrays.ids[:3], np.array([[1.5, 2.5], [3.0, 4.0], [5.0, 6.0]]))
    path = tmp_path / "out.graphml"
    assert graph_export.export_whole_graph(kg, str(path)) == arrays.n
    root = ET.parse(path).getroot()
    keys = {(k.get("for"), k.get("attr.name")) for k in root.iter(GML + "key")}
    assert keys == {("node", a) for a in ("name", "type", "status", "degree", "x", "y")} | {("edge", "relation_type")}
    nodes = {}
    for node in root.iter(GML + "node"):
        nodes[node.get("id")] = {d.get("key"): d.text for d in node.iter(GML + "data")}
    assert len(nodes) == arrays.n
    for k, entity_id in enumerate(arrays.ids):
        data = nodes[f"n{entity_id}"]
        assert data["name"] == arrays.names[k]
        assert data["type"] == arrays.type_names[arrays.types[k]]
        assert data["status"] == arrays.statuses[k] and int(data["degree"]) == arrays.degree[k]
        if k < 3:
            assert (float(data["x"]), float(data["y"])) == tuple(graph_view.load_positions(kg, arrays.ids[k:k + 1])[0])
        else:
            assert "x" not in data
    edges = {(e.get("source"), e.get("target"), next(e.iter(GML + "data")).text) for e in root.iter(GML + "edge")}
    want = {(f"n{arrays.ids[a]}", f"n{arrays.ids[b]}", arrays.rel_names[r])
            for a, b, r in zip(arrays.src, arrays.dst, arrays.rels)}
    assert edges == want and len(list(root.iter(GML + "edge"))) == len(want)


def test_an_export_where_it_must_not_go_is_one_sentence_and_writes_nothing(kg, tmp_path):
    from limbic.engine.errors import LimbicError

    size = kg.db.path.stat().st_size
    for target, words in ((tmp_path / "missing-folder" / "g.graphml", "does not exist"),
                          (kg.db.path, "open graph file"), (tmp_path, "is a folder")):
        for export in (lambda p: graph_export.export_whole_graph(kg, str(p)),
                       lambda p: graph_export.export_bytes(kg, str(p), b"<svg/>")):
            with pytest.raises(LimbicError) as err:
                export(target)
            assert words in str(err.value) and "\n" not in str(err.value)
    assert kg.db.path.stat().st_size == size and kg.counts()["entities"] > 0
    assert graph_export.export_bytes(kg, str(tmp_path / "p.svg"), b"<svg/>") == 6
    assert (tmp_path / "p.svg").read_bytes() == b"<svg/>" and not list(tmp_path.glob(".*.part"))
