"""memory://knowledge-graph's update notifications follow the assistant's view: a change another program makes to
a private entity alone tells it nothing; one to an entity it sees tells it within about a second."""

from __future__ import annotations

import warnings

import anyio

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from tests.mcp.conftest import URI, Notes, connect, ok


def test_a_change_to_a_private_entity_alone_is_not_notified(tmp_path):
    db_path = tmp_path / "g.db"
    seed = Graph(Database(db_path))
    seed.upsert_entity("Ada", "Person", ["first"])
    seed.upsert_entity("Clinic", "Health", ["visit"])
    seed.set_private("Clinic", True)
    seed.db.close()
    notes = Notes()

    async def scenario():
        async with connect(db_path, model=False, notes=notes) as c:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                await c.subscribe_resource(URI)
            await ok(c, "read_graph")
            other = Graph(Database(db_path))
            try:
                other.add_observations("Clinic", ["second visit"])
                await anyio.sleep(2.5)
                assert notes.updated == 0  # a private entity's change: nothing said
                other.add_observations("Ada", ["plays chess"])
            finally:
                other.db.close()
            await notes.wait_beyond(0, timeout=5)
            assert not notes.errors

    anyio.run(scenario)
