"""The Activity panel on two real assistants (`limbic mcp` processes): sessions listed, a change reverted,
the conflict dialog naming the other assistant's write; the badge; who changed an entity, in the editor."""

from __future__ import annotations

import anyio

from limbic.engine.store.db import Database
from limbic.engine.graph.graph import Graph
from tests.activity.writers import assistant, ok
from tests.ui.conftest import make_window, open_entity


def _observations(path, name):
    g = Graph(Database(path, readonly=True))
    try:
        return sorted(g.get_entity(name).observation_texts)
    finally:
        g.db.close()


def _assistants(path):
    async def run():
        async with assistant(path, "alpha") as a:
            await ok(a, "create_entities", entities=[{"name": "X", "entityType": "Thing", "observations": ["base"]}])
            await ok(a, "add_observations", observations=[{"entityName": "X", "contents": ["a1"]}])
        async with assistant(path, "beta") as b:
            await ok(b, "add_observations", observations=[{"entityName": "X", "contents": ["b1"]}])
    anyio.run(run)


def _select(panel, needle: str):
    tree = panel.tree
    for i in range(tree.topLevelItemCount()):
        top = tree.topLevelItem(i)
        if needle in top.text(0):
            tree.setCurrentItem(top)
            return top
        for j in range(top.childCount()):
            if needle in top.child(j).text(0):
                tree.setCurrentItem(top.child(j))
                return top.child(j)
    raise AssertionError(f"no row with {needle!r} in {panel.rows()}")


def test_the_panel_lists_both_sessions_reverts_one_change_and_shows_the_conflict(qtbot, tmp_path):
    path = tmp_path / "g.db"
    Graph(Database(path)).db.close()
    w = make_window(qtbot, path, wait_model=False)
    _assistants(path)
    qtbot.waitUntil(lambda: w.activity.badge.isVisible() and "3 unreviewed" in w.activity.badge.text(), timeout=30_000)
    w.activity.show()
    panel = w.activity.dock.panel
    qtbot.waitUntil(lambda: panel.data is not None and len(panel.data.sessions) == 2, timeout=30_000)
    titles = [panel.tree.topLevelItem(i).text(0) for i in range(2)]
    assert titles[0].startswith("beta") and titles[1].startswith("alpha")

    _select(panel, "alpha")
    panel.tree.currentItem().setExpanded(True)
    _select(panel, "“a1”")
    assert panel.revert_button.text() == "Revert this change…"
    panel.revert_button.click()
    qtbot.waitUntil(lambda: w.activity.preview_dialog is not None, timeout=30_000)
    w.activity.preview_dialog.take_button.click()
    try:
        qtbot.waitUntil(lambda: _observations(path, "X") == ["b1", "base"], timeout=30_000)
    except Exception:
        raise AssertionError(f"{w.status.last_message!r} {w.activity.conflict_dialog!r} {panel.selected()!r} {panel.rows()!r}")
    try:
        qtbot.waitUntil(lambda: any("taken back by" in r for r in panel.rows()), timeout=30_000)
    except Exception:
        raise AssertionError(f"{w.status.last_message!r} {w.activity.conflict_dialog!r} {panel.selected()!r} {panel.rows()!r}")

    _select(panel, "alpha")
    assert panel.revert_button.text() == "Revert this session…"
    panel.revert_button.click()
    # The preview names what it would keep: beta's observation on the entity alpha created.
    qtbot.waitUntil(lambda: w.activity.preview_dialog is not None, timeout=30_000)
    preview = w.activity.preview_dialog
    (kept,) = preview.kept
    assert "b1" in kept and "beta" in kept
    preview.cancel_button.click()  # leave everything as it is
    assert _observations(path, "X") == ["b1", "base"]

    panel.review_all_button.click()
    qtbot.waitUntil(lambda: not w.activity.badge.isVisible(), timeout=30_000)
    ed = open_entity(qtbot, w, "X")
    changes = ed.history_panel.items("change")
    assert any(line.startswith("beta, ") and "b1" in line for line in changes)
    assert any(line.startswith("alpha, ") and "created “X”" in line for line in changes)
