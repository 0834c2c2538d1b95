"""The time slider's lifetimes: when each entity and relation existed, read once from the recorded history."""

from __future__ import annotations

import numpy as np

from limbic.service import graph_time
from limbic.service.graph_time import OPEN, exists_at, seconds


def at(text: str) -> int:
    return int(seconds([text])[0])


def build(graph, clock):
    """Ann and Bob from 09:00; Cat at 10:00 and deleted at 11:00; Ann-knows-Bob ended at 10:30, started again at 12:00."""
    ann = graph.create_entity("Ann", "Person")
    bob = graph.create_entity("Bob", "Person")
    graph.add_relation(ann, bob, "knows")
    clock.advance(3600)
    cat = graph.create_entity("Cat", "Pet")
    graph.add_relation(ann, cat, "owns")
    clock.advance(1800)
    graph.end_relation(ann, bob, "knows")
    clock.advance(1800)
    graph.delete_entity(cat)
    clock.advance(3600)
    graph.add_relation(ann, bob, "knows")
    clock.advance(60)
    return ann, bob, cat


def test_whole_graph_lifetimes_hold_deleted_entities_and_each_period_of_a_relation(graph, clock):
    ann, bob, cat = build(graph, clock)
    lt = graph_time.lifetimes(graph)
    ids = list(lt.entity_ids)
    assert ids == sorted([ann, bob, cat])
    k = ids.index(cat)
    assert (lt.entity_from[k], lt.entity_to[k]) == (at("2025-01-01 10:00:00"), at("2025-01-01 11:00:00"))
    assert lt.entity_to[ids.index(ann)] == OPEN
    assert (lt.names[k], lt.types[k]) == ("Cat", "Pet")  # a deleted entity's last name and type
    knows = [j for j, t in enumerate(lt.edge_type) if t == "knows"]
    periods = sorted((int(lt.edge_from[j]), int(lt.edge_to[j])) for j in knows)
    assert periods == [(at("2025-01-01 09:00:00"), at("2025-01-01 10:30:00")), (at("2025-01-01 12:00:00"), OPEN)]
    owns = lt.edge_type.index("owns")
    assert lt.edge_to[owns] == at("2025-01-01 11:00:00")  # it went with Cat
    at_1045 = at("2025-01-01 10:45:00")
    assert set(lt.entity_ids[exists_at(lt.entity_from, lt.entity_to, at_1045)]) == {ann, bob, cat}
    assert [lt.edge_type[j] for j in np.flatnonzero(exists_at(lt.edge_from, lt.edge_to, at_1045))] == ["owns"]


def test_local_lifetimes_reach_the_deleted_neighbours_of_the_entities_asked_for(graph, clock):
    ann, bob, cat = build(graph, clock)
    lt = graph_time.lifetimes(graph, [bob])
    assert set(lt.entity_ids) == {ann, bob}  # Cat never touched Bob
    assert set(lt.edge_type) == {"knows"} and len(lt.edge_type) == 2
    lt = graph_time.lifetimes(graph, [ann])
    assert set(lt.entity_ids) == {ann, bob, cat} and "Cat" in lt.names


def test_a_file_without_history_gives_no_periods(graph, clock):
    graph.create_entity("Ann", "Person")
    graph.db.execute("DROP TABLE history")
    lt = graph_time.lifetimes(graph)
    assert not lt.known and len(lt.entity_ids) == 0


def test_an_id_given_again_after_a_deletion_is_two_lives(graph, clock):
    cat = graph.create_entity("Cat", "Pet")
    clock.advance(3600)
    graph.delete_entity(cat)
    clock.advance(3600)
    dan = graph.create_entity("Dan", "Person")
    assert dan == cat  # SQLite gives the newest row's id again
    lt = graph_time.lifetimes(graph)
    assert list(lt.entity_ids) == [cat, cat] and lt.names == ["Cat", "Dan"]
    assert lt.entity_to[0] == at("2025-01-01 10:00:00") and lt.entity_to[1] == OPEN
