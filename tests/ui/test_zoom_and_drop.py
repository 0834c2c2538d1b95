"""Text zoom remembered across runs, and imports by dropping a file or folder onto the window."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from limbic import config
from limbic.ui.common import zoom
from tests.ui.conftest import JOB_TIMEOUT_MS, make_window

CTRL = Qt.KeyboardModifier.ControlModifier
VAULT = Path(__file__).resolve().parents[1] / "fixtures" / "vault_obsidian_tasks"


def _points() -> float:
    return QApplication.instance().font().pointSizeF()


def test_zoom_keys_change_the_text_size_and_it_is_remembered(qtbot, tmp_path):
    app = QApplication.instance()
    w = make_window(qtbot, tmp_path / "zoom.db", wait_model=False)
    base = _points()
    assert zoom.current(app) == 100
    w.search_bar.focus()
    qtbot.keyClick(w.search_bar.edit, Qt.Key.Key_Equal, CTRL)
    qtbot.keyClick(w.search_bar.edit, Qt.Key.Key_Equal, CTRL)
    assert zoom.current(app) == 125 and _points() > base
    qtbot.waitUntil(lambda: w.search_bar.edit.font().pointSizeF() > base)  # the window's widgets follow
    assert config.load_settings().zoom == 125
    w.close()
    # A new run starts at the remembered size; Ctrl+- and Ctrl+0 go back.
    w2 = make_window(qtbot, tmp_path / "zoom.db", wait_model=False)
    assert zoom.current(app) == 125
    qtbot.keyClick(w2.search_bar.edit, Qt.Key.Key_Minus, CTRL)
    assert zoom.current(app) == 110
    qtbot.keyClick(w2.search_bar.edit, Qt.Key.Key_0, CTRL)
    assert zoom.current(app) == 100 and abs(_points() - base) < 0.01
    assert config.load_settings().zoom == 100
    for _ in range(20):
        w2.zoom_in_action.trigger()
    assert zoom.current(app) == zoom.STEPS[-1]  # it stops at the largest step


def test_a_settings_file_with_a_strange_zoom_gives_a_step():
    assert zoom.clamp(117) == 110 and zoom.clamp(5000) == zoom.STEPS[-1]
    assert zoom.step(100, -1) == 90 and zoom.step(zoom.STEPS[0], -1) == zoom.STEPS[0]
    assert zoom.scale_points("a { font-size: 11pt; }", 200) == "a { font-size: 22.0pt; }"


def _drop(window, *paths: Path) -> None:
    """What a file manager sends: a drag entering the window, then the drop."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    enter = QDragEnterEvent(QPoint(40, 40), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, enter)
    assert enter.isAccepted()
    event = QDropEvent(QPointF(40, 40), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, event)


def test_dropping_a_jsonl_file_imports_it_as_the_menu_does(qtbot, window):
    w = window
    assert w.acceptDrops()
    with qtbot.waitSignal(w.job_ended, timeout=JOB_TIMEOUT_MS) as ended:
        _drop(w, config.resources_dir() / "sample_graph.jsonl")
    assert ended.args == ["import", True], w.status.last_message
    assert w.status.last_message.startswith("Imported sample_graph.jsonl")
    qtbot.waitUntil(lambda: w.catalog.counts["entities"] >= 50)


def test_dropping_a_folder_of_notes_imports_it(qtbot, window):
    w = window
    with qtbot.waitSignal(w.job_ended, timeout=JOB_TIMEOUT_MS) as ended:
        _drop(w, VAULT)
    assert ended.args == ["import", True], w.status.last_message
    qtbot.waitUntil(lambda: w.catalog.counts["entities"] > 0)


def test_what_cannot_be_imported_is_said_and_nothing_changes(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path / "drop.db", wait_model=False)
    picture = tmp_path / "photo.png"
    picture.write_bytes(b"\x89PNG")
    other = tmp_path / "b.csv"
    other.write_text("name,type\nA,Thing\n", encoding="utf-8")
    _drop(w, picture)
    assert "“photo.png” is none of these" in w.status.last_message
    _drop(w, other, picture)
    assert w.status.last_message.startswith("Drop one file or folder at a time")
    with qtbot.waitSignal(w.job_ended, timeout=JOB_TIMEOUT_MS) as ended:
        _drop(w, w.db_path)  # the open graph itself: the import refuses with a sentence
    assert ended.args == ["import", False] and "cannot be imported" in w.status.last_message
    assert w.catalog.counts["entities"] == 0
