"""Counted nouns for sentences people read: "1 entity", "2 entities", never "1 entities"."""

from __future__ import annotations


def plural(word: str) -> str:
    """The English plural of one of the nouns Limbic counts (entity, relation, file, line, …)."""
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    return word + "s"


def counted(n: int, word: str, many: str | None = None) -> str:
    """``n`` and the noun in the right number: counted(1, "file") is "1 file", counted(3, "file") "3 files"."""
    return f"{n} {word if n == 1 else (many or plural(word))}"
