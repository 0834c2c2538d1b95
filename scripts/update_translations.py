"""Gather the window's strings again with pyside6-lupdate into resources/i18n, keeping what is translated.

    .venv/bin/python scripts/update_translations.py          # or: make update-translations
    .venv/bin/python scripts/update_translations.py --check  # exit 1 when the .ts files are not up to date

lupdate reads every ``translate(context, text)`` and ``QT_TRANSLATE_NOOP(context, text)`` in limbic/ui. Its Python
reader marks a message as plural only for ``self.tr``, so a text holding ``%n`` is made a plural message here, and
the translations already in the .ts files are carried over by context and text (lupdate's own merge would drop the
plural forms). ``limbic_es.ts`` holds every message; ``limbic_en.ts`` only the plural ones (English needs “1 entity”
and “2 entities” from the source “%n entities”). A message without a translation is left ``unfinished``: the tests
fail on one, and ``pyside6-lrelease`` leaves it in English.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
UI = ROOT / "app" / "limbic" / "ui"
I18N = ROOT / "resources" / "i18n"
LANGUAGES = {"es": ("es_ES", False), "en": ("en_US", True)}  # code: (.ts language, plural messages only)


def lupdate() -> Path:
    return Path(sys.executable).parent / "pyside6-lupdate"


def extract(tmp: Path) -> list[tuple[str, str]]:
    """(context, source) of every message lupdate finds in limbic/ui, in its order."""
    out = tmp / "extracted.ts"
    files = sorted(str(p) for p in UI.rglob("*.py"))
    subprocess.run([str(lupdate()), "-silent", "-locations", "none", "-no-obsolete", *files, "-ts", str(out)],
                   check=True)
    found: list[tuple[str, str]] = []
    for context in ET.parse(out).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            found.append((name, message.findtext("source") or ""))
    return found


def read(path: Path) -> dict[tuple[str, str], list[str]]:
    """The finished translations of a .ts file: (context, source) → its forms (one, or one per plural form)."""
    if not path.exists():
        return {}
    done: dict[tuple[str, str], list[str]] = {}
    for context in ET.parse(path).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            translation = message.find("translation")
            if translation is None or translation.get("type") in ("unfinished", "obsolete", "vanished"):
                continue
            forms = [f.text or "" for f in translation.findall("numerusform")] or [translation.text or ""]
            if all(forms):
                done[(name, message.findtext("source") or "")] = forms
    return done


def build(messages: list[tuple[str, str]], old: dict[tuple[str, str], list[str]], language: str,
          plural_only: bool) -> bytes:
    root = ET.Element("TS", version="2.1", language=language)
    by_context: dict[str, ET.Element] = {}
    for name, source in sorted(set(messages), key=lambda m: (m[0], messages.index(m))):
        plural = "%n" in source
        if plural_only and not plural:
            continue
        context = by_context.get(name)
        if context is None:
            context = by_context[name] = ET.SubElement(root, "context")
            ET.SubElement(context, "name").text = name
        message = ET.SubElement(context, "message", numerus="yes") if plural else ET.SubElement(context, "message")
        ET.SubElement(message, "source").text = source
        forms = old.get((name, source))
        translation = ET.SubElement(message, "translation")
        if forms is None or (plural and len(forms) != 2):
            translation.set("type", "unfinished")
            forms = ["", ""] if plural else [""]
        if plural:
            for form in forms:
                ET.SubElement(translation, "numerusform").text = form
        else:
            translation.text = forms[0]
    ET.indent(root, space="    ")
    return b'<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n' + ET.tostring(root, encoding="utf-8") + b"\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 when a .ts file would change")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        messages = extract(Path(tmp))
    stale = []
    for code, (language, plural_only) in LANGUAGES.items():
        path = I18N / f"limbic_{code}.ts"
        text = build(messages, read(path), language, plural_only)
        if path.exists() and path.read_bytes() == text:
            continue
        stale.append(path.name)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text)
    unfinished = sum(p.read_text(encoding="utf-8").count('type="unfinished"') for p in I18N.glob("limbic_*.ts"))
    if args.check:
        if stale:
            print(f"not up to date: {', '.join(stale)} (run make update-translations)")
        return 1 if stale else 0
    print(f"{len(set(messages))} messages; {unfinished} without a translation" + (f"; wrote {', '.join(stale)}"
                                                                                  if stale else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
