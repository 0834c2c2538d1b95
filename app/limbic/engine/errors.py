"""Errors the engine raises for expected failures; each message is one plain sentence."""

from __future__ import annotations


class LimbicError(Exception):
    """An expected failure whose message can be shown to the user as it is."""


class DatabaseError(LimbicError):
    """The database file cannot be opened or used."""


class OtherGraphError(DatabaseError):
    """The file to restore holds another graph than the open one (a restore needs ``force``)."""


class ValidationError(LimbicError):
    """Input that the graph refuses (a bad name, an oversized observation, ...)."""


class NotFoundError(LimbicError):
    """An entity, observation or relation that does not exist."""


class ImportFileError(LimbicError):
    """A JSONL file that cannot be imported; carries the file and line."""

    def __init__(self, path: str, line: int, reason: str, problems: list[tuple[int, str]] | None = None,
                 total: int = 1) -> None:
        more = f" (and {total - 1} more bad lines)" if total > 1 else ""
        super().__init__(f"{path}, line {line}: {reason}{more}")
        self.path = path
        self.line = line
        self.reason = reason
        # Every bad line found, up to a limit, as (line number, reason); ``total`` counts them all.
        self.problems = problems if problems is not None else [(line, reason)]
        self.total = total


class ModelError(LimbicError):
    """The embedding model cannot be loaded."""


class Cancelled(LimbicError):
    """A long job was cancelled by the user."""


class NameTakenError(ValidationError):
    """A name or alias another entity already goes by (an alias is unique like a name, without case)."""
