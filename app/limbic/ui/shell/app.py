"""Start-up of the desktop app: logging, error hook, look and feel, the window; and the smoke check."""

from __future__ import annotations

import logging
import logging.handlers
import os
import sys
import tempfile
from pathlib import Path

from limbic import config
from limbic.ui.common.i18n import translate

logger = logging.getLogger(__name__)

LOG_FILE = "limbic.log"
LOG_BYTES = 1_000_000
LOG_BACKUPS = 3
SMOKE_QUERY = "charged twice when the payment network timed out"
SMOKE_EXPECTED = "HAR-2291"
SMOKE_TIMEOUT_MS = 120_000
SWITCH_INTERVAL_S = 0.001


def setup_logging() -> Path | None:
    """A rotating log file in the user log folder (configured once, at start-up)."""
    root = logging.getLogger()
    if any(isinstance(h, logging.handlers.RotatingFileHandler) for h in root.handlers):
        return None
    folder = config.log_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handler = logging.handlers.RotatingFileHandler(folder / LOG_FILE, maxBytes=LOG_BYTES, backupCount=LOG_BACKUPS,
                                                       encoding="utf-8")
    except OSError as exc:  # a read-only home must not stop the app
        print(f"limbic: no log file ({exc})", file=sys.stderr)
        return None
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(threadName)s %(name)s: %(message)s"))
    root.addHandler(handler)
    # The file gets INFO; what already prints to the terminal stays at its own level (WARNING by default).
    for other in root.handlers:
        if other is not handler and other.level == logging.NOTSET:
            other.setLevel(max(root.level, logging.WARNING))
    root.setLevel(logging.INFO)
    return folder / LOG_FILE


def _application(argv: list[str]):
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtWidgets import QApplication

    from limbic import __version__
    from limbic.ui.common import theme

    QCoreApplication.setApplicationName(config.APP_NAME)
    QCoreApplication.setOrganizationName(config.APP_NAME)
    QCoreApplication.setApplicationVersion(__version__)
    # The engine's thread runs Python too: a shorter GIL switch interval lets the UI thread in sooner
    # (at most ~1 ms instead of 5 ms), which keeps ticks and repaints on time while the worker searches.
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    app = QApplication.instance() or QApplication(argv)
    if hasattr(app, "setDesktopFileName"):
        app.setDesktopFileName("limbic")
    theme.apply(app)
    from limbic.ui.common import i18n

    i18n.install(app, config.load_settings().language)
    return app


def run(db_path: Path | None, smoke: bool = False) -> int:
    """Open the main window on ``db_path`` (or the default file); ``smoke`` runs the self-check instead."""
    if smoke:
        return run_smoke()
    setup_logging()
    from limbic.ui.dialogs.dialogs import install_excepthook
    from limbic.ui.shell.main_window import MainWindow

    app = _application(sys.argv[:1])
    install_excepthook()
    window = MainWindow(db_path)
    window.show()
    window.start()
    logger.info("window shown on %s", window.db_path)
    _close_on_signals(window)
    from limbic.ui.shell import startup_timing

    _timer = startup_timing.watch(window)  # noqa: F841 - LIMBIC_TIMING: start-up stamps for measurement
    return int(app.exec())


def _close_on_signals(window) -> None:
    """Ctrl+C or SIGTERM in a terminal closes the window properly (unsaved-changes question, thread stop)."""
    import signal

    from PySide6.QtCore import QTimer

    def close(*_args) -> None:
        QTimer.singleShot(0, window.close)

    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            signal.signal(sig, close)
        except (ValueError, OSError):  # not the main thread, or not supported here
            pass
    # Python runs signal handlers only between bytecodes: a timer gives it the chance while Qt waits.
    window._signal_timer = QTimer(window)
    window._signal_timer.start(250)
    window._signal_timer.timeout.connect(lambda: None)


def _wait(app, predicate, timeout_ms: int) -> bool:
    """Process events until ``predicate()`` holds or the time is up (sleeping between events, not spinning)."""
    from PySide6.QtCore import QDeadlineTimer, QEventLoop, QTimer

    deadline = QDeadlineTimer(timeout_ms)
    wake = QTimer()
    wake.setInterval(20)  # re-check the predicate even when no event arrives
    wake.start()
    try:
        while not predicate():
            if deadline.hasExpired():
                return False
            app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents | QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
        return True
    finally:
        wake.stop()


def run_smoke() -> int:
    """Start offscreen on a temporary database, load the sample graph, search, and check the top hit."""
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    os.environ.setdefault("QT_LOGGING_RULES", "qt.qpa.*=false")  # the offscreen plugin warns about size hints
    with tempfile.TemporaryDirectory(prefix="limbic-smoke-") as tmp:
        os.environ["LIMBIC_HOME"] = tmp  # leave the user's settings and window state alone
        os.environ.pop("LIMBIC_DB", None)
        return _smoke(Path(tmp))


def _probe_class():
    from PySide6.QtCore import QObject, Slot

    class SmokeProbe(QObject):
        """Collects the worker's answers on the UI thread (slots, not lambdas: convention 5)."""

        def __init__(self) -> None:
            super().__init__()
            self.state: dict[str, object] = {}

        @Slot(object)
        def on_opened(self, catalog) -> None:
            self.state.setdefault("opened", catalog)

        @Slot(str)
        def on_model(self, name: str) -> None:
            self.state.setdefault("model", name)

        @Slot(str)
        def on_model_failed(self, reason: str) -> None:
            self.state.setdefault("model_error", reason)

        @Slot(str)
        def on_error(self, message: str) -> None:
            self.state.setdefault("error", message)

        @Slot(str, str)
        def on_failed(self, _what: str, message: str) -> None:
            self.state.setdefault("error", message)

        @Slot(str, bool)
        def on_job_ended(self, kind: str, finished: bool) -> None:
            if kind == "import":
                self.state.setdefault("imported" if finished else "error", "the import stopped")

    return SmokeProbe


def _SmokeProbe():  # noqa: N802 - a factory that keeps Qt out of this module's import
    return _probe_class()()


def _smoke(tmp: Path) -> int:
    from limbic.ui.shell.main_window import MainWindow

    app = _application(sys.argv[:1])
    window = MainWindow(tmp / "smoke.db")
    probe = _SmokeProbe()
    state = probe.state
    w = window.engine.worker
    w.opened.connect(probe.on_opened)
    w.model_ready.connect(probe.on_model)
    w.model_failed.connect(probe.on_model_failed)
    w.open_failed.connect(probe.on_error)
    w.failed.connect(probe.on_failed)
    window.job_ended.connect(probe.on_job_ended)
    window.show()
    window.start()
    try:
        ok = _wait(app, lambda: "error" in state or ("opened" in state and ("model" in state or "model_error" in state)),
                   SMOKE_TIMEOUT_MS)
        if not ok or "error" in state or "model_error" in state:
            print(f"limbic --smoke: FAILED: {state.get('error') or state.get('model_error') or 'the app did not start'}")
            return 1
        window.files.load_sample()
        if not _wait(app, lambda: "imported" in state or "error" in state, SMOKE_TIMEOUT_MS) or "error" in state:
            print(f"limbic --smoke: FAILED: the sample graph did not load ({state.get('error', 'timeout')})")
            return 1
        shown: list[int] = []
        window.results_shown.connect(shown.append)
        window.search_bar.edit.setText(SMOKE_QUERY)
        window.search_bar.on_debounced()
        latest = window.engine.searches.latest
        if not _wait(app, lambda: latest in shown or "error" in state, SMOKE_TIMEOUT_MS) or "error" in state:
            print(f"limbic --smoke: FAILED: the search did not answer ({state.get('error', 'timeout')})")
            return 1
        top = window.model.result(0)
        mode = window.model.mode
        count = window.catalog.counts.get("entities", 0) if window.catalog else 0
        if top is None or top.name != SMOKE_EXPECTED or mode != "hybrid":
            got = top.name if top else translate("App", "no result")
            print(f"limbic --smoke: FAILED: “{SMOKE_QUERY}” gave {got} first in {mode} mode; expected {SMOKE_EXPECTED} (hybrid)")
            return 1
        print(
            f"limbic --smoke: ok: “{SMOKE_QUERY}” finds {SMOKE_EXPECTED} first ({mode}, found by {top.branch}, "
            f"{count} sample entities, model {state['model']})"
        )
        return 0
    finally:
        window.close()
        window.deleteLater()
        app.processEvents()
