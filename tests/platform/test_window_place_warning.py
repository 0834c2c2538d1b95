"""The window says so when the open graph lives in a cloud-synced folder."""

from __future__ import annotations

from tests.ui.conftest import make_window


def test_the_status_bar_warns_of_a_graph_in_a_dropbox_folder(qtbot, tmp_path):
    path = tmp_path / "Dropbox" / "limbic.db"
    path.parent.mkdir()
    window = make_window(qtbot, path, wait_model=False)
    qtbot.waitUntil(lambda: "Dropbox" in (window.status.last_message or ""), timeout=10_000)
    assert "Keep the live graph outside it" in window.status.last_message
