"""Global ids on every synced row (new files and every older schema upgraded), and the device ids."""

from __future__ import annotations

import apsw
import pytest

from limbic.engine.graph.graph import Graph
from limbic.engine.store import db as db_module
from limbic.engine.store.db import Database
from limbic.engine.store.schema import MIGRATIONS, SYNCED_TABLES
from limbic.service import sync
from tests.sync.replicas import Replica


def _old_file(path, version: int) -> None:
    """A graph file as Limbic wrote it at ``version``, with a row in every table that existed then."""
    conn = apsw.Connection(str(path))
    conn.execute("PRAGMA foreign_keys = ON")
    for step in range(version):
        migration = MIGRATIONS[step]
        migration(conn) if callable(migration) else conn.execute(migration)
    conn.execute("INSERT INTO entities(name, entity_type, created_at, updated_at) VALUES ('Ada', 'P', 'x', 'x'), "
                 "('Bob', 'P', 'x', 'x')")
    conn.execute("INSERT INTO observations(entity_id, content, created_at) VALUES (1, 'one', 'x'), (1, 'two', 'x')")
    conn.execute("INSERT INTO relations(from_entity, to_entity, relation_type, created_at) VALUES (1, 2, 'knows', 'x')")
    if version >= 4:
        conn.execute("INSERT INTO reflections(target_type, entity_id, content, created_at) VALUES ('entity', 1, 'r', 'x')")
    if version >= 9:
        conn.execute("INSERT INTO entity_aliases(entity_id, alias, created_at) VALUES (1, 'Countess', 'x')")
    conn.execute(f"PRAGMA user_version = {version}")
    conn.close()


@pytest.mark.parametrize("version", range(1, db_module.SCHEMA_VERSION))
def test_every_earlier_schema_is_upgraded_with_a_global_id_on_every_row(tmp_path, version):
    path = tmp_path / f"v{version}.db"
    _old_file(path, version)
    db = Database(path)
    assert db.user_version() == db_module.SCHEMA_VERSION
    for kind, table in SYNCED_TABLES.items():
        gids = [r[0] for r in db.execute(f"SELECT gid FROM {table}")]
        if (kind == "reflection" and version < 4) or (kind == "alias" and version < 9):
            assert gids == []  # no reflections before schema 4, no aliases before schema 9
            continue
        assert gids and all(g and len(g) == 32 for g in gids), (kind, gids)
        assert len(set(gids)) == len(gids)
    with pytest.raises(apsw.ConstraintError):  # unique: no two rows share one
        db.execute("UPDATE entities SET gid = (SELECT gid FROM entities WHERE id = 2) WHERE id = 1")
    db.close()


def test_rows_written_by_any_path_get_a_global_id_and_keep_it_when_deleted(tmp_path):
    g = Graph(Database(tmp_path / "g.db"))
    g.upsert_entity("Ada", "Person", ["likes tea"])
    g.restore_entity(99, "Old", "T", "2020-01-01 00:00:00")
    gids = dict(g.db.execute("SELECT name, gid FROM entities"))
    assert all(gids.values()) and len(set(gids.values())) == 2
    obs_gid = g.db.scalar("SELECT gid FROM observations")
    g.delete_entity("Ada")
    gone = {r[0] for r in g.db.execute("SELECT gid FROM sync_tombstone")}
    assert {gids["Ada"], obs_gid} <= gone


def test_device_id_lives_in_the_settings_per_graph_file_not_in_the_file(tmp_path):
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    first = sync.this_device(a)
    assert sync.this_device(a).id == first.id  # kept
    assert sync.this_device(b).id != first.id  # another file (a copy elsewhere) is another device
    g = Graph(Database(a))
    assert first.id not in {r[0] for r in g.db.execute("SELECT value FROM meta")}
    g.db.close()


def test_a_restored_copy_of_a_synced_file_gets_a_new_device_id_and_says_so(tmp_path):
    folder = tmp_path / "folder"
    folder.mkdir()
    a = Replica(tmp_path, "laptop")
    a.graph.upsert_entity("Ada", "Person", ["one"])
    a.sync(folder)
    a.graph.db.close()
    backup = tmp_path / "backup.db"
    backup.write_bytes(a.path.read_bytes())  # the file as it was: a restore brings this back
    a.graph = Graph(Database(a.path))
    a.graph.add_observations("Ada", ["two"])
    a.sync(folder)
    old_id = a.device.id
    a.close()
    a.path.write_bytes(backup.read_bytes())
    for suffix in ("-wal", "-shm"):
        (tmp_path / f"laptop.db{suffix}").unlink(missing_ok=True)
    a.graph = Graph(Database(a.path))
    result = a.sync(folder)
    assert result.device.id != old_id and result.device_note and "new device" in result.device_note
    # What the lost file had published comes back from the folder, as another device's.
    assert {r[0] for r in a.graph.db.execute("SELECT content FROM observations")} == {"one", "two"}
    a.graph.add_observations("Ada", ["three"])
    assert a.sync(folder).device.id == result.device.id  # said once: the new id stays
    for dev in (folder / "Limbic").glob("*/*"):
        names = [p.name for p in dev.glob("*.seg")]
        assert len({n.split("-")[0] for n in names}) == len(names)  # no sequence written twice
