"""Matched terms are found the way full-text search finds them: without case or accents."""

from __future__ import annotations

from limbic.engine.search.highlight import match_spans, matched_terms


def words(text, terms):
    return [text[a:b] for a, b in match_spans(text, terms)]


def test_accents_do_not_hide_a_match():
    text = "Médico de cabecera en el centro de salud"
    assert words(text, ["medico", "salud"]) == ["Médico", "salud"]
    # ...and the other way round: an accented query marks the plain word.
    assert words("Medico on Tuesdays", ["médico"]) == ["Medico"]


def test_spans_point_into_the_original_text_past_expanding_characters():
    # "ß" folds to two letters and "ﬁ" is one character for "fi": spans still land on the original.
    text = "Straße und ﬁnanzamt: Müller"
    assert words(text, ["strasse", "muller", "finanzamt"]) == ["Straße", "ﬁnanzamt", "Müller"]


def test_whole_words_except_the_last_term_and_no_common_words():
    text = "Harbor ships HAR-2291 when the harbour opens"
    assert words(text, ["har", "2291"]) == ["HAR", "2291"]  # "har" is not the last term: not inside Harbor
    assert words(text, ["2291", "har"]) == ["Harbor", "HAR", "2291", "harbour"]  # the last may be half typed
    assert words(text, ["when", "harbour"]) == ["harbour"]  # "when" says nothing: not marked
    assert matched_terms(text, ["HARBOR", "opens"]) == {"harbor", "opens"}


def test_nothing_to_mark():
    assert match_spans("", ["x"]) == []
    assert match_spans("some text", []) == []
    assert match_spans("some text", ["the", "of"]) == []
