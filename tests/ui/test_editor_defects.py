"""The editor after a Link from the graph, relations to missing entities, and the Organise dialogs' keyboard paths."""

from __future__ import annotations

from PySide6.QtCore import QStringListModel, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from limbic.engine.store.db import Database
from limbic.engine.graph.graph import Graph
from limbic.ui.common import theme
from limbic.ui.editor.create_target import CreateTargetDialog
from limbic.ui.graph.scene import KIND_SUGGESTION
from limbic.ui.shell.organise_menu import MergeDialog, TypeRenameDialog
from tests.ui.conftest import open_entity
from tests.ui.test_graph_view import click, known_db_template, kwindow, local, settle  # noqa: F401 - fixtures

WAIT = 60_000


def _rows(widget) -> list[str]:
    return [widget.item(i).text() for i in range(widget.count())]


def test_link_from_a_suggestion_shows_in_the_editor_at_once(qtbot, kwindow):
    w = kwindow
    panel = local(qtbot, w, "Hub")
    settle(qtbot, panel, lambda: panel.similar.setChecked(True))
    s = panel.canvas.scene
    target = next(i for i in range(s.n) if s.kinds[i] == KIND_SUGGESTION)
    name = s.labels[target]
    with qtbot.waitSignal(w.entity_shown, timeout=WAIT):
        click(qtbot, panel, target)  # the suggestion opens in the editor
    assert w.editor.name_edit.text() == name and panel.link_type.hasFocus()
    qtbot.keyClicks(panel.link_type, "similar_to")
    qtbot.keyClick(panel.link_type, Qt.Key.Key_Return)  # keyboard only
    qtbot.waitUntil(lambda: "similar_to ← Hub" in _rows(w.editor.in_list), timeout=WAIT)
    assert not w.editor.is_dirty()


def test_link_while_the_editor_has_unsaved_edits_lists_it_and_keeps_them(qtbot, kwindow):
    w = kwindow
    panel = local(qtbot, w, "Hub")
    settle(qtbot, panel, lambda: panel.similar.setChecked(True))
    s = panel.canvas.scene
    target = next(i for i in range(s.n) if s.kinds[i] == KIND_SUGGESTION)
    name = s.labels[target]
    with qtbot.waitSignal(w.entity_shown, timeout=WAIT):
        click(qtbot, panel, target)
    qtbot.keyClicks(w.editor.obs_new, "An edit not saved yet")
    qtbot.keyClick(w.editor.obs_new, Qt.Key.Key_Return)
    assert w.editor.is_dirty()
    panel._offer_link(target)
    panel.link_type.setText("similar_to")
    panel.on_link()
    qtbot.waitUntil(lambda: "similar_to ← Hub" in _rows(w.editor.in_list), timeout=WAIT)
    assert w.editor.is_dirty() and "An edit not saved yet" in _rows(w.editor.obs_list)
    with qtbot.waitSignal(w.entity_saved, timeout=WAIT):
        w.editor.on_save()
    qtbot.waitUntil(lambda: not w.editor.is_dirty(), timeout=WAIT)
    assert "similar_to ← Hub" in _rows(w.editor.in_list) and w.editor.name_edit.text() == name


def test_a_relation_to_a_missing_entity_offers_to_create_it(qtbot, sample_window):
    w = sample_window
    ed = open_entity(qtbot, w, "Harbor API")
    asked: list[str] = []
    ed._ask_create = lambda name: asked.append(name) or "Book"
    ed.rel_type.setFocus()
    qtbot.keyClicks(ed.rel_type, "inspired_by")
    qtbot.keyClick(ed.rel_type, Qt.Key.Key_Tab)
    qtbot.keyClicks(QApplication.focusWidget(), "The Phoenix Project")
    with qtbot.waitSignal(w.changes_shown, timeout=WAIT):
        qtbot.keyClick(ed.rel_target, Qt.Key.Key_Return)
    assert asked == ["The Phoenix Project"]
    assert "inspired_by → The Phoenix Project" in _rows(ed.out_list)
    qtbot.waitUntil(lambda: "The Phoenix Project" in w.catalog.names.values(), timeout=WAIT)
    with qtbot.waitSignal(w.entity_saved, timeout=WAIT):
        qtbot.keyClick(ed.name_edit, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    check = Graph(Database(w.db_path))
    try:
        assert check.get_entity("The Phoenix Project").entity_type == "Book"
        out, _ = check.relations_of("Harbor API")
        assert ("inspired_by", "The Phoenix Project") in {(r.relation_type, r.to_name) for r in out}
    finally:
        check.db.close()


def test_declining_to_create_keeps_the_name_to_correct_and_adds_nothing(qtbot, sample_window):
    w = sample_window
    ed = open_entity(qtbot, w, "Harbor API")
    ed._ask_create = lambda name: None
    ed.rel_type.setText("uses")
    ed.rel_target.setText("Postgress 16")
    ed.on_add_relation()
    assert "uses → Postgress 16" not in _rows(ed.out_list)
    assert ed.rel_target.text() == "Postgress 16" and not ed.is_dirty()
    # An existing entity (any case) is related without a question.
    ed._ask_create = lambda name: (_ for _ in ()).throw(AssertionError("asked about an existing entity"))
    ed.rel_target.setText("grafana")
    ed.on_add_relation()
    assert "uses → grafana" in _rows(ed.out_list)


def test_the_create_dialog_takes_a_typed_type_and_enter(qtbot):
    dialog = CreateTargetDialog("The Phoenix Project", ["Book", "Person", "Generic"])
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.focusWidget() in (dialog.type, dialog.type.lineEdit())
    qtbot.keyClicks(dialog.focusWidget(), "Novel")
    with qtbot.waitSignal(dialog.accepted, timeout=5000):
        qtbot.keyClick(dialog.focusWidget(), Qt.Key.Key_Return)
    assert dialog.chosen_type() == "Novel"


def test_the_relation_fields_start_empty_for_each_entity(qtbot, sample_window):
    w = sample_window
    ed = open_entity(qtbot, w, "Harbor API")
    ed.rel_type.setText("uses")
    ed.rel_target.setText("half typed")
    open_entity(qtbot, w, "Grafana")
    assert ed.rel_type.text() == "" and ed.rel_target.text() == ""


def test_rename_type_dialog_starts_in_the_new_name_and_refuses_an_empty_one(qtbot):
    dialog = TypeRenameDialog(["Person", "Project", "Tool"], "Project")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.focusWidget() is dialog.new
    qtbot.keyClick(dialog.new, Qt.Key.Key_Return)  # Enter with nothing typed
    assert dialog.isVisible() and dialog.error.isVisible() and "new name" in dialog.error.text()
    qtbot.keyClicks(dialog.focusWidget(), "Tool")  # typing goes into the name, the type stays
    assert dialog.new.text() == "Tool" and dialog.old.currentText() == "Project"
    with qtbot.waitSignal(dialog.accepted, timeout=5000):
        qtbot.keyClick(dialog.new, Qt.Key.Key_Return)


def test_merge_completer_does_not_offer_the_entity_being_merged(qtbot):
    names = QStringListModel(["Harbor API", "Harbor Gateway", "Harbor v2.8.1"])
    dialog = MergeDialog("Harbor API", names)
    qtbot.addWidget(dialog)
    assert dialog.others.stringList() == ["Harbor Gateway", "Harbor v2.8.1"]
    dialog.show()
    dialog.target.setText("harbor api")
    dialog.accept()
    assert dialog.isVisible() and "being merged" in dialog.error.text()


def test_hints_have_enough_contrast_in_light_and_dark(qtbot):
    app = QApplication.instance()
    try:
        for scheme in ("light", "dark"):
            theme.set_scheme(app, scheme)
            pal = app.palette()
            hint, base = pal.color(QPalette.ColorRole.PlaceholderText), pal.color(QPalette.ColorRole.Base)
            assert _contrast(hint, base) >= 4.5, (scheme, hint.name(), base.name())
    finally:
        theme.set_scheme(app, "system")


def _contrast(a, b) -> float:
    """WCAG contrast of ``a`` drawn over ``b`` (a half-transparent hint is blended first)."""
    alpha = a.alphaF()
    over = [x * alpha + y * (1 - alpha) for x, y in zip((a.redF(), a.greenF(), a.blueF()), (b.redF(), b.greenF(), b.blueF()))]

    def lum(rgb) -> float:
        lin = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((lum(over), lum((b.redF(), b.greenF(), b.blueF()))), reverse=True)
    return (hi + 0.05) / (lo + 0.05)
