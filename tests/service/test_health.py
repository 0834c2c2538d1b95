"""Memory health: each kind of finding, dismissals, and merges that do what their preview showed (no Qt)."""

from __future__ import annotations

import pytest

from limbic.engine.store.db import Database
from limbic.engine.errors import ValidationError
from limbic.engine.graph.graph import Graph
from limbic.service import activity, health, undo
from limbic.service.entities import load_view
from limbic.service.health.merge import merge, plan_merge, view_result


def _pairs(report, kind="duplicates"):
    return [frozenset(f.entities) for f in report.findings[kind]]


@pytest.fixture
def g(text_graph):
    g = text_graph
    g.upsert_entity("Ana Ruiz", "Person", ["Design lead at Harbor", "Birthday 14 June"])
    g.upsert_entity("ana ruíz", "Person", ["Reviews UI changes on Thursdays"])
    g.upsert_entity("Ruiz, Tomás", "Person", ["Backend engineer"])
    g.upsert_entity("Tomás Ruiz", "Person", ["Works on the ledger"])
    g.upsert_entity("Customer Relationship Management", "Tool", ["Where the sales team keeps contacts"])
    g.upsert_entity("CRM", "Tool", ["Contacts of the sales team"])
    g.upsert_entity("Postgres", "Tool", ["Relational database of the ledger"])
    g.upsert_entity("Postgres backup job", "Task", ["Copies the ledger database every night"])
    g.upsert_entity("Harbor", "Organization", ["The company"])
    for name in ("Ana Ruiz", "ana ruíz", "Postgres", "Postgres backup job"):
        g.add_relation(name, "Harbor", "works_at" if "Ruiz" in name or "ruíz" in name else "owned_by")
    g.add_relation("Postgres backup job", "Postgres", "depends_on")
    return g


def test_duplicates_found_with_reasons_and_related_things_kept_apart(g):
    report = health.scan(g, ["duplicates"])
    pairs = _pairs(report)
    assert frozenset({"Ana Ruiz", "ana ruíz"}) in pairs
    assert frozenset({"Ruiz, Tomás", "Tomás Ruiz"}) in pairs
    assert frozenset({"Customer Relationship Management", "CRM"}) in pairs
    assert frozenset({"Postgres", "Postgres backup job"}) not in pairs  # a job about a thing is not the thing
    by_pair = {frozenset(f.entities): f for f in report.findings["duplicates"]}
    ana = by_pair[frozenset({"Ana Ruiz", "ana ruíz"})]
    assert "The names are the same apart from case or accents." in ana.reasons
    assert any("Harbor" in r for r in ana.reasons)  # the shared neighbour is named
    assert ana.to_json()["kind"] == "duplicates" and set(ana.to_json()) >= {"kind", "entities", "score", "reasons"}


def test_different_numbers_are_different_things(text_graph):
    text_graph.upsert_entity("Session 2026-04-02", "Session", ["Planning"])
    text_graph.upsert_entity("Session 2026-04-09", "Session", ["Planning"])
    assert _pairs(health.scan(text_graph, ["duplicates"])) == []


def test_same_observations_under_another_name(text_graph):
    obs = ["Raspberry Pi 4 with 8 GB of memory", "Serves the photo library over the home network",
           "Backs up to the external disk every night"]
    text_graph.upsert_entity("Home server", "Device", obs)
    text_graph.upsert_entity("Box in the closet", "Device", [o.lower() for o in obs])
    text_graph.upsert_entity("Garden shed", "Place", ["Holds the bicycles"])
    found = health.scan(text_graph, ["duplicates"]).findings["duplicates"]
    assert [set(f.entities) for f in found] == [{"Home server", "Box in the closet"}]
    assert any("3 of the 3 observations" in r for r in found[0].reasons)


def test_dismissed_pair_does_not_come_back_even_in_another_connection(g, tmp_path):
    ids = [g.entity_id("Ana Ruiz"), g.entity_id("ana ruíz")]
    health.dismiss(g, "duplicates", ids)
    assert frozenset({"Ana Ruiz", "ana ruíz"}) not in _pairs(health.scan(g, ["duplicates"]))
    other = Graph(Database(g.db.path, readonly=True))
    try:
        assert frozenset({"Ana Ruiz", "ana ruíz"}) not in _pairs(health.scan(other, ["duplicates"]))
    finally:
        other.db.close()
    assert frozenset({"Ruiz, Tomás", "Tomás Ruiz"}) in _pairs(health.scan(g, ["duplicates"]))  # only that pair
    assert health.undismiss(g, "duplicates", ids)
    assert frozenset({"Ana Ruiz", "ana ruíz"}) in _pairs(health.scan(g, ["duplicates"]))


def test_dismissals_go_with_a_deleted_entity(g):
    ids = [g.entity_id("Ana Ruiz"), g.entity_id("ana ruíz")]
    health.dismiss(g, "duplicates", ids)
    g.delete_entity("ana ruíz")
    assert g.db.scalar("SELECT count(*) FROM health_dismissals") == 0


def test_duplicate_observations_within_an_entity(text_graph):
    text_graph.upsert_entity("Ledger", "Project", [
        "Runs on Postgres 16 in production", "runs on postgres 16 in production.",
        "Owned by the payments team", "Migrated to the new cluster in March"])
    text_graph.upsert_entity("Garden", "Place", ["Tomatoes in the sun", "Basil by the door"])
    found = health.scan(text_graph, ["observations"]).findings["observations"]
    assert [f.entities for f in found] == [["Ledger"]]
    assert len(found[0].detail["pairs"]) == 1 and found[0].score == 1.0


def test_orphans_are_unrelated_and_never_opened(g):
    from limbic.engine.graph import signals

    g.upsert_entity("Loose note", "Note", ["Something to look up"])
    g.upsert_entity("Opened note", "Note", ["Read last week"])
    signals.record_access(g.db, [g.entity_id("Opened note")])
    names = [f.entities[0] for f in health.scan(g, ["orphans"]).findings["orphans"]]
    assert "Loose note" in names and "Opened note" not in names and "Harbor" not in names


def test_stale_entities_are_old_and_pointed_at(g):
    g.db.execute("UPDATE entities SET updated_at = '2020-01-01 00:00:00' WHERE name IN ('Harbor', 'CRM')")
    found = health.scan(g, ["stale"]).findings["stale"]
    assert [f.entities for f in found] == [["Harbor"]]  # CRM is as old, but nothing points at it
    assert any("4 entities point at it" in r for r in found[0].reasons)
    assert health.scan(g, ["stale"], stale_days=365 * 100).findings["stale"] == []


def test_split_candidates_propose_one_entity_per_topic(text_graph):
    obs = ([f"Garden tomatoes need water on day {i}" for i in range(5)]
           + [f"Invoice number {i} for the accountant is due" for i in range(5)]
           + [f"Guitar lesson {i} practised scales" for i in range(4)])
    text_graph.upsert_entity("Marta", "Person", obs)
    text_graph.upsert_entity("Small", "Person", obs[:5])
    found = health.scan(text_graph, ["split"]).findings["split"]
    assert [f.entities for f in found] == [["Marta"]]
    proposal = found[0].detail["proposed"]
    assert {p["topic"] for p in proposal} | {found[0].detail["stays"]} == {"garden", "invoic", "guitar"}
    assert sum(len(p["observations"]) for p in proposal) in (9, 10)


def test_names_with_invisible_characters_are_a_kind_of_their_own(text_graph):
    text_graph.upsert_entity("Harbor API", "Project", ["The public API"])
    eid = text_graph.upsert_entity("Harbor\u200b API", "Project", ["The public API"])
    found = health.scan(text_graph, ["names"]).findings["names"]
    assert [f.ids for f in found] == [[eid]]
    assert "U+200B ZERO WIDTH SPACE" in found[0].reasons[0] and found[0].to_json()["kind"] == "names"


def test_a_dismissed_orphan_stays_dismissed_and_only_as_an_orphan(text_graph):
    loose = text_graph.upsert_entity("Loose note", "Note", ["Something to look up"])
    text_graph.upsert_entity("Other loose note", "Note", [])
    health.dismiss(text_graph, "orphans", [loose])
    report = health.scan(text_graph, ["orphans", "duplicates"])
    assert [f.entities for f in report.findings["orphans"]] == [["Other loose note"]]
    assert [k for k, _ in health.dismissed(text_graph)] == ["orphans"]  # remembered in the file, for that kind
    health.undismiss(text_graph, "orphans", [loose])
    assert "Loose note" in [f.entities[0] for f in health.scan(text_graph, ["orphans"]).findings["orphans"]]


def test_unknown_kind_is_a_sentence(text_graph):
    with pytest.raises(ValidationError, match="There is no health check “dupes”"):
        health.scan(text_graph, ["dupes"])


# -- merge -----------------------------------------------------------------------------


@pytest.fixture
def m(text_graph):
    g = text_graph
    g.upsert_entity("Postgres", "Tool", ["Relational database", "Runs the ledger"])
    g.upsert_entity("PostgreSQL DB", "Service", ["relational database.", "Version 16 in production"])
    g.upsert_entity("Ledger", "Project", ["Money in and out"])
    g.upsert_entity("Ana", "Person")
    g.add_relation("Ledger", "PostgreSQL DB", "uses")
    g.add_relation("Ledger", "Postgres", "uses")
    g.add_relation("PostgreSQL DB", "Ana", "owned_by")
    g.add_relation("PostgreSQL DB", "Postgres", "same_as")
    return g


def test_merge_does_exactly_what_the_preview_shows(m):
    plan = plan_merge(m, "PostgreSQL DB", "Postgres")
    assert plan.observations == ["Relational database", "Runs the ledger", "Version 16 in production"]
    assert plan.dropped == [("relational database.", "Relational database")]  # same fact, other case
    assert [c.field for c in plan.conflicts] == ["type"]
    assert any("relate the entity to itself" in r for r in plan.dropped_relations)
    preview = plan.result()
    before = view_result(load_view(m, "Postgres")), view_result(load_view(m, "PostgreSQL DB"))
    step = merge(m, "PostgreSQL DB", "Postgres")
    assert view_result(load_view(m, "Postgres")) == preview
    assert preview["outgoing"] == [("owned_by", "Ana")] and preview["incoming"] == [("Ledger", "uses")]
    undo.undo_step(m, step)
    assert (view_result(load_view(m, "Postgres")), view_result(load_view(m, "PostgreSQL DB"))) == before
    undo.redo_step(m, step)
    assert view_result(load_view(m, "Postgres")) == preview


def test_a_merge_is_one_change_of_the_persons_in_the_activity_log(m):
    activity.set_origin(m, "app")
    before = {c.id for s in activity.sessions(m) for c in s.changes}
    merge(m, "PostgreSQL DB", "Postgres")
    new = [c for s in activity.sessions(m) for c in s.changes if c.id not in before]
    assert len(new) == 1 and new[0].origin == "app"
    assert "deleted “PostgreSQL DB”" in new[0].summary and "“Postgres”" in new[0].summary


def test_merge_with_the_other_type_chosen(m):
    plan = plan_merge(m, "PostgreSQL DB", "Postgres", entity_type="Service")
    step = merge(m, "PostgreSQL DB", "Postgres", entity_type="Service")
    assert view_result(load_view(m, "Postgres")) == plan.result()
    assert m.get_entity("Postgres").entity_type == "Service"
    undo.undo_step(m, step)
    assert m.get_entity("Postgres").entity_type == "Tool"
    with pytest.raises(ValidationError, match="can be “Tool” or “Service”"):
        plan_merge(m, "PostgreSQL DB", "Postgres", entity_type="Thing")


def test_preview_changes_nothing_and_self_merge_is_refused(m):
    before = [view_result(load_view(m, n)) for n in ("Postgres", "PostgreSQL DB", "Ledger")]
    plan_merge(m, "PostgreSQL DB", "Postgres")
    assert [view_result(load_view(m, n)) for n in ("Postgres", "PostgreSQL DB", "Ledger")] == before
    with pytest.raises(ValidationError, match="into itself"):
        plan_merge(m, "Postgres", "postgres")
