"""The seed engine's SQLite file: every documented column comes over, older files lacking columns
import too, importing twice doubles nothing, and anything else is refused in one sentence."""

from __future__ import annotations

import apsw
import pytest
import sqlite_vec

from limbic.engine.search.search import search
from limbic.service.importers import ImportInputError, import_path
from limbic.service.importers.seed_db import import_seed_db
from tests.service.graph_state import graph_state

FULL_SCHEMA = """
CREATE TABLE entities (id INTEGER PRIMARY KEY, name TEXT UNIQUE NOT NULL, entity_type TEXT DEFAULT 'Generic',
    created_at TEXT, updated_at TEXT, status TEXT DEFAULT 'activo');
CREATE TABLE observations (id INTEGER PRIMARY KEY, entity_id INTEGER REFERENCES entities(id) ON DELETE CASCADE,
    content TEXT, created_at TEXT, similarity_flag INTEGER DEFAULT 0, kind TEXT DEFAULT 'generic',
    supersedes INTEGER REFERENCES observations(id), superseded_at TEXT);
CREATE TABLE relations (id INTEGER PRIMARY KEY, from_entity INTEGER, to_entity INTEGER, relation_type TEXT,
    created_at TEXT, context TEXT, active INTEGER DEFAULT 1, ended_at TEXT, UNIQUE(from_entity, to_entity, relation_type));
CREATE TABLE entity_access (entity_id INTEGER PRIMARY KEY, access_count INTEGER, last_access TEXT);
CREATE TABLE entity_access_log (entity_id INTEGER, access_date TEXT, access_count INTEGER, PRIMARY KEY(entity_id, access_date));
CREATE TABLE co_occurrences (entity_a_id INTEGER, entity_b_id INTEGER, co_count INTEGER, last_co TEXT,
    PRIMARY KEY(entity_a_id, entity_b_id));
CREATE TABLE reflections (id INTEGER PRIMARY KEY, target_type TEXT, target_id INTEGER, author TEXT, content TEXT,
    mood TEXT, created_at TEXT);
CREATE TABLE db_metadata (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE search_events (id INTEGER PRIMARY KEY, query TEXT);
CREATE VIRTUAL TABLE entity_fts USING fts5(name, entity_type, obs_text, tokenize="unicode61");
CREATE VIRTUAL TABLE entity_embeddings USING vec0(embedding float[384] distance_metric=cosine);
"""

ENTITIES = [
    (1, "CachorroSpace", "Proyecto", "2025-01-02 10:00:00", "2025-03-01 09:00:00", "activo"),
    (2, "Ana Pérez", "Persona", "2025-01-03 11:00:00", "2025-01-03 11:00:00", "pausado"),
    (3, "Sesion 2025-02-01", "Sesion", "2025-02-01 08:00:00", "2025-02-01 08:30:00", "completado"),
    (4, "Viejo blog", "Proyecto", "2024-05-05 05:05:05", "2024-06-06 06:06:06", "archivado"),
]
OBSERVATIONS = [
    (1, 1, "Built with Astro Starlight", "2025-01-02 10:00:00", 0, "generic", None, None),
    (2, 1, "Accent colour: purple", "2025-01-02 10:01:00", 0, "decision", None, "2025-03-01 09:00:00"),
    (3, 1, "Accent colour: teal (#2dd4bf)", "2025-03-01 09:00:00", 1, "decision", 2, None),
    (4, 2, "Diseñó el índice híbrido", "2025-01-03 11:00:00", 0, "generic", None, None),
    (5, 3, "Se decidió usar ECharts", "2025-02-01 08:10:00", 0, "sesion", None, None),
    (6, 4, "Hecho con Jekyll", "2024-05-05 05:05:05", 0, "generic", None, None),
]
RELATIONS = [
    (1, 2, 1, "contribuye_a", "2025-01-04 12:00:00", "diseñó la búsqueda", 1, None),
    (2, 3, 1, "parte_de", "2025-02-01 08:00:00", None, 1, None),
    (3, 4, 1, "producido_por", "2024-06-06 06:06:06", "antecesor", 0, "2025-01-02 10:00:00"),
]
REFLECTIONS = [
    (1, "entity", 1, "claude", "El proyecto va tomando forma con una paleta serena", "optimista", "2025-03-02 10:00:00"),
    (2, "relation", 1, "ana", "Colaboración fluida", None, "2025-03-03 10:00:00"),
    (3, "global", None, "claude", "El grafo crece sobre todo con sesiones", "reflexivo", "2025-03-04 10:00:00"),
    (4, "session", 42, "claude", "Sesión corta y productiva", None, "2025-03-05 10:00:00"),
]
ACCESS = [(1, 17, "2025-03-05 10:00:00"), (2, 3, "2025-02-01 10:00:00")]
ACCESS_LOG = [(1, "2025-03-01", 10), (1, "2025-03-05", 7), (2, "2025-02-01", 3)]
COOC = [(1, 2, 5, "2025-03-05 10:00:00"), (1, 3, 2, "2025-02-01 09:00:00")]


def make_seed(path, schema=FULL_SCHEMA, drop: dict[str, list[str]] | None = None):
    """A seed-engine file from its documented schema; ``drop`` removes columns as older versions lacked them."""
    conn = apsw.Connection(str(path))
    conn.enable_load_extension(True)
    conn.load_extension(sqlite_vec.loadable_path())
    conn.execute(schema)
    for table, rows in (
        ("entities", ENTITIES), ("observations", OBSERVATIONS), ("relations", RELATIONS), ("reflections", REFLECTIONS),
        ("entity_access", ACCESS), ("entity_access_log", ACCESS_LOG), ("co_occurrences", COOC),
    ):
        conn.executemany(f"INSERT INTO {table} VALUES ({','.join('?' * len(rows[0]))})", rows)
    conn.execute("INSERT INTO db_metadata VALUES ('model', 'intfloat/multilingual-e5-small')")
    for table, cols in (drop or {}).items():
        for col in cols:
            conn.execute(f"ALTER TABLE {table} DROP COLUMN {col}")
    conn.close()
    return path


def test_every_column_comes_over_field_by_field(text_graph, tmp_path):
    src = make_seed(tmp_path / "memory.db")
    report = import_path(text_graph, src)
    assert report.kind == "seed" and report.entities_created == 4 and report.reflections_added == 4
    state = graph_state(text_graph)
    ents = state["entities"]
    assert {n: (e["type"], e["status"], e["created"]) for n, e in ents.items()} == {
        "CachorroSpace": ("Proyecto", "active", "2025-01-02 10:00:00"),
        "Ana Pérez": ("Persona", "paused", "2025-01-03 11:00:00"),
        "Sesion 2025-02-01": ("Sesion", "done", "2025-02-01 08:00:00"),
        "Viejo blog": ("Proyecto", "archived", "2024-05-05 05:05:05"),
    }
    # (content, kind, created, superseded by, superseded at, is superseded)
    assert ents["CachorroSpace"]["observations"] == [
        ("Built with Astro Starlight", "generic", "2025-01-02 10:00:00", None, None, False),
        ("Accent colour: purple", "decision", "2025-01-02 10:01:00", "Accent colour: teal (#2dd4bf)", "2025-03-01 09:00:00", True),
        ("Accent colour: teal (#2dd4bf)", "decision", "2025-03-01 09:00:00", None, None, False),
    ]
    assert text_graph.db.scalar("SELECT similarity_flag FROM observations WHERE content LIKE 'Accent colour: teal%'") == 1
    assert state["relations"] == {
        ("Ana Pérez", "CachorroSpace", "contribuye_a", "diseñó la búsqueda", True, "2025-01-04 12:00:00", None),
        ("Sesion 2025-02-01", "CachorroSpace", "parte_de", None, True, "2025-02-01 08:00:00", None),
        ("Viejo blog", "CachorroSpace", "producido_por", "antecesor", False, "2024-06-06 06:06:06", "2025-01-02 10:00:00"),
    }
    assert state["reflections"] == {
        ("entity", "CachorroSpace", None, None, "claude", REFLECTIONS[0][4], "optimista", "2025-03-02 10:00:00"),
        ("relation", None, ("Ana Pérez", "CachorroSpace", "contribuye_a"), None, "ana", "Colaboración fluida", None,
         "2025-03-03 10:00:00"),
        ("global", None, None, None, "claude", REFLECTIONS[2][4], "reflexivo", "2025-03-04 10:00:00"),
        ("session", None, None, 42, "claude", "Sesión corta y productiva", None, "2025-03-05 10:00:00"),
    }
    assert state["access"] == {"CachorroSpace": (17, "2025-03-05 10:00:00"), "Ana Pérez": (3, "2025-02-01 10:00:00")}
    assert state["days"] == {("CachorroSpace", "2025-03-01", 10), ("CachorroSpace", "2025-03-05", 7), ("Ana Pérez", "2025-02-01", 3)}
    assert state["cooc"] == {
        ("CachorroSpace", "Ana Pérez", 5, "2025-03-05 10:00:00") if text_graph.entity_id("CachorroSpace") < text_graph.entity_id("Ana Pérez")
        else ("Ana Pérez", "CachorroSpace", 5, "2025-03-05 10:00:00"),
        ("CachorroSpace", "Sesion 2025-02-01", 2, "2025-02-01 09:00:00"),
    }


def test_importing_twice_doubles_nothing(text_graph, tmp_path):
    src = make_seed(tmp_path / "memory.db")
    import_seed_db(text_graph, src)
    first = graph_state(text_graph)
    again = import_seed_db(text_graph, src)
    assert (again.entities_created, again.observations_added, again.relations_added, again.reflections_added) == (0, 0, 0, 0)
    assert graph_state(text_graph) == first


def test_search_skips_superseded_finds_reflections_and_ranks_archived_lower(text_graph, tmp_path):
    import_seed_db(text_graph, make_seed(tmp_path / "memory.db"))
    assert [r.name for r in search(text_graph, "purple", record=False).results] == []
    hit = search(text_graph, "paleta serena", record=False).results
    assert [r.name for r in hit] == ["CachorroSpace"] and "Accent colour: purple" not in hit[0].observations
    # Two entities that match equally: whichever is archived comes second.
    text_graph.upsert_entity("Blog A", "Proyecto", ["Hecho con Hugo"])
    text_graph.upsert_entity("Blog B", "Proyecto", ["Hecho con Hugo"])
    for archived, live in (("Blog A", "Blog B"), ("Blog B", "Blog A")):
        text_graph.set_status(archived, "archived")
        text_graph.set_status(live, "active")
        assert [r.name for r in search(text_graph, "Hugo", record=False).results] == [live, archived]


@pytest.mark.parametrize(
    "drop",
    [
        {"entities": ["status", "updated_at"]},
        {"observations": ["kind", "supersedes", "superseded_at", "similarity_flag"]},
        {"relations": ["context", "active", "ended_at"]},
        {"entities": ["status"], "observations": ["kind", "supersedes", "superseded_at"], "relations": ["context", "ended_at"]},
    ],
)
def test_older_files_lacking_columns_import(text_graph, tmp_path, drop):
    src = make_seed(tmp_path / "old.db", drop=drop)
    report = import_seed_db(text_graph, src)
    assert report.entities_created == 4 and report.relations_added == 3
    state = graph_state(text_graph)
    ents = state["entities"]
    if "status" in drop.get("entities", []):
        assert {e["status"] for e in ents.values()} == {"active"}
    else:
        assert ents["Viejo blog"]["status"] == "archived"
    obs = ents["CachorroSpace"]["observations"]
    if "supersedes" in drop.get("observations", []) and "superseded_at" in drop.get("observations", []):
        assert all(not o[5] for o in obs)  # nothing says it was replaced: both are current
    else:
        assert [o[5] for o in obs] == [False, True, False]
    kinds = {o[1] for o in obs}
    assert kinds == ({"note"} if "kind" in drop.get("observations", []) else {"generic", "decision"})
    rel = {r[:3]: r for r in state["relations"]}[("Viejo blog", "CachorroSpace", "producido_por")]
    if "active" in drop.get("relations", []) and "ended_at" in drop.get("relations", []):
        assert rel[4] is True
    else:
        assert rel[4] is False
    assert import_seed_db(text_graph, src).entities_created == 0 and graph_state(text_graph) == state


def test_oldest_file_without_usage_or_reflection_tables(text_graph, tmp_path):
    schema = "\n".join(
        line for line in FULL_SCHEMA.splitlines()
        if not line.startswith(("CREATE TABLE reflections", "CREATE TABLE co_occurrences", "    mood", "    PRIMARY KEY"))
    )
    conn = apsw.Connection(str(tmp_path / "oldest.db"))
    conn.execute(
        "CREATE TABLE entities (id INTEGER PRIMARY KEY, name TEXT UNIQUE, entity_type TEXT);"
        "CREATE TABLE observations (id INTEGER PRIMARY KEY, entity_id INTEGER, content TEXT);"
        "CREATE TABLE relations (from_entity INTEGER, to_entity INTEGER, relation_type TEXT);"
        "INSERT INTO entities VALUES (1, 'A', 'T'), (2, 'B', NULL);"
        "INSERT INTO observations VALUES (1, 1, 'first'), (2, 1, '   '), (3, 2, 'second');"
        "INSERT INTO relations VALUES (1, 2, 'knows');"
    )
    conn.close()
    assert schema  # the documented schema still parses without those tables
    report = import_seed_db(text_graph, tmp_path / "oldest.db")
    assert (report.entities_created, report.observations_added, report.relations_added) == (2, 2, 1)
    assert "1 empty observations left out" in report.describe()
    assert text_graph.get_entity("B").entity_type == "Generic"


@pytest.mark.parametrize("content", [b"", b"not a database at all\n" * 20, b"SQLite format 3\x00" + b"\x00" * 84 + b"junk" * 100])
def test_files_of_the_wrong_kind_are_refused_in_one_sentence(text_graph, tmp_path, content):
    text_graph.upsert_entity("Kept", None, ["untouched"])
    path = tmp_path / "memory.db"
    path.write_bytes(content)
    before = graph_state(text_graph)
    with pytest.raises(Exception) as info:
        import_seed_db(text_graph, path)
    message = str(info.value)
    assert str(path) in message and "\n" not in message and "Traceback" not in message
    assert graph_state(text_graph) == before


def test_another_programs_sqlite_file_is_refused(text_graph, tmp_path):
    conn = apsw.Connection(str(tmp_path / "other.db"))
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes VALUES (1, 'x')")
    conn.close()
    with pytest.raises(ImportInputError, match="is neither a Limbic graph nor a memory engine database: it is an "
                       r"SQLite database of another program, with no entities table .*\(its tables: notes\)"):
        import_path(text_graph, tmp_path / "other.db")
    assert text_graph.counts()["entities"] == 0


def test_the_source_file_is_not_written(text_graph, tmp_path):
    src = make_seed(tmp_path / "memory.db")
    before = src.read_bytes()
    import_seed_db(text_graph, src)
    assert src.read_bytes() == before and not (tmp_path / "memory.db-wal").exists()


def test_status_filter_and_a_consistent_index_after_import(text_graph, tmp_path):
    from limbic.engine.check import check_graph

    import_seed_db(text_graph, make_seed(tmp_path / "memory.db"))
    assert [r.name for r in search(text_graph, "Proyecto", record=False, status="archived").results] == ["Viejo blog"]
    assert {r.name for r in search(text_graph, "Proyecto", record=False).results} == {"CachorroSpace", "Viejo blog"}
    # The full-text rows hold current observations and reflections, and `limbic check` agrees.
    row = text_graph.db.one("SELECT obs_text FROM entity_fts WHERE rowid = ?", (text_graph.entity_id("CachorroSpace"),))
    assert "purple" not in row[0] and "paleta serena" in row[0]
    assert check_graph(text_graph.db).consistent
    text_graph.supersede_observation(text_graph.get_entity("Ana Pérez").observations[0].id, "Diseñó el índice y la fusión")
    assert check_graph(text_graph.db).consistent
