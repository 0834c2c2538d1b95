"""Sync in the window: the background exchange when the folder changes, the status item, the Conflicts view's keys."""

from __future__ import annotations

from PySide6.QtCore import Qt

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.service import sync as service_sync
from limbic.ui.sync import sync_flow
from tests.ui.conftest import make_window, open_entity


def _graph(path, *entities) -> None:
    g = Graph(Database(path))
    for name, obs in entities:
        g.upsert_entity(name, "Person", obs)
    g.db.close()


def _fast(monkeypatch) -> None:
    monkeypatch.setattr(sync_flow, "FOLDER_DEBOUNCE_MS", 50)
    monkeypatch.setattr(sync_flow, "COMMIT_DEBOUNCE_MS", 50)


def _conflicting_pair(tmp_path):
    """Two graph files sharing a folder, the first holding one conflict on Ada's observation."""
    folder = tmp_path / "Sync"
    folder.mkdir()
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    _graph(a, ("Ada", ["likes tea"]))
    service_sync.exchange(a, folder)
    service_sync.exchange(b, folder)
    for path, text in ((b, "likes black tea"), (a, "likes green tea")):
        g = Graph(Database(path))
        g.edit_observation(g.db.scalar("SELECT id FROM observations"), text)
        g.db.close()
    for path in (a, b, a):
        service_sync.exchange(path)
    assert len(service_sync.list_conflicts(a)) == 1
    return folder, a, b


def test_a_segment_arriving_in_the_folder_is_applied_in_the_background(qtbot, tmp_path, monkeypatch):
    _fast(monkeypatch)
    folder = tmp_path / "Sync"
    folder.mkdir()
    other = tmp_path / "other.db"
    _graph(other, ("Bob", ["plays chess"]))
    window = make_window(qtbot, tmp_path / "mine.db", wait_model=False)
    window.sync.apply_choice(str(folder), "desk")
    qtbot.waitUntil(lambda: window.sync.state == "synced", timeout=30_000)
    assert window.sync.button.isVisible() and window.sync.button.text() == "Synced"
    assert window.catalog.counts["entities"] == 0

    # Another device publishes: nothing is asked of the window, the folder's change brings Bob in.
    service_sync.exchange(other, folder)
    qtbot.waitUntil(lambda: window.catalog.counts["entities"] == 1, timeout=30_000)
    # The exchange that brought Bob may still be writing this device's note in the folder, which the
    # watcher sees as one more change: the state settles on synced.
    qtbot.waitUntil(lambda: window.sync.state == "synced", timeout=30_000)

    # And an edit in the window goes out by itself after a quiet spell.
    window.engine.run("test-create", lambda g: g.upsert_entity("Cleo", "Person", ["writes"]))
    qtbot.waitUntil(lambda: window.sync.last_result is not None and window.sync.last_result.sent >= 1, timeout=30_000)
    service_sync.exchange(other)
    g = Graph(Database(other))
    try:
        assert g.db.scalar("SELECT count(*) FROM entities WHERE name = 'Cleo'") == 1
    finally:
        g.db.close()


def test_the_status_item_counts_conflicts_and_says_when_the_folder_is_gone(qtbot, tmp_path, monkeypatch):
    _fast(monkeypatch)
    folder, a, _b = _conflicting_pair(tmp_path)
    window = make_window(qtbot, a, wait_model=False)
    qtbot.waitUntil(lambda: window.sync.state == "conflicts", timeout=30_000)
    assert window.sync.button.text() == "1 sync conflict"
    window.sync.button.click()
    assert window.sync.view is not None and window.sync.view.isVisible()

    folder.rename(tmp_path / "gone")
    window.sync.sync_now()
    qtbot.waitUntil(lambda: window.sync.state == "unreachable", timeout=30_000)
    assert window.sync.button.text() == "Sync folder unreachable"
    assert "cannot be reached" in window.sync.button.toolTip() and "Traceback" not in window.sync.button.toolTip()


def test_t_keeps_theirs_and_enter_opens_the_entity(qtbot, tmp_path, monkeypatch):
    _fast(monkeypatch)
    _folder, a, _b = _conflicting_pair(tmp_path)
    window = make_window(qtbot, a, wait_model=False)
    qtbot.waitUntil(lambda: window.sync.state == "conflicts", timeout=30_000)
    view = window.sync.show_conflicts()
    qtbot.waitUntil(lambda: len(view.conflicts) == 1)
    conflict = view.conflicts[0]
    assert view.mine.toPlainText() == str(conflict.mine) and view.theirs.toPlainText() == str(conflict.theirs)

    with qtbot.waitSignal(window.entity_shown, timeout=30_000):
        qtbot.keyClick(view.list, Qt.Key.Key_Return)
    assert window.editor.name_edit.text() == "Ada"
    assert not view.isVisible()  # out of the way of the entity it opened (a dialog stands above its window)

    assert window.sync.show_conflicts() is view and view.isVisible()  # Ctrl+Shift+Y, the status item
    view.activateWindow()
    view.list.setFocus()
    qtbot.keyClick(view.list, Qt.Key.Key_T)
    qtbot.waitUntil(lambda: not view.conflicts, timeout=30_000)
    assert window.sync.state == "synced" and window.sync.button.text() == "Synced"
    assert service_sync.list_conflicts(a, resolved=True)[0].resolved == "theirs"


def test_opening_another_file_keeps_this_devices_sync_settings(qtbot, tmp_path, monkeypatch):
    _fast(monkeypatch)
    folder = tmp_path / "Sync"
    folder.mkdir()
    window = make_window(qtbot, tmp_path / "mine.db", wait_model=False)
    window.sync.apply_choice(str(folder), "desk")
    qtbot.waitUntil(lambda: window.sync.state == "synced", timeout=30_000)
    device = service_sync.this_device(tmp_path / "mine.db").id
    window.files.remember_db(str(tmp_path / "elsewhere.db"))  # the File menu saves its settings
    assert service_sync.remembered_folder(tmp_path / "mine.db") == folder.resolve()
    assert service_sync.this_device(tmp_path / "mine.db").id == device


def test_a_batch_deleting_much_of_the_graph_asks_the_person_first(qtbot, tmp_path, monkeypatch):
    _fast(monkeypatch)
    folder = tmp_path / "Sync"
    folder.mkdir()
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    _graph(a, *[(f"Person {i}", ["met once"]) for i in range(12)])
    service_sync.exchange(a, folder)
    service_sync.exchange(b, folder)
    g = Graph(Database(b))
    for i in range(12):
        g.delete_entity(f"Person {i}")
    g.db.close()
    service_sync.exchange(b, folder)

    window = make_window(qtbot, a, wait_model=False)
    asked: list[list[str]] = []
    answers = iter([False, True])
    window.sync.ask_confirm = lambda sentences: asked.append(sentences) or next(answers)
    qtbot.waitUntil(lambda: len(asked) == 1, timeout=30_000)
    assert window.catalog.counts["entities"] == 12  # "No": nothing deleted, the batch waits
    window.sync.sync_now()
    qtbot.waitUntil(lambda: window.catalog.counts["entities"] == 0, timeout=30_000)
    assert len(asked) == 2 and "12" in " ".join(asked[0])


def test_an_entity_being_edited_names_the_device_a_synced_observation_came_from(qtbot, tmp_path, monkeypatch):
    _fast(monkeypatch)
    folder = tmp_path / "Sync"
    folder.mkdir()
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    _graph(a, ("Ada", ["likes tea"]))
    service_sync.exchange(a, folder)
    service_sync.exchange(b, folder)
    window = make_window(qtbot, a, wait_model=False)
    qtbot.waitUntil(lambda: window.sync.state == "synced", timeout=30_000)
    editor = open_entity(qtbot, window, "Ada")
    editor.obs_new.setText("likes poetry")
    editor.obs_add.click()  # unsaved
    said: list[str] = []
    say = window.status.say
    monkeypatch.setattr(window.status, "say", lambda text, *a, **k: (said.append(text), say(text, *a, **k))[1])
    g = Graph(Database(b))
    g.add_observations("Ada", ["translated Menabrea"])
    g.db.close()
    service_sync.exchange(b, folder)
    qtbot.waitUntil(lambda: "since you started editing" in editor.outside_note.text(), timeout=30_000)
    assert "sync:" not in editor.outside_note.text() and "(another device)" in editor.outside_note.text()
    assert "likes poetry" in [editor.obs_list.item(i).text() for i in range(editor.obs_list.count())]
    # The status line names the device too, not "another program".
    told = [t for t in said if t.startswith("This entity was changed")]
    assert told and all(t.startswith("This entity was changed on ") and "(another device)" in t for t in told), said


def test_own_changes_applied_again_are_named_as_this_devices(qapp):
    """A rebase applies this device's own changes again under ``sync:=<its name>``: the Activity panel names this
    device, never "another device"."""
    from limbic.ui.common import words

    assert words.who_words("sync:=laptop") == "laptop (this device, in clock order again)"
    assert words.who_words("sync:desktop") == "desktop (another device)"
    assert words.writer_words("", "sync:=laptop") == "laptop (this device, in clock order again)"
