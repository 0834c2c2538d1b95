"""`limbic check`: the file's integrity, and the graph, its full-text index and its vectors agreeing; and repair."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from limbic.engine.check import CheckReport, RepairReport, check_graph, repair
from limbic.engine.store.db import Database
from limbic.engine.errors import LimbicError
from limbic.engine.session import try_load_model
from limbic.service.opening import require_existing_graph


@dataclass
class CheckRun:
    """What a check found (after the repair, when one ran), the repair's own account, and notes to show first."""

    report: CheckReport
    repaired: RepairReport | None = None
    notes: list[str] = field(default_factory=list)


def check_file(path: Path | str, *, repair_it: bool = False, use_model: bool = True, model_dir: Path | None = None,
               progress: Callable[[int, int], None] | None = None) -> CheckRun:
    """Check (or repair) the graph at ``path``, which must exist.

    The file is opened without the graph layer, which would recreate a lost table: a check changes
    nothing. The model is compared with the stored vectors, not attached.
    """
    db = Database(require_existing_graph(path))
    try:
        if db.readonly and repair_it:
            raise LimbicError(db.readonly_note or f"{db.path} is open read-only; it cannot be repaired.")
        notes = [db.readonly_note] if db.readonly_note else []
        embedder = None
        if use_model:
            embedder, error = try_load_model(model_dir)
            if error:
                notes.append(f"vectors are not compared with a model: {error}")
        if repair_it:
            result = repair(db, embedder, progress=progress)
            return CheckRun(result.after, result, notes)
        return CheckRun(check_graph(db, embedder), None, notes)
    finally:
        db.close()
