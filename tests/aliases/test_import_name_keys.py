"""An import whose entity is named like one in the graph in another case (a note file, a JSONL line with
Limbic's own fields, a CSV row) adds to that entity instead of making a second one under the same name."""

from __future__ import annotations

import pytest

from limbic.engine.formats.jsonl import import_file
from limbic.service.importers.markdown import import_vault


def _entities(g) -> dict[str, list[str]]:
    return {name: sorted(g.get_entity(name).observation_texts) for (name,) in g.db.execute("SELECT name FROM entities")}


@pytest.mark.parametrize(("name", "file_name"), [("New York City", "new york city"), ("Straße", "STRASSE"), ("Éé", "éÉ")])
def test_a_note_named_like_an_entity_in_another_case_adds_to_it(text_graph, tmp_path, name, file_name):
    text_graph.create_entity(name, "Place", ["old"])
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / f"{file_name}.md").write_text("from the vault\n", encoding="utf-8")
    import_vault(text_graph, vault, embed=False)
    assert _entities(text_graph) == {name: ["from the vault", "old"]}


def test_a_jsonl_line_with_limbic_fields_named_in_another_case_adds_to_the_entity(text_graph, tmp_path):
    text_graph.create_entity("New York City", "Place", ["old"])
    path = tmp_path / "in.jsonl"
    path.write_text('{"type":"entity","name":"new york city","entityType":"Place","observations":["new"],'
                    '"aliases":["Gotham"]}\n', encoding="utf-8")
    summary = import_file(text_graph, path)
    assert _entities(text_graph) == {"New York City": ["new", "old"]}
    assert text_graph.aliases_of("New York City") == ["Gotham"]
    assert summary.merged_names == [(1, "new york city", "New York City")]  # and it says so
