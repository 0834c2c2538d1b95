"""Entities and relations as two CSV files, for spreadsheets, both ways.

``entities.csv`` has one row per observation (an entity without observations has one row with
the observation empty), so a text with line breaks stays one cell and a spreadsheet can filter it:
``name, type, status, created_at, updated_at, observation, kind, superseded_at``.
``relations.csv``: ``from, to, type, context, active, created_at, ended_at``.
Files are UTF-8 with a byte-order mark (so spreadsheets read accents right); reading accepts
either, commas, semicolons or tabs, and the usual synonyms of each column name. A cell a
spreadsheet would run as a formula is written with a leading ``'`` (see ``csv_safety``); reading
Limbic's own files (recognised by their exact header) takes it off again.
"""

from __future__ import annotations

import csv
import io
import os
from dataclasses import dataclass, field
from pathlib import Path

from limbic import osfiles
from limbic.engine.errors import Cancelled, ValidationError
from limbic.engine.graph.graph import Graph, clean_name, clean_observation
from limbic.engine.graph.graph_history import clean_stamp, clean_status
from limbic.service.importers.common import ImportInputError, ImportReport, backup_before_import, count_before, finish
from limbic.service.importers import csv_safety, vault_files

ENTITY_COLUMNS = ["name", "type", "status", "created_at", "updated_at", "observation", "kind", "superseded_at"]
RELATION_COLUMNS = ["from", "to", "type", "context", "active", "created_at", "ended_at"]
ENTITIES_FILE, RELATIONS_FILE = "entities.csv", "relations.csv"
MAX_CSV_BYTES = 2 * 1024**3  # a file found in a folder is read whole: a named pipe or a device is refused
SYNONYMS = {
    "name": ("name", "entity", "title"),
    "type": ("type", "entity_type", "entitytype", "relation_type", "relationtype"),
    "observation": ("observation", "content", "text"),
    "observations": ("observations",),
    "from": ("from", "source", "from_entity"),
    "to": ("to", "target", "to_entity"),
}


# Every column each kind of file reads; any other column is ignored unless the person keeps it as observations.
ENTITY_KNOWN = {*SYNONYMS["name"], *SYNONYMS["type"], *SYNONYMS["observation"], *SYNONYMS["observations"],
                "status", "created_at", "updated_at", "kind", "superseded_at"}
RELATION_KNOWN = {*SYNONYMS["from"], *SYNONYMS["to"], *SYNONYMS["type"], "context", "active", "created_at",
                  "ended_at"}


def ignored_columns(header: list[str], kind: str) -> list[str]:
    """The columns of a file of ``kind`` that no part of the graph reads (empty header cells left out)."""
    known = ENTITY_KNOWN if kind == "entities" else RELATION_KNOWN
    return [h for h in header if h and h not in known]


@dataclass
class CsvGraph:
    entities: dict[str, dict] = field(default_factory=dict)  # name -> {type, status, created, updated, obs: [...]}
    relations: list[tuple] = field(default_factory=list)  # (row, from, to, type, context, active, created, ended)
    where: dict[str, str] = field(default_factory=dict)  # relation key -> "file, row N"
    skipped: list[str] = field(default_factory=list)  # "file: why" (symbolic links, never followed)
    ignored: list[str] = field(default_factory=list)  # "file: column, column" that nothing read


def _read_rows(path: Path, explicit: bool = False) -> tuple[list[str], list[tuple[int, dict]]]:
    """``explicit``: the file the person named (followed even if a link); files found beside it or in a folder are not."""
    try:
        data = path.read_bytes() if explicit else vault_files.read_regular_file(path, MAX_CSV_BYTES, "CSV file")
    except OSError as exc:
        raise ImportInputError(f"{path} cannot be read ({exc.strerror}).") from None
    except vault_files.NoteSkipped as why:
        raise ImportInputError(f"{path}: {why}.") from None
    if b"\x00" in data:
        raise ImportInputError(f"{path} is not a CSV file (it holds binary data).")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ImportInputError(f"{path} is not UTF-8 text; save it from the spreadsheet as “CSV UTF-8”.") from None
    first = text.split("\n", 1)[0]
    delimiter = max(",;\t", key=first.count)
    rows = csv_safety.strict_rows(path, text, delimiter)
    if not rows:
        raise ImportInputError(f"{path} is empty.")
    header = [h.strip().lower().replace(" ", "_") for h in rows[0]]
    if header in (ENTITY_COLUMNS, RELATION_COLUMNS):  # Limbic's own file: undo what the export neutralised
        rows = [rows[0], *([csv_safety.restore(c) for c in row] for row in rows[1:])]
    out = []
    for n, row in enumerate(rows[1:], start=2):
        if not any(c.strip() for c in row):
            continue
        out.append((n, {h: (row[i] if i < len(row) else "") for i, h in enumerate(header)}))
    return header, out


def _col(row: dict, key: str) -> str:
    for name in SYNONYMS.get(key, (key,)):
        if name in row and row[name] is not None:
            return row[name]
    return ""


def _kind_of(header: list[str]) -> str | None:
    cols = set(header)
    if cols & set(SYNONYMS["from"]) and cols & set(SYNONYMS["to"]):
        return "relations"
    if cols & set(SYNONYMS["name"]):
        return "entities"
    return None


def _files(path: Path, skipped: list[str]) -> list[Path]:
    """The CSV files to read: those of a folder, or a file and its sibling; links in a folder or to a
    sibling are never followed (``skipped`` gets why), as for a vault."""
    if path.is_dir():
        files, links = vault_files.walk(path, (".csv",), recursive=False)
        skipped += [s for s in links if not s.split(":", 1)[0].endswith("/")]  # linked folders are not read anyway
        return [p for p in files if p.suffix.lower() == ".csv"]
    files = [path]
    for a, b in (("entities", "relations"), ("relations", "entities")):
        if a in path.name:
            sibling = path.with_name(path.name.replace(a, b))
            if sibling.is_symlink():
                skipped.append(f"{sibling.name}: {vault_files.link_reason(sibling, path.parent, os.path.realpath(path.parent))}")
            elif sibling.exists():
                files.append(sibling)
    return files


def read_csv(path: Path, keep_columns: bool = False) -> CsvGraph:
    """Read and validate the entity and relation files; raises ImportInputError naming file and row.

    ``keep_columns``: an entity file's columns no part of the graph reads become observations
    ("column: value") instead of being left out.
    """
    path = Path(path)
    out = CsvGraph()
    seen_any = False
    for file in _files(path, out.skipped):
        header, rows = _read_rows(file, explicit=file == path)
        kind = _kind_of(header)
        if kind is None:
            raise ImportInputError(
                f"{file} has neither a name column (entities) nor from and to columns (relations)."
            )
        seen_any = True
        extra = ignored_columns(header, kind) if keep_columns and kind == "entities" else []
        if not extra and ignored_columns(header, kind):
            out.ignored.append(f"{file.name}: {', '.join(ignored_columns(header, kind))}")
        for n, row in rows:
            try:
                if kind == "entities":
                    _entity_row(out, row, extra)
                else:
                    _relation_row(out, row, f"{file.name}, row {n}")
            except ValidationError as exc:
                raise ImportInputError(f"{file}, row {n}: {str(exc).rstrip('.')}.") from None
    if not seen_any:
        raise ImportInputError(f"{path} holds no CSV files.")
    return out


def _entity_row(out: CsvGraph, row: dict, extra: list[str] = ()) -> None:
    name = clean_name(_col(row, "name"))
    etype = _col(row, "type").strip()
    ent = out.entities.setdefault(name, {"type": None, "status": None, "created": None, "updated": None, "obs": []})
    ent["type"] = ent["type"] or (clean_name(etype, "type", 128) if etype else None)
    status = _col(row, "status").strip()
    ent["status"] = ent["status"] or (clean_status(status) if status else None)
    ent["created"] = ent["created"] or clean_stamp(_col(row, "created_at"))
    ent["updated"] = ent["updated"] or clean_stamp(_col(row, "updated_at"))
    texts = [_col(row, "observation")]
    if not texts[0] and _col(row, "observations"):
        texts = _col(row, "observations").split("\n")
    texts += [f"{column}: {row[column].strip()}" for column in extra if (row.get(column) or "").strip()]
    for text in texts:
        if text.strip():
            ent["obs"].append((clean_observation(text), _col(row, "kind").strip() or None, clean_stamp(_col(row, "superseded_at"))))


def _relation_row(out: CsvGraph, row: dict, where: str) -> None:
    a = clean_name(_col(row, "from"))
    b = clean_name(_col(row, "to"))
    rtype = clean_name(_col(row, "type") or "links_to", "relation type", 128)
    active = _col(row, "active").strip().lower() not in ("0", "false", "no", "n")
    ended = clean_stamp(_col(row, "ended_at"))
    out.relations.append((where, a, b, rtype, _col(row, "context").strip() or None, active and not ended,
                          clean_stamp(_col(row, "created_at")), ended))


def import_csv(graph: Graph, path, progress=None, cancelled=None, embed: bool = True,
               keep_columns: bool = False) -> ImportReport:
    """Import entity and relation CSV files: validate all, back up, one transaction, then embed
    (``keep_columns``: columns nothing reads become observations)."""
    data = read_csv(Path(path), keep_columns)
    report = ImportReport("csv", str(path), entities_read=len(data.entities), skipped=list(data.skipped))
    if data.ignored:  # said, never dropped silently
        report.notes.append(f"{'a column was' if sum(c.count(',') + 1 for c in data.ignored) == 1 else 'columns were'} "
                            f"ignored ({'; '.join(data.ignored)})")
    report.notes += backup_before_import(graph)
    before = count_before(graph)
    total = len(data.entities) + len(data.relations)
    with graph.write(embed=False):
        ids = {}
        for i, (name, ent) in enumerate(data.entities.items()):
            if i % 50 == 0 and cancelled and cancelled():
                raise Cancelled("The import was cancelled; nothing was changed.")
            if progress and i % 50 == 0:
                progress("graph", i, total)
            ids[name], _ = graph.merge_entity(name, ent["type"], ent["status"], ent["created"], ent["updated"])
            for text, kind, superseded in ent["obs"]:
                graph.merge_observation(ids[name], text, kind, ent["created"], superseded)
        for where, a, b, rtype, context, active, created, ended in data.relations:
            a_id, b_id = ids.get(a) or graph.entity_id(a), ids.get(b) or graph.entity_id(b)
            if a_id is None or b_id is None:
                missing = a if a_id is None else b
                report.missing_links.setdefault(missing, []).append(where)
                continue
            graph.merge_relation(a_id, b_id, rtype, context, active, created, ended)
    if progress:
        progress("graph", total, total)
    return finish(graph, report, before, progress, cancelled, embed)


def _write(path: Path, header: list[str], rows) -> None:
    tmp = path.with_name(path.name + ".part")
    with open(tmp, "w", encoding="utf-8-sig", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(header)
        writer.writerows([csv_safety.neutralise(c) for c in row] for row in rows)
        fh.flush()
        os.fsync(fh.fileno())
    osfiles.replace(tmp, path)


def export_csv(graph: Graph, folder, force: bool = False) -> tuple[int, int]:
    """Write entities.csv and relations.csv into ``folder``; returns (entity rows, relation rows).

    The folder is new, empty or an earlier CSV export of Limbic; ``force`` writes into any folder.
    """
    from limbic.service.export_guard import guard_folder, mark_folder

    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise ImportInputError(f"{folder} is a file; choose a folder for entities.csv and relations.csv.")
    guard_folder(folder, "csv", force)
    folder.mkdir(parents=True, exist_ok=True)
    mark_folder(folder, "csv", [ENTITIES_FILE, RELATIONS_FILE])
    entity_rows = []
    for ent in graph.iter_entities():
        base = [ent.name, ent.entity_type, ent.status, ent.created_at, ent.updated_at]
        if not ent.observations:
            entity_rows.append(base + ["", "", ""])
        for o in ent.observations:
            entity_rows.append(base + [o.content, o.kind, o.superseded_at or ""])
    relation_rows = [
        [r.from_name, r.to_name, r.relation_type, r.context or "", 1 if r.active else 0,
         graph.db.scalar("SELECT created_at FROM relations WHERE id = ?", (r.id,)), r.ended_at or ""]
        for r in graph.all_relations(ended=True)
    ]
    _write(folder / ENTITIES_FILE, ENTITY_COLUMNS, entity_rows)
    _write(folder / RELATIONS_FILE, RELATION_COLUMNS, relation_rows)
    return len(entity_rows), len(relation_rows)
