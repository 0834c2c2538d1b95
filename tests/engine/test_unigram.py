"""The lean Unigram tokenizer gives exactly the library's ids (so vectors made by the app and queries
encoded by `limbic mcp` agree), and an embedder using it encodes exactly as the usual one."""

from __future__ import annotations

import random

import numpy as np
import pytest
from tokenizers import Tokenizer

from limbic.engine.vectors.embeddings import Embedder, resolve_spec
from limbic.engine.vectors.unigram import LeanUnigram, load_lean

TEXTS = [
    "query: hello world", "passage: Émile lives in PARIS 🗼", "東京は日本の首都です", "مرحبا بالعالم", "नमस्ते दुनिया",
    "a  b   c\t\td\n\ne", "zero\u200bwidth\u200cjoin\u200dx", "<s>literal</s> and <unk> and <mask> here", "x <mask>y",
    "ﬁ ligature ＡＢＣ full width ①②", "\x07bell\x00nul", "", " ", "   leading", "trailing   ", "e\u0301 combining",
    "😀😃 emoji 👨‍👩‍👧", "x" * 300, "supercalifragilisticexpialidocious" * 3, "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 math", "\ufeffbom", "한국어",
]
ALPHABET = ("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789éèàçñüöäßøå東京日本中文한국어русский"
            "مرحباहिन्दी🗼😀-_.,;:!?'\"()[]{}<>/\\@#$%^&*+=~`|\t\n\u200b\u00a0")


@pytest.fixture(scope="module")
def tokenizers():
    path = resolve_spec(None).tokenizer_path
    lean = load_lean(path)
    if lean is None:
        pytest.skip("the default model's tokenizer is not a Unigram one")
    library = Tokenizer.from_file(str(path))
    library.no_truncation()
    library.no_padding()
    return lean, library


def test_the_lean_tokenizer_gives_the_librarys_ids(tokenizers):
    lean, library = tokenizers
    assert isinstance(lean, LeanUnigram)
    rng = random.Random(1)
    texts = TEXTS + ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 80))) for _ in range(600)]
    ours = [e.ids for e in lean.encode_batch(texts, add_special_tokens=False)]
    theirs = [e.ids for e in library.encode_batch(texts, add_special_tokens=False)]
    assert [t for t, a, b in zip(texts, ours, theirs) if a != b] == []
    assert lean.post_process(lean.encode_batch(["hi"], False)[0]).ids == library.encode("hi").ids
    assert lean.num_special_tokens_to_add(False) == library.num_special_tokens_to_add(False)
    assert lean.token_to_id("<pad>") == library.token_to_id("<pad>")


def test_a_low_memory_embedder_encodes_as_the_usual_one(embedder, tokenizers):
    lean_embedder = Embedder(embedder.spec, low_memory=True)
    assert isinstance(lean_embedder._tokenizer, LeanUnigram)
    texts = ["A small marsupial from Rottnest Island", "x" * 3000, "Émile 🗼 vit à Paris"]
    assert np.allclose(lean_embedder.encode(texts), embedder.encode(texts), atol=1e-5)
    assert np.allclose(lean_embedder.encode_query("which database"), embedder.encode_query("which database"), atol=1e-5)
    assert lean_embedder.count_tokens(texts) == embedder.count_tokens(texts)
