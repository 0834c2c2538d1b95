"""File → Restore from backup: the backups with their dates, and one restored over the open graph."""

from __future__ import annotations

from limbic.engine.store.backup import backup_database, list_backups
from limbic.engine.store.db import Database
from limbic.engine.graph.graph import Graph
from tests.ui.conftest import make_window, search


def test_restore_a_backup_from_the_file_menu(qtbot, tmp_path):
    path = tmp_path / "kept.db"
    g = Graph(Database(path))
    g.upsert_entity("Before the mistake", "Note", ["kept in the backup"])
    backup_database(g.db, reason="manual")
    g.db.close()
    w = make_window(qtbot, path, wait_model=False)
    g2 = Graph(Database(path))  # another program deletes it after the backup
    g2.delete_entity("Before the mistake")
    g2.db.close()
    qtbot.waitUntil(lambda: w.catalog.counts["entities"] == 0, timeout=10_000)

    w.files.restore_backup_action.trigger()
    qtbot.waitUntil(lambda: w.files.backups_dialog is not None and w.files.backups_dialog.isVisible(), timeout=10_000)
    dialog = w.files.backups_dialog
    (only,) = list_backups(path)
    assert dialog.table.rowCount() == 1 and dialog.table.item(0, 1).text() == "taken by you"
    assert dialog.table.item(0, 0).text()[:4] == str(only.taken.astimezone().year)
    dialog._confirm = lambda backup: True
    with qtbot.waitSignal(w.job_ended, timeout=60_000) as ended:
        dialog.restore_button.click()
    assert ended.args == ["restore-backup", True]
    qtbot.waitUntil(lambda: w.catalog.counts["entities"] == 1, timeout=10_000)
    assert search(qtbot, w, "Before the mistake")[0].name == "Before the mistake"
    assert len(list_backups(path)) == 2  # the state it replaced was backed up first
