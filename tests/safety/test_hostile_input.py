"""Hostile input, property-based: names, types, observations, JSONL files and queries never crash Limbic.

What is refused gets one plain sentence and changes nothing; what is accepted is stored exactly
and indexed. ``LIMBIC_HYPOTHESIS_EXAMPLES`` raises the number of examples per property.
"""

from __future__ import annotations

import json
import os
import random
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from limbic.cli import main
from limbic.engine.check import check_graph
from limbic.engine.store.db import Database
from limbic.engine.errors import ImportFileError, LimbicError, NotFoundError, ValidationError
from limbic.engine.graph.graph import MAX_NAME_CHARS, MAX_OBSERVATION_CHARS, Graph, name_key
from limbic.engine.formats.jsonl import import_records, read_file
from limbic.engine.search.search import search

EXAMPLES = int(os.environ.get("LIMBIC_HYPOTHESIS_EXAMPLES", "120"))
PROPERTY = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)

# Every code point, surrogates and controls included.
ANY_CHAR = st.characters(codec=None, exclude_categories=())
SPECIALS = [
    "", " ", "\x00", "a\x00b", "\ud800", "x\udfff", "\u202e", "\ufeff", "\x7f", "\x1b[31m", "\t", "\n", "\r\n", "\u2028",
    "🙂", "e\u0301", "NEAR", '"', '"unbalanced', "*", "-x", "a:b", "(", ")", "AND OR NOT", "'; DROP TABLE entities; --",
    "x" * (MAX_NAME_CHARS + 1), "\x85", "ﷺ",
]
HOSTILE = st.one_of(
    st.text(ANY_CHAR, max_size=40),
    st.sampled_from(SPECIALS),
    st.tuples(st.sampled_from(SPECIALS), st.text(ANY_CHAR, max_size=8)).map("".join),
)


def graph_rows(db: Database) -> tuple:
    return tuple(db.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall() for t in ("entities", "observations", "relations"))


def assert_sentence(exc: Exception) -> None:
    text = str(exc)
    assert text and "\n" not in text and text.rstrip()[-1] in ".)" and "Traceback" not in text, text


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    g = Graph(Database(tmp_path_factory.mktemp("hostile") / "g.db"))
    g.upsert_entity("Anchor", "Thing", ["an entity every example can point at"])
    yield g
    g.db.close()


@PROPERTY
@given(name=HOSTILE, etype=st.one_of(st.none(), HOSTILE), observations=st.lists(HOSTILE, max_size=4))
def test_creating_an_entity_from_hostile_text(store, name, etype, observations):
    before = graph_rows(store.db)
    existing = store.entity_id(name) if isinstance(name, str) else None
    try:
        entity_id = store.upsert_entity(name, etype, observations)
    except ValidationError as exc:
        assert_sentence(exc)
        assert graph_rows(store.db) == before  # nothing half-written
        return
    entity = store.get_entity(entity_id)
    # Stored in NFC; a name differing from an earlier one only in case merged into that entity.
    assert name_key(entity.name) == name_key(name.strip())
    if existing is None:
        assert entity.name == unicodedata.normalize("NFC", name.strip())
    else:
        assert entity_id == existing
    assert {o.strip() for o in observations} <= set(entity.observation_texts)
    assert store.db.one("SELECT name FROM entity_fts WHERE rowid = ?", (entity_id,)) == (entity.name,)


@PROPERTY
@given(action=st.sampled_from(["rename", "retype", "observe", "edit", "relate", "unrelate", "unrelate-type", "lookup"]), value=HOSTILE)
def test_editing_with_hostile_text(store, action, value):
    target = store.upsert_entity("Edited", "Thing", ["first observation"])
    before = graph_rows(store.db)
    try:
        if action == "rename":
            store.rename_entity(target, value)
            store.rename_entity(value.strip(), "Edited")
        elif action == "retype":
            store.set_entity_type(target, value)
        elif action == "observe":
            store.add_observations(target, [value])
        elif action == "edit":
            store.edit_observation(store.get_entity(target).observations[0].id, value)
        elif action == "relate":
            store.add_relation(target, "Anchor", value)
        elif action == "unrelate":
            store.remove_relation(target, value, "knows")
        elif action == "unrelate-type":
            store.remove_relation(target, "Anchor", value)
        else:
            store.get_entity(value)
            assert isinstance(store.names(value), list)
    except (ValidationError, NotFoundError) as exc:
        assert_sentence(exc)
        assert graph_rows(store.db) == before
    report = check_graph(store.db, integrity=False)
    assert report.consistent, report.lines()


def test_limits_are_enforced_with_a_sentence(text_graph):
    megabyte = "x" * 1_000_000
    for call in (
        lambda: text_graph.upsert_entity(megabyte),
        lambda: text_graph.upsert_entity("A", megabyte),
        lambda: text_graph.upsert_entity("A", "T", [megabyte]),
        lambda: text_graph.upsert_entity("x" * (MAX_NAME_CHARS + 1)),
    ):
        with pytest.raises(ValidationError) as err:
            call()
        assert_sentence(err.value)
        assert "at most" in str(err.value)
    assert text_graph.counts()["entities"] == 0
    text_graph.upsert_entity("x" * MAX_NAME_CHARS, "T", ["y" * MAX_OBSERVATION_CHARS])
    assert text_graph.counts()["entities"] == 1


def test_largest_observation_and_ten_thousand_observations_are_stored_and_embedded(graph, embedder):
    graph.upsert_entity("Huge", "T", ["word " * (MAX_OBSERVATION_CHARS // 5 - 1)])
    many = [f"observation {i} about topic {i % 97}" for i in range(10_000)]
    graph.upsert_entity("Crowded", "T", many)
    graph.add_observations("Crowded", ["one more, after ten thousand"])
    entity = graph.get_entity("Crowded")
    assert len(entity.observations) == 10_001
    assert graph.db.scalar("SELECT obs_text FROM entity_fts WHERE rowid = ?", (entity.id,)).count(" | ") == 10_000
    report = check_graph(graph.db, embedder)
    assert report.consistent and report.pending == 0 and report.vectors == 2
    assert search(graph, "ten thousand", record=False).results[0].name == "Crowded"


# -- JSONL files ---------------------------------------------------------------------------------

NAMES = ["Ada", "Bob", "Café", "東京", " Padded ", "Ada"]  # a small pool: duplicates and relations that resolve
JSON_VALUE = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), HOSTILE),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)),
    max_leaves=6,
)
NAME = st.one_of(st.sampled_from(NAMES), HOSTILE, JSON_VALUE)
ENTITY = st.fixed_dictionaries(
    {"type": st.just("entity"), "name": NAME},
    optional={"entityType": st.one_of(st.sampled_from(["Person", "Place"]), NAME), "observations": st.one_of(st.lists(NAME, max_size=3), JSON_VALUE)},
)
RELATION = st.fixed_dictionaries(
    {"type": st.just("relation"), "from": NAME, "to": st.one_of(NAME, st.just("Nobody")), "relationType": st.one_of(st.just("knows"), NAME)}
)
GOOD_ENTITY = st.builds(
    lambda n, obs: {"type": "entity", "name": n, "entityType": "Person", "observations": obs},
    st.sampled_from(NAMES), st.lists(st.sampled_from(["likes tea", "lives far away", "😀 emoji"]), max_size=3),
)
GOOD_RELATION = st.builds(
    lambda a, b: {"type": "relation", "from": a, "to": b, "relationType": "knows"},
    st.sampled_from(NAMES + ["Nobody"]), st.sampled_from(NAMES + ["Nobody"]),
)


def _encode_line(obj, rng: random.Random) -> bytes:
    text = json.dumps(obj, ensure_ascii=rng.random() < 0.5)
    return text.encode("utf-8", "surrogatepass")  # a lone surrogate written raw is not valid UTF-8


LINE = st.one_of(
    GOOD_ENTITY, GOOD_ENTITY, GOOD_RELATION, ENTITY, RELATION, JSON_VALUE,
    st.sampled_from([b"", b"{", b'{"type": "entity", "name": "Cut', b"\xff\xfe\x00", b"[" * 5000, b"1" * 5000, b"\xef\xbb\xbf{}", b"null"]),
)


@PROPERTY
@given(lines=st.lists(LINE, max_size=12), bom=st.booleans(), crlf=st.booleans(), seed=st.integers(0, 2**16))
def test_importing_a_hostile_jsonl_file(store, tmp_path_factory, lines, bom, crlf, seed):
    rng = random.Random(seed)
    raw = [line if isinstance(line, bytes) else _encode_line(line, rng) for line in lines]
    data = (b"\xef\xbb\xbf" if bom else b"") + (b"\r\n" if crlf else b"\n").join(raw)
    path = tmp_path_factory.mktemp("jsonl") / "in.jsonl"
    path.write_bytes(data)
    before = graph_rows(store.db)
    try:
        entities, relations = read_file(path)
    except ImportFileError as exc:
        assert str(exc).startswith(f"{path}, line ") and exc.line >= 1 and "\n" not in str(exc)
        assert graph_rows(store.db) == before
        return
    summary = import_records(store, entities, relations)
    for rec in entities:
        entity = store.get_entity(rec.name)
        assert set(rec.observations) <= set(entity.observation_texts)
    for rel in relations:
        missing = store.entity_id(rel.source) is None or store.entity_id(rel.target) is None
        assert (rel.line in summary.skipped_relations) == missing
    assert summary.describe().endswith(".")
    assert check_graph(store.db, integrity=False).consistent


def test_cli_import_of_bad_files_says_which_line_in_one_sentence(tmp_path, capsys):
    db = str(tmp_path / "g.db")
    cases = {
        "latin1.jsonl": b'{"type":"entity","name":"Ok"}\n{"type":"entity","name":"Caf\xe9"}\n',
        "cut.jsonl": b'{"type":"entity","name":"Ok"}\n{"type":"entity","na',
        "types.jsonl": b'{"type":"entity","name":"Ok","observations":"not a list"}\n',
        "deep.jsonl": b"[" * 100_000 + b"\n",
        "number.jsonl": b'{"type":"entity","name":"N","observations":[' + b"9" * 5000 + b"]}\n",
        "nul.jsonl": b'{"type":"entity","name":"A\\u0000B"}\n',
    }
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
        assert main(["import", "--db", db, str(tmp_path / name)]) == 1, name
        err = capsys.readouterr().err.strip().splitlines()
        assert len([line for line in err if line.startswith("limbic: ") and "semantic search" not in line]) == 1, err
        assert f"{name}, line " in err[-1]
    g = Graph(Database(db))
    assert g.counts()["entities"] == 0  # a bad line anywhere imports nothing
    g.db.close()


def test_cli_imports_bom_crlf_duplicates_and_dangling_relations(tmp_path, capsys):
    src = tmp_path / "windows.jsonl"
    lines = [
        {"type": "entity", "name": "Ada", "entityType": "Person", "observations": ["first"]},
        {"type": "entity", "name": "Ada", "observations": ["second"]},
        {"type": "relation", "from": "Ada", "to": "Nobody", "relationType": "knows"},
    ]
    src.write_bytes(b"\xef\xbb\xbf" + b"\r\n".join(json.dumps(x).encode() for x in lines) + b"\r\n")
    assert main(["import", "--db", str(tmp_path / "g.db"), str(src)]) == 0
    out = capsys.readouterr().out
    assert "1 relation skipped because an end is missing (line 3: “Nobody” is not in the file or the graph)" in out
    g = Graph(Database(tmp_path / "g.db"))
    assert g.get_entity("Ada").observation_texts == ["first", "second"]
    g.db.close()


# -- queries -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def searchable(tmp_path_factory, embedder):
    g = Graph(Database(tmp_path_factory.mktemp("search") / "g.db"), embedder)
    with g.write():
        for i, text in enumerate(["tea and biscuits", "quantum physics notes", "café in Zürich", "東京の地下鉄", "C++ templates"]):
            g.upsert_entity(f"Note {i}", "Note", [text])
    yield g
    g.db.close()


@PROPERTY
@given(query=st.one_of(HOSTILE, st.text(ANY_CHAR, max_size=300)), record=st.booleans())
def test_any_query_returns_results_or_none_never_an_error(searchable, query, record):
    try:
        response = search(searchable, query, limit=5, record=record)
    except LimbicError as exc:  # an expected refusal is a sentence, never a crash
        assert_sentence(exc)
        return
    assert len(response.results) <= 5
    assert response.mode in ("hybrid", "semantic", "full-text")
