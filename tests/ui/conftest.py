"""UI test fixtures: a window on a temporary file with the real model, and a guard against leaked threads."""

from __future__ import annotations

import shutil

import pytest
import shiboken6
from PySide6.QtWidgets import QMessageBox

from limbic.ui.workers import worker as worker_module

START_TIMEOUT_MS = 60_000
JOB_TIMEOUT_MS = 120_000


# qtbot keeps only weak references: a window a test no longer holds would be destroyed without
# being closed. Windows made here stay referenced until the end of the test and are closed then.
_OPEN_WINDOWS: list = []


@pytest.fixture(autouse=True)
def no_leaked_threads():
    """Close the test's windows, then fail the test if an engine thread is still running."""
    yield
    while _OPEN_WINDOWS:
        w = _OPEN_WINDOWS.pop()
        if shiboken6.isValid(w):
            w.close()
    leaked = worker_module.running_engines()
    for engine in leaked:
        engine.stop(10_000)  # and no longer counted: one leak fails its own test, not every later one
    assert not leaked, f"{len(leaked)} engine thread(s) still running after the test"


def make_window(qtbot, db_path, wait_model: bool = True):
    """A started MainWindow whose confirmation questions answer Discard/Yes unless a test says otherwise."""
    from limbic.ui.shell.main_window import MainWindow

    window = MainWindow(db_path)
    qtbot.addWidget(window)
    _OPEN_WINDOWS.append(window)
    window.ask_unsaved = lambda: QMessageBox.StandardButton.Discard
    window.entities.confirm_delete = lambda name: True
    window.show()
    window.start()
    # Wait on the window's state: the worker's own signals fire in the worker's thread.
    qtbot.waitUntil(lambda: window.catalog is not None and (bool(window.model_name) or not wait_model),
                    timeout=START_TIMEOUT_MS)
    return window


def load_sample(qtbot, window) -> None:
    """Import the bundled sample graph through the window and wait until it is embedded."""
    with qtbot.waitSignal(window.job_ended, timeout=JOB_TIMEOUT_MS) as ended:
        window.files.load_sample()
    assert ended.args == ["import", True], window.status.last_message
    qtbot.waitUntil(lambda: window.catalog is not None and window.catalog.counts["entities"] >= 50)


def search(qtbot, window, text: str, entity_type: str = ""):
    """Search through the search bar (no debounce wait) and wait for the results to be on screen."""
    bar = window.search_bar
    bar.types.blockSignals(True)
    bar.types.setCurrentIndex(max(0, bar.types.findData(entity_type)) if entity_type else 0)
    bar.types.blockSignals(False)
    bar.edit.setText(text)
    bar.on_debounced()
    request_id = window.engine.searches.latest
    # The window may run the same query again meanwhile (an outside change, a restore): results at
    # least as new as this request answer it.
    qtbot.waitUntil(lambda: window.search.shown_request >= request_id, timeout=30_000)
    return [window.model.result(i) for i in range(window.model.rowCount())]


def open_entity(qtbot, window, ref):
    with qtbot.waitSignal(window.entity_shown, timeout=30_000):
        window.open_entity(ref)
    return window.editor


@pytest.fixture
def window(qtbot, tmp_path):
    """A window on an empty temporary graph, model loaded."""
    return make_window(qtbot, tmp_path / "ui.db")


@pytest.fixture(scope="session")
def sample_db_template(tmp_path_factory, embedder):
    """The sample graph imported and embedded once; tests get a copy."""
    from limbic import config
    from limbic.engine.store.db import Database
    from limbic.engine.graph.graph import Graph
    from limbic.engine.formats.jsonl import import_file

    path = tmp_path_factory.mktemp("template") / "sample.db"
    graph = Graph(Database(path), embedder)
    try:
        import_file(graph, config.resources_dir() / "sample_graph.jsonl")
    finally:
        graph.db.close()
    return path


@pytest.fixture
def sample_window(qtbot, tmp_path, sample_db_template):
    """A window on a copy of the embedded sample graph."""
    target = tmp_path / "sample.db"
    shutil.copyfile(sample_db_template, target)
    w = make_window(qtbot, target)
    assert w.catalog.counts["entities"] >= 50
    return w
