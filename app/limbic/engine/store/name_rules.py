"""What a name (entity name, type, relation type) may not hold beyond controls: look-alike and XML-breaking characters.

Bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069) reorder how text is drawn, so
two different names could look the same, or a name could seem to say something else: refused in
names (observations keep them). U+FFFE and U+FFFF are not characters; XML 1.0 (GraphML, SVG)
cannot carry them: refused in names at entry, and replaced by U+FFFD on export for what an older
graph already holds. Other invisible characters (zero-width space, joiners, soft hyphen) are
accepted and reported by the service layer's name check.
"""

from __future__ import annotations

import unicodedata

BIDI_CONTROLS = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))
NON_CHARACTERS = frozenset("\ufffe\uffff")


def name_problem(text: str) -> str | None:
    """Why ``text`` cannot be a name (completing "cannot contain ..."), or None."""
    if text.isascii():
        return None  # every character refused here lies beyond ASCII
    for ch in text:
        if ch in BIDI_CONTROLS:
            return (f"a bidirectional control ({char_label(ch)}), which changes how the text around it is "
                    "drawn so that two names could look alike")
        if ch in NON_CHARACTERS:
            return f"{char_label(ch)}, which is not a character (XML files such as GraphML and SVG cannot hold it)"
    return None


def char_label(ch: str) -> str:
    """``U+202E RIGHT-TO-LEFT OVERRIDE``: a character named so that a person can see it."""
    return f"U+{ord(ch):04X} {unicodedata.name(ch, 'unnamed character')}"
