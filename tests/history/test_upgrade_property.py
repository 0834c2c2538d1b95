"""Property: a schema 7 file upgraded in place answers "as of" for as far back as its activity log reaches."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

from limbic.engine.errors import LimbicError
from limbic.engine.graph.graph import Graph
from limbic.engine.history.asof import graph_at
from limbic.engine.history.moments import history_start
from limbic.engine.store import db as db_module
from limbic.engine.store.db import Database
from tests.history.conftest import Clock, patch_clock
from tests.history.test_recorded_property import _apply, _export, op


@settings(max_examples=25, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(st.tuples(op, st.integers(1, 90_000), st.booleans()), min_size=1, max_size=25))
def test_an_upgraded_file_rebuilds_each_moment_its_log_still_holds(tmp_path_factory, monkeypatch, ops):
    clock = Clock()
    path = tmp_path_factory.mktemp("up") / "g.db"
    with monkeypatch.context() as m:
        patch_clock(m, clock)
        m.setattr(db_module, "SCHEMA_VERSION", 7)
        db = Database(path)
        g = Graph(db)
        assert not db.has_table("history")
        snapshots = []
        for step, seconds, snap in ops:
            clock.advance(seconds)
            try:
                _apply(g, step)
            except LimbicError:
                pass
            if snap:
                snapshots.append((clock(), _export(g)))
        final = _export(g)
        snapshots.append((clock(), final))
        db.close()
        m.setattr(db_module, "SCHEMA_VERSION", 8)
        clock.advance(60)
        db = Database(path)
        assert db.user_version() == 8
        start = history_start(db)
        for at, expected in snapshots:
            if start is not None and at < start:
                continue
            past = graph_at(db, at)
            try:
                assert _export(past) == expected, at
            finally:
                past.db.close()
        now = graph_at(db, clock())
        try:
            assert _export(now) == final  # today's rows are kept exactly as they are
        finally:
            now.db.close()
        db.close()


def test_an_upgraded_file_shows_each_moment_the_updated_time_it_showed_then(tmp_path, monkeypatch):
    """Schema 7's log kept no updated_at: the upgrade takes it from the times its log says the entity changed."""
    clock = Clock()
    path = tmp_path / "g.db"
    with monkeypatch.context() as m:
        patch_clock(m, clock)
        m.setattr(db_module, "SCHEMA_VERSION", 7)
        db = Database(path)
        g = Graph(db)
        shown = []
        for step in (("create", "Ann", "Person", ["likes tea"]), ("create", "Bob", "Person", []),
                     ("observe", "Ann", "plays chess"), ("relate", "Ann", "Bob", "knows"),
                     ("status", "Ann", "paused"), ("observe", "Ann", "moved to Oslo"), ("relate", "Bob", "Ann", "owns")):
            clock.advance(3600)
            _apply(g, step)
            shown.append((clock(), {e.name: e.updated_at for e in g.iter_entities()}))
        db.close()
        m.setattr(db_module, "SCHEMA_VERSION", 8)
        clock.advance(60)
        db = Database(path)
        for at, updated in shown:
            past = graph_at(db, at)
            try:
                assert {e.name: e.updated_at for e in past.iter_entities()} == updated, at
            finally:
                past.db.close()
        db.close()
