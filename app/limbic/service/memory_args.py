"""Checking the memory tools' arguments: per-call limits, exact names, and the batch rule.

The batch rule (every write tool of ``limbic mcp`` follows it): a call is all or nothing. Every
item is checked before anything is written; when any item has a problem, nothing is written and
the error lists every problem with its item number (the first item is item 1).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from limbic.engine.errors import NotFoundError, ValidationError
from limbic.engine.graph.graph import Graph, shown
from limbic.engine.store.values import MAX_NAME_CHARS, MAX_OBSERVATION_CHARS, MAX_TYPE_CHARS

MAX_ITEMS_PER_CALL = 1_000  # entities, relations, observation groups, names or deletions in one call
MAX_OBSERVATIONS_PER_CALL = 10_000  # observation texts in one call, over all its items
MAX_CALL_CHARS = 4_000_000  # characters of text in one call, over all its items
MAX_QUERY_CHARS = 2_048  # a search_nodes or search query (the reference's SEARCH_QUERY_MAX_LENGTH)
MAX_LISTED_PROBLEMS = 50  # an error lists this many problems, then says how many more there are

BATCH_RULE = (
    "All or nothing: every item is checked first; if any has a problem nothing is written and the error "
    "lists every problem with its item number (the first item is item 1)."
)


class CallLimit(ValidationError):
    """A call past a per-call limit: refused whole, not as one item's problem."""


class Problems:
    """The problems found in one call's items; raised together as one error."""

    def __init__(self, field: str) -> None:
        self.field = field
        self.found: list[tuple[int, str]] = []
        self.missing_only = True  # every problem is an unknown entity: NotFoundError, else ValidationError

    def add(self, index: int, sentence: str, missing: bool = False) -> None:
        self.found.append((index, sentence.rstrip(".")))
        self.missing_only = self.missing_only and missing

    def check(self, index: int, fn, *args) -> Any:
        """``fn(*args)``, or None with its ValidationError noted as item ``index``'s problem."""
        try:
            return fn(*args)
        except CallLimit:
            raise
        except ValidationError as exc:
            self.add(index, str(exc))
            return None

    def __bool__(self) -> bool:
        return bool(self.found)

    def raise_if_any(self) -> None:
        """Raise one error naming every problem with its item number; nothing has been written."""
        if not self.found:
            return
        error = NotFoundError if self.missing_only else ValidationError
        if len(self.found) == 1:
            index, sentence = self.found[0]
            raise error(f"Item {index + 1} of “{self.field}”: {sentence}. Nothing was written.")
        listed = "; ".join(f"item {i + 1}: {s}" for i, s in self.found[:MAX_LISTED_PROBLEMS])
        more = len(self.found) - MAX_LISTED_PROBLEMS
        tail = f"; and {more:,} more" if more > 0 else ""
        raise error(f"{len(self.found):,} items of “{self.field}” have problems, so nothing was written: {listed}{tail}.")


class Budget:
    """Counts what one call carries, refusing it past the per-call limits."""

    def __init__(self) -> None:
        self.observations = 0
        self.chars = 0

    def text(self, value: str) -> None:
        self.chars += len(value)
        if self.chars > MAX_CALL_CHARS:
            raise CallLimit(
                f"One call can carry at most {MAX_CALL_CHARS:,} characters of text; split it into smaller calls."
            )

    def observation(self, value: str) -> None:
        self.observations += 1
        if self.observations > MAX_OBSERVATIONS_PER_CALL:
            raise CallLimit(
                f"One call can carry at most {MAX_OBSERVATIONS_PER_CALL:,} observations; split it into smaller calls."
            )
        self.text(value)


def items(value: Any, field: str, what: str) -> list:
    """The list argument ``field``, within the per-call item limit."""
    if not isinstance(value, list):
        raise ValidationError(f"“{field}” must be a list of {what}.")
    if len(value) > MAX_ITEMS_PER_CALL:
        raise ValidationError(
            f"“{field}” can hold at most {MAX_ITEMS_PER_CALL:,} items in one call; split it into smaller calls."
        )
    return value


def record(item: Any, keys: Sequence[str]) -> dict:
    """An item as an object holding ``keys``; the sentence names what is wrong (the caller adds the item)."""
    if not isinstance(item, dict):
        raise ValidationError(f"it must be an object with {', '.join(keys)}")
    for key in keys:
        if key not in item:
            raise ValidationError(f"it has no “{key}”")
    return item


def text(value: Any, key: str, budget: Budget) -> str:
    """A text value of an item, counted against the call's budget."""
    if not isinstance(value, str):
        raise ValidationError(f"“{key}” must be text")
    budget.text(value)
    return value


def texts(value: Any, key: str, budget: Budget) -> list[str]:
    """A list of texts of an item, each counted as an observation."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValidationError(f"“{key}” must be a list of texts")
    for v in value:
        budget.observation(v)
    return value


_PRINTABLE_ASCII = re.compile("[\x20-\x7e]*")  # no control character, nothing to normalize or refuse in a name


def plain_entities(entities: list) -> list[tuple[int, str, str, list[str], None]] | None:
    """``create_entities``' items as checking each on its own gives them, (item number, name, type, observations,
    no status), when every item is the usual kind: a name, a type and observations that are printable ASCII,
    not empty, with no space at either end and within their lengths, no status, the call within its limits.
    Checked for the whole call at once; None when any item is not so (then each is checked on its own, which
    says what is wrong)."""
    out: list[tuple[int, str, str, list[str], None]] = []
    texts: list[str] = []
    observations = 0
    for i, item in enumerate(entities):
        if not isinstance(item, dict) or item.get("status") is not None:
            return None
        name, etype, obs = item.get("name"), item.get("entityType"), item.get("observations")
        if not (isinstance(name, str) and isinstance(etype, str) and isinstance(obs, list)
                and 0 < len(name) <= MAX_NAME_CHARS and 0 < len(etype) <= MAX_TYPE_CHARS):
            return None
        for o in obs:
            if not (isinstance(o, str) and 0 < len(o) <= MAX_OBSERVATION_CHARS):
                return None
        texts += (name, etype, *obs)
        observations += len(obs)
        out.append((i, name, etype, list(obs), None))
    if observations > MAX_OBSERVATIONS_PER_CALL or sum(map(len, texts)) > MAX_CALL_CHARS:
        return None
    if not _PRINTABLE_ASCII.fullmatch(" ".join(texts)) or any(t[0] == " " or t[-1] == " " for t in texts):
        return None
    return out


def int_arg(value: Any, field: str, default: int, low: int, high: int) -> int:
    """A whole-number argument within [low, high], ``default`` when absent."""
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationError(f"“{field}” must be a whole number.")
    if not low <= value <= high:
        raise ValidationError(f"“{field}” must be between {low:,} and {high:,}.")
    return value


def query_arg(query: Any) -> str:
    """A search query: text of at most ``MAX_QUERY_CHARS``."""
    if not isinstance(query, str):
        raise ValidationError("“query” must be text.")
    if len(query) > MAX_QUERY_CHARS:
        raise ValidationError(f"A query can be at most {MAX_QUERY_CHARS:,} characters long.")
    return query


_SURROGATE = re.compile("[\ud800-\udfff]")


def unstorable(value: str) -> bool:
    """A lone surrogate cannot be stored as UTF-8, so no stored name or text holds one."""
    return _SURROGATE.search(value) is not None


def exact_id(graph: Graph, name: str, aliases: bool = True) -> int | None:
    """The entity whose name is exactly ``name`` (as NFC), as the reference matches names; no case folding.

    Then (``aliases``) the entity with exactly that alias: a merged-away name keeps reaching its entity.
    """
    if not isinstance(name, str) or unstorable(name):
        return None
    found = graph.db.scalar("SELECT id FROM entities WHERE name = ?", (unicodedata.normalize("NFC", name),))
    return graph.exact_alias_owner(name) if found is None and aliases else found


def alias_of(graph: Graph, name: str) -> str | None:
    """The name of the entity ``name`` is exactly an alias of (and not the name of), or None."""
    if exact_id(graph, name, aliases=False) is not None:
        return None
    owner = graph.exact_alias_owner(name) if isinstance(name, str) and not unstorable(name) else None
    return graph.db.scalar("SELECT name FROM entities WHERE id = ?", (owner,)) if owner is not None else None


def not_found(graph: Graph, name: str) -> str:
    """The reference's sentence for a missing entity, naming a near spelling the graph has."""
    sentence = f"Entity with name {shown(name)} not found"
    if isinstance(name, str) and name.strip() and not unstorable(name):
        near = graph.case_variant(unicodedata.normalize("NFC", name.strip()))
        if near is not None:
            other = graph.db.scalar("SELECT name FROM entities WHERE id = ?", (near,))
            sentence += f" (there is “{shown(other)}”: names must match exactly)"
    return sentence
