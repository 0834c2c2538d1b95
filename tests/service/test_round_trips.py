"""Export then import gives back the same graph, for Limbic's JSONL (everything, history included)
and for CSV; bad CSV and JSONL extras are refused in one sentence with nothing written."""

from __future__ import annotations

import json

import pytest

from limbic.engine.store.db import Database
from limbic.engine.errors import ImportFileError
from limbic.engine.graph.graph import Graph
from limbic.engine.formats.jsonl import export_file
from limbic.service.importers import ImportInputError, detect_kind, import_path
from limbic.service.importers.csv_io import export_csv
from limbic.service.importers.seed_db import import_seed_db
from tests.service.graph_state import graph_state
from tests.service.test_seed_db import make_seed


@pytest.fixture
def rich(text_graph, tmp_path):
    """A graph holding every kind of thing Limbic keeps: statuses, kinds, history, ended relations, reflections."""
    import_seed_db(text_graph, make_seed(tmp_path / "memory.db"))
    text_graph.upsert_entity("Multi", "Note", ["line one\nline two, with a comma; and \"quotes\""])
    obs = text_graph.get_entity("Multi").observations[0].id
    text_graph.supersede_observation(obs, "line one, corrected")
    text_graph.add_relation("Multi", "Ana Pérez", "mentions", context="in passing")
    text_graph.end_relation("Multi", "Ana Pérez", "mentions", "2026-01-01 00:00:00")
    text_graph.add_reflection("A reflection written here", author="me", entity="Multi", mood="calm")
    return text_graph


def fresh(tmp_path, name):
    return Graph(Database(tmp_path / name))


def test_jsonl_round_trip_keeps_everything(rich, tmp_path):
    path = tmp_path / "out.jsonl"
    export_file(rich, path)
    lines = [json.loads(x) for x in path.read_text("utf-8").splitlines()]
    assert {x["type"] for x in lines} == {"entity", "relation", "reflection"}
    other = fresh(tmp_path, "b.db")
    import_path(other, path)
    want, got = graph_state(rich, usage=False), graph_state(other, usage=False)
    for state in (want, got):  # observation order may differ (history comes after the current ones)
        for e in state["entities"].values():
            e["observations"] = sorted(e["observations"], key=repr)
    assert got == want
    import_path(other, path)  # twice: nothing doubles
    assert graph_state(other, usage=False)["reflections"] == want["reflections"]
    assert other.counts() == rich.counts()


def test_jsonl_extras_are_validated(text_graph, tmp_path):
    text_graph.upsert_entity("Kept", None, ["x"])
    before = graph_state(text_graph)
    path = tmp_path / "bad.jsonl"
    path.write_text(
        json.dumps({"type": "entity", "name": "A", "observations": ["x"]}) + "\n"
        + json.dumps({"type": "entity", "name": "B", "observations": ["y"], "status": "sleeping"}) + "\n",
        "utf-8",
    )
    with pytest.raises(ImportFileError, match=r"bad.jsonl, line 2: An entity status must be one of"):
        import_path(text_graph, path)
    assert graph_state(text_graph) == before


def test_csv_round_trip(rich, tmp_path):
    out = tmp_path / "csv"
    rows = export_csv(rich, out)
    assert rows[1] == rich.db.scalar("SELECT count(*) FROM relations")
    assert detect_kind(out) == "csv" and detect_kind(out / "entities.csv") == "csv"
    other = fresh(tmp_path, "c.db")
    report = import_path(other, out / "entities.csv")  # the relations file beside it comes too
    assert report.missing_links == {}

    def core(graph):
        state = graph_state(graph, usage=False)
        for e in state["entities"].values():  # CSV keeps text, kind and whether it was superseded
            e["observations"] = sorted((o[0], o[1], o[4], o[5]) for o in e["observations"])
        state.pop("reflections")
        return state

    assert core(other) == core(rich)
    assert export_csv(rich, out) == rows  # its own earlier export is replaced
    hand = tmp_path / "hand"
    hand.mkdir()
    (hand / "entities.csv").write_text("name\nmine\n", encoding="utf-8")
    from limbic.service.export_guard import OverwriteRefused

    with pytest.raises(OverwriteRefused, match="already holds files and is not an earlier CSV export"):
        export_csv(rich, hand)
    assert (hand / "entities.csv").read_text(encoding="utf-8") == "name\nmine\n"


def test_spreadsheet_csv_with_semicolons_and_synonyms(text_graph, tmp_path):
    (tmp_path / "people.csv").write_text("Name;Type;Observations\nAna;Person;\"likes tea\nreads a lot\"\nBo;Person;\n", "utf-8")
    (tmp_path / "links.csv").write_text("source,target,relation_type\nAna,Bo,knows\nAna,Nobody,knows\n", "utf-8-sig")
    report = import_path(text_graph, tmp_path)
    assert report.entities_created == 2 and text_graph.get_entity("Ana").observation_texts == ["likes tea", "reads a lot"]
    assert [(r.from_name, r.to_name) for r in text_graph.all_relations()] == [("Ana", "Bo")]
    assert report.missing_links == {"Nobody": ["links.csv, row 3"]}


@pytest.mark.parametrize(
    "content, message",
    [
        (b"name,type\n,Person\n", "row 2: An entity name cannot be empty"),
        (b"\x00\x01binary", "is not a CSV file (it holds binary data)"),
        ("name,type\nCaf\xe9,x\n".encode("latin-1"), "is not UTF-8 text"),
        (b"a,b\n1,2\n", "has neither a name column"),
    ],
)
def test_bad_csv_is_refused_in_one_sentence(text_graph, tmp_path, content, message):
    text_graph.upsert_entity("Kept", None, ["x"])
    before = graph_state(text_graph)
    (tmp_path / "entities.csv").write_bytes(content)
    with pytest.raises(ImportInputError) as info:
        import_path(text_graph, tmp_path / "entities.csv")
    assert message in str(info.value) and "\n" not in str(info.value)
    assert graph_state(text_graph) == before
