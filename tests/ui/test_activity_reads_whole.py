"""The Activity panel reads whole on a 1366-pixel screen and speaks in words, never in the log's identifiers."""

from __future__ import annotations

import re

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QComboBox, QLabel

from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.service import activity
from tests.ui.conftest import make_window

SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")  # add_observations, exchange_op, import_any
RAW_ORIGIN = re.compile(r"\b(?:sync|assistant|app|cli|import):\w")  # sync:desktop


def _graph_with_every_writer(path) -> None:
    g = Graph(Database(path))
    try:
        activity.set_origin(g, "app")
        with g.db.activity.using("save_entity"):
            g.upsert_entity("restic", "Tool", ["Backs up the laptop every night to the NAS in the hallway"])
        with g.db.activity.session_as("import", "people.jsonl"), g.db.activity.using("import_any"):
            g.upsert_entity("Marta Quintero", "Person", ["Tech lead of the payments team"])
        with g.db.activity.session_as("sync:desktop"), g.db.activity.using("exchange_op"):
            g.add_observations("restic", ["Prunes weekly, keeping 7 daily, 4 weekly and 12 monthly snapshots"])
        activity.set_origin(g, "assistant", "Claude Desktop", "0.9")
        with g.db.activity.using("add_observations"):
            g.add_observations("restic", ["Assistant note: the repository password lives in the GPG-encrypted file "
                                          "next to the backup script, and the NAS share is mounted at boot"])
    finally:
        g.db.close()


def _texts(panel) -> list[str]:
    out = []
    tree = panel.tree
    stack = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    while stack:
        item = stack.pop()
        item.setExpanded(True)
        out += [item.text(0), re.sub(r"<[^>]+>", "", item.toolTip(0))]
        stack += [item.child(i) for i in range(item.childCount())]
    out += [label.text() for label in panel.findChildren(QLabel)]
    for combo in panel.findChildren(QComboBox):
        out += [combo.itemText(i) for i in range(combo.count())]
    return out


def test_no_internal_identifier_and_every_row_whole_at_1366(qtbot, tmp_path):
    path = tmp_path / "g.db"
    _graph_with_every_writer(path)
    w = make_window(qtbot, path, wait_model=False)
    w.resize(1366, 706)
    w.activity.show()
    panel = w.activity.dock.panel
    qtbot.waitUntil(lambda: panel.data is not None and len(panel.data.sessions) >= 3, timeout=30_000)
    texts = _texts(panel)
    qtbot.wait(200)  # the opened sessions' changes read and laid out
    texts = _texts(panel)
    joined = "\n".join(texts)
    assert "Claude Desktop" in joined and "desktop (another device)" in joined
    assert SNAKE.findall(joined) == [], joined
    assert RAW_ORIGIN.findall(joined) == [], joined
    # Every row is drawn whole: as tall as its text wrapped at the width it has.
    tree = panel.tree
    qtbot.waitUntil(lambda: 0 < tree.columnWidth(0) <= tree.viewport().width())  # the column fits the panel
    qtbot.wait(100)  # and the rows are wrapped at it
    metrics = tree.fontMetrics()
    stack = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    checked = 0
    while stack:
        item = stack.pop()
        stack += [item.child(i) for i in range(item.childCount())]
        rect = tree.visualItemRect(item)
        if not rect.isValid():
            continue
        room = min(rect.width(), tree.viewport().width() - rect.x()) - 8  # the cell less its padding
        needed = metrics.boundingRect(QRect(0, 0, room, 10_000), int(Qt.TextFlag.TextWordWrap), item.text(0))
        assert needed.height() <= rect.height() + 2, (item.text(0), rect, needed, tree.viewport().width(), tree.columnWidth(0), tree.width())
        assert metrics.horizontalAdvance(item.text(0)) <= room or rect.height() > metrics.height() + 4, item.text(0)
        checked += 1
    assert checked >= 6
