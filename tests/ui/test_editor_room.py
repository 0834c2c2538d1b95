"""The editor at 1366×768: every relation shown whole, an observation edited in place pushes the next one down,
and an assistant's observation arriving during the person's edits is said in the editor."""

from __future__ import annotations

import anyio
from PySide6.QtWidgets import QPlainTextEdit

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from tests.activity.writers import assistant, ok
from tests.ui.conftest import make_window, open_entity


def _hub(path):
    g = Graph(Database(path))
    g.create_entity("Hub", "Project", ["first observation", "second observation", "third observation"])
    for i in range(8):
        name = f"Source {i}" if i < 7 else "A source with a long name that must wrap rather than be cut at the edge"
        g.create_entity(name, "Thing")
        g.add_relation(name, "Hub", "belongs_to")
    g.db.close()


def _window(qtbot, path):
    w = make_window(qtbot, path, wait_model=False)
    w.resize(1366, 768)
    qtbot.waitUntil(lambda: w.width() == 1366, timeout=10_000)
    return w


def test_every_relation_is_shown_whole_at_1366_by_768(qtbot, tmp_path):
    path = tmp_path / "g.db"
    _hub(path)
    w = _window(qtbot, path)
    ed = open_entity(qtbot, w, "Hub")
    lst = ed.in_list
    qtbot.waitUntil(lambda: lst.count() == 8, timeout=10_000)
    last = lambda: lst.visualItemRect(lst.item(lst.count() - 1))  # noqa: E731
    try:  # once the layout has settled (the share follows the splitter's size)
        qtbot.waitUntil(lambda: last().bottom() < lst.viewport().height(), timeout=10_000)
    except Exception:
        raise AssertionError(f"{last()} {lst.viewport().height()} {ed.splitter.sizes()}")
    assert last().height() > lst.visualItemRect(lst.item(0)).height()  # the long name wraps


def test_an_observation_edited_in_place_leaves_the_next_one_in_view(qtbot, tmp_path):
    path = tmp_path / "g.db"
    _hub(path)
    w = _window(qtbot, path)
    ed = open_entity(qtbot, w, "Hub")
    lst = ed.obs_list
    lst.setCurrentRow(0)
    lst.editItem(lst.item(0))
    field = lst.findChild(QPlainTextEdit, "observationEditor")
    assert field is not None and field.isVisible()
    qtbot.waitUntil(lambda: lst.visualItemRect(lst.item(1)).top() >= field.geometry().bottom(), timeout=10_000)


def test_an_assistants_observation_during_edits_is_said_in_the_editor(qtbot, tmp_path):
    path = tmp_path / "g.db"
    _hub(path)
    w = _window(qtbot, path)
    ed = open_entity(qtbot, w, "Hub")
    ed.obs_new.setText("my own note")
    ed.on_add_observation()
    assert ed.is_dirty() and not ed.outside_note.isVisible()

    async def run():
        async with assistant(path, "beta") as b:
            await ok(b, "add_observations", observations=[{"entityName": "Hub", "contents": ["from beta"]}])
    anyio.run(run)

    qtbot.waitUntil(lambda: ed.outside_note.isVisible(), timeout=30_000)
    assert ed.outside_note.text().startswith("1 new observation from beta since you started editing")
    assert ed.is_dirty() and "my own note" in [ed.obs_list.item(i).text() for i in range(ed.obs_list.count())]


def _highlighted(w):
    """The entity id of the row the left list highlights (the home list with an empty query), or None."""
    from limbic.ui.search.home import ID_ROLE

    items = w.home.selectedItems()
    return items[0].data(ID_ROLE) if items else None


def test_after_following_a_relation_the_list_no_longer_highlights_the_previous_entity(qtbot, tmp_path):
    path = tmp_path / "g.db"
    _hub(path)
    w = _window(qtbot, path)
    qtbot.waitUntil(lambda: w.home.count() > 0 and _highlighted(w) is not None, timeout=10_000)
    first = _highlighted(w)
    ed = open_entity(qtbot, w, first)
    assert _highlighted(w) == first
    target = ed.out_list.item(0) if ed.out_list.count() else ed.in_list.item(0)
    with qtbot.waitSignal(w.entity_shown, timeout=30_000) as shown:
        ed.on_follow(target)
    assert shown.args[0] != first
    assert _highlighted(w) in (None, shown.args[0])
    # The list read again (as after any change) still highlights the open entity or nothing.
    refills = []
    fill = w.home.set_home
    w.home.set_home = lambda home: (fill(home), refills.append(home))
    w.search_bar.edit.clear()
    w.search.rerun()
    qtbot.waitUntil(lambda: bool(refills), timeout=30_000)
    assert _highlighted(w) in (None, shown.args[0])
