"""The window's side of private entities and assistants: a lock on a private entity, Ctrl+Shift+L and the palette
to switch it, File → Assistants to set what each assistant may do, and a word when a new assistant shows up."""

from __future__ import annotations

from PySide6.QtCore import Qt

from limbic.service import scope
from limbic.service.opening import open_graph
from tests.scopes.host import Host
from tests.ui.conftest import make_window, open_entity


def _private(path, name: str) -> int:
    opened = open_graph(path, None, load_model=False)
    try:
        return opened.graph.db.scalar("SELECT private FROM entities WHERE name = ?", (name,))
    finally:
        opened.close()


def _window_with_ada(qtbot, tmp_path):
    path = tmp_path / "ui.db"
    opened = open_graph(path, None, load_model=False)
    opened.graph.upsert_entity("Ada", "Person", ["chess"])
    opened.close()
    return path, make_window(qtbot, path, wait_model=False)


def test_the_lock_shortcut_and_palette_mark_the_open_entity_private(qtbot, tmp_path):
    path = tmp_path / "ui.db"
    opened = open_graph(path, None, load_model=False)
    opened.graph.upsert_entity("Therapy", "Health", ["Thursdays"])
    opened.close()
    w = make_window(qtbot, path, wait_model=False)
    editor = open_entity(qtbot, w, "Therapy")
    privacy = w.organise.privacy
    qtbot.waitUntil(lambda: not privacy.lock.isVisible() and not w.organise.private_action.isChecked(), timeout=10_000)
    assert w.organise.private_action.shortcut().toString() == "Ctrl+Shift+L"
    w.organise.private_action.trigger()
    qtbot.waitUntil(lambda: privacy.private and privacy.lock.isVisible(), timeout=10_000)
    assert editor.name_edit.actions()[-1] is privacy.lock  # the lock sits in the name field
    assert _private(path, "Therapy") == 1
    from limbic.ui.shell.palette import window_commands

    assert any("Private to assistants" in c.label for c in window_commands(w))
    privacy.lock.trigger()  # a click on the lock shows it to assistants again
    qtbot.waitUntil(lambda: not privacy.private and not privacy.lock.isVisible(), timeout=10_000)
    assert _private(path, "Therapy") == 0


def test_the_assistants_page_lists_sets_a_scope_and_a_new_assistant_is_said(qtbot, tmp_path):
    path, w = _window_with_ada(qtbot, tmp_path)
    host = Host(path, client="claude-code")
    try:
        host.ok("read_graph")
        w.organise.privacy.announce()
        qtbot.waitUntil(lambda: "claude-code" in (w.status.last_message or ""), timeout=10_000)
        from limbic.ui.dialogs.assistants_dialog import AssistantsDialog

        dialog = AssistantsDialog(w.engine, w)
        qtbot.addWidget(dialog)
        qtbot.waitUntil(lambda: dialog.table.rowCount() == 1, timeout=10_000)
        assert dialog.table.item(0, 0).text() == "claude-code"
        dialog.table.item(0, 2).setText("Decision, Session")
        dialog.table.item(0, 3).setText("nothing")
        dialog.table.item(0, 4).setCheckState(Qt.CheckState.Checked)
        dialog.default.setCurrentIndex(dialog.default.findData("read-only"))
        dialog.save()
        qtbot.waitUntil(lambda: "Saved" in dialog.message.text(), timeout=10_000)
        assert '"entities": []' in host.ok("read_graph")  # the running server follows at once
        access = host.run(scope.access_for, "claude-code")
        assert (access.read, access.write) == (("Decision", "Session"), "none")
        assert host.run(scope.default_choice) == "read-only"
        dialog.close()
    finally:
        host.close()


def test_settings_has_an_assistants_page_that_opens_what_each_may_see(qtbot):
    from limbic import config
    from limbic.ui.dialogs.settings_dialog import SettingsDialog
    from PySide6.QtWidgets import QPushButton

    opened = []
    dialog = SettingsDialog(config.Settings(), "", None, assistants=lambda: opened.append(True))
    qtbot.addWidget(dialog)
    dialog.findChild(QPushButton, "settingsAssistants").click()
    assert opened == [True]
    plain = SettingsDialog(config.Settings(), "", None)  # no graph to speak of: no such page
    qtbot.addWidget(plain)
    assert plain.findChild(QPushButton, "settingsAssistants") is None


def test_the_assistants_page_names_a_held_writes_tool_in_words(qtbot, tmp_path):
    path, w = _window_with_ada(qtbot, tmp_path)
    host = Host(path, client="cursor")
    try:
        _, reply = host.call("add_observations", observations=[
            {"entityName": "Ada", "contents": ["token sk-proj-4fT9kQ2mXc8vLz7pR1sYw3bN6hJ0aE5dG2uK9oP"]}])
        assert "Held" in reply
        from limbic.ui.dialogs.assistants_dialog import AssistantsDialog

        dialog = AssistantsDialog(w.engine, w)
        qtbot.addWidget(dialog)
        qtbot.waitUntil(lambda: dialog.held_table.rowCount() == 1, timeout=10_000)
        assert dialog.held_table.item(0, 2).text() == "add observations"
        assert "sk-proj" not in " ".join(dialog.held_table.item(0, c).text() for c in range(4))
        dialog.close()
    finally:
        host.close()
