"""An Obsidian note says `limbic: private` in its front matter: the import marks the entity private, the Markdown
export writes the key back, and the two round-trip."""

from __future__ import annotations

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.service.importers.markdown import import_vault
from limbic.service.importers.markdown_export import export_markdown


def _private(graph: Graph, name: str) -> int:
    return graph.db.scalar("SELECT private FROM entities WHERE name = ?", (name,))


def test_the_front_matter_key_marks_private_and_the_export_writes_it_back(tmp_path):
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Therapy.md").write_text("---\ntype: Health\nlimbic: private\n---\n- Thursdays at 5\n", encoding="utf-8")
    (vault / "Garden.md").write_text("---\ntype: Hobby\nlimbic: something else\n---\n- tomatoes\n", encoding="utf-8")
    graph = Graph(Database(tmp_path / "g.db"))
    import_vault(graph, vault, embed=False)
    assert (_private(graph, "Therapy"), _private(graph, "Garden")) == (1, 0)
    garden = graph.get_entity("Garden").observation_texts
    assert "limbic: something else" in garden  # an unknown word stays in the note as written
    out = tmp_path / "out"
    export_markdown(graph, out)
    assert "limbic: \"private\"" in (out / "Therapy.md").read_text(encoding="utf-8")
    assert "limbic:" not in (out / "Garden.md").read_text(encoding="utf-8").split("---")[1]
    again = Graph(Database(tmp_path / "again.db"))
    import_vault(again, out, embed=False)
    assert (_private(again, "Therapy"), _private(again, "Garden")) == (1, 0)
    graph.db.close()
    again.db.close()
