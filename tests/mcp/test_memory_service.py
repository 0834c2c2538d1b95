"""The memory operations behind `limbic mcp`, without the protocol: the reference's behaviour and
result shapes, one transaction per call, limits refused with one sentence, read_graph's pages."""

from __future__ import annotations

import pytest

from limbic.engine.errors import NotFoundError, ValidationError
from limbic.service import memory, run


def ent(name, etype="Thing", obs=()):
    return {"name": name, "entityType": etype, "observations": list(obs)}


def rel(a, b, t="knows"):
    return {"from": a, "to": b, "relationType": t}


def state(g):
    """Everything an assistant can see, to prove a refused call changed nothing."""
    return memory.read_graph(g)


def test_create_entities_skips_existing_and_repeated_names(text_graph):
    g = text_graph
    assert memory.create_entities(g, [ent("Ada", "Person", ["wrote notes"])]) == [ent("Ada", "Person", ["wrote notes"])]
    created = memory.create_entities(g, [ent("Ada", "Robot"), ent("Bo"), ent("Bo", "Other")])
    assert created == [ent("Bo")]
    assert memory.open_nodes(g, ["Ada", "Bo"])["entities"] == [ent("Ada", "Person", ["wrote notes"]), ent("Bo")]


def test_create_relations_errors_on_a_missing_end_and_writes_nothing(text_graph):
    g = text_graph
    memory.create_entities(g, [ent("A"), ent("B")])
    with pytest.raises(NotFoundError, match="^Item 2 of “relations”: Entity with name Zed not found. Nothing was written.$"):
        memory.create_relations(g, [rel("A", "B"), rel("A", "Zed")])
    assert state(g)["relations"] == []
    assert memory.create_relations(g, [rel("A", "B"), rel("A", "B"), rel("B", "A", "likes")]) == [rel("A", "B"), rel("B", "A", "likes")]
    assert memory.create_relations(g, [rel("A", "B")]) == []


def test_add_observations_returns_only_new_ones_and_is_all_or_nothing(text_graph):
    g = text_graph
    memory.create_entities(g, [ent("A", obs=["one"])])
    got = memory.add_observations(g, [{"entityName": "A", "contents": ["one", "two", "two", "three"]}])
    assert got == [{"entityName": "A", "addedObservations": ["two", "three"]}]
    before = state(g)
    with pytest.raises(NotFoundError, match="^Item 2 of “observations”: Entity with name Nope not found. Nothing was written.$"):
        memory.add_observations(g, [{"entityName": "A", "contents": ["four"]}, {"entityName": "Nope", "contents": ["x"]}])
    assert state(g) == before


def test_deletes_cascade_and_answer_with_the_reference_messages(text_graph):
    g = text_graph
    memory.create_entities(g, [ent("A", obs=["x", "y"]), ent("B"), ent("C")])
    memory.create_relations(g, [rel("A", "B"), rel("C", "A"), rel("B", "C")])
    assert memory.delete_observations(g, [{"entityName": "A", "observations": ["x"]}]) == "Observations deleted successfully"
    assert memory.delete_observations(g, [{"entityName": "A", "observations": ["x", "y"]}, {"entityName": "Q", "observations": ["z"]}]) == (
        "Deleted 1 of 3 observations. Entities not found: Q"
    )
    assert memory.delete_relations(g, [rel("B", "C")]) == "Relations deleted successfully"
    assert memory.delete_relations(g, [rel("B", "C"), rel("Q", "A")]) == "Deleted 0 of 2 relations. The rest matched nothing."
    assert memory.delete_entities(g, ["A", "Nobody"]) == "Deleted 1 of 2 entities. Not found: Nobody"
    assert state(g) == {"entities": [ent("B"), ent("C")], "relations": []}  # A's relations went with it
    assert memory.delete_entities(g, ["B"]) == "Entities deleted successfully"


def test_search_nodes_and_open_nodes_match_the_reference(text_graph):
    g = text_graph
    memory.create_entities(g, [ent("Émile", "Person", ["Lives in PARIS"]), ent("Oslo", "City"), ent("Rome", "City"), ent("X")])
    memory.create_relations(g, [rel("Émile", "Oslo", "visited"), rel("Rome", "X", "has")])
    found = memory.search_nodes(g, "paris")
    assert [e["name"] for e in found["entities"]] == ["Émile"]
    assert found["relations"] == [rel("Émile", "Oslo", "visited")]  # one end among the found is enough
    assert [e["name"] for e in memory.search_nodes(g, "éMILE")["entities"]] == ["Émile"]  # not only ASCII
    memory.create_entities(g, [ent("Temperature", "Unit", ["300 \u212a"]), ent("\u0130zmir", "Place")])
    # The two characters whose lower case is ASCII (Kelvin sign, dotted capital I) match as in JavaScript.
    assert [e["name"] for e in memory.search_nodes(g, "300 k")["entities"]] == ["Temperature"]
    assert [e["name"] for e in memory.search_nodes(g, "izmir")["entities"]] == []  # "i̇zmir": i + combining dot
    assert [e["name"] for e in memory.search_nodes(g, "\u0069\u0307zmir")["entities"]] == ["\u0130zmir"]
    assert [e["name"] for e in memory.search_nodes(g, "city")["entities"]] == ["Oslo", "Rome"]
    opened = memory.open_nodes(g, ["Rome", "Émile", "missing"])
    assert [e["name"] for e in opened["entities"]] == ["Émile", "Rome"]  # the graph's order, as the reference
    assert opened["relations"] == [rel("Émile", "Oslo", "visited"), rel("Rome", "X", "has")]


def test_a_call_is_one_transaction_with_one_change_record(text_graph):
    g = text_graph
    out = run(g, memory.create_entities, [ent(f"E{i}") for i in range(5)])
    assert len(out.value) == 5 and len(out.changes.added) == 5
    assert g.db.scalar("SELECT count(*) FROM change_log WHERE origin = 'app'") == 1


@pytest.mark.parametrize(
    ("call", "args", "sentence"),
    [
        (memory.create_entities, ["nope"], "must be a list of entities"),
        (memory.create_entities, [[{"name": "A"}]], "has no “entityType”"),
        (memory.create_entities, [[ent(5)]], "Item 1 of “entities”: “name” must be text"),
        (memory.create_entities, [[ent("x" * 513)]], "at most 512 characters"),
        (memory.create_entities, [[ent("A", "t" * 129)]], "at most 128 characters"),
        (memory.create_entities, [[ent("A", obs=["o" * 200_001])]], "at most 200,000 characters"),
        (memory.create_entities, [[ent("A", obs=["ok", 3])]], "must be a list of texts"),
        (memory.create_entities, [[ent(f"E{i}") for i in range(1001)]], "at most 1,000 items"),
        (memory.create_entities, [[ent(f"E{i}", obs=[f"o{j}" for j in range(100)]) for i in range(101)]], "at most 10,000 observations"),
        (memory.create_entities, [[ent("A\x00B")]], "NUL"),
        (memory.create_relations, [[rel("A", "B", "")]], "cannot be empty"),
        (memory.add_observations, [[{"entityName": "A"}]], "has no “contents”"),
        (memory.search_nodes, ["q" * 2049], "at most 2,048 characters"),
        (memory.search_nodes, [None], "“query” must be text"),
        (memory.read_graph, [-1], "between 0 and"),
        (memory.read_graph, [0, 200_000], "between 1 and 100,000"),
        (memory.search, ["x", 0], "between 1 and 100"),
    ],
)
def test_bad_input_is_refused_with_one_sentence_and_changes_nothing(text_graph, call, args, sentence):
    g = text_graph
    memory.create_entities(g, [ent("A"), ent("B")])
    before = state(g)
    with pytest.raises(ValidationError) as info:
        call(g, *args)
    message = str(info.value)
    assert sentence in message and "\n" not in message and "Traceback" not in message
    assert state(g) == before


def test_read_graph_pages_on_request_hold_every_entity_and_relation_once(text_graph):
    g = text_graph
    n = 450
    memory.create_entities(g, [ent(f"E{i:03d}", obs=[f"note {i}"]) for i in range(n)])
    memory.create_relations(g, [rel(f"E{i:03d}", f"E{(i * 7) % n:03d}", "links") for i in range(n)])
    whole = memory.read_graph(g)
    assert set(whole) == {"entities", "relations"}  # exactly the reference's shape
    assert len(whole["entities"]) == n and len(whole["relations"]) == n
    first = memory.read_graph(g, None, 200)
    assert len(first["entities"]) == 200
    assert first["total_entities"] == n and first["next_offset"] == 200
    assert "offset 200" in first["note"]
    names, relations, offset = [], [], 0
    while offset is not None:
        page = memory.read_graph(g, offset, 200)
        names += [e["name"] for e in page["entities"]]
        relations += page["relations"]
        offset = page.get("next_offset")
    assert names == [f"E{i:03d}" for i in range(n)]
    assert sorted(map(str, relations)) == sorted(str(r) for r in whole["relations"])


def test_read_graph_returns_the_whole_graph_with_a_large_observation(text_graph):
    g = text_graph
    memory.create_entities(g, [ent("Big", obs=["w" * 100_000])])
    for start in range(0, 2_000, 1_000):
        memory.create_entities(g, [ent(f"E{i}", obs=[f"note {i}"]) for i in range(start, start + 1_000)])
    out = memory.read_graph(g)
    assert set(out) == {"entities", "relations"} and len(out["entities"]) == 2_001
    # Past the safety cap the answer is cut, and says so with where to go on.
    cut = memory.read_graph(g, max_chars=150_000)
    assert 1 <= len(cut["entities"]) < 2_001 and cut["next_offset"] == len(cut["entities"])
    assert cut["total_entities"] == 2_001 and "150,000 characters" in cut["note"]


def test_search_without_a_model_says_it_is_full_text_only(text_graph):
    g = text_graph
    memory.create_entities(g, [ent("SQLite", "Tool", ["Embedded database engine"])])
    out = memory.search(g, "database", record=False, model_error="The model folder is missing.")
    assert out["mode"] == "fts" and out["results"][0]["name"] == "SQLite"
    assert "Semantic search is off (The model folder is missing)" in out["note"]
