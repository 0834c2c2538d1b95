"""Writes held for the person: what an assistant sent that looks like a credential is not stored in the graph.

An assistant's write whose new text (a name, an observation, an alias, a reflection, a context) looks
like a key, a token, a private key, a password, a card number or an IBAN (``engine/text/credentials``)
is not made: the whole call is kept here, in a table of its own that no tool reads and sync does not
carry, and the assistant is told it was held. The person accepts it (the call is made as theirs,
optionally marking what it wrote private) or discards it (its text is erased, a line saying so
stays). The person's own writes in the app and the CLI never pass through here.
"""

from __future__ import annotations

import importlib
import json
import re
from dataclasses import dataclass
from typing import Any

from limbic.engine.errors import LimbicError, NotFoundError, ValidationError
from limbic.engine.graph.graph import Graph
from limbic.engine.store.values import now_utc
from limbic.engine.text import credentials

HELD, ACCEPTED, DISCARDED = "held", "accepted", "discarded"
_DDL = """
CREATE TABLE IF NOT EXISTS held_writes (
    id         INTEGER PRIMARY KEY,
    at         TEXT NOT NULL,
    client     TEXT NOT NULL DEFAULT '',
    tool       TEXT NOT NULL,
    fn         TEXT NOT NULL,
    arguments  TEXT NOT NULL,
    reasons    TEXT NOT NULL,
    state      TEXT NOT NULL DEFAULT 'held',
    decided_at TEXT
)
"""
# What a key of a tool's arguments holds, in words (a key not named: "a value").
_WHAT = {"contents": "an observation", "observations": "an observation", "name": "a name", "alias": "an alias",
         "aliases": "an alias", "content": "a reflection", "context": "a relation's context",
         "entityType": "a type", "relationType": "a relation type", "kind": "a kind"}
SKIPPED_KEYS = ("entityName", "entity_name", "from", "to", "names", "entityNames", "supersedes", "target_type")


class Held(LimbicError):
    """An assistant's write held for the person's review; nothing of it was written."""


@dataclass(frozen=True)
class HeldWrite:
    id: int
    at: str
    client: str
    tool: str
    reasons: list[str]
    state: str
    decided_at: str | None
    arguments: dict


def reasons_in(arguments: dict) -> list[str]:
    """"an observation looks like an API key (OpenAI)" for each text of a write's arguments that looks like a credential."""
    keys, texts = [], []
    level: list[tuple[str, Any]] = list(arguments.items())
    while level:  # level by level: each value after every value that came before it in the walk
        below: list[tuple[str, Any]] = []
        for key, value in level:
            if key in SKIPPED_KEYS:
                continue
            if isinstance(value, str):
                keys.append(key)
                texts.append(value)
            elif isinstance(value, dict):
                below += value.items()
            elif isinstance(value, list):
                below += [(key, v) for v in value]
        level = below
    out: list[str] = []
    for i in credentials.candidates(texts):  # most texts hold nothing a rule starts from: one pass rules them out
        if what := credentials.looks_like(texts[i]):
            reason = f"{_WHAT.get(keys[i], 'a value')} looks like {what}"
            if reason not in out:
                out.append(reason)
    return out


def _table(graph: Graph) -> None:
    graph.db.execute(_DDL)


def hold(graph: Graph, client: str, tool: str, fn, arguments: dict, reasons: list[str]) -> Held:
    """Keep an assistant's write for review; the error that tells the assistant so."""
    name = f"{fn.__module__}:{getattr(fn, '__qualname__', getattr(fn, '__name__', ''))}"
    with graph.db.transaction():
        _table(graph)
        graph.db.execute("INSERT INTO held_writes(at, client, tool, fn, arguments, reasons) VALUES (?, ?, ?, ?, ?, ?)",
                         (now_utc(), client, tool, name, json.dumps(arguments, ensure_ascii=False), json.dumps(reasons)))
    return Held(f"Held for the person to review, not stored: {'; '.join(reasons)}. Nothing of this {tool} call was "
                "written or will be shown to any assistant; the person accepts or discards it in Limbic "
                "(the Activity panel, or `limbic held`).")


def held(graph: Graph, everything: bool = False) -> list[HeldWrite]:
    """The writes waiting for review (``everything``: those decided too), oldest first."""
    if not graph.db.has_table("held_writes"):
        return []
    where = "" if everything else "WHERE state = 'held'"
    return [HeldWrite(i, at, client, tool, json.loads(reasons), state, decided, json.loads(args) if args else {})
            for i, at, client, tool, args, reasons, state, decided in graph.db.execute(
                f"SELECT id, at, client, tool, arguments, reasons, state, decided_at FROM held_writes {where} ORDER BY id")]


def _one(graph: Graph, held_id: int) -> tuple[str, str, dict]:
    row = graph.db.one("SELECT tool, fn, arguments, state FROM held_writes WHERE id = ?", (held_id,)) \
        if graph.db.has_table("held_writes") else None
    if row is None:
        raise NotFoundError(f"No held write has the number {held_id} (limbic held lists them).")
    if row[3] != HELD:
        raise ValidationError(f"Held write {held_id} was {row[3]} already.")
    return row[0], row[1], json.loads(row[2])


@dataclass(frozen=True)
class Accepted:
    """A held write made as the person's own: its result, the logged changes that made it (what Edit → Undo
    takes back), and the entities it wrote."""

    value: Any
    change_ids: list[int]
    entity_ids: list[int]


def accept(graph: Graph, held_id: int, private: bool = False) -> Any:
    """Make the held write as the person's own (``private``: and mark every entity it wrote private); its result."""
    return accept_write(graph, held_id, private).value


def accept_write(graph: Graph, held_id: int, private: bool = False) -> Accepted:
    """``accept``, telling which logged changes made the write and which entities it wrote."""
    from limbic.service import run

    tool, fn_name, arguments = _one(graph, held_id)
    module, _, qualname = fn_name.partition(":")
    if not module.startswith("limbic.service."):
        raise ValidationError(f"Held write {held_id} names no operation Limbic knows.")
    fn = importlib.import_module(module)
    for part in qualname.split("."):
        fn = getattr(fn, part)
    recorder = graph.db.activity
    before = recorder.last_change_id
    with recorder.using(tool):
        outcome = run(graph, fn, *arguments.values())
    made = [recorder.last_change_id] if recorder.last_change_id not in (None, before) else []
    written = [i for i in sorted(outcome.changes.added | outcome.changes.changed)
               if graph.db.scalar("SELECT 1 FROM entities WHERE id = ?", (i,))]
    marked = recorder.last_change_id
    with graph.write(), recorder.using("private"):
        if private:
            for entity_id in written:
                graph.set_private(entity_id, True)
        graph.db.execute("UPDATE held_writes SET state = ?, decided_at = ? WHERE id = ?", (ACCEPTED, now_utc(), held_id))
    if recorder.last_change_id not in (None, marked):
        made.append(recorder.last_change_id)
    return Accepted(outcome.value, made, written)


def discard(graph: Graph, held_id: int) -> None:
    """Drop the held write: its text is erased, the line that it was held and discarded stays."""
    _one(graph, held_id)
    with graph.db.transaction():
        graph.db.execute("UPDATE held_writes SET state = ?, decided_at = ?, arguments = '{}' WHERE id = ?",
                         (DISCARDED, now_utc(), held_id))


def stamp(graph: Graph) -> tuple[int, int]:
    """(how many writes wait, the newest one's number): a window follows new held writes by it."""
    if not graph.db.has_table("held_writes"):
        return 0, 0
    count, newest = graph.db.one("SELECT count(*), coalesce(max(id), 0) FROM held_writes WHERE state = 'held'")
    return int(count), int(newest)


MASK = "••••••••"  # stands for the hidden part of a credential, whatever its length


def masked(text: str) -> str:
    """``text`` with each piece that looks like a credential hidden: a password's or a secret's value whole (in a URL
    too), a card number but its last four digits, anything else but its first few characters ("sk-p••••••••")."""
    spans: list[tuple[int, int, str]] = []
    for f in credentials.find(text):
        if spans and f.start < spans[-1][1]:
            start, end, what = spans[-1]
            spans[-1] = (start, max(end, f.end), what)
        else:
            spans.append((f.start, f.end, f.what))
    for start, end, what in reversed(spans):
        piece = text[start:end]
        if what in ("a password", "a secret") and (sign := re.search(r"[:=]\s*['\"“]?", piece)):
            shown = piece[:sign.end()] + MASK
        elif what == "a URL with a password" and (parts := re.match(r"(.*?://[^:/@\s]*:)[^@\s]*(@.*)", piece)):
            shown = parts.group(1) + MASK + parts.group(2)
        elif what == "a card number":
            shown = MASK + piece[-4:]
        else:
            shown = piece[:min(4, len(piece) // 4)] + MASK
        text = text[:start] + shown + text[end:]
    return text


def texts_of(h: HeldWrite) -> list[str]:
    """The texts the held write would store (names, observations, aliases…), in the order sent, whole."""
    out: list[str] = []
    todo: list[tuple[str, Any]] = list(h.arguments.items())
    while todo:
        key, value = todo.pop(0)
        if key in SKIPPED_KEYS or key in ("entityType", "relationType", "kind"):
            continue
        if isinstance(value, dict):
            todo[:0] = list(value.items())
        elif isinstance(value, list):
            todo[:0] = [(key, v) for v in value]
        elif isinstance(value, str) and value.strip() and value not in out:
            out.append(value)
    return out


SUBJECT_KEYS = ("entityName", "entity_name", "from", "to", "name")


def subjects_of(h: HeldWrite) -> list[str]:
    """The entities the held write was for (each name as sent, masked when it looks like a credential)."""
    out: list[str] = []
    todo: list[tuple[str, Any]] = list(h.arguments.items())
    while todo:
        key, value = todo.pop(0)
        if isinstance(value, dict):
            todo[:0] = list(value.items())
        elif isinstance(value, list):
            todo[:0] = [(key, v) for v in value]
        elif key in SUBJECT_KEYS and isinstance(value, str) and value.strip() and masked(value) not in out:
            out.append(masked(value))
    return out
