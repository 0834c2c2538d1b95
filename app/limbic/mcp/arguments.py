"""A tool call's arguments against its input schema, before anything runs: a key the schema does not
name (the schemas say ``additionalProperties: false``) or a value of the wrong JSON type is answered
as the tool's error (``isError``), a sentence naming where (``entities[0].extra``) and the keys the
tool takes there, so the model can correct its call; nothing is done. An absent optional value may
also be sent as ``null``. Ranges, lengths and the meaning of values are the service's to check.
"""

from __future__ import annotations

from typing import Any

MAX_NAMED = 10  # problems named in one sentence; the rest are counted

# A JSON type as a sentence says it.
_TYPE_WORDS = {
    "string": "text", "integer": "a whole number", "number": "a number", "boolean": "true or false",
    "array": "a list", "object": "an object", "null": "null",
}


def json_type(value: Any) -> str:
    """The JSON type of a parsed value, as a sentence names it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _fits(value: Any, kind: str) -> bool:
    if kind == "string":
        return isinstance(value, str)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "array":
        return isinstance(value, list)
    if kind == "object":
        return isinstance(value, dict)
    return kind == "null" and value is None


def _wanted(schema: dict) -> str:
    kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
    words = []
    for kind in kinds:
        word = _TYPE_WORDS.get(kind, kind)
        if kind == "array" and isinstance(schema.get("items"), dict) and schema["items"].get("type") == "string":
            word = "a list of texts"
        elif kind == "array" and isinstance(schema.get("items"), dict) and schema["items"].get("type") == "object":
            word = "a list of objects"
        words.append(word)
    return " or ".join(words)


def _takes(schema: dict) -> str:
    return ", ".join(schema.get("properties", {})) or "no keys"


def _where(at: tuple | None) -> str:
    """A place in the arguments as a sentence shows it (``entities[0].extra``), from the links ``problems`` keeps:
    (parent's link, a key of an object or a position in a list), None for the arguments themselves."""
    steps = []
    while at is not None:
        at, step = at
        steps.append(step)
    out = ""
    for step in reversed(steps):
        out = f"{out}[{step}]" if isinstance(step, int) else f"{out}.{step}" if out else step
    return out


def problems(schema: dict, arguments: Any, tool: str = "the tool") -> list[tuple[str, str]]:
    """Each (where, sentence) the arguments break their schema at, in the order of the arguments."""
    found: list[tuple[str, str]] = []
    # A list, not recursion: arguments may nest as deep as the wire allows. A place is a link to its parent's
    # (parent, key or position), written out only for a problem: most calls have none and hold thousands of values.
    todo: list[tuple[dict, Any, tuple | None]] = [(schema, arguments, None)]
    while todo and len(found) <= MAX_NAMED:
        sub, value, at = todo.pop()
        kind = sub.get("type")
        if kind is not None and not (any(_fits(value, k) for k in kind) if isinstance(kind, list) else _fits(value, kind)):
            path = _where(at)
            found.append((path, f"“{path}” must be {_wanted(sub)}, not {json_type(value)}"))
            continue
        if isinstance(value, dict) and "properties" in sub:
            properties, required = sub["properties"], sub.get("required", ())
            later = []
            for key, item in value.items():
                if key in properties:
                    if item is None and key not in required:
                        continue  # an absent optional value, sent as null
                    later.append((properties[key], item, (at, key)))
                elif sub.get("additionalProperties") is False:
                    path = _where(at)
                    where = f"{path}.{key}" if path else key
                    found.append((where, f"{tool} has no argument “{key}”" if not path else
                                  f"{_owner(path)} has no key “{key}” ({where}; it takes: {_takes(sub)})"))
            todo.extend(reversed(later))
        elif isinstance(value, list) and isinstance(sub.get("items"), dict):
            items = sub["items"]
            if items.get("type") == "string" and all(isinstance(v, str) for v in value):
                continue  # texts where texts are wanted: nothing below them to look at (observations, names)
            todo.extend((items, value[i], (at, i)) for i in range(len(value) - 1, -1, -1))
    return found


def _keeps_to(sub: dict, value: Any, depth: int = 0) -> bool:
    """True when ``problems`` finds nothing at ``value``, asked without noting where (the usual call); False
    when it may find something, or the value nests deeper than is worth following here (then it looks)."""
    kind = sub.get("type")
    if depth > 32 or (kind is not None and not (
            any(_fits(value, k) for k in kind) if isinstance(kind, list) else _fits(value, kind))):
        return False
    if isinstance(value, dict) and "properties" in sub:
        properties, required, closed = sub["properties"], sub.get("required", ()), sub.get("additionalProperties") is False
        for key, item in value.items():
            if key not in properties:
                if closed:
                    return False
            elif not (item is None and key not in required) and not _keeps_to(properties[key], item, depth + 1):
                return False
    elif isinstance(value, list) and isinstance(sub.get("items"), dict):
        items = sub["items"]
        if not (items.get("type") == "string" and all(isinstance(v, str) for v in value)):
            return all(_keeps_to(items, v, depth + 1) for v in value)
    return True


def _owner(path: str) -> str:
    """What holds the keys at ``path``: an item of a list argument (counted from 1, as the batch rule does), or an object."""
    if path.endswith("]"):
        start = path.rindex("[")
        return f"item {int(path[start + 1:-1]) + 1} of “{path[:start]}”"
    return f"“{path}”"


def sentence(tool: str, schema: dict, arguments: Any) -> str | None:
    """The tool error for arguments that break the schema, or None when they keep to it."""
    if not isinstance(arguments, dict):
        return (f"The arguments of {tool} must be an object of named values, not {json_type(arguments)}; nothing was "
                f"done ({tool} takes: {_takes(schema)}).")
    found = [] if _keeps_to(schema, arguments) else problems(schema, arguments, tool)
    if not found:
        return None
    named = "; ".join(s for _, s in found[:MAX_NAMED]) + ("; and more" if len(found) > MAX_NAMED else "")
    prefix = "" if named.startswith(f"{tool} ") else f"{tool}: "
    return f"{prefix}{named}; nothing was done ({tool} takes: {_takes(schema)})."
