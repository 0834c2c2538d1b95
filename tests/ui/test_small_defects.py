"""Smaller things a new user trips on: Back after Ctrl+N, one click opens, settings explained, new export folders, badges."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QFileDialog, QLabel

from limbic import config
from limbic.engine.search.search import SearchResponse, SearchResult
from limbic.ui.dialogs.dialogs import SettingsDialog
from limbic.ui.search.results import ResultDelegate, ResultList, ResultModel
from limbic.ui.common.safe_files import NewFolderDialog
from tests.ui.conftest import open_entity, search

WAIT = 30_000


def test_back_returns_to_an_entity_made_with_ctrl_n(qtbot, sample_window):
    w = sample_window
    open_entity(qtbot, w, "Chess")
    w.new_action.trigger()
    qtbot.keyClicks(w.editor.name_edit, "Quokka sighting")
    with qtbot.waitSignal(w.entity_shown, timeout=WAIT):
        qtbot.keyClick(w.editor.name_edit, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    open_entity(qtbot, w, "Grafana")
    with qtbot.waitSignal(w.entity_shown, timeout=WAIT):
        qtbot.keyClick(w.editor.name_edit, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    assert w.editor.name_edit.text() == "Quokka sighting"
    with qtbot.waitSignal(w.entity_shown, timeout=WAIT):
        w.entities.back_action.trigger()
    assert w.editor.name_edit.text() == "Chess"


def test_one_click_on_a_result_opens_it(qtbot, sample_window):
    w = sample_window
    results = search(qtbot, w, "Harbor")
    assert len(results) > 2
    rect = w.results.visualRect(w.model.index(2, 0))
    with qtbot.waitSignal(w.entity_shown, timeout=WAIT) as shown:
        qtbot.mouseClick(w.results.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert shown.args == [results[2].entity_id]
    assert w.editor.name_edit.text() == results[2].name


def test_the_no_good_match_setting_is_a_checkbox_with_its_explanation(qtbot):
    dialog = SettingsDialog(config.Settings(), "/tmp/g.db")
    qtbot.addWidget(dialog)
    box = dialog.inputs["floor"]
    assert isinstance(box, QCheckBox) and box.isChecked()
    explained = box.parentWidget().findChild(QLabel, "paramHelp")
    assert explained.text().startswith("When meaning finds only chance-level hits")
    assert explained.isEnabled()  # a readable hint, not a greyed-out one
    box.setChecked(False)
    assert dialog.scoring_overrides() == {"floor": False}


def test_export_folder_can_be_a_new_name(qtbot, tmp_path):
    dialog = NewFolderDialog(None, "Export", str(tmp_path))
    qtbot.addWidget(dialog)
    dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
    dialog.setFileMode(QFileDialog.FileMode.Directory)
    dialog.open()
    dialog.selectFile(str(tmp_path / "vault export"))
    dialog.accept()
    assert (tmp_path / "vault export").is_dir()
    assert dialog.result() == QFileDialog.DialogCode.Accepted
    assert Path(dialog.selectedFiles()[0]) == tmp_path / "vault export"


def test_the_badge_says_what_the_next_search_uses(qtbot, window):
    assert window.model_name
    window.search_bar.edit.clear()
    window.rerun_search()
    qtbot.waitUntil(lambda: window.search.shown_request >= window.engine.searches.latest, timeout=WAIT)
    assert window.search_bar.mode_text() == "Hybrid"  # the model is loaded: not "words only"


def test_an_exact_name_hit_is_not_badged_as_found_by_meaning(qtbot, monkeypatch):
    from PySide6.QtGui import QPainter

    hit = SearchResult(1, "restic", "Tool", ["Backup program"], 1.0, 1.0, 0.5, 0.9, 0.0, 0.2, 0.03, "meaning",
                       1, None, exact=True)
    model = ResultModel()
    model.set_response(SearchResponse("restic", "hybrid", [hit], ["restic"]))
    view = ResultList()
    qtbot.addWidget(view)
    view.setModel(model)
    view.setItemDelegate(ResultDelegate(view))
    view.resize(600, 300)
    drawn: list[str] = []
    original = QPainter.drawText

    def spy(painter, *args):
        if args and isinstance(args[-1], str):
            drawn.append(args[-1])
        return original(painter, *args)

    monkeypatch.setattr(QPainter, "drawText", spy)
    view.grab()
    monkeypatch.setattr(QPainter, "drawText", original)
    assert "exact name" in drawn and "meaning" not in drawn


def test_the_first_picture_export_is_offered_in_the_graphs_folder(qtbot, sample_window):
    w = sample_window
    w.files.settings.last_folder = None
    panel = w.graph.graph_panel()
    assert panel.suggested_path("graph.png") == str(w.db_path.parent / "graph.png")
