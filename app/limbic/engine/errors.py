"""Errors the engine raises for expected failures; each message is one plain sentence."""

from __future__ import annotations


class LimbicError(Exception):
    """An expected failure whose message can be shown to the user as it is."""


class DatabaseError(LimbicError):
    """The database file cannot be opened or used."""


class ValidationError(LimbicError):
    """Input that the graph refuses (a bad name, an oversized observation, ...)."""


class NotFoundError(LimbicError):
    """An entity, observation or relation that does not exist."""


class ImportFileError(LimbicError):
    """A JSONL file that cannot be imported; carries the file and line."""

    def __init__(self, path: str, line: int, reason: str) -> None:
        super().__init__(f"{path}, line {line}: {reason}")
        self.path = path
        self.line = line
        self.reason = reason


class ModelError(LimbicError):
    """The embedding model cannot be loaded."""


class Cancelled(LimbicError):
    """A long job was cancelled by the user."""
