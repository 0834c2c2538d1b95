"""The secrets guard's eye: real-looking credentials are seen, look-alikes (hashes, UUIDs, commit ids, ISBNs, phone
numbers, placeholders) are not."""

from __future__ import annotations

import random

import pytest

from limbic.engine.text.credentials import candidates, find, iban_ok, looks_like, luhn

# Made up in each provider's documented shape (none is a live credential).
HELD = [
    ("my key is sk-proj-4fG7hJ2kL9mN3pQ8rS1tV6wX0yZ5aB2cD7eF4gH9iJ3kL8mN1pQ6rS0tV5w", "OpenAI"),
    ("staging token sk-proj-4fT9kQ2mXc8vLz7pR1sYw3bN6hJ0aE5dG2uK9oP", "OpenAI"),  # a project key cut short
    ("OPENAI_API_KEY=sk-Zx8Qw2Er4Ty6Ui8Op0As2Df4Gh6Jk8Lz0Xc", "API key"),
    ("anthropic sk-ant-api03-Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2Yz3Ab4Cd5Ef6Gh7Ij8Kl9Mn0-AbCdEf", "Anthropic"),
    ("AWS key AKIAZ7XQ4LMN3OPQ2RST for the backup bucket", "AWS"),
    ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "AWS"),
    ("token ghp_R8f3K1mZ9qW2eT5yU7iO0pA4sD6fG8hJ1kL3 for CI", "GitHub"),
    ("glpat-xY7zR2mK9pQ4wE1tU8vB", "GitLab"),
    ("slack bot xoxb-2048193746-4096387251-AbCdEfGhIjKlMnOpQrStUvWx", "Slack"),
    ("stripe sk_live_51HxYzAbCdEfGhIjKlMnOpQrStUv", "Stripe"),
    ("maps key AIzaSyD3x9Kq2Lm8Np4Rt6Vw1Yz5Ab7Cd0Ef2Gh", "Google"),
    ("hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "Hugging Face"),
    ("npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "npm"),
    ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ==\n-----END OPENSSH PRIVATE KEY-----",
     "private key"),
    ("-----BEGIN RSA PRIVATE KEY-----", "private key"),
    ("session eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
     "JSON Web Token"),
    ("db is postgres://admin:Sup3rS3cret@db.internal:5432/app", "URL with a password"),
    ("wifi password: Tr0ub4dor&3", "password"),
    ("La contraseña es: gatito2024", "password"),
    ("api_key = 'a8f5f167f44f4964e6c998dee827110c'", "secret"),
    ("Visa 4111 1111 1111 1111 exp 12/29", "card"),
    ("card 5555-5555-5555-4444", "card"),
    ("amex 378282246310005", "card"),
    ("IBAN DE89 3704 0044 0532 0130 00", "IBAN"),
    ("pay to GB82WEST12345698765432 by Friday", "IBAN"),
]

KEPT = [
    "sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "commit 3c53718e2f0b6a1d9c4e8f7a2b5d0c1e9f8a7b6c fixed the bug",
    "see 91fdbab and 8a9beb7",
    "uuid 123e4567-e89b-12d3-a456-426614174000",
    "ISBN 978-0-306-40615-7",
    "ISBN-10 0-306-40615-2 and 9780306406157",
    "call +34 612 345 678 or 0049 30 1234567",
    "order number 1234567890123456",
    "the password is in the vault",
    "password: ********",
    "password = <redacted>",
    "api_key: ${OPENAI_API_KEY}",
    "The key role of T cells: 4 findings",
    "Idea clave: descentralizar la red",
    "risk-assessment and sk-learn pipelines",
    "DE00 1234 5678 9012 3456 78 is a made-up account",
    "Meeting on 2026-03-01 at 10:30, room 4111",
    "md5 a8f5f167f44f4964e6c998dee827110c",
    "https://example.com/path?q=1",
    "ssh user@host and git@github.com:org/repo.git",
]


@pytest.mark.parametrize(("text", "kind"), HELD)
def test_a_real_looking_credential_is_seen_and_said_in_words(text, kind):
    what = looks_like(text)
    assert what is not None, text
    assert kind.lower() in what.lower(), (text, what)


@pytest.mark.parametrize("text", KEPT)
def test_a_look_alike_is_left_alone(text):
    assert find(text) == [], (text, find(text))


def test_the_checksums():
    assert luhn("4111111111111111") and not luhn("4111111111111112")
    assert iban_ok("DE89370400440532013000") and not iban_ok("DE89370400440532013001")
    assert not iban_ok("DE8937040044053201300")  # one character short of Germany's 22


def _pieces() -> list[str]:
    """Credentials, look-alikes, and texts cut from them (the ends of a card number or a key), NULs among them."""
    whole = [text for text, _ in HELD] + KEPT + ["", "x", "a\0b", "4111 1111\0 1111 1111", "key: \0hunter22", "ab:"]
    return whole + [text[:n] for text in whole for n in (1, 7, 12)] + [text[-n:] for text in whole for n in (3, 9, 20)]


def test_candidates_holds_every_text_find_finds_something_in():
    """One pass over the texts joined ranks nothing out that ``find`` would see, whatever its neighbours."""
    texts = _pieces()
    random.Random(7).shuffle(texts)
    for order in (texts, texts[::-1]):
        found = candidates(order)
        assert found == sorted(set(found))
        assert {i for i, text in enumerate(order) if find(text)} <= set(found)
        assert any(find(text) for text in order) and len(found) < len(order)  # it does rule texts out
    assert candidates([]) == [] and candidates(["plain words only"]) == []
