"""The quick switcher finds an entity by an alias and says which alias matched."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QToolButton

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.service.lookup import find_entities
from limbic.ui.common.picker import DETAIL_ROLE
from tests.ui.conftest import make_window


def _seed(path) -> None:
    g = Graph(Database(path))
    g.create_entity("New York City", "Place", ["a big city"])
    g.create_entity("Nyctophobia", "Condition", ["fear of the dark"])
    g.create_entity("NY Pizza Co", "Shop")
    g.add_alias("New York City", "NYC")
    g.db.close()


def test_lookup_by_alias_ranks_the_entity_first_with_the_alias_as_why(tmp_path):
    _seed(tmp_path / "g.db")
    g = Graph(Database(tmp_path / "g.db"))
    try:
        first = find_entities(g, "nyc")[0]
        assert (first.name, first.alias) == ("New York City", "NYC")
        assert find_entities(g, "new york")[0].alias is None  # its name matched: no alias to show
        assert [m.name for m in find_entities(g, "nyc")].count("New York City") == 1  # once, by its best match
    finally:
        g.db.close()


def test_quick_switcher_opens_the_entity_an_alias_names(qtbot, tmp_path):
    path = tmp_path / "switch.db"
    _seed(path)
    w = make_window(qtbot, path, wait_model=False)
    s = w.switcher
    with qtbot.waitSignal(s.filled, timeout=10_000):
        w.switcher_action.trigger()
    with qtbot.waitSignal(s.filled, timeout=10_000):
        s.field.setText("NYC")
    qtbot.waitUntil(lambda: s.field.text() == "NYC")
    assert s.labels()[0] == "New York City"
    assert "alias “NYC”" in s.list.item(0).data(DETAIL_ROLE)
    with qtbot.waitSignal(w.entity_shown, timeout=30_000):
        qtbot.keyClick(s.field, Qt.Key.Key_Return)
    assert w.editor.name_edit.text() == "New York City"


def _aliases_in_file(path) -> list[str]:
    from limbic.engine.store.db import Database as _Db

    db = _Db(path, readonly=True)
    try:
        return [r[0] for r in db.execute("SELECT alias FROM entity_aliases ORDER BY id")]
    finally:
        db.close()


def test_the_editor_shows_adds_and_removes_aliases_and_undo_takes_them_back(qtbot, tmp_path):
    path = tmp_path / "edit.db"
    _seed(path)
    w = make_window(qtbot, path, wait_model=False)
    with qtbot.waitSignal(w.entity_shown, timeout=30_000):
        w.open_entity("NYC")
    bar = w.editor.aliases
    assert w.editor.name_edit.text() == "New York City" and bar.aliases() == ["NYC"]
    assert [c.text() for c in bar.findChildren(QToolButton, "aliasChip")] == ["NYC  ×"]
    bar.field.setText("Big Apple")
    qtbot.keyClick(bar.field, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: bar.aliases() == ["NYC", "Big Apple"], timeout=10_000)
    assert bar.field.text() == "" and _aliases_in_file(path) == ["NYC", "Big Apple"]
    assert w.undo.undo_action.text().replace("&", "") == "Undo alias “Big Apple” of “New York City”"
    # Taken off with its ×: no question, and Edit → Undo brings it back.
    chip = next(c for c in bar.findChildren(QToolButton, "aliasChip") if c.text().startswith("NYC"))
    chip.click()
    qtbot.waitUntil(lambda: bar.aliases() == ["Big Apple"], timeout=10_000)
    with qtbot.waitSignal(w.step_done, timeout=30_000):
        w.undo.undo_action.trigger()
    qtbot.waitUntil(lambda: bar.aliases() == ["NYC", "Big Apple"], timeout=10_000)
    assert _aliases_in_file(path) == ["NYC", "Big Apple"]  # back, under its old id
    # Another entity's name is refused with one sentence, and nothing changes.
    bar.field.setText("Nyctophobia")
    qtbot.keyClick(bar.field, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "Nyctophobia" in w.status.last_message, timeout=10_000)
    assert "Traceback" not in w.status.last_message and bar.aliases() == ["NYC", "Big Apple"]
