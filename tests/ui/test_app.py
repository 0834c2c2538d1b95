"""The window as a whole: shutdown, remembered layout, outside changes, errors, settings, smoke mode."""

from __future__ import annotations

import os
import subprocess
import sys

from limbic.engine.store.db import Database
from limbic.engine.graph.graph import Graph
from limbic.ui.dialogs.dialogs import ExceptionDialog, SettingsDialog, ShortcutsDialog, install_excepthook
from tests.ui.conftest import _OPEN_WINDOWS, make_window, search


def test_closing_the_window_stops_the_engine_thread(qtbot, window):
    thread = window.engine.thread
    assert thread.isRunning()
    window.close()
    assert not thread.isRunning()


def test_geometry_and_splitters_are_remembered(qtbot, tmp_path):
    first = make_window(qtbot, tmp_path / "a.db", wait_model=False)
    # Within the offscreen screen (which clamps restored geometry) and above the window's minimum height.
    size = (720, max(560, first.minimumSizeHint().height()))
    first.resize(*size)
    first.splitter.setSizes([450, 250])
    sizes = first.splitter.sizes()
    first.close()
    second = make_window(qtbot, tmp_path / "a.db", wait_model=False)
    assert (second.width(), second.height()) == size
    assert second.splitter.sizes() == sizes


def test_changes_from_another_program_are_noticed(qtbot, sample_window, tmp_path):
    w = sample_window
    ed_results = search(qtbot, w, "Pinedo beach")
    assert ed_results[0].name == "Tide Clock"
    # Another program (here: a second connection without a model) adds an entity.
    other = Graph(Database(tmp_path / "sample.db"))
    try:
        other.upsert_entity("Sailing course", "Course", ["Dinghy sailing lessons at Pinedo beach in July"])
    finally:
        other.db.close()
    qtbot.waitUntil(lambda: w.catalog.counts["entities"] == 51, timeout=10_000)
    qtbot.waitUntil(lambda: "Sailing course" in [w.model.result(i).name for i in range(w.model.rowCount())],
                    timeout=10_000)


def test_without_a_model_the_app_still_searches_full_text(qtbot, tmp_path, monkeypatch, sample_db_template):
    import shutil

    monkeypatch.setenv("LIMBIC_MODEL_DIR", str(tmp_path / "no-model-here"))
    shutil.copyfile(sample_db_template, tmp_path / "s.db")
    w = make_window(qtbot, tmp_path / "s.db", wait_model=False)
    qtbot.waitUntil(lambda: w.status.model.text() == "Semantic search off", timeout=30_000)
    assert "does not exist" in w.status.model.toolTip()
    results = search(qtbot, w, "restic")
    assert results[0].name == "restic"
    assert w.search_bar.mode_text() == "Hybrid · words only"  # chosen, and what the missing model left


def test_a_damaged_file_is_reported_in_a_sentence_and_left_alone(qtbot, tmp_path):
    bad = tmp_path / "damaged.db"
    payload = b"this is not a database at all" * 100
    bad.write_bytes(payload)
    from limbic.ui.shell.main_window import MainWindow

    w = MainWindow(bad)
    qtbot.addWidget(w)
    _OPEN_WINDOWS.append(w)
    w.show()
    w.start()
    qtbot.waitUntil(lambda: "damaged" in w.open_error, timeout=30_000)
    qtbot.waitUntil(lambda: bool(w.model_name), timeout=30_000)
    assert "damaged" in w.status.last_message  # still in view after the model loaded
    assert "Traceback" not in w.open_error
    assert bad.read_bytes() == payload


def test_unexpected_errors_go_to_one_dialog_with_copy_details(qtbot, monkeypatch):
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    install_excepthook()
    for n in (1, 2):
        try:
            raise RuntimeError(f"boom {n}")
        except RuntimeError:
            sys.excepthook(*sys.exc_info())
    dlg = ExceptionDialog._instance
    qtbot.addWidget(dlg)
    assert dlg.isVisible() and not dlg.isModal()
    text = dlg.details.toPlainText()
    assert "boom 1" in text and "boom 2" in text and "Traceback" in text
    dlg.on_copy()
    from PySide6.QtWidgets import QApplication

    assert "boom 2" in QApplication.clipboard().text()


def test_settings_dialog_resets_scoring_constants(qtbot):
    from limbic import config

    settings = config.Settings(scoring={"gamma": 0.5, "rrf_k": 30.0})
    dlg = SettingsDialog(settings, "/tmp/x.db")
    qtbot.addWidget(dlg)
    assert dlg.inputs["gamma"].value() == 0.5
    assert dlg.scoring_overrides() == {"gamma": 0.5, "rrf_k": 30.0}
    dlg.inputs["beta_sal"].setValue(0.9)
    assert dlg.result_settings().scoring["beta_sal"] == 0.9
    dlg.on_reset()
    assert dlg.scoring_overrides() == {}
    dlg.model_edit.setText("~/models/e5")
    assert dlg.result_settings().model_dir == os.path.expanduser("~/models/e5")


def test_help_lists_the_keyboard_shortcuts(qtbot):
    dlg = ShortcutsDialog()
    qtbot.addWidget(dlg)
    from PySide6.QtWidgets import QTableWidget

    table = dlg.findChild(QTableWidget)
    listed = {table.item(r, 0).text() for r in range(table.rowCount())}
    assert {"Ctrl+K or /", "Alt+Left / Alt+Right", "Ctrl+Z"} <= listed


def test_smoke_mode_checks_the_sample_search(tmp_path):
    env = dict(os.environ, LIMBIC_HOME=str(tmp_path))
    proc = subprocess.run([sys.executable, "-m", "limbic", "--smoke"], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.startswith("limbic --smoke: ok") and "HAR-2291" in proc.stdout


def test_a_read_only_file_says_so_and_still_searches(qtbot, tmp_path, sample_db_template, monkeypatch):
    import os
    import shutil

    from tests.ui.conftest import make_window, search

    target = tmp_path / "locked.db"
    shutil.copyfile(sample_db_template, target)
    real_access = os.access
    # Root may write anything: pretend the file is not writable, as it is for an ordinary user.
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: False if (mode & os.W_OK and str(p) == str(target)) else real_access(p, mode, **kw))
    w = make_window(qtbot, target)
    assert "read-only" in w.windowTitle()
    assert w.status.readonly.isVisible() and "opened read-only" in w.status.readonly.toolTip()
    assert search(qtbot, w, "HAR-2291")[0].name == "HAR-2291"


def test_open_recent_lists_files_that_opened_and_switches(qtbot, tmp_path):
    from tests.ui.conftest import make_window

    first, second = tmp_path / "first.db", tmp_path / "second.db"
    w = make_window(qtbot, first, wait_model=False)
    w.files.switch_database(str(second))
    qtbot.waitUntil(lambda: w.catalog is not None and w.catalog.path == str(second), timeout=30_000)
    w.files.fill_recent_menu()
    actions = [a for a in w.files.recent_menu.actions() if a.data()]
    assert [a.data() for a in actions] == [str(first)]  # the open file is not offered
    w.files.settings.recent_dbs.append(str(tmp_path / "missing.db"))  # a file since deleted
    w.files.fill_recent_menu()
    actions = [a for a in w.files.recent_menu.actions() if a.data()]
    assert [a.data() for a in actions] == [str(first)]
    actions[0].trigger()
    qtbot.waitUntil(lambda: w.catalog is not None and w.catalog.path == str(first), timeout=30_000)
    assert w.db_path == first


def test_settings_speak_in_words_fit_the_path_and_set_the_theme(qtbot, tmp_path):
    from PySide6.QtWidgets import QApplication, QLabel

    from limbic import config
    from limbic.ui.common import theme

    long_path = "/home/someone/.local/share/Limbic/graphs/a-rather-long-folder-name-for-work-notes/graph-2026.db"
    dlg = SettingsDialog(config.Settings(), long_path)
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitExposed(dlg)
    labels = [lab.text() for lab in dlg.findChildren(QLabel)]
    assert "Weight of use:" in labels and "Forgetting per hour:" in labels
    assert not any(text.rstrip(":").isupper() and "_" in text for text in labels)  # no BETA_SAL, LAMBDA_HOURLY
    assert dlg.db_edit.width() >= dlg.db_edit.fontMetrics().horizontalAdvance(long_path)
    dlg.theme.setCurrentIndex(dlg.theme.findData("dark"))
    chosen = dlg.result_settings()
    assert chosen.theme == "dark"
    config.save_settings(chosen)
    assert config.load_settings().theme == "dark"
    app = QApplication.instance()
    try:
        assert theme.set_scheme(app, "dark") == "dark"
        assert theme.set_scheme(app, "light") == "light"
    finally:
        theme.set_scheme(app, "system")
