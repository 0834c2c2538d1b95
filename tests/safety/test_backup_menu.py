"""File → Back up now takes a rolling backup on the engine's thread."""

from __future__ import annotations

from limbic.engine.store.backup import list_backups
from limbic.engine.store.db import Database
from limbic.engine.graph.graph import Graph
from tests.ui.conftest import make_window, no_leaked_threads  # noqa: F401  (fixture: fails on leaked threads)


def test_back_up_now_from_the_file_menu(qtbot, tmp_path):
    path = tmp_path / "menu.db"
    g = Graph(Database(path))
    g.upsert_entity("Kept", "T", ["in the backup"])
    g.db.close()
    w = make_window(qtbot, path, wait_model=False)
    # The model may finish embedding "Kept" meanwhile: that job's end is not the backup's.
    with qtbot.waitSignal(w.job_ended, timeout=60_000, check_params_cb=lambda kind, ok: kind == "backup") as ended:
        w.files.backup_action.trigger()
    assert ended.args == ["backup", True]
    (backup,) = list_backups(path)
    assert str(backup.path) in w.status.last_message
    copy = Graph(Database(backup.path, readonly=True))
    assert copy.get_entity("Kept").observation_texts == ["in the backup"]
    copy.db.close()
