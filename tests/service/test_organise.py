"""Merges, type renames, pins and the browsing lists, with their undo steps (no Qt)."""

from __future__ import annotations

import pytest

from limbic.engine.errors import ValidationError
from limbic.service import organise, undo
from limbic.service.entities import load_view


@pytest.fixture
def g(text_graph):
    g = text_graph
    g.upsert_entity("Postgres", "Tool", ["Relational database", "Runs the ledger"])
    g.upsert_entity("PostgreSQL", "Tool", ["Relational database", "Version 16 in production"])
    g.upsert_entity("Ledger", "Project", ["Money in and out"])
    g.upsert_entity("Ana", "Person")
    g.add_relation("Ledger", "PostgreSQL", "uses")
    g.add_relation("Ledger", "Postgres", "uses")  # the same relation to the duplicate
    g.add_relation("PostgreSQL", "Ana", "owned_by")
    g.add_relation("PostgreSQL", "Postgres", "same_as")
    return g


def _rels(g, name):
    view = load_view(g, name)
    return (sorted((r.relation_type, r.to_name) for r in view.outgoing),
            sorted((r.from_name, r.relation_type) for r in view.incoming))


def test_merge_moves_everything_collapses_duplicates_and_undoes(g):
    source_id = g.entity_id("PostgreSQL")
    created = g.get_entity("PostgreSQL").created_at
    before = _rels(g, "Postgres"), g.get_entity("Postgres").observation_texts
    step = organise.merge_entities(g, "PostgreSQL", "Postgres")
    assert g.entity_id("PostgreSQL") is None
    assert g.get_entity("Postgres").observation_texts == ["Relational database", "Runs the ledger", "Version 16 in production"]
    assert _rels(g, "Postgres") == ([("owned_by", "Ana")], [("Ledger", "uses")])  # one "uses", no self-relation
    assert step.label == "merge of “PostgreSQL” into “Postgres”"

    undo.undo_step(g, step)
    assert g.entity_id("PostgreSQL") == source_id and g.get_entity("PostgreSQL").created_at == created
    assert (_rels(g, "Postgres"), g.get_entity("Postgres").observation_texts) == before
    assert _rels(g, "PostgreSQL") == ([("owned_by", "Ana"), ("same_as", "Postgres")], [("Ledger", "uses")])

    undo.redo_step(g, step)
    assert g.entity_id("PostgreSQL") is None and len(g.get_entity("Postgres").observations) == 3
    with pytest.raises(ValidationError):
        organise.merge_entities(g, "Postgres", "Postgres")


def test_rename_type_across_the_graph_and_back(g):
    step = organise.rename_type(g, "Tool", "Software")
    assert {g.get_entity(n).entity_type for n in ("Postgres", "PostgreSQL")} == {"Software"}
    assert "Tool" not in g.entity_types()
    g.upsert_entity("Vim", "Software")  # made after the rename: undo leaves it alone
    undo.undo_step(g, step)
    assert g.get_entity("Postgres").entity_type == "Tool" and g.get_entity("Vim").entity_type == "Software"
    with pytest.raises(ValidationError):
        organise.rename_type(g, "Nothing", "Else")


def test_pins_and_the_empty_query_lists(g):
    assert organise.home(g).pinned == []  # no pins table yet: nothing pinned, nothing written
    organise.set_pinned(g, g.entity_id("Ana"), True)
    home = organise.home(g)
    assert [i.name for i in home.pinned] == ["Ana"]
    assert home.changed and home.changed[0].name in {"Ana", "Postgres", "PostgreSQL", "Ledger"}
    organise.set_pinned(g, g.entity_id("Ana"), False)
    assert organise.home(g).pinned == []


def test_browse_by_type_with_counts_and_sorts(g):
    assert organise.type_counts(g)[0] == ("Tool", 2)
    assert [i.name for i in organise.browse(g, "Tool", "name")] == ["Postgres", "PostgreSQL"]
    assert [i.name for i in organise.browse(g, "", "importance")][0] == "PostgreSQL"  # the most relations
    with pytest.raises(ValidationError):
        organise.browse(g, "", "colour")
