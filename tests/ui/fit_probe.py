"""Run the window on one emulated screen and say, as JSON, whether it and every control lie on that screen.

``python -m tests.ui.fit_probe GRAPH.db [SHOTS_DIR]`` in a process whose ``QT_SCALE_FACTOR`` and screen (the
offscreen platform's ``configfile``, or a real X server) are the ones to check. It loads the sample graph, opens
an entity, then goes through the states a person meets: no panel, the search filters with every side panel
open, maximised with them, and maximised with them closed. For each it prints the screen's available area, the
window's frame and the visible buttons, fields and lists that are not wholly on the screen (a control inside a
scroll area counts as reachable when the scroll area's viewport is on screen). With SHOTS_DIR it saves a PNG of
the window in each state.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from PySide6.QtCore import QElapsedTimer, QEventLoop, QRect
from PySide6.QtWidgets import (QAbstractButton, QAbstractItemView, QAbstractSpinBox, QApplication, QComboBox,
                               QLineEdit, QScrollArea, QWidget)

CONTROLS = (QAbstractButton, QLineEdit, QComboBox, QAbstractSpinBox, QAbstractItemView)


def spin(app: QApplication, ms: int) -> None:
    timer = QElapsedTimer()
    timer.start()
    while timer.elapsed() < ms:
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)


def wait(app: QApplication, done, ms: int = 120_000) -> bool:
    timer = QElapsedTimer()
    timer.start()
    while not done():
        if timer.elapsed() > ms:
            return False
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
    return True


def _global(widget: QWidget) -> QRect:
    return QRect(widget.mapToGlobal(widget.rect().topLeft()), widget.mapToGlobal(widget.rect().bottomRight()))


def _reach_rect(widget: QWidget) -> QRect:
    """Where the control must be on screen to be reached: its own rectangle, or its scroll area's viewport."""
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QScrollArea) and parent.widget() is not None and parent.widget().isAncestorOf(widget):
            return _global(parent.viewport())
        parent = parent.parentWidget()
    return _global(widget)


def off_screen(window: QWidget) -> list[dict]:
    """The visible controls of the window (and its floating docks) not wholly inside the available area."""
    area = window.screen().availableGeometry()
    out = []
    for widget in window.findChildren(QWidget):
        if not isinstance(widget, CONTROLS) or not widget.isVisible() or widget.visibleRegion().isEmpty():
            continue  # hidden, or on a tab behind another
        if isinstance(widget.parentWidget(), (QComboBox, QAbstractSpinBox)):
            continue  # a combo box's own field and list are placed with it
        rect = _reach_rect(widget)
        if not area.contains(rect):
            out.append({"control": widget.objectName() or type(widget).__name__,
                        "text": getattr(widget, "text", lambda: "")() if isinstance(widget, QAbstractButton) else "",
                        "rect": [rect.x(), rect.y(), rect.width(), rect.height()]})
    return out


def state(app: QApplication, window, name: str, shots: Path | None) -> dict:
    spin(app, 600)
    area = window.screen().availableGeometry()
    frame = window.frameGeometry()
    inside = window.geometry()
    if shots is not None:
        screen = window.screen()
        # Under a real X server and window manager the whole screen, frame and all; offscreen, the window.
        picture = screen.grabWindow(0) if QApplication.platformName() == "xcb" else window.grab()
        picture.save(str(shots / f"{name}.png"))
    return {"state": name, "area": [area.x(), area.y(), area.width(), area.height()],
            "frame": [frame.x(), frame.y(), frame.width(), frame.height()],
            "client": [inside.x(), inside.y(), inside.width(), inside.height()], "maximised": window.isMaximized(),
            "one_column": bool(window.one_column.narrow), "off": off_screen(window)}


def main() -> int:
    app = QApplication(sys.argv)
    from limbic.ui.shell.main_window import MainWindow

    shots = Path(sys.argv[2]) if len(sys.argv) > 2 else None
    if shots is not None:
        shots.mkdir(parents=True, exist_ok=True)
    window = MainWindow(Path(sys.argv[1]))
    window.show()
    window.start()
    if not wait(app, lambda: window.catalog is not None):
        return 2
    if not window.catalog.counts.get("entities"):  # a graph given empty: the sample loaded into it (screenshots)
        ended: list[str] = []
        window.job_ended.connect(lambda kind, _finished: ended.append(kind))
        window.files.load_sample()
        if not wait(app, lambda: bool(ended)):
            return 3
    states = [state(app, window, "start", shots)]
    shown: list[int] = []
    window.entity_shown.connect(shown.append)
    window.open_entity("Harbor API")
    wait(app, lambda: bool(shown), 30_000)
    states.append(state(app, window, "entity", shots))
    window.search_filters.toggle(True)
    window.activity.show()
    window.organise.on_health()
    window.graph.show_local_graph()
    states.append(state(app, window, "panels", shots))
    window.showMaximized()
    states.append(state(app, window, "panels-maximised", shots))
    for dock in (window.graph.dock, window.activity.dock, window.organise.health_dock):
        dock.hide()
    window.search_filters.toggle(False)
    states.append(state(app, window, "maximised", shots))
    window.showNormal()
    states.append(state(app, window, "normal-again", shots))
    print(json.dumps(states))
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
