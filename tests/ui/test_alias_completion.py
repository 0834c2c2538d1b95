"""A relation's target completes an alias to the entity it names, and the relation goes to that entity."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.service import organise
from limbic.ui.editor.name_completion import NameCompletions, TargetCompleter
from tests.ui.conftest import make_window, open_entity


def _seed(path) -> None:
    g = Graph(Database(path))
    g.create_entity("New York City", "Place", ["a big city"])
    g.create_entity("NYC", "Place", ["never sleeps"])
    g.create_entity("Nyctophobia", "Condition", ["fear of the dark"])
    g.create_entity("Alice", "Person", ["moved house last spring"])
    organise.merge_entities(g, "NYC", "New York City")  # "NYC" lives on as an alias of New York City
    g.db.close()


def _relations(path) -> list[tuple[str, str, str]]:
    db = Database(path, readonly=True)
    try:
        return [tuple(r) for r in db.execute(
            "SELECT s.name, r.relation_type, t.name FROM relations r JOIN entities s ON s.id = r.from_entity "
            "JOIN entities t ON t.id = r.to_entity WHERE r.active ORDER BY r.id")]
    finally:
        db.close()


def _entity_names(path) -> list[str]:
    db = Database(path, readonly=True)
    try:
        return [r[0] for r in db.execute("SELECT name FROM entities ORDER BY name")]
    finally:
        db.close()


def _outgoing(ed) -> list[str]:
    return [ed.out_list.item(i).text() for i in range(ed.out_list.count())]


def test_an_alias_row_shows_its_entity_and_fills_in_the_entity_name(qtbot):
    field = QWidget()
    qtbot.addWidget(field)
    names = NameCompletions(field)
    names.set_all(["Alice", "New York City", "Nyctophobia"], {2: ["NYC"]}, {1: "Alice", 2: "New York City"})
    comp = TargetCompleter(names, field)
    comp.setCompletionPrefix("nyc")
    assert comp.shown_rows() == ["New York City — also NYC", "Nyctophobia"]
    row = comp.completionModel().index(0, 0)
    assert comp.pathFromIndex(comp.completionModel().mapToSource(row)) == "New York City"
    assert names.target("nyc") == "New York City" and names.target("Nyctophobia") == "Nyctophobia"
    # Renamed, its alias follows the new name; deleted, its alias is no longer offered.
    names.update_names(["New York"], ["New York City"])
    names.update_aliases({2: ["NYC", "Big Apple"]}, {2: "New York"}, [])
    comp.setCompletionPrefix("nyc")
    assert comp.shown_rows() == ["New York — also NYC", "Nyctophobia"]
    assert names.target("big apple") == "New York"
    names.update_aliases({}, {}, [2])
    comp.setCompletionPrefix("nyc")
    assert comp.shown_rows() == ["Nyctophobia"] and names.target("NYC") == "NYC"
    assert names.names == ["Alice", "New York", "Nyctophobia"]  # the merge dialog's choices: names only


def test_choosing_an_alias_in_the_target_popup_relates_to_its_entity(qtbot, tmp_path):
    path = tmp_path / "alias.db"
    _seed(path)
    w = make_window(qtbot, path, wait_model=False)
    ed = open_entity(qtbot, w, "Alice")
    asked: list[str] = []
    ed._ask_create = lambda name: asked.append(name)  # a new "NYC" must never be offered
    assert "NYC" not in ed.names_model.stringList()  # the merge dialog lists names, not aliases
    ed.rel_type.setText("lives_in")
    ed.rel_target.setFocus()
    qtbot.keyClicks(ed.rel_target, "NYC")
    comp = ed.rel_target.completer()
    qtbot.waitUntil(lambda: comp.popup().isVisible())
    assert comp.shown_rows()[0] == "New York City — also NYC"
    qtbot.keyClick(comp.popup(), Qt.Key.Key_Down)
    assert ed.rel_target.text() == "New York City"
    qtbot.keyClick(comp.popup(), Qt.Key.Key_Return)
    assert _outgoing(ed) == ["lives_in → New York City"] and asked == []
    with qtbot.waitSignal(w.entity_shown, timeout=30_000):
        w.save_action.trigger()
    assert _relations(path) == [("Alice", "lives_in", "New York City")]
    assert "NYC" not in _entity_names(path)


def test_an_alias_typed_whole_relates_to_its_entity_and_a_new_alias_is_offered_at_once(qtbot, tmp_path):
    path = tmp_path / "typed.db"
    _seed(path)
    w = make_window(qtbot, path, wait_model=False)
    ed = open_entity(qtbot, w, "New York City")
    # An alias given in the editor reaches the completion through the catalog's change, without reopening.
    ed.aliases.field.setText("Big Apple")
    qtbot.keyClick(ed.aliases.field, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: ed.completions.target("big apple") == "New York City", timeout=10_000)
    ed = open_entity(qtbot, w, "Alice")
    asked: list[str] = []
    ed._ask_create = lambda name: asked.append(name)
    ed.rel_type.setText("visited")
    ed.rel_target.setText("big apple")  # typed whole, in another case, without the popup
    ed.rel_add.click()
    assert _outgoing(ed) == ["visited → New York City"] and asked == []
    with qtbot.waitSignal(w.entity_shown, timeout=30_000):
        w.save_action.trigger()
    assert _relations(path) == [("Alice", "visited", "New York City")]
    assert _entity_names(path) == ["Alice", "New York City", "Nyctophobia"]
