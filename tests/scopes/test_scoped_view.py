"""An assistant sees and writes only what the person allows: private entities are missing to it, a scope by
type narrows what it reads and writes, a write outside the scope is refused and counted as refused."""

from __future__ import annotations

import pytest

from limbic.service import activity, scope
from tests.scopes.host import Host, seeded


def _seed(graph):
    graph.upsert_entity("Clinic Zebra", "Health", ["blood test on Monday"])
    graph.upsert_entity("Ada", "Person", ["plays chess"])
    graph.upsert_entity("Use SQLite", "Decision", ["chosen for the graph file"])
    graph.add_relation("Ada", "Clinic Zebra", "visits")
    graph.add_relation("Ada", "Use SQLite", "made")
    graph.set_private("Clinic Zebra", True)


@pytest.fixture
def host(tmp_path):
    h = Host(seeded(tmp_path / "g.db", _seed))
    yield h
    h.close()


def test_a_private_entity_and_its_relations_are_missing_to_every_read(host):
    for tool, args in (("read_graph", {}), ("search_nodes", {"query": "Clinic"}), ("search_nodes", {"query": "blood"}),
                       ("open_nodes", {"names": ["Clinic Zebra", "Ada"]}), ("search", {"query": "blood test"})):
        text = host.ok(tool, **args)
        assert "Clinic" not in text and "blood" not in text, (tool, text)
    assert "Ada" in host.ok("read_graph") and "made" in host.ok("read_graph")
    assert "Clinic" not in host.resource()


def test_a_hidden_name_in_a_write_is_answered_as_a_missing_one(host):
    hidden = host.call("add_observations", observations=[{"entityName": "Clinic Zebra", "contents": ["x"]}])
    missing = host.call("add_observations", observations=[{"entityName": "Clinic Zebrx", "contents": ["x"]}])
    assert hidden == (True, missing[1].replace("Clinic Zebrx", "Clinic Zebra"))
    assert host.call("delete_entities", entityNames=["Clinic Zebra"])[1] == \
        host.call("delete_entities", entityNames=["Nobody"])[1].replace("Nobody", "Clinic Zebra")
    # In another case the tool would name the near spelling the graph has: not for a hidden one.
    is_error, text = host.call("create_relations", relations=[{"from": "Ada", "to": "clinic zebra", "relationType": "x"}])
    assert is_error and "Clinic Zebra" not in text
    assert host.run(lambda g: g.db.scalar("SELECT count(*) FROM observations WHERE content = 'x'")) == 0


def test_creating_under_a_private_name_gets_a_sentence_never_a_merge(host):
    for name in ("Clinic Zebra", "CLINIC ZEBRA"):
        is_error, text = host.call("create_entities", entities=[{"name": name, "entityType": "Place",
                                                                 "observations": ["new"]}])
        assert is_error and "cannot be created" in text
    assert host.run(lambda g: g.db.scalar("SELECT group_concat(content) FROM observations o JOIN entities e "
                                          "ON e.id = o.entity_id WHERE e.name = 'Clinic Zebra'")) == "blood test on Monday"


def test_a_scope_by_type_narrows_reads_and_writes_and_a_refusal_is_counted(host):
    host.run(scope.set_access, "work-assistant", ("Decision",), ("Decision",))
    assert "Ada" not in host.ok("read_graph") and "Use SQLite" in host.ok("read_graph")
    is_error, text = host.call("create_entities", entities=[{"name": "Bob", "entityType": "Person", "observations": []}])
    assert is_error and "may write only Decision" in text
    assert host.ok("add_observations", observations=[{"entityName": "Use SQLite", "contents": ["WAL mode"]}])
    _sessions, by_client = host.run(activity.refused_writes)
    refused = list(_sessions.values()) + list(by_client.values())
    assert refused and refused[0].why == scope.REFUSED
    assert refused[0].said == text  # the sentence the assistant got, kept for the person
    from limbic.ui.activity.activity_panel import refusal_line

    assert text in refusal_line(refused[0])


def test_write_none_refuses_every_write_and_read_none_sees_nothing(host):
    host.run(scope.set_access, "work-assistant", "none", "none")
    assert '"entities": []' in host.ok("read_graph")
    is_error, text = host.call("add_observations", observations=[{"entityName": "Ada", "contents": ["y"]}])
    assert is_error and "may not write" in text


def test_the_default_applies_to_an_assistant_not_seen_before(host):
    host.run(scope.set_default, "read-only")
    host.as_client("newcomer")
    assert "Ada" in host.ok("read_graph")
    is_error, text = host.call("add_observations", observations=[{"entityName": "Ada", "contents": ["z"]}])
    assert is_error and "may not write" in text
    host.run(scope.set_default, "nothing")
    assert '"entities": []' in host.ok("read_graph")
    host.run(scope.set_access, "newcomer", "all", "all")  # allowed: its own scope beats the default
    assert host.ok("add_observations", observations=[{"entityName": "Ada", "contents": ["z"]}])


def test_a_scope_or_mark_changed_by_another_program_applies_at_the_next_call(host, tmp_path):
    from limbic.service.opening import open_graph

    assert "Ada" in host.ok("read_graph")
    other = open_graph(tmp_path / "g.db", None, load_model=False)  # the app, in another process
    try:
        other.graph.set_private("Ada", True)
        assert "Ada" not in host.ok("read_graph")
        scope.set_access(other.graph, "work-assistant", "none", "none")
        assert '"entities": []' in host.ok("read_graph")
    finally:
        other.close()


def test_the_assistants_list_holds_each_assistant_seen_with_its_scope(host):
    host.ok("read_graph")
    host.ok("add_observations", observations=[{"entityName": "Ada", "contents": ["seen"]}])
    host.run(scope.set_access, "Other Tool", ("Person", "Decision"), "none")
    listed = {a.client: a for a in host.run(scope.assistants)}
    assert listed["work-assistant"].last_seen and listed["work-assistant"].read == "all"
    assert listed["Other Tool"].read == ("Decision", "Person") and listed["Other Tool"].write == "none"


def test_history_reads_leave_a_hidden_entity_out(host):
    import time

    time.sleep(1.1)  # a moment after the seed, so "as of now" holds it
    host.ok("add_observations", observations=[{"entityName": "Ada", "contents": ["moved to Lisbon"]}])
    host.run(lambda g: g.add_observations("Clinic Zebra", ["second visit"]))
    from limbic.engine.store.values import now_utc

    now = now_utc()
    start = host.run(lambda g: g.db.scalar("SELECT min(recorded_from) FROM history"))
    for tool, args in (("graph_changes", {"since": start}), ("read_graph", {"as_of": now}),
                       ("open_nodes", {"names": ["Clinic Zebra", "Ada"], "as_of": now}),
                       ("search", {"query": "blood test", "as_of": now})):
        is_error, text = host.call(tool, **args)
        assert "Clinic" not in text and "blood" not in text and "second visit" not in text, (tool, text)
    assert "moved to Lisbon" in host.ok("graph_changes", since=start)


def test_a_search_still_fills_its_limit_when_hidden_entities_match_best(host):
    for i in range(5):
        host.run(lambda g, i=i: g.upsert_entity(f"Secret {i}", "Health", ["chess secret chess chess"]))
        host.run(lambda g, i=i: g.set_private(f"Secret {i}", True))
    for i in range(3):
        host.run(lambda g, i=i: g.upsert_entity(f"Club {i}", "Place", ["chess"]))
    import json

    results = json.loads(host.ok("search", query="chess", limit=3))["results"]
    assert len(results) == 3 and all(not r["name"].startswith("Secret") for r in results)


def test_a_whole_graph_read_is_not_counted_as_a_read_of_a_private_entity(host):
    from limbic.engine.graph import activity_log

    host.ok("read_graph")
    reads = host.run(lambda g: {name: [r.client for r in activity_log.reads_of(g.db, g.entity_id(name))]
                                for name in ("Ada", "Clinic Zebra")})
    assert reads == {"Ada": ["work-assistant"], "Clinic Zebra": []}


def test_no_write_reaches_a_hidden_entity_by_name_or_id(host):
    before = host.run(lambda g: (g.db.scalar("SELECT status FROM entities WHERE name = 'Clinic Zebra'"),
                                 g.db.scalar("SELECT count(*) FROM reflections"),
                                 g.db.scalar("SELECT count(*) FROM relations WHERE active = 1")))
    clinic = host.run(lambda g: g.entity_id("Clinic Zebra"))
    visits = host.run(lambda g: g.db.scalar("SELECT id FROM relations WHERE relation_type = 'visits'"))
    is_error, text = host.call("set_entity_status", entities=[{"name": "Clinic Zebra", "status": "archived"}])
    assert is_error and "Clinic Zebra" in text and "not found" in text
    is_error, text = host.call("add_reflection", target_type="entity", target_id=clinic, content="a note")
    missing = host.call("add_reflection", target_type="entity", target_id=99999, content="a note")[1]
    assert is_error and text == missing.replace("99999", str(clinic))
    is_error, text = host.call("end_relation", relation_id=visits)
    assert is_error and text == host.call("end_relation", relation_id=99999)[1].replace("99999", str(visits))
    assert host.run(lambda g: (g.db.scalar("SELECT status FROM entities WHERE name = 'Clinic Zebra'"),
                               g.db.scalar("SELECT count(*) FROM reflections"),
                               g.db.scalar("SELECT count(*) FROM relations WHERE active = 1"))) == before
