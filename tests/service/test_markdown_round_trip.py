"""Markdown both ways: relative links find the entity they name, Limbic's own export imports back
without a change, and a tag's type is the graph's type whatever its case."""

from __future__ import annotations

import pytest

from limbic.service.importers import import_path
from limbic.service.importers.markdown_export import export_markdown
from tests.service.graph_state import graph_state


def _relations(graph):
    return sorted((r.from_name, r.to_name, r.relation_type) for r in graph.all_relations())


@pytest.mark.parametrize("link", [
    "[the API](Harbor%20API.md)", "[the API](<Harbor API.md>)", "[the API](./Harbor%20API.md)",
    "[the API](../Harbor%20API.md#usage)", "[the API](<../Harbor API.md#usage>)",
])
def test_a_relative_link_matches_the_existing_entity(text_graph, tmp_path, link):
    text_graph.upsert_entity("Harbor API", "Project", ["already in the graph"])
    v = tmp_path / "v" / "people"
    v.mkdir(parents=True)
    (v / "Ada.md").write_text(f"Ada maintains {link}.\n", encoding="utf-8")
    report = import_path(text_graph, tmp_path / "v")
    assert report.missing_links == {}
    assert _relations(text_graph) == [("Ada", "Harbor API", "links_to")]


def test_a_relative_link_between_notes_of_the_vault(text_graph, tmp_path):
    v = tmp_path / "v"
    (v / "projects").mkdir(parents=True)
    (v / "projects" / "Harbor API.md").write_text("The timetable service.\n", encoding="utf-8")
    (v / "Ada.md").write_text("Maintains [it](<projects/Harbor API.md>) and [this](./projects/Harbor%20API.md).\n")
    import_path(text_graph, v)
    assert _relations(text_graph) == [("Ada", "Harbor API", "links_to")]


def test_reimporting_limbics_own_export_changes_nothing(text_graph, tmp_path):
    g = text_graph
    g.upsert_entity("Harbor API", "Project", ["Serves [[Ada]]'s timetable", "see [docs](Docs.md) and key:: [[Ada]]"])
    g.upsert_entity("Ada", "Person", ["- starts with a dash", "# looks like a heading", "#tag and (field:: [[Harbor API]])"])
    g.upsert_entity("a/b: c?", "Thing", ["a name no file can hold"])
    g.add_relation("Ada", "Harbor API", "maintains")
    g.add_relation("Ada", "a/b: c?", "mentions")
    before = graph_state(g)
    export_markdown(g, tmp_path / "v")
    report = import_path(g, tmp_path / "v")
    assert (report.entities_created, report.observations_added, report.relations_added) == (0, 0, 0)
    assert graph_state(g) == before


def test_types_from_tags_match_existing_types_ignoring_case(text_graph, tmp_path):
    text_graph.upsert_entity("Bo", "Person", ["already here"])
    v = tmp_path / "v"
    v.mkdir()
    (v / "Ada.md").write_text("---\ntags: [person]\n---\nAn engineer.\n", encoding="utf-8")
    (v / "Bo.md").write_text("#PERSON too.\n", encoding="utf-8")
    (v / "Cy.md").write_text("---\ntags: [Robot]\n---\nx\n", encoding="utf-8")
    (v / "Di.md").write_text("---\ntags: [robot]\n---\ny\n", encoding="utf-8")
    import_path(text_graph, v)
    types = dict(text_graph.db.execute("SELECT name, entity_type FROM entities").fetchall())
    assert types == {"Bo": "Person", "Ada": "Person", "Cy": "Robot", "Di": "Robot"}
    assert sorted(text_graph.entity_types()) == ["Person", "Robot"]


def test_text_added_by_hand_under_relations_of_an_exported_note_is_kept(text_graph, tmp_path):
    text_graph.upsert_entity("Ada", "Person", ["an engineer"])
    text_graph.upsert_entity("Bo", "Person", ["a friend"])
    text_graph.add_relation("Ada", "Bo", "knows")
    export_markdown(text_graph, tmp_path / "v")
    note = tmp_path / "v" / "Ada.md"
    note.write_text(note.read_text(encoding="utf-8") + "\nA paragraph added later.\n", encoding="utf-8")
    import_path(text_graph, tmp_path / "v")
    assert text_graph.get_entity("Ada").observation_texts == ["an engineer", "A paragraph added later."]
    assert _relations(text_graph) == [("Ada", "Bo", "knows")]
