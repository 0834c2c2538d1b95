"""What one assistant may see and change: its scope, and the one scoped view every assistant's read goes through.

The person marks entities private (no assistant sees them) and gives each assistant, by its
normalised client name, a read scope and a write scope: everything, only some entity types, or
nothing. An assistant never seen before gets the default ("may read and write", "read only until I
allow", "nothing until I allow"). Scopes and private marks live in the graph and travel with sync.

``ScopedView`` is made for an assistant's call. While it reads, the graph's connection sees only
what the assistant may read (``engine/store/visibility.py``: every table an entity's rows live in is
narrowed, so a tool added later reads through it too; a read of whole tables may ask the same module for
the rows or sums the views would give, decided by the same narrowing); a hidden entity is exactly a missing one. A
write is checked before it runs (``check_write``): outside the write scope it is refused with a
sentence and counted in Activity as refused; a name of a hidden entity in it is answered as a
missing name (``masked``), and creating an entity under a hidden one's name gets a sentence.
"""

from __future__ import annotations

import contextlib
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from limbic.engine.errors import LimbicError, ValidationError
from limbic.engine.graph.graph import Graph, shown
from limbic.engine.store import scopes as _scopes
from limbic.engine.store import visibility
from limbic.engine.store.scopes import ALL, NONE
from limbic.engine.sync import scope_travel
from limbic.service import activity, held

DEFAULT_CHOICES = {  # the default for assistants not seen before: (read, write)
    "read-write": (ALL, ALL),
    "read-only": (ALL, NONE),
    "nothing": (NONE, NONE),
}
DEFAULT_LABELS = {"read-write": "may read and write", "read-only": "read only until I allow",
                  "nothing": "nothing until I allow"}
# Argument keys naming an existing entity, and those naming a new one's type (every tool, present or later).
REFERENCE_KEYS = ("entityName", "entity_name", "from", "to", "names", "entityNames")
TYPE_KEYS = ("entityType",)
MASK = "\ue000limbic-hidden-{}\ue000"  # stands for a hidden entity's name in a write: found nowhere
ID_MASK = 1 << 62  # and, counted up from here, for the id of a row it may not see
REFUSED = "outside its scope"


class OutOfScope(LimbicError):
    """A write the assistant's scope does not allow; nothing was written."""


@dataclass(frozen=True)
class Access:
    """What one assistant may do: ``read`` and ``write`` are ALL, NONE or a tuple of entity types."""

    client: str
    read: str | tuple[str, ...]
    write: str | tuple[str, ...]
    own: bool  # set for this assistant (else the default applies)


def _name(client: str) -> str:
    return activity.client_name(client)


def _same(a: str, b: str) -> bool:
    return a.casefold() == b.casefold()


def access_for(graph: Graph, client: str) -> Access:
    """The scope that applies to ``client`` now: its own, else the default, else everything."""
    name = _name(client)
    default = None
    for scope in _scopes.all_scopes(graph.db):
        if scope.client == _scopes.DEFAULT_CLIENT:
            default = scope
        elif name and _same(scope.client, name):
            return Access(name, scope.read, scope.write, True)
    if default is not None:
        return Access(name, default.read, default.write, False)
    return Access(name, ALL, ALL, False)


def set_access(graph: Graph, client: str, read: Any = None, write: Any = None) -> Access:
    """Set what ``client`` may read and write (None keeps that side as it applies now)."""
    name = _name(client)
    if not name:
        raise ValidationError("An assistant is named by its client name; this one is empty.")
    now = access_for(graph, name)
    scope_travel.set_scope(graph.db, _stored_name(graph, name), now.read if read is None else read,
                           now.write if write is None else write)
    return access_for(graph, name)


def _stored_name(graph: Graph, name: str) -> str:
    """The spelling a scope of this assistant is kept under already (one row per assistant)."""
    for scope in _scopes.all_scopes(graph.db):
        if scope.client and _same(scope.client, name):
            return scope.client
    return name


def default_choice(graph: Graph) -> str:
    """Which of DEFAULT_CHOICES applies to assistants not seen before."""
    found = _scopes.get(graph.db, _scopes.DEFAULT_CLIENT)
    if found is None:
        return "read-write"
    for key, (read, write) in DEFAULT_CHOICES.items():
        if (found.read, found.write) == (read, write):
            return key
    return "read-only" if found.write == NONE and found.read != NONE else "nothing" if found.read == NONE else "read-write"


def set_default(graph: Graph, choice: str) -> None:
    if choice not in DEFAULT_CHOICES:
        raise ValidationError(f"The default for new assistants is one of {', '.join(DEFAULT_CHOICES)}, not “{choice}”.")
    scope_travel.set_scope(graph.db, _scopes.DEFAULT_CLIENT, *DEFAULT_CHOICES[choice])


def describe(value: str | tuple[str, ...]) -> str:
    """A scope in words: "everything", "nothing", or its types."""
    if value == ALL:
        return "everything"
    if value == NONE:
        return "nothing"
    return ", ".join(value)


def parse(text: str) -> str | tuple[str, ...]:
    """A scope as a person types it: all, none, or types separated by commas."""
    text = (text or "").strip()
    if text.casefold() in ("all", "everything"):
        return ALL
    if text.casefold() in ("none", "nothing", ""):
        return NONE
    return tuple(dict.fromkeys(t.strip() for t in text.split(",") if t.strip()))


def set_private(graph: Graph, ref, private: bool = True) -> bool:
    """Mark an entity (by name, alias or id) private, or not; True when that changed. The person's own change."""
    with graph.db.activity.using("private" if private else "not private"):
        return graph.set_private(ref, private)


def is_private(graph: Graph, entity_id: int) -> bool:
    return bool(graph.db.scalar("SELECT private FROM main.entities WHERE id = ?", (entity_id,)))


ANNOUNCED_KEY = "assistants_announced"  # the assistants the window has already said were new (JSON list)


def _announced(graph: Graph) -> set[str]:
    import json

    try:
        return set(json.loads(graph.db.get_meta(ANNOUNCED_KEY) or "[]"))
    except ValueError:
        return set()


def unannounced(graph: Graph) -> list[str]:
    """Assistants seen on this graph that the window has not said were new yet (a read)."""
    if not graph.db.has_table("activity_session"):
        return []
    known = _announced(graph)
    return sorted({c for (c,) in graph.db.execute(
        "SELECT DISTINCT client FROM activity_session WHERE origin = 'assistant' AND client != ''")} - known)


def mark_announced(graph: Graph, names: list[str]) -> list[str]:
    """The window said these were new: not again (on any device's window of this file)."""
    import json

    if names and not graph.db.readonly:
        with graph.db.transaction():
            graph.db.set_meta(ANNOUNCED_KEY, json.dumps(sorted(_announced(graph) | set(names)), ensure_ascii=False))
    return names


# -- the assistants seen ------------------------------------------------------------------


@dataclass(frozen=True)
class Assistant:
    """One assistant as the Assistants page lists it."""

    client: str
    first_seen: str
    last_seen: str
    read: str | tuple[str, ...]
    write: str | tuple[str, ...]
    own: bool
    paused: bool


def assistants(graph: Graph) -> list[Assistant]:
    """Every assistant seen on this graph (by client name) or given a scope, with its scope and pause."""
    seen: dict[str, list[str]] = {}
    for client, first, last in graph.db.execute(
            "SELECT client, min(started), max(started) FROM activity_session WHERE origin = 'assistant' "
            "AND client != '' GROUP BY client") if graph.db.has_table("activity_session") else ():
        key = next((k for k in seen if _same(k, client)), client)
        was = seen.get(key, [first, last])
        seen[key] = [min(was[0], first), max(was[1], last)]
    for scope in _scopes.all_scopes(graph.db):
        if scope.client and not any(_same(k, scope.client) for k in seen):
            seen[scope.client] = ["", ""]
    paused = activity.paused_clients(graph)
    out = []
    for client, (first, last) in sorted(seen.items(), key=lambda kv: kv[0].casefold()):
        access = access_for(graph, client)
        out.append(Assistant(client, first, last, access.read, access.write, access.own,
                             any(_same(client, p) for p in paused)))
    return out


# -- the scoped view ----------------------------------------------------------------------


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def condition_for(access: Access, has_private: bool) -> str | None:
    """SQL over ``e`` matching the entities ``access`` may not read; None when it may read the whole graph."""
    if access.read == NONE:
        return "1"
    parts = []
    if has_private:
        parts.append("e.private != 0")
    if access.read != ALL:
        parts.append(f"e.entity_type NOT IN ({', '.join(_quoted(t) for t in access.read)})")
    return " OR ".join(parts) or None


class ScopedView:
    """One assistant's view of the graph for one call (see the module's docstring)."""

    def __init__(self, graph: Graph, client: str) -> None:
        self.graph = graph
        self.access = access_for(graph, client)
        db = graph.db
        self.has_private = bool(db.has_table("assistant_scopes")
                                and db.scalar("SELECT 1 FROM main.entities WHERE private != 0 LIMIT 1"))
        self.condition = condition_for(self.access, self.has_private)  # which entities it may not read

    @contextlib.contextmanager
    def reading(self) -> Iterator[Graph]:
        """The graph as this assistant may read it (the connection narrowed while the block runs and after)."""
        db = self.graph.db
        if self.condition is None:
            visibility.lift(db)
        else:
            visibility.narrow(db, self.condition)
        yield self.graph

    def lifted(self) -> None:
        """The whole graph again on the connection, so a write can be made."""
        visibility.lift(self.graph.db)

    # -- what it may see, by id and name (the connection lifted) --------------------------

    def visible_id(self, entity_id: int) -> bool:
        if self.condition is None:
            return True
        sql = f"SELECT 1 FROM main.entities e WHERE e.id = ? AND NOT ({self.condition})"
        return self.graph.db.scalar(sql, (entity_id,)) is not None

    def _holders(self, name: str) -> list[int]:
        """The entities ``name`` could reach: its name, an alias, or either in another case."""
        if not isinstance(name, str) or any(0xD800 <= ord(c) <= 0xDFFF for c in name):
            return []
        text = unicodedata.normalize("NFC", name.strip())
        db = self.graph.db
        ids = [r[0] for r in db.execute("SELECT id FROM main.entities WHERE name = ? COLLATE NOCASE", (text,))]
        if db.has_table("entity_aliases"):
            ids += [r[0] for r in db.execute("SELECT entity_id FROM main.entity_aliases WHERE alias = ? COLLATE NOCASE",
                                              (text,))]
        found = self.graph.case_variant(text)
        if found is not None:
            ids.append(found)
        return list(dict.fromkeys(ids))

    def hides(self, name: str) -> bool:
        """True when ``name`` reaches an entity this assistant may not see (by name, alias or case)."""
        return self.condition is not None and any(not self.visible_id(i) for i in self._holders(name))

    def _type_of(self, name: str) -> str | None:
        for entity_id in self._holders(name):
            if self.visible_id(entity_id):
                return self.graph.db.scalar("SELECT entity_type FROM main.entities WHERE id = ?", (entity_id,))
        return None

    # -- writes ---------------------------------------------------------------------------

    def refuse(self, sentence: str) -> OutOfScope:
        activity.note_refusal(self.graph, REFUSED, sentence)
        return OutOfScope(sentence)

    def check_write(self, tool: str, arguments: dict) -> dict:
        """Before a write tool runs: refuse what the scope does not allow; the names to mask (mask: name)."""
        write = self.access.write
        if write == NONE:
            raise self.refuse(f"Nothing was changed: {tool} writes, and this assistant may not write to this graph "
                              "(the person allows it in Limbic's Settings → Assistants).")
        masks: dict[str, str] = {}
        # An assistant that may write everything and see everything: no text of the call can be refused or masked.
        for key, name in () if write == ALL and self.condition is None else _walk(arguments):
            if key in TYPE_KEYS and write != ALL and isinstance(name, str) and name.strip() not in write:
                raise self.refuse(f"Nothing was changed: this assistant may write only {describe(write)} entities, "
                                  f"not {shown(name.strip())}.")
            if key == "name" and tool == "create_entities" and self.hides(name):
                raise self.refuse(f"Nothing was changed: “{shown(name)}” cannot be created, because the name is taken "
                                  "by an entity the person keeps from assistants; choose another name.")
            if (key not in REFERENCE_KEYS and not (key == "name" and tool != "create_entities")) \
                    or not isinstance(name, str):
                continue
            if self.hides(name):
                masks.setdefault(name, MASK.format(len(masks)))
            elif write != ALL and key != "to" and (etype := self._type_of(name)) is not None and etype not in write:
                raise self.refuse(f"Nothing was changed: this assistant may write only {describe(write)} entities, "
                                  f"and “{shown(name)}” is {shown(etype)}.")
        for key, value in (("relation_id", arguments.get("relation_id")),
                           ("target_id", arguments.get("target_id"))):
            if isinstance(value, int) and not isinstance(value, bool) and self._hidden_row(key, value, arguments):
                masks.setdefault(value, ID_MASK + len(masks))  # a row it may not see: answered as a missing id
        return masks

    def _hidden_row(self, key: str, value: int, arguments: dict) -> bool:
        """A relation (by id) touching a hidden entity, or an entity (a reflection's target) hidden."""
        if self.condition is None:
            return False
        if key == "target_id" and arguments.get("target_type") == "entity":
            exists = self.graph.db.scalar("SELECT 1 FROM main.entities WHERE id = ?", (value,))
            return bool(exists) and not self.visible_id(value)
        if key == "relation_id" or arguments.get("target_type") == "relation":
            ends = self.graph.db.one("SELECT from_entity, to_entity FROM main.relations WHERE id = ?", (value,))
            return ends is not None and not (self.visible_id(ends[0]) and self.visible_id(ends[1]))
        return False


def _walk(value: Any, key: str = "") -> Iterator[tuple[str, Any]]:
    """(key, text) of every text in the arguments under a key (a list's texts under the list's key)."""
    todo = [(key, value)]
    while todo:
        k, v = todo.pop()
        if isinstance(v, dict):
            todo.extend(v.items())
        elif isinstance(v, list):
            todo.extend((k, item) for item in v)
        elif isinstance(v, str):
            yield k, v


def masked(value: Any, masks: dict[str, str]) -> Any:
    """The arguments with each hidden name replaced by its mask (the tool then finds nothing by it)."""
    if not masks:
        return value
    if isinstance(value, dict):
        return {k: masked(v, masks) for k, v in value.items()}
    if isinstance(value, list):
        return [masked(v, masks) for v in value]
    return masks.get(value, value) if isinstance(value, str) else value


ID_KEYS = ("relation_id", "target_id")


def unmasked(value: Any, masks: dict[str, str]) -> Any:
    """A reply or an error with each mask back to the name the assistant sent."""
    if not masks:
        return value
    if isinstance(value, str):
        for name, mask in masks.items():  # a field holding the name: as sent; a sentence: as sentences show names
            if isinstance(mask, int):
                value = value.replace(str(mask), str(name))
            else:
                value = name if value == mask else value.replace(mask, shown(name))
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return next((original for original, mask in masks.items() if mask == value), value)
    if isinstance(value, dict):
        return {k: unmasked(v, masks) for k, v in value.items()}
    if isinstance(value, list):
        return [unmasked(v, masks) for v in value]
    return value


# -- one call of an assistant -------------------------------------------------------------

# Tools whose replies are read straight through the narrowed connection; every other read tool's reply is
# also screened (``screened``): a relation end, a pair, a change naming a hidden entity is left out.
THROUGH_VIEW = ("read_graph", "search_nodes", "open_nodes", "search")
SCREEN_KEYS = ("name", "entity", "entityName", "entity_name", "from", "to", "a", "b", "other", "target")


def call(graph: Graph, client: str, tool: str, read_only: bool, fn, keys: list[str], args: list) -> Any:
    """Run one tool for assistant ``client`` through its scoped view; the service's Outcome."""
    from limbic.service import run

    view = ScopedView(graph, client)
    if read_only:
        with view.reading():
            outcome = run(graph, fn, *args)
        if tool not in THROUGH_VIEW and view.condition is not None:
            outcome.value = screened(view, outcome.value)
        return outcome
    view.lifted()
    masks = view.check_write(tool, dict(zip(keys, args)))
    if reasons := held.reasons_in(dict(zip(keys, args))):  # what looks like a credential is never stored
        raise held.hold(graph, view.access.client, tool, fn, dict(zip(keys, args)), reasons)
    try:
        outcome = run(graph, fn, *[masks.get(a, a) if k in ID_KEYS and isinstance(a, int) else masked(a, masks)
                                   for k, a in zip(keys, args)])
    except LimbicError as exc:
        if masks:
            exc.args = (unmasked(str(exc), masks), *exc.args[1:])
        raise
    outcome.value = unmasked(outcome.value, masks)
    return outcome


def notices(graph: Graph, client: str, changes) -> bool:
    """Whether a change another program made is one ``client`` may see (so it is told the graph changed):
    not when every entity it touched is hidden from it. A deletion is told (what it was is not known now)."""
    view = ScopedView(graph, client)
    if view.condition is None or changes.removed or changes.full:
        return True
    touched = changes.added | changes.changed | changes.relations
    return not touched or any(view.visible_id(i) for i in touched)


def read_resource(graph: Graph, client: str, fn) -> Any:
    """A resource read by assistant ``client`` (the whole graph) through its scoped view."""
    with ScopedView(graph, client).reading():
        return fn(graph)


def lift(graph: Graph) -> None:
    """The whole graph again on the connection (before work that is nobody's read: embedding)."""
    visibility.lift(graph.db)


def _screen_names(view: ScopedView, texts: set[str]) -> set[str]:
    hidden: set[str] = set()
    items = sorted(texts)
    for start in range(0, len(items), 500):
        part = items[start:start + 500]
        marks = ",".join("?" * len(part))
        hidden.update(r[0] for r in view.graph.db.execute(
            f"SELECT e.name FROM main.entities e WHERE e.name IN ({marks}) AND ({view.condition})", part))
        if view.graph.db.has_table("entity_aliases"):
            hidden.update(r[0] for r in view.graph.db.execute(
                f"SELECT a.alias FROM main.entity_aliases a JOIN main.entities e ON e.id = a.entity_id "
                f"WHERE a.alias IN ({marks}) AND ({view.condition})", part))
    return hidden


def screened(view: ScopedView, value: Any) -> Any:
    """A reply without the objects that name a hidden entity (by name or alias) under a naming key."""
    texts: set[str] = set()
    todo = [value]
    while todo:
        v = todo.pop()
        if isinstance(v, dict):
            texts.update(x for k, x in v.items() if k in SCREEN_KEYS and isinstance(x, str))
            todo.extend(v.values())
        elif isinstance(v, list):
            todo.extend(v)
    hidden = _screen_names(view, texts) if texts else set()
    if not hidden:
        return value

    def names_hidden(v: Any) -> bool:
        return isinstance(v, dict) and any(k in SCREEN_KEYS and x in hidden for k, x in v.items())

    def clean(v: Any) -> Any:
        if isinstance(v, dict):
            return {k: clean(x) for k, x in v.items() if not (k in SCREEN_KEYS and x in hidden)}
        if isinstance(v, list):
            return [clean(x) for x in v if not names_hidden(x) and not (isinstance(x, str) and x in hidden)]
        return v

    return clean(value)

