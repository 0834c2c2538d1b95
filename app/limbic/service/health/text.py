"""How names and observations are compared: case, accents, punctuation, word order and abbreviations taken out."""

from __future__ import annotations

import re
import unicodedata

from rapidfuzz import fuzz

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_PAREN = re.compile(r"\(([^)]*)\)")
_DIGITS = re.compile(r"\d+")
# Short forms people and assistants write for the same word; both sides are mapped to the long form.
ABBREVIATIONS = {
    "db": "database", "dbs": "database", "pg": "postgres", "postgresql": "postgres", "psql": "postgres",
    "k8s": "kubernetes", "js": "javascript", "ts": "typescript", "py": "python", "repo": "repository",
    "docs": "documentation", "doc": "documentation", "infra": "infrastructure", "config": "configuration",
    "cfg": "configuration", "env": "environment", "prod": "production", "dev": "development",
    "eng": "engineering", "dept": "department", "intl": "international", "mgmt": "management",
    "univ": "university", "uni": "university", "corp": "corporation", "co": "company", "inc": "incorporated",
    "ltd": "limited", "st": "street", "ave": "avenue", "rd": "road", "dr": "doctor", "prof": "professor",
    "mtg": "meeting", "mgr": "manager", "govt": "government", "gov": "government", "app": "application",
    "apps": "application", "svc": "service", "srv": "server", "auth": "authentication", "admin": "administration",
    "ml": "machine learning", "ai": "artificial intelligence", "ui": "user interface", "api": "api",
    "nyc": "new york city", "la": "los angeles", "uk": "united kingdom", "us": "united states",
    "usa": "united states", "eu": "european union", "hr": "human resources", "qa": "quality assurance",
    "ci": "continuous integration", "cd": "continuous delivery", "os": "operating system",
    "jan": "january", "feb": "february", "mar": "march", "apr": "april", "jun": "june", "jul": "july",
    "aug": "august", "sep": "september", "sept": "september", "oct": "october", "nov": "november", "dec": "december",
    "mon": "monday", "tue": "tuesday", "wed": "wednesday", "thu": "thursday", "fri": "friday",
    "sat": "saturday", "sun": "sunday", "no": "number", "num": "number", "vs": "versus", "w": "with",
}
# Words that say what kind of thing a name is rather than which one: "Postgres (database)" and
# "Postgres DB" name the same thing as "Postgres". Words that do change identity ("backup",
# "repository", "job") are not here.
QUALIFIERS = frozenset("""
the a an of database server service system tool app application software platform framework library
company organization organisation corporation incorporated limited group team person project
""".split())
_STOP = frozenset("""
the a an of and or to in on at for by with from is are was were be been it its this that as de la el
los las del y en un una le les des et du der die das und von zu mit ist
""".split())


_MARKS = re.compile(r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")


_INVISIBLE = re.compile(r"[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]")


def fold(text: str) -> str:
    """Lower case without accents or invisible characters, in NFKC (so "Ruíz" and "RUIZ" fold alike)."""
    if text.isascii():
        return text.lower()
    stripped = _MARKS.sub("", unicodedata.normalize("NFKD", _INVISIBLE.sub("", text)))
    return unicodedata.normalize("NFKC", stripped).casefold()


def words(text: str) -> list[str]:
    """The folded words of a text (punctuation dropped)."""
    return _WORD.findall(fold(text))


def name_tokens(name: str) -> list[str]:
    """A name's words with abbreviations spelled out ("PG DB" -> postgres database)."""
    out: list[str] = []
    for w in words(name):
        out.extend(ABBREVIATIONS.get(w, w).split())
    return out


def core_tokens(name: str) -> list[str]:
    """The words that say which thing a name means: qualifiers and parenthesised type words left out."""
    tokens = name_tokens(name)
    core = [t for t in tokens if t not in QUALIFIERS]
    return core or tokens


def name_key(name: str) -> str:
    """Order-free key of a name: "Ruiz, Ana" and "ana ruíz" get the same one."""
    return " ".join(sorted(core_tokens(name)))


def squashed(name: str) -> str:
    """The core words run together in order ("Post-gres" and "Postgres" agree)."""
    return "".join(core_tokens(name))


def acronym(name: str) -> str:
    """Initials of a name of two or more words ("Customer Relationship Management" -> crm), else ""."""
    tokens = [t for t in words(name) if t not in _STOP]
    return "".join(t[0] for t in tokens) if len(tokens) >= 2 else ""


def is_acronym_of(short: str, long: str) -> bool:
    """True if ``short`` is one word that spells the initials of ``long`` (CRM / Customer Relationship Management)."""
    w = words(short)
    if len(w) != 1 or len(w[0]) < 2:
        return False
    return w[0] == acronym(long)


def _abbreviates_part(short: list[str], long: list[str]) -> bool:
    """The same words around one word of ``short`` that spells the initials of the rest of ``long`` (Harbor API)."""
    start = 0
    while start < min(len(short), len(long)) and short[start] == long[start]:
        start += 1
    end = 0
    while end < min(len(short), len(long)) - start and short[-1 - end] == long[-1 - end]:
        end += 1
    rest_short, rest_long = short[start:len(short) - end], long[start:len(long) - end]
    if len(rest_short) != 1 or len(rest_long) < 2 or start + end == 0:
        return False
    return rest_short[0] == "".join(w[0] for w in rest_long if w not in _STOP)


def observation_key(text: str) -> str:
    """An observation with case, accents, punctuation and spacing taken out (same fact, same key)."""
    return " ".join(words(text))


def content_words(text: str) -> set[str]:
    """The words of a text that carry its topic (stop words and very short words left out), cut to six letters."""
    return {w[:6] for w in words(text) if len(w) > 2 and w not in _STOP and not w.isdigit()}


def numbers(text: str) -> list[str]:
    """The numbers in a text, in order (leading zeros dropped)."""
    return [d.lstrip("0") or "0" for d in _DIGITS.findall(fold(text))]


class NameInfo:
    """A name's normalised forms, worked out once (a scan compares each name with many others)."""

    __slots__ = ("folded", "words", "plain", "sorted", "core", "key", "squashed", "acronym", "numbers")

    def __init__(self, name: str) -> None:
        self.folded = fold(name).strip()
        self.words = _WORD.findall(self.folded)
        self.plain = " ".join(self.words)
        self.sorted = sorted(self.words)
        tokens: list[str] = []
        for w in self.words:
            tokens.extend(ABBREVIATIONS.get(w, w).split())
        core = [t for t in tokens if t not in QUALIFIERS] or tokens
        self.core = frozenset(core)
        self.key = " ".join(sorted(core))
        self.squashed = "".join(core)
        initials = [t for t in self.words if t not in _STOP]
        self.acronym = "".join(t[0] for t in initials) if len(initials) >= 2 else ""
        self.numbers = tuple(d.lstrip("0") or "0" for d in _DIGITS.findall(" ".join(tokens)))


def similarity_of(x: NameInfo, y: NameInfo) -> tuple[float, str]:
    """``name_similarity`` on names already described."""
    if (x.numbers or y.numbers) and x.numbers != y.numbers:
        return 0.0, ""  # "Session 2026-04-02" and "Session 2026-04-09", "v2" and "v3": different things
    if x.key and x.key == y.key:
        if x.folded == y.folded:
            return 1.0, "The names are the same apart from case or accents."
        if x.plain == y.plain:
            return 1.0, "The names are the same apart from punctuation."
        if x.sorted == y.sorted:
            return 0.97, "The names have the same words in another order."
        return 0.95, "The names are the same once abbreviations and words like “database” are set aside."
    if (len(x.words) == 1 and len(x.words[0]) >= 2 and x.words[0] == y.acronym) or (
            len(y.words) == 1 and len(y.words[0]) >= 2 and y.words[0] == x.acronym):
        return 0.9, "One name is the initials of the other."
    if _abbreviates_part(x.words, y.words) or _abbreviates_part(y.words, x.words):
        return 0.9, "One name has initials where the other spells the words out."
    if x.squashed and x.squashed == y.squashed:
        return 0.95, "The names are the same apart from spaces and punctuation."
    ratio = max(fuzz.ratio(x.key, y.key), fuzz.ratio(x.squashed, y.squashed)) / 100.0
    if ratio >= 0.85 and min(len(x.squashed), len(y.squashed)) >= 5:
        return ratio, f"The names differ by a few letters ({round(ratio * 100)}% alike)."
    return ratio, ""


def name_similarity(a: str, b: str) -> tuple[float, str]:
    """How alike two names are once normalised (0..1), and the sentence that says why."""
    return similarity_of(NameInfo(a), NameInfo(b))


def extra_of(x: NameInfo, y: NameInfo) -> frozenset[str]:
    """``extra_words`` on names already described."""
    if x.core <= y.core:
        return y.core - x.core
    if y.core <= x.core:
        return x.core - y.core
    return frozenset()


def extra_words(a: str, b: str) -> set[str]:
    """Core words one name has beyond all of the other's ("Postgres backup job" over "Postgres": backup, job)."""
    return set(extra_of(NameInfo(a), NameInfo(b)))
