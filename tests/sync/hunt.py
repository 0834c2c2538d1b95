"""Hunting divergences with cases drawn evenly: ``python -m tests.sync.hunt --cases 100 [--surface] [--spread]``.

The property tests draw their cases through hypothesis, which favours short, simple programs (the same name,
the first text); this draws every write kind, device and name evenly, each case from its number, so a failing
case is rerun by its number alone (``--first N --cases 1``). It runs the property tests' own ``_run`` (three
writing devices, the messy folder, the receiving fourth device and the sequential oracle) and prints each case
that fails, which check failed, and the share of cases that did. ``--spread`` spreads the devices' writes over
seconds instead of a burst (``LIMBIC_SYNC_SPREAD``). ``--report FILE`` writes the failing cases as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
import traceback
from pathlib import Path

from tests.sync.test_property import WRITES, _run
from tests.sync.test_property_surface import SURFACE, _often, _write_more


class _Patches:
    """What pytest's monkeypatch does for ``_run``: set attributes, put them back after the case."""

    def __init__(self) -> None:
        self.saved: list[tuple[object, str, object]] = []

    def setattr(self, target: object, name: str, value: object) -> None:
        self.saved.append((target, name, getattr(target, name)))
        setattr(target, name, value)

    def undo(self) -> None:
        for target, name, value in reversed(self.saved):
            setattr(target, name, value)
        self.saved.clear()


def case(number: int, surface: bool) -> tuple[list[tuple], int]:
    """The writes and seed of case ``number``: up to 40 writes, every kind, device and name equally likely."""
    draw = random.Random(number)
    kinds = [*WRITES, "delete", *(SURFACE if surface else [])]
    ops = [(draw.randint(0, 2), draw.choice(kinds), draw.randint(0, 3), draw.randint(0, 3))
           for _ in range(draw.randint(6, 40))]
    return ops, draw.randint(0, 2**16)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--cases", type=int, default=100)
    parser.add_argument("--surface", action="store_true", help="draw the whole write surface, not only names")
    parser.add_argument("--spread", action="store_true", help="writes spread over seconds, not a burst")
    parser.add_argument("--report", type=Path)
    args = parser.parse_args(argv)
    if args.spread:
        os.environ["LIMBIC_SYNC_SPREAD"] = "1"
    failed: list[dict] = []
    for number in range(args.first, args.first + args.cases):
        ops, seed = case(number, args.surface)
        patches = _Patches()
        if args.surface:
            _often(patches)  # a snapshot every two segments, as the surface test runs it
        try:
            with tempfile.TemporaryDirectory() as root:
                _run(Path(root), ops, seed, patches, _write_more if args.surface else None)
        except AssertionError as exc:
            check = traceback.extract_tb(exc.__traceback__)[-1].line
            failed.append({"case": number, "seed": seed, "ops": ops, "check": check, "message": str(exc)[:2000]})
            print(f"case {number}: {check}\n  {str(exc)[:300]}", flush=True)
        finally:
            patches.undo()
    print(f"{len(failed)} of {args.cases} cases failed ({100 * len(failed) / max(args.cases, 1):.1f}%)")
    if args.report:
        args.report.write_text(json.dumps(failed, indent=1))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
