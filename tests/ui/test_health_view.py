"""The Health view: a background check with counts per kind, keyboard review, a merge preview, merge and dismiss."""

from __future__ import annotations

import shutil

from PySide6.QtCore import Qt

from limbic.engine.store.db import Database
from limbic.engine.graph.graph import Graph
from tests.ui.conftest import make_window


def _planted(tmp_path, sample_db_template):
    path = tmp_path / "health.db"
    shutil.copyfile(sample_db_template, path)
    g = Graph(Database(path))
    try:
        g.upsert_entity("ana ruíz", "Designer", ["Design lead at Harbor", "Reviews UI changes on Thursdays"])
        g.upsert_entity("Quintero, Marta", "Person", ["Writes a blog"])
    finally:
        g.db.close()
    return path


def test_health_view_reviews_merges_and_dismisses_by_keyboard(qtbot, tmp_path, sample_db_template):
    w = make_window(qtbot, _planted(tmp_path, sample_db_template))
    w.organise.health_action.trigger()
    view = w.organise.health_view
    qtbot.waitUntil(lambda: view.report is not None, timeout=60_000)
    labels = [view.kinds.item(i).text() for i in range(view.kinds.count())]
    assert labels[0].startswith("Possible duplicates  (") and any(t.startswith("Orphans  (") for t in labels)
    assert view.current_kind() == "duplicates"
    pairs = [set(f.entities) for f in view.report.findings["duplicates"]]
    assert {"Ana Ruiz", "ana ruíz"} in pairs and {"Marta Quintero", "Quintero, Marta"} in pairs
    row = pairs.index({"Ana Ruiz", "ana ruíz"})
    view.findings.setCurrentRow(row)
    assert "The names are the same apart from case or accents." in view.detail.toPlainText()

    with qtbot.waitSignal(view.previewed, timeout=10_000):
        qtbot.keyClick(view.findings, Qt.Key.Key_M)
    text = view.detail.toPlainText()
    assert "After the merge" in text and "The types differ" in text
    assert view.type_choice.count() == 2  # Person or Designer: the person chooses
    plan = view.plan
    with qtbot.waitSignal(view.merged, timeout=30_000):
        qtbot.keyClick(view.findings, Qt.Key.Key_M)
    qtbot.waitUntil(lambda: w.editor.entity_id == plan.target.entity.id, timeout=30_000)
    qtbot.waitUntil(lambda: plan.source.entity.id not in w.catalog.names, timeout=10_000)
    assert {"Ana Ruiz", "ana ruíz"} not in [set(f.entities) for f in view.report.findings["duplicates"]]
    assert w.undo.undo_action.isEnabled()

    # D dismisses the finding now selected, for good: a new check does not bring it back.
    gone = set(view.current_finding().entities)
    qtbot.keyClick(view.findings, Qt.Key.Key_D)
    qtbot.waitUntil(lambda: gone not in [set(f.entities) for f in view.report.findings["duplicates"]], timeout=10_000)
    view.report = None
    qtbot.keyClick(view.findings, Qt.Key.Key_R)
    qtbot.waitUntil(lambda: view.report is not None, timeout=60_000)
    assert gone not in [set(f.entities) for f in view.report.findings["duplicates"]]
    view.close()
