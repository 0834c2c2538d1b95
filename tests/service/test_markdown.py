"""Folders of Markdown notes and Obsidian vaults: a real public vault with every link accounted for,
the syntax vaults use, malformed notes, and export then import giving back the same graph."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from limbic.engine.errors import Cancelled
from limbic.service.importers import ImportInputError, detect_kind, import_path
from limbic.service.importers.markdown import import_vault
from limbic.service.importers.markdown_export import export_markdown, file_names, safe_stem
from tests.service.graph_state import graph_state

VAULT = Path(__file__).resolve().parents[1] / "fixtures" / "vault_obsidian_tasks"
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)


def written_links(path: Path) -> list[str]:
    """Every [[link]] target in a note, found independently of the importer (outside code)."""
    text = FENCE.sub("", path.read_text("utf-8"))
    text = re.sub(r"`[^`\n]*`", "", text)
    return [re.split(r"[#^|]", inner)[0].strip() for inner in re.findall(r"\[\[([^\[\]\n]+?)\]\]", text)]


def test_real_vault_every_link_accounted_for(text_graph):
    report = import_path(text_graph, VAULT)
    notes = sorted(p for p in VAULT.rglob("*.md") if ".obsidian" not in p.parts)
    assert report.kind == "markdown" and report.entities_created == len(notes) == 10
    relations = {(r.from_name, r.to_name) for r in text_graph.all_relations()}
    stems = {p.stem for p in notes}
    total = accounted = 0
    for path in notes:
        for target in written_links(path):
            total += 1
            if not target:
                accounted += 1  # [[#heading]] points into the same note
            elif target in stems:
                assert (path.stem, target) in relations or target == path.stem, (path.stem, target)
                accounted += 1
            else:
                assert path.stem in report.missing_links[target], (path.stem, target)
                accounted += 1
    assert total == accounted and total > 60
    assert set(report.missing_links) == {t for p in notes for t in written_links(p) if t and t not in stems}
    assert "13 linked notes do not exist" in report.describe()
    # Paragraphs and list items are observations; front matter properties are kept; headings are not.
    core = text_graph.get_entity("Core Statuses")
    assert core.entity_type == "Statuses" and core.observation_texts[0] == "publish: true"
    assert "Core statuses represent conventional markdown tasks:" in core.observation_texts
    assert not any(t.startswith("#") for t in core.observation_texts)
    again = import_path(text_graph, VAULT)
    assert (again.entities_created, again.observations_added, again.relations_added) == (0, 0, 0)


def note(root: Path, rel: str, text: str | bytes) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, "utf-8")
    return path


@pytest.fixture
def vault(tmp_path):
    root = tmp_path / "vault"
    note(root, "People/Ana Pérez.md", "---\naliases: [Ana, \"A. Pérez\"]\ntags:\n  - person\n---\n# Ana Pérez\n\n"
         "Designs the [[Limbic|search app]] index.\n\n- Speaks Spanish\n- Lives in [[Madrid]]\n  since 2020\n")
    note(root, "Projects/Limbic.md", "---\ntype: Project\nstatus: paused\ncreated: 2025-01-02 10:00:00\n"
         "owner: \"[[Ana]]\"\n---\nA desktop app. See [[#Details]].\n\nuses:: [[SQLite#Why]]\n\n"
         "Reviewed by [reviewer:: [[A. Pérez]]] last week.\n\n## Details\n\n```python\nx = '[[Not a link]]'\n```\n\n"
         "![[diagram.png]] and ![[SQLite]] embedded; [also](SQLite.md).\n")
    note(root, "SQLite.md", "Embedded database. #tool\n")
    note(root, "Projects/diagram.png", b"\x89PNG\r\n\x1a\n\x00\x00")
    note(root, ".obsidian/workspace.md", "[[Should not be read]]\n")
    note(root, ".trash/Old.md", "[[Neither this]]\n")
    return root


def test_vault_syntax(text_graph, vault):
    report = import_vault(text_graph, vault)
    assert report.entities_created == 3 and "1 attachment or other file left aside" in report.describe()
    assert report.missing_links == {"Madrid": ["Ana Pérez"]}
    rels = {(r.from_name, r.relation_type, r.to_name) for r in text_graph.all_relations()}
    assert rels == {
        ("Ana Pérez", "links_to", "Limbic"),  # [[Limbic|search app]]
        ("Limbic", "owner", "Ana Pérez"),  # a link-valued property, through an alias
        ("Limbic", "uses", "SQLite"),  # Dataview field, [[SQLite#Why]]
        ("Limbic", "reviewer", "Ana Pérez"),  # inline Dataview field, the other alias
        ("Limbic", "links_to", "SQLite"),  # ![[SQLite]] and [also](SQLite.md)
    }
    ana = text_graph.get_entity("Ana Pérez")
    assert ana.entity_type == "person" and ana.status == "active"
    assert text_graph.aliases_of(ana.id) == ["Ana", "A. Pérez"]  # the front matter's aliases are its aliases
    assert [(o.content, o.kind) for o in ana.observations] == [
        ("Designs the [[Limbic|search app]] index.", "note"), ("Speaks Spanish", "note"),
        ("Lives in [[Madrid]]\nsince 2020", "note"),
    ]
    limbic = text_graph.get_entity("Limbic")
    assert (limbic.entity_type, limbic.status, limbic.created_at) == ("Project", "paused", "2025-01-02 10:00:00")
    assert "```python\nx = '[[Not a link]]'\n```" in limbic.observation_texts
    assert text_graph.get_entity("SQLite").entity_type == "tool"
    assert text_graph.entity_id("Should not be read") is None and text_graph.entity_id("Old") is None


def test_binary_and_non_utf8_notes_are_reported_not_fatal(text_graph, vault):
    note(vault, "Broken.md", b"\x00\x01\x02binary")
    note(vault, "Latin.md", "Caf\xe9 con leche".encode("latin-1"))
    report = import_vault(text_graph, vault)
    assert report.entities_created == 3
    assert sorted(report.skipped) == ["Broken.md: binary, not text", "Latin.md: not UTF-8 text"]
    assert "2 files skipped" in report.describe()


@pytest.mark.parametrize(
    "text, line, reason",
    [
        ("---\ntype: Project\nno colon here\n---\nbody\n", 3, "is not “key: value”"),
        ("---\ntype: Project\nbody without end\n", 1, "never closed"),
        ("---\ntitle: \"unclosed\n---\nbody\n", 2, "not closed"),
        ("---\nnested:\n  deeper: 1\n---\nbody\n", 3, "nested maps"),
    ],
)
def test_broken_front_matter_refuses_in_one_sentence_and_writes_nothing(text_graph, vault, text, line, reason):
    text_graph.upsert_entity("Already here", None, ["kept"])
    before = graph_state(text_graph)
    bad = note(vault, "Projects/Bad.md", text)
    with pytest.raises(ImportInputError) as info:
        import_vault(text_graph, vault)
    message = str(info.value)
    assert message.startswith(f"{bad}, line {line}: the front matter cannot be read") and reason in message
    assert "\n" not in message and message.endswith(".")
    assert graph_state(text_graph) == before


def test_cancel_leaves_nothing(text_graph, vault):
    for i in range(60):
        note(vault, f"Many/n{i}.md", f"note {i} links [[SQLite]]\n")
    with pytest.raises(Cancelled):
        import_vault(text_graph, vault, cancelled=lambda: True)
    assert text_graph.counts()["entities"] == 0


def test_safe_and_unique_file_names():
    assert safe_stem('a/b: "c"?') == "a_b_ _c__"
    assert safe_stem("CON") == "_CON" and safe_stem("...") == "_" and safe_stem("x" * 300) == "x" * 120
    stems = file_names(["A/B", "A_B", "a_b", "Plain"])
    assert stems["A_B"] == "A_B" and stems["Plain"] == "Plain"
    assert len({s.lower() for s in stems.values()}) == 4


def seeded(graph):
    graph.upsert_entity("Limbic", "Project", ["Desktop app", "Line one\nline two\n\nafter a blank line", "# not a heading"])
    graph.upsert_entity("SQLite", "Tool", ["Embedded database"])
    graph.upsert_entity("a/b: c?", "Odd", ["A name no file system takes"])
    graph.upsert_entity("CON", "Odd", ["A reserved name on Windows"])
    graph.upsert_entity("CON.", "Odd", ["The same file name once a trailing dot is dropped"])
    graph.upsert_entity("Ana", "Person")  # no observations
    graph.add_relation("Limbic", "SQLite", "uses")
    graph.add_relation("Ana", "Limbic", "works on")
    graph.add_relation("Ana", "a/b: c?", "links_to")
    graph.add_relation("CON", "CON.", "differs_from")
    graph.set_status("SQLite", "done")
    graph.add_alias("Ana", "Ana P.")


def test_export_then_import_gives_back_the_same_graph(text_graph, tmp_path):
    from limbic.engine.store.db import Database
    from limbic.engine.graph.graph import Graph

    seeded(text_graph)
    out = tmp_path / "vault"
    assert export_markdown(text_graph, out) == 6
    assert detect_kind(out) == "markdown"
    other = Graph(Database(tmp_path / "other.db"))
    report = import_path(other, out)
    assert report.missing_links == {} and report.skipped == []

    def core(graph):
        state = graph_state(graph, usage=False)
        for e in state["entities"].values():
            e["observations"] = [(o[0], o[1]) for o in e["observations"]]
        state["relations"] = {r[:5] for r in state["relations"]}
        return state

    assert core(other) == core(text_graph)
    assert other.aliases_of("Ana") == text_graph.aliases_of("Ana") == ["Ana P."]  # `aliases:` front matter
    # The vault works as one: every wikilink in it resolves to a note in it.
    stems = {p.stem for p in out.glob("*.md")}
    assert all(t in stems for p in out.glob("*.md") for t in written_links(p))
    assert export_markdown(text_graph, out) == 6  # its own earlier export is replaced
    hand = tmp_path / "hand"
    hand.mkdir()
    (hand / "mine.md").write_text("my note", encoding="utf-8")
    from limbic.service.export_guard import OverwriteRefused

    with pytest.raises(OverwriteRefused, match="already holds files and is not an earlier Markdown export"):
        export_markdown(text_graph, hand)
    assert [p.name for p in hand.iterdir()] == ["mine.md"]
    other.db.close()


def test_real_vault_exported_and_imported_again_is_the_same_graph(text_graph, tmp_path):
    from limbic.engine.store.db import Database
    from limbic.engine.graph.graph import Graph

    import_path(text_graph, VAULT)
    export_markdown(text_graph, tmp_path / "out")
    other = Graph(Database(tmp_path / "other.db"))
    import_path(other, tmp_path / "out")

    def core(graph):
        state = graph_state(graph, usage=False)
        for e in state["entities"].values():
            e["observations"] = [o[:2] for o in e["observations"]]
        return state

    assert core(other) == core(text_graph)
    other.db.close()


def test_a_graph_cannot_import_itself(tmp_path):
    from limbic.engine.store.db import Database
    from limbic.engine.graph.graph import Graph

    graph = Graph(Database(tmp_path / "g.db"))
    graph.upsert_entity("A", None, ["x"])
    with pytest.raises(ImportInputError, match="is the graph that is open"):
        import_path(graph, tmp_path / "g.db")
    graph.db.close()


def test_front_matter_subset_reads_what_vaults_write_and_writes_what_it_reads():
    from limbic.service.importers import frontmatter

    block, body, line = frontmatter.split(
        "---\ntitle: 'It''s here'\ntags: [a, \"b, c\", d]\naliases:\n  - One\n  - \"Two: 2\"\n"
        "publish: true\nempty:\nrelated: \"[[X]]\"  # a comment\n---\nBody\n"
    )
    assert body == "Body\n" and line == 11
    assert frontmatter.parse(block) == {
        "title": "It's here", "tags": ["a", "b, c", "d"], "aliases": ["One", "Two: 2"], "publish": True,
        "empty": None, "related": "[[X]]",
    }
    values = {"name": 'a "quoted" name: yes', "type": "T", "aliases": ["x", "y: z"], "status": "done"}
    text = frontmatter.dump(values)
    block, _, _ = frontmatter.split(text + "body")
    assert frontmatter.parse(block) == values
