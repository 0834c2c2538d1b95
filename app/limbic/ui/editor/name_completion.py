"""What a relation's target completes to: every entity's name, and every alias shown with the entity it names.

Typing "NYC" after "NYC" was merged into "New York City" offers "New York City — also NYC", and
taking it fills in "New York City": the relation goes to the entity, never to a new "NYC". The rows
stay plain strings in a ``QStringListModel`` (filtering 100k of them stays in C++); only the popup's
drawing and the text a chosen row puts in the field know which rows are aliases.
"""

from __future__ import annotations

import bisect
import unicodedata

from PySide6.QtCore import QModelIndex, QObject, QStringListModel, Qt
from PySide6.QtWidgets import QCompleter, QStyledItemDelegate, QWidget

from limbic.service.names import same_name_key
from limbic.ui.common.i18n import translate


def _accent_free(text: str) -> str:
    """``text`` without accents or case: "Tomás" and "tomas" are one spelling."""
    return "".join(c for c in unicodedata.normalize("NFKD", text.strip()) if not unicodedata.combining(c)).casefold()


class NameCompletions(QObject):
    """The sorted names and aliases behind the target field's completer, updated one name at a time."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.model = QStringListModel(self)
        self.names: list[str] = []  # the entities' names, sorted
        self._rows: list[str] = []  # names and aliases, sorted: the model's rows (an alias never equals a name)
        self._alias_of: dict[int, list[str]] = {}  # entity id -> its aliases
        self._owner: dict[str, str] = {}  # alias -> the name of the entity it names
        self._owner_by_key: dict[str, str] = {}  # the alias's name key -> that name

    def set_all(self, names: list[str], aliases: dict[int, list[str]] | None = None,
                id_names: dict[int, str] | None = None) -> None:
        """Every name (sorted) and, with ``id_names``, every entity's aliases, at once."""
        if aliases is None and names == self.names:
            return  # most refreshes change no name: a list of 100k is not rebuilt
        self.names = list(names)
        if aliases is not None:
            self._alias_of, self._owner, self._owner_by_key = {}, {}, {}
            for entity_id, held in aliases.items():
                name = (id_names or {}).get(entity_id)
                if name is not None and held:
                    self._keep(entity_id, name, held)
        self._rows = sorted(self.names + list(self._owner))
        self.model.setStringList(self._rows)

    def update_names(self, added: list[str], removed: list[str]) -> None:
        """Insert and remove single names in the sorted lists instead of rebuilding them."""
        for name in removed:
            at = bisect.bisect_left(self.names, name)
            if at < len(self.names) and self.names[at] == name:
                del self.names[at]
                self._remove_row(name)
        for name in added:
            at = bisect.bisect_left(self.names, name)
            if at < len(self.names) and self.names[at] == name:
                continue
            self.names.insert(at, name)
            self._insert_row(name)

    def update_aliases(self, changed: dict[int, list[str]], id_names: dict[int, str], removed: list[int]) -> None:
        """The aliases of these entities now (renamed ones are listed again under their new name); gone ones go."""
        for entity_id in [*removed, *changed]:
            for alias in self._alias_of.pop(entity_id, []):
                self._owner.pop(alias, None)
                self._owner_by_key.pop(same_name_key(alias), None)
                self._remove_row(alias)
        for entity_id, held in changed.items():
            name = id_names.get(entity_id)
            if name is not None and held:
                self._keep(entity_id, name, held)
                for alias in held:
                    self._insert_row(alias)

    def _keep(self, entity_id: int, name: str, held: list[str]) -> None:
        self._alias_of[entity_id] = list(held)
        for alias in held:
            self._owner[alias] = name
            self._owner_by_key[same_name_key(alias)] = name

    def _insert_row(self, text: str) -> None:
        at = bisect.bisect_left(self._rows, text)
        self._rows.insert(at, text)
        self.model.insertRows(at, 1)
        self.model.setData(self.model.index(at, 0), text)

    def _remove_row(self, text: str) -> None:
        at = bisect.bisect_left(self._rows, text)
        if at < len(self._rows) and self._rows[at] == text:
            del self._rows[at]
            self.model.removeRows(at, 1)

    def owner(self, text: str) -> str | None:
        """The name of the entity ``text`` is an alias of (any case), or None."""
        return self._owner_by_key.get(same_name_key(text.strip()))

    def target(self, text: str) -> str:
        """The entity name a row or a typed target stands for: an alias becomes its entity's name, and a name
        typed without its accents ("Tomas Ferreira") the one entity it spells, never a new one."""
        owner = self._owner.get(text) or self.owner(text)
        if owner is not None or self.is_name(text):
            return owner or text
        key = _accent_free(text)
        same = [name for name in self.names if _accent_free(name) == key]
        return same[0] if len(same) == 1 else text

    def label(self, text: str) -> str:
        """A row as the popup shows it: a name as it is, an alias as “New York City — also NYC”."""
        name = self._owner.get(text)
        return translate("NameCompletions", "{name} — also {text}").format(name=name, text=text) if name is not None else text

    def is_name(self, name: str) -> bool:
        """Whether ``name`` is an entity's name (ignoring case, as the graph does)."""
        at = bisect.bisect_left(self.names, name)
        if at < len(self.names) and self.names[at] == name:
            return True
        key = same_name_key(name)
        return any(same_name_key(n) == key for n in self.names)


class _AliasRows(QStyledItemDelegate):
    """Draws an alias's row as the entity it names, with the alias beside it."""

    def __init__(self, names: NameCompletions, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.names = names

    def displayText(self, value, locale) -> str:  # noqa: N802 - Qt API
        return self.names.label(str(value))


class TargetCompleter(QCompleter):
    """Completes an entity name; a chosen alias fills in the name of the entity it names."""

    def __init__(self, names: NameCompletions, parent: QWidget) -> None:
        super().__init__(names.model, parent)
        self.names = names
        self.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.setFilterMode(Qt.MatchFlag.MatchContains)
        self.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.popup().setMinimumWidth(320)  # long names stay readable even beside a narrow field
        self.popup().setItemDelegate(_AliasRows(names, self.popup()))

    def pathFromIndex(self, index: QModelIndex) -> str:  # noqa: N802 - Qt API
        return self.names.target(str(index.data(Qt.ItemDataRole.EditRole) or ""))

    def shown_rows(self) -> list[str]:
        """The popup's rows as the person reads them (tests and screenshots)."""
        model = self.completionModel()
        return [self.names.label(str(model.index(i, 0).data())) for i in range(model.rowCount())]
