"""The command line: launch the app, import, export, search, info, eval."""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import os
import logging
import sys
import time
from pathlib import Path

import apsw

from limbic import __version__, config
from limbic.engine.errors import LimbicError

logger = logging.getLogger(__name__)



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
        if self._shown:
            self.stream.write("\n")
            self.stream.flush()
            self._shown = False


def _db_path(args: argparse.Namespace) -> Path:
    return Path(args.db).expanduser() if args.db else config.default_db_path()


def _open(args: argparse.Namespace, load_model: bool = True, write: bool = False, existing: bool = False):
    """Open the graph; a command that writes refuses a read-only file with its note (said once);
    ``existing``: a command that only reads refuses a path with no graph instead of creating one."""
    from limbic.engine.session import open_graph
    from limbic.service.opening import require_existing_graph

    path = require_existing_graph(_db_path(args)) if existing else _db_path(args)
    note = config.new_graph_note(path)
    if note:
        print(f"limbic: {note}", file=sys.stderr)
    opened = open_graph(path, config.model_dir_override(), load_model=load_model and not write,
                         origin="cli")  # named in the change log, so the app can say who changed what
    if write and opened.graph.db.readonly:
        note = opened.graph.db.readonly_note or f"{opened.graph.db.path} is open read-only."
        opened.close()
        raise LimbicError(note)
    if write and load_model:
        from limbic.engine.session import attach_model

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


def _embed_pending(graph) -> None:
    # A read-only file cannot store vectors: search uses full text and what is already embedded.
    pending = graph.pending_embeddings() if graph.embedder and not graph.db.readonly else 0
    if pending:
        print(f"Embedding {pending} entities with {graph.embedder.spec.name}…", file=sys.stderr)
        bar = TerminalProgress()
        graph.embed_pending(progress=lambda d, t: bar("embed", d, t))
        bar.finish()


def cmd_import(args: argparse.Namespace) -> int:
    from limbic.service.importers import KIND_NAMES, detect_kind, import_path

    kind = getattr(args, "kind", None) or detect_kind(Path(args.file))  # a bad path is refused before opening
    opened = _open(args, write=True)
    try:
        bar = TerminalProgress()
        summary = import_path(opened.graph, Path(args.file), progress=bar, kind=kind)
        bar.finish()
        print(f"Imported {args.file} ({KIND_NAMES[kind]}): {summary.describe()}")
    finally:
        opened.close()
    return 0


def _export_folder(args: argparse.Namespace, graph) -> int:
    """``--format markdown|csv``: files into a folder."""
    if not args.output:
        raise LimbicError(f"--format {args.format} writes a folder of files: name it with -o FOLDER.")
    if args.format == "markdown":
        from limbic.service.importers.markdown_export import export_markdown

        n = export_markdown(graph, Path(args.output))
        print(f"Exported {n} notes to {args.output}", file=sys.stderr)
    else:
        from limbic.service.importers.csv_io import export_csv

        entities, relations = export_csv(graph, Path(args.output))
        print(f"Exported {entities} entity rows and {relations} relation rows to {args.output}", file=sys.stderr)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from limbic.engine.jsonl import export_to

    opened = _open(args, load_model=False, existing=True)
    try:
        if getattr(args, "format", "jsonl") != "jsonl":
            return _export_folder(args, opened.graph)
        if args.output:
            from limbic.service.files import export_jsonl

            n = export_jsonl(opened.graph, args.output, force=args.force)
            print(f"Exported {n} lines to {args.output}", file=sys.stderr)
        else:
            export_to(opened.graph, sys.stdout)
    finally:
        opened.close()
    return 0


def cmd_embed(args: argparse.Namespace) -> int:
    opened = _open(args, write=True)
    try:
        if opened.graph.embedder is None:
            raise LimbicError("Nothing can be embedded without a model.")
        pending = opened.graph.pending_embeddings()
        _embed_pending(opened.graph)
        print(f"Embedded {pending} entities; {opened.graph.pending_embeddings()} wait." if pending
              else "Every entity is embedded.")
    finally:
        opened.close()
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    from limbic.engine.scoring import ScoringParams
    from limbic.engine.search import search

    from limbic.engine.search import MAX_LIMIT

    if not 1 <= args.limit <= MAX_LIMIT:
        raise LimbicError(f"--limit must be a whole number from 1 to {MAX_LIMIT:,}.")
    opened = _open(args, existing=True)
    try:
        # Answer with what is embedded now; the backlog is embedded on demand (``limbic embed``).
        waiting = opened.graph.pending_embeddings() if opened.graph.embedder else 0
        if waiting:
            # A note, not an error: it never starts with "limbic:", which marks the one sentence of a failure.
            print(f"Note: {waiting} entities wait for embedding and are found by their words only "
                  "(run `limbic embed`).", file=sys.stderr)
        params = ScoringParams.from_overrides(config.load_settings().scoring)
        response = search(opened.graph, args.query, args.limit, record=not args.no_record, params=params,
                          status=getattr(args, "status", None))
        if args.json:
            print(json.dumps(response.to_json(), ensure_ascii=False, indent=2))
            return 0
        if response.no_match:
            print(response.no_match_sentence)
        elif not response.results:
            print(f"No results ({response.mode}).")
        for i, r in enumerate(response.results, start=1):
            dist = "—" if r.distance is None else f"{r.distance:.3f}"
            print(f"{i:>2}. {r.name} ({r.entity_type})  score {r.limbic_score:.3f}  distance {dist}  via {r.branch}")
            if r.observations:
                print(f"    {r.observations[0][:110]}")
        print(f"[{response.mode}]", file=sys.stderr)
    finally:
        opened.close()
    return 0


def cmd_info(args: argparse.Namespace) -> int:
    from limbic.engine.db import SCHEMA_VERSION

    opened = _open(args, existing=True)
    try:
        g = opened.graph
        counts = g.counts()
        model = g.embedder.spec.name if g.embedder else f"none ({opened.model_error})"
        lines = [
            ("file", str(g.db.path)),
            ("schema", f"{g.db.user_version()} (this Limbic reads up to {SCHEMA_VERSION})"),
            ("entities", counts["entities"]),
            ("observations", counts["observations"]),
            ("relations", counts["relations"]),
            ("vectors", counts["vectors"]),
            ("waiting for embedding", g.pending_embeddings() if g.embedder else "—"),
            ("model", model),
            ("dimension", g.embedder.dim if g.embedder else g.db.get_meta("model_dim") or "—"),
            ("stored vectors' model", g.db.get_meta("model_name") or "—"),
        ]
        for key, value in lines:
            print(f"{key:>22}: {value}")
    finally:
        opened.close()
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    import tempfile

    from limbic.engine.embeddings import resolve_spec
    from limbic.engine.evaluation import METHODS, cache_path, evaluate, import_collection, load_collection
    from limbic.engine.scoring import ScoringParams
    from limbic.engine.session import open_graph

    coll = load_collection(Path(args.corpus), Path(args.queries), Path(args.qrels))
    with tempfile.TemporaryDirectory() as tmp:
        if args.keep:
            db_path = Path(args.keep)
        elif args.no_cache:
            db_path = Path(tmp) / "eval.db"
        else:
            # Embedding a collection takes minutes: keep it per corpus and model for the next run.
            try:
                identity = resolve_spec(config.model_dir_override()).identity()
            except Exception:  # no usable model: a full-text-only graph is cached as such
                identity = None
            db_path = cache_path(config.cache_dir() / "eval", Path(args.corpus), identity)
            db_path.parent.mkdir(parents=True, exist_ok=True)
        opened = open_graph(db_path, config.model_dir_override())
        try:
            if opened.model_error:
                print(f"limbic: semantic search is off: {opened.model_error}", file=sys.stderr)
            bar = TerminalProgress()
            import_collection(opened.graph, coll, progress=bar)
            bar.finish()
            params = ScoringParams.from_overrides(config.load_settings().scoring)
            results = evaluate(opened.graph, coll, params, progress=lambda d, t: bar("query", d, t))
            bar.finish()
        finally:
            opened.close()
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"{len(coll.docs)} documents, {len(coll.queries)} queries")
    print(f"{'method':<14}{'nDCG@10':>10}{'Recall@100':>12}")
    for method in METHODS:
        if method in results:
            m = results[method]
            print(f"{method:<14}{m['ndcg@10']:>10.4f}{m['recall@100']:>12.4f}")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from limbic.engine.check import check_graph, repair

    from limbic.engine.session import try_load_model

    from limbic.engine.db import Database

    # The model is compared with the stored vectors, not attached, and the file is opened without
    # the graph layer (which would recreate a lost table): a check changes nothing.
    from limbic.service.opening import require_existing_graph

    db = Database(require_existing_graph(_db_path(args)))
    if db.readonly and args.repair:
        db.close()
        raise LimbicError(db.readonly_note or f"{db.path} is open read-only; it cannot be repaired.")
    if db.readonly_note:
        print(f"limbic: {db.readonly_note}", file=sys.stderr)
    embedder = None
    try:
        if not args.no_model:
            embedder, error = try_load_model(config.model_dir_override())
            if error:
                print(f"limbic: vectors are not compared with a model: {error}", file=sys.stderr)
        if args.repair:
            bar = TerminalProgress()
            result = repair(db, embedder, progress=lambda d, t: bar("embed", d, t))
            bar.finish()
            before, report = result.before, result.after
            print(f"Before repair: {before.summary()}")
            for line in before.lines():
                print(f"  {line}")
            done = []
            if result.tables_recreated:
                done.append(f"{', '.join(result.tables_recreated)} recreated")
            if result.tables_set_aside:
                done.append(f"unreadable usage history kept as {', '.join(result.tables_set_aside)}")
            if result.fts_rebuilt:
                done.append("full-text index rebuilt")
            if result.reindexed:
                done.append("SQLite indexes rebuilt")
            if result.vectors_dropped:
                done.append(f"{result.vectors_dropped} vectors dropped")
            if result.embedded:
                done.append(f"{result.embedded} entities embedded")
            print(f"Repaired: {', '.join(done) or 'nothing to do'}; the graph itself was not changed.")
        else:
            report = check_graph(db, embedder)
        if args.json:
            print(json.dumps({**report.__dict__, "consistent": report.consistent, "file_ok": report.file_ok}, indent=2))
        else:
            print(report.summary())
            for line in report.lines():
                print(f"  {line}")
            if not report.file_ok:
                print("  The file itself is damaged: restore a backup (`limbic backup --list`, `limbic restore`).")
            elif not report.consistent and not args.repair:
                print("  Run `limbic check --repair` to rebuild the full-text index and vectors from the graph.")
        return 0 if report.consistent else 2
    finally:
        db.close()


def cmd_backup(args: argparse.Namespace) -> int:
    from limbic.engine.backup import KEEP_BACKUPS, backup_database, list_backups

    if args.list:
        backups = list_backups(_db_path(args))
        if not backups:
            print(f"No backups of {_db_path(args)} yet.")
        for b in backups:
            print(f"{b.path}  {b.taken:%Y-%m-%d %H:%M:%S} UTC  {b.reason}  {b.size / 1e6:.1f} MB")
        return 0
    opened = _open(args, load_model=False, existing=True)
    try:
        path = backup_database(opened.graph.db, reason="manual", keep=args.keep or KEEP_BACKUPS)
        print(f"Backed up {opened.graph.db.path} to {path}")
    finally:
        opened.close()
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    from limbic.engine.backup import restore

    opened = _open(args, load_model=False, write=True)
    try:
        before = restore(opened.graph.db, Path(args.backup))
        print(f"Restored {opened.graph.db.path} from {args.backup}; the state it replaced is kept in {before}")
    finally:
        opened.close()
    return 0


def cmd_mcp(args: argparse.Namespace) -> int:
    # Only protocol messages may reach standard output: the SDK moves it aside while serving, and
    # everything Limbic logs goes to standard error (which MCP clients keep in their logs).
    from limbic.mcp.server import serve

    logging.getLogger("limbic").setLevel(logging.INFO)
    return serve(_db_path(args), config.model_dir_override(), load_model=not args.no_model)


def cmd_gui(args: argparse.Namespace) -> int:
    from limbic.ui.app import run

    note = config.new_graph_note(_db_path(args)) if args.db else ""
    if note:
        print(f"limbic: {note}", file=sys.stderr)  # the window says it too

    return run(_db_path(args) if args.db else None, smoke=args.smoke)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="limbic", description="A personal knowledge graph with local hybrid search.")
    parser.add_argument("--version", action="version", version=f"limbic {__version__}")
    parser.add_argument("--db", help="the graph file (default: LIMBIC_DB or the user data folder)")
    parser.add_argument("--smoke", action="store_true", help="start offscreen on a sample graph, search, exit 0 if right")
    sub = parser.add_subparsers(dest="command")
    # --db is accepted before or after the command.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", default=argparse.SUPPRESS, help="the graph file")

    p = sub.add_parser(
        "import", parents=[common],
        help="import a memory JSONL file, a memory engine database, a folder of Markdown notes or CSV files (idempotent)",
    )
    p.add_argument("file")
    p.add_argument("--kind", choices=["jsonl", "seed", "markdown", "csv"], help="what PATH is (default: recognised)")
    p.set_defaults(func=cmd_import)

    p = sub.add_parser("export", parents=[common], help="export the graph as memory JSONL, Markdown notes or CSV")
    p.add_argument("-o", "--output", help="write to this file (a folder for markdown and csv) instead of standard output")
    p.add_argument("--format", choices=["jsonl", "markdown", "csv"], default="jsonl", help="default: jsonl")
    p.add_argument("--force", action="store_true", help="replace a file that is not an earlier export")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("search", parents=[common], help="hybrid search")
    p.add_argument("query")
    p.add_argument("--limit", type=int, default=10)
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--no-record", action="store_true", help="do not record access signals")
    p.add_argument("--status", choices=["active", "paused", "done", "archived"], help="only entities with this status")
    p.set_defaults(func=cmd_search)

    p = sub.add_parser("embed", parents=[common], help="embed the entities that wait for a vector")
    p.set_defaults(func=cmd_embed)

    p = sub.add_parser("info", parents=[common], help="file, counts, model, schema version")
    p.set_defaults(func=cmd_info)

    p = sub.add_parser("check", parents=[common], help="integrity of the file, and graph, full-text and vectors agreeing")
    p.add_argument("--repair", action="store_true", help="rebuild the full-text index and vectors from the graph")
    p.add_argument("--no-model", action="store_true", help="do not load the model (vectors are not compared with it)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("backup", parents=[common], help="take a backup now (kept beside the file), or list them")
    p.add_argument("--list", action="store_true", help="list the backups instead of taking one")
    p.add_argument("--keep", type=int, help="how many backups to keep (default 10)")
    p.set_defaults(func=cmd_backup)

    p = sub.add_parser("restore", parents=[common], help="replace the graph with a backup (the current state is backed up first)")
    p.add_argument("backup", help="a backup file, as `limbic backup --list` shows")
    p.set_defaults(func=cmd_restore)

    p = sub.add_parser("mcp", parents=[common], help="serve the graph to an AI assistant (MCP over stdio)")
    p.add_argument("--no-model", action="store_true", help="do not load the model: search uses full text only")
    p.set_defaults(func=cmd_mcp)

    p = sub.add_parser("eval", parents=[common], help="nDCG@10 and Recall@100 on a BEIR collection")
    p.add_argument("corpus")
    p.add_argument("queries")
    p.add_argument("qrels")
    p.add_argument("--json", action="store_true")
    p.add_argument("--keep", help="keep the imported collection in this file and reuse it next time")
    p.add_argument("--no-cache", action="store_true", help="import into a temporary file (by default the "
                   "imported collection is cached per corpus and model in the user cache folder)")
    p.set_defaults(func=cmd_eval)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        if getattr(args, "func", None) is None:
            return cmd_gui(args)
        code = args.func(args)
        _flush_stdout()
        return code
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):
            _silence_stdout()
            return 0
        if exc.filename is None:  # writing standard output failed (e.g. `> /dev/full`)
            _silence_stdout()
            why = "the disk is full" if exc.errno == errno.ENOSPC else (exc.strerror or str(exc)).lower()
            print(f"limbic: the output could not be written ({why}).", file=sys.stderr)
        else:
            print(f"limbic: {exc.filename}: {(exc.strerror or str(exc)).lower()}.", file=sys.stderr)
        return 1
    except LimbicError as exc:
        print(f"limbic: {exc}", file=sys.stderr)
        return 1
    except (apsw.CorruptError, apsw.NotADBError):
        print("limbic: the graph file is damaged; run `limbic check` and see docs/safety.md.", file=sys.stderr)
        return 1
    except (apsw.FullError, apsw.IOError) as exc:
        why = "the disk is full" if isinstance(exc, apsw.FullError) else "a disk or file-system error"
        print(f"limbic: the graph file cannot be written ({why}); nothing was changed.", file=sys.stderr)
        return 1
    except apsw.Error as exc:
        print(
            f"limbic: the graph file could not be used ({type(exc).__name__}); run `limbic check`, "
            "and see docs/safety.md.",
            file=sys.stderr,
        )
        return 1
    except KeyboardInterrupt:
        print("limbic: interrupted.", file=sys.stderr)
        return 130


def _flush_stdout() -> None:
    """Push out what is buffered now, so a failure to write it is reported, not a traceback at exit."""
    with contextlib.suppress(AttributeError, ValueError):
        sys.stdout.flush()


def _silence_stdout() -> None:
    """After standard output failed, point it at nothing so that Python's exit does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, AttributeError, ValueError):
        pass
