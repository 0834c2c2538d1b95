"""The window follows sync as it follows an assistant: the open entity shows what another device wrote, the
status item says within seconds that the folder went away, and the Conflicts view opens from the menu, the
palette and a shortcut."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.engine.sync.seal import SealError
from limbic.service import sync as service_sync
from limbic.ui.shell.palette import rank_commands, window_commands
from limbic.ui.sync import sync_flow
from tests.ui.conftest import make_window, open_entity
from tests.ui.test_sync_ui import _conflicting_pair, _fast, _graph


def _write(path, fn) -> None:
    g = Graph(Database(path))
    try:
        fn(g)
    finally:
        g.db.close()


def test_the_open_entity_shows_what_another_device_wrote(qtbot, tmp_path, monkeypatch):
    _fast(monkeypatch)
    folder = tmp_path / "Sync"
    folder.mkdir()
    mine, other = tmp_path / "mine.db", tmp_path / "other.db"
    _graph(mine, ("Ada", ["likes tea"]))
    service_sync.exchange(mine, folder)
    service_sync.exchange(other, folder)
    window = make_window(qtbot, mine, wait_model=False)
    qtbot.waitUntil(lambda: window.sync.state == "synced", timeout=30_000)
    editor = open_entity(qtbot, window, "Ada")
    assert [t for _, t in editor.draft().observations] == ["likes tea"]

    _write(other, lambda g: g.add_observations("Ada", ["moved to Turin"]))
    service_sync.exchange(other, folder)
    # No click, no edit: the folder's change brings the text in, and the open editor shows it.
    qtbot.waitUntil(lambda: "moved to Turin" in [t for _, t in editor.draft().observations], timeout=30_000)
    assert not editor.is_dirty()


def test_the_status_item_says_the_folder_is_gone_within_seconds_and_comes_back_with_it(qtbot, tmp_path, monkeypatch):
    _fast(monkeypatch)
    monkeypatch.setattr(sync_flow, "REACH_MS", 200)
    folder = tmp_path / "Sync"
    folder.mkdir()
    window = make_window(qtbot, tmp_path / "mine.db", wait_model=False)
    window.sync.apply_choice(str(folder), "desk")
    qtbot.waitUntil(lambda: window.sync.state == "synced", timeout=30_000)
    exchanges = window.sync.exchanges

    folder.rename(tmp_path / "moved away")  # no edit, no exchange asked for
    qtbot.waitUntil(lambda: window.sync.state == "unreachable", timeout=5_000)
    assert window.sync.button.text() == "Sync folder unreachable"
    assert "cannot be reached" in window.sync.button.toolTip()

    (tmp_path / "moved away").rename(folder)
    qtbot.waitUntil(lambda: window.sync.state == "synced" and window.sync.exchanges > exchanges, timeout=10_000)


def test_the_conflicts_view_opens_from_the_menu_the_shortcut_and_the_palette(qtbot, tmp_path, monkeypatch):
    _fast(monkeypatch)
    _folder, a, _b = _conflicting_pair(tmp_path)
    window = make_window(qtbot, a, wait_model=False)
    qtbot.waitUntil(lambda: window.sync.state == "conflicts", timeout=30_000)
    action = window.files.conflicts_action
    assert action.shortcut().toString() == "Ctrl+Shift+Y"
    action.trigger()
    view = window.sync.view
    assert view is not None and view.isVisible()
    qtbot.waitUntil(lambda: len(view.conflicts) == 1, timeout=10_000)
    view.close()

    window.activateWindow()
    window.setFocus()
    qtbot.keyClick(window, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(view.isVisible, timeout=5_000)
    view.close()

    best = rank_commands(window_commands(window), "conflicts")[0]
    assert best.label == "File: Sync conflicts…" and best.action is action


def test_the_first_device_shows_its_recovery_code_and_another_joins_with_it(qtbot, tmp_path, monkeypatch):
    _fast(monkeypatch)
    folder = tmp_path / "Sync"
    folder.mkdir()
    window = make_window(qtbot, tmp_path / "mine.db", wait_model=False)
    shown: list[str] = []
    window.sync.show_code = shown.append
    window.sync.apply_choice(str(folder), "desk")
    qtbot.waitUntil(lambda: window.sync.state == "synced", timeout=30_000)
    assert len(shown) == 1 and service_sync.show_code(tmp_path / "mine.db") == shown[0]

    # Another machine (its own keys) asked for the code: the dialog's field joins it, a wrong one is refused.
    monkeypatch.setenv("LIMBIC_HOME", str(tmp_path / "other-machine"))
    other = tmp_path / "other.db"
    _graph(other, ("Ada", ["likes tea"]))
    with pytest.raises(SealError, match="sealed"):
        service_sync.exchange(other, folder)
    service_sync.exchange(other, folder, code=shown[0])
    assert service_sync.show_code(other) == shown[0]


def test_every_field_of_the_sync_dialog_has_its_label_as_buddy(qtbot):
    """Alt and a label's underlined letter reach its field, the folder's (a row holding a button) included;
    a label without a buddy showed its "&" as text and its key did nothing."""
    from PySide6.QtWidgets import QLabel

    from limbic.ui.sync.sync_dialog import SyncDialog

    dialog = SyncDialog("", "desk")
    qtbot.addWidget(dialog)
    buddies = {label.text(): label.buddy() for label in dialog.findChildren(QLabel) if "&" in label.text()}
    assert buddies == {"Sync &folder:": dialog.folder, "This &device:": dialog.name, "&Recovery code:": dialog.code}


def test_a_file_set_aside_in_the_folder_is_said_in_the_window(qtbot, tmp_path, monkeypatch):
    import hashlib

    _fast(monkeypatch)
    folder = tmp_path / "Sync"
    folder.mkdir()
    window = make_window(qtbot, tmp_path / "mine.db", wait_model=False)
    window.sync.show_code = lambda code: None
    window.sync.apply_choice(str(folder), "desk")
    qtbot.waitUntil(lambda: window.sync.state == "synced", timeout=30_000)
    mallory = next((folder / "Limbic").iterdir()) / "feedfacefeedface"
    mallory.mkdir()
    data = b'{"format": 2, "device": "feedfacefeedface", "seq": 1}\n'  # in the clear, in a sealed folder
    (mallory / f"000001-{hashlib.sha256(data).hexdigest()[:16]}.seg").write_bytes(data)
    qtbot.waitUntil(lambda: "set aside" in window.sync.button.toolTip(), timeout=30_000)
    assert "not sealed" in window.sync.button.toolTip() and window.sync.state == "synced"
