"""Turning a suggestion (a node close in meaning, drawn dashed) into a relation, and showing it in the editor at once."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCompleter

from limbic.service import graph_view
from limbic.ui.common.i18n import translate


class SuggestionLinkMixin:
    """Mixed into GraphPanel, which provides canvas, link bar widgets, engine and its parts (``p``)."""

    def _offer_link(self, index: int) -> None:
        s = self.canvas.scene
        centre = s.labels[s.centre] if s.centre >= 0 else ""
        self._link_target = int(s.ids[index])
        self.link_label.setText(translate("SuggestionLinkMixin", "Link “{centre}” → “{value}” as").format(centre=centre, value=s.labels[index]))
        _, relation_types = self._catalog_lists()
        completer = QCompleter(relation_types, self.link_type)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.link_type.setCompleter(completer)
        self.link_bar.show()
        self.link_type.setFocus()

    def _hide_link_bar(self) -> None:
        self.link_bar.hide()

    def on_link(self) -> None:
        """Turn the selected suggestion into a relation of the typed type."""
        rtype = self.link_type.text().strip()
        if not rtype or self.centre_id is None or not self.link_bar.isVisible():
            self.info.setText(translate("SuggestionLinkMixin", "Type a relation type first."))
            return
        s = self.canvas.scene
        ends = (self.centre_id, s.labels[s.centre] if s.centre >= 0 else "", self._link_target,
                s.labels[s.index_of(self._link_target)] if s.index_of(self._link_target) >= 0 else "")
        self.engine.run("graph-link", graph_view.link, self.centre_id, self._link_target, rtype,
                        on_done=lambda _created: self._linked(ends, rtype), on_failed=self._on_failed,
                        what=translate("SuggestionLinkMixin", "linking the entities"))

    def _linked(self, ends: tuple[int, str, int, str], rtype: str) -> None:
        """The editor shows the new relation at once, on whichever end it has open."""
        self._hide_link_bar()
        source_id, source, target_id, target = ends
        editor = self.p.editor
        if editor.entity_id not in (source_id, target_id):
            return
        if not editor.is_dirty():
            self.p.reload(editor.entity_id)  # a refresh of the same entity, not a visit
        elif editor.entity_id == source_id:
            editor.note_relation(True, (rtype, target))
        else:
            editor.note_relation(False, (source, rtype))
