"""The health scan in a process of its own: the same findings as on the caller's thread, progress, cancel, errors."""

from __future__ import annotations

import pytest

from limbic import config
from limbic.engine.store.db import Database
from limbic.engine.errors import Cancelled, LimbicError, ValidationError
from limbic.engine.graph.graph import Graph
from limbic.engine.formats.jsonl import import_file, import_records
from limbic.service import health
from tests.bench.health_planted import plant


def _json(report: health.Report) -> dict[str, list[dict]]:
    return {kind: [f.to_json() | {"ids": f.ids} for f in found] for kind, found in report.findings.items()}


@pytest.fixture(scope="module")
def sample_path(tmp_path_factory, embedder):
    """The sample graph, embedded with the real model, plus two duplicates an assistant would write."""
    path = tmp_path_factory.mktemp("health-sample") / "sample.db"
    g = Graph(Database(path), embedder)
    try:
        import_file(g, config.resources_dir() / "sample_graph.jsonl")
        g.upsert_entity("ana ruíz", "Person", ["Design lead at Harbor"])
        g.upsert_entity("Quintero, Marta", "Person", ["Owner of the graph"])
    finally:
        g.db.close()
    return path


@pytest.fixture(scope="module")
def planted_path(tmp_path_factory):
    """A small graph of planted duplicates and hard negatives around twenty anchors (no model: names and facts)."""
    path = tmp_path_factory.mktemp("health-planted") / "planted.db"
    anchors = [f"Anchor topic {chr(65 + i)}" for i in range(20)]
    planted = plant(anchors)
    g = Graph(Database(path))
    try:
        for a in anchors:
            g.upsert_entity(a, "Topic", [f"{a} is a subject we keep notes on"])
        for i, e in enumerate(planted.entities):
            e.line = i + 1
        for i, r in enumerate(planted.relations):
            r.line = len(planted.entities) + i + 1
        import_records(g, planted.entities, planted.relations)
    finally:
        g.db.close()
    return path, planted


def test_the_separate_process_finds_what_the_thread_finds_on_the_sample_graph(sample_path):
    here = health.scan_file(sample_path)
    there = health.scan_in_process(sample_path)
    assert here.findings["duplicates"], "the planted duplicates are found at all"
    assert _json(there) == _json(here)
    assert there.entities == here.entities
    pairs = [set(f.entities) for f in there.findings["duplicates"]]
    assert {"Ana Ruiz", "ana ruíz"} in pairs and {"Marta Quintero", "Quintero, Marta"} in pairs


def test_the_separate_process_finds_what_the_thread_finds_on_a_planted_graph(planted_path):
    path, planted = planted_path
    here = health.scan_file(path, ["duplicates"], limit=None)
    there = health.scan_in_process(path, ["duplicates"], limit=None)
    assert _json(there) == _json(here)
    found = {frozenset(f.entities) for f in there.findings["duplicates"]}
    assert sum(frozenset((a, b)) in found for _, a, b in planted.pairs) >= 40  # names and facts alone find most
    assert set(there.findings) == {"duplicates"}


def test_progress_comes_back_and_the_scan_reports_its_memory(sample_path):
    seen: list[tuple[str, int, int]] = []
    report = health.scan_in_process(sample_path, ["duplicates", "orphans"], health.Handle(progress=lambda *a: seen.append(a)))
    stages = {s for s, _, _ in seen}
    assert {"reading", "duplicates"} <= stages
    assert report.peak_mib > 10  # a Python process with numpy loaded is bigger than that


def test_cancel_ends_the_scan_process(sample_path):
    seen: list[str] = []
    handle = health.Handle(progress=lambda stage, done, total: seen.append(stage), cancelled=lambda: bool(seen))
    with pytest.raises(Cancelled):
        health.scan_in_process(sample_path, None, handle)
    assert seen  # it got as far as the first progress report, then stopped


def test_an_unknown_kind_is_refused_before_a_process_starts(sample_path):
    with pytest.raises(ValidationError, match="There is no health check"):
        health.scan_in_process(sample_path, ["everything"])


def test_a_file_that_is_not_a_graph_fails_with_a_sentence(tmp_path):
    bad = tmp_path / "not-a-graph.db"
    bad.write_bytes(b"this is not a database" * 100)
    with pytest.raises(LimbicError) as here:
        health.scan_file(bad)
    with pytest.raises(LimbicError) as there:
        health.scan_in_process(bad)
    assert type(there.value) is type(here.value) and str(there.value) == str(here.value)
    assert "not a Limbic database" in str(there.value)
