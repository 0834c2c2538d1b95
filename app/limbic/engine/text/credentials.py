"""Text that looks like a credential: keys and tokens of the common providers, private-key blocks, JSON Web
Tokens, passwords written as "password: …", URLs carrying a password, card numbers (Luhn) and IBANs (mod 97).

Each rule is a pattern of a known shape (a provider's prefix, a fixed length, a checksum): no rule
guesses from randomness alone, so hashes, UUIDs, commit ids, ISBNs and phone numbers are left alone.
``find`` returns what each match looks like, in words ("an API key (OpenAI)"), or nothing.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass

_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
_E = r"(?![A-Za-z0-9_\-])"  # not followed by more of a word

# (what it looks like, literal hints one of which the text must hold, pattern): the providers' documented
# prefixes and lengths. A rule runs only on a text holding one of its hints, so most texts cost a few
# substring look-ups; a match must start a word (the character before it is checked, not looked behind for).
_RULES: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = tuple(
    (what, hints, re.compile(pattern)) for what, hints, pattern in (
        ("a private key", ("PRIVATE KEY",),
         r"-----BEGIN (?:RSA |EC |DSA |OPENSSH |PGP |ENCRYPTED |ED25519 )?PRIVATE KEY(?: BLOCK)?-----"),
        ("an access key (AWS)", ("AKIA", "ASIA", "ABIA", "ACCA"), r"(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}" + _E),
        ("a secret key (AWS)", ("aws", "AWS", "Aws"),
         r"(?i)aws.{0,20}secret.{0,20}[:=]\s*['\"]?[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])"),
        ("a token (GitHub)", ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
         r"(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{60,255})" + _E),
        ("a token (GitLab)", ("glpat-",), r"glpat-[A-Za-z0-9_\-]{20,}" + _E),
        ("a token (Slack)", ("xox",), r"xox[abposr]-[A-Za-z0-9\-]{10,}"),
        ("a webhook (Slack)", ("hooks.slack.com",), r"hooks\.slack\.com/services/T[A-Z0-9]+/B[A-Z0-9]+/[A-Za-z0-9]{16,}"),
        ("an API key (Anthropic)", ("sk-ant-",), r"sk-ant-[a-z]{3,6}\d{2}-[A-Za-z0-9_\-]{32,}"),
        ("an API key (OpenAI)", ("T3BlbkFJ",), r"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]*T3BlbkFJ[A-Za-z0-9_\-]{16,}" + _E),
        ("an API key (OpenAI)", ("sk-proj-", "sk-svcacct-", "sk-admin-"),
         r"sk-(?:proj-|svcacct-|admin-)[A-Za-z0-9_\-]{20,}" + _E),
        ("an API key", ("sk-",), r"sk-[A-Za-z0-9]{32,64}" + _E),
        ("a key (Stripe)", ("_live_", "_test_"), r"(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{20,}" + _E),
        ("an API key (Google)", ("AIza",), r"AIza[0-9A-Za-z_\-]{35}" + _E),
        ("a token (Google OAuth)", ("ya29.",), r"ya29\.[0-9A-Za-z_\-]{30,}"),
        ("an API key (SendGrid)", ("SG.",), r"SG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}" + _E),
        ("a token (npm)", ("npm_",), r"npm_[A-Za-z0-9]{36}" + _E),
        ("a token (PyPI)", ("pypi-AgEIcHlwaS5vcmc",), r"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_\-]{50,}"),
        ("a token (Hugging Face)", ("hf_",), r"hf_[A-Za-z0-9]{34,40}" + _E),
        ("a token (Telegram bot)", (":AA",), r"\d{8,10}:AA[A-Za-z0-9_\-]{33}" + _E),
        ("an API key (Mailchimp)", ("-us",), r"[0-9a-f]{32}-us\d{1,2}" + _E),
        ("a key (Twilio)", ("SK",), r"SK[0-9a-f]{32}" + _E),
        ("a token (Shopify)", ("shpat_", "shpca_", "shppa_", "shpss_"), r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}" + _E),
        ("a JSON Web Token", ("eyJ",), r"eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"),
        ("a URL with a password", ("://",), r"[a-zA-Z][a-zA-Z0-9+.\-]{1,20}://[^\s/:@]{1,100}:[^\s/@]{3,100}@[^\s/@]+"),
    ))

# "password: hunter2", "api_key = 'abc…'": a word saying what follows is a secret, a colon or an equals sign, then
# a value with no space. Read from each colon or equals sign: the words before it, the value after it.
_LABEL_BEFORE = re.compile(
    r"(?i)(?<![A-Za-z])(password|passwd|pwd|passphrase|passcode|contraseña|contrasena|passwort|kennwort|"
    r"mot de passe|senha|api[_\- ]?key|api[_\- ]?token|access[_\- ]?token|auth[_\- ]?token|secret[_\- ]?key|"
    r"client[_\- ]?secret|private[_\- ]?key)(?:\s+(?:is|es|ist|est|for\s+\S+))?['\"]?\s*$"
)
_VALUE_AFTER = re.compile(r"\s*['\"“]?([^\s'\"”]{4,})")
_SIGNS = re.compile(r"[:=]")
_PLACEHOLDER = re.compile(r"(?i)^(?:\*+|x+|\.+|-+|<[^>]*>|\[[^\]]*\]|\{[^}]*\}|\$\{?\w+\}?|%\w+%|redacted|hidden|none|"
                          r"null|n/a|empty|changeme\*|your[_\-]?\w*|example\w*|dummy|placeholder|\.\.\.)$")

_HINT = re.compile("|".join(re.escape(h) for h in sorted({h for _, hints, _ in _RULES for h in hints}, key=len, reverse=True)))

# Card numbers: 13 to 19 digits, alone or in groups of 4 (or Amex's 4-6-5), under a card network's prefix.
_CARD_RUN = re.compile(r"\d[\d \-]{11,}\d")  # a long run of digits, spaces and dashes: looked at closer
_CARD = re.compile(r"(?<![\d\-])(?:\d[ \-]?){12,18}\d(?![\d\-])")
_CARD_PREFIX = re.compile(r"^(?:4\d{12}(?:\d{3}){0,2}|5[1-5]\d{14}|2(?:2[2-9]\d|[3-6]\d\d|7[01]\d|720)\d{12}|"
                          r"3[47]\d{13}|3(?:0[0-5]|[68]\d)\d{11}|6(?:011|5\d\d|4[4-9]\d)\d{12}|35(?:2[89]|[3-8]\d)\d{12})$")

# IBANs: a country, two check digits, and the country's length of letters and digits (mod 97 is 1).
_IBAN_RUN = re.compile(r"[A-Z]{2}\d{2}[A-Z0-9 ]{11,}")
_IBAN = re.compile(r"\b([A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30})\b")
_IBAN_LENGTH = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BR": 29, "CH": 21,
    "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24, "FI": 18, "FO": 18,
    "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23,
    "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "MC": 27,
    "MD": 24, "ME": 22, "MK": 19, "MR": 27, "MT": 31, "MU": 30, "NL": 18, "NO": 15, "PK": 24, "PL": 28, "PS": 29,
    "PT": 25, "QA": 29, "RO": 24, "RS": 22, "SA": 24, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "TN": 24, "TR": 26,
    "UA": 29, "VG": 24, "XK": 20,
}


@dataclass(frozen=True)
class Finding:
    """One credential-like piece of a text: what it looks like, and where."""

    what: str
    start: int
    end: int


def luhn(digits: str) -> bool:
    """The Luhn checksum that card numbers carry."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def iban_ok(text: str) -> bool:
    """A well-formed IBAN: its country's length and the ISO 7064 mod-97 check."""
    iban = text.replace(" ", "")
    if _IBAN_LENGTH.get(iban[:2]) != len(iban):
        return False
    moved = iban[4:] + iban[:4]
    return int("".join(str(int(c, 36)) for c in moved)) % 97 == 1


def find(text: str) -> list[Finding]:
    """What in ``text`` looks like a credential (empty when nothing does)."""
    if not isinstance(text, str) or len(text) < 8:
        return []
    out: list[Finding] = []
    present = set(_HINT.findall(text))
    for what, hints, pattern in _RULES if present else ():  # most texts hold no hint: no rule to look at
        if present.intersection(hints):
            out += [Finding(what, m.start(), m.end()) for m in pattern.finditer(text)
                    if m.start() == 0 or text[m.start() - 1] not in _WORD]
    for sign in _SIGNS.finditer(text):
        label = _LABEL_BEFORE.search(text, max(0, sign.start() - 48), sign.start())
        value = _VALUE_AFTER.match(text, sign.end()) if label else None
        if value and len(value.group(1).rstrip(".,;)")) >= 4 and not _PLACEHOLDER.match(value.group(1).rstrip(".,;)")):
            secret = any(w in label.group(1).lower() for w in ("key", "token", "secret"))
            out.append(Finding("a secret" if secret else "a password", label.start(), value.end()))
    for run in _CARD_RUN.finditer(text):
        for m in _CARD.finditer(text, max(0, run.start() - 1), min(len(text), run.end() + 1)):
            digits = re.sub(r"[ \-]", "", m.group(0))
            if _CARD_PREFIX.match(digits) and luhn(digits) and _grouped_like_a_card(m.group(0)):
                out.append(Finding("a card number", m.start(), m.end()))
    for run in _IBAN_RUN.finditer(text):
        for m in _IBAN.finditer(text, max(0, run.start() - 1), min(len(text), run.end() + 1)):
            candidate = m.group(1).rstrip()
            for end in range(len(candidate), 14, -1):  # the IBAN may be followed by more letters and digits
                if iban_ok(candidate[:end]):
                    out.append(Finding("a bank account number (IBAN)", m.start(), m.start() + end))
                    break
    return sorted(set(out), key=lambda f: (f.start, f.what))


# What ``find`` starts from: a rule's hint, a colon or an equals sign (looked for as text, which is fast), a run of
# a card's or an IBAN's characters (patterns that begin with a set of characters, which the scan skips to).
_NEEDLES = tuple(sorted({h for _, hints, _ in _RULES for h in hints} | {":", "="}))
_IBAN_START = re.compile(r"[A-Z][A-Z]\d\d[A-Z0-9 ]{11,}")  # _IBAN_RUN, written to start with a set


def candidates(texts: Sequence[str]) -> list[int]:
    """The positions in ``texts`` of those ``find`` may find something in (a superset: the others surely hold
    nothing), found in a few passes over all of them joined by NULs instead of several per text. Nothing looked
    for holds a NUL, so no match spans two texts."""
    joined = "\0".join(texts)
    found: list[int] = []
    for needle in _NEEDLES:
        at = joined.find(needle)
        while at != -1:
            found.append(at)
            at = joined.find(needle, at + 1)
    found += [m.start() for m in _CARD_RUN.finditer(joined)]
    found += [m.start() for m in _IBAN_START.finditer(joined)]
    starts, at = [], 0
    for text in texts:
        starts.append(at)
        at += len(text) + 1
    return sorted({bisect.bisect_right(starts, position) - 1 for position in found})


def _grouped_like_a_card(text: str) -> bool:
    """All digits together, or in the groups cards are printed in (4-4-4-4…, Amex 4-6-5, Diners 4-6-4)."""
    groups = re.split(r"[ \-]", text)
    if len(groups) == 1:
        return True
    sizes = [len(g) for g in groups]
    return sizes in ([4, 6, 5], [4, 6, 4]) or (all(s == 4 for s in sizes[:-1]) and 1 <= sizes[-1] <= 4)


def looks_like(text: str) -> str | None:
    """What the first credential-like piece of ``text`` looks like ("an API key (OpenAI)"), or None."""
    found = find(text)
    named = [f for f in found if f.what not in ("a secret", "a password")]  # a provider's shape says more
    return (named or found)[0].what if found else None
