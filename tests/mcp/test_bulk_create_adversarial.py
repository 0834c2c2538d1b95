"""create_entities' batch write (``engine/graph/bulk.py``, the log's triggers run once through ``store/trigger_batch.py``)
against the write it replaced, one ``upsert_entity`` after another: random batches through the tool as ``limbic mcp``
calls it leave every table the same, and answer the same."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from limbic.engine.graph import bulk
from limbic.engine.graph.graph import Graph
from tests.history.conftest import Clock, patch_clock
from tests.scopes.host import Host, seeded

# Compared whole, less what is random (global ids) or names the process (writer, session).
TABLES = {
    "entities": "id, name, entity_type, status, private, created_at, updated_at, revision, gid IS NOT NULL",
    "observations": "id, entity_id, content, kind, created_at, superseded_by, superseded_at, gid IS NOT NULL",
    "relations": "*",
    "entity_aliases": "id, entity_id, alias, created_at",
    "change_item": "id, change_id, kind, op, row_id, entity_id, other_id, before, after",
    "change_log": "id, at, origin, changes, tool, reverts",
    "history": "id, kind, row_id, value, recorded_from, recorded_to, ended, change_id, who, gid IS NOT NULL",
    "entity_fts": "rowid, name, entity_type, obs_text, stem_name, stem_text",
    "embedding_state": "*",
    "held_writes": "id, client, tool, arguments, state",
    "sync_tombstone": "kind, row_id, change_id",
}


def one_after_another(graph: Graph, items, kind: str = "note", checked: bool = False) -> list[int]:
    """The write before the batch: one upsert per new entity."""
    return [graph.upsert_entity(name, etype, obs, kind) for name, etype, obs in items]


def _seed(graph: Graph) -> None:
    graph.upsert_entity("Earlier", "Thing", ["was here first"])
    graph.add_alias(graph.entity_id("Earlier"), "Old Name")
    graph.upsert_entity("Secret Plan", "Plan", ["kept from assistants"])
    graph.set_private(graph.entity_id("Secret Plan"), True)
    graph.upsert_entity("Straße", "Place")
    from limbic.service import scope

    scope.set_access(graph, "narrow", ("Person", "Place", "Thing"), ("Person", "Thing"))  # reads places, writes none


def state(host: Host) -> dict:
    def read(graph):
        return {t: graph.db.execute(f"SELECT {c} FROM {t} ORDER BY rowid").fetchall() for t, c in TABLES.items()
                if graph.db.has_table(t)}
    return host.run(read)


LONG = "a long text " * 900
NAMES = ["Ann", "ann", "ANN", "Café", "Cafe\u0301", "CAFÉ", "Straße", "STRASSE", "strasse", "Earlier", "earlier",
         "Old Name", "OLD NAME", "Secret Plan", "secret plan", "  Padded  ", "Ǆemal", "ǅemal", "İstanbul", "ıstanbul",
         "Ωmega", "ωmega", "x" * 200]
OBSERVATIONS = ["likes tea", "likes tea", "LIKES TEA", "  likes tea  ", "café", "cafe\u0301", LONG, "line one\nline two",
                "Ωmega", "kept from assistants"]
REFUSED = ["", "   ", "password: Tr0ub4dor&3", "x" * 200_000]  # each refuses the whole call (or holds it)

observation = st.one_of(*[st.sampled_from(OBSERVATIONS)] * 12, st.sampled_from(REFUSED))
entity = st.fixed_dictionaries({
    "name": st.one_of(st.sampled_from(NAMES), st.integers(0, 9).map("New {}".format)),
    "entityType": st.sampled_from(["Person", "Place", " Place ", "Thing"]),
    "observations": st.lists(observation, max_size=4),
}, optional={"status": st.sampled_from(["active", "paused", "done"])})


@st.composite
def batches(draw) -> list[dict]:
    """A batch of drawn items among plain new entities, the rows around 32 (where the triggers are deferred)."""
    picked = draw(st.lists(entity, max_size=5))
    fillers = draw(st.sampled_from([0, 1, 15, 29, 30, 31, 32, 33]))
    plain = [{"name": f"Filler {i}", "entityType": "Thing", "observations": [f"note {i}"] * (i % 2)}
             for i in range(fillers)]
    at = draw(st.integers(0, len(plain)))
    return plain[:at] + picked + plain[at:]


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Path:
    return seeded(tmp_path_factory.mktemp("seed") / "seed.db", _seed)


def run_both(template: Path, monkeypatch, calls: list[list[dict]], client: str = "") -> tuple[list, dict, list, dict]:
    """Each batch through the tool on two copies of the template, the batch write and the one before."""
    def script(host, clock):
        if client:
            host.as_client(client)
        answers = []
        for entities in calls:
            clock.advance(60)
            answers.append(host.call("create_entities", entities=entities))
        return [answers, state(host)]

    batch, before = both(template, monkeypatch, script)
    return (*batch, *before)


def assert_same(answers, tables, ref_answers, ref_tables) -> None:
    assert answers == ref_answers
    for table in ref_tables:
        assert tables[table] == ref_tables[table], table


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(calls=st.lists(batches(), min_size=1, max_size=2), client=st.sampled_from(["", "narrow"]))
def test_random_batches_write_what_one_upsert_after_another_wrote(template, monkeypatch, calls, client):
    """As the assistant the person lets write everything, and as one that may write only some types."""
    answers, tables, ref_answers, ref_tables = run_both(template, monkeypatch, calls, client)
    event(f"{client or 'all'}: " + ("written" if any(not error for error, _ in answers) else "refused"))
    event("scope refused" if any("may write only" in text for _, text in answers) else "no scope refusal")
    assert_same(answers, tables, ref_answers, ref_tables)


@pytest.mark.parametrize("size", [31, 32, 33, 1000])
def test_batches_around_the_threshold_and_a_large_one(template, monkeypatch, size):
    entities = [{"name": f"Entity {i}", "entityType": "Thing", "observations": [f"fact {i}", "shared"][: i % 3]}
                for i in range(size)]
    answers, tables, ref_answers, ref_tables = run_both(template, monkeypatch, [entities, entities[:5] + [
        {"name": "Later", "entityType": "Thing", "observations": ["x"] * 40}]])
    assert not answers[0][0] and len(tables["entities"]) == 3 + size + 1
    assert_same(answers, tables, ref_answers, ref_tables)


# -- taken back, told, and broken off -------------------------------------------------------------

def _batch(size: int, prefix: str = "Entity") -> list[dict]:
    return [{"name": f"{prefix} {i}", "entityType": "Thing", "observations": [f"fact {i}", "shared"][: i % 3]}
            for i in range(size)]


def _tables(graph: Graph) -> dict:
    return {t: graph.db.execute(f"SELECT {c} FROM {t} ORDER BY rowid").fetchall() for t, c in TABLES.items()
            if graph.db.has_table(t)}


def _triggers(graph: Graph) -> list:
    return graph.db.execute("SELECT name, sql FROM sqlite_temp_master WHERE type = 'trigger' ORDER BY name").fetchall()


@pytest.mark.parametrize("size", [5, 40])
def test_a_batch_taken_back_and_given_again_is_as_before(template, monkeypatch, size):
    """A revert of the batch's change (the Activity panel's undo, ``limbic revert``) removes exactly what it wrote,
    and a revert of that revert brings it back: each step leaves the tables as the write before the batch's."""
    from limbic.engine.graph import revert

    def take_back_and_again(graph):
        states = []
        made = graph.db.activity.last_change_id
        taken = revert.apply(graph, [made])
        states.append(_tables(graph))
        revert.apply(graph, [taken.change_id])
        states.append(_tables(graph))
        return states

    def script(host, clock):
        seeded_tables = host.run(_tables)
        clock.advance(60)
        host.ok("create_entities", entities=_batch(size))
        clock.advance(60)
        return seeded_tables, host.run(take_back_and_again), host.run(_tables)

    runs = both(template, monkeypatch, script)
    (seeded_tables, (taken, again), end), reference = runs
    assert (seeded_tables, [taken, again], end) == (reference[0], reference[1], reference[2])
    for table in ("entities", "observations", "entity_fts", "entity_aliases"):
        assert taken[table] == seeded_tables[table], table  # the revert left what was there before the batch
    assert len(again["entities"]) == len(seeded_tables["entities"]) + size


def test_another_connection_is_told_which_entities_the_batch_made(template, tmp_path):
    from limbic.engine.store.db import Database
    from limbic.service.follow import cursor_at_end, others_since

    path = tmp_path / "g.db"
    shutil.copy(template, path)
    window = Database(path)
    try:
        cursor = cursor_at_end(window)
        host = Host(path)
        try:
            host.ok("create_entities", entities=_batch(40))
            made = host.run(lambda g: {r[0] for r in g.db.execute("SELECT id FROM entities WHERE name LIKE 'Entity %'")})
        finally:
            host.close()
        told = others_since(window, cursor)
        assert not told.full and told.added == made and len(made) == 40 and told.names  # a new entity is told added
    finally:
        window.close()


class Broken(Exception):
    pass


@pytest.mark.parametrize("where", ["python", "sqlite"])
def test_a_batch_broken_off_leaves_nothing_and_the_triggers(template, tmp_path, monkeypatch, where):
    """An error in the middle of the batch's inserts (deferred triggers taken away) writes nothing, and the
    connection's triggers are there again, unchanged: the next batch writes and logs as the first would have."""
    from limbic.engine.store import trigger_batch

    path = tmp_path / "g.db"
    shutil.copy(template, path)
    host = Host(path)
    try:
        host.ok("create_entities", entities=_batch(1, "Warm"))  # the connection's triggers are made by its first write
        triggers, tables = host.run(_triggers), host.run(_tables)
        assert len(triggers) > 20
        taken_away = []
        if where == "python":
            real = trigger_batch.deferred

            def failing(db, names, *family):
                import contextlib

                @contextlib.contextmanager
                def block():
                    with real(db, names, *family) as inserted:
                        taken_away.append(len(_triggers(host.graph())))

                        class Marked(trigger_batch.Noted):  # breaks off at the 20th row noted, one by one or all
                            def __call__(self, table, row_id):
                                self.extend([(table, row_id)])

                            def extend(self, rows):
                                for row in rows:
                                    inserted(*row)
                                    if len(inserted.rows) == 20:
                                        raise Broken("in the middle")

                        yield Marked(inserted.deferring)
                return block()

            monkeypatch.setattr(trigger_batch, "deferred", failing)
            with pytest.raises(Broken):
                host.call("create_entities", entities=_batch(40))
            assert taken_away and taken_away[0] < len(triggers)  # the batch did run with its triggers away
        else:
            host.run(lambda g: g.db.execute(
                "CREATE TEMP TRIGGER test_stop BEFORE INSERT ON main.observations WHEN NEW.content = 'fact 25' "
                "BEGIN SELECT RAISE(ABORT, 'stopped here'); END"))
            with pytest.raises(Exception, match="stopped here"):
                host.call("create_entities", entities=_batch(40))
            host.run(lambda g: g.db.execute("DROP TRIGGER temp.test_stop"))
        assert host.run(_triggers) == triggers
        assert host.run(_tables) == tables
        monkeypatch.undo()
        host.ok("create_entities", entities=_batch(40))
        written = host.run(_tables)
        assert len(written["entities"]) == len(tables["entities"]) + 40
        assert len(written["change_item"]) - len(tables["change_item"]) == 40 + sum(min(i % 3, 2) for i in range(40))
        assert host.run(_triggers) == triggers
    finally:
        host.close()


# -- sync -------------------------------------------------------------------------------------------

def _without_gids(value):
    """A captured change with its global ids (random) and device stamps replaced by their place."""
    import re

    text = __import__("json").dumps(value, sort_keys=True)
    text = re.sub(r'"[0-9a-f]{32}"', '"gid"', text)
    return re.sub(r'"\d{16}\.\d+"', '"stamp"', text)  # a hybrid clock's reading: the real time


@pytest.mark.parametrize("size", [5, 40])
def test_a_joined_graph_publishes_the_batch_and_another_device_applies_it(tmp_path, monkeypatch, size):
    from limbic.engine.sync import capture
    from limbic.service import memory
    from tests.sync.replicas import synced_hash, synced_rows, two_devices

    captured = {}
    for reference in (False, True):
        root = tmp_path / str(reference)
        root.mkdir()
        with monkeypatch.context() as m, two_devices(root, _seed) as (laptop, desktop, folder):
            clock = Clock()
            patch_clock(m, clock)
            if reference:
                m.setattr(bulk, "create_new_entities", one_after_another)
            clock.advance(60)
            laptop.graph.db.activity.origin = "assistant"
            memory.create_entities(laptop.graph, _batch(size) + [{"name": "Straße", "entityType": "Place",
                                                                  "observations": ["skipped: the name is there"]}])
            with laptop.graph.db.transaction():
                captured[reference] = _without_gids(capture.unpublished(laptop.graph.db, laptop.device.id)[0])
            laptop.sync(folder)
            desktop.sync(folder)
            assert synced_hash(desktop.graph) == synced_hash(laptop.graph)
            rows = synced_rows(desktop.graph)
            assert len(rows["entities"]) == 3 + size and len(rows["observations"]) == 2 + sum(i % 3 for i in range(size))
            assert desktop.graph.db.scalar("SELECT count(*) FROM entity_fts WHERE name LIKE 'Entity %'") == size
    assert captured[False] == captured[True]


# -- two processes --------------------------------------------------------------------------------

WRITER = """
import sys
from limbic.engine.graph.graph import Graph
from limbic.engine.store.db import Database
from limbic.service import memory

path, who = sys.argv[1], sys.argv[2]
graph = Graph(Database(path))
graph.db.activity.origin = "assistant"
for round in range(24):
    size = (3, 40, 33)[round % 3]
    batch = [{"name": f"{who} {round} {i}", "entityType": "Thing", "observations": [f"{who} fact {i}", "both"][: i % 3]}
             for i in range(size)]
    batch += [{"name": f"Shared {round}", "entityType": "Thing", "observations": [f"by {who}"]}]
    memory.create_entities(graph, batch)
graph.db.close()
"""


def test_two_processes_writing_batches_at_once_leave_every_row_logged(tmp_path):
    """Two programs each write batches into one file at the same time (a name both give is made by one of them):
    every row is there with its one add in the log and its one open version in the history, under the change
    that made it, and ``limbic check`` finds the file consistent."""
    import os
    import subprocess
    import sys

    from limbic.engine.check import check_graph
    from limbic.engine.store.db import Database

    path = tmp_path / "g.db"
    Graph(Database(path)).db.close()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "app")}
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), who], env=env, stderr=subprocess.PIPE)
             for who in ("P0", "P1")]
    errors = [p.communicate(timeout=300)[1].decode() for p in procs]
    assert [p.returncode for p in procs] == [0, 0], errors
    db = Database(path)
    try:
        per_writer = sum(((3, 40, 33)[r % 3] for r in range(24)))
        assert db.scalar("SELECT count(*) FROM entities WHERE name LIKE 'P_ %'") == 2 * per_writer
        assert db.scalar("SELECT count(*) FROM entities WHERE name LIKE 'Shared %'") == 24
        for kind, table in (("entity", "entities"), ("observation", "observations")):
            rows = db.scalar(f"SELECT count(*) FROM {table}")
            assert db.scalar("SELECT count(*) FROM change_item WHERE kind = ? AND op = 'add'", (kind,)) == rows, kind
            assert db.scalar(f"SELECT count(*) FROM {table} t WHERE (SELECT count(*) FROM change_item c WHERE "
                             "c.kind = ? AND c.op = 'add' AND c.row_id = t.id) != 1", (kind,)) == 0, kind
            assert db.scalar(f"SELECT count(*) FROM {table} t WHERE (SELECT count(*) FROM history h WHERE h.kind = ? "
                             "AND h.row_id = t.id AND h.recorded_to IS NULL AND h.gid = t.gid) != 1", (kind,)) == 0, kind
        # Each row's log row and history row name the change that made it: one change per call, by one writer.
        assert db.scalar("SELECT count(*) FROM change_item c WHERE NOT EXISTS "
                         "(SELECT 1 FROM change_log l WHERE l.id = c.change_id)") == 0
        assert db.scalar("SELECT count(*) FROM history h WHERE NOT EXISTS "
                         "(SELECT 1 FROM change_log l WHERE l.id = h.change_id)") == 0
        assert db.scalar("SELECT count(*) FROM entities e JOIN change_item c ON c.kind = 'entity' AND c.row_id = e.id "
                         "JOIN history h ON h.kind = 'entity' AND h.row_id = e.id WHERE c.change_id != h.change_id") == 0
        assert db.scalar("SELECT count(DISTINCT change_id) FROM change_item") == 48
        assert db.scalar("SELECT count(*) FROM entity_fts") == db.scalar("SELECT count(*) FROM entities")
        assert check_graph(db, None).consistent
    finally:
        db.close()


@pytest.mark.parametrize("size", [5, 40])
def test_limbic_revert_of_a_batch_leaves_the_file_as_before_it(template, monkeypatch, capsys, size):
    """``limbic revert N`` of the batch's change, then ``limbic check``: the same files as with the write before."""
    from limbic.cli import main
    from limbic.engine.store.db import Database

    ends = []
    with tempfile.TemporaryDirectory() as root:
        for reference in (False, True):
            with monkeypatch.context() as m:
                clock = Clock()
                patch_clock(m, clock)
                if reference:
                    m.setattr(bulk, "create_new_entities", one_after_another)
                path = Path(root) / f"{reference}.db"
                shutil.copy(template, path)
                host = Host(path)
                try:
                    before = host.run(_tables)
                    clock.advance(60)
                    host.ok("create_entities", entities=_batch(size))
                    made = host.run(lambda g: g.db.activity.last_change_id)
                finally:
                    host.close()
                clock.advance(60)
                assert main(["--db", str(path), "revert", str(made)]) == 0
                assert main(["--db", str(path), "check"]) == 0
                graph = Graph(Database(path))
                try:
                    after = _tables(graph)
                finally:
                    graph.db.close()
                for table in ("entities", "observations", "entity_fts", "entity_aliases"):
                    assert after[table] == before[table], table
                ends.append(after)
    assert ends[0] == ends[1]
    assert f"Took back {size + sum(i % 3 for i in range(size))} pieces" in capsys.readouterr().out


def both(template: Path, monkeypatch, script) -> list:
    """``script(host, clock)`` on a copy of the template with the batch write, then with the write before it."""
    out = []
    with tempfile.TemporaryDirectory() as root:
        for reference in (False, True):
            with monkeypatch.context() as m:
                clock = Clock()
                patch_clock(m, clock)
                if reference:
                    m.setattr(bulk, "create_new_entities", one_after_another)
                path = Path(root) / f"{reference}.db"
                shutil.copy(template, path)
                host = Host(path)
                try:
                    out.append(script(host, clock))
                finally:
                    host.close()
    return out


@pytest.mark.parametrize("private", [False, True])
def test_a_held_batch_accepted_by_the_person_is_written_as_before(template, monkeypatch, private):
    """A batch the secrets guard holds (one text looks like a password) is written when the person accepts it,
    optionally private: the same rows and log as the write before the batch."""
    from limbic.service import held

    def script(host, clock):
        clock.advance(60)
        is_error, text = host.call("create_entities", entities=_batch(39) + [
            {"name": "Wifi", "entityType": "Thing", "observations": ["password: Tr0ub4dor&3"]}])
        assert is_error and "Held for the person to review" in text
        clock.advance(60)
        waiting = host.run(held.held)
        host.run(held.accept, waiting[0].id, private)
        return host.run(_tables)

    batch, reference = both(template, monkeypatch, script)
    assert len(batch["entities"]) == 3 + 40 and sum(r[4] for r in batch["entities"]) == 1 + 40 * private
    for table in reference:
        assert batch[table] == reference[table], table


# -- the batch look-up of names -----------------------------------------------------------------------

SPELLINGS = ["Strasse", "STRASSE", "straße", "STRAẞE", "Straße", "ǅemal", "Ǆemal", "ǆemal", "Σοφία", "ΣΟΦΊΑ", "σοφία",
             "Ann", "ann", "ANN", "Café", "CAFÉ", "café"]


@settings(max_examples=60, deadline=None)
@given(stored=st.lists(st.sampled_from(SPELLINGS), unique=True, max_size=8), aliases=st.lists(
    st.sampled_from(SPELLINGS), unique=True, max_size=4))
def test_the_batch_look_up_finds_the_holder_each_look_up_finds_when_several_share_a_name(stored, aliases):
    """A file written elsewhere may hold several names that differ only in case (Limbic keeps one): the batch look-up
    names the same one of them as the look-up of one name (so a refusal names the same entity)."""
    from limbic.engine.store.db import Database

    with tempfile.TemporaryDirectory() as root:
        graph = Graph(Database(Path(root) / "g.db"))
        try:
            with graph.db.transaction():
                for name in stored:
                    graph.db.execute("INSERT INTO entities(name, entity_type, created_at, updated_at) "
                                     "VALUES (?, 'T', 'then', 'then')", (name,))
                owner = graph.db.scalar("SELECT id FROM entities ORDER BY id LIMIT 1")
                if owner is not None:
                    for alias in aliases:
                        graph.db.execute("INSERT OR IGNORE INTO entity_aliases(entity_id, alias, created_at) "
                                         "VALUES (?, ?, 'then')", (owner + len(alias) % len(stored), alias))
            found = bulk.holders(graph.db, SPELLINGS)
            for name in SPELLINGS:
                assert (found[name].near, found[name].near_alias) == (graph.case_variant(name), graph.alias_owner(name))
        finally:
            graph.db.close()
