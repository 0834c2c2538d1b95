"""The .ts files are what lupdate finds in the code, every message is translated, and the translations keep
their blanks: CI fails on a new string nobody translated."""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.ui.language_sources import calls

ROOT = Path(__file__).resolve().parents[2]
I18N = ROOT / "resources" / "i18n"
UPDATE = ROOT / "scripts" / "update_translations.py"


def messages(path: Path) -> dict[tuple[str, str], tuple[bool, list[str], str | None]]:
    """(context, source) → (plural, forms, translation type) of a .ts file."""
    out = {}
    for context in ET.parse(path).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            translation = message.find("translation")
            forms = [f.text or "" for f in translation.findall("numerusform")] or [translation.text or ""]
            out[(name, message.findtext("source") or "")] = (message.get("numerus") == "yes", forms,
                                                              translation.get("type"))
    return out


def test_lupdate_finds_nothing_new_or_gone():
    """lupdate run now into a temporary file gives exactly the committed messages (make update-translations)."""
    result = subprocess.run([sys.executable, str(UPDATE), "--check"], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("name", ["limbic_es.ts", "limbic_en.ts"])
def test_every_message_is_translated_with_its_blanks(name):
    found = messages(I18N / name)
    assert found
    unfinished = [source for (_, source), (_, _, kind) in found.items() if kind is not None]
    assert not unfinished, f"{len(unfinished)} untranslated in {name}: {unfinished[:20]}"
    for (context, source), (plural, forms, _) in found.items():
        assert plural == ("%n" in source), (context, source)
        assert len(forms) == (2 if plural else 1), (context, source)
        blanks = sorted(set(re.findall(r"\{[^}]*\}", source)))
        for form in forms:
            assert form.strip(), (context, source)
            assert sorted(set(re.findall(r"\{[^}]*\}", form))) == blanks, (context, source, form)
            assert (re.search(r"%L?n", form) is not None) == plural, (context, source, form)
            assert form.count("&") - 2 * form.count("&&") <= 1, (context, source, form)


def test_every_call_in_the_code_is_in_the_spanish_file():
    """Each translate()/QT_TRANSLATE_NOOP() of limbic/ui is one lupdate reads (plain arguments, outside
    f-strings) and is in limbic_es.ts, as a plural when it passes a count."""
    found = messages(I18N / "limbic_es.ts")
    code = calls()
    assert len(code) > 800
    unreadable = [c.where for c in code if not c.simple]
    assert not unreadable, f"lupdate cannot read these calls (bind the count to a name, leave the f-string): {unreadable}"
    missing = [f"{c.where}: {c.source!r}" for c in code if (c.context, c.source) not in found]
    assert not missing, "\n".join(missing)
    wrong = [c.where for c in code if c.plural and not found[(c.context, c.source)][0]]
    assert not wrong, f"a count is passed but the message has no plural forms (%n missing?): {wrong}"


def test_no_text_hides_behind_an_alias():
    """A literal passed to a helper such as ``_tr("…")`` is invisible to lupdate: it would stay English."""
    import ast

    from tests.ui.language_sources import UI

    hidden = []
    for path in sorted(UI.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("_tr", "tr", "_")
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                hidden.append(f"{path.relative_to(UI.parent.parent)}:{node.lineno}: {node.args[0].value!r}")
    assert not hidden, "use translate(context, text) so lupdate finds them:\n" + "\n".join(hidden)
