"""Cases where devices ended apart although every change reached every device: a valid time given with
the observation that carries it, stamps compared as text of varying width, and derived times taken from
the moment of applying."""

from __future__ import annotations

import json
import time

import apsw

from limbic.engine.store.db import Database
from limbic.engine.sync import state
from limbic.service import history_tools
from tests.sync.replicas import Replica, segment_text, settle, synced_rows, two_devices


def _ada(graph):
    graph.upsert_entity("Ada", "Person", ["lives in Paris"])


def test_a_valid_time_given_with_a_new_observation_travels(tmp_path):
    with two_devices(tmp_path, _ada) as (a, b, folder):
        history_tools.add_observations(a.graph, [{"entityName": "Ada", "contents": ["joined the lab"],
                                                  "valid_from": "2024-01-08"}])
        settle([a, b], folder)
        for device in (a, b):
            assert device.graph.db.one(
                "SELECT valid_from FROM observations WHERE content = 'joined the lab'")[0] == "2024-01-08"
        assert synced_rows(a.graph) == synced_rows(b.graph)
        assert not b.graph.db.scalar("SELECT count(*) FROM sync_conflicts")


def test_stamps_order_as_clock_readings_whatever_their_width():
    small, large = state.Stamp(9_999_999_999_999, 99_999), state.Stamp(9_999_999_999_999, 100_000)
    assert small.text() < large.text()
    assert state.Stamp(9_999_999_999_999, 5).text() < state.Stamp(10_000_000_000_000, 0).text()  # year 2286
    assert state.norm("9999999999999.99999") < state.norm("9999999999999.100000")
    assert state.Stamp.parse(large.text()) == large
    # The counter never outgrows its width: it rolls into the wall, still after the last reading.
    last = state.Stamp(1_000, state.COUNTER_MAX)
    assert last.after(0) == state.Stamp(1_001, 0) and last.text() < last.after(0).text()


def test_an_edit_after_a_hundred_thousand_stamps_in_one_millisecond_still_wins_everywhere(tmp_path):
    with two_devices(tmp_path, _ada) as (a, b, folder):
        # The laptop's clock ran a day ahead: its last stamp is far in the future, near 100,000 in its counter.
        ahead = state.Stamp(state.wall_clock() + 86_400_000, 99_998)
        with a.graph.db.transaction():
            a.graph.db.set_meta(state.HLC_KEY, ahead.text())
        a.graph.upsert_entity("Ada", "Scientist", [])
        settle([a, b], folder)  # the desktop has seen that stamp; its own now come after it
        b.graph.upsert_entity("Ada", "Mathematician", [])
        settle([a, b], folder)
        for device in (a, b):
            assert device.graph.db.scalar("SELECT entity_type FROM entities WHERE name = 'Ada'") == "Mathematician"
        assert not a.graph.db.scalar("SELECT count(*) FROM sync_conflicts")


def test_converged_devices_agree_on_when_an_entity_was_last_updated(tmp_path):
    with two_devices(tmp_path, _ada) as (a, b, folder):
        time.sleep(1.1)  # times are kept to the second: the change is made a second after the seed
        a.graph.upsert_entity("Ada", "Scientist", ["wrote the first program"])
        time.sleep(1.1)  # and applied on the desktop a second later still
        settle([a, b], folder)
        times = [d.graph.db.scalar("SELECT updated_at FROM entities WHERE name = 'Ada'") for d in (a, b)]
        assert times[0] == times[1]
        assert synced_rows(a.graph, updated=True) == synced_rows(b.graph, updated=True)


def test_a_graph_synced_before_the_upgrade_keeps_its_stamps_in_the_clock_order(tmp_path):
    """Schema 10 rewrites the stamps a schema-9 file holds (13 and 5 digits) at the fixed width."""
    path = tmp_path / "old.db"
    db = Database(path)
    with db.transaction():
        db.set_meta(state.HLC_KEY, "1700000000000.00042")
        db.execute("INSERT INTO sync_stamp(gid, field, stamp, device) VALUES ('g', 'name', '1700000000000.00007', 'd'), "
                   "('g', '_missed:1700000000000.00003:d', '1700000000000.00003', 'd'), ('g', '_was:name', '\"Ada\"', '')")
        db.execute("INSERT INTO sync_conflicts(kind, gid, field, rule, kept_device, lost_device, kept_stamp, lost_stamp, "
                   "mine_kept, at) VALUES ('entity', 'g', 'name', 'field', 'd', 'e', '1700000000000.00009', '', 1, 'x')")
        db.execute("PRAGMA user_version = 9")
    db.close()
    db = Database(path)
    try:
        fixed = state.Stamp(1_700_000_000_000, 7).text()
        assert len(fixed) == 27 and db.get_meta(state.HLC_KEY) == state.Stamp(1_700_000_000_000, 42).text()
        stamps = dict(db.execute("SELECT field, stamp FROM sync_stamp").fetchall())
        assert stamps == {"name": fixed, f"_missed:{state.Stamp(1_700_000_000_000, 3).text()}:d":
                          state.Stamp(1_700_000_000_000, 3).text(), "_was:name": '"Ada"'}
        assert db.one("SELECT kept_stamp, lost_stamp FROM sync_conflicts") == (state.Stamp(1_700_000_000_000, 9).text(), "")
    finally:
        db.close()


def test_a_folder_written_before_the_upgrade_keeps_syncing(tmp_path, monkeypatch):
    """Segments of format 1 (narrow stamps) are read alongside format 2, and a graph file that wrote them,
    upgraded, goes on syncing: edits after the upgrade on either side win over older ones everywhere."""
    with monkeypatch.context() as old:
        old.setattr(state.Stamp, "text", lambda self: f"{self.wall:013d}.{self.counter:05d}")
        old.setattr(state, "FORMAT", 1)
        with two_devices(tmp_path, _ada, settled=False) as (a, b, folder):
            a.sync(folder)
            b.sync(folder)
            a.graph.upsert_entity("Ada", "Scientist", [])
            a.sync(folder)
    raw = segment_text(next((folder / "Limbic").rglob("000002-*.seg")))
    assert '"format":1,' in raw and len(json.loads(raw.splitlines()[1])["stamp"]) == 19
    # Both files were upgraded since: they open at schema 10, their stamps made fixed-width.
    for path in (a.path, b.path):
        conn = apsw.Connection(str(path))
        conn.execute("PRAGMA user_version = 9")
        conn.close()
    a = Replica(tmp_path, "laptop")
    b = Replica(tmp_path, "desktop")
    try:
        assert len(a.graph.db.get_meta(state.HLC_KEY)) == 27
        settle([a, b], folder)
        assert b.graph.db.scalar("SELECT entity_type FROM entities WHERE name = 'Ada'") == "Scientist"
        b.graph.upsert_entity("Ada", "Mathematician", ["counted"])
        settle([a, b], folder)
        a.graph.upsert_entity("Ada", "Countess", [])
        settle([a, b], folder)
        assert synced_rows(a.graph) == synced_rows(b.graph)
        assert a.graph.db.scalar("SELECT entity_type FROM entities WHERE name = 'Ada'") == "Countess"
        assert not a.graph.db.scalar("SELECT count(*) FROM sync_conflicts")
    finally:
        a.close()
        b.close()


def test_a_text_said_again_after_it_was_superseded_is_a_row_of_its_own_everywhere(tmp_path):
    with two_devices(tmp_path, _ada) as (a, b, folder):
        old = a.graph.db.scalar("SELECT id FROM observations WHERE content = 'lives in Paris'")
        a.graph.supersede_observation(old, "lives in Turin")
        a.graph.add_observations("Ada", ["lives in Paris"])  # back in Paris: a new current text, the old one history
        settle([a, b], folder)
        for device in (a, b):
            rows = device.graph.db.execute("SELECT content, superseded_by IS NOT NULL FROM observations "
                                           "ORDER BY content, 2").fetchall()
            assert rows == [("lives in Paris", 0), ("lives in Paris", 1), ("lives in Turin", 0)], device.device.name
        assert synced_rows(a.graph) == synced_rows(b.graph)
