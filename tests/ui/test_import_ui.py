"""File → Import of a memory engine database and of a vault; the editor's status badge, history and reflections."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QPalette

from limbic.ui.editor.entity_history import KIND_ROLE
from tests.service.test_seed_db import make_seed
from tests.ui.conftest import open_entity

JOB_MS = 120_000
VAULT = Path(__file__).resolve().parents[1] / "fixtures" / "vault_obsidian_tasks"


def test_seed_database_through_the_menu_then_status_history_and_reflections(qtbot, window, tmp_path):
    w = window
    source = make_seed(tmp_path / "memory.db")
    w.files.ask_open_path = lambda title, file_filter: str(source)
    with qtbot.waitSignal(w.job_ended, timeout=JOB_MS) as ended:
        w.files.import_action.trigger()
    assert ended.args == ["import", True], w.status.last_message
    assert "4 entities read (4 new)" in w.status.last_message
    qtbot.waitUntil(lambda: w.catalog.counts["entities"] == 4)

    ed = open_entity(qtbot, w, "CachorroSpace")
    assert ed.status_badge.status() == "active"
    assert [ed.obs_list.item(i).text() for i in range(ed.obs_list.count())] == [
        "Built with Astro Starlight", "Accent colour: teal (#2dd4bf)"]  # the superseded one is history
    panel = ed.history_panel
    assert panel.isVisibleTo(ed) and panel.items("superseded") == []
    panel.show_superseded.setChecked(True)
    assert len(panel.items("superseded")) == 1 and panel.items("superseded")[0].startswith("Accent colour: purple")
    reflections = panel.items("reflection")
    assert len(reflections) == 2 and "paleta serena" in reflections[0] and "Colaboración fluida" in reflections[1]
    ended_rel = panel.items("ended")
    assert ended_rel and ended_rel[0].startswith("producido_por ← Viejo blog (ended 2025-01-02")
    greyed = [panel.list.item(i) for i in range(panel.list.count()) if panel.list.item(i).data(KIND_ROLE) == "ended"]
    assert greyed[0].foreground().color() == panel.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)

    ed = open_entity(qtbot, w, "Viejo blog")
    assert ed.status_badge.status() == "archived" and ed.status_badge.currentText() == "Archived"
    # Changing the status is saved at once and the editor shows it reloaded.
    ed.status_badge.setCurrentIndex(ed.status_badge.findData("done"))
    with qtbot.waitSignal(w.entity_shown, timeout=30_000):
        ed.status_badge.activated.emit(ed.status_badge.currentIndex())
    assert ed.status_badge.status() == "done"
    ed = open_entity(qtbot, w, "Ana Pérez")
    ed = open_entity(qtbot, w, "Viejo blog")
    assert ed.status_badge.status() == "done"


def test_vault_through_the_folder_menu(qtbot, window):
    w = window
    w.files.ask_folder = lambda title: str(VAULT)
    with qtbot.waitSignal(w.job_ended, timeout=JOB_MS) as ended:
        w.files.import_folder_action.trigger()
    assert ended.args == ["import", True], w.status.last_message
    assert "13 linked notes do not exist" in w.status.last_message
    qtbot.waitUntil(lambda: w.catalog.counts["entities"] == 10 and "Core Statuses" in w.catalog.names.values())


def test_a_folder_that_cannot_be_imported_is_one_sentence(qtbot, window, tmp_path):
    w = window
    (tmp_path / "v").mkdir()
    (tmp_path / "v" / "Bad.md").write_text("---\ntype: x\nbroken line\n---\nbody\n", "utf-8")
    w.files.ask_folder = lambda title: str(tmp_path / "v")
    with qtbot.waitSignal(w.error_shown, timeout=JOB_MS) as shown:
        w.files.import_folder_action.trigger()
    assert "Bad.md, line 3: the front matter cannot be read" in shown.args[0]
    qtbot.waitUntil(lambda: not w.status.progress.isVisible())
    assert w.catalog.counts["entities"] == 0
