"""What a name may not hold beyond controls: bidirectional controls and non-characters, never an ASCII character."""

from __future__ import annotations

from limbic.engine.store.name_rules import BIDI_CONTROLS, NON_CHARACTERS, name_problem


def test_no_ascii_text_is_refused_and_each_refused_character_is_named_wherever_it_stands():
    assert name_problem("".join(chr(c) for c in range(128))) is None
    for ch in sorted(BIDI_CONTROLS | NON_CHARACTERS):
        for text in (ch, f"Ada{ch}", f"{ch}Ada Lovelace", f"Ñandú {ch} x"):
            said = name_problem(text)
            assert said is not None and f"U+{ord(ch):04X}" in said
    assert name_problem("Ñandú ⁦ok") is not None and name_problem("Ñandú ok") is None
