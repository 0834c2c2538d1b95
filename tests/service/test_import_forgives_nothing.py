"""Imports say what they could not place by name: a relation skipped for a missing end names that end."""

from __future__ import annotations

import json

from limbic.service.importers import import_path


def _jsonl(path, *objs):
    path.write_text("\n".join(json.dumps(o) for o in objs) + "\n", encoding="utf-8")
    return path


def test_a_skipped_relation_names_its_missing_end(text_graph, tmp_path):
    path = _jsonl(tmp_path / "m.jsonl",
                  {"type": "entity", "name": "Ana", "entityType": "Person", "observations": []},
                  {"type": "relation", "from": "Ana", "to": "Acme Corp", "relationType": "works_at"})
    report = import_path(text_graph, path)
    sentence = report.describe()
    assert "1 relation skipped because an end is missing (line 2: “Acme Corp” is not in the file or the graph)" \
        in sentence
    assert "“Ana”" not in sentence  # the end that exists is not blamed
    assert report.details() == ["line 2: relation skipped, “Acme Corp” is not in the file or the graph"]


def test_both_missing_ends_are_named_and_the_rest_of_the_sentence_stays(text_graph, tmp_path):
    path = _jsonl(tmp_path / "m.jsonl",
                  {"type": "entity", "name": "Ana", "entityType": "Person", "observations": ["x"]},
                  {"type": "relation", "from": "Bo", "to": "Cy", "relationType": "knows"})
    sentence = import_path(text_graph, path).describe()
    assert sentence.startswith("1 entity read (1 new), 1 observation and 0 relations added; ")
    assert "(line 2: “Bo” and “Cy” are not in the file or the graph)" in sentence
    assert sentence.endswith(".") and not sentence.endswith("..")
