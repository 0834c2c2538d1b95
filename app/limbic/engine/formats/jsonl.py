"""Import and export of the reference MCP memory server's JSONL format (idempotent)."""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from limbic import config, osfiles
from limbic.engine.formats import jsonl_extra
from limbic.engine.store.db import SQLITE_MAGIC
from limbic.engine.errors import Cancelled, ImportFileError, LimbicError, ValidationError
from limbic.engine.graph.graph import Graph, clean_name, clean_observation, name_key, shown
# The parsed lines live below this module and jsonl_extra (re-exported: importers use them from here).
from limbic.engine.formats.jsonl_records import (
    EXPORT_MARKER_LINE,
    EXPORT_MARKER_TYPE,
    EntityRecord,
    ReflectionRecord,
    RelationRecord,
)
from limbic.engine.wording import counted

logger = logging.getLogger(__name__)

Progress = Callable[[str, int, int], None]  # (stage, done, total)


@dataclass
class ImportSummary:
    entities_created: int = 0
    entities_in_file: int = 0
    observations_added: int = 0
    relations_added: int = 0
    embedded: int = 0
    skipped_relations: list[int] = field(default_factory=list)  # line numbers
    pending: int = 0
    # (line, name in the file, the existing name it was merged into): names differing only in case
    merged_names: list[tuple[int, str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what else happened, said after the counts (e.g. pruned backups)

    def describe(self) -> str:
        text = self.describe_graph()
        if self.merged_names:
            first = "; ".join(f"line {line}: “{shown(a, 40)}” into “{shown(b, 40)}”" for line, a, b in self.merged_names[:3])
            more = "…" if len(self.merged_names) > 3 else ""
            one = len(self.merged_names) == 1
            text += (
                f"; {counted(len(self.merged_names), 'name')} {'differs' if one else 'differ'} from another only in "
                f"case and {'was' if one else 'were'} merged into it ({first}{more})"
            )
        if self.skipped_relations:
            lines = ", ".join(map(str, self.skipped_relations[:5])) + ("…" if len(self.skipped_relations) > 5 else "")
            text += (f"; {counted(len(self.skipped_relations), 'relation')} skipped because an end is missing "
                     f"({'line' if len(self.skipped_relations) == 1 else 'lines'} {lines})")
        for note in self.notes:
            text += f"; {note}"
        if self.pending:
            text += f"; {counted(self.pending, 'entity')} still {'waits' if self.pending == 1 else 'wait'} for embedding"
        return text + "."

    def details(self) -> list[str]:
        """Every merged name and skipped relation, one line each (the sentence lists the first few)."""
        lines = [f"line {line}: “{a}” merged into “{b}”" for line, a, b in self.merged_names]
        return lines + [f"line {line}: relation skipped, an end is missing" for line in self.skipped_relations]

    def describe_graph(self) -> str:
        """What the graph part of the import changed."""
        return (
            f"{counted(self.entities_in_file, 'entity')} read ({self.entities_created} new), "
            f"{counted(self.observations_added, 'observation')} and {counted(self.relations_added, 'relation')} added"
        )


def _field(obj: dict, key: str, lineno: int, path: str, required: bool = True) -> object:
    if key not in obj:
        if required:
            raise ImportFileError(path, lineno, f'the "{key}" field is missing')
        return None
    return obj[key]


def parse_lines(lines: Iterator[tuple[int, str]], path: str) -> tuple[list[EntityRecord], list[RelationRecord]]:
    """Validate every line first; raises ImportFileError naming the file and line."""
    entities, relations, _ = parse_lines_full(lines, path)
    return entities, relations


MAX_PROBLEMS = 100  # bad lines listed at most (all are counted)


def parse_lines_full(
    lines: Iterator[tuple[int, str]], path: str, problems: list[tuple[int, str]] | None = None
) -> tuple[list[EntityRecord], list[RelationRecord], list[ReflectionRecord]]:
    """``parse_lines`` with Limbic's reflection lines as well.

    Every line is read: the ImportFileError names every bad line (the first 100, as (line, reason))
    and counts them all. ``problems`` holds bad lines found before parsing (e.g. undecodable text).
    """
    entities: list[EntityRecord] = []
    relations: list[RelationRecord] = []
    reflections: list[ReflectionRecord] = []
    found: list[tuple[int, str]] = list(problems or [])
    total = len(found)
    for lineno, raw in lines:
        try:
            _parse_line(lineno, raw, path, entities, relations, reflections)
        except ImportFileError as exc:
            total += 1
            if len(found) < MAX_PROBLEMS:
                found.append((exc.line, exc.reason))
    if found:
        found = sorted(found)[:MAX_PROBLEMS]
        first_line, first_reason = found[0]
        raise ImportFileError(path, first_line, first_reason, found, total)
    return entities, relations, reflections


def _parse_line(lineno: int, raw: str, path: str, entities: list[EntityRecord], relations: list[RelationRecord],
                reflections: list[ReflectionRecord]) -> None:
    """Parse one line into its list; raises ImportFileError for a bad one."""
    text = raw.strip()
    if not text:
        return
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ImportFileError(path, lineno, f"this is not valid JSON ({exc.msg})") from None
    except ValueError:  # e.g. a number with thousands of digits
        raise ImportFileError(path, lineno, "this line holds a value JSON readers refuse (such as a huge number)") from None
    except RecursionError:
        raise ImportFileError(path, lineno, "this line is nested too deeply to be an entity or a relation") from None
    if not isinstance(obj, dict):
        raise ImportFileError(path, lineno, "each line must be a JSON object")
    kind = obj.get("type")
    try:
        if kind == "entity":
            name = clean_name(_field(obj, "name", lineno, path))
            etype = obj.get("entityType")
            etype = clean_name(etype, "type", 128) if etype is not None else None
            obs = obj.get("observations", [])
            if not isinstance(obs, list):
                raise ValidationError('"observations" must be a list of texts.')
            entities.append(
                EntityRecord(lineno, name, etype, [clean_observation(o) for o in obs], jsonl_extra.entity_extra(obj, len(obs)))
            )
        elif kind == "relation":
            relations.append(
                RelationRecord(
                    lineno,
                    clean_name(_field(obj, "from", lineno, path)),
                    clean_name(_field(obj, "to", lineno, path)),
                    clean_name(_field(obj, "relationType", lineno, path), "relation type", 128),
                    jsonl_extra.relation_extra(obj),
                )
            )
        elif kind == "reflection":
            reflections.append(jsonl_extra.reflection_record(obj, lineno))
        elif kind == EXPORT_MARKER_TYPE:
            return  # the line that marks Limbic's own export carries no graph
        else:
            raise ImportFileError(path, lineno, f'unknown "type" {kind!r} (expected "entity" or "relation")')
    except ValidationError as exc:
        raise ImportFileError(path, lineno, str(exc).rstrip(".")) from None


def read_file(path: Path) -> tuple[list[EntityRecord], list[RelationRecord]]:
    """Read and validate a JSONL file (UTF-8, with or without BOM, LF or CRLF)."""
    entities, relations, _ = read_file_full(path)
    return entities, relations


def read_file_full(path: Path) -> tuple[list[EntityRecord], list[RelationRecord], list[ReflectionRecord]]:
    """``read_file`` with Limbic's reflection lines as well."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ImportFileError(str(path), 0, f"the file cannot be read ({exc.strerror})") from None
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    lines, problems = [], []
    for lineno, raw in enumerate(data.split(b"\n"), start=1):
        try:
            lines.append((lineno, raw.decode("utf-8")))
        except UnicodeDecodeError:
            problems.append((lineno, "the line is not valid UTF-8 text"))
    return parse_lines_full(iter(lines), str(path), problems)


def import_records(
    graph: Graph,
    entities: list[EntityRecord],
    relations: list[RelationRecord],
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
    embed: bool = True,
    reflections: list[ReflectionRecord] = (),
) -> ImportSummary:
    """Write the graph in one transaction, then embed what changed in batches.

    The graph part is all or nothing; embedding is derived data and resumes if interrupted.
    """
    summary = ImportSummary(entities_in_file=len(entities))
    total = len(entities) + len(relations)
    step = max(1, total // 200)
    # Names that differ only in case are one entity: the first spelling met (in the graph, else in
    # the file) is kept, and every merge is reported.
    spelling: dict[str, str] = {}
    with_aliases: list[tuple[EntityRecord, int]] = []
    with graph.write(embed=False):
        # Counted inside the write transaction: no other program's writes can fall in between.
        before = graph.counts()
        for i, rec in enumerate(entities):
            original = rec.name
            name = spelling.setdefault(name_key(original), original)
            if rec.extra:
                rec.name = name
                entity_id = jsonl_extra.write_entity(graph, rec)
            else:
                entity_id = graph.upsert_entity(name, rec.entity_type, rec.observations)
            if rec.extra and rec.extra.get("aliases"):
                with_aliases.append((rec, entity_id))
            stored = graph.db.scalar("SELECT name FROM entities WHERE id = ?", (entity_id,))
            spelling[name_key(original)] = stored
            if stored != original and name_key(stored) != name_key(original):  # the file's name is an alias here
                summary.notes.append(f"line {rec.line}: “{shown(original, 40)}” is an alias of “{shown(stored, 40)}” "
                                     "and was merged into it")
            elif stored != original:
                summary.merged_names.append((rec.line, original, stored))
            if i % step == 0:
                if cancelled and cancelled():
                    raise Cancelled("The import was cancelled; nothing was changed.")
                if progress:
                    progress("graph", i, total)
        for rec, entity_id in with_aliases:  # once every name is in: an alias must not be one of them
            summary.notes += jsonl_extra.write_aliases(graph, rec, entity_id)
        for j, rel in enumerate(relations):
            source = spelling.get(name_key(rel.source), rel.source)
            target = spelling.get(name_key(rel.target), rel.target)
            if graph.entity_id(source) is None or graph.entity_id(target) is None:
                summary.skipped_relations.append(rel.line)
                continue
            if rel.extra:
                rel.source, rel.target = source, target
                jsonl_extra.write_relation(graph, rel)
            else:
                graph.add_relation(source, target, rel.relation_type)
            if progress and (len(entities) + j) % step == 0:
                progress("graph", len(entities) + j, total)
        for ref in reflections:
            if not jsonl_extra.write_reflection(graph, ref):
                summary.skipped_relations.append(ref.line)
        written = graph.db.changes
        touched = None if written is None else written.added | written.changed | written.relations
        after = graph.counts()
    summary.entities_created = after["entities"] - before["entities"]
    summary.observations_added = after["observations"] - before["observations"]
    summary.relations_added = after["relations"] - before["relations"]
    if progress:
        progress("graph", total, total)
    if embed and graph.embedder is not None:
        try:
            # Only what this import brought: an older backlog is embedded on demand (``limbic embed``).
            summary.embedded = graph.embed_pending(
                progress=(lambda d, t: progress("embed", d, t)) if progress else None, cancelled=cancelled,
                only=touched,
            )
        except Cancelled:
            raise
        except LimbicError as exc:
            # The graph part is committed: say so, and what waits, instead of "nothing was changed".
            raise ImportPartlySaved(graph, summary, exc) from exc
    summary.pending = graph.pending_embeddings() if graph.embedder else 0
    return summary


class ImportPartlySaved(LimbicError):
    """The graph part of an import was saved but embedding it stopped (a full disk, a lost lock)."""

    def __init__(self, graph: Graph, summary: ImportSummary, cause: LimbicError) -> None:
        self.summary = summary
        try:
            summary.pending = graph.pending_embeddings()
            vectors = graph.counts()["vectors"]
            state = f"the graph holds {vectors} vectors and {summary.pending} entities wait for embedding"
        except Exception:  # reading can fail too on a failing disk; the sentence stays true without it
            state = "the entities without a vector wait for embedding"
        why = str(cause).split(";")[0].rstrip(".")
        why = why[0].lower() + why[1:] if why else "of an error"
        super().__init__(
            f"The import was saved ({summary.describe_graph()}), but embedding stopped because {why}: "
            f"{state}, which resumes the next time the file is opened with the model."
        )


def import_file(
    graph: Graph, path: Path, progress: Progress | None = None, cancelled=None, embed: bool = True, backup: bool = True
) -> ImportSummary:
    """Validate the whole file, take a rolling backup of a non-empty graph, then import; a bad line changes nothing."""
    entities, relations, reflections = read_file_full(path)
    if backup and not graph.db.readonly and str(graph.db.path) != ":memory:":
        from limbic.engine.store.backup import backup_database, needs_backup

        if needs_backup(graph.db):
            backup_database(graph.db, reason="before-import")
    return import_records(graph, entities, relations, progress, cancelled, embed, reflections)


def iter_export_lines(graph: Graph, extra: bool = True) -> Iterator[str]:
    """The graph as JSONL lines; ``extra`` adds Limbic's keys and lines (reference readers ignore them)."""
    for ent in graph.iter_entities():
        obj = {"type": "entity", "name": ent.name, "entityType": ent.entity_type, "observations": ent.observation_texts}
        if extra:
            obj.update(jsonl_extra.entity_keys(ent, graph))
        yield json.dumps(obj, ensure_ascii=False)
    for rel in graph.all_relations(ended=extra):
        obj = {"type": "relation", "from": rel.from_name, "to": rel.to_name, "relationType": rel.relation_type}
        if extra:
            obj.update(jsonl_extra.relation_keys(graph, rel))
        yield json.dumps(obj, ensure_ascii=False)
    if extra:
        for refl in graph.all_reflections():
            yield json.dumps(jsonl_extra.reflection_line(graph, refl), ensure_ascii=False)


def export_to(graph: Graph, out: IO[str]) -> int:
    """Write the graph as JSONL; returns the number of lines."""
    n = 0
    for line in iter_export_lines(graph):
        out.write(line + "\n")
        n += 1
    return n


def _is_sqlite_file(path: Path) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(16) == SQLITE_MAGIC
    except OSError:
        return False


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def export_target(graph: Graph, path: Path) -> Path:
    """Where an export may be written; raises LimbicError for anything it must not replace.

    Refused: the open graph file, its ``-wal``/``-shm``, its backups (or any SQLite database),
    folders and anything else that is not a regular file, and paths in a missing folder.
    """
    path = Path(path)
    db_path = graph.db.path
    if path.is_dir():
        raise LimbicError(f"{path} is a folder; give the name of a file to export to.")
    if str(db_path) != ":memory:":
        guarded = [db_path, db_path.with_name(db_path.name + "-wal"), db_path.with_name(db_path.name + "-shm")]
        if any(_same_file(path, g) for g in guarded) or any(os.path.abspath(path) == os.path.abspath(g) for g in guarded):
            raise LimbicError(f"{path} is the open graph file (or its journal); export to another file.")
        folder = config.backup_dir(db_path)
        if folder.is_dir() and path.exists() and _same_file(path.parent, folder):
            raise LimbicError(f"{path} is a backup of the graph; export to another file.")
    if path.exists():
        if not path.is_file():
            raise LimbicError(f"{path} is not a regular file (a device, pipe or socket); export to a file.")
        if _is_sqlite_file(path):
            raise LimbicError(f"{path} is an SQLite database (a graph or a backup); export to another file.")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise LimbicError(f"The folder {parent} does not exist; nothing was exported.")
    return path


def _export_error(path: Path, exc: OSError) -> LimbicError:
    if exc.errno == errno.ENOSPC:
        why = "the disk is full"
    elif exc.errno == errno.EROFS:
        why = "the file system is read-only"
    elif exc.errno in (errno.EACCES, errno.EPERM):
        why = "permission denied"
    else:
        why = (exc.strerror or str(exc)).lower()
    return LimbicError(f"{path} could not be written ({why}); nothing was exported.")


def export_file(graph: Graph, path: Path, marker: bool = False) -> int:
    """Export atomically: a temporary file in the same folder, renamed into place when complete; the line count.

    A failure leaves neither half a file under the chosen name nor the temporary file. ``marker``
    ends the file with the line that tells a later export it may replace it (not counted).
    """
    path = export_target(graph, Path(path))
    parent = path.parent if str(path.parent) else Path(".")
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=parent)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            n = export_to(graph, fh)
            if marker:
                fh.write(EXPORT_MARKER_LINE + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        # mkstemp makes the file private; an export gets the ordinary permissions of a new file.
        mask = os.umask(0)
        os.umask(mask)
        with contextlib.suppress(OSError):
            os.chmod(tmp, 0o666 & ~mask)
        osfiles.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise _export_error(path, exc) from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    return n
