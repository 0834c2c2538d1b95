"""Common words and meaningless queries: what must not reach the page (the sample graph's own cases)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from limbic.engine.search import readable
from limbic.engine.search.search import fts_match_expression, fts_terms, search
from limbic.engine.text.stopwords import content_terms, is_stopword


def test_common_words_leave_the_full_text_query():
    assert fts_terms("when is my next doctor appointment?") == ["next", "doctor", "appointment"]
    assert fts_terms("¿Cuándo es la cita con el médico?") == ["cita", "medico"] or fts_terms(
        "¿Cuándo es la cita con el médico?"
    ) == ["cita", "médico"]
    assert fts_terms("Wann ist der Termin für das Auto?") == ["termin", "auto"]
    # Nothing but common words: they are what the person is looking for ("The Who").
    assert fts_terms("the who") == ["the", "who"]
    assert content_terms(["de", "la"]) == ["de", "la"]
    # A word being typed is still a prefix; a common word at the end is not one.
    assert fts_match_expression("doctor appoi") == '{stem_name stem_text} : ("doctor" OR "appoi" OR "appoi"*)'
    assert fts_match_expression("doctor when") == '{stem_name stem_text} : ("doctor")'


def test_words_that_mean_something_in_english_are_not_stopwords():
    for word in ("die", "war", "man", "hat", "son", "era", "todo", "dove"):
        assert not is_stopword(word), word
    for word in ("the", "when", "qué", "über", "está", "não", "pourquoi", "perché"):
        assert is_stopword(word), word


def test_a_common_word_does_not_decide_the_full_text_branch(sample):
    # "Prevents a customer from paying twice when a request is retried": only "when" is shared.
    resp = search(sample, "when is my next doctor appointment?", record=False)
    decision = "Decision: idempotency keys on payment retries"
    assert resp.results and resp.results[0].name != decision
    assert all(r.branch == "meaning" for r in resp.results if r.name == decision)


def test_payment_query_does_not_match_unrelated_notes_through_common_words(sample):
    # Both entities share only "the", "of", "on", "out", "for"... with this query.
    resp = search(sample, "what was the fix for the duplicate payments on the card network", limit=20, record=False)
    for name in ("Astro Starlight", "Tax return 2025"):
        assert all(r.branch == "meaning" for r in resp.results if r.name == name), name
    assert resp.results[0].name in ("HAR-2291", "Decision: idempotency keys on payment retries")


@pytest.mark.parametrize("query", ["*", "-", "zz", "?", "--", "***"])
def test_meaningless_queries_find_no_good_match(sample, query):
    resp = search(sample, query, record=False)
    assert resp.results == [] and resp.no_match
    assert resp.to_json()["no_good_match"] is True
    assert query.strip() in resp.no_match_sentence


def test_real_queries_keep_their_page(sample):
    for query in ("payments team lead", "dark mode", "teal accent colour"):
        resp = search(sample, query, record=False)
        assert resp.results and not resp.no_match, query
        assert "no_good_match" not in resp.to_json()


def test_accent_insensitive_match_reaches_the_page(sample):
    resp = search(sample, "medico de cabecera", record=False)
    assert resp.results[0].name == "Dr. Iñaki Beltrán"
    assert resp.results[0].branch == "both"


_RNG = random.Random(2000)
RANDOM_LETTERS = "".join(_RNG.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(2000))


@pytest.mark.parametrize("query", ["asdf", "qwertyuiop", "qqq xq", RANDOM_LETTERS])
@pytest.mark.parametrize("branches", ["both", "meaning"])
def test_gibberish_finds_no_good_match(sample, query, branches):
    resp = search(sample, query, record=False, branches=branches)
    assert resp.results == [] and resp.no_match, [r.name for r in resp.results]


def test_real_short_queries_are_still_answered(sample):
    for query, first in (("backup", None), ("fountain pen", "Fountain pen: Pilot Custom 74"), ("restic", "restic"), ("teal", None)):
        resp = search(sample, query, record=False)
        assert resp.results and not resp.no_match, query
        if first:
            assert resp.results[0].name == first, (query, [r.name for r in resp.results])


def test_a_fragment_finds_only_the_entities_that_hold_it(graph):
    for i in range(27):
        graph.upsert_entity(f"Note {i}", "Note", [f"Ordinary remark number {i} about the garden and the weather"])
    for name in ("Sleep log", "Snoring study", "Comic strip"):
        graph.upsert_entity(name, "Note", [f"The {name.lower()} shows zz where someone sleeps"])
    graph.upsert_entity("Gene map", "Note", ["A deletion at Xq13.3 on the X chromosome"])
    graph.embed_pending()
    resp = search(graph, "zz", record=False)
    assert {r.name for r in resp.results} == {"Sleep log", "Snoring study", "Comic strip"}
    assert [r.name for r in search(graph, "xq", record=False).results] == ["Gene map"]
    # Letters that are no word must all be there: "xq" alone would be the start of "Xq13.3".
    for query in ("asdf", "qwertyuiop", "qqq xq", RANDOM_LETTERS):
        assert search(graph, query, record=False).no_match, query


def test_a_real_word_in_another_language_is_answered_by_meaning(sample):
    # No note holds these words and their best hits stand out from the graph less than chance
    # would make the best of 50 unrelated notes: still words, so meaning answers.
    for query in ("copia de seguridad", "copias de seguridad del servidor"):
        for branches in ("both", "meaning"):
            resp = search(sample, query, record=False, branches=branches)
            assert resp.results and not resp.no_match, (query, branches)


def test_the_letter_model_tells_words_from_random_letters():
    # The English side of the cross-language pairs: about 250 words, as on a small graph.
    pairs = Path(__file__).with_name("crosslingual_pairs.tsv").read_text(encoding="utf-8")
    words = sorted({w.lower() for line in pairs.splitlines() if not line.startswith("#")
                    for w in re.findall(r"[^\W\d_]+", line.split("\t")[-1]) if len(w) >= 3})
    model = readable.build_model(words)
    for word in ("gardening", "weatherman", "seguridad", "bolígrafo", "passwords", "backup", "dentist"):
        assert readable.is_word(word, model), word
    for word in ("qwertyuiop", "asdf", "xq", "zz", "qqq", "hjkl", RANDOM_LETTERS):
        assert not readable.is_word(word, model), word
    assert readable.is_word("1702", model) and readable.is_word("lmb-1042", model)
