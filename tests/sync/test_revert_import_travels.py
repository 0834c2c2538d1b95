"""An import taken back (Activity → revert) on one device while another made one of its names: the entity of
that name stays, as the other device's making of it was never seen by the revert, but the entity and the
relation the import alone brought stay gone — on every device, whatever order the changes meet it in."""

from __future__ import annotations

import itertools
import json

import pytest

from limbic.service import activity
from limbic.service.importers import import_path
from tests.sync.replicas import devices, settle, synced_rows


@pytest.mark.parametrize("order", ["".join(p) for p in itertools.permutations("abc")])
def test_a_reverted_import_does_not_bring_back_what_only_it_made(tmp_path, order):
    with devices(tmp_path, "alpha", "beta", "gamma") as (replicas, folder):
        a, b, c = replicas
        a.graph.upsert_entity("Ada", "Person", ["likes tea"])  # not yet seen by beta
        memory = tmp_path / "memory.jsonl"
        memory.write_text("\n".join(json.dumps(line) for line in (
            {"type": "entity", "name": "Ada", "entityType": "Person", "observations": ["plays chess"]},
            {"type": "entity", "name": "Bob", "entityType": "Person", "observations": []},
            {"type": "relation", "from": "Ada", "to": "Bob", "relationType": "knows"})) + "\n", encoding="utf-8")
        report = import_path(b.graph, memory, embed=False)
        b.sync(folder)
        c.sync(folder)  # gamma holds the import
        activity.revert_changes(b.graph, report.change_ids, "skip")  # Ada, Bob and the relation go
        for key in order:
            {"a": a, "b": b, "c": c}[key].sync(folder)
        settle(replicas, folder)
        for r in replicas:
            names = [n for (n,) in r.graph.db.execute("SELECT name FROM entities ORDER BY name")]
            assert names == ["Ada"], r.device.name
            assert r.graph.db.scalar("SELECT count(*) FROM relations") == 0, r.device.name
        assert synced_rows(a.graph) == synced_rows(b.graph) == synced_rows(c.graph)
