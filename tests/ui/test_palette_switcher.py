"""Keys that Obsidian and VS Code users expect: the quick switcher, the command palette, no clashes."""

from __future__ import annotations

from collections import defaultdict

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut

from tests.ui.conftest import make_window

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


def window_keys(window) -> dict[str, list[str]]:
    """Every key sequence that reaches the window as a shortcut, with what it does."""
    keys: dict[str, list[str]] = defaultdict(list)
    for action in window.findChildren(QAction):
        for seq in action.shortcuts():
            if not seq.isEmpty() and action.shortcutContext() != Qt.ShortcutContext.WidgetShortcut:
                keys[seq.toString()].append(action.text().replace("&", ""))
    for shortcut in window.findChildren(QShortcut):
        if shortcut.context() != Qt.ShortcutContext.WidgetShortcut and shortcut.parent().window() is window:
            for seq in shortcut.keys():
                keys[seq.toString()].append(f"shortcut on {shortcut.parent().objectName() or type(shortcut.parent()).__name__}")
    return keys


def test_no_two_commands_share_a_key_and_the_expected_keys_are_there(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path / "keys.db", wait_model=False)
    w.graph.graph_panel()  # its dock's actions count too
    keys = window_keys(w)
    clashes = {k: v for k, v in keys.items() if len(v) > 1}
    assert not clashes, clashes
    assert keys["Ctrl+O"] == ["Quick switcher…"] and keys["Ctrl+P"] == ["Quick switcher…"]
    assert keys["Ctrl+Shift+P"] == ["Command palette…"]
    assert keys["Ctrl+Shift+O"] == ["Open database…"]
    assert w.organise.pin_action.shortcut().toString() == "Ctrl+D"
    assert {"Ctrl+=", "Ctrl++", "Ctrl+-", "Ctrl+0"} <= set(keys)


def test_the_shortcut_sheet_lists_a_key_of_every_command(qtbot, tmp_path):
    import re

    from limbic.ui.dialogs.dialogs import SHORTCUTS

    # As Qt spells them ("Ctrl+Delete" is "Ctrl+Del").
    listed = {QKeySequence(k).toString() or k for keys, _ in SHORTCUTS for k in re.split(r" or | / |, ", keys)}
    w = make_window(qtbot, tmp_path / "sheet.db", wait_model=False)
    w.graph.graph_panel()
    missing = []
    for action in w.findChildren(QAction):
        seqs = [s.toString() for s in action.shortcuts() if not s.isEmpty()]
        if seqs and not set(seqs) & listed and action.shortcutContext() != Qt.ShortcutContext.WidgetShortcut:
            missing.append((action.text().replace("&", ""), seqs))
    assert not missing, missing


def test_shortcut_sheet_lists_the_new_keys():
    from limbic.ui.dialogs.dialogs import SHORTCUTS

    sheet = dict(SHORTCUTS)
    assert "Quick switcher" in sheet["Ctrl+O or Ctrl+P"] and "Command palette" in sheet["Ctrl+Shift+P"]
    assert "Pin" in sheet["Ctrl+D"] and "database" in sheet["Ctrl+Shift+O"]
    assert not any(keys == "Ctrl+P" or keys == "Ctrl+O" for keys, _ in SHORTCUTS)


def _type(qtbot, picker, text: str) -> None:
    with qtbot.waitSignal(picker.filled, timeout=10_000):
        picker.field.setText(text)
    qtbot.waitUntil(lambda: picker.field.text() == text)


def test_command_palette_by_keyboard_lists_every_action_runs_with_enter_and_esc_closes(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path / "palette.db", wait_model=False)
    w.search_bar.focus()
    qtbot.keyClick(w.search_bar.edit, Qt.Key.Key_P, CTRL | SHIFT)
    p = w.palette
    qtbot.waitUntil(p.isVisible, timeout=5_000)
    assert p.field.hasFocus()
    labels = p.labels()
    assert "Organise: Pin entity" in labels and "File: Import…" in labels and "Help: Keyboard shortcuts" in labels
    details = {p.list.item(i).text(): p.list.item(i).data(Qt.ItemDataRole.UserRole + 2) for i in range(p.list.count())}
    assert details["Organise: Pin entity"] == QKeySequence("Ctrl+D").toString(QKeySequence.SequenceFormat.NativeText)
    assert "Command palette…" not in " ".join(labels)  # it does not list itself
    # Fuzzy: a typo still finds the command; Down/Up move; Enter runs it.
    qtbot.keyClicks(p.field, "brwse ent")
    qtbot.waitUntil(lambda: p.labels()[:1] == ["Organise: Browse entities…"], timeout=5_000)
    qtbot.keyClick(p.field, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: w.organise.browser is not None and w.organise.browser.isVisible(), timeout=5_000)
    assert not p.isVisible()
    w.organise.browser.close()
    # Esc closes without running anything.
    w.palette_action.trigger()
    qtbot.waitUntil(p.isVisible, timeout=5_000)
    qtbot.keyClicks(p.field, "quit")
    qtbot.keyClick(p.field, Qt.Key.Key_Escape)
    assert not p.isVisible() and w.isVisible()


def test_palette_greys_what_cannot_run_now(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path / "grey.db", wait_model=False)
    w.palette.popup()
    _type(qtbot, w.palette, "redo")
    from limbic.ui.common.picker import ENABLED_ROLE

    item = w.palette.list.item(0)
    assert item.text() == "Edit: Redo" and item.data(ENABLED_ROLE) is False
    assert w.palette.list.currentRow() == 0  # the best match stays selected, greyed
    qtbot.keyClick(w.palette.field, Qt.Key.Key_Return)  # nothing to run: the palette stays and says why
    assert w.palette.isVisible() and "not available now" in w.palette.hint.text()
    w.palette.hide()


def test_quick_switcher_by_keyboard_typo_tolerant_and_recent_first(qtbot, sample_window):
    w = sample_window
    s = w.switcher
    w.search_bar.focus()
    for key, mods in ((Qt.Key.Key_P, CTRL), (Qt.Key.Key_O, CTRL)):
        qtbot.keyClick(w.search_bar.edit, key, mods)
        qtbot.waitUntil(s.isVisible, timeout=5_000)
        assert s.field.hasFocus()
        qtbot.keyClick(s.field, Qt.Key.Key_Escape)
        assert not s.isVisible()
    qtbot.keyClick(w.search_bar.edit, Qt.Key.Key_P, CTRL)
    qtbot.waitUntil(s.isVisible, timeout=5_000)
    _type(qtbot, s, "marta quintro")
    assert s.labels()[0] == "Marta Quintero"
    with qtbot.waitSignal(w.entity_shown, timeout=30_000):
        qtbot.keyClick(s.field, Qt.Key.Key_Return)
    assert w.editor.name_edit.text() == "Marta Quintero" and not s.isVisible()
    with qtbot.waitSignal(w.entity_shown, timeout=30_000):
        w.open_entity("Tide Clock", record=True)
    with qtbot.waitSignal(s.filled, timeout=10_000):
        w.switcher_action.trigger()
    assert s.labels()[:2] == ["Tide Clock", "Marta Quintero"]  # the last opened first
    _type(qtbot, s, "harbr api")
    assert s.labels()[0] == "Harbor API"
    qtbot.keyClick(s.field, Qt.Key.Key_Down)  # the next match, by keyboard
    second = s.labels()[1]
    with qtbot.waitSignal(w.entity_shown, timeout=30_000):
        qtbot.keyClick(s.field, Qt.Key.Key_Return)
    assert w.editor.name_edit.text() == second


def test_the_manual_lists_every_shortcut_of_the_sheet():
    from pathlib import Path

    from limbic.ui.dialogs.dialogs import SHORTCUTS

    manual = (Path(__file__).resolve().parents[2] / "docs" / "app.md").read_text(encoding="utf-8")
    assert [row for row in SHORTCUTS if f"| {row[0]} | {row[1]} |" not in manual] == []


def test_palette_ranks_commands_whose_every_word_matches_first_and_knows_their_other_names(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path / "rank.db", wait_model=False)
    p = w.palette
    p.chosen.disconnect(p.run)  # the test sees what Enter picks without opening the export's file dialog
    picked = []
    p.chosen.connect(picked.append)
    w.palette_action.trigger()
    qtbot.waitUntil(p.isVisible, timeout=5_000)
    _type(qtbot, p, "export csv")
    assert p.labels()[0] == "File: Export as CSV…"
    assert "File: Export JSONL…" not in p.labels()  # it lacks "csv": not offered beside a command that has both
    qtbot.keyClick(p.field, Qt.Key.Key_Return)
    assert [a.text().replace("&", "") for a in picked] == ["Export as CSV…"]
    w.palette_action.trigger()
    qtbot.waitUntil(p.isVisible, timeout=5_000)
    _type(qtbot, p, "dupl")  # a keyword: Memory health is where duplicates are found
    assert p.labels()[:1] == ["Organise: Memory health…"]
    _type(qtbot, p, "dark")  # no command is about a dark theme; "Markdown" only looks like it
    assert "File: Export as Markdown…" not in p.labels()
    _type(qtbot, p, "backup")
    assert p.labels()[0] == "File: Back up now"
    p.hide()
