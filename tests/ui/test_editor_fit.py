"""The editor at a small laptop's size: the alias field's hint whole at the editor's narrowest, and each
list with something in it showing at least four rows (or all it has) at 1366×706."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.ui.common import theme
from tests.ui.conftest import make_window, open_entity


def _entity(path, observations: int = 6, relations: int = 6):
    g = Graph(Database(path))
    g.create_entity("Hub", "Project", [f"observation number {i}" for i in range(observations)])
    for i in range(relations):
        g.create_entity(f"Source {i}", "Thing")
        g.add_relation(f"Source {i}", "Hub", "belongs_to")
        g.add_relation("Hub", f"Source {i}", "uses")
    g.db.close()


def _hub(qtbot, tmp_path, size=(1366, 706), relations: int = 6):
    """The window at ``size`` with "Hub" open in the editor: (window, editor)."""
    path = tmp_path / "g.db"
    _entity(path, relations=relations)
    w = make_window(qtbot, path, wait_model=False)
    w.resize(*size)
    return w, open_entity(qtbot, w, "Hub")


def _graph_panel_open(qtbot, w, ed) -> None:
    """The local graph panel open and wide, as at 1366 px with the editor at its narrowest."""
    w.graph.show_local_graph()
    qtbot.waitUntil(lambda: w.graph.dock is not None and w.graph.dock.isVisible(), timeout=10_000)
    w.resizeDocks([w.graph.dock], [1366 * 11 // 20], Qt.Orientation.Horizontal)
    qtbot.waitUntil(lambda: ed.width() < 400, timeout=10_000)


def _edit_second_observation(ed):
    """The second observation opened for editing in place: (list, field)."""
    from PySide6.QtWidgets import QPlainTextEdit

    lst = ed.obs_list
    lst.setCurrentRow(1)
    lst.editItem(lst.item(1))
    field = lst.findChild(QPlainTextEdit, "observationEditor")
    assert field is not None and field.isVisible()
    return lst, field


def test_the_alias_hint_is_whole_at_the_editors_narrowest(qtbot, tmp_path):
    w, ed = _hub(qtbot, tmp_path, (1280, 760))
    w.splitter.setSizes([w.width(), 0])  # the results take all they can: the editor at its narrowest
    field = ed.aliases.field
    need = field.fontMetrics().horizontalAdvance(field.placeholderText())
    qtbot.waitUntil(lambda: ed.width() <= max(ed.minimumWidth(), ed.minimumSizeHint().width()) + 2, timeout=10_000)
    margins = field.textMargins()
    assert field.width() - 8 - margins.left() - margins.right() >= need, (field.width(), need)


def _whole_rows(lst) -> int:
    view = lst.viewport().rect()
    return sum(1 for i in range(lst.count()) if view.contains(lst.visualItemRect(lst.item(i))))


def test_each_list_with_rows_shows_four_of_them_at_1366_by_706(qtbot, tmp_path):
    path = tmp_path / "g.db"
    _entity(path)
    w = make_window(qtbot, path, wait_model=False)
    w.resize(1366, 706)
    qtbot.waitUntil(lambda: w.height() == 706, timeout=10_000)
    ed = open_entity(qtbot, w, "Hub")
    history = ed.history_panel.shown_list()
    lists = {"observations": ed.obs_list, "outgoing": ed.out_list, "incoming": ed.in_list, "history": history}
    qtbot.waitUntil(lambda: all(lst.count() for lst in lists.values()), timeout=10_000)

    def short() -> dict[str, tuple[int, int]]:
        return {name: (_whole_rows(lst), lst.count()) for name, lst in lists.items()
                if _whole_rows(lst) < min(4, lst.count())}

    try:  # once the layout has settled (the share follows the splitter's size)
        qtbot.waitUntil(lambda: not short(), timeout=5_000)
    except Exception:
        raise AssertionError(f"rows shown, rows held: {short()}; splitter {ed.splitter.sizes()}")


def test_the_alias_hint_is_whole_with_the_graph_panel_open_at_1366(qtbot, tmp_path):
    w, ed = _hub(qtbot, tmp_path)
    _graph_panel_open(qtbot, w, ed)
    field = ed.aliases.field
    need = field.fontMetrics().horizontalAdvance(field.placeholderText())
    shown = lambda: field.visibleRegion().boundingRect().width()  # noqa: E731 - the part inside the editor
    try:  # once the layout has settled
        qtbot.waitUntil(lambda: shown() - 8 >= need, timeout=5_000)
    except Exception:
        raise AssertionError(f"field shows {shown()} px, its hint needs {need}; editor {ed.width()} px wide")


def test_an_observation_edited_in_place_at_1366_by_706_covers_no_other(qtbot, tmp_path):
    _, ed = _hub(qtbot, tmp_path)
    lst, field = _edit_second_observation(ed)

    def covered() -> list[int]:
        return [i for i in range(lst.count()) if i != 1
                and lst.visualItemRect(lst.item(i)).intersects(field.geometry())]

    try:  # once the row has grown to the field
        qtbot.waitUntil(lambda: not covered() and lst.viewport().rect().contains(field.geometry()), timeout=5_000)
    except Exception:
        raise AssertionError(f"rows under the field: {covered()}; field {field.geometry()}, "
                             f"viewport {lst.viewport().rect()}")


def test_an_observation_edited_in_place_with_the_graph_panel_open_stays_inside_the_list(qtbot, tmp_path):
    w, ed = _hub(qtbot, tmp_path, relations=12)
    _graph_panel_open(qtbot, w, ed)
    lst, field = _edit_second_observation(ed)
    try:  # the whole field in view: none of it under the list's edge
        qtbot.waitUntil(lambda: lst.viewport().rect().contains(field.geometry()), timeout=5_000)
    except Exception:
        raise AssertionError(f"field {field.geometry()}, viewport {lst.viewport().rect()}")


def test_the_history_folds_away_to_give_the_lists_its_room(qtbot, tmp_path):
    _, ed = _hub(qtbot, tmp_path)
    qtbot.waitUntil(lambda: ed.history_panel.shown_list().count() > 0, timeout=10_000)
    ed._shares_kept = True  # as after the person drags the handle down to the bottom
    sizes = ed.splitter.sizes()
    ed.splitter.setSizes([sizes[0], sizes[1] + sizes[2], 0])
    assert ed.splitter.sizes()[2] == 0, ed.splitter.sizes()
    assert ed.splitter.sizes()[1] > sizes[1]  # the relations have the history's room


def test_with_the_graph_panel_open_wide_the_observations_keep_four_rows_and_the_dates_one_line(qtbot, tmp_path):
    # Short of room, the history gives way first (down to its minimum), and the dates above the lists
    # stay on one line: they took two rows' height, the observations showed two rows and the history four.
    w, ed = _hub(qtbot, tmp_path)
    qtbot.waitUntil(lambda: w.height() == 706, timeout=10_000)
    _graph_panel_open(qtbot, w, ed)
    lists = {"observations": ed.obs_list, "outgoing": ed.out_list}

    def short() -> dict[str, tuple[int, int]]:
        return {name: (_whole_rows(lst), lst.count()) for name, lst in lists.items()
                if _whole_rows(lst) < min(4, lst.count())}

    try:  # once the layout has settled
        qtbot.waitUntil(lambda: not short(), timeout=5_000)
    except Exception:
        raise AssertionError(f"rows shown, rows held: {short()}; splitter {ed.splitter.sizes()}")
    assert ed.meta.height() <= ed.meta.fontMetrics().lineSpacing() + 4, ed.meta.height()
    assert "id " in ed.meta.toolTip() and ed.meta.text().startswith("created ")


def test_short_of_room_the_history_gives_way_before_the_lists_above_it():
    from limbic.ui.editor.space import shared_out

    # observations, relations, history: each needs more than its four rows and the total is short of them all
    sizes = shared_out(480, need=[200, 250, 200], least=[160, 220, 170], shares=(3, 3, 2), floor=[100, 140, 90])
    assert sizes == [160, 220, 100], sizes


@pytest.mark.parametrize("scheme", ["system", "light", "dark"])
def test_with_the_graph_panel_opened_at_1366_by_706_an_entity_with_aliases_keeps_four_rows_a_list(qtbot, tmp_path,
                                                                                                   scheme):
    # Two aliases (their chips on two lines), observations that wrap, seven incoming relations: the relation
    # buttons beside their fields and the relation box untitled (its columns say it) give the lists their rows;
    # the observations and the incoming relations showed three. A light or dark scheme chosen in Settings draws
    # the fields a little taller: the history gives way to one row so the lists above still keep four.
    app = QApplication.instance()
    theme.set_scheme(app, scheme)
    try:
        _four_rows_beside_the_graph_panel(qtbot, tmp_path)
    finally:
        theme.set_scheme(app, "system")


def _four_rows_beside_the_graph_panel(qtbot, tmp_path) -> None:
    path = tmp_path / "g.db"
    g = Graph(Database(path))
    g.create_entity("Harbor API", "Project", [
        "Payments gateway service at work; Go 1.22, gRPC and a REST facade",
        "Ledger moved to Postgres 16 in February 2026", "Ticket prefix HAR; current release v2.8.1",
        "Runs on the Kubernetes cluster harbor-prod, since the March release.",
        "Rate limits were raised to 600 requests a minute."])
    for name, rtype in [("Marta Quintero", "works_on"), ("Tomás Ferreira", "leads"), ("HAR-2291", "belongs_to"),
                        ("HAR-2310", "belongs_to"), ("Harbor v2.8.1", "release_of"),
                        ("Session 2026-04-02", "worked_on"), ("Decision: use Postgres 16", "about")]:
        g.create_entity(name, "Thing")
        g.add_relation(name, "Harbor API", rtype)
    g.add_aliases("Harbor API", ["HAR", "the payments API"])
    g.db.close()
    w = make_window(qtbot, path, wait_model=False)
    w.resize(1366, 706)
    qtbot.waitUntil(lambda: w.height() == 706, timeout=10_000)
    ed = open_entity(qtbot, w, "Harbor API")
    w.graph.show_local_graph()  # as View → Local graph opens it
    qtbot.waitUntil(lambda: w.graph.dock is not None and w.graph.dock.isVisible(), timeout=10_000)
    lists = {"observations": ed.obs_list, "incoming": ed.in_list}

    def short() -> dict[str, tuple[int, int]]:
        return {name: (_whole_rows(lst), lst.count()) for name, lst in lists.items() if _whole_rows(lst) < 4}

    try:  # once the layout has settled
        qtbot.waitUntil(lambda: not short(), timeout=5_000)
    except Exception:
        raise AssertionError(f"rows shown, rows held: {short()}; splitter {ed.splitter.sizes()}")
    assert w.size().toTuple() == (1366, 706)  # the window never grew to make the room
    for field in (ed.rel_type, ed.rel_target):  # beside the buttons, each field's hint shows whole
        need = field.fontMetrics().horizontalAdvance(field.placeholderText())
        assert field.width() - 8 - field.textMargins().left() - field.textMargins().right() >= need, field.width()
