"""A logged change in the window's language: the Activity panel and the editor's history say what each change
did in Spanish in a Spanish window, and in English word for word as the engine says it."""

from __future__ import annotations

from limbic.engine.graph import change_words as engine_words
from limbic.engine.graph.graph import Graph
from limbic.engine.history.valid import set_observation_validity
from limbic.engine.store.db import Database
from limbic.service import activity
from limbic.ui.common import change_words
from tests.ui.test_spanish_window import spanish  # noqa: F401  (the fixture)


def _graph(tmp_path) -> Graph:
    g = Graph(Database(tmp_path / "g.db"))
    g.upsert_entity("Ada", "Person", ["likes tea", "plays chess"])
    g.upsert_entity("Bob", "Person", ["likes rain"])
    g.add_relation("Ada", "Bob", "knows")
    g.set_entity_type("Ada", "Mathematician")
    g.rename_entity("Bob", "Robert")
    tea = g.db.scalar("SELECT id FROM observations WHERE content = 'likes tea'")
    g.edit_observation(tea, "likes green tea")
    set_observation_validity(g, tea, "2020-01-01", None)
    g.supersede_observation(g.db.scalar("SELECT id FROM observations WHERE content = 'plays chess'"), "plays go")
    g.add_alias("Ada", "Countess")
    g.end_relation("Ada", "Robert", "knows", "2025-01-01 00:00:00")
    g.delete_entity("Robert")
    return g


def _changes(g: Graph):
    ids = [r[0] for r in g.db.execute("SELECT id FROM change_log ORDER BY id")]
    return activity.changes(g, ids)


def test_the_window_lists_every_template_the_engine_uses():
    assert set(change_words.TEMPLATES) == set(engine_words.TEMPLATES)


def test_in_english_the_window_says_what_the_engine_says(qapp, tmp_path):
    g = _graph(tmp_path)
    try:
        changes = _changes(g)
        assert len(changes) >= 10
        for c in changes:
            assert change_words.change_words(c) == c.summary
            for it in c.items:
                assert change_words.item_words(c, it) == it.summary
    finally:
        g.db.close()


def test_in_spanish_the_window_says_it_in_spanish(spanish, tmp_path):  # noqa: F811
    g = _graph(tmp_path)
    try:
        lines = [change_words.change_words(c) for c in _changes(g)]
    finally:
        g.db.close()
    text = "\n".join(lines)
    assert "creó “Ada” (Person)" in text and "renombró “Bob” → “Robert”" in text
    assert "editó en “Ada”: “likes tea” → “likes green tea”" in text
    assert "vigente en el mundo desde 2020-01-01" in text and "sustituyó en “Ada”" in text
    assert "terminó la relación Ada —knows→ Robert" in text and "borró “Robert”" in text
    for english in ("created", "renamed", "edited in", "held in the world", "superseded in", "ended relation",
                    "deleted", "gave “", " with "):
        assert english not in text, (english, text)


def test_a_session_without_a_client_names_its_writer_once_in_the_windows_language(spanish):  # noqa: F811
    from limbic.engine.graph.activity_log import Session
    from limbic.ui.activity.activity_panel import session_title

    cli = session_title(Session(1, "cli", "", "", "2026-12-07 10:37:00", total=1))
    assert cli.startswith("línea de comandos · 10:37, 2026-12-07 · 1 cambio"), cli
    assert "command line" not in cli
    assistant = session_title(Session(2, "assistant", "cursor", "1.0", "2026-12-07 10:37:00", total=2))
    assert assistant.startswith("cursor 1.0 · asistente · 10:37"), assistant
