"""Property: whatever sequence of writes, the graph rebuilt as of any earlier moment is the graph of then."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from limbic.engine.errors import LimbicError
from limbic.engine.formats.jsonl import iter_export_lines
from limbic.engine.graph.graph import Graph
from limbic.engine.history.asof import graph_at
from limbic.engine.store import changes
from limbic.engine.graph import revert
from limbic.engine.store.db import Database
from limbic.service.history import set_validity
from limbic.service.organise import merge_entities
from tests.history.conftest import Clock, patch_clock

NAMES = ["Ann", "Bob", "Cy", "Dee"]
TEXTS = ["likes tea", "moved to Oslo", "works at Acme", "plays chess"]
TYPES = ["Person", "Place", "Project"]

op = st.one_of(
    st.tuples(st.just("create"), st.sampled_from(NAMES), st.sampled_from(TYPES), st.lists(st.sampled_from(TEXTS), max_size=2)),
    st.tuples(st.just("observe"), st.sampled_from(NAMES), st.sampled_from(TEXTS)),
    st.tuples(st.just("edit"), st.integers(0, 20), st.sampled_from(TEXTS)),
    st.tuples(st.just("supersede"), st.integers(0, 20), st.sampled_from(TEXTS)),
    st.tuples(st.just("forget"), st.integers(0, 20)),
    st.tuples(st.just("rename"), st.sampled_from(NAMES), st.sampled_from(NAMES + ["Eve", "Fay"])),
    st.tuples(st.just("retype"), st.sampled_from(NAMES), st.sampled_from(TYPES)),
    st.tuples(st.just("status"), st.sampled_from(NAMES), st.sampled_from(["active", "paused", "done", "archived"])),
    st.tuples(st.just("delete"), st.sampled_from(NAMES)),
    st.tuples(st.just("relate"), st.sampled_from(NAMES), st.sampled_from(NAMES), st.sampled_from(["knows", "owns"])),
    st.tuples(st.just("unrelate"), st.sampled_from(NAMES), st.sampled_from(NAMES), st.sampled_from(["knows", "owns"])),
    st.tuples(st.just("end"), st.sampled_from(NAMES), st.sampled_from(NAMES), st.sampled_from(["knows", "owns"])),
    st.tuples(st.just("reflect"), st.sampled_from(NAMES), st.sampled_from(TEXTS)),
    st.tuples(st.just("valid"), st.integers(0, 20), st.sampled_from([None, "2019-05-01", "2021-01-01 08:00:00"]),
              st.sampled_from([None, "2022-12-31"])),
    st.tuples(st.just("relvalid"), st.sampled_from(NAMES), st.sampled_from(NAMES), st.sampled_from(["knows", "owns"]),
              st.sampled_from([None, "2020-01-01"])),
    st.tuples(st.just("merge"), st.sampled_from(NAMES), st.sampled_from(NAMES)),
    st.tuples(st.just("revert")),
)


def _apply(g: Graph, step: tuple) -> None:
    kind, *a = step
    obs = [r[0] for r in g.db.execute("SELECT id FROM observations ORDER BY id")]
    pick = (lambda i: obs[i % len(obs)]) if obs else (lambda i: -1)
    if kind == "create":
        g.upsert_entity(a[0], a[1], a[2])
    elif kind == "observe":
        g.add_observations(a[0], [a[1]])
    elif kind == "edit":
        g.edit_observation(pick(a[0]), a[1])
    elif kind == "supersede":
        g.supersede_observation(pick(a[0]), a[1])
    elif kind == "forget":
        g.delete_observation(pick(a[0]))
    elif kind == "rename":
        g.rename_entity(a[0], a[1])
    elif kind == "retype":
        g.set_entity_type(a[0], a[1])
    elif kind == "status":
        g.set_status(a[0], a[1])
    elif kind == "delete":
        g.delete_entity(a[0])
    elif kind == "relate":
        g.add_relation(a[0], a[1], a[2])
    elif kind == "unrelate":
        g.remove_relation(a[0], a[1], a[2])
    elif kind == "end":
        g.end_relation(a[0], a[1], a[2])
    elif kind == "reflect":
        g.add_reflection(a[1], author="test", entity=a[0])
    elif kind == "valid":
        set_validity(g, pick(a[0]), a[1], a[2])
    elif kind == "relvalid":
        set_validity(g, relation=(a[0], a[1], a[2]), valid_from=a[3])
    elif kind == "merge":
        merge_entities(g, a[0], a[1])
    elif kind == "revert":
        last = g.db.scalar("SELECT max(id) FROM change_log WHERE reverted_by IS NULL AND reverts IS NULL")
        if last is not None:
            revert.apply(g, [last], choice=revert.SKIP)


def _export(g: Graph) -> list[str]:
    return list(iter_export_lines(g))


def _check(db: Database, snapshots: list[tuple[str, list[str]]]) -> None:
    for at, expected in snapshots:
        past = graph_at(db, at)
        try:
            assert _export(past) == expected, at
        finally:
            past.db.close()


def _run(tmp_path_factory, monkeypatch, ops) -> None:
    clock = Clock()
    with monkeypatch.context() as m:
        patch_clock(m, clock)
        db = Database(tmp_path_factory.mktemp("h") / "g.db")
        g = Graph(db)
        snapshots = []
        for step, seconds, snap in ops:
            clock.advance(seconds)
            try:
                _apply(g, step)
            except LimbicError:
                pass  # a refused write changes nothing, and history must say so too
            if snap:
                snapshots.append((clock(), _export(g)))
        snapshots.append((clock(), _export(g)))
        _check(db, snapshots)
        # The activity log's pruning (everything older than the retention) leaves history whole.
        clock.advance(400 * 86_400)
        with db.transaction():
            m.setattr(changes, "KEEP_ROWS", 0)
            db.set_meta(changes.KEEP_DAYS_KEY, "1")
            changes.prune(db, True)
        assert db.scalar("SELECT count(*) FROM change_item") == 0
        _check(db, snapshots)
        db.close()


def steps(least: int, most: int):
    return st.lists(st.tuples(op, st.integers(1, 90_000), st.booleans()), min_size=least, max_size=most)


# Derandomized: the default run tries the same 25 cases (182 writes) every time: a failure there is a regression.
@settings(max_examples=25, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=steps(3, 30))
def test_the_graph_as_of_each_moment_is_its_snapshot_before_and_after_pruning(tmp_path_factory, monkeypatch, ops):
    _run(tmp_path_factory, monkeypatch, ops)


# The long run (make test-slow): many more cases, and longer ones. LIMBIC_HISTORY_EXAMPLES changes how many;
# LIMBIC_HISTORY_RANDOM=1 draws new cases each time instead of the same ones.
LONG_EXAMPLES = int(os.environ.get("LIMBIC_HISTORY_EXAMPLES", "200"))


@pytest.mark.slow
@settings(max_examples=LONG_EXAMPLES, deadline=None, database=None,
          derandomize=os.environ.get("LIMBIC_HISTORY_RANDOM") != "1",
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(ops=steps(1, 60))
def test_long_runs_rebuild_the_graph_as_of_each_moment(tmp_path_factory, monkeypatch, ops):
    _run(tmp_path_factory, monkeypatch, ops)
