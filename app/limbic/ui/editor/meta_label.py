"""The editor's line of dates under the entity's status: always one line, as much of it as the editor's width shows."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QLabel, QWidget
from limbic.ui.common.i18n import translate


def short_dates(created: str, updated: str) -> tuple[str, str]:
    """When the entity was created and updated, to the minute (the day once when it is the same); with
    and without the time zone."""
    updated = updated[11:16] if updated[:10] == created[:10] else updated[:16]
    return translate("MetaLabel", "created {value} · updated {updated} UTC").format(value=created[:16], updated=updated), translate("MetaLabel", "created {value} · updated {updated}").format(value=created[:16], updated=updated)


class MetaLabel(QLabel):
    """The dates to the second and the id when they fit on one line, else the dates to the minute (then cut).

    Wrapped, the dates took two or three lines of a narrow editor (the graph panel open beside it on a
    laptop's screen), rows the observation and relation lists under it were short of. The tooltip has it all.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, objectName="metaLabel")
        self.forms: tuple[str, ...] = ("",)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)

    def set_forms(self, *forms: str) -> None:
        """The texts from the longest to the shortest; the first is also the tooltip."""
        self.forms = forms or ("",)
        self.setToolTip(forms[0] if len(forms) > 1 else "")
        self._fit()
        self.updateGeometry()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return QSize(self.fontMetrics().horizontalAdvance(self.forms[0]) + 2, self.fontMetrics().height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return QSize(0, self.fontMetrics().height())

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        fm, width = self.fontMetrics(), max(0, self.width() - 2)
        shown = next((f for f in self.forms if fm.horizontalAdvance(f) <= width), None)
        shown = shown if shown is not None else fm.elidedText(self.forms[-1], Qt.TextElideMode.ElideRight, width)
        if shown != self.text():
            super().setText(shown)

    def setText(self, text: str) -> None:  # noqa: N802 - Qt API
        self.set_forms(text)
