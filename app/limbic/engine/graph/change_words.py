"""A logged change in words: each item (“added to “Ada”: “likes tea””) and the change in one line.

The sentences are English templates; ``tr`` turns a template into the reader's language before it is
filled (the window passes its translator; the engine, the CLI and `limbic mcp` keep English). Every
template is listed in ``TEMPLATES`` so a front end can mark them for translation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from limbic.engine.store.activity import ADD, REMOVE

if TYPE_CHECKING:
    from limbic.engine.graph.activity_log import Change, Item

Words = Callable[[str], str]

TEMPLATES = (
    "created “{name}” ({type})", "deleted “{name}”", "renamed “{old}” → “{new}”", "type of “{name}”: {old} → {new}",
    "status of “{name}”: {old} → {new}", "marked “{name}” private", "“{name}” no longer private", "changed “{name}”",
    "added to “{owner}”: “{text}”", "removed from “{owner}”: “{text}”", "superseded in “{owner}”: “{text}”",
    "brought back in “{owner}”: “{text}”", "edited in “{owner}”: “{old}” → “{new}”",
    "held in the world {period} in “{owner}”: “{text}”", "changed an observation of “{owner}”",
    "related {arrow}", "removed relation {arrow}", "ended relation {arrow}", "related again {arrow}",
    "held in the world {period}: {arrow}", "changed relation {arrow}",
    "gave “{owner}” the alias “{alias}”", "removed the alias “{alias}” of “{owner}”",
    "changed the alias “{alias}” of “{owner}”",
    "added a reflection on “{owner}”", "removed a reflection on “{owner}”", "changed a reflection on “{owner}”",
    "added a reflection", "removed a reflection", "changed a reflection",
    "from {start} until {until}", "since {start}", "until {until}", "at any time (no dates)",
    "{what} with {brought}", "{n} observation", "{n} observations", "{n} relation", "{n} relations",
    "{n} reflection", "{n} reflections", "{n} alias", "{n} aliases", "took back change {ids}:", "no visible change",
    "{text}; and {n} more",
)


_COUNTED = {"observation": ("{n} observation", "{n} observations"), "relation": ("{n} relation", "{n} relations"),
            "reflection": ("{n} reflection", "{n} reflections"), "alias": ("{n} alias", "{n} aliases")}


def _same(template: str) -> str:
    return template


def _clip(text: object, n: int = 60) -> str:
    text = " ".join(str(text or "").split())
    return text if len(text) <= n else text[: n - 1] + "…"


def _valid_changed(before: dict, after: dict) -> bool:
    return any(before.get(k) != after.get(k) for k in ("valid_from", "valid_until"))


def _period(values: dict, tr: Words = _same) -> str:
    """A valid time in words: “from 2020-01-01 until 2023-06-30”, “since …”, “until …”, “always”."""
    start, until = values.get("valid_from"), values.get("valid_until")
    if start and until:
        return tr("from {start} until {until}").format(start=start, until=until)
    if start:
        return tr("since {start}").format(start=start)
    return tr("until {until}").format(until=until) if until else tr("at any time (no dates)")


def _entity(it: Item, tr: Words) -> str:
    s, name = it.state, _clip(it.state.get("name"), 40)
    if it.op == ADD:
        return tr("created “{name}” ({type})").format(name=name, type=s.get("type"))
    if it.op == REMOVE:
        return tr("deleted “{name}”").format(name=name)
    b, a = it.before or {}, it.after or {}
    parts = []
    if b.get("name") != a.get("name"):
        parts.append(tr("renamed “{old}” → “{new}”").format(old=_clip(b.get("name"), 40), new=_clip(a.get("name"), 40)))
    for key, template in (("type", "type of “{name}”: {old} → {new}"), ("status", "status of “{name}”: {old} → {new}")):
        if b.get(key) != a.get(key):
            parts.append(tr(template).format(name=name, old=b.get(key), new=a.get(key)))
    if bool(b.get("private")) != bool(a.get("private")) and "private" in a:
        parts.append(tr("marked “{name}” private" if a.get("private") else "“{name}” no longer private").format(name=name))
    return "; ".join(parts) or tr("changed “{name}”").format(name=name)


def _observation(it: Item, owner: str, tr: Words) -> str:
    text = _clip(it.state.get("content"))
    if it.op in (ADD, REMOVE):
        return tr("added to “{owner}”: “{text}”" if it.op == ADD else "removed from “{owner}”: “{text}”").format(
            owner=owner, text=text)
    b, a = it.before or {}, it.after or {}
    if b.get("superseded_at") is None and a.get("superseded_at") is not None:
        return tr("superseded in “{owner}”: “{text}”").format(owner=owner, text=_clip(b.get("content")))
    if b.get("superseded_at") is not None and a.get("superseded_at") is None:
        return tr("brought back in “{owner}”: “{text}”").format(owner=owner, text=_clip(a.get("content")))
    if b.get("content") != a.get("content"):
        return tr("edited in “{owner}”: “{old}” → “{new}”").format(
            owner=owner, old=_clip(b.get("content"), 40), new=_clip(a.get("content"), 40))
    if _valid_changed(b, a):
        return tr("held in the world {period} in “{owner}”: “{text}”").format(period=_period(a, tr), owner=owner, text=text)
    return tr("changed an observation of “{owner}”").format(owner=owner)


def _relation(it: Item, names: dict[int, str], tr: Words) -> str:
    s = it.state
    a_name = _clip(names.get(s.get("from"), s.get("from_name") or "?"), 40)
    b_name = _clip(names.get(s.get("to"), s.get("to_name") or "?"), 40)
    arrow = f"{a_name} —{s.get('type')}→ {b_name}"
    b, a = it.before or {}, it.after or {}
    if it.op == ADD:
        template = "related {arrow}"
    elif it.op == REMOVE:
        template = "removed relation {arrow}"
    elif b.get("active") and not a.get("active"):
        template = "ended relation {arrow}"
    elif not b.get("active") and a.get("active"):
        template = "related again {arrow}"
    elif _valid_changed(b, a):
        return tr("held in the world {period}: {arrow}").format(period=_period(a, tr), arrow=arrow)
    else:
        template = "changed relation {arrow}"
    return tr(template).format(arrow=arrow)


def describe_item(it: Item, names: dict[int, str], tr: Words = _same) -> str:
    """One item in words: “added observation to “X”: …”, “renamed “X” → “Y””, “ended relation A —knows→ B”."""
    if it.kind == "entity":
        return _entity(it, tr)
    owner = _clip(names.get(it.entity_id or -1, "?"), 40)
    if it.kind == "observation":
        return _observation(it, owner, tr)
    if it.kind == "relation":
        return _relation(it, names, tr)
    if it.kind == "alias":
        alias = _clip((it.after or it.before or {}).get("alias"), 40)
        template = {ADD: "gave “{owner}” the alias “{alias}”", REMOVE: "removed the alias “{alias}” of “{owner}”"}.get(
            it.op, "changed the alias “{alias}” of “{owner}”")
        return tr(template).format(owner=owner, alias=alias)
    verb = {ADD: "added", REMOVE: "removed"}.get(it.op, "changed")
    if it.entity_id:
        return tr(f"{verb} a reflection on “{{owner}}”").format(owner=owner)
    return tr(f"{verb} a reflection")


def summarize(c: Change, most: int = 3, tr: Words = _same, names: dict[int, str] | None = None) -> str:
    """A change in one line: what a created or deleted entity brought along is counted, not listed.

    ``names``: given, each item is described again in ``tr``'s language (else its own summary is used)."""
    said = {id(it): describe_item(it, names, tr) if names is not None else it.summary for it in c.items}
    created = {it.row_id for it in c.items if it.kind == "entity" and it.op == ADD}
    deleted = {it.row_id for it in c.items if it.kind == "entity" and it.op == REMOVE}
    phrases: list[str] = []
    extra: dict[int, dict[str, int]] = {}  # entity -> kind -> how many rows it brought along
    for it in c.items:
        if it.kind != "entity" and it.op in (ADD, REMOVE):
            owners = {it.entity_id, it.other_id}
            if (it.op == ADD and owners & created) or (it.op == REMOVE and owners & deleted):
                key = min(owners & (created if it.op == ADD else deleted))
                kinds = extra.setdefault(key, {})
                kinds[it.kind] = kinds.get(it.kind, 0) + 1
                continue
        phrases.append(said[id(it)])
    for it in c.items:
        if it.kind == "entity" and it.row_id in extra and said[id(it)] in phrases:
            brought = ", ".join(tr(_COUNTED.get(kind, ("{n} " + kind, "{n} " + kind))[n != 1]).format(n=n)
                                for kind, n in extra[it.row_id].items())
            phrases[phrases.index(said[id(it)])] = tr("{what} with {brought}").format(what=said[id(it)], brought=brought)
    if c.reverts:
        ids = ", ".join(f"#{i}" for i in c.reverts[:5]) + ("…" if len(c.reverts) > 5 else "")
        phrases.insert(0, tr("took back change {ids}:").format(ids=ids))
    if not phrases:
        return tr("no visible change")
    text = "; ".join(phrases[:most])
    if len(phrases) > most:
        text = tr("{text}; and {n} more").format(text=text, n=len(phrases) - most)
    return text.replace(":;", ":")
