"""A moment a little while back, as typed where a date is asked for: "10 minutes ago", "hace una hora".

The query grammar (``time_expressions``) reads whole days, weeks and months; a field that asks since when
also takes minutes and hours counted back from now, in English and Spanish: "1 hour ago", "an hour ago",
"half an hour ago", "10 min ago", "hace 10 minutos", "hace una hora", "hace media hora", "hace 2 h". The
whole text must be the expression; anything else is None and the caller reads it as a date.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import timedelta

from limbic.engine.text import time_words as W

_SECONDS: dict[str, int] = {
    "second": 1, "seconds": 1, "sec": 1, "secs": 1, "s": 1, "segundo": 1, "segundos": 1, "seg": 1,
    "minute": 60, "minutes": 60, "min": 60, "mins": 60, "m": 60, "minuto": 60, "minutos": 60,
    "hour": 3600, "hours": 3600, "hr": 3600, "hrs": 3600, "h": 3600, "hora": 3600, "horas": 3600,
}
_HALF = {"half", "media", "medio"}  # "half an hour ago", "hace media hora"
MOST = timedelta(days=366 * 100)  # further back than this is no moment a graph holds


def _words(text: str) -> list[str]:
    folded = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).lower()
    folded = re.sub(r"(\d)([a-z])", r"\1 \2", folded)  # "10min", "2h"
    return re.findall(r"\d+(?:[.,]\d+)?|[a-z]+", folded)


def _amount(words: list[str]) -> timedelta | None:
    """``[number or number word or "half"/"media", (article), unit]`` as a length of time."""
    if not words:
        return None
    if words[0] in _HALF:  # "half an hour", "media hora"
        rest = words[1:]
        if rest and rest[0] in ("an", "a"):
            rest = rest[1:]
        return timedelta(seconds=_SECONDS[rest[0]] / 2) if len(rest) == 1 and rest[0] in _SECONDS else None
    if len(words) != 2 or words[1] not in _SECONDS:
        return None
    count, unit = words
    if count[0].isdigit():
        n = float(count.replace(",", "."))
    elif count in W.NUMBER_WORDS:
        n = W.NUMBER_WORDS[count]
    else:
        return None
    if count in ("a", "an", "un", "una", "uno") and unit.endswith("s") and unit not in ("s",):
        return None  # "a minutes ago" is no expression
    try:
        amount = timedelta(seconds=n * _SECONDS[unit])
    except OverflowError:
        return None
    return amount if amount <= MOST else None


def ago(text: str) -> timedelta | None:
    """How long ago ``text`` says ("10 minutes ago" → 10 minutes), or None when it is not such an expression."""
    words = _words(text.strip(" .,;:!?¿¡"))
    if len(words) >= 3 and words[-1] == "ago":  # English: "<amount> ago"
        return _amount(words[:-1])
    if len(words) >= 2 and words[0] == "hace":  # Spanish: "hace <amount>"
        return _amount(words[1:])
    return None
