"""The Conflicts view offers, for each conflict, only the keys that mean something there, and says what they do."""

from __future__ import annotations

from PySide6.QtCore import Qt

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.service import sync as service_sync
from limbic.ui.sync import sync_flow
from tests.ui.conftest import make_window


def _four_conflicts(tmp_path):
    """Two graphs sharing a folder; the first ends with a text, a deletion, a rename and a type in conflict."""
    folder = tmp_path / "Sync"
    folder.mkdir()
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    g = Graph(Database(a))
    g.upsert_entity("Ada", "Person", ["deadline in March"])
    g.upsert_entity("Charles", "Person", ["designed an engine"])
    g.upsert_entity("Atlas project", "Project", [])
    g.db.close()
    service_sync.exchange(a, folder)
    service_sync.exchange(b, folder)
    g = Graph(Database(b))  # b changes first, so a's own changes are the later ones and a keeps theirs
    g.edit_observation(g.db.scalar("SELECT id FROM observations WHERE content = 'deadline in March'"), "deadline in May")
    g.add_observations("Charles", ["his notes are in a museum"])
    g.upsert_entity("Atlas", "Place", ["mountains"])
    g.upsert_entity("Ada", "Writer", [])
    g.db.close()
    g = Graph(Database(a))
    g.edit_observation(g.db.scalar("SELECT id FROM observations WHERE content = 'deadline in March'"), "deadline in April")
    g.delete_entity("Charles")
    g.rename_entity("Atlas project", "Atlas")
    g.upsert_entity("Ada", "Mathematician", [])
    g.db.close()
    for path in (a, b, a):
        service_sync.exchange(path)
    return a


def _select(view, rule: str, field: str):
    row = next(i for i, c in enumerate(view.conflicts) if c.rule == rule and c.field == field)
    view.list.setCurrentRow(row)
    return view.conflicts[row]


def test_each_conflict_offers_the_keys_that_mean_something_and_says_what_they_do(qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(sync_flow, "FOLDER_DEBOUNCE_MS", 50)
    a = _four_conflicts(tmp_path)
    window = make_window(qtbot, a, wait_model=False)
    qtbot.waitUntil(lambda: window.sync.state == "conflicts", timeout=30_000)
    view = window.sync.show_conflicts()
    qtbot.waitUntil(lambda: len(view.conflicts) == 4, timeout=30_000)
    enabled = lambda: {k: b.isEnabled() for k, b in view.buttons.items()}  # noqa: E731

    _select(view, "field", "content")
    assert enabled() == {"mine": True, "theirs": True, "both": True}
    assert "B: keep both texts" in view.why.text()

    deletion = _select(view, "deleted_here", "_row")
    assert enabled() == {"mine": True, "theirs": True, "both": False}
    # The keys keep their meaning: M this device's version, T the other's; the deletion is a side.
    assert view.buttons["mine"].text() == "Keep this device's  (M)" and view.buttons["theirs"].text() == "Keep b's  (T)" \
        or view.buttons["theirs"].text().startswith("Keep ") and view.buttons["theirs"].text().endswith("'s  (T)")
    assert "M: delete it again" in view.why.text() and "T: keep it" in view.why.text()
    assert view.mine.toPlainText() == "Deleted on this device."
    theirs = view.theirs.toPlainText().splitlines()
    assert "Name: Charles" in theirs and "{" not in view.theirs.toPlainText()
    assert "  · his notes are in a museum" in theirs  # the edit that kept it, where the person can judge it

    kind = _select(view, "field", "type")
    assert enabled() == {"mine": True, "theirs": True, "both": False}
    view.list.setFocus()
    qtbot.keyClick(view.list, Qt.Key.Key_B)  # both types cannot stand: B does nothing, the conflict stays
    qtbot.wait(300)
    assert kind.id in {c.id for c in service_sync.list_conflicts(a)}

    _select(view, "rename_taken", "name")
    qtbot.keyClick(view.list, Qt.Key.Key_M)  # my name is another entity's there: said in the view itself
    qtbot.waitUntil(lambda: "Another entity is named “Atlas”" in view.why.text(), timeout=30_000)
    assert len(service_sync.list_conflicts(a)) == 4

    _select(view, "deleted_here", "_row")
    qtbot.keyClick(view.list, Qt.Key.Key_M)  # delete it again
    qtbot.waitUntil(lambda: deletion.id not in {c.id for c in view.conflicts}, timeout=30_000)
    assert Graph(Database(a, readonly=True)).db.scalar("SELECT count(*) FROM entities WHERE name = 'Charles'") == 0
