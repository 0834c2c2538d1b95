"""Valid time in Markdown notes: when a note's facts held in the world, read and written.

- Front matter ``valid_from:`` / ``valid_until:`` apply to every observation and relation of the note
  that does not say otherwise.
- A list item, paragraph or relation line may end with its own period:
  ``(valid from 2024-03-01 until 2025-01-31)``, ``(valid from 2024-03-01)`` or ``(valid until 2025-01-31)``;
  ``(valid 2024-03-01 – 2025-01-31)`` is read too. A bound is a date or a date and time (UTC).
- What is not a period (``valid_from: soon``, ``(valid from 2024-02-31)``) stays in the note's text.

Limbic's Markdown export writes the suffix on each observation and relation that carries valid time,
so exporting and importing back keeps it.
"""

from __future__ import annotations

import re

from limbic.engine.errors import ValidationError
from limbic.engine.history.valid import checked_bounds

Valid = tuple[str | None, str | None]

_BOUND = r"\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?"
MARK = re.compile(
    rf"\s*\(valid\s+(?:from\s+(?P<a>{_BOUND})(?:\s+until\s+(?P<b>{_BOUND}))?|until\s+(?P<c>{_BOUND})"
    rf"|(?P<d>{_BOUND})\s*(?:–|—|--|\bto\b)\s*(?P<e>{_BOUND}))\)\s*$"
)


def checked(valid_from: object, valid_until: object) -> Valid | None:
    """Both bounds as stored (None when neither is given); a bound that is not a date raises ValidationError."""
    start, until = checked_bounds(valid_from, valid_until)
    return None if start is None and until is None else (start, until)


def split(text: str) -> tuple[str, Valid | None]:
    """``text`` without its ``(valid …)`` suffix, and the period the suffix names.

    None when it has none, or when the suffix is no period (a day that does not exist, an end
    before the start): then it stays part of the text, so nothing written is lost.
    """
    m = MARK.search(text)
    if m is None:
        return text, None
    start = m.group("a") or m.group("d")
    until = m.group("b") or m.group("c") or m.group("e")
    try:
        return text[: m.start()].rstrip(), checked(start, until)
    except ValidationError:
        return text, None


def note_default(props: dict) -> tuple[Valid | None, list[str]]:
    """The front matter's period for the whole note (or None), and ``key: value`` texts of what is no period.

    A ``valid_from`` or ``valid_until`` that is not a date is kept as an observation, as written.
    """
    raw = {key: _scalar(props.get(key)) for key in ("valid_from", "valid_until")}
    try:
        return checked(raw["valid_from"], raw["valid_until"]), []
    except ValidationError:
        return None, [f"{key}: {value}" for key, value in raw.items() if value is not None]


def _scalar(value: object) -> object:
    return None if value is None or value == "" or value == [] else (str(value) if not isinstance(value, str) else value)


def suffix(valid_from: str | None, valid_until: str | None) -> str:
    """The suffix an exported line carries for this period (empty when it has none)."""
    if valid_from and valid_until:
        return f" (valid from {valid_from} until {valid_until})"
    if valid_from:
        return f" (valid from {valid_from})"
    if valid_until:
        return f" (valid until {valid_until})"
    return ""


def periods(graph, table: str) -> dict[int, Valid]:
    """Every row of ``table`` (observations or relations) that carries valid time, by id."""
    if "valid_from" not in {r[1] for r in graph.db.execute(f"PRAGMA table_info({table})")}:
        return {}  # a read-only file of an older schema has none
    return {r[0]: (r[1], r[2]) for r in graph.db.execute(
        f"SELECT id, valid_from, valid_until FROM {table} WHERE valid_from IS NOT NULL OR valid_until IS NOT NULL")}


def store_observations(graph, entity_id: int, valid: dict[str, Valid]) -> None:
    """Set the period of each of an entity's observations named in ``valid`` (text -> period)."""
    for text, period in valid.items():
        row_id = graph.db.scalar("SELECT id FROM observations WHERE entity_id = ? AND content = ? ORDER BY id LIMIT 1",
                                 (entity_id, text))
        store(graph, "observations", row_id, period)


def store(graph, table: str, row_id: int | None, valid: Valid | None) -> None:
    """Set a merged row's period; a line that names none keeps what is stored."""
    if valid is not None and row_id is not None:
        graph.db.execute(f"UPDATE {table} SET valid_from = ?, valid_until = ? WHERE id = ?", (*valid, row_id))
