"""Private to assistants: the open entity's lock in its name field, Organise → Private to assistants (Ctrl+Shift+L,
and so in the command palette), and the window saying when a new assistant has used the graph."""

from __future__ import annotations

from PySide6.QtCore import QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QAction, QColor, QIcon, QPainter, QPainterPath, QPen, QPixmap
from PySide6.QtWidgets import QLineEdit

from limbic.service import scope
from limbic.ui.common.i18n import translate

SHORTCUT = "Ctrl+Shift+L"


def lock_icon(size: int = 32, colour: QColor | None = None) -> QIcon:
    """A padlock, drawn (no font or image file needed)."""
    pix = QPixmap(size, size)
    pix.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pix)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    ink = colour or QColor("#b7791f")
    painter.setPen(QPen(ink, size / 10))
    shackle = QPainterPath()
    shackle.moveTo(QPointF(size * 0.32, size * 0.48))
    shackle.lineTo(QPointF(size * 0.32, size * 0.32))
    shackle.arcTo(QRectF(size * 0.32, size * 0.12, size * 0.36, size * 0.36), 180, -180)
    shackle.lineTo(QPointF(size * 0.68, size * 0.48))
    painter.drawPath(shackle)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(ink)
    painter.drawRoundedRect(QRectF(size * 0.2, size * 0.46, size * 0.6, size * 0.44), size * 0.08, size * 0.08)
    painter.end()
    return QIcon(pix)


class PrivacyControl(QObject):
    """The open entity's private mark: shown as a lock, switched from the Organise menu or by clicking the lock."""

    def __init__(self, engine, editor, status, hooks) -> None:
        super().__init__(hooks.parent)
        self.engine, self.editor, self.status, self.hooks = engine, editor, status, hooks
        self.private = False
        self.lock = QAction(lock_icon(), translate("PrivacyControl", "Private: no assistant sees this entity"),
                            editor.name_edit)
        self.lock.setToolTip(translate("PrivacyControl", "Private: no assistant sees this entity or anything on it. "
                                                         "Click, or press {keys}, to show it to assistants again.")
                             .format(keys=SHORTCUT))
        self.lock.setVisible(False)
        self.lock.triggered.connect(self.toggle)
        editor.name_edit.addAction(self.lock, QLineEdit.ActionPosition.TrailingPosition)
        self.action: QAction | None = None

    def build(self, menu) -> QAction:
        """Organise → Private to assistants."""
        self.action = self.hooks.add_action(
            menu, translate("PrivacyControl", "Private to &assistants"), self.toggle, SHORTCUT,
            tip=translate("PrivacyControl", "No assistant sees the open entity, its observations or its relations"))
        self.action.setCheckable(True)
        return self.action

    def update(self) -> None:
        """Read the open entity's mark (a new entity shown)."""
        entity_id = self.editor.entity_id
        if entity_id is None:
            self._show(False)
            return
        self.engine.read("private-mark", scope.is_private, entity_id, on_done=self._show)

    def _show(self, private: bool) -> None:
        self.private = bool(private)
        self.lock.setVisible(self.private)
        self.editor.name_edit.setAccessibleDescription(
            translate("PrivacyControl", "Private to assistants") if self.private else "")
        if self.action is not None:
            self.action.setChecked(self.private)

    def toggle(self) -> None:
        """Mark the open entity private, or show it to assistants again."""
        entity_id = self.editor.entity_id
        if entity_id is None:
            self.status.say(translate("PrivacyControl", "Open an entity to make it private."), 4000)
            self._show(False)
            return
        if self.hooks.refused_during_job(translate("PrivacyControl", "Marking private")):
            self._show(self.private)
            return
        private = not self.private
        name = self.editor.name_edit.text()

        def done(_changed: bool) -> None:
            self._show(private)
            self.status.say(
                translate("PrivacyControl", "“{name}” is private: no assistant sees it.").format(name=name) if private
                else translate("PrivacyControl", "“{name}” is no longer private: assistants see it as their scope "
                                                 "allows.").format(name=name), 6000)

        self.engine.run("private", scope.set_private, entity_id, private,
                        what=translate("PrivacyControl", "marking the entity private"), on_done=done,
                        on_failed=lambda f: self.hooks.failed(translate("PrivacyControl", "marking the entity private"),
                                                              f.message))

    def announce(self) -> None:
        """Say once when an assistant has used the graph for the first time (looked for every few seconds)."""
        if self.hooks.catalog() is None:
            return
        self.engine.read("assistants-new", scope.unannounced, on_done=self._new)

    def _new(self, names: list[str]) -> None:
        if not names:
            return
        self.engine.run("assistants-announced", scope.mark_announced, names, on_done=lambda _n: None,
                        what=translate("PrivacyControl", "noting the new assistants"))
        self.status.say(translate("PrivacyControl", "A new assistant used this graph: {names}. What each may read "
                                                    "and write: File → Assistants….").format(names=", ".join(names)),
                        20_000)

    def watch(self, seconds: float = 5.0) -> None:
        """Look for new assistants now and every ``seconds``."""
        from PySide6.QtCore import QTimer

        self.timer = QTimer(self)
        self.timer.setInterval(int(seconds * 1000))
        self.timer.timeout.connect(self.announce)
        self.timer.start()
