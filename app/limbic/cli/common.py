"""What every command shares: the graph file it names, opening it, a progress bar on the terminal."""

from __future__ import annotations

import argparse
import math
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

from limbic import config, storage_places
from limbic.engine.errors import LimbicError


class TerminalProgress:
    """A one-line progress bar on stderr, drawn only on a terminal and at most ten times a second."""

    def __init__(self, stream=None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty()
        self._last = 0.0
        self._shown = False

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if done < total and now - self._last < 0.1:
            return
        self._last = now
        width = 30
        frac = done / total if total else 1.0
        bar = "#" * int(frac * width)
        self.stream.write(f"\r{stage:>6} [{bar:<{width}}] {done}/{total}")
        self.stream.flush()
        self._shown = True

    def finish(self) -> None:
        """End the bar's line, if one was drawn."""
        if self._shown:
            self.stream.write("\n")
            self.stream.flush()
            self._shown = False


class OptionError(LimbicError):
    """A command-line value out of its range: said in one sentence, exit 1 (not argparse's usage and exit 2)."""


_NUMBER = re.compile(r"[+-]?\d+(\.\d*)?|[+-]?\.\d+")


def _shown(text: str) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= 24 else text[:23] + "…"


def whole_number(option: str, lowest: int, highest: int) -> Callable[[str], int]:
    """An argparse ``type`` for a whole number from ``lowest`` to ``highest``; anything else is an OptionError."""

    def parse(text: str) -> int:
        t = text.strip()
        # The digits are counted before int(): a value thousands of digits long is refused, not converted.
        if re.fullmatch(r"[+-]?\d{1,30}", t) and lowest <= int(t) <= highest:
            return int(t)
        raise OptionError(f"{option} must be a whole number from {lowest:,} to {highest:,} "
                          f"(“{_shown(text)}” is not); nothing was changed.")

    parse.__name__ = "whole number"
    return parse


def number(option: str, lowest: float, highest: float) -> Callable[[str], float]:
    """An argparse ``type`` for a number (decimals allowed) from ``lowest`` to ``highest``."""

    def parse(text: str) -> float:
        t = text.strip()
        if len(t) <= 30 and _NUMBER.fullmatch(t):
            value = float(t)
            if math.isfinite(value) and lowest <= value <= highest:
                return value
        raise OptionError(f"{option} must be a number from {lowest:g} to {highest:g} "
                          f"(“{_shown(text)}” is not); nothing was changed.")

    parse.__name__ = "number"
    return parse


def db_path(args: argparse.Namespace) -> Path:
    """The graph file a command works on: --db, else the default one."""
    if args.db is not None and not str(args.db).strip():
        # An empty --db (an unset variable in a script) must not quietly mean the default graph.
        raise LimbicError("--db is empty: name the graph file, or leave --db out to use the default graph.")
    return Path(args.db).expanduser() if args.db else config.default_db_path()


def open_for(args: argparse.Namespace, load_model: bool = True, write: bool = False, existing: bool = False):
    """Open the graph; a command that writes refuses a read-only file with its note (said once);
    ``existing``: a command that only reads refuses a path with no graph instead of creating one."""
    from limbic.service.opening import open_graph, require_existing_graph

    path = require_existing_graph(db_path(args)) if existing else db_path(args)
    note = config.new_graph_note(path)
    if note:
        print(f"limbic: {note}", file=sys.stderr)
    warning = storage_places.place_warning(path)
    if warning:
        print(f"limbic: warning: {warning}", file=sys.stderr)
    opened = open_graph(path, config.model_dir_override(), load_model=load_model and not write,
                         origin="cli")  # named in the change log, so the app can say who changed what
    if write and opened.graph.db.readonly:
        note = opened.graph.db.readonly_note or f"{opened.graph.db.path} is open read-only."
        opened.close()
        raise LimbicError(note)
    if write and load_model:
        from limbic.service.opening import attach_model

        try:
            opened = attach_model(opened, config.model_dir_override())
        except BaseException:
            opened.close()
            raise
    if opened.graph.db.readonly_note:
        print(f"limbic: {opened.graph.db.readonly_note}", file=sys.stderr)
    if opened.model_error and load_model:
        print(f"limbic: semantic search is off: {opened.model_error}", file=sys.stderr)
    return opened


def embed_pending(graph) -> None:
    # A read-only file cannot store vectors: search uses full text and what is already embedded.
    pending = graph.pending_embeddings() if graph.embedder and not graph.db.readonly else 0
    if pending:
        print(f"Embedding {pending} entities with {graph.embedder.spec.name}…", file=sys.stderr)
        bar = TerminalProgress()
        graph.embed_pending(progress=lambda d, t: bar("embed", d, t))
        bar.finish()


