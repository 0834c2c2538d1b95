"""Undo takes back exactly what its action did: another writer's work (a real `limbic mcp` process) stays."""

from __future__ import annotations

import anyio
import pytest

from limbic.engine.store.db import Database
from limbic.engine.graph.graph import Graph
from limbic.engine.graph.revert import INTO_EXISTING, SKIP, RevertConflict
from limbic.service import organise, undo
from limbic.service.entities import EntityDraft, load_view
from tests.activity.writers import assistant, ok


@pytest.fixture
def g(tmp_path):
    graph = Graph(Database(tmp_path / "g.db"))
    graph.create_entity("Ana", "Person")
    graph.create_entity("Ledger", "Project")
    yield graph
    graph.db.close()


def _state(g, name):
    view = load_view(g, name)
    return (sorted(view.entity.observation_texts), sorted((r.relation_type, r.to_name) for r in view.outgoing),
            sorted((r.from_name, r.relation_type) for r in view.incoming))


def _beta(g, *calls):
    async def run():
        async with assistant(g.db.path, "beta") as c:
            for tool, args in calls:
                await ok(c, tool, **args)
    anyio.run(run)


def test_undo_of_a_save_keeps_what_an_assistant_added_meanwhile(g):
    g.create_entity("X", "Tool", ["first", "second"])
    draft = EntityDraft.from_view(load_view(g, "X"))  # opened in the editor
    draft.observations = [(draft.observations[0][0], "first, edited"), *draft.observations[1:], (None, "mine")]
    _beta(g, ("add_observations", {"observations": [{"entityName": "X", "contents": ["from beta"]}]}),
          ("create_relations", {"relations": [{"from": "X", "to": "Ana", "relationType": "owned_by"},
                                              {"from": "Ledger", "to": "X", "relationType": "uses"}]}))
    saved = undo.save_draft(g, draft)
    assert _state(g, "X")[0] == ["first, edited", "from beta", "mine", "second"]
    undo.undo_step(g, saved.step)
    assert _state(g, "X") == (["first", "from beta", "second"], [("owned_by", "Ana")], [("Ledger", "uses")])
    undo.redo_step(g, saved.step)
    assert _state(g, "X")[0] == ["first, edited", "from beta", "mine", "second"]


def test_undo_of_a_merge_keeps_what_an_assistant_added_to_the_target(g):
    g.create_entity("Src", "Tool", ["from src"])
    g.create_entity("Tgt", "Tool", ["from tgt"])
    g.add_relation("Src", "Ana", "owned_by")
    src_id = g.entity_id("Src")
    step = organise.merge_entities(g, "Src", "Tgt")
    _beta(g, ("add_observations", {"observations": [{"entityName": "Tgt", "contents": ["beta on tgt"]}]}),
          ("create_relations", {"relations": [{"from": "Tgt", "to": "Ledger", "relationType": "part_of"}]}))
    undo.undo_step(g, step)
    assert g.entity_id("Src") == src_id
    assert _state(g, "Src") == (["from src"], [("owned_by", "Ana")], [])
    assert _state(g, "Tgt") == (["beta on tgt", "from tgt"], [("part_of", "Ledger")], [])


def test_undo_of_a_creation_stops_at_an_assistants_additions_and_can_keep_them(g):
    saved = undo.save_draft(g, EntityDraft(None, "X", "Idea", [(None, "mine")]))
    _beta(g, ("add_observations", {"observations": [{"entityName": "X", "contents": ["b1", "b2"]}]}),
          ("create_relations", {"relations": [{"from": "X", "to": "Ana", "relationType": "told_by"}]}))
    with pytest.raises(RevertConflict) as err:
        undo.undo_step(g, saved.step)
    assert "b1" in str(err.value) and "beta" in str(err.value)
    (conflict,) = err.value.plan.conflicts
    assert conflict.by == "beta" and conflict.kind == "depends"
    assert _state(g, "X") == (["b1", "b2", "mine"], [("told_by", "Ana")], [])  # nothing changed
    undo.undo_step(g, saved.step, SKIP)  # keep theirs, take back mine
    assert _state(g, "X") == (["b1", "b2"], [("told_by", "Ana")], [])


def test_undo_of_a_delete_after_another_writer_recreated_the_name_offers_to_restore_into_it(g):
    g.create_entity("X", "Tool", ["old fact"])
    g.add_relation("X", "Ledger", "part_of")
    step = undo.delete_entity(g, "X")
    _beta(g, ("create_entities", {"entities": [{"name": "X", "entityType": "Tool", "observations": ["new fact"]}]}))
    with pytest.raises(RevertConflict) as err:
        undo.undo_step(g, step)
    assert err.value.plan.conflicts[0].kind == "name_taken" and err.value.plan.conflicts[0].by == "beta"
    assert _state(g, "X") == (["new fact"], [], [])
    new_id = g.entity_id("X")
    undo.undo_step(g, step, INTO_EXISTING)
    assert g.entity_id("X") == new_id
    assert _state(g, "X") == (["new fact", "old fact"], [("part_of", "Ledger")], [])


def test_a_plain_delete_undoes_with_its_id_and_redoes(g):
    g.create_entity("X", "Tool", ["fact"])
    g.add_relation("Ana", "X", "uses")
    x = g.entity_id("X")
    step = undo.delete_entity(g, "X")
    undo.undo_step(g, step)
    assert g.entity_id("X") == x and _state(g, "X") == (["fact"], [], [("Ana", "uses")])
    undo.redo_step(g, step)
    assert g.entity_id("X") is None
