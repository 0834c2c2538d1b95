"""A revert from the Activity panel is previewed before it acts, refreshes the editor and the session's row,
clears the badge, and joins Edit → Undo (which brings the assistant's observations back); sessions that only
read are listed when asked for, and an assistant's refused writes are shown in its session."""

from __future__ import annotations

import anyio

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.service import activity
from tests.activity.writers import assistant, call, ok
from tests.ui.conftest import make_window, open_entity


def _observations(path, name):
    g = Graph(Database(path, readonly=True))
    try:
        return sorted(g.get_entity(name).observation_texts)
    finally:
        g.db.close()


def _alpha_writes(path):
    async def run():
        async with assistant(path, "alpha") as a:
            await ok(a, "add_observations", observations=[{"entityName": "X", "contents": ["a1"]}])
            await ok(a, "add_observations", observations=[{"entityName": "X", "contents": ["a2"]}])
    anyio.run(run)


def _editor_observations(editor):
    return sorted(editor.obs_list.item(i).text() for i in range(editor.obs_list.count()))


def _graph_with_x(path):
    """A graph file holding X with one observation, closed again."""
    g = Graph(Database(path))
    g.create_entity("X", "Thing", ["base"])
    g.db.close()


def _pick_alpha_session(qtbot, w):
    """Show the Activity panel and select alpha's session once it is listed; returns the panel."""
    w.activity.show()
    panel = w.activity.dock.panel
    qtbot.waitUntil(lambda: panel.data is not None and any(s.who == "alpha" for s in panel.data.sessions),
                    timeout=30_000)
    row = next(i for i in range(panel.tree.topLevelItemCount()) if panel.tree.topLevelItem(i).text(0).startswith("alpha"))
    panel.tree.setCurrentItem(panel.tree.topLevelItem(row))
    return panel


def test_a_session_revert_is_previewed_then_refreshes_everything_and_can_be_undone(qtbot, tmp_path):
    path = tmp_path / "g.db"
    _graph_with_x(path)
    w = make_window(qtbot, path, wait_model=False)
    _alpha_writes(path)
    qtbot.waitUntil(lambda: "2 unreviewed" in w.activity.badge.text(), timeout=30_000)
    editor = open_entity(qtbot, w, "X")
    qtbot.waitUntil(lambda: _editor_observations(editor) == ["a1", "a2", "base"], timeout=30_000)

    panel = _pick_alpha_session(qtbot, w)
    assert panel.revert_button.text() == "Revert this session…"
    panel.revert_button.click()

    # The preview comes first: it names what it takes back, and nothing has changed yet.
    qtbot.waitUntil(lambda: w.activity.preview_dialog is not None, timeout=30_000)
    preview = w.activity.preview_dialog
    taking = preview.taking()
    assert len(taking) == 2 and any("a1" in t for t in taking) and any("a2" in t for t in taking)
    assert _observations(path, "X") == ["a1", "a2", "base"]
    preview.take_button.click()

    qtbot.waitUntil(lambda: _observations(path, "X") == ["base"], timeout=30_000)
    # The open editor shows what the revert left, the row says it was taken back, the badge is gone.
    qtbot.waitUntil(lambda: _editor_observations(editor) == ["base"], timeout=30_000)
    qtbot.waitUntil(lambda: any(r.startswith("alpha") and "taken back by #" in r and "unreviewed" not in r
                                for r in panel.rows()), timeout=30_000)
    qtbot.waitUntil(lambda: not w.activity.badge.isVisible(), timeout=30_000)

    # Edit → Undo offers the revert and brings the assistant's observations back.
    assert w.undo.undo_action.isEnabled() and "revert of session" in w.undo.undo_action.text()
    w.undo.undo_action.trigger()
    qtbot.waitUntil(lambda: _observations(path, "X") == ["a1", "a2", "base"], timeout=30_000)
    qtbot.waitUntil(lambda: _editor_observations(editor) == ["a1", "a2", "base"], timeout=30_000)
    # The session's changes hold again: its row no longer says they were taken back.
    qtbot.waitUntil(lambda: any(r.startswith("alpha") and "taken back" not in r for r in panel.rows()),
                    timeout=30_000)


def test_leaving_the_preview_changes_nothing(qtbot, tmp_path):
    path = tmp_path / "g.db"
    _graph_with_x(path)
    w = make_window(qtbot, path, wait_model=False)
    _alpha_writes(path)
    panel = _pick_alpha_session(qtbot, w)
    panel.revert_button.click()
    qtbot.waitUntil(lambda: w.activity.preview_dialog is not None, timeout=30_000)
    w.activity.preview_dialog.cancel_button.click()
    assert w.activity.preview_dialog is None
    qtbot.waitUntil(lambda: not w.engine.busy_job, timeout=30_000)
    assert _observations(path, "X") == ["a1", "a2", "base"]
    assert not w.undo.undo_action.isEnabled()


def test_reading_sessions_are_hidden_until_asked_for_and_refused_writes_are_shown(qtbot, tmp_path):
    path = tmp_path / "g.db"
    g = Graph(Database(path))
    g.create_entity("X", "Thing", ["base"])
    activity.set_paused(g, "alpha", True)
    activity.set_paused(g, "gamma", True)
    g.db.close()

    async def refused(client, text):
        is_error, message, _ = await call(client, "add_observations",
                                          observations=[{"entityName": "X", "contents": [text]}])
        assert is_error and "paused" in message

    async def run():
        async with assistant(path, "reader") as r:
            await ok(r, "open_nodes", names=["X"])
        async with assistant(path, "alpha") as a:
            await ok(a, "open_nodes", names=["X"])  # its session begins with this read
            await refused(a, "a1")
            await refused(a, "a2")
        async with assistant(path, "gamma") as c:
            await refused(c, "c1")  # before any session of its own
    anyio.run(run)

    w = make_window(qtbot, path, wait_model=False)
    w.activity.show()
    panel = w.activity.dock.panel
    qtbot.waitUntil(lambda: panel.data is not None, timeout=30_000)
    titles = [panel.tree.topLevelItem(i).text(0) for i in range(panel.tree.topLevelItemCount())]
    assert not any(t.startswith("reader") for t in titles)  # it only read: not listed by default
    (alpha,) = [t for t in titles if t.startswith("alpha")]
    assert "2 writes refused" in alpha
    assert any(r.startswith("Refused 2 writes (paused)") for r in panel.rows())
    assert "“gamma”: Refused 1 write (paused)" in " ".join(titles)  # a row of the list, as its sessions are

    panel.reads.setChecked(True)
    qtbot.waitUntil(lambda: any(panel.tree.topLevelItem(i).text(0).startswith("reader")
                                for i in range(panel.tree.topLevelItemCount())), timeout=30_000)


def test_a_revert_that_takes_the_open_entity_back_empties_the_editor(qtbot, tmp_path):
    path = tmp_path / "g.db"
    Graph(Database(path)).db.close()

    async def run():
        async with assistant(path, "alpha") as a:
            await ok(a, "create_entities", entities=[{"name": "Y", "entityType": "Thing", "observations": ["y1"]}])
    anyio.run(run)
    w = make_window(qtbot, path, wait_model=False)
    editor = open_entity(qtbot, w, "Y")
    panel = _pick_alpha_session(qtbot, w)
    panel.revert_button.click()
    qtbot.waitUntil(lambda: w.activity.preview_dialog is not None, timeout=30_000)
    w.activity.preview_dialog.take_button.click()
    qtbot.waitUntil(lambda: editor.entity_id is None, timeout=30_000)
    assert "with the entity you had open" in w.status.last_message
