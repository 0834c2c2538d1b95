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


def _planted_pairs(tmp_path, sample_db_template):
    path = tmp_path / "pairs.db"
    shutil.copyfile(sample_db_template, path)
    g = Graph(Database(path))
    try:
        g.upsert_entity("Jose Garcia", "Person", ["Accountant of the Harbor ledger"])
        g.upsert_entity("José García", "Person", ["Accountant of the Harbor ledger", "Lives in Valencia"])
        g.add_relation("Jose Garcia", "Harbor API", "works_on")  # better connected, yet the accents stay
        g.upsert_entity("NYC", "Place", ["Where the Harbor office is"])
        g.upsert_entity("New York City", "Place", ["Where the Harbor office is"])
        g.upsert_entity("Marta", "Person", ["Joined the Monday call"])
    finally:
        g.db.close()
    return path


def test_health_view_has_buttons_and_keeps_the_better_name(qtbot, tmp_path, sample_db_template):
    w = make_window(qtbot, _planted_pairs(tmp_path, sample_db_template))
    w.organise.health_action.trigger()
    view = w.organise.health_view
    qtbot.waitUntil(lambda: view.report is not None, timeout=60_000)
    # A button beside every key, the key shown on it.
    for button, key in ((view.merge_button, "(M)"), (view.swap_button, "(S)"), (view.skip_button, "(J)"),
                        (view.dismiss_button, "(D)"), (view.open_button, "(O)")):
        assert key in button.text() and not button.isHidden()
    assert view.dismiss_button.text() == "Not duplicates (D)"
    found = view.report.findings["duplicates"]
    pairs = [set(f.entities) for f in found]

    nyc = found[pairs.index({"NYC", "New York City"})]
    view.findings.setCurrentRow(pairs.index({"NYC", "New York City"}))
    assert nyc.entities[0] == "New York City"
    assert "Merging keeps “New York City”: the full form, not the abbreviation." in view.detail.toPlainText()

    # A small graph: the less sure pair is offered, marked in the list and in the detail.
    marta = next(i for i, p in enumerate(pairs) if p == {"Marta", "Marta Quintero"})
    assert view.findings.item(marta).text().startswith("less sure")
    view.findings.setCurrentRow(marta)
    assert "Less sure than the pairs above it" in view.detail.toPlainText()

    # The merge by buttons alone: preview, then merge; the accented name stays.
    row = pairs.index({"Jose Garcia", "José García"})
    view.findings.setCurrentRow(row)
    assert "Merging keeps “José García”: has accents." in view.detail.toPlainText()
    assert not view.swap_button.isEnabled()  # nothing to swap before the preview
    with qtbot.waitSignal(view.previewed, timeout=10_000):
        qtbot.mouseClick(view.merge_button, Qt.MouseButton.LeftButton)
    assert view.plan.target.entity.name == "José García" and view.merge_button.text() == "Merge now (M)"
    assert view.swap_button.isEnabled()
    with qtbot.waitSignal(view.merged, timeout=30_000):
        qtbot.mouseClick(view.merge_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "Jose Garcia" not in w.catalog.names.values(), timeout=10_000)
    assert "José García" in w.catalog.names.values()
    view.close()
