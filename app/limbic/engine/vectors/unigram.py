"""A Unigram (SentencePiece) tokenizer that gives the same ids as the `tokenizers` library in a tenth
of its memory, for a long-running process that keeps a model loaded (``limbic mcp``).

The library keeps a large vocabulary (multilingual-e5's 250,002 pieces) in a trie of hash maps:
about 280 MB resident. Here the pieces are one dict, about 30 MB, and Viterbi runs over it in
Python. Normalization and pre-tokenization (the precompiled character map, Metaspace) are still
the library's own, taken from a copy of the tokenizer whose vocabulary is emptied, so the text the
model sees is the same; the search for the best pieces follows the library's (ties go to the
shorter piece, an uncovered character is unknown at the lowest score minus 10, unknowns fuse).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from pathlib import Path

logger = logging.getLogger(__name__)

UNK_PENALTY = 10.0


class Encoding:
    """What the embedder reads of an encoding: its ids, cut with ``truncate``."""

    __slots__ = ("ids",)

    def __init__(self, ids: list[int]) -> None:
        self.ids = ids

    def truncate(self, length: int) -> None:
        del self.ids[length:]


class LeanUnigram:
    """The subset of ``tokenizers.Tokenizer`` the embedder uses, for a Unigram tokenizer file."""

    def __init__(self, data: dict) -> None:
        from tokenizers import Tokenizer

        model = data["model"]
        vocab = model.pop("vocab")
        self._ids: dict[str, int] = {}
        self._scores: list[float] = []
        longest = 1
        for i, (piece, score) in enumerate(vocab):
            self._ids.setdefault(piece, i)
            self._scores.append(float(score))
            longest = max(longest, len(piece))
        del vocab
        self._longest = longest
        self._unk = model["unk_id"]
        self._unk_score = min(self._scores) - UNK_PENALTY
        self._specials = [t["content"] for t in data.get("added_tokens", []) if t.get("special")]
        self._lstrip = {t["content"] for t in data.get("added_tokens", []) if t.get("special") and t.get("lstrip")}
        template = data["post_processor"]
        self._bos, self._eos = self._template_ids(template)
        # The library's normalizer and pre-tokenizer, on a tokenizer with one piece.
        model["vocab"] = [["<unk>", 0.0]]
        model["unk_id"] = 0
        data["added_tokens"] = []
        data["post_processor"] = None
        shell = Tokenizer.from_str(json.dumps(data))
        self._normalizer = shell.normalizer
        self._pre = shell.pre_tokenizer

    def _template_ids(self, template: dict) -> tuple[list[int], list[int]]:
        single = template["single"]
        names = [part["SpecialToken"]["id"] for part in single if "SpecialToken" in part]
        where = next(i for i, part in enumerate(single) if "Sequence" in part)
        before = [self._ids[n] for n in names[:where]]
        after = [self._ids[n] for n in names[where:]]
        return before, after

    # -- what Embedder calls --------------------------------------------------------------

    def no_truncation(self) -> None:
        """Nothing to do: this tokenizer never truncates or pads by itself."""

    def no_padding(self) -> None:
        """Nothing to do: this tokenizer never truncates or pads by itself."""

    def token_to_id(self, token: str) -> int | None:
        return self._ids.get(token)

    def num_special_tokens_to_add(self, is_pair: bool) -> int:
        return len(self._bos) + len(self._eos)

    def post_process(self, encoding: Encoding) -> Encoding:
        return Encoding(self._bos + encoding.ids + self._eos)

    def encode_batch(self, texts: Sequence[str], add_special_tokens: bool = True) -> list[Encoding]:
        out = [Encoding(self.encode_ids(t)) for t in texts]
        return [self.post_process(e) for e in out] if add_special_tokens else out

    # -- the tokenizer --------------------------------------------------------------------

    def encode_ids(self, text: str) -> list[int]:
        """The ids of ``text`` without special tokens around it."""
        ids: list[int] = []
        for part, special in self._split_specials(text):
            if special:
                ids.append(self._ids[part])
                continue
            normalized = self._normalizer.normalize_str(part) if self._normalizer else part
            for word, _ in (self._pre.pre_tokenize_str(normalized) if self._pre else [(normalized, None)]):
                ids.extend(self._viterbi(word))
        return ids

    def _split_specials(self, text: str) -> list[tuple[str, bool]]:
        if not self._specials or "<" not in text:
            return [(text, False)]
        parts: list[tuple[str, bool]] = []
        start = i = 0
        while i < len(text):
            found = next((s for s in self._specials if text.startswith(s, i)), None)
            if found is None:
                i += 1
                continue
            before = text[start:i]
            if found in self._lstrip:
                before = before.rstrip()
            if before:
                parts.append((before, False))
            parts.append((found, True))
            i += len(found)
            start = i
        if start < len(text):
            parts.append((text[start:], False))
        return parts

    def _viterbi(self, word: str) -> list[int]:
        n = len(word)
        if not n:
            return []
        score = [0.0] + [0.0] * n
        start = [-1] * (n + 1)
        piece = [0] * (n + 1)
        start[0] = 0
        ids, scores, longest = self._ids, self._scores, self._longest
        for i in range(n):
            if start[i] < 0:
                continue
            here = score[i]
            single = False
            for j in range(i + 1, min(n, i + longest) + 1):
                pid = ids.get(word[i:j])
                if pid is None:
                    continue
                candidate = here + scores[pid]
                if start[j] < 0 or candidate > score[j]:
                    score[j], start[j], piece[j] = candidate, i, pid
                if j == i + 1:
                    single = True
            if not single:
                candidate = here + self._unk_score
                if start[i + 1] < 0 or candidate > score[i + 1]:
                    score[i + 1], start[i + 1], piece[i + 1] = candidate, i, self._unk
        out: list[int] = []
        end = n
        unk_run = False
        while end > 0:
            pid = piece[end]
            if pid == self._unk:
                if not unk_run:  # consecutive unknowns fuse into one
                    out.append(pid)
                unk_run = True
            else:
                out.append(pid)
                unk_run = False
            end = start[end]
        out.reverse()
        return out


def load_lean(path: Path) -> LeanUnigram | None:
    """The lean tokenizer for a Unigram tokenizer file, or None for another kind (use the library's)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if data.get("model", {}).get("type") != "Unigram" or data["model"].get("byte_fallback"):
        return None
    try:
        return LeanUnigram(data)
    except Exception as exc:  # an unusual file: the library's tokenizer handles it
        logger.info("the lean tokenizer does not fit %s: %s", path, exc)
        return None
