"""A CSV import is previewed first: the columns read and ignored, the first rows and the counts; it runs
only after Import, can keep ignored columns as observations, and a file where nothing maps to a name
is not imported at all."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from tests.ui.conftest import JOB_TIMEOUT_MS


def _preview(qtbot, w, path):
    w.files.csv_preview = None
    w.files.import_path(str(path))
    qtbot.waitUntil(lambda: w.files.csv_preview is not None and w.files.csv_preview.isVisible(), timeout=30_000)
    return w.files.csv_preview


def test_unknown_columns_are_shown_before_anything_is_imported_and_can_be_kept(qtbot, window, tmp_path):
    w = window
    path = tmp_path / "people.csv"
    path.write_text("Name,Notes,Price\nAna,likes tea,3\nBo,,\n", encoding="utf-8")
    dialog = _preview(qtbot, w, path)
    assert w.catalog.counts["entities"] == 0  # nothing imported while the person looks
    columns = dialog.column_notes[0].text()
    assert "name → name" in columns and "Ignored:</b> notes, price" in columns
    rows = dialog.tables[0]
    assert [rows.horizontalHeaderItem(c).text() for c in range(rows.columnCount())] == ["name", "notes", "price"]
    assert rows.item(0, 1).text() == "likes tea" and rows.horizontalHeaderItem(1).font().strikeOut()
    assert dialog.summary.text() == ("Would bring in 2 entities (2 new), 0 observations and 0 relations; "
                                     "2 entities would have nothing but their name.")
    assert dialog.keep.isVisible()
    dialog.keep.setChecked(True)
    with qtbot.waitSignal(w.job_ended, timeout=JOB_TIMEOUT_MS) as ended:
        dialog.import_button.click()
    assert ended.args == ["import", True], w.status.last_message
    qtbot.waitUntil(lambda: w.catalog.counts["entities"] == 2, timeout=JOB_TIMEOUT_MS)
    from limbic.engine.store.db import Database
    from limbic.engine.graph.graph import Graph

    g = Graph(Database(w.files.p.db_path(), readonly=True))
    try:
        assert sorted(g.get_entity("Ana").observation_texts) == ["notes: likes tea", "price: 3"]
    finally:
        g.db.close()


def test_a_file_where_nothing_maps_to_a_name_is_refused_with_its_columns_shown(qtbot, window, tmp_path):
    w = window
    path = tmp_path / "list.csv"
    path.write_text("Person,Text\nAna,likes tea\n", encoding="utf-8")
    dialog = _preview(qtbot, w, path)
    assert dialog.import_button is None
    assert dialog.summary.text().startswith("Nothing in list.csv maps to a name")
    assert "Ignored:</b> person " in dialog.column_notes[0].text()
    dialog.reject()
    QApplication.processEvents()
    assert w.catalog.counts["entities"] == 0
    assert w.status.last_message.startswith("Nothing in list.csv maps to a name")
