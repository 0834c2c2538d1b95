"""The graph file's schema: its tables and the one migration per version that brings a file up to date."""

from __future__ import annotations

from limbic.engine.store.activity import NEXT_CHANGE_SQL, SCHEMA_V5
from limbic.engine.store.recorded import SCHEMA_V8

# The text as written (exact names and phrases, highlighting) and its words' stems (stemming.py),
# which the text branch searches.
FTS_DDL = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS entity_fts "
    'USING fts5(name, entity_type, obs_text, stem_name, stem_text, tokenize="unicode61")'
)
# Tables of a Limbic file; an SQLite file without them belongs to another program.
LIMBIC_TABLES = frozenset({"meta", "entities", "observations", "relations"})

SCHEMA_V1 = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS entities (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    entity_type TEXT NOT NULL DEFAULT 'Generic',
    status      TEXT NOT NULL DEFAULT 'active',
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS observations (
    id         INTEGER PRIMARY KEY,
    entity_id  INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    content    TEXT NOT NULL,
    kind       TEXT NOT NULL DEFAULT 'note',
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS observations_entity ON observations(entity_id, id);
CREATE TABLE IF NOT EXISTS relations (
    id            INTEGER PRIMARY KEY,
    from_entity   INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    to_entity     INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    relation_type TEXT NOT NULL,
    context       TEXT,
    active        INTEGER NOT NULL DEFAULT 1,
    created_at    TEXT NOT NULL,
    UNIQUE (from_entity, to_entity, relation_type)
);
CREATE INDEX IF NOT EXISTS relations_to ON relations(to_entity);
CREATE TABLE IF NOT EXISTS entity_access (
    entity_id    INTEGER PRIMARY KEY REFERENCES entities(id) ON DELETE CASCADE,
    access_count INTEGER NOT NULL DEFAULT 0,
    last_access  TEXT
);
CREATE TABLE IF NOT EXISTS entity_access_log (
    entity_id    INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    access_date  TEXT NOT NULL,
    access_count INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (entity_id, access_date)
);
CREATE TABLE IF NOT EXISTS co_occurrences (
    entity_a_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    entity_b_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    co_count    INTEGER NOT NULL DEFAULT 0,
    last_co     TEXT,
    PRIMARY KEY (entity_a_id, entity_b_id),
    CHECK (entity_a_id < entity_b_id)
);
CREATE INDEX IF NOT EXISTS co_occurrences_b ON co_occurrences(entity_b_id);
-- Which text each stored vector was made from: an edit re-embeds only when this changes.
CREATE TABLE IF NOT EXISTS embedding_state (
    entity_id INTEGER PRIMARY KEY REFERENCES entities(id) ON DELETE CASCADE,
    text_hash TEXT NOT NULL
);
CREATE VIRTUAL TABLE IF NOT EXISTS entity_fts
    USING fts5(name, entity_type, obs_text, tokenize="unicode61");
"""

# Each entry upgrades the schema from version i to i + 1.
# v2: exact-name look-ups ignore case; without this index each search scanned every name.
SCHEMA_V2 = "CREATE INDEX IF NOT EXISTS entities_name_nocase ON entities(name COLLATE NOCASE);"

# v3: every commit leaves a record of what it touched, so the programs sharing the file follow
# each other (see changes.py): a revision per entity and a small, pruned change log.
SCHEMA_V3 = """
ALTER TABLE entities ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
CREATE TABLE IF NOT EXISTS change_log (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    at      TEXT NOT NULL,
    origin  TEXT NOT NULL,
    writer  TEXT NOT NULL,
    changes TEXT NOT NULL
);
INSERT OR IGNORE INTO meta(key, value) VALUES ('change_epoch', lower(hex(randomblob(8))));
"""

# v4: what the seed engine knew and Limbic kept nowhere, so its files import without loss.
# An observation replaced by a newer one stays as history (superseded_by points at the newer,
# superseded_at says when); a relation can end without being deleted (active 0, ended_at);
# reflections are prose about an entity, a relation, a session or the whole graph.
SCHEMA_V4 = """
ALTER TABLE observations ADD COLUMN superseded_by INTEGER REFERENCES observations(id) ON DELETE SET NULL;
ALTER TABLE observations ADD COLUMN superseded_at TEXT;
ALTER TABLE observations ADD COLUMN similarity_flag INTEGER NOT NULL DEFAULT 0;
ALTER TABLE relations ADD COLUMN ended_at TEXT;
CREATE TABLE IF NOT EXISTS reflections (
    id          INTEGER PRIMARY KEY,
    target_type TEXT NOT NULL CHECK (target_type IN ('entity', 'relation', 'session', 'global')),
    entity_id   INTEGER REFERENCES entities(id) ON DELETE CASCADE,
    relation_id INTEGER REFERENCES relations(id) ON DELETE CASCADE,
    target_ref  INTEGER,
    author      TEXT NOT NULL DEFAULT '',
    content     TEXT NOT NULL,
    mood        TEXT,
    created_at  TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS reflections_entity ON reflections(entity_id);
CREATE INDEX IF NOT EXISTS reflections_relation ON reflections(relation_id);
"""

# v6: a long entity has several vectors (index_chunks.py): its first where it always was, its further
# windows in a second vec0 table (made with the vectors, by the model's dimension), each recorded here
# with the digest of its text. Every entity embedded before is in the backlog (chunked 0): its first
# vector stays, and only its further windows are embedded.
# (A table made afresh from the current DDL, by a repair before the upgrade, already has the column.)
# The two partial indexes of active relations let search count an entity's degree from them alone.
SCHEMA_V6_CHUNKS = """
CREATE TABLE IF NOT EXISTS embedding_chunks (
    id        INTEGER PRIMARY KEY,
    entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    text_hash TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS relations_active_from ON relations(from_entity) WHERE active = 1;
CREATE INDEX IF NOT EXISTS relations_active_to ON relations(to_entity) WHERE active = 1;
"""


def SCHEMA_V6(conn) -> None:  # noqa: N802 - one of the migrations, named like the others
    columns = {r[1] for r in conn.execute("PRAGMA table_info(embedding_state)")}
    if "chunked" not in columns:
        conn.execute("ALTER TABLE embedding_state ADD COLUMN chunked INTEGER NOT NULL DEFAULT 0")
    conn.execute(SCHEMA_V6_CHUNKS)


# v7: one graph on several devices (engine/sync). Every synced row has a global id (random, the same
# on every device; the local integer ids stay for the indexes), given by a trigger to a row inserted
# without one, so every writer, present or past, makes rows that can travel. A row's global id is
# remembered when it is deleted (sync_tombstone), so a change published later still names it. The
# sync tables: what was applied from each device, merged ids, each field's last stamp, conflicts.
V7_SYNCED = {"entity": "entities", "observation": "observations", "relation": "relations", "reflection": "reflections"}
SYNCED_TABLES = {**V7_SYNCED, "alias": "entity_aliases"}  # v9 added aliases
NEW_GID = "lower(hex(randomblob(16)))"
SCHEMA_V7_SYNC = """
CREATE TABLE IF NOT EXISTS sync_tombstone (
    kind      TEXT NOT NULL,
    row_id    INTEGER NOT NULL,
    gid       TEXT NOT NULL,
    change_id INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS sync_tombstone_row ON sync_tombstone(kind, row_id, change_id);
CREATE INDEX IF NOT EXISTS sync_tombstone_gid ON sync_tombstone(gid);
CREATE TABLE IF NOT EXISTS sync_applied (
    device  TEXT PRIMARY KEY,
    seq     INTEGER NOT NULL,
    name    TEXT NOT NULL DEFAULT '',
    at      TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS sync_alias (
    gid    TEXT PRIMARY KEY,
    target TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sync_stamp (
    gid    TEXT NOT NULL,
    field  TEXT NOT NULL,
    stamp  TEXT NOT NULL,
    device TEXT NOT NULL,
    PRIMARY KEY (gid, field)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS sync_conflicts (
    id            INTEGER PRIMARY KEY,
    kind          TEXT NOT NULL,
    gid           TEXT NOT NULL,
    entity_gid    TEXT,
    field         TEXT NOT NULL,
    rule          TEXT NOT NULL,
    kept          TEXT,
    lost          TEXT,
    kept_device   TEXT NOT NULL,
    lost_device   TEXT NOT NULL,
    kept_stamp    TEXT NOT NULL DEFAULT '',
    lost_stamp    TEXT NOT NULL DEFAULT '',
    mine_kept     INTEGER NOT NULL,
    at            TEXT NOT NULL,
    resolved_at   TEXT,
    resolution    TEXT
);
CREATE INDEX IF NOT EXISTS sync_conflicts_open ON sync_conflicts(resolved_at);
"""


def SCHEMA_V7(conn) -> None:  # noqa: N802 - one of the migrations, named like the others
    conn.execute(SCHEMA_V7_SYNC)
    for kind, table in V7_SYNCED.items():
        _sync_ids(conn, kind, table)


def _sync_ids(conn, kind: str, table: str) -> None:
    """A synced table's global ids: the column, one for each row, and the triggers giving and remembering them."""
    if "gid" not in {r[1] for r in conn.execute(f"PRAGMA table_info({table})")}:
        conn.execute(f"ALTER TABLE {table} ADD COLUMN gid TEXT")
    conn.execute(f"UPDATE {table} SET gid = {NEW_GID} WHERE gid IS NULL")
    conn.execute(f"CREATE UNIQUE INDEX IF NOT EXISTS {table}_gid ON {table}(gid)")
    conn.execute(
        f"CREATE TRIGGER IF NOT EXISTS limbic_gid_{kind} AFTER INSERT ON {table} WHEN NEW.gid IS NULL BEGIN "
        f"UPDATE {table} SET gid = {NEW_GID} WHERE id = NEW.id; END"
    )
    conn.execute(
        f"CREATE TRIGGER IF NOT EXISTS limbic_gone_{kind} BEFORE DELETE ON {table} WHEN OLD.gid IS NOT NULL BEGIN "
        f"INSERT INTO sync_tombstone(kind, row_id, gid, change_id) VALUES ('{kind}', OLD.id, OLD.gid, "
        f"({NEXT_CHANGE_SQL})); END"
    )


# v9: an entity's other names (aliases). An alias is unique without case, like a name (the NOCASE index
# folds A-Z; graph/aliases.py compares accented letters); it goes with its entity, and travels in sync.
# Ids are never reused: a merge removes an alias and adds it again in one commit, which the activity
# log (and so revert) must see as two rows, not as one row changed.
SCHEMA_V9_ALIASES = """
CREATE TABLE IF NOT EXISTS entity_aliases (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    entity_id  INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    alias      TEXT NOT NULL,
    created_at TEXT NOT NULL,
    gid        TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS entity_aliases_nocase ON entity_aliases(alias COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS entity_aliases_entity ON entity_aliases(entity_id);
"""


def SCHEMA_V9(conn) -> None:  # noqa: N802 - one of the migrations, named like the others
    conn.execute(SCHEMA_V9_ALIASES)
    _sync_ids(conn, "alias", SYNCED_TABLES["alias"])


def _fixed_width(column: str) -> str:
    """SQL making a clock stamp of any width ("wall.counter") the fixed-width text sync compares (sync/state.py)."""
    wall = f"CAST(CASE WHEN instr({column}, '.') > 0 THEN substr({column}, 1, instr({column}, '.') - 1) ELSE {column} END AS INTEGER)"
    counter = f"CAST(CASE WHEN instr({column}, '.') > 0 THEN substr({column}, instr({column}, '.') + 1) ELSE '0' END AS INTEGER)"
    return f"CASE WHEN {column} = '' THEN {column} ELSE printf('%016d.%010d', {wall}, {counter}) END"


def SCHEMA_V10(conn) -> None:  # noqa: N802 - one of the migrations, named like the others
    """Sync's stamps fixed-width (16-digit wall, 10-digit counter): compared as text, a narrower or wider
    one sorted out of the clock's order. A row's own value kept at a merge (``_was:``) is no stamp."""
    conn.execute(f"UPDATE sync_stamp SET stamp = {_fixed_width('stamp')} WHERE substr(field, 1, 5) != '_was:'")
    conn.execute(f"UPDATE sync_conflicts SET kept_stamp = {_fixed_width('kept_stamp')}, "
                 f"lost_stamp = {_fixed_width('lost_stamp')}")
    conn.execute(f"UPDATE meta SET value = {_fixed_width('value')} WHERE key = 'sync_hlc'")
    # A conflict is named alike on every device (its key), and a choice made on one travels to the others
    # (sync_outbox holds it until the next publish): conflicts.py.
    have = {r[1] for r in conn.execute("PRAGMA table_info(sync_conflicts)")}
    for column in ("key", "resolved_by"):
        if column not in have:
            conn.execute(f"ALTER TABLE sync_conflicts ADD COLUMN {column} TEXT")
    conn.execute("CREATE INDEX IF NOT EXISTS sync_conflicts_key ON sync_conflicts(key)")
    conn.execute("CREATE TABLE IF NOT EXISTS sync_outbox (id INTEGER PRIMARY KEY, key TEXT NOT NULL, side TEXT NOT NULL, "
                 "at TEXT NOT NULL)")
    missed = "_missed:"  # a deletion's stamp and device in the field's name
    for gid, field, stamp, device in conn.execute(
            "SELECT gid, field, stamp, device FROM sync_stamp WHERE substr(field, 1, 8) = ?", (missed,)).fetchall():
        inner, sep, who = field[len(missed):].partition(":")
        if not sep:
            continue
        fixed = conn.execute(f"SELECT {_fixed_width('?1')}", (inner,)).fetchall()[0][0]
        conn.execute("DELETE FROM sync_stamp WHERE gid = ? AND field = ?", (gid, field))
        conn.execute("INSERT OR REPLACE INTO sync_stamp(gid, field, stamp, device) VALUES (?, ?, ?, ?)",
                     (gid, f"{missed}{fixed}:{who}", stamp, device))


# v11: what assistants may see. An entity marked private is shown to no assistant (its rows go with it); it
# travels like its status. Each assistant's scope (what it may read and write, by its normalised client name;
# the empty name is the default for one not seen before) travels as one value per assistant, the later
# stamp winning (sync/scopes.py); ``pending`` marks one set here and not yet published.
SCHEMA_V11_SCOPES = """
CREATE INDEX IF NOT EXISTS entities_private ON entities(id) WHERE private != 0;
CREATE TABLE IF NOT EXISTS assistant_scopes (
    client     TEXT PRIMARY KEY,
    read       TEXT NOT NULL DEFAULT 'all',
    write      TEXT NOT NULL DEFAULT 'all',
    changed_at TEXT NOT NULL DEFAULT '',
    stamp      TEXT NOT NULL DEFAULT '',
    device     TEXT NOT NULL DEFAULT '',
    pending    INTEGER NOT NULL DEFAULT 0
);
"""


def SCHEMA_V11(conn) -> None:  # noqa: N802 - one of the migrations, named like the others
    if "private" not in {r[1] for r in conn.execute("PRAGMA table_info(entities)")}:
        conn.execute("ALTER TABLE entities ADD COLUMN private INTEGER NOT NULL DEFAULT 0")
    conn.execute(SCHEMA_V11_SCOPES)


# Each is SQL, or a function of the connection for a step that must look before it changes.
# v8: recorded-time history kept for good (recorded.py), with what an older file's log holds folded in.
MIGRATIONS: list = [SCHEMA_V1, SCHEMA_V2, SCHEMA_V3, SCHEMA_V4, SCHEMA_V5, SCHEMA_V6, SCHEMA_V7, SCHEMA_V8,  # v5: activity.py
                    SCHEMA_V9, SCHEMA_V10, SCHEMA_V11]  # v10: fixed-width sync stamps; v11: private, scopes
