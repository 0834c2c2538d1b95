"""The seed engine's health report tools over MCP: listed read-only, answering with findings, changing nothing."""

from __future__ import annotations

import anyio
import pytest

from limbic.engine.store.db import Database
from limbic.engine.errors import NotFoundError, ValidationError
from limbic.engine.graph.graph import Graph
from limbic.service.health import reports
from tests.mcp.conftest import call, connect, ok

SPLIT = ([f"Garden tomatoes need water on day {i}" for i in range(5)]
         + [f"Invoice number {i} for the accountant is due" for i in range(5)])


def _fill(g: Graph) -> None:
    g.upsert_entity("Ana Ruiz", "Person", ["Design lead", "Design lead.", "Likes tea"])
    g.upsert_entity("ana ruíz", "Person", ["Runs on Sundays"])
    g.upsert_entity("Marta", "Person", SPLIT + ["Plays chess"] * 1 + ["Owns a bike"])


def test_reports_as_service_functions(text_graph):
    _fill(text_graph)
    dup = reports.find_duplicate_observations(text_graph, "Ana Ruiz")
    assert [(p["observation_a"], p["observation_b"]) for p in dup["pairs"]] == [("Design lead", "Design lead.")]
    assert reports.analyze_entity_split(text_graph, "Marta")["analysis"]["needs_split"] is True
    assert [c["entity_name"] for c in reports.find_split_candidates(text_graph)["candidates"]] == ["Marta"]
    report = reports.consolidation_report(text_graph, 30)
    assert report["counts"]["duplicates"] == 1 and sorted(report["duplicates"][0]["entities"]) == ["Ana Ruiz", "ana ruíz"]
    assert "changes nothing" in report["note"]
    with pytest.raises(NotFoundError):
        reports.analyze_entity_split(text_graph, "Nobody")
    with pytest.raises(ValidationError, match="from 0 to 1"):
        reports.find_duplicate_observations(text_graph, "Ana Ruiz", threshold=3)


def test_health_tools_over_mcp_change_nothing(tmp_path):
    db_path = tmp_path / "g.db"
    g = Graph(Database(db_path))
    _fill(g)
    revisions = list(g.db.execute("SELECT id, revision, updated_at FROM entities ORDER BY id"))
    g.db.close()

    async def scenario() -> None:
        async with connect(db_path, model=False) as c:
            listed = {t.name: t for t in (await c.list_tools()).tools}
            for name in ("find_duplicate_observations", "consolidation_report", "find_split_candidates",
                         "analyze_entity_split"):
                assert listed[name].annotations.read_only_hint is True
            report = await ok(c, "consolidation_report")
            assert report["counts"]["observations"] == 1
            split = await ok(c, "analyze_entity_split", entity_name="Marta")
            assert {t["topic"] for t in split["analysis"]["topics"]} >= {"garden", "invoic"}
            is_error, text, _ = await call(c, "find_duplicate_observations", entity_name="Ghost")
            assert is_error and "Ghost" in text

    anyio.run(scenario)
    db = Database(db_path)
    try:
        assert list(db.execute("SELECT id, revision, updated_at FROM entities ORDER BY id")) == revisions
    finally:
        db.close()
