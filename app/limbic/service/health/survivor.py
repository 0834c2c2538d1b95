"""Which of two duplicates stays by default: the better name, and the one reason that decided it.

Assistants write names in a hurry ("ana ruiz", "NYC", "Ruiz, Tomás"); the person wrote the careful
one. A merge keeps one name, so the default keeps: accents over their absence ("José García" over
"Jose Garcia"), the full form over an abbreviation or initials ("New York City" over "NYC"), the
fuller name over a part of it ("Marta Quintero" over "Marta"), then
the better-connected entity, the one with more observations, a name written with capitals over
one in lower case, a name in reading order over "Surname, Given", and last the older entity. The
first rule that tells the two apart decides, and its reason is shown with the pair.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from limbic.service.health import text


@dataclass(frozen=True)
class Side:
    """What the choice looks at for one entity of the pair."""

    name: str
    relations: int = 0
    observations: int = 0


def accents(name: str) -> int:
    """How many letters of a name carry an accent or another mark."""
    return sum(1 for ch in unicodedata.normalize("NFD", name) if unicodedata.combining(ch))


def _letters(name: str) -> int:
    return sum(len(w) for w in text.words(name))


def abbreviates(short: str, long: str) -> bool:
    """``short`` is an abbreviation or the initials of ``long`` ("NYC" / "New York City", "PG 16" / "Postgres 16")."""
    s, l_ = text.NameInfo(short), text.NameInfo(long)
    if _letters(short) >= _letters(long):
        return False
    if text.is_acronym_of(short, long) or text._abbreviates_part(s.words, l_.words):
        return True
    # The same words once abbreviations are spelled out, and ``short`` wrote some of them short.
    return s.key == l_.key and any(w in text.ABBREVIATIONS and text.ABBREVIATIONS[w] != w for w in s.words)


def inside(short: str, long: str) -> bool:
    """Every word that says which thing ``short`` names is in ``long``, which has more ("Marta" / "Marta Quintero")."""
    return text.NameInfo(short).core < text.NameInfo(long).core


def _capitals(name: str) -> bool:
    return any(ch.isupper() for ch in name)


def _reversed(name: str) -> bool:
    """"Surname, Given": a comma between exactly two parts."""
    parts = [p for p in name.split(",") if p.strip()]
    return len(parts) == 2 and "," in name


def choose(a: Side, b: Side) -> tuple[int, str]:
    """0 to keep ``a``, 1 to keep ``b``, and the reason in a few words ("has accents")."""
    same_letters = text.fold(a.name) == text.fold(b.name) or text.NameInfo(a.name).key == text.NameInfo(b.name).key
    short = 1 if abbreviates(b.name, a.name) else -1 if abbreviates(a.name, b.name) else 0
    part = 1 if inside(b.name, a.name) else -1 if inside(a.name, b.name) else 0
    rules = (
        # Accents decide between spellings of one name only: "Ciudad de México" is no better than "Mexico City".
        ((accents(a.name) - accents(b.name)) if same_letters else 0, "has accents"),
        (short, "the full form, not the abbreviation"),
        (part, "the fuller name"),
        (a.relations - b.relations, None),
        (a.observations - b.observations, None),
        (int(_capitals(a.name)) - int(_capitals(b.name)), "written with capitals"),
        (int(_reversed(b.name)) - int(_reversed(a.name)), "the name in reading order"),
    )
    for k, (difference, why) in enumerate(rules):
        if difference:
            keep = 0 if difference > 0 else 1
            kept, other = (a, b) if keep == 0 else (b, a)
            if why is None and k == 3:
                why = f"better connected ({kept.relations} relations against {other.relations})"
            elif why is None:
                why = f"more observations ({kept.observations} against {other.observations})"
            return keep, why
    return 0, "the older of the two"


def sentence(kept: str, why: str) -> str:
    """How the view says which one stays and why: keeps “José García”: has accents."""
    return f"keeps “{kept}”: {why}"
