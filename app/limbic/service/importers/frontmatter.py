"""The YAML front matter of Markdown notes: the small subset vaults use, read and written by hand.

Read: ``key: value`` scalars (plain, "double" or 'single' quoted), inline lists ``[a, "b"]``,
block lists (``- item`` lines under a key), empty values, comments. Nested maps and multi-line
strings are not used by the properties Limbic reads; a line it cannot read is an error naming it.
"""

from __future__ import annotations

import json
import re

from limbic.engine.errors import LimbicError

_KEY = re.compile(r"^([A-Za-z0-9_][\w .-]*?)\s*:(?:\s+(.*))?$")
_ITEM = re.compile(r"^\s*-\s*(.*)$")


class FrontMatterError(LimbicError):
    """Front matter that is not the YAML subset notes use; carries the line (1-based, in the file)."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(reason)
        self.line = line
        self.reason = reason


def split(text: str) -> tuple[str | None, str, int]:
    """(front matter or None, body, the body's first line number)."""
    if not text.startswith("---"):
        return None, text, 1
    lines = text.split("\n")
    if lines[0].rstrip() != "---":
        return None, text, 1
    for i in range(1, len(lines)):
        if lines[i].rstrip() in ("---", "..."):
            return "\n".join(lines[1:i]), "\n".join(lines[i + 1 :]), i + 2
    raise FrontMatterError(1, "the front matter opened with --- is never closed")


def _scalar(raw: str, line: int):
    raw = raw.strip()
    if not raw or raw in ("~", "null", "Null", "NULL"):
        return None
    if raw.startswith('"'):
        try:
            value, end = json.JSONDecoder().raw_decode(raw)
        except ValueError:
            raise FrontMatterError(line, "a double-quoted value is not closed or has a bad escape") from None
        rest = raw[end:].strip()
        if rest and not rest.startswith("#"):
            raise FrontMatterError(line, "there is text after a quoted value")
        return value
    if raw.startswith("'"):
        m = re.match(r"^'((?:[^']|'')*)'\s*(#.*)?$", raw)
        if not m:
            raise FrontMatterError(line, "a single-quoted value is not closed")
        return m.group(1).replace("''", "'")
    if raw.startswith("[") and not raw.startswith("[["):
        if not raw.rstrip().endswith("]"):
            raise FrontMatterError(line, "an inline list [ ... ] is not closed")
        inner = raw.strip()[1:-1]
        return [v for v in (_scalar(p, line) for p in _split_commas(inner, line)) if v is not None]
    if raw.startswith(("{", "|", ">", "&", "*", "!")):
        raise FrontMatterError(line, "nested maps, multi-line strings and anchors are not read")
    value = re.sub(r"\s+#.*$", "", raw)
    if value in ("true", "True", "false", "False"):
        return value.lower() == "true"
    return value


def _split_commas(inner: str, line: int) -> list[str]:
    parts, buf, quote, depth = [], "", "", 0
    for ch in inner:
        if quote:
            buf += ch
            if ch == quote:
                quote = ""
            continue
        if ch in "\"'":
            quote = ch
        elif ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(buf)
            buf = ""
            continue
        buf += ch
    if quote:
        raise FrontMatterError(line, "a quoted value in an inline list is not closed")
    if buf.strip():
        parts.append(buf)
    return parts


def parse(block: str, first_line: int = 2) -> dict[str, object]:
    """The front matter's keys and values; raises FrontMatterError naming the line."""
    out: dict[str, object] = {}
    current: str | None = None
    for offset, raw in enumerate(block.split("\n")):
        line = first_line + offset
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        item = _ITEM.match(raw)
        if item and current is not None and (raw.startswith((" ", "-", "\t"))):
            value = out.get(current)
            if value is None:
                value = out[current] = []
            if not isinstance(value, list):
                raise FrontMatterError(line, f"the list item under “{current}” follows a value")
            v = _scalar(item.group(1), line)
            if v is not None:
                value.append(v)
            continue
        if raw.startswith((" ", "\t")):
            raise FrontMatterError(line, "nested maps are not read")
        m = _KEY.match(raw)
        if not m:
            raise FrontMatterError(line, "this line is not “key: value”")
        current = m.group(1).strip()
        out[current] = _scalar(m.group(2) or "", line)
    return out


# What a YAML double-quoted scalar may not hold as it is (YAML 1.2's printable set, and the line
# breaks and byte-order mark YAML 1.1 readers fold or drop): written as \uXXXX, which ``parse`` reads back.
_NOT_YAML_PRINTABLE = re.compile("[^\t\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]")


def _quote(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    text = json.dumps(str(value), ensure_ascii=False)
    return _NOT_YAML_PRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def dump(values: dict[str, object]) -> str:
    """Front matter text (with its --- lines) that ``parse`` and Obsidian both read back unchanged."""
    lines = ["---"]
    for key, value in values.items():
        if value is None or value == []:
            continue
        if isinstance(value, list):
            lines.append(f"{key}:")
            lines.extend(f"  - {_quote(v)}" for v in value)
        else:
            lines.append(f"{key}: {_quote(value)}")
    lines.append("---")
    return "\n".join(lines) + "\n"
