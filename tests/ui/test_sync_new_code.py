"""A new recovery code in the window: File → Sync… seals the folder anew and shows the code once; a window still on
the old code says the code is needed (not "unreachable"), and typing the new one in File → Sync… syncs again."""

from __future__ import annotations

from PySide6.QtWidgets import QDialogButtonBox, QMessageBox

from limbic import config
from limbic.service import sync as service_sync
from limbic.ui.sync import sync_dialog, sync_flow
from tests.ui.conftest import make_window


def test_a_new_code_from_the_window_and_a_window_left_on_the_old_one(qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(sync_flow, "FOLDER_DEBOUNCE_MS", 50)
    monkeypatch.setattr(sync_flow, "COMMIT_DEBOUNCE_MS", 50)
    folder = tmp_path / "Sync"
    folder.mkdir()
    window = make_window(qtbot, tmp_path / "mine.db", wait_model=False)
    shown: list[str] = []
    window.sync.show_code = shown.append
    window.sync.apply_choice(str(folder), "desk")
    qtbot.waitUntil(lambda: window.sync.state == "synced" and bool(shown), timeout=30_000)
    first = shown[-1]

    # File → Sync… on a folder that syncs offers a new code; asked, it is made and shown once.
    dialog = sync_dialog.SyncDialog(str(folder), "desk", window)
    buttons = dialog.findChild(QDialogButtonBox)
    anew = next(b for b in buttons.buttons() if b.objectName() == "syncNewCode")
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    anew.click()
    assert dialog.new_code_asked and dialog.result() == dialog.DialogCode.Accepted
    dialog.deleteLater()
    keys = config.data_dir() / "sync-keys.json"
    stale = keys.read_bytes()
    window.sync.seal_anew()
    qtbot.waitUntil(lambda: len(shown) == 2 and not window.sync.running, timeout=30_000)
    assert shown[-1] != first and service_sync.show_code(tmp_path / "mine.db") == shown[-1]

    # This machine forgets the new code (as another device that never had it): the window says what is needed.
    keys.write_bytes(stale)
    window.sync.sync_now()
    qtbot.waitUntil(lambda: window.sync.state == "code", timeout=30_000)
    assert window.sync.button.text() == "Sync needs the recovery code"
    assert "sealed anew" in window.sync.button.toolTip()
    window.sync.apply_choice(str(folder), "desk", code=shown[-1])
    qtbot.waitUntil(lambda: window.sync.state == "synced", timeout=30_000)


def test_a_device_waiting_for_the_code_is_not_offered_a_new_one(qtbot, tmp_path, monkeypatch):
    """A wrong code typed, or none: File → Sync… asks for the code and offers no new code this device cannot make."""
    monkeypatch.setattr(sync_flow, "FOLDER_DEBOUNCE_MS", 50)
    folder = tmp_path / "Sync"
    folder.mkdir()
    service_sync.exchange(tmp_path / "laptop.db", folder)  # the folder sealed by another device
    window = make_window(qtbot, tmp_path / "tablet.db", wait_model=False)
    window.sync.apply_choice(str(folder), "tablet", code="ABCD-EFGH-JKLM-NPQR-STUV-WXYZ-2345-6789")
    qtbot.waitUntil(lambda: window.sync.state == "code", timeout=30_000)
    dialog = window.sync.dialog()
    names = [b.objectName() for b in dialog.findChild(QDialogButtonBox).buttons()]
    assert "syncNewCode" not in names and "Stop syncing" in [b.text() for b in dialog.findChild(QDialogButtonBox).buttons()]
    dialog.deleteLater()

    window.sync.apply_choice(str(folder), "tablet", code=service_sync.show_code(tmp_path / "laptop.db"))
    qtbot.waitUntil(lambda: window.sync.state == "synced", timeout=30_000)
    dialog = window.sync.dialog()
    assert "syncNewCode" in [b.objectName() for b in dialog.findChild(QDialogButtonBox).buttons()]
    dialog.deleteLater()
