"""Back/Forward between opened entities: a browser-style history, with no Qt in it."""

from __future__ import annotations


class NavigationHistory:
    """Entity ids in the order they were opened, and where Back/Forward stand."""

    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        self._ids: list[int] = []
        self._pos = -1

    def visit(self, entity_id: int) -> None:
        """An entity was opened by the user: it becomes the newest entry (forward entries are dropped)."""
        if self._pos >= 0 and self._ids[self._pos] == entity_id:
            return
        del self._ids[self._pos + 1 :]
        self._ids.append(entity_id)
        self._pos = len(self._ids) - 1

    @property
    def can_back(self) -> bool:
        return self._pos > 0

    @property
    def can_forward(self) -> bool:
        return 0 <= self._pos < len(self._ids) - 1

    def step(self, delta: int) -> int | None:
        """Move back (-1) or forward (+1); the entity id to show there, or None at either end."""
        pos = self._pos + delta
        if not 0 <= pos < len(self._ids):
            return None
        self._pos = pos
        return self._ids[pos]
