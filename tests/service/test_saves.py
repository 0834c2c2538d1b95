"""Saves apply only the person's own changes since loading; true conflicts are never decided silently."""

from __future__ import annotations

import pytest

from limbic.engine.store.db import Database
from limbic.engine.graph.graph import Graph
from limbic.service import entities as ops
from limbic.service.entities import ConflictError, EntityDraft


@pytest.fixture
def two(text_graph):
    """The app's connection and another program's, on the same file."""
    g = text_graph
    g.upsert_entity("Harbor", "Project", ["Started in March", "Uses restic"])
    g.upsert_entity("Ana", "Person")
    g.upsert_entity("Restic", "Tool")
    other = Graph(Database(g.db.path))
    other.db.origin = "assistant"
    yield g, other
    other.db.close()


def _draft(g: Graph, name: str = "Harbor") -> EntityDraft:
    return EntityDraft.from_view(ops.load_view(g, name))


def _obs(g: Graph, name: str = "Harbor") -> list[str]:
    return g.get_entity(name).observation_texts


def test_a_save_keeps_what_another_program_added_meanwhile(two):
    g, other = two
    draft = _draft(g)
    other.add_observations("Harbor", ["Added by the assistant"])
    other.add_relation("Harbor", "Ana", "led_by")
    other.add_relation("Restic", "Harbor", "used_by")
    draft.entity_type = "Initiative"  # the person changes only the type
    ops.apply_draft(g, draft)
    view = ops.load_view(g, "Harbor")
    assert view.entity.entity_type == "Initiative"
    assert "Added by the assistant" in view.entity.observation_texts
    assert ("led_by", "Ana") in {(r.relation_type, r.to_name) for r in view.outgoing}
    assert ("Restic", "used_by") in {(r.from_name, r.relation_type) for r in view.incoming}


def test_own_edits_deletions_and_additions_apply_beside_theirs(two):
    g, other = two
    draft = _draft(g)
    other.add_observations("Harbor", ["Theirs"])
    first, second = draft.observations
    draft.observations = [(first[0], "Started in April"), (None, "Mine")]  # edit one, drop one, add one
    draft.outgoing.append(("uses", "Restic"))
    ops.apply_draft(g, draft)
    assert _obs(g) == ["Started in April", "Theirs", "Mine"]
    assert [(r.relation_type, r.to_name) for r in ops.load_view(g, "Harbor").outgoing] == [("uses", "Restic")]


def test_both_editing_one_observation_is_a_conflict_and_nothing_is_written(two):
    g, other = two
    draft = _draft(g)
    oid = draft.observations[0][0]
    other.edit_observation(oid, "Started in May (assistant)")
    draft.observations[0] = (oid, "Started in April (person)")
    draft.observations.append((None, "Another of mine"))
    with pytest.raises(ConflictError) as caught:
        ops.apply_draft(g, draft)
    (conflict,) = caught.value.conflicts
    assert conflict.what == "observation" and conflict.theirs == "Started in May (assistant)"
    assert _obs(g) == ["Started in May (assistant)", "Uses restic"]  # untouched
    ops.apply_draft(g, draft, ops.MINE)
    assert _obs(g) == ["Started in April (person)", "Uses restic", "Another of mine"]


def test_keeping_theirs_still_applies_the_rest_of_mine(two):
    g, other = two
    draft = _draft(g)
    oid = draft.observations[0][0]
    other.edit_observation(oid, "Theirs wins")
    draft.observations[0] = (oid, "Mine loses")
    draft.observations.append((None, "Mine stays"))
    ops.apply_draft(g, draft, ops.THEIRS)
    assert _obs(g) == ["Theirs wins", "Uses restic", "Mine stays"]


def test_an_entity_deleted_meanwhile_is_a_conflict(two):
    g, other = two
    draft = _draft(g)
    other.delete_entity("Harbor")
    draft.observations.append((None, "Still mine"))
    with pytest.raises(ConflictError) as caught:
        ops.apply_draft(g, draft)
    assert caught.value.conflicts[0].what == "deleted"
    assert g.entity_id("Harbor") is None
    ops.apply_draft(g, draft, ops.MINE)  # the person keeps it: it comes back with their version
    assert _obs(g) == ["Started in March", "Uses restic", "Still mine"]


def test_editing_an_observation_they_deleted_is_a_conflict(two):
    g, other = two
    draft = _draft(g)
    oid = draft.observations[1][0]
    other.delete_observation(oid)
    draft.observations[1] = (oid, "Uses restic and rclone")
    with pytest.raises(ConflictError) as caught:
        ops.apply_draft(g, draft)
    assert caught.value.conflicts[0].theirs is None
    ops.apply_draft(g, draft, ops.MINE)
    assert _obs(g) == ["Started in March", "Uses restic and rclone"]


def test_deleting_an_observation_they_edited_is_a_conflict(two):
    g, other = two
    draft = _draft(g)
    oid = draft.observations[1][0]
    other.edit_observation(oid, "Uses restic since 2024")
    draft.observations.pop(1)
    with pytest.raises(ConflictError):
        ops.apply_draft(g, draft)
    ops.apply_draft(g, draft, ops.THEIRS)
    assert _obs(g) == ["Started in March", "Uses restic since 2024"]


def test_both_renaming_is_a_conflict_but_one_rename_is_not(two):
    g, other = two
    draft = _draft(g)
    other.rename_entity("Harbor", "Harbour")
    draft.name = "Harbor 2"
    with pytest.raises(ConflictError) as caught:
        ops.apply_draft(g, draft)
    assert caught.value.conflicts[0].what == "name"
    # Their rename alone, with an edit of mine elsewhere: no conflict, their name stays.
    draft = _draft(g, "Harbour")
    other.set_entity_type("Harbour", "Initiative")
    draft.observations.append((None, "New"))
    ops.apply_draft(g, draft)
    e = g.get_entity("Harbour")
    assert e.entity_type == "Initiative" and e.observation_texts[-1] == "New"
