"""The Activity panel's words for what the log stores as names: tools, origins and sync devices.

The log keeps the names programs use ("add_observations", "exchange_op", "sync:desktop"); a person reads
"added observations", "sync" and "desktop (sync)". No internal identifier reaches the panel's text.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QRect, QSize, Qt, QT_TRANSLATE_NOOP, QTimer
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QHeaderView, QStyledItemDelegate, QTreeWidget

SYNC_PREFIX = "sync:"

TOOLS = {
    "add_observations": QT_TRANSLATE_NOOP("ActivityWords", "added observations"),
    "create_entities": QT_TRANSLATE_NOOP("ActivityWords", "created entities"),
    "create_relations": QT_TRANSLATE_NOOP("ActivityWords", "related entities"),
    "delete_entities": QT_TRANSLATE_NOOP("ActivityWords", "deleted entities"),
    "delete_observations": QT_TRANSLATE_NOOP("ActivityWords", "removed observations"),
    "delete_relations": QT_TRANSLATE_NOOP("ActivityWords", "removed relations"),
    "import_any": QT_TRANSLATE_NOOP("ActivityWords", "import"),
    "exchange_op": QT_TRANSLATE_NOOP("ActivityWords", "sync"),
    "save_entity": QT_TRANSLATE_NOOP("ActivityWords", "saved in the editor"),
}
ORIGINS = {
    "assistant": QT_TRANSLATE_NOOP("ActivityWords", "assistant"),
    "app": QT_TRANSLATE_NOOP("ActivityWords", "you, in Limbic"),
    "cli": QT_TRANSLATE_NOOP("ActivityWords", "command line"),
    "import": QT_TRANSLATE_NOOP("ActivityWords", "import"),
}

REFUSALS = {  # why the log says an assistant's writes were refused
    "paused": QT_TRANSLATE_NOOP("ActivityWords", "paused"),
    "assistants may not write": QT_TRANSLATE_NOOP("ActivityWords", "assistants may not write"),
    "outside its scope": QT_TRANSLATE_NOOP("ActivityWords", "outside its scope"),
}


def _tr(text: str) -> str:
    return QCoreApplication.translate("ActivityWords", text)


def plain(name: str) -> str:
    """A program's name in words: its underscores and a trailing "_op" gone ("merge_entities" → "merge entities")."""
    name = name.removesuffix("_op").removesuffix("_any")
    return name.replace("_", " ").replace(":", " ").strip()


def tool_words(tool: str | None) -> str:
    """What a change's tool did, in words ("add_observations" → "added observations")."""
    if not tool:
        return QCoreApplication.translate("ActivityWords", "change")
    return _tr(TOOLS[tool]) if tool in TOOLS else plain(tool)


def origin_words(origin: str) -> str:
    """Who wrote, in words: "assistant", "you, in Limbic", "sync" (for "sync:desktop")."""
    if origin.startswith(SYNC_PREFIX):
        return QCoreApplication.translate("ActivityWords", "sync")
    return _tr(ORIGINS[origin]) if origin in ORIGINS else plain(origin)


def refusal_words(why: str) -> str:
    """Why writes were refused, in words ("outside its scope"); as the log has it when not known."""
    return _tr(REFUSALS[why]) if why in REFUSALS else why


def who_words(who: str) -> str:
    """A session's writer: an assistant's name as it gave it, a device by its name ("sync:desktop" → "desktop")."""
    if who.startswith(SYNC_PREFIX + "="):  # this device's own changes, put in their place again by sync
        return QCoreApplication.translate("ActivityWords", "{device} (this device, in clock order again)").format(
            device=who[len(SYNC_PREFIX) + 1:] or QCoreApplication.translate("ActivityWords", "this device"))
    if who.startswith(SYNC_PREFIX):
        return QCoreApplication.translate("ActivityWords", "{device} (another device)").format(device=who[len(SYNC_PREFIX):] or QCoreApplication.translate("ActivityWords", "a device"))
    return who


def writer_words(client: str, origin: str) -> str:
    """Who wrote, named once: an assistant by its name, a device by its name ("desktop (another device)"),
    else the kind of program ("command line", "you, in Limbic")."""
    if client:
        return client
    return who_words(origin) if origin.startswith(SYNC_PREFIX) else origin_words(origin)


def wrapped_tip(text: str) -> str:
    """A tooltip Qt wraps at a readable width instead of running off the screen (rich text wraps; plain does not)."""
    return "<p style='white-space:pre-wrap'>" + html.escape(text) + "</p>"


def wrap_rows(tree: QTreeWidget) -> None:
    """A one-column tree whose rows wrap at its width (and are laid out again when the width changes).

    Qt measures a wrapped row at the column's whole width and draws it at that width less the row's indent, so
    a row one level down was cut; the delegate here measures it at the width it is drawn at.
    """
    class _Wrapped(QStyledItemDelegate):
        def sizeHint(self, option, index) -> QSize:  # noqa: N802 - Qt API
            depth, parent = 0, index.parent()
            while parent.isValid():
                depth, parent = depth + 1, parent.parent()
            indent = tree.indentation() * (depth + (1 if tree.rootIsDecorated() else 0))
            width = max(40, tree.columnWidth(0) - indent - 8)
            text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
            font = index.data(Qt.ItemDataRole.FontRole)
            metrics = tree.fontMetrics() if font is None else QFontMetrics(font)
            high = metrics.boundingRect(QRect(0, 0, width, 100_000), int(Qt.TextFlag.TextWordWrap), text).height()
            return QSize(width, max(high, metrics.height()) + 4)

    tree.setItemDelegate(_Wrapped(tree))
    tree.setUniformRowHeights(False)
    tree.setWordWrap(True)
    tree.setTextElideMode(Qt.TextElideMode.ElideNone)
    tree.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    tree.header().setStretchLastSection(False)
    tree.header().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)

    def fit() -> None:  # the one column as wide as the view (a scroll bar coming or going too), rows wrapped at it
        if tree.header().sectionSize(0) != tree.viewport().width():
            tree.header().resizeSection(0, tree.viewport().width())
            tree.doItemsLayout()

    class _Relayout(QObject):
        def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt API
            if event.type() == QEvent.Type.Resize and event.oldSize().width() != event.size().width():
                QTimer.singleShot(0, tree, fit)
            return False

    tree.viewport().installEventFilter(_Relayout(tree))
