"""Valid time in Markdown notes: front matter for the whole note, a (valid …) suffix per line, and the round trip."""

from __future__ import annotations

import pytest

from limbic.engine.history.valid import set_observation_validity, set_relation_validity
from limbic.service.importers import import_path
from limbic.service.importers.markdown_export import export_markdown


def _obs_valid(g, name: str) -> dict[str, tuple]:
    return {r[0]: (r[1], r[2]) for r in g.db.execute(
        "SELECT o.content, o.valid_from, o.valid_until FROM observations o JOIN entities e ON e.id = o.entity_id "
        "WHERE e.name = ?", (name,))}


def _rel_valid(g) -> dict[tuple, tuple]:
    return {(r[0], r[1], r[2]): (r[3], r[4]) for r in g.db.execute(
        "SELECT a.name, b.name, r.relation_type, r.valid_from, r.valid_until FROM relations r "
        "JOIN entities a ON a.id = r.from_entity JOIN entities b ON b.id = r.to_entity")}


def test_front_matter_and_line_suffixes_give_valid_time(text_graph, tmp_path):
    v = tmp_path / "v"
    v.mkdir()
    (v / "Ada.md").write_text(
        "---\nvalid_from: 2023-01-01\nvalid_until: 2023-12-31\n---\n"
        "- lives in Lisbon (valid from 2024-03-01 until 2025-01-31)\n"
        "- works at Harbor (valid until 2022-06-30 12:00:00)\n"
        "- likes tea\n"
        "- reads (valid 2020-01-01 – 2020-02-01)\n"
        "- knows:: [[Bo]] (valid from 2021-05-05)\n"
        "- mentor:: [[Cy]]\n", encoding="utf-8")
    (v / "Bo.md").write_text("A friend.\n", encoding="utf-8")
    (v / "Cy.md").write_text("A mentor.\n", encoding="utf-8")
    import_path(text_graph, v)
    assert _obs_valid(text_graph, "Ada") == {
        "lives in Lisbon": ("2024-03-01", "2025-01-31"),
        "works at Harbor": (None, "2022-06-30 12:00:00"),
        "likes tea": ("2023-01-01", "2023-12-31"),  # the note's own period
        "reads": ("2020-01-01", "2020-02-01"),
    }
    assert _obs_valid(text_graph, "Bo") == {"A friend.": (None, None)}
    assert _rel_valid(text_graph) == {
        ("Ada", "Bo", "knows"): ("2021-05-05", None),
        ("Ada", "Cy", "mentor"): ("2023-01-01", "2023-12-31"),
    }


def test_valid_time_survives_a_markdown_export_and_import(text_graph, tmp_path, tmp_path_factory):
    from limbic.engine.graph.graph import Graph
    from limbic.engine.store.db import Database

    g = text_graph
    g.upsert_entity("Ada", "Person", ["lives in Lisbon", "works at Harbor", "likes tea"])
    g.upsert_entity("Bo", "Person", ["a friend"])
    g.add_relation("Ada", "Bo", "knows")
    ids = {o.content: o.id for o in g.get_entity("Ada").observations}
    set_observation_validity(g, ids["lives in Lisbon"], "2024-03-01", "2025-01-31")
    set_observation_validity(g, ids["works at Harbor"], None, "2022-06-30 12:00:00")
    set_relation_validity(g, "Ada", "Bo", "knows", "2021-05-05")
    export_markdown(g, tmp_path / "v")
    text = (tmp_path / "v" / "Ada.md").read_text(encoding="utf-8")
    assert "- lives in Lisbon (valid from 2024-03-01 until 2025-01-31)" in text
    assert "knows:: [[Bo]] (valid from 2021-05-05)" in text

    other = Graph(Database(tmp_path_factory.mktemp("other") / "g.db"))
    try:
        import_path(other, tmp_path / "v")
        assert _obs_valid(other, "Ada") == _obs_valid(g, "Ada")
        assert _rel_valid(other) == _rel_valid(g)
    finally:
        other.db.close()
    # Importing the export back into the same graph changes nothing.
    before = (_obs_valid(g, "Ada"), _rel_valid(g))
    report = import_path(g, tmp_path / "v")
    assert (report.observations_added, report.relations_added) == (0, 0)
    assert (_obs_valid(g, "Ada"), _rel_valid(g)) == before


@pytest.mark.parametrize("note, kept", [
    ("---\nvalid_from: someday\n---\nlived there\n", ["valid_from: someday", "lived there"]),
    ("---\nvalid_from: 2025-01-01\nvalid_until: 2024-01-01\n---\nlived there\n",
     ["valid_from: 2025-01-01", "valid_until: 2024-01-01", "lived there"]),
    ("- lived there (valid from 2024-02-31)\n", ["lived there (valid from 2024-02-31)"]),
    ("- lived there (valid from 2025-01-01 until 2024-01-01)\n", ["lived there (valid from 2025-01-01 until 2024-01-01)"]),
])
def test_a_period_that_is_not_one_stays_in_the_text_as_written(text_graph, tmp_path, note, kept):
    v = tmp_path / "v"
    v.mkdir()
    (v / "Ada.md").write_text(note, encoding="utf-8")
    import_path(text_graph, v)
    assert _obs_valid(text_graph, "Ada") == {text: (None, None) for text in kept}
