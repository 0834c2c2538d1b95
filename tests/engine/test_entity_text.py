"""The embedded text: seed format, token budget, head + tail + diverse middle, relations last."""

from __future__ import annotations

from limbic.engine.vectors.entity_text import EntitySource, build_text


def words(texts):
    return [len(t.split()) for t in texts]


def test_small_entity_keeps_everything_in_the_seed_format():
    src = EntitySource(1, "Limbic", "Project", ("Desktop app", "Hybrid search"), (("uses", "SQLite"), ("by", "Ana")))
    assert build_text(src, words, 480) == "Limbic (Project) | Desktop app | Hybrid search | Rel: uses -> SQLite; by -> Ana"
    assert build_text(src, None, 5) == build_text(src, words, 480)  # no tokenizer: no budget


def test_long_entity_keeps_head_tail_and_diverse_middle():
    obs = ["first about apples", "second about pears"]
    obs += ["filler filler filler filler"] * 20
    obs += ["unique zebra giraffe lion"]
    obs += ["penultimate note today", "latest note today"]
    src = EntitySource(1, "Fruit", "Topic", tuple(obs), (("see", "Market"),))
    text = build_text(src, words, 30)
    assert sum(words([text.replace(" | ", " ")])) <= 30 + 10  # separators are approximate
    assert text.startswith("Fruit (Topic) | first about apples | second about pears")
    assert "latest note today" in text and "penultimate note today" in text
    assert "unique zebra giraffe lion" in text  # the middle prefers new words over repeats
    assert text.count("filler filler") <= 1
    assert text.endswith("Rel: see -> Market")


def test_single_huge_observation_is_cut_not_dropped():
    src = EntitySource(1, "Doc", "Note", ("word " * 5000,), ())
    text = build_text(src, words, 100)
    assert text.startswith("Doc (Note) | word word")
    assert len(text.split()) < 200


def test_digest_changes_with_the_text_only():
    a = EntitySource(1, "A", "T", ("x",), ())
    assert a.digest() == EntitySource(1, "A", "T", ("x",), ()).digest()
    assert a.digest() != EntitySource(1, "A", "T", ("x", "y"), ()).digest()
    assert a.digest() != EntitySource(1, "A", "T", ("x",), (("r", "B"),)).digest()
    assert a.digest() != EntitySource(1, "A", "U", ("x",), ()).digest()
