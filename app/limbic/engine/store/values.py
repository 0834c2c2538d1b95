"""What a stored value may be: names, types and observations checked and trimmed, timestamps, and a
name as a one-line message shows it. Below the graph and its history, which both use it."""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from collections.abc import Callable
from datetime import datetime, timezone

from limbic.engine.store import name_rules
from limbic.engine.errors import ValidationError

MAX_NAME_CHARS = 512
MAX_TYPE_CHARS = 128
MAX_OBSERVATION_CHARS = 200_000
DEFAULT_TYPE = "Generic"
TIME_FORMAT = "%Y-%m-%d %H:%M:%S"


# The clock every stored time and sync stamp is read from; the sync tests move it forward to the next
# second instead of waiting for it.
wall: Callable[[], datetime] = lambda: datetime.now(timezone.utc)  # noqa: E731


def now_utc() -> str:
    """The current UTC time as stored: ``YYYY-MM-DD HH:MM:SS``."""
    return wall().strftime(TIME_FORMAT)


def _has_bad_chars(text: str, allow_layout: bool) -> str | None:
    if _PLAIN.fullmatch(text):
        return None  # the usual case, checked in C: the loop below only says which character it is
    for ch in text:
        code = ord(ch)
        if 0xD800 <= code <= 0xDFFF:
            return "a broken character (lone surrogate)"
        if ch == "\x00":
            return "a NUL character"
        # C0 controls break names and layout; observations keep tabs and new lines, and the
        # C1 range (stray Windows-1252 bytes in real-world text) is harmless in both.
        if (code < 0x20 or code == 0x7F) and not (allow_layout and ch in "\t\n\r"):
            return f"a control character (U+{code:04X})"
        if not allow_layout and ch in "\x85\u2028\u2029":
            return f"a line break (U+{code:04X})"
    return None


_PLAIN = re.compile("[^\x00-\x1f\x7f\x85\u2028\u2029\ud800-\udfff]*")
_LINE_BREAKS = frozenset("\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


def _unstorable(text: str) -> bool:
    """A lone surrogate cannot be stored (nor looked up) as UTF-8; no stored name holds one."""
    return any(0xD800 <= ord(ch) <= 0xDFFF for ch in text)


def shown(name: object, limit: int = 80) -> str:
    """A name as it can appear in a one-line message: control and broken characters replaced, long ones cut."""
    text = "".join(
        "\ufffd" if ord(ch) < 0x20 or ord(ch) == 0x7F or 0xD800 <= ord(ch) <= 0xDFFF or ch in _LINE_BREAKS else ch
        for ch in str(name)
    )
    return text if len(text) <= limit else text[: limit - 1] + "…"


def clean_name(name: object, what: str = "name", limit: int = MAX_NAME_CHARS) -> str:
    """Validate and trim an entity name or type; raises ValidationError with a plain sentence."""
    if not isinstance(name, str):
        raise ValidationError(f"An entity {what} must be text.")
    name = name.strip()
    if not name:
        raise ValidationError(f"An entity {what} cannot be empty.")
    if len(name) > limit:
        raise ValidationError(f"An entity {what} can be at most {limit} characters long.")
    bad = _has_bad_chars(name, allow_layout=False) or name_rules.name_problem(name)
    if bad:
        raise ValidationError(f"An entity {what} cannot contain {bad}.")
    # One spelling for text that looks the same: "Café" typed composed or decomposed is one name.
    name = unicodedata.normalize("NFC", name)
    if len(name) > limit:
        raise ValidationError(f"An entity {what} can be at most {limit} characters long.")
    return name


def name_key(name: str) -> str:
    """What two names share when they differ only in case (and composition): they are the same name."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())


MAX_SPELLINGS = 64  # probes of one look-up by name; beyond, only the usual ways of writing it are tried


@functools.lru_cache(maxsize=4096)  # a write looks one name up several times (entities, then aliases)
def case_spellings(name: str) -> tuple[str, ...]:
    """The spellings a look-up through a NOCASE index tries so as to meet every stored name with the same
    ``name_key``: NOCASE folds only A-Z, so each other letter is tried in each of its cases (while the
    spellings stay few), and an "ss" also as "ß" or "ẞ" (which case folding writes as "ss")."""
    out = [name, name.lower(), name.upper(), name.title(), name.capitalize(), name.casefold()]
    if not name.isascii():
        forms, count = [], 1
        for c in name:
            if c.isascii() or c.lower() == c.upper():
                forms.append(c)
                continue
            cases = "".join(sorted({x for x in (c, c.lower(), c.upper(), c.title()) if len(x) == 1}))
            forms.append(cases)
            count *= len(cases)
        if 1 < count <= MAX_SPELLINGS:
            out += map("".join, itertools.product(*forms))
    parts = out[5].split("ss")
    if 1 < len(parts) and 3 ** (len(parts) - 1) <= MAX_SPELLINGS:
        for joins in itertools.product(("ss", "ß", "ẞ"), repeat=len(parts) - 1):
            out.append(parts[0] + "".join(j + part for j, part in zip(joins, parts[1:])))
    return tuple(dict.fromkeys(out))



def clean_observation(content: object, what: str = "An observation") -> str:
    """Validate an observation's text (tabs and new lines allowed); ``what`` names it in the refusal."""
    if not isinstance(content, str):
        raise ValidationError(f"{what} must be text.")
    content = content.strip()
    if not content:
        raise ValidationError(f"{what} cannot be empty.")
    if len(content) > MAX_OBSERVATION_CHARS:
        raise ValidationError(f"{what} can be at most {MAX_OBSERVATION_CHARS:,} characters long.")
    bad = _has_bad_chars(content, allow_layout=True)
    if bad:
        raise ValidationError(f"{what} cannot contain {bad}.")
    return content


def clean_reflection(content: object) -> str:
    """Validate a reflection's text: as an observation's, and said of a reflection."""
    return clean_observation(content, "A reflection")


def clean_valid(value: object, key: str = "valid_from") -> str | None:
    """A valid-time bound as stored: ``YYYY-MM-DD``, or ``YYYY-MM-DD HH:MM:SS`` in UTC; None when empty.

    Refused in one sentence when it is not a date, so a typo never turns into "always true".
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, str):
        text = value.strip()
        try:
            if len(text) == 10:
                return datetime.strptime(text, "%Y-%m-%d").strftime("%Y-%m-%d")
            parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
            if parsed.tzinfo is not None:
                parsed = parsed.astimezone(timezone.utc).replace(tzinfo=None)
            return parsed.strftime(TIME_FORMAT)
        except ValueError:
            pass
    raise ValidationError(f"{key} must be a date (YYYY-MM-DD) or a date and time (YYYY-MM-DD HH:MM:SS, UTC), "
                          f"not {shown(value, 40)!r}.")


def valid_end(until: str | None) -> str | None:
    """The last moment a bound of ``valid_until`` still holds: a bare date counts to the end of its day."""
    return until + " 23:59:59" if until is not None and len(until) == 10 else until
