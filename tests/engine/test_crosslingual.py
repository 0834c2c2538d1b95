"""Spanish and English alike: with the default model a sentence finds its translation among 42.

The pairs (crosslingual_pairs.tsv) were written for this test: varied topics, few cognates, and
several pairs sharing a topic so that only the meaning tells them apart. all-MiniLM-L6-v2, the
English model, gets about 0.3 here.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from limbic.engine.search.search import search

PAIRS = Path(__file__).with_name("crosslingual_pairs.tsv")


def _pairs() -> list[tuple[str, str]]:
    rows = [line.rstrip("\n").split("\t") for line in PAIRS.read_text(encoding="utf-8").splitlines()]
    return [(r[0], r[1]) for r in rows if len(r) == 2 and not r[0].startswith("#")]


def test_the_pairs_are_many_and_distinct():
    pairs = _pairs()
    assert len(pairs) >= 30
    assert len({es for es, _ in pairs}) == len({en for _, en in pairs}) == len(pairs)


@pytest.mark.parametrize("direction", ["es->en", "en->es"])
def test_a_sentence_finds_its_translation(embedder, direction):
    es, en = map(list, zip(*_pairs()))
    source, target = (es, en) if direction == "es->en" else (en, es)
    queries = embedder.encode(source, kind="query")
    passages = embedder.encode(target, kind="passage")
    best = (queries @ passages.T).argmax(axis=1)
    accuracy = float((best == np.arange(len(source))).mean())
    misses = [(source[i], target[j]) for i, j in enumerate(best) if i != j]
    assert accuracy >= 0.95, misses


def test_spanish_query_finds_english_notes(graph):
    for _, en in _pairs()[:16]:
        graph.upsert_entity(en[:60], "Note", [en])
    graph.embed_pending()
    for query, start in (
        ("deudas con mi hermano por el piso", "I owe my brother the rent money"),
        ("mascota que ladra al repartidor de cartas", "The neighbour's dog barks"),
        ("abejas y pesticidas", "Bees are vanishing"),
        ("llaves escondidas en una maceta", "My grandmother always hides the keys"),
    ):
        response = search(graph, query, limit=3, record=False)
        assert response.results[0].name.startswith(start), (query, [r.name for r in response.results])


@pytest.mark.parametrize(("query", "wanted"), [
    # Short Spanish queries over the sample graph's English notes...
    ("reloj de mareas", "Tide Clock"),
    ("media maratón", "Valencia Half Marathon 2025"),
    ("clave GPG", "GPG key"),
    ("regalo para Ana", "Fountain pen: Pilot Custom 74"),
    ("biblioteca de fotos", "Photo library"),
    ("copia de seguridad", "Decision: nightly backups with restic"),
    ("copias de seguridad del servidor", "Decision: nightly backups with restic"),
    # ...and short English queries over its Spanish ones.
    ("potato omelette recipe", "Receta: tortilla de patatas"),
    ("one hundred years of solitude", "Book: Cien años de soledad"),
    ("family doctor", "Dr. Iñaki Beltrán"),
    ("Spanish omelette", "Receta: tortilla de patatas"),
])
def test_short_queries_cross_languages(sample, query, wanted):
    for branches in ("both", "meaning"):
        names = [r.name for r in search(sample, query, limit=3, record=False, branches=branches).results]
        assert wanted in names, (query, branches, names)
