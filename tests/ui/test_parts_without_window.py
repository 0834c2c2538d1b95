"""The window's parts are made from the collaborators they use: each one runs with stand-ins, no window."""

from __future__ import annotations

from types import SimpleNamespace

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QLabel, QMainWindow, QMenuBar, QStackedWidget, QWidget

from limbic.service.types import SearchResponse, SearchResult
from limbic.ui.common.hooks import WindowHooks


class StandInEngine(QObject):
    """Records what a part asks of the engine; answers nothing by itself."""

    results_ready = Signal(int, object)
    opened = Signal(object)

    def __init__(self) -> None:
        super().__init__()
        self.searches = SimpleNamespace(latest=0)
        self.worker = self  # the parts connect to the worker's ``opened``
        self.asked: list[tuple] = []
        self.on_done: dict[str, object] = {}  # what each kind of run calls when it finishes

    def search(self, text: str, entity_type: str, branch: str) -> int:
        self.searches.latest += 1
        self.asked.append(("search", text, entity_type, branch))
        return self.searches.latest

    def read(self, key: str, fn, *args, **kwargs) -> int:
        self.asked.append(("read", key, *args))
        return 0

    def run(self, key: str, fn, *args, **kwargs) -> int:
        self.asked.append(("run", key, *args))
        self.on_done[key] = kwargs.get("on_done")
        return 0


class StandInStatus:
    def __init__(self) -> None:
        self.said: list[str] = []

    def say(self, text: str, timeout: int = 0, details=None) -> None:
        self.said.append(text)


class StandInEntities:
    def __init__(self) -> None:
        self.loaded: list[tuple] = []
        self.opened: list[tuple] = []

    def open_entity(self, ref, record: bool = False) -> None:
        self.opened.append((ref, record))

    def load_entity(self, ref, record: bool = False, together: tuple[int, ...] = ()) -> int:
        self.loaded.append((ref, record, together))
        return 1

    def navigation_pending(self) -> bool:
        return False


def _hit(entity_id: int, name: str) -> SearchResult:
    return SearchResult(entity_id, name, "Project", [f"{name} notes"], 0.8, 0.7, 0.4, 0.9, 1.5, 0.3, 0.03, "both", 1, 2)


def _hooks(parent: QWidget, guarded: list, catalog=None) -> WindowHooks:
    def guard(then) -> None:
        guarded.append(then)
        then()

    return WindowHooks(parent=parent, catalog=lambda: catalog, guard=guard,
                       refused_during_job=lambda what: False, failed=lambda what, message: None)


def test_the_search_runs_on_its_parts_alone(qtbot):
    from limbic.ui.search.home import HomeList
    from limbic.ui.search.results import ResultList, ResultModel
    from limbic.ui.search.search_bar import SearchBar
    from limbic.ui.search.search_flow import SearchFlow, SearchParts

    host = QWidget()
    qtbot.addWidget(host)
    engine, status, entities, guarded = StandInEngine(), StandInStatus(), StandInEntities(), []
    results, model, home, lists, hint = ResultList(host), ResultModel(host), HomeList(host), QStackedWidget(host), QWidget(host)
    results.setModel(model)
    for widget in (results, hint, home):
        lists.addWidget(widget)
    bar = SearchBar(host)
    arrived, shown = [], []
    flow = SearchFlow(SearchParts(
        engine=engine, bar=bar, results=results, model=model, home=home, lists=lists, empty_hint=hint,
        count=QLabel(host), status=status, entities=entities, hooks=_hooks(host, guarded), open_entity_id=lambda: None,
        semantic_on=lambda: True, arrived=arrived.append, shown=shown.append))

    bar.edit.setText("harbor")
    bar.on_debounced()
    assert engine.asked == [("search", "harbor", "", "both")]

    engine.results_ready.emit(1, SearchResponse("harbor", "hybrid", [_hit(7, "Harbor API"), _hit(9, "Harbor DB")],
                                                ["harbor"]))
    assert arrived == [1] and shown == [1]
    assert lists.currentWidget() is results and model.rowCount() == 2
    assert results.currentIndex().row() == 0

    bar.open_requested.emit()  # Enter opens the top hit, through the window's guard, with the list's co-occurrence
    assert len(guarded) == 1
    assert entities.loaded == [(7, True, (7, 9))]

    engine.results_ready.emit(0, SearchResponse("harb", "hybrid", [_hit(3, "Stale")], ["harb"]))  # an older request
    assert arrived == [1, 0] and shown == [1] and model.rowCount() == 2
    flow.rerun()
    assert engine.asked[-1] == ("search", "harbor", "", "both")


def test_the_activity_menu_runs_on_its_parts_alone(qtbot):
    from limbic.ui.activity.activity_menu import ActivityMenu, ActivityParts

    class Changes(QObject):
        shown = Signal(object)

    host = QMainWindow()
    qtbot.addWidget(host)
    engine, status, changes, badges, opened = StandInEngine(), StandInStatus(), Changes(), [], []
    menu = ActivityMenu(ActivityParts(
        engine=engine, host=host, status=status, add_badge=badges.append, changes_shown=changes.shown,
        open_entity=opened.append, hooks=_hooks(host, [], catalog=SimpleNamespace(counts={"entities": 3}))))
    menu.build_menu(QMenuBar(host))
    assert badges == [menu.badge]

    changes.shown.emit(object())  # a change the window refreshed for: the badge reads the log again
    assert engine.asked == [("run", "activity-badge")]
    menu._show_badge(2)
    assert menu.badge.text() == "Assistants: 2 unreviewed"

    menu.pause_assistant("claude", True)
    assert engine.asked[-1] == ("run", "pause", "claude", True)
    assert status.said[-1] == "Writing by “claude” is paused; its reads still work."

    menu.show()  # the panel docks in the host and opens the entities it lists there
    assert menu.dock is not None and menu.dock.parent() is host
    menu.dock.panel.open_requested.emit(42)
    assert opened == [42]


def test_only_the_assembly_imports_the_window():
    import ast
    from pathlib import Path

    import limbic.ui

    ui = Path(limbic.ui.__file__).parent
    assembly = {ui / "shell" / "main_window.py", ui / "shell" / "app.py"}
    importers = []
    for path in sorted(ui.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            if any(name == "limbic.ui.shell.main_window" for name in names) and path not in assembly:
                importers.append(path.relative_to(ui).as_posix())
    assert importers == []


def test_undo_runs_on_its_parts_alone(qtbot):
    from PySide6.QtWidgets import QMenu

    from limbic.ui.editor.entity_editor import EntityEditor
    from limbic.ui.shell.status import StatusPanel
    from limbic.ui.shell.undo import UndoController, UndoParts

    host = QWidget()
    qtbot.addWidget(host)
    engine, guarded, reloaded, done = StandInEngine(), [], [], []
    status, editor = StatusPanel(host), EntityEditor(host)
    readonly = [False]
    undo = UndoController(UndoParts(
        engine=engine, editor=editor, status=status, hooks=_hooks(host, guarded), readonly=lambda: readonly[0],
        reload=reloaded.append, ask_conflict=lambda plan, what: None, step_done=done.append))
    undo.build_actions(QMenu(host))
    assert not undo.undo_action.isEnabled() and not undo.has_steps()

    step = SimpleNamespace(label="rename of “A”")
    undo.push_step(step)
    assert undo.undo_action.isEnabled() and undo.undo_action.text() == "&Undo rename of “A”"
    readonly[0] = True  # a read-only file: nothing to undo there
    undo.update_actions()
    assert not undo.undo_action.isEnabled()
    readonly[0] = False

    undo.on_undo()  # asks the window's guard, then runs the step on the engine's thread
    assert len(guarded) == 1 and engine.asked[-1][:3] == ("run", "undo", step)
    assert not undo.undo_action.isEnabled()  # one step at a time

    engine.on_done["undo"](5)  # the step changed entity 5: the editor shows it again
    assert reloaded == [5] and done == ["rename of “A”"]
    assert status.last_message == "Undone: rename of “A”."
    assert undo.redo_action.isEnabled() and undo.redo_action.text() == "Re&do rename of “A”"
