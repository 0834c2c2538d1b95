"""Back/Forward between opened entities: a browser-style history, with no Qt in it.

Entries are ``EntityKey``s (the entity's gid and name), never bare ids: a deleted or merged-away
entity's id goes to the next entity made, and Back must not open that one.
"""

from __future__ import annotations

from limbic.service.entity_keys import EntityKey


class NavigationHistory:
    """Entities in the order they were opened, and where Back/Forward stand."""

    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        self._keys: list[EntityKey] = []
        self._pos = -1

    def visit(self, key: EntityKey) -> None:
        """An entity was opened by the user: it becomes the newest entry (forward entries are dropped)."""
        if self._pos >= 0 and self._keys[self._pos].same(key):
            self._keys[self._pos] = key  # its name or id may have changed
            return
        del self._keys[self._pos + 1 :]
        self._keys.append(key)
        self._pos = len(self._keys) - 1

    @property
    def can_back(self) -> bool:
        return self._pos > 0

    @property
    def can_forward(self) -> bool:
        return 0 <= self._pos < len(self._keys) - 1

    def step(self, delta: int) -> EntityKey | None:
        """Move back (-1) or forward (+1); the entity to show there, or None at either end."""
        pos = self._pos + delta
        if not 0 <= pos < len(self._keys):
            return None
        self._pos = pos
        return self._keys[pos]

    def arrived(self, key: EntityKey) -> None:
        """The entry stepped to opened ``key`` (the entity a merged-away one became): it stands for it now.

        Where the entry before or after is that same entity, the two become one.
        """
        self._keys[self._pos] = key
        for near in (self._pos - 1, self._pos + 1):
            if 0 <= near < len(self._keys) and self._keys[near].same(key):
                del self._keys[self._pos]
                self._pos = min(near, self._pos)
                return

    def forget(self, delta: int) -> None:
        """The entry just stepped to names an entity gone from the graph: drop it, stand where the step began."""
        del self._keys[self._pos]
        if delta > 0:
            self._pos -= 1
