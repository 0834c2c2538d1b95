"""`limbic mcp`: the Model Context Protocol over stdio, on the same graph file the app uses.

One thread owns the graph (its SQLite connection and the model); every tool call runs there in
turn, each write as one transaction, and its answer is sent from there. The reading thread answers
what needs no graph (the handshake, the tool list) at once, so a client is served while the file
opens. Once a second a watcher asks the graph's thread whether another program committed (the
change log): when the graph changed, by this server's own writes or anyone else's, clients
subscribed to ``memory://knowledge-graph`` get ``notifications/resources/updated`` (on
handshake-era connections after ``resources/subscribe``, on 2026-07-28 connections through
``subscriptions/listen``). The protocol is ours (``protocol.py``, ``wire.py``): the SDK's import
alone took twice the reference server's whole start.
"""

from __future__ import annotations

import concurrent.futures
import functools
import logging
import threading
from pathlib import Path

from limbic import __version__
from limbic.engine.errors import DatabaseError, LimbicError
from limbic.mcp import tools_health, tools_history, tools_time  # noqa: F401  (each tool module registers its tools)
from limbic.mcp import activity as mcp_activity
from limbic.mcp import wire_json
from limbic.mcp.protocol import ClientInfo, Request, Session
from limbic.mcp.sync import BackgroundSync
from limbic.mcp.wire import INTERNAL_ERROR, INVALID_PARAMS, Wire
from limbic.mcp.arguments import sentence as arguments_problem
from limbic.mcp.tools import TOOLS, TOOLS_BY_NAME, ToolSpec, arguments_for, wire_result
from limbic.service import Outcome, memory, scope
from limbic.service.follow import cursor_at_end, others_since
from limbic.service.types import ORIGIN_ASSISTANT, Cursor
from limbic.service.background import BackgroundEmbedder, GraphFile, embed_backlog, load_model_into

logger = logging.getLogger(__name__)

RESOURCE_URI = "memory://knowledge-graph"
POLL_SECONDS = 1.0  # how often other programs' commits are looked for
SMALL_BACKLOG = 256  # entities waiting for vectors that the first meaning search embeds before it answers
INSTRUCTIONS = (
    "A personal knowledge graph kept by Limbic and shared with its desktop app: entities (a name, a type, "
    "observations) joined by relations in active voice. Use `search` to recall what is known (hybrid: meaning "
    "and exact words), open_nodes to read entities by name, and the create/add/delete tools to record what you "
    "learn. Prefer add_observations with `supersedes` and end_relation over deletes: they keep history."
)


class GraphHost:
    """The graph and its model on one thread; everything that touches them runs there.

    The model loads only when a tool that searches by meaning is first called; then a background
    embedder gives new writes their vectors, so writes return as soon as they are committed.
    """

    def __init__(self, db_path: Path, model_dir: Path | None, load_model: bool = True, read_only: bool = False) -> None:
        self.db_path = db_path
        self.read_only = read_only  # --read-only: write tools are refused
        self.model_dir = model_dir
        self.load_model = load_model
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="limbic-graph")
        self.opened = None
        self.open_error: str | None = None
        self.model_error: str | None = None
        self.params = None
        self.cursor: Cursor | None = None
        self.file: GraphFile | None = None
        self.embedder: BackgroundEmbedder | None = None
        self.model_tried = False

    def submit(self, fn, *args, **kwargs) -> concurrent.futures.Future:
        """Run ``fn(*args, **kwargs)`` on the graph's thread, after everything submitted before it."""
        return self._pool.submit(functools.partial(fn, *args, **kwargs))

    def start(self) -> None:
        """Queue the opening of the file first, so every later call finds it open (or its error)."""
        self._pool.submit(self._open_safely)

    def _open_safely(self) -> None:
        try:
            self.open()
        except Exception as exc:
            logger.exception("cannot open the graph")
            self.open_error = f"{self.db_path} cannot be opened: {exc}"

    def open(self) -> None:
        """On the graph's thread: open the file (and the model), as the assistant's writer."""
        from limbic import config
        from limbic.service.types import ScoringParams
        from limbic.service.opening import open_graph

        try:
            self.opened = open_graph(self.db_path, self.model_dir, load_model=False, origin=ORIGIN_ASSISTANT)
        except LimbicError as exc:
            self.open_error = str(exc)
            logger.error("cannot open the graph: %s", exc)
            return
        db = self.opened.graph.db
        self.model_error = None if self.load_model else "the model was not loaded (--no-model)"
        self.file = GraphFile(db.path)
        if db.readonly_note:
            logger.warning("%s", db.readonly_note)
        if self.model_error:
            logger.warning("semantic search is off: %s", self.model_error)
        try:
            self.params = ScoringParams.from_overrides(config.load_settings().scoring)
        except Exception as exc:  # a damaged settings file must not stop the server
            logger.warning("scoring settings ignored: %s", exc)
            self.params = ScoringParams()
        self.cursor = cursor_at_end(db)
        db.changed_by_others()  # remember the current data version
        logger.info("serving %s", db.path)

    def graph(self):
        if self.opened is None:
            raise DatabaseError(self.open_error or "The graph is not open.")
        return self.opened.graph

    def ensure_model(self) -> None:
        """On the graph's thread: load the model once, when a meaning search first needs it."""
        if self.model_tried or not self.load_model or self.opened is None:
            return
        self.model_tried = True
        scope.lift(self.opened.graph)  # the backlog is embedded whole, whoever asked
        self.model_error = load_model_into(self.opened, self.model_dir)
        graph = self.opened.graph
        if self.model_error:
            logger.warning("semantic search is off: %s", self.model_error)
            return
        logger.info("meaning search: the model is loaded")
        if graph.embedder is not None and not graph.db.readonly:
            if graph.pending_embeddings() <= SMALL_BACKLOG:
                embed_backlog(graph)  # the first meaning search then sees every entity
            self.embedder = BackgroundEmbedder(graph.db.path, graph.embedder, ORIGIN_ASSISTANT)
            self.embedder.start()

    def invoke(self, spec: ToolSpec, args: list, client: mcp_activity.Client | None = None, note: bool = True) -> Outcome:
        """On the graph's thread: one tool call and what it changed (logged as this client's, under the tool's name).

        ``note``: what a read tool returned is noted in the activity log now (else the caller calls ``note_reads``).
        """
        graph = self.graph()
        mcp_activity.begin_call(graph, spec.read_only, client, self.read_only)
        if spec.needs_model:
            self.ensure_model()
        if not spec.read_only and self.file is not None:
            self.file.check()  # a write into a deleted or replaced file would be lost
        fn = spec.function()
        if spec.name == "search":
            # A search by an assistant is a finished query whose results it reads: it counts as an
            # access of every entity returned (README, "When a search counts as an access").
            fn = functools.partial(fn, record=True, params=self.params, model_error=self.model_error)
        with graph.db.activity.using(spec.name):  # through the assistant's scoped view (service/scope.py)
            outcome = scope.call(graph, client.name if client else "", spec.name, spec.read_only, fn,
                                 list(spec.input_schema["properties"]), args)
        if note:
            mcp_activity.note_reads(graph, spec.name, outcome.value)
        if not spec.read_only:
            if self.file is not None and (problem := self.file.problem()):
                raise DatabaseError(problem.replace("so writes are refused", "so this write went into the old file"))
            if self.embedder is not None:
                self.embedder.wake(outcome.changes.added | outcome.changes.changed | outcome.changes.relations)
        return outcome

    def note_reads(self, spec: ToolSpec, value) -> None:
        """On the graph's thread, after the answer went out: which entities a read tool gave the client."""
        try:
            mcp_activity.note_reads(self.graph(), spec.name, value)
        except Exception as exc:  # a note must never cost the client its answer
            logger.info("reads not noted: %s", exc)

    def resource(self, client: str = "") -> dict:
        return scope.read_resource(self.graph(), client, memory.graph_resource)

    def others_changed(self, client: str = "") -> bool:
        """On the graph's thread: did another program commit a change this client would see?"""
        if self.opened is None or self.cursor is None:
            return False
        db = self.opened.graph.db
        if not db.changed_by_others():
            return False
        changes = others_since(db, self.cursor)
        return changes.graph_changed and scope.notices(self.opened.graph, client, changes)

    def close(self) -> None:
        if self.embedder is not None:
            self.embedder.stop()

        def _close() -> None:
            if self.opened is not None:
                self.opened.close()
                self.opened = None

        self._pool.submit(_close)
        self._pool.shutdown(wait=True)


class MemoryServer:
    """The protocol side: tools, the graph resource and its update notifications."""

    def __init__(self, host: GraphHost, wire: Wire) -> None:
        self.host = host
        self.session = Session(
            wire, {"name": "limbic", "title": "Limbic knowledge graph", "version": __version__}, INSTRUCTIONS, {
                "tools/list": self.list_tools,
                "tools/call": self.call_tool,
                "resources/list": self.list_resources,
                "resources/templates/list": lambda request: request.reply({"resourceTemplates": []}),
                "resources/read": self.read_resource,
                "resources/subscribe": self.subscribe,
                "resources/unsubscribe": self.unsubscribe,
            })
        self._clients: dict[ClientInfo, mcp_activity.Client] = {}
        self._stop = threading.Event()
        # A host without a file of its own (a stand-in, a read-only server) has nothing to sync.
        path = getattr(host, "db_path", None)
        self.sync = None if path is None or getattr(host, "read_only", True) else BackgroundSync(path)

    # -- tools ----------------------------------------------------------------------------

    def list_tools(self, request: Request) -> None:
        request.reply({"tools": [
            {
                "name": t.name,
                "title": t.title,
                "description": t.description,
                "inputSchema": t.input_schema,
                "outputSchema": t.output_schema,
                "annotations": {
                    "title": t.title, "readOnlyHint": t.read_only, "destructiveHint": t.destructive,
                    "idempotentHint": t.idempotent, "openWorldHint": False,
                },
                "execution": {"taskSupport": "forbidden"},  # as the reference declares: every call answers in place
            }
            for t in TOOLS
        ]})

    def client(self, info: ClientInfo) -> mcp_activity.Client:
        """The activity log's client for this connection (one session as long as the process serves)."""
        if info not in self._clients:
            self._clients[info] = mcp_activity.Client(id(self.session), info.name, info.version)
        return self._clients[info]

    def call_tool(self, request: Request) -> None:
        name, arguments = request.params.get("name"), request.params.get("arguments")
        if not isinstance(name, str):
            request.fail(INVALID_PARAMS, "tools/call needs “name”, the name of a tool (tools/list has them).")
            return
        spec = TOOLS_BY_NAME.get(name)
        if spec is None:
            request.fail(INVALID_PARAMS, f"Tool {name} not found")
            return
        # A key the schema does not name or a value of the wrong type is the tool's error, not the protocol's:
        # the model reads it and corrects its call (an unknown tool stays a protocol error, as in the reference).
        problem = arguments_problem(name, spec.input_schema, {} if arguments is None else arguments)
        if problem is not None:
            request.reply(_error(problem))
            return
        self.host.submit(self._run_tool, request, spec, arguments or {}, self.client(request.client))

    def _run_tool(self, request: Request, spec: ToolSpec, arguments: dict, client: mcp_activity.Client) -> None:
        """On the graph's thread: run the tool, tell subscribers when the graph changed, answer."""
        try:
            outcome = self.host.invoke(spec, arguments_for(spec, arguments), client, note=False)
        except LimbicError as exc:
            logger.info("%s refused: %s", spec.name, exc)
            request.reply(_error(str(exc)))
            return
        except Exception:
            logger.exception("%s failed", spec.name)
            request.reply(_error(f"{spec.name} failed because of an unexpected error in Limbic (see its log); nothing was changed."))
            return
        if outcome.changes.graph_changed:
            self.session.resource_updated(RESOURCE_URI)
            if self.sync is not None:
                self.sync.written()
        try:
            text, structured = wire_result(spec, outcome.value)
        except Exception:
            logger.exception("%s: its result could not be written", spec.name)
            request.reply(_error(f"{spec.name} was done, but its result could not be written (see Limbic's log)."))
            return
        request.reply({"content": [{"type": "text", "text": text}], "structuredContent": structured, "isError": False},
                      plain=spec.plain)
        if spec.read_only:
            self.host.note_reads(spec, outcome.value)  # after the answer: the client does not wait for the log

    # -- the graph resource ---------------------------------------------------------------

    def list_resources(self, request: Request) -> None:
        request.reply({"resources": [{
            "name": "knowledge-graph",
            "title": "Knowledge Graph",
            "uri": RESOURCE_URI,
            "description": "The full knowledge graph with all entities and relations",
            "mimeType": "application/json",
        }]})

    def _uri(self, request: Request) -> str | None:
        uri = request.params.get("uri")
        if not isinstance(uri, str):
            request.fail(INVALID_PARAMS, f"{request.method} needs “uri”, a string ({RESOURCE_URI}).")
            return None
        return uri

    def read_resource(self, request: Request) -> None:
        uri = self._uri(request)
        if uri is None:
            return
        if uri != RESOURCE_URI:
            request.fail(INVALID_PARAMS, f"Resource {uri} not found")
            return

        def read() -> None:
            try:
                text = wire_json.dumps(self.host.resource(request.client.name), plain=True)
            except LimbicError as exc:
                request.fail(INTERNAL_ERROR, str(exc))
                return
            except Exception:
                logger.exception("reading the graph resource failed")
                request.fail(INTERNAL_ERROR, "The graph could not be read because of an unexpected error in Limbic (see its log).")
                return
            request.reply({"contents": [{"uri": RESOURCE_URI, "mimeType": "application/json", "text": text}]}, plain=True)

        self.host.submit(read)

    def subscribe(self, request: Request) -> None:
        uri = self._uri(request)
        if uri is not None:
            self.session.subscribed.add(uri)
            request.reply({})

    def unsubscribe(self, request: Request) -> None:
        uri = self._uri(request)
        if uri is not None:
            self.session.subscribed.discard(uri)
            request.reply({})

    def watch_others(self) -> None:
        """Poll the change log about once a second; notify when another program changed the graph."""
        while not self._stop.wait(POLL_SECONDS):
            try:
                changed = self.host.submit(self.host.others_changed, self.session.client.name).result()
            except Exception as exc:  # a busy or vanished file, or the server closing: try again next time
                logger.info("looking for outside changes failed: %s", exc)
                continue
            if changed:
                self.session.resource_updated(RESOURCE_URI)

    # -- running --------------------------------------------------------------------------

    def serve(self) -> None:
        """Answer until the client closes its end; calls already queued still finish (and answer)."""
        self.host.start()  # the file opens on the graph's thread while the handshake is answered
        watcher = threading.Thread(target=self.watch_others, name="limbic-watch", daemon=True)
        watcher.start()
        if self.sync is not None:
            self.sync.start()
        try:
            self.session.serve()
        finally:
            self._stop.set()
            if self.sync is not None:
                self.sync.stop()


def _error(message: str) -> dict:
    return {"content": [{"type": "text", "text": message}], "isError": True}


def serve(db_path: Path, model_dir: Path | None, load_model: bool = True, read_only: bool = False) -> int:
    """Serve until the client closes stdin; returns the exit status."""
    host = GraphHost(db_path, model_dir, load_model, read_only)
    try:
        MemoryServer(host, Wire.claim_stdio()).serve()
    except KeyboardInterrupt:
        pass
    finally:
        host.close()
    return 0
