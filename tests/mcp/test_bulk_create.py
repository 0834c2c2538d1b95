"""Many entities written in one go (``engine/graph/bulk.py``, what ``create_entities`` uses) leave the file as
one ``upsert_entity`` after another leaves it: the same rows, activity log, recorded history, full-text rows
and change log; and the batch look-up of names answers as the look-ups of one name at a time."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from limbic.engine.errors import ValidationError
from limbic.engine.graph import bulk
from limbic.engine.graph.graph import Graph
from limbic.engine.store import trigger_batch
from limbic.engine.store.db import Database
from limbic.engine.store.values import case_spellings
from limbic.service import memory
from tests.history.conftest import Clock, patch_clock

ITEMS = [
    ("Ann", "Person", ["lives in Oslo", "likes tea", "lives in Oslo"]),  # a repeated text is stored once
    ("Bob", None, []),  # no type, no observations
    ("Café Zürich", "Place", ["opens at 7"]),
    ("Straße 5", "Place", ["a street", "paved"]),
]
# Tables compared whole, minus what is random (global ids) or counts (auto-increment bookkeeping).
TABLES = {
    "entities": "id, name, entity_type, status, created_at, updated_at, revision, gid IS NOT NULL",
    "observations": "id, entity_id, content, kind, created_at, superseded_by, superseded_at, gid IS NOT NULL",
    "change_item": "id, change_id, kind, op, row_id, entity_id, other_id, before, after",
    "change_log": "id, at, origin, changes, tool, reverts",
    "history": "id, kind, row_id, value, recorded_from, recorded_to, ended, change_id, who, "
               "gid = (SELECT gid FROM entities e WHERE e.id = row_id AND kind = 'entity') "
               "OR gid = (SELECT gid FROM observations o WHERE o.id = row_id AND kind = 'observation')",
    "entity_fts": "rowid, name, entity_type, obs_text, stem_name, stem_text",
    "embedding_state": "*",
}


def _graph(path) -> Graph:
    graph = Graph(Database(path))
    with graph.write(embed=False):
        graph.upsert_entity("Earlier", "Thing", ["was here first"])
        graph.add_alias(graph.entity_id("Earlier"), "Old Name")
    return graph


def _state(graph: Graph) -> dict:
    return {table: graph.db.execute(f"SELECT {columns} FROM {table} ORDER BY rowid").fetchall()
            for table, columns in TABLES.items()}


# A trigger of another kind (a condition) that trigger_batch leaves to fire row by row.
CONDITIONAL = ("CREATE TEMP TRIGGER test_marks AFTER INSERT ON main.observations WHEN NEW.content LIKE 'l%' BEGIN "
               "INSERT INTO main.meta(key, value) VALUES ('mark ' || NEW.id, NEW.content); END")


@pytest.mark.parametrize(("extra_trigger", "defer_rows"), [(False, 1), (True, 1), (False, 1000)],
                         ids=["log triggers run once", "an unread trigger", "a small batch row by row"])
def test_a_batch_writes_what_one_entity_after_another_writes(tmp_path, monkeypatch, extra_trigger, defer_rows):
    clock = Clock()
    patch_clock(monkeypatch, clock)
    monkeypatch.setattr(bulk, "DEFER_ROWS", defer_rows)
    ran, in_one_pass = [], []
    real, real_sql = trigger_batch.deferred, trigger_batch._family_sql
    monkeypatch.setattr(trigger_batch, "deferred", lambda *a: ran.append(1) or real(*a))
    monkeypatch.setattr(trigger_batch, "_family_sql", lambda *a: in_one_pass.append(a[0]) or real_sql(*a))
    one, batch = _graph(tmp_path / "one.db"), _graph(tmp_path / "batch.db")
    clock.advance(60)
    deferred = trigger_batch._triggers(batch.db, ("entities", "observations"))
    assert deferred and {t.target for t in deferred} == {"main.change_item", "main.history"}
    if extra_trigger:
        for graph in (one, batch):
            graph.db.execute(CONDITIONAL)
        assert trigger_batch._triggers(batch.db, ("entities", "observations")) is None
    with one.write(embed=False):
        singles = [one.upsert_entity(name, etype, obs) for name, etype, obs in ITEMS]
    with batch.write(embed=False):
        ids = bulk.create_new_entities(batch, ITEMS)
    assert ids == singles
    before, after = _state(one), _state(batch)
    assert after["change_item"] and after["history"] and after["entity_fts"]  # the comparison compares something
    for table in TABLES:
        assert after[table] == before[table], table
    marks = "SELECT key, value FROM meta WHERE key LIKE 'mark %' ORDER BY key"
    assert batch.db.execute(marks).fetchall() == one.db.execute(marks).fetchall()
    assert bool(one.db.execute(marks).fetchall()) == extra_trigger
    assert trigger_batch._triggers(batch.db, ("entities", "observations")) == (None if extra_trigger else deferred)
    assert bool(ran) == (defer_rows == 1)
    assert sorted(in_one_pass) == ([] if extra_trigger or defer_rows > 1 else ["main.change_item", "main.history"])


def test_the_batch_look_up_answers_as_each_look_up(tmp_path):
    graph = Graph(Database(tmp_path / "g.db"))
    with graph.write():
        for name in ("Ann", "ÉCOLE", "Straße", "Bob"):
            graph.upsert_entity(name, "T")
        graph.add_alias(graph.entity_id("Bob"), "Robert")
        graph.add_alias(graph.entity_id("Ann"), "Ánna")
    names = ["Ann", "ann", "ANN", "école", "École", "STRASSE", "strasse", "Straße", "Robert", "robert", "ROBERT",
             "ánna", "Ánna", "Nobody", "Bob", "bOB"]
    found = bulk.holders(graph.db, names)
    for name in names:
        exact = graph.db.scalar("SELECT id FROM entities WHERE name = ?", (name,))
        one_by_one = bulk.Holders(exact, graph.exact_alias_owner(name), graph.case_variant(name), graph.alias_owner(name))
        assert found[name] == one_by_one, name
    assert not found["Straße"].free and found["Nobody"].free and found["strasse"].near is not None


def test_a_taken_or_repeated_name_writes_nothing(tmp_path):
    graph = Graph(Database(tmp_path / "g.db"))
    with graph.write():
        graph.upsert_entity("Ann", "Person")
        graph.add_alias(graph.entity_id("Ann"), "Annie")
    count = graph.db.scalar("SELECT count(*) FROM entities")
    for items in ([("New", "T", []), ("ANN", "T", [])], [("New", "T", []), ("annie", "T", [])],
                  [("New", "T", []), ("new", "T", [])]):
        with pytest.raises(ValidationError):
            bulk.create_new_entities(graph, items)
        assert graph.db.scalar("SELECT count(*) FROM entities") == count


def test_create_entities_answers_as_before(tmp_path):
    """The tool's answers and refusals: an existing name skipped, a case variant or alias refused."""
    graph = Graph(Database(tmp_path / "g.db"))
    memory.create_entities(graph, [{"name": "Ann", "entityType": "Person", "observations": ["a"]}])
    graph.add_alias(graph.entity_id("Ann"), "Annie")
    made = memory.create_entities(graph, [
        {"name": "Ann", "entityType": "Person", "observations": ["b"]},
        {"name": "Eve", "entityType": "Person", "observations": ["x", "x", "y"], "status": "paused"},
        {"name": "Eve", "entityType": "Person", "observations": []},
    ])
    assert made == [{"name": "Eve", "entityType": "Person", "observations": ["x", "y"]}]
    assert graph.get_entity("Eve").status == "paused" and graph.get_entity("Ann").observation_texts == ["a"]
    for name, words in (("ANN", "differs only in case"), ("annie", "is an alias of the entity “Ann”")):
        with pytest.raises(ValidationError, match=words):
            memory.create_entities(graph, [{"name": "Zed", "entityType": "T", "observations": []},
                                           {"name": name, "entityType": "T", "observations": []}])
    assert graph.entity_id("Zed") is None


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="aAsSzZ ßẞ1-ñÑ", max_size=8))
def test_the_probes_of_a_name_are_the_nocase_forms_of_its_case_spellings(name):
    """An ASCII name without "ss" is looked up by its lower case alone; every other name by all its spellings."""
    assert bulk._probes(name) == tuple(dict.fromkeys(bulk._nocase(s) for s in case_spellings(name)))


def _fts(graph: Graph) -> list[tuple]:
    return graph.db.execute(f"SELECT {TABLES['entity_fts']} FROM entity_fts ORDER BY rowid").fetchall()


def test_the_full_text_rows_of_a_batch_are_made_from_what_it_wrote(tmp_path, monkeypatch):
    """The batch's own rows give its full-text rows (nothing read back), and so do two batches of one write;
    a row changed after a batch in the same write (an observation, an alias, a relation) is read back, so
    the full-text rows hold it: every time as the rows one entity after another leaves."""
    from limbic.engine.vectors import index

    read: list[int] = []
    real = index.load_sources
    monkeypatch.setattr(index, "load_sources", lambda db, ids: read.extend(ids) or real(db, ids))
    more = [("Dan", "Person", ["owns a boat"]), ("Eve", "Person", [])]
    afterwards = {
        "nothing": lambda g: None,
        "another batch": lambda g: bulk.create_new_entities(g, more),
        "an observation": lambda g: g.add_observations(g.entity_id("Ann"), ["moved to Bergen"]),
        "an alias": lambda g: g.add_alias(g.entity_id("Bob"), "Robert"),
        "a relation": lambda g: g.add_relation("Ann", "Bob", "knows"),
    }
    for what, then in afterwards.items():
        one, batch = _graph(tmp_path / f"one {what}.db"), _graph(tmp_path / f"batch {what}.db")
        with one.write(embed=False):
            for name, etype, obs in ITEMS + (more if what == "another batch" else []):
                one.upsert_entity(name, etype, obs)
            if what != "another batch":
                then(one)
        read.clear()
        with batch.write(embed=False):
            bulk.create_new_entities(batch, ITEMS)
            then(batch)
        assert _fts(batch) == _fts(one), what
        assert bool(read) == (what not in ("nothing", "another batch")), what


@pytest.mark.parametrize("order", ["a family", "a childless parent first and last", "a child after another parent",
                                   "a child first", "no children"])
def test_the_log_of_rows_noted_in_any_order_is_the_log_of_each_row(tmp_path, monkeypatch, order):
    """Rows noted in another order than parents each followed by their children are written as the triggers would
    have written them, one by one, in that order (the one-pass statement is only for a family it checked)."""
    clock = Clock()
    patch_clock(monkeypatch, clock)
    in_one_pass, real_sql = [], trigger_batch._family_sql
    monkeypatch.setattr(trigger_batch, "_family_sql", lambda *a: in_one_pass.append(a[0]) or real_sql(*a))
    graphs = _graph(tmp_path / "one.db"), _graph(tmp_path / "batch.db")
    steps = {"a family": ["A", "A:1", "A:2", "B", "B:1"], "a childless parent first and last": ["A", "B", "B:1", "C"],
             "a child after another parent": ["A", "B", "A:1", "B:1"],
             "a child first": ["A", "B", "B:1", "A:1"], "no children": ["A", "B"]}[order]
    for graph, batched in zip(graphs, (False, True)):
        db, ids = graph.db, {}
        with graph.write(embed=False):
            block = trigger_batch.deferred(db, ("entities", "observations"), bulk.FAMILY) if batched \
                else bulk._row_by_row()
            with block as inserted:
                for step in steps:
                    name, _, text = step.partition(":")
                    if text:
                        db.execute("INSERT INTO observations(entity_id, content, created_at) VALUES (?, ?, 'now')",
                                   (ids[name], f"{name} {text}"))
                        inserted("observations", db.conn.last_insert_rowid())
                    else:
                        db.execute("INSERT INTO entities(name, created_at, updated_at) VALUES (?, 'now', 'now')", (name,))
                        ids[name] = db.conn.last_insert_rowid()
                        inserted("entities", ids[name])
            graph._dirty.update(ids.values())
    one, batch = (_state(g) for g in graphs)
    assert batch["change_item"] and batch["history"]
    for table in ("change_item", "history"):
        assert batch[table] == one[table], table
    assert bool(in_one_pass) == (order in ("a family", "a childless parent first and last"))
