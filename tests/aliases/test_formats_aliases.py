"""Aliases in files: JSONL's ``aliases`` key and Obsidian's ``aliases:`` front matter go out and come back."""

from __future__ import annotations

import io
import json

from limbic.engine.formats.jsonl import export_to, import_file
from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.service.importers import import_path
from limbic.service.importers.markdown_export import export_markdown


def _seed(g: Graph) -> None:
    g.create_entity("New York City", "Place", ["a big city"])
    g.create_entity("Paris", "Place", ["on the Seine"])
    g.add_alias("New York City", "NYC")
    g.add_alias("New York City", "Big Apple")


def _lines(g: Graph) -> list[dict]:
    out = io.StringIO()
    export_to(g, out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_jsonl_keeps_aliases_and_an_entity_without_them_exports_as_before(text_graph, tmp_path):
    _seed(text_graph)
    lines = _lines(text_graph)
    assert lines[0]["aliases"] == ["NYC", "Big Apple"]
    assert "aliases" not in lines[1]  # no key at all: exactly as before aliases existed
    path = tmp_path / "out.jsonl"
    path.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n", encoding="utf-8")
    other = Graph(Database(tmp_path / "other.db"))
    try:
        import_file(other, path)
        assert other.aliases_of("New York City") == ["NYC", "Big Apple"] and other.resolve("nyc")
        import_file(other, path)  # again: nothing new, nothing refused
        assert other.aliases_of("New York City") == ["NYC", "Big Apple"]
    finally:
        other.db.close()


def test_a_jsonl_alias_that_is_another_entitys_name_is_reported_not_kept(text_graph, tmp_path):
    path = tmp_path / "in.jsonl"
    rows = [{"type": "entity", "name": "New York City", "entityType": "Place", "observations": [],
             "aliases": ["NYC", "Paris"]},
            {"type": "entity", "name": "Paris", "entityType": "Place", "observations": []}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    summary = import_file(text_graph, path)
    assert text_graph.aliases_of("New York City") == ["NYC"]
    assert "line 1: the alias “Paris” was not kept" in summary.describe()


def test_obsidian_aliases_front_matter_round_trips(text_graph, tmp_path):
    _seed(text_graph)
    text_graph.add_observations("Paris", ["Lutetia"], kind="alias")  # how an older import kept an alias
    out = tmp_path / "vault"
    export_markdown(text_graph, out)
    note = (out / "New York City.md").read_text(encoding="utf-8")
    assert "aliases:" in note and "NYC" in note and "Big Apple" in note
    other = Graph(Database(tmp_path / "other.db"))
    try:
        import_path(other, out)
        assert other.aliases_of("New York City") == ["NYC", "Big Apple"]
        assert other.aliases_of("Paris") == ["Lutetia"]
        assert other.get_entity("NYC").observation_texts == ["a big city"]
    finally:
        other.db.close()


def test_an_obsidian_alias_that_is_another_notes_name_is_reported(text_graph, tmp_path):
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "New York City.md").write_text("---\naliases: [NYC, Paris, New York City]\n---\nA big city.\n", "utf-8")
    (vault / "Paris.md").write_text("On the Seine.\n", "utf-8")
    report = import_path(text_graph, vault)
    assert text_graph.aliases_of("New York City") == ["NYC"]
    assert "the alias “Paris” was not kept" in report.describe() and "alias “New York City”" not in report.describe()


def test_a_jsonl_entity_named_by_an_alias_merges_into_its_entity_and_says_so(text_graph, tmp_path):
    _seed(text_graph)
    path = tmp_path / "old.jsonl"
    path.write_text(json.dumps({"type": "entity", "name": "NYC", "entityType": "Place",
                                "observations": ["never sleeps"]}) + "\n", encoding="utf-8")
    summary = import_file(text_graph, path)
    assert text_graph.db.scalar("SELECT count(*) FROM entities") == 2  # no duplicate made
    assert text_graph.get_entity("New York City").observation_texts == ["a big city", "never sleeps"]
    assert "line 1: “NYC” is an alias of “New York City” and was merged into it" in summary.describe()
