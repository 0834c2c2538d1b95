"""The quick switcher's name look-up: typo-tolerant, accents folded, recently opened first."""

from __future__ import annotations

from limbic import config
from limbic.engine.formats.jsonl import import_file
from limbic.service.lookup import find_entities, fold


def _sample(graph):
    import_file(graph, config.resources_dir() / "sample_graph.jsonl", embed=False)
    return graph


def test_typos_and_accents_find_the_name(text_graph):
    g = _sample(text_graph)
    assert find_entities(g, "marta quintro")[0].name == "Marta Quintero"
    assert find_entities(g, "harbr api")[0].name == "Harbor API"
    assert find_entities(g, "inaki beltran")[0].name == "Dr. Iñaki Beltrán"
    assert find_entities(g, "RESTIC")[0].name == "restic"
    assert fold("Tomás  Ferreira!") == "tomas  ferreira"


def test_noise_is_cut_and_nothing_matches_nonsense(text_graph):
    g = _sample(text_graph)
    names = [m.name for m in find_entities(g, "marta quintro")]
    assert names == ["Marta Quintero"]  # not every name with an "a" in it
    assert find_entities(g, "zqxjkvw") == []


def _opened(graph, name: str, at: str) -> int:
    """Say the entity was last opened at ``at`` (explicit times: two opens within a second tie)."""
    entity_id = graph.get_entity(name).id
    with graph.write():
        graph.db.execute("INSERT INTO entity_access(entity_id, access_count, last_access) VALUES (?, 1, ?) "
                         "ON CONFLICT(entity_id) DO UPDATE SET last_access = excluded.last_access", (entity_id, at))
    return entity_id


def test_recently_opened_come_first(text_graph):
    g = _sample(text_graph)
    never = find_entities(g, "")
    assert not any(m.recent for m in never) and len(never) == 30  # names in order when nothing was opened
    chess = _opened(g, "Chess", "2026-01-01 10:00:00")
    running = _opened(g, "Running", "2026-01-02 10:00:00")  # later: first (and its id is the smaller)
    listed = find_entities(g, "")
    assert [m.entity_id for m in listed[:2]] == [running, chess] and listed[0].recent and not listed[2].recent
    # Two sessions of equal match: the recently opened one is first.
    sessions = [m for m in find_entities(g, "session 2026") if m.name.startswith("Session")]
    assert len(sessions) == 5
    opened = _opened(g, "Session 2026-04-09", "2026-01-03 10:00:00")
    assert find_entities(g, "session 2026")[0].entity_id == opened
