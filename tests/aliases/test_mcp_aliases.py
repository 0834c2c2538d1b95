"""MCP with aliases: every read and write naming an entity by an alias lands on it and names it by its name."""

from __future__ import annotations

import pytest

from limbic.engine.errors import ValidationError
from limbic.service import memory, memory_history


def ent(name, etype="Place", obs=()):
    return {"name": name, "entityType": etype, "observations": list(obs)}


@pytest.fixture
def g(text_graph):
    memory.create_entities(text_graph, [ent("New York City", obs=["a big city"]), ent("Paris")])
    text_graph.add_alias("New York City", "NYC")
    return text_graph


def test_open_nodes_by_alias_shows_the_entity_under_its_name(g):
    assert memory.open_nodes(g, ["NYC"])["entities"] == [ent("New York City", obs=["a big city"])]


def test_writes_by_alias_land_on_the_entity_and_name_it(g):
    assert memory.add_observations(g, [{"entityName": "NYC", "contents": ["never sleeps"]}]) == [
        {"entityName": "New York City", "addedObservations": ["never sleeps"]}]
    assert memory.create_relations(g, [{"from": "NYC", "to": "Paris", "relationType": "twinned_with"}]) == [
        {"from": "New York City", "to": "Paris", "relationType": "twinned_with"}]
    assert memory_history.end_relation(g, relations=[{"from": "NYC", "to": "Paris", "relationType": "twinned_with"}])[
        "ended"][0]["from"] == "New York City"
    assert memory.delete_relations(g, [{"from": "NYC", "to": "Paris", "relationType": "twinned_with"}]) == (
        "Relations deleted successfully")
    assert memory.delete_observations(g, [{"entityName": "NYC", "observations": ["never sleeps"]}]) == (
        "Observations deleted successfully")
    assert memory_history.set_entity_status(g, [{"name": "NYC", "status": "paused"}]) == [
        {"name": "New York City", "status": "paused"}]
    assert [e["name"] for e in memory.read_graph(g)["entities"]] == ["New York City", "Paris"]  # no duplicate


def test_creating_an_entity_named_by_an_alias_is_refused_naming_the_entity(g):
    before = memory.read_graph(g)
    for name in ("NYC", "nyc"):
        with pytest.raises(ValidationError, match="alias of the entity “New York City”"):
            memory.create_entities(g, [ent(name)])
    assert memory.read_graph(g) == before


def test_delete_entities_by_alias_deletes_nothing_and_names_the_entity(g):
    before = memory.read_graph(g)
    with pytest.raises(ValidationError, match="^“NYC” is an alias of “New York City”.*nothing was deleted"):
        memory.delete_entities(g, ["Paris", "NYC"])
    assert memory.read_graph(g) == before
    assert memory.delete_entities(g, ["New York City"]) == "Entities deleted successfully"


def test_search_nodes_finds_an_entity_by_an_alias(g):
    assert [e["name"] for e in memory.search_nodes(g, "nyc")["entities"]] == ["New York City"]


def test_a_reply_without_an_alias_echoes_the_name_as_given(g):
    import unicodedata

    memory.create_entities(g, [ent("Café")])
    given = unicodedata.normalize("NFD", "Café")  # the same name, decomposed: matched as NFC, echoed as given
    assert memory.add_observations(g, [{"entityName": given, "contents": ["open late"]}])[0]["entityName"] == given
    assert memory_history.set_entity_status(g, [{"name": given, "status": "done"}])[0]["name"] == given


def test_through_the_server_a_write_by_alias_names_the_entity(tmp_path):
    """The real `limbic mcp` over stdio: the tools of valid time resolve an alias too."""
    import anyio

    from limbic.engine.graph.graph import Graph as _Graph
    from limbic.engine.store.db import Database as _Database
    from tests.mcp.conftest import connect, ok

    path = tmp_path / "g.db"
    seeded = _Graph(_Database(path))
    seeded.create_entity("New York City", "Place")
    seeded.create_entity("Paris", "Place")
    seeded.add_alias("New York City", "NYC")
    seeded.db.close()

    async def scenario():
        async with connect(path, model=False) as c:
            added = await ok(c, "add_observations", observations=[
                {"entityName": "NYC", "contents": ["never sleeps"], "valid_from": "2020-01-01"}])
            assert added == {"results": [{"entityName": "New York City", "addedObservations": ["never sleeps"]}]}
            related = await ok(c, "create_relations", relations=[
                {"from": "NYC", "to": "Paris", "relationType": "twinned_with", "valid_from": "2020-01-01"}])
            assert related["relations"][0]["from"] == "New York City"
            opened = await ok(c, "open_nodes", names=["NYC"])
            assert [e["name"] for e in opened["entities"]] == ["New York City"]

    anyio.run(scenario)
    check = _Graph(_Database(path))
    try:
        assert check.db.scalar("SELECT valid_from FROM observations WHERE content = 'never sleeps'") == "2020-01-01"
    finally:
        check.db.close()
