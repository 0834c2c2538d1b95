"""UI test fixtures: a window on a temporary file with the real model, and a guard against leaked threads."""

from __future__ import annotations

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
    signals = [window.engine.worker.opened]
    if wait_model:
        signals.append(window.engine.worker.model_ready)
    with qtbot.waitSignals(signals, timeout=START_TIMEOUT_MS):
        window.start()
    return window


def load_sample(qtbot, window) -> None:
    """Import the bundled sample graph through the window and wait until it is embedded."""
    with qtbot.waitSignal(window.engine.worker.job_finished, timeout=JOB_TIMEOUT_MS):
        window.load_sample()
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


@pytest.fixture
def sample_window(qtbot, tmp_path):
    """A window on a temporary graph holding the sample graph, embedded."""
    w = make_window(qtbot, tmp_path / "sample.db")
    load_sample(qtbot, w)
    return w
