"""Where reference clients rely on exact behaviour: whole answers, exact names, every problem of a batch
listed with its item, bounded search output; and the seed's history tools, which keep what a delete loses."""

from __future__ import annotations

import json

import pytest

from limbic.engine.errors import NotFoundError, ValidationError
from limbic.service import memory, memory_history


def ent(name, etype="Thing", obs=(), **extra):
    return {"name": name, "entityType": etype, "observations": list(obs), **extra}


def rel(a, b, t="knows", **extra):
    return {"from": a, "to": b, "relationType": t, **extra}


def test_search_nodes_returns_every_match(text_graph):
    g = text_graph
    for start in range(0, 2_000, 1_000):
        memory.create_entities(g, [ent(f"E{i}", obs=[f"common word {i}"]) for i in range(start, start + 1_000)])
    found = memory.search_nodes(g, "COMMON")
    assert len(found["entities"]) == 2_000 and set(found) == {"entities", "relations"}


def test_deletes_match_the_exact_name_only(text_graph):
    g = text_graph
    memory.create_entities(g, [ent("Alice", obs=["likes tea"]), ent("Bob")])
    memory.create_relations(g, [rel("Alice", "Bob")])
    message = memory.delete_entities(g, ["ALICE"])
    assert message.startswith("Deleted 0 of 1 entities. Not found: ALICE") and "“Alice”" in message
    assert memory.delete_observations(g, [{"entityName": "alice", "observations": ["likes tea"]}]).startswith("Deleted 0 of 1")
    assert memory.delete_relations(g, [rel("ALICE", "bob")]).startswith("Deleted 0 of 1")
    graph = memory.read_graph(g)
    assert graph == {"entities": [ent("Alice", obs=["likes tea"]), ent("Bob")], "relations": [rel("Alice", "Bob")]}
    # The same name composed or decomposed is one name (NFC), and the delete finds it.
    memory.create_entities(g, [ent("Caf\u00e9")])
    assert memory.delete_entities(g, ["Cafe\u0301"]) == "Entities deleted successfully"


def test_a_name_differing_only_in_case_is_refused_naming_the_existing_entity(text_graph):
    g = text_graph
    memory.create_entities(g, [ent("Alice", obs=["first"])])
    with pytest.raises(ValidationError) as info:
        memory.create_entities(g, [ent("Carol"), ent("alice", obs=["would be lost"])])
    assert str(info.value).startswith("Item 2 of “entities”: “alice” differs only in case from the entity “Alice”")
    assert [e["name"] for e in memory.read_graph(g)["entities"]] == ["Alice"]  # all or nothing: no Carol either
    with pytest.raises(ValidationError, match="Item 2 of “entities”: “DAVE” differs only in case from the entity “Dave”"):
        memory.create_entities(g, [ent("Dave"), ent("DAVE")])
    # An exact existing name is skipped, as by the reference.
    assert memory.create_entities(g, [ent("Alice", obs=["other"])]) == []


def test_a_batch_lists_every_problem_with_its_item(text_graph):
    g = text_graph
    memory.create_entities(g, [ent("Alice"), ent("Bob")])
    with pytest.raises(NotFoundError) as info:
        memory.create_relations(g, [rel("Bob", "Alice"), rel("Ghost", "Alice"), rel("Bob", "Nobody"), rel("bob", "Alice")])
    message = str(info.value)
    assert message.startswith("3 items of “relations” have problems, so nothing was written:")
    assert "item 2: Entity with name Ghost not found" in message and "item 3: Entity with name Nobody not found" in message
    assert "item 4: Entity with name bob not found (there is “Bob”: names must match exactly)" in message
    assert memory.read_graph(g)["relations"] == []
    with pytest.raises(ValidationError) as info:
        memory.create_entities(g, [ent("Ok"), ent(""), ent("Fine"), {"name": "X"}, ent("Y", obs=["\x07"])])
    message = str(info.value)
    for part in ("item 2: An entity name cannot be empty", "item 4: it has no “entityType”",
                 "item 5: An observation cannot contain a control character"):
        assert part in message
    with pytest.raises(NotFoundError, match="item 1: Entity with name A not found; item 3: Entity with name C not found"):
        memory.add_observations(g, [{"entityName": n, "contents": ["x"]} for n in ("A", "Bob", "C")])
    assert [e["observations"] for e in memory.read_graph(g)["entities"]] == [[], []]


def test_search_output_is_bounded_per_result_and_per_answer(text_graph):
    g = text_graph
    memory.create_entities(g, [ent(f"Long {i}", obs=["needle " + "x" * 100_000, "second needle"]) for i in range(30)])
    out = memory.search(g, "needle", 3, record=False)
    assert len(out["results"]) == 3
    assert len(json.dumps(out)) < 3 * memory.SEARCH_RESULT_CHARS + 2_000
    top = out["results"][0]
    assert top["truncated"] is True and top["observations"][0].endswith("…")
    assert "open_nodes" in out["note"]
    many = memory.search(g, "needle", 100, record=False)
    assert sum(len(o) for r in many["results"] for o in r["observations"]) <= memory.SEARCH_RESPONSE_CHARS + 100
    short = memory.search(g, "second", 1, record=False)
    assert short["results"][0]["observations"][1] == "second needle"  # short ones are whole


def test_superseding_keeps_the_old_observation_as_history(text_graph):
    g = text_graph
    memory.create_entities(g, [ent("Ada", obs=["lives in Paris", "likes tea"])])
    got = memory.add_observations(g, [{"entityName": "Ada", "contents": ["lives in Oslo"], "supersedes": "lives in Paris",
                                       "kind": "fact"}])
    assert got == [{"entityName": "Ada", "addedObservations": ["lives in Oslo"], "supersededObservation": "lives in Paris"}]
    assert memory.open_nodes(g, ["Ada"])["entities"] == [ent("Ada", obs=["likes tea", "lives in Oslo"])]
    assert memory.read_graph(g)["entities"] == [ent("Ada", obs=["likes tea", "lives in Oslo"])]
    detailed = memory.open_nodes(g, ["Ada"], None, True)["entities"][0]
    old = next(o for o in detailed["observationDetails"] if o["content"] == "lives in Paris")
    assert old["superseded_at"] and old["superseded_by"]
    assert memory.search_nodes(g, "paris")["entities"] == []  # history is out of search
    assert memory.open_nodes(g, ["Ada"], ["fact"])["entities"][0]["observations"] == ["lives in Oslo"]
    # By id, and refused (nothing written) when the id is not a current observation of that entity.
    tea = next(o["id"] for o in detailed["observationDetails"] if o["content"] == "likes tea")
    memory.add_observations(g, [{"entityName": "Ada", "contents": ["likes coffee"], "supersedes": tea}])
    with pytest.raises(ValidationError, match="no current observation"):
        memory.add_observations(g, [{"entityName": "Ada", "contents": ["x"], "supersedes": tea}])
    with pytest.raises(ValidationError, match="exactly one observation"):
        memory.add_observations(g, [{"entityName": "Ada", "contents": ["a", "b"], "supersedes": "likes coffee"}])


def test_ending_relations_status_context_and_reflections(text_graph):
    g = text_graph
    memory.create_entities(g, [ent("Ada", status="paused"), ent("Acme", "Company")])
    made = memory.create_relations(g, [rel("Ada", "Acme", "works at", context="since 2020")])
    assert made == [rel("Ada", "Acme", "works at", context="since 2020")]
    ended = memory_history.end_relation(g, None, [rel("Ada", "Acme", "works at")])
    assert [r["relationType"] for r in ended["ended"]] == ["works at"]
    assert memory.read_graph(g)["relations"] == []  # ended: no longer followed
    detailed = memory.open_nodes(g, ["Ada"], None, False)
    (kept,) = detailed["relations"]
    assert kept["active"] is False and kept["ended_at"] and kept["context"] == "since 2020"
    again = memory_history.end_relation(g, kept["id"])
    assert again["ended"] == [] and again["alreadyEnded"][0]["id"] == kept["id"]
    with pytest.raises(NotFoundError, match="Relation with id=999 not found"):
        memory_history.end_relation(g, 999)
    assert detailed["entities"][0]["status"] == "paused"
    assert memory_history.set_entity_status(g, [{"name": "Ada", "status": "archivado"}]) == [{"name": "Ada", "status": "archived"}]
    with pytest.raises(ValidationError, match="item 1: An entity status must be one of"):
        memory_history.set_entity_status(g, [{"name": "Ada", "status": "gone"}, {"name": "Nope", "status": "done"}])
    out = memory_history.add_reflection(g, "entity", None, "sofia", "Ada keeps careful notes", "insight", "Ada")
    assert out["reflection"]["about"] == "Ada" and out["reflection"]["mood"] == "insight"
    memory_history.add_reflection(g, "global", None, "nolan", "The graph grew fast this month")
    found = memory_history.search_reflections(g, "NOTES careful")
    assert [r["content"] for r in found["results"]] == ["Ada keeps careful notes"]
    assert memory_history.search_reflections(g, "the", "nolan")["results"][0]["target_type"] == "global"
    assert memory.open_nodes(g, ["Ada"], None, False)["entities"][0]["reflections"][0]["content"] == "Ada keeps careful notes"
