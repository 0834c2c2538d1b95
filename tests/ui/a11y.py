"""What a screen reader is told about a widget tree: Qt's accessibility interface, as AT-SPI reads it on Linux."""

from __future__ import annotations

from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QAbstractSpinBox, QComboBox, QLabel, QWidget

R = QAccessible.Role
# The roles a person operates (what ../shared/tools/atspi_walk.py counts as interactive, in Qt's names).
INTERACTIVE = {R.PushButton, R.CheckBox, R.RadioButton, R.ComboBox, R.EditableText, R.SpinBox, R.Slider, R.List,
               R.Tree, R.Table, R.ButtonMenu, R.ButtonDropDown}


def _inside_composite(widget: QWidget) -> bool:
    """A combo box's own field and popup list, a spin box's field: announced through the composite's name."""
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, (QComboBox, QAbstractSpinBox)):
            return True
        parent = parent.parentWidget()
    return False


def unnamed(root: QWidget) -> list[str]:
    """The interactive widgets under ``root`` (itself included) that a screen reader would announce without a name."""
    out = []
    for widget in [root, *root.findChildren(QWidget)]:
        if not widget.isVisibleTo(root.window()) and widget is not root:
            continue
        if _inside_composite(widget):
            continue
        iface = QAccessible.queryAccessibleInterface(widget)
        if iface is None or not iface.isValid() or iface.role() not in INTERACTIVE:
            continue
        if not (iface.text(QAccessible.Text.Name) or "").strip():
            out.append(f"{type(widget).__name__} {widget.objectName() or '(no object name)'} "
                       f"in {type(widget.window()).__name__} {widget.window().objectName()}")
    return out


def literal_ampersands(root: QWidget) -> list[str]:
    """Labels that show a mnemonic's "&" as a character: a label with a mnemonic and no buddy (Qt draws the "&")."""
    out = []
    for label in [w for w in [root, *root.findChildren(QLabel)] if isinstance(w, QLabel)]:
        text = label.text().replace("&&", "")
        if "&" in text and label.textFormat() != label.textFormat().RichText and label.buddy() is None \
                and not text.lstrip().startswith("<"):
            out.append(f"{label.objectName() or '(label)'}: {label.text()!r}")
    return out
