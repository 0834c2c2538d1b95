"""How the editor's lists share its height: each the rows it holds when they fit, the rest by shares."""

from __future__ import annotations

from PySide6.QtWidgets import QListWidget


def shared_out(total: int, need: list[int], least: list[int], shares: tuple[int, ...],
               floor: list[int] | None = None) -> list[int]:
    """Heights for the parts: what each needs plus the spare by ``shares``; short of room, by need in turn.

    Shorter still than every part's ``least``, the parts first in the list keep theirs and the later ones
    give way down to their ``floor`` (the history under the observation and relation lists).
    """
    if sum(need) <= total:
        spare = total - sum(need)
        return [n + spare * k // sum(shares) for n, k in zip(need, shares)]
    least = list(least)
    floor = floor or least
    for i in reversed(range(len(least))):
        over = sum(least) - total
        if over <= 0:
            break
        least[i] = max(floor[i], least[i] - over)
    # Each part its first rows (``least``: four, or all it has); then observations, relations and history
    # in turn get what they hold.
    spare = max(0, total - sum(least))
    out = list(least)
    for i, n in enumerate(need):
        more = min(spare, max(0, n - out[i]))
        out[i] += more
        spare -= more
    return out


ROWS_AT_LEAST = 4  # short of room, each list still shows this many rows whole (or all it has)


def rows_height(lst: QListWidget, most: int | None = None) -> int:
    """The height a list needs to show every row whole, or its first ``most`` (each as wrapped at its width now)."""
    frame = max(2 * lst.frameWidth(), lst.height() - lst.viewport().height()) + 8
    if not lst.count():
        return frame + 2 * (lst.fontMetrics().lineSpacing() + 4)
    lst.doItemsLayout()  # rows wrapped at the list's width now, not at the width of its last (delayed) layout
    rows = range(lst.count() if most is None else min(most, lst.count()))
    return frame + sum(max(lst.sizeHintForRow(i), lst.visualItemRect(lst.item(i)).height()) for i in rows)
