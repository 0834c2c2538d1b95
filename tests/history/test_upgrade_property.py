"""Property: a schema 7 file upgraded in place answers "as of" for as far back as its activity log reaches."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings, strategies as st

from limbic.engine.errors import LimbicError
from limbic.engine.graph.graph import Graph
from limbic.engine.history.asof import graph_at
from limbic.engine.history.moments import history_start
from limbic.engine.store import db as db_module
from limbic.engine.store.db import Database
from tests.history.conftest import Clock, patch_clock
from tests.history.test_recorded_property import _apply, _export, op


def _without_updated(lines: list[str]) -> list[str]:
    # The log of schema 7 did not keep an entity's last-updated time, so the upgrade can only guess it.
    out = []
    for line in lines:
        obj = json.loads(line)
        obj.pop("updatedAt", None)
        out.append(json.dumps(obj, ensure_ascii=False))
    return out


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
                assert _without_updated(_export(past)) == _without_updated(expected), at
            finally:
                past.db.close()
        now = graph_at(db, clock())
        try:
            assert _export(now) == final  # today's rows are kept exactly as they are
        finally:
            now.db.close()
        db.close()
