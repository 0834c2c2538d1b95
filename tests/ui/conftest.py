"""UI test fixtures: a window on a temporary file with the real model, and a guard against leaked threads."""

from __future__ import annotations

import shutil

import pytest
from PySide6.QtWidgets import QMessageBox

from limbic.ui import worker as worker_module

START_TIMEOUT_MS = 60_000
JOB_TIMEOUT_MS = 120_000


@pytest.fixture(autouse=True)
def no_leaked_threads():
    """Fail any test that leaves an engine thread running (widgets are closed before this runs)."""
    yield
    leaked = worker_module.running_engines()
    for engine in leaked:
        engine.stop(10_000)
    assert not leaked, f"{len(leaked)} engine thread(s) still running after the test"


def make_window(qtbot, db_path, wait_model: bool = True):
    """A started MainWindow whose confirmation questions answer Discard/Yes unless a test says otherwise."""
    from limbic.ui.main_window import MainWindow

    window = MainWindow(db_path)
    qtbot.addWidget(window)
    window._ask_unsaved = lambda: QMessageBox.StandardButton.Discard
    window._confirm_delete = lambda name: True
    window.show()
    window.start()
    # Wait on the window's state: the worker's own signals fire in the worker's thread.
    qtbot.waitUntil(lambda: window.catalog is not None and (bool(window.model_name) or not wait_model),
                    timeout=START_TIMEOUT_MS)
    return window


def load_sample(qtbot, window) -> None:
    """Import the bundled sample graph through the window and wait until it is embedded."""
    with qtbot.waitSignal(window.job_ended, timeout=JOB_TIMEOUT_MS) as ended:
        window.load_sample()
    assert ended.args == ["import", True], window.status.last_message
    qtbot.waitUntil(lambda: window.catalog is not None and window.catalog.counts["entities"] >= 50)


def search(qtbot, window, text: str, entity_type: str = ""):
    """Run a search through the window's engine and wait for its results to be on screen."""
    request_id = window.engine.search(text, entity_type)
    qtbot.waitUntil(lambda: window._shown_request == request_id, timeout=30_000)
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
    from limbic.engine.db import Database
    from limbic.engine.graph import Graph
    from limbic.engine.jsonl import import_file

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
