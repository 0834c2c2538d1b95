"""The whole write surface on three devices through a misbehaving folder: besides the names, texts, types and
relations of test_property.py, superseding a text, valid times, statuses, ended relations, reflections,
aliases, merges and the person's resolutions of conflicts. After a full exchange every device holds the
same graph (every synced column, by global id)."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from limbic.engine.errors import LimbicError
from limbic.engine.history.valid import set_observation_validity, set_relation_validity
from limbic.service import organise, sync as service_sync
from tests.sync.replicas import Replica
from tests.sync.test_property import NAMES, TEXTS, WRITES, _run, _write, ops_of

SURFACE = ["supersede", "valid", "valid_rel", "status", "end", "reflect", "alias", "merge", "resolve"]
op = ops_of([*WRITES, "delete", *SURFACE, *SURFACE])
DATES = ["2020-01-01", "2021-06-30", None, "2024-02-29"]
STATUSES = ["active", "paused", "done", "archived"]


def _write_more(replica: Replica, kind: str, i: int, j: int) -> None:
    if kind not in SURFACE:
        return _write(replica, kind, i, j)
    g = replica.graph
    name, other, text = NAMES[i], NAMES[j], TEXTS[j]
    try:
        current = g.db.one("SELECT id FROM observations WHERE superseded_at IS NULL ORDER BY id LIMIT 1 OFFSET ?", (j,))
        if kind == "supersede" and current is not None:
            g.supersede_observation(current[0], f"{text} now, on {replica.device.name}")
        elif kind == "valid" and current is not None:
            set_observation_validity(g, current[0], DATES[i], DATES[(i + j) % 4] if DATES[i] else None)
        elif kind == "valid_rel" and g.entity_id(name) is not None and g.entity_id(other) is not None:
            set_relation_validity(g, name, other, "knows", DATES[j], None)
        elif kind == "status" and g.entity_id(name) is not None:
            g.set_status(name, STATUSES[j])
        elif kind == "end" and g.entity_id(name) is not None and g.entity_id(other) is not None:
            g.end_relation(name, other, "knows", f"2025-0{j + 1}-01 00:00:00")
        elif kind == "reflect" and g.entity_id(name) is not None:
            g.add_reflection(f"{text} matters to {name}", author=replica.device.name, entity=name)
        elif kind == "alias" and g.entity_id(name) is not None:
            g.add_alias(name, f"{name[0]}{text}")
        elif kind == "merge" and g.entity_id(name) is not None and g.entity_id(other) is not None and name != other:
            organise.merge_entities(g, name, other)
        elif kind == "resolve":
            open_ = service_sync.list_conflicts(g)
            if open_:
                conflict = open_[j % len(open_)]
                keep = ("mine", "theirs", "both")[i % 3]
                service_sync.resolve_conflict(g, conflict.id, keep if keep in conflict.choices() else conflict.choices()[0])
    except LimbicError:
        pass  # a write the graph refuses is a refused write on any device


@settings(max_examples=12, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(ops=st.lists(op, min_size=6, max_size=25), seed=st.integers(0, 2**16))
def test_the_whole_write_surface_converges_on_three_devices(tmp_path_factory, monkeypatch, ops, seed):
    _run(tmp_path_factory.mktemp("sync"), ops, seed, monkeypatch, _write_more)


LONG_EXAMPLES = int(os.environ.get("LIMBIC_SYNC_EXAMPLES", "60"))


@pytest.mark.slow
@settings(max_examples=LONG_EXAMPLES, deadline=None, database=None,
          derandomize=os.environ.get("LIMBIC_SYNC_RANDOM") != "1",
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(ops=st.lists(op, min_size=6, max_size=50), seed=st.integers(0, 2**16))
def test_long_runs_of_the_whole_write_surface_converge(tmp_path_factory, monkeypatch, ops, seed):
    _run(tmp_path_factory.mktemp("sync"), ops, seed, monkeypatch, _write_more)
