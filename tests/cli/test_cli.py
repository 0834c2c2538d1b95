"""The command line: import, export, search, info, eval; user errors as one sentence and exit 1."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from limbic.cli import main
from limbic.engine.store.db import SCHEMA_VERSION
from limbic.engine.vectors.embeddings import DEFAULT_MODEL_NAME

ROWS = [
    {"type": "entity", "name": "Limbic", "entityType": "Project", "observations": ["Desktop knowledge graph app"]},
    {"type": "entity", "name": "SQLite", "entityType": "Tool", "observations": ["Embedded database engine"]},
    {"type": "entity", "name": "Ticket LMB-1042", "entityType": "Task", "observations": ["Fix crash on import"]},
    {"type": "relation", "from": "Limbic", "to": "SQLite", "relationType": "uses"},
]


@pytest.fixture
def memory_file(tmp_path):
    path = tmp_path / "memory.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in ROWS) + "\n", encoding="utf-8")
    return path


def test_import_search_export_info(tmp_path, memory_file, capsys):
    db = str(tmp_path / "g.db")
    assert main(["--db", db, "import", str(memory_file)]) == 0
    assert "3 entities read (3 new)" in capsys.readouterr().out

    assert main(["search", "LMB-1042", "--db", db, "--json", "--no-record"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["mode"] == "hybrid" and data["results"][0]["name"] == "Ticket LMB-1042"
    assert "rrf_score" in data["results"][0]

    assert main(["--db", db, "search", "sqli"]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith(" 1. SQLite (Tool)")

    assert main(["--db", db, "search", "*", "--no-record"]) == 0
    assert capsys.readouterr().out.strip() == "No good match for “*”."

    out = tmp_path / "out.jsonl"
    assert main(["--db", db, "export", "-o", str(out)]) == 0
    reference = {"type", "name", "entityType", "observations", "from", "to", "relationType"}
    *lines, marker = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [{k: v for k, v in x.items() if k in reference} for x in lines] == ROWS  # plus Limbic's extra keys
    assert marker["type"] == "limbic-export"  # what lets the next export replace this file

    assert main(["--db", db, "info"]) == 0
    info = capsys.readouterr().out
    for needle in ("entities: 3", "relations: 1", DEFAULT_MODEL_NAME, "dimension: 384", f"schema: {SCHEMA_VERSION}"):
        assert needle in info


def test_db_from_environment(tmp_path, memory_file, monkeypatch, capsys):
    monkeypatch.setenv("LIMBIC_DB", str(tmp_path / "env.db"))
    assert main(["import", str(memory_file)]) == 0
    assert (tmp_path / "env.db").exists()


def test_export_to_stdout(tmp_path, memory_file, capsys):
    db = str(tmp_path / "g.db")
    main(["--db", db, "import", str(memory_file)])
    capsys.readouterr()
    assert main(["--db", db, "export"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 4


def run_cli(*args, env_home):
    env = {"LIMBIC_HOME": str(env_home), "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-m", "limbic", *args], capture_output=True, text=True, env=env)


def test_user_errors_are_one_sentence_without_traceback(tmp_path, capsys):
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"\x00garbage" * 64)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "entity", "name": "A"}\n{oops\n', encoding="utf-8")
    # What a person sees from the command itself (a process of its own) ...
    result = run_cli("--db", str(junk), "info", env_home=tmp_path)
    assert result.returncode == 1, result.stderr
    assert "is not a Limbic database" in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    # ... and from the same entry point called here, for the other mistakes.
    cases = [
        (["--db", str(tmp_path / "ok.db"), "import", str(bad)], "bad.jsonl, line 2"),
        (["--db", str(tmp_path / "ok.db"), "import", str(tmp_path / "missing.jsonl")], "missing.jsonl does not exist"),
    ]
    for args, needle in cases:
        assert main(args) == 1
        err = capsys.readouterr().err
        assert needle in err and "Traceback" not in err
        assert len(err.strip().splitlines()) == 1, err


def test_eval_on_a_tiny_collection(tmp_path, capsys):
    corpus = tmp_path / "corpus.jsonl"
    docs = [
        ("d1", "Aspirin and heart attacks", "Daily aspirin lowers the risk of myocardial infarction."),
        ("d2", "Coffee and sleep", "Caffeine late in the day shortens sleep."),
        ("d3", "Exercise and mood", "Regular running improves symptoms of depression."),
        ("d4", "Same title", "First of two papers sharing a title about soil bacteria."),
        ("d5", "Same title", "Second of two papers sharing a title about ocean plankton."),
    ]
    corpus.write_text("\n".join(json.dumps({"_id": i, "title": t, "text": x}) for i, t, x in docs), encoding="utf-8")
    queries = tmp_path / "queries.jsonl"
    qs = [("q1", "aspirin prevents heart attack"), ("q2", "caffeine harms sleep"), ("q3", "plankton in the sea")]
    queries.write_text("\n".join(json.dumps({"_id": i, "text": t}) for i, t in qs), encoding="utf-8")
    qrels = tmp_path / "qrels.tsv"
    qrels.write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t1\nq3\td5\t1\n", encoding="utf-8")
    assert main(["eval", str(corpus), str(queries), str(qrels), "--json"]) == 0
    results = json.loads(capsys.readouterr().out)
    assert set(results) == {"bm25", "knn", "rrf", "seed_hybrid", "blend_hybrid", "hybrid"}
    assert results["hybrid"]["ndcg@10"] == pytest.approx(1.0)
    assert results["knn"]["recall@100"] == pytest.approx(1.0)
    # The imported collection is cached per corpus and model, and reused.
    cached = list((tmp_path / "home" / "cache" / "eval").glob("*.db"))
    assert len(cached) == 1
    stamp = cached[0].stat().st_mtime_ns
    assert main(["eval", str(corpus), str(queries), str(qrels), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == results
    assert list((tmp_path / "home" / "cache" / "eval").glob("*.db")) == cached


def test_eval_finishes_a_cache_a_stopped_run_left_half_embedded(tmp_path, capsys):
    from limbic.engine.vectors import index
    from limbic.engine.store.db import Database

    corpus = tmp_path / "corpus.jsonl"
    docs = [(f"d{i}", f"Paper {i}", f"Finding number {i} about topic {i % 3}.") for i in range(6)]
    corpus.write_text("\n".join(json.dumps({"_id": i, "title": t, "text": x}) for i, t, x in docs), encoding="utf-8")
    queries = tmp_path / "queries.jsonl"
    queries.write_text(json.dumps({"_id": "q1", "text": "finding number 4"}), encoding="utf-8")
    qrels = tmp_path / "qrels.tsv"
    qrels.write_text("query-id\tcorpus-id\tscore\nq1\td4\t1\n", encoding="utf-8")
    assert main(["eval", str(corpus), str(queries), str(qrels), "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    (cached,) = (tmp_path / "home" / "cache" / "eval").glob("*.db")
    db = Database(cached)  # as a run killed while embedding leaves it: two documents without a vector
    with db.transaction():
        for table, key in ((index.VEC_TABLE, "rowid"), ("embedding_state", "entity_id")):
            db.execute(f"DELETE FROM {table} WHERE {key} IN (SELECT id FROM entities ORDER BY id DESC LIMIT 2)")
    assert index.pending_count(db) == 2
    db.close()
    assert main(["eval", str(corpus), str(queries), str(qrels), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == first
    db = Database(cached, readonly=True)
    try:
        assert index.pending_count(db) == 0
    finally:
        db.close()


def test_eval_drops_the_query_own_document(tmp_path, capsys):
    # As in ArguAna, the query is itself a document of the corpus: it must not count as a hit.
    corpus = tmp_path / "corpus.jsonl"
    docs = [
        ("a1", "Ban smoking in parks", "Smoking in public parks harms children and should be banned."),
        ("a2", "Parks need no smoking ban", "A smoking ban in open-air parks is an overreach with little harm prevented."),
        ("a3", "School uniforms", "Uniforms reduce bullying at school."),
    ]
    corpus.write_text("\n".join(json.dumps({"_id": i, "title": t, "text": x}) for i, t, x in docs), encoding="utf-8")
    queries = tmp_path / "queries.jsonl"
    queries.write_text(json.dumps({"_id": "a1", "text": "Smoking in public parks harms children and should be banned."}), encoding="utf-8")
    qrels = tmp_path / "qrels.tsv"
    qrels.write_text("query-id\tcorpus-id\tscore\na1\ta2\t1\n", encoding="utf-8")
    assert main(["eval", str(corpus), str(queries), str(qrels), "--json", "--no-cache"]) == 0
    results = json.loads(capsys.readouterr().out)
    # The counter-argument is the best hit once the query's own text is out of the way.
    assert results["bm25"]["ndcg@10"] == pytest.approx(1.0)
    assert results["hybrid"]["ndcg@10"] == pytest.approx(1.0)


def test_eval_scores_a_collection_whose_documents_have_no_titles(tmp_path, capsys):
    # Titleless documents (many BEIR corpora) are named by their id; every stored name maps back to its document.
    corpus = tmp_path / "corpus.jsonl"
    docs = [
        ("d1", "Daily aspirin lowers the risk of myocardial infarction."),
        ("d2", "Caffeine late in the day shortens sleep."),
        ("d3", "Regular running improves symptoms of depression."),
    ]
    corpus.write_text("\n".join(json.dumps({"_id": i, "title": "", "text": x}) for i, x in docs), encoding="utf-8")
    queries = tmp_path / "queries.jsonl"
    queries.write_text("\n".join(json.dumps({"_id": i, "text": t}) for i, t in
                                 [("q1", "aspirin heart attack"), ("q2", "caffeine sleep")]), encoding="utf-8")
    qrels = tmp_path / "qrels.tsv"
    qrels.write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t1\n", encoding="utf-8")
    assert main(["eval", str(corpus), str(queries), str(qrels), "--json"]) == 0
    results = json.loads(capsys.readouterr().out)
    assert results["bm25"]["ndcg@10"] == pytest.approx(1.0)
    assert results["hybrid"]["ndcg@10"] == pytest.approx(1.0)
