"""Names that could mislead or break a file: refused at entry when they would, and every export stays
well-formed for a strict XML or YAML reader whatever the names hold."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest
import yaml

from limbic.engine.store.db import Database
from limbic.engine.errors import ValidationError
from limbic.engine.graph.graph import Graph, clean_name
from limbic.engine.store.name_rules import BIDI_CONTROLS
from limbic.service import graph_export
from limbic.service.importers import frontmatter
from limbic.service.importers.markdown import read_vault
from limbic.service.importers.markdown_export import export_markdown
from limbic.service.names import invisible_characters, names_with_invisible_characters

# Every code point a name might be built from that is unusual: C0/C1 controls, DEL, line and
# paragraph separators, bidi controls, zero-width and format characters, non-characters, a BOM.
ODD = [chr(c) for c in (*range(0, 0x20), 0x7F, *range(0x80, 0xA0), 0xAD, 0x061C, 0x180E, *range(0x200B, 0x2010),
                        0x2028, 0x2029, *range(0x202A, 0x202F), *range(0x2060, 0x2070), 0xFDD0, 0xFEFF, 0xFFF9,
                        0xFFFC, 0xFFFD, 0xFFFE, 0xFFFF, 0x1FFFE, 0x10FFFF, 0xE0001)]


def accepted_odd_names() -> list[str]:
    names = []
    for ch in ODD:
        try:
            names.append(clean_name(f"a{ch}b"))
        except ValidationError:
            pass
    return names


@pytest.mark.parametrize("ch", sorted(BIDI_CONTROLS) + ["\ufffe", "\uffff"])
def test_bidi_controls_and_non_characters_are_refused_in_names_with_a_sentence(ch):
    with pytest.raises(ValidationError) as info:
        clean_name(f"Invoice{ch}fdp.exe")
    text = str(info.value)
    assert text.startswith("An entity name cannot contain ") and f"U+{ord(ch):04X}" in text and text.endswith(".")
    with pytest.raises(ValidationError):
        clean_name(f"Person{ch}", "type", 128)


def test_observations_keep_bidi_controls(tmp_path):
    g = Graph(Database(tmp_path / "g.db"))
    eid = g.upsert_entity("Note", "Thing", ["abc\u202edef and \u2066isolated\u2069"])
    assert g.get_entity(eid).observation_texts == ["abc\u202edef and \u2066isolated\u2069"]


def test_zero_width_characters_in_names_are_reported(tmp_path):
    g = Graph(Database(tmp_path / "g.db"))
    g.upsert_entity("Harbor API", "Project", [])
    g.upsert_entity("Harbor\u200b API", "Project", [])
    g.upsert_entity("Dev 👩\u200d💻", "Person", [])  # a joiner inside an emoji is the emoji itself
    g.upsert_entity("soft\u00adhyphen", "Thing", [])
    found = {f.name: f.characters for f in names_with_invisible_characters(g)}
    assert found == {"Harbor\u200b API": ("U+200B ZERO WIDTH SPACE",), "soft\u00adhyphen": ("U+00AD SOFT HYPHEN",)}
    assert invisible_characters("a\u2066b") == ["U+2066 LEFT-TO-RIGHT ISOLATE"]


@pytest.fixture
def odd_graph(tmp_path):
    g = Graph(Database(tmp_path / "g.db"))
    names = accepted_odd_names()
    assert len(names) > 40
    for name in names:
        g.upsert_entity(name, name, [f"observation of {name}"])
    for a, b in zip(names, names[1:]):
        g.add_relation(a, b, "rel" + a)
    # A graph made before names refused them may still hold a non-character: exports replace it.
    g.db.execute("UPDATE entities SET name = 'old\uffffname' WHERE name = ?", (names[0],))
    yield g
    g.db.close()


def test_graphml_is_well_formed_whatever_the_names_hold(odd_graph, tmp_path):
    path = tmp_path / "g.graphml"
    graph_export.export_whole_graph(odd_graph, str(path))
    root = ET.parse(path).getroot()  # expat: refuses any character XML 1.0 forbids
    names = {d.text for d in root.iter("{http://graphml.graphdrawing.org/xmlns}data") if d.get("key") == "name"}
    assert "old\ufffdname" in names and len(names) == odd_graph.counts()["entities"]


def test_svg_is_well_formed_whatever_the_names_hold(odd_graph):
    from limbic.ui.graph.scene import Scene, ViewTransform
    from limbic.ui.graph.svg import svg_text

    labels = [r[0] for r in odd_graph.db.execute("SELECT name FROM entities ORDER BY id")]
    n = len(labels)
    scene = Scene(ids=np.arange(n, dtype=np.int64), pos=np.zeros((n, 2)), types=np.zeros(n, dtype=np.int32),
                  type_names=["T"], degree=np.ones(n, dtype=np.int32), kinds=np.zeros(n, dtype=np.int8),
                  labels=labels, statuses=["active"] * n)
    root = ET.fromstring(svg_text(scene, ViewTransform(), 800, 600, False, "#ffffff", "#000000"))
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert len(texts) == n and "old\ufffdname" in texts


def test_markdown_front_matter_is_strict_yaml_and_reads_back_the_same(odd_graph, tmp_path):
    odd_graph.db.execute("UPDATE entities SET name = 'old name' WHERE name = 'old\uffffname'")
    folder = tmp_path / "vault"
    export_markdown(odd_graph, folder)
    for note in folder.glob("*.md"):
        block, _, _ = frontmatter.split(note.read_text(encoding="utf-8"))
        strict = yaml.safe_load(block)  # PyYAML refuses what YAML does not allow unescaped
        assert strict == frontmatter.parse(block), note.name
    vault = read_vault(folder)
    names = {r[0] for r in odd_graph.db.execute("SELECT name FROM entities")}
    assert {n.name for n in vault.notes} == names
    assert {n.entity_type for n in vault.notes} == {r[0] for r in odd_graph.db.execute("SELECT entity_type FROM entities")}


@pytest.mark.parametrize("value", ["a\x7fb", "\x85", "x\u2028y", "\ufeffq", "\x9f", "é\u202e", 'a"b\\c', "😀"])
def test_front_matter_values_survive_a_strict_yaml_reader(value):
    text = frontmatter.dump({"name": value, "aliases": [value]})
    block = text.split("---\n")[1]
    assert yaml.safe_load(block) == {"name": value, "aliases": [value]} == frontmatter.parse(block)


def test_observations_are_drawn_with_their_bidi_controls_kept_to_their_line(qtbot):
    from PySide6.QtWidgets import QListWidget, QListWidgetItem, QStyleOptionViewItem

    from limbic.service.names import bidi_isolated
    from limbic.ui.editor.observation_delegate import ObservationDelegate

    assert bidi_isolated("plain\ntext") == "plain\ntext"
    assert bidi_isolated("pay \u202eexe.fdp\nnext") == "\u2068pay \u202eexe.fdp\u2069\nnext"
    assert bidi_isolated("open \u2067isolate") == "\u2068open \u2067isolate\u2069\u2069"
    widget = QListWidget()
    qtbot.addWidget(widget)
    delegate = ObservationDelegate(widget)
    widget.setItemDelegate(delegate)
    widget.addItem(QListWidgetItem("invoice \u202egnp.exe"))
    option = QStyleOptionViewItem()
    index = widget.model().index(0, 0)
    delegate.initStyleOption(option, index)
    assert option.text == "\u2068invoice \u202egnp.exe\u2069"
    assert widget.item(0).text() == "invoice \u202egnp.exe"  # what is saved stays as written
