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


def test_a_csv_preview_names_ignored_columns_and_empty_entities_and_writes_nothing(text_graph, tmp_path):
    from limbic.service.importers import preview_csv

    path = tmp_path / "entities.csv"
    path.write_text("name,type,notes\nAna,Person,likes tea\nBo,,\n", encoding="utf-8")
    text_graph.upsert_entity("Ana", "Person", ["known"])
    preview = preview_csv(text_graph, str(path))
    (file,) = preview.files
    assert file.kind == "entities" and file.ignored == ["notes"] and file.row_count == 2
    assert file.used == [("name", "name"), ("type", "type")]
    assert file.rows[0] == ["Ana", "Person", "likes tea"]
    assert (preview.entities, preview.new_entities, preview.observations, preview.empty_entities) == (2, 1, 0, 1)
    assert preview.problem is None and text_graph.entity_id("Bo") is None  # nothing written


def test_kept_columns_become_observations_and_a_nameless_file_is_refused(text_graph, tmp_path):
    from limbic.service.importers import import_csv_job, preview_csv

    path = tmp_path / "entities.csv"
    path.write_text("name,notes\nAna,likes tea\n", encoding="utf-8")
    import_csv_job(text_graph, str(path), True)
    assert text_graph.get_entity("Ana").observation_texts == ["notes: likes tea"]
    nameless = tmp_path / "other.csv"
    nameless.write_text("person,text\nAna,x\n", encoding="utf-8")
    preview = preview_csv(text_graph, str(nameless))
    assert preview.problem.startswith("Nothing in other.csv maps to a name")
    assert preview.files[0].ignored == ["person"]  # text would be an observation


def test_an_import_is_one_undo_step_that_takes_back_only_what_it_brought(text_graph, tmp_path):
    from limbic.service.importers.import_undo import import_step
    from limbic.service.undo import redo_step, undo_step

    text_graph.upsert_entity("Ana", "Person", ["was here before"])
    path = _jsonl(tmp_path / "m.jsonl",
                  {"type": "entity", "name": "Ana", "entityType": "Person", "observations": ["from the file"]},
                  {"type": "entity", "name": "Bo", "entityType": "Person", "observations": ["new"]},
                  {"type": "relation", "from": "Ana", "to": "Bo", "relationType": "knows"})
    step = import_step("m.jsonl", import_path(text_graph, path))
    assert step is not None and step.label == "import of “m.jsonl”"
    undo_step(text_graph, step)
    assert text_graph.entity_id("Bo") is None
    assert text_graph.get_entity("Ana").observation_texts == ["was here before"]
    redo_step(text_graph, step)
    assert text_graph.get_entity("Bo").observation_texts == ["new"]
    assert sorted(text_graph.get_entity("Ana").observation_texts) == ["from the file", "was here before"]


def test_an_import_that_changed_nothing_is_no_undo_step(text_graph, tmp_path):
    from limbic.service.importers.import_undo import import_step

    path = _jsonl(tmp_path / "m.jsonl", {"type": "entity", "name": "Ana", "entityType": "Person", "observations": []})
    import_path(text_graph, path)
    assert import_step("m.jsonl", import_path(text_graph, path)) is None  # the second time adds nothing


def test_an_import_without_preview_says_which_columns_it_ignored(text_graph, tmp_path):
    path = tmp_path / "entities.csv"
    path.write_text("name,notes,price\nAna,likes tea,3\n", encoding="utf-8")
    sentence = import_path(text_graph, path).describe()
    assert "columns were ignored (entities.csv: notes, price)" in sentence


def test_a_csv_preview_names_the_relation_ends_that_are_nowhere(text_graph, tmp_path):
    from limbic.service.importers import preview_csv

    (tmp_path / "entities.csv").write_text("name\nAna\n", encoding="utf-8")
    (tmp_path / "relations.csv").write_text("from,to,type\nAna,Bo,knows\nAna,Ana,self\n", encoding="utf-8")
    text_graph.upsert_entity("Cy", "Person", [])
    preview = preview_csv(text_graph, str(tmp_path / "entities.csv"))
    assert (preview.relations, preview.skipped_relations, preview.missing) == (2, 1, ["Bo"])
    assert preview.counts_sentence().endswith(
        "; 1 relation would be skipped because “Bo” is in neither the files nor the graph.")
